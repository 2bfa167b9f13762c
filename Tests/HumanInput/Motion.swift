import Glibc
import TouchGestures

/// The shapes of human movement the corpus is built from.
public enum Motion {
    /// The minimum-jerk position profile of a reaching movement (Flash & Hogan, 1985):
    /// the fraction of the distance covered at `s`, the fraction of the movement's time.
    /// Speed is bell-shaped: zero at both ends, 1.875 times the average at the middle,
    /// so a swipe starts slowly.
    public static func minimumJerk(_ s: Double) -> Double {
        let s = min(max(s, 0), 1)
        let s3 = s * s * s
        return s3 * (10 - 15 * s + 6 * s * s)
    }

    /// Sideways drift of a swipe, as a fraction of its distance, at progress `p` (0...1
    /// of the distance covered): a slanted line (`slant`) plus a bow that is largest
    /// halfway (`bow`).
    public static func drift(slant: Double, bow: Double, progress p: Double) -> Double {
        slant * p + bow * 4 * p * (1 - p)
    }

    /// A point `progress` (0...1) of the way along a circular arc from (0, 0) to
    /// (`chord`, 0) that bulges `sagitta` times the chord to positive sideways values:
    /// (along the chord, sideways).
    public static func arc(chord: Double, sagitta: Double, progress: Double) -> (along: Double, side: Double) {
        let bulge = abs(sagitta) * chord
        guard bulge > 0, chord > 0 else { return (chord * progress, 0) }
        // The circle through both ends and the top of the bulge.
        let radius = chord * chord / (8 * bulge) + bulge / 2
        let half = asin(min(chord / (2 * radius), 1))
        let angle = -half + 2 * half * progress
        let side = radius * cos(angle) - (radius - bulge)
        return (chord / 2 + radius * sin(angle), sagitta < 0 ? -side : side)
    }

    /// A resting hand's wander: slow postural sway plus physiological tremor (8-12 Hz),
    /// at most `amplitude` millimetres from where the fingers landed.
    public struct Wander: Sendable {
        var frequencies: [Double]
        var phases: [Double]
        var weights: [Double]
        var amplitude: Double

        /// A wander of at most `amplitude` mm, random in its frequencies and phases.
        public init(amplitude: Double, random: inout SeededRandom) {
            frequencies = [random.uniform(0.3...1.2), random.uniform(1.5...4), random.uniform(8...12),
                           random.uniform(0.3...1.2), random.uniform(1.5...4), random.uniform(8...12)]
            phases = (0..<6).map { _ in random.uniform(0...(2 * .pi)) }
            // Sway dominates; tremor is a tenth of a millimetre or so.
            weights = [0.65, 0.25, 0.10, 0.65, 0.25, 0.10]
            self.amplitude = amplitude
        }

        /// The offset from the landing point `seconds` after landing; zero at landing.
        public func offset(at seconds: Double) -> Point {
            func axis(_ first: Int) -> Double {
                var sum = 0.0
                for index in first..<(first + 3) {
                    sum += weights[index] * (sin(2 * .pi * frequencies[index] * seconds + phases[index]) - sin(phases[index]))
                }
                // Each term moves at most 2 * weight from its start; the sum at most 2.
                return sum / 2
            }
            // Scaled so that the offset's length never exceeds the amplitude.
            return Point(x: axis(0), y: axis(3)) * (amplitude / 2.0.squareRoot())
        }
    }
}

/// A hand moving while its fingers pinch: `vector` millimetres along a minimum-jerk
/// reach of `duration` seconds that starts `delay` seconds after the fingers do.
public struct HandTravel: Sendable {
    public var vector: Point
    public var delay: Double
    public var duration: Double

    public init(vector: Point, delay: Double, duration: Double) {
        self.vector = vector
        self.delay = delay
        self.duration = duration
    }

    /// A hand that stays where it is.
    public static let none = HandTravel(vector: .zero, delay: 0, duration: 1)

    /// Where the hand is `seconds` after the fingers started moving.
    public func offset(at seconds: Double) -> Point {
        vector == .zero ? .zero : vector * Motion.minimumJerk((seconds - delay) / duration)
    }
}
