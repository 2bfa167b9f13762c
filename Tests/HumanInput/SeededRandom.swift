import Glibc
/// A small deterministic random source (SplitMix64), so that every run of the corpus
/// generates exactly the same samples on every machine and Swift version.
///
/// The standard library's `Double.random(in:using:)` is deterministic for a given
/// generator too, but its algorithm is not promised across releases; this one is ours.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Makes a source whose sequence depends only on `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<1 with 53 random bits.
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A number spread evenly over `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// A number whose logarithm is spread evenly over `range`'s: as many samples between
    /// 40 and 80 as between 200 and 400.
    public mutating func logUniform(_ range: ClosedRange<Double>) -> Double {
        exp(uniform(log(range.lowerBound)...log(range.upperBound)))
    }

    /// An integer in `range`.
    public mutating func integer(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// True with probability `probability`.
    public mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    /// One of `choices`.
    public mutating func pick<T>(_ choices: [T]) -> T {
        choices[integer(0...(choices.count - 1))]
    }

    /// A normally distributed number (Box-Muller) with mean 0.
    public mutating func gaussian(standardDeviation: Double) -> Double {
        let u1 = max(unit(), 1e-12)
        let u2 = unit()
        return standardDeviation * (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }

    /// A source for one sample: the corpus seed mixed with the sample's number, so a
    /// sample stays the same when samples are added to another kind.
    public func fork(_ number: Int) -> SeededRandom {
        var copy = SeededRandom(seed: state ^ (UInt64(truncatingIfNeeded: number) &* 0xD1B5_4A32_D192_ED03))
        _ = copy.next()
        return copy
    }
}
