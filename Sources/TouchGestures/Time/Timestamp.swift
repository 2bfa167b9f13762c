/// A moment on libinput's clock (`CLOCK_MONOTONIC`), in microseconds.
///
/// The engine never reads a clock: every timestamp comes from an input event or from
/// the scheduler that fires timers.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since an arbitrary origin (libinput's is boot time).
    public var microseconds: UInt64

    /// Makes a timestamp from microseconds.
    public init(microseconds: UInt64) {
        self.microseconds = microseconds
    }

    /// Makes a timestamp from milliseconds; convenient in tests and recordings.
    public static func milliseconds(_ value: UInt64) -> Timestamp {
        Timestamp(microseconds: value * 1_000)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.microseconds < rhs.microseconds
    }

    /// The timestamp `duration` later; negative durations move back, clamped at zero.
    public static func + (lhs: Timestamp, rhs: Duration) -> Timestamp {
        let delta = rhs.wholeMicroseconds
        if delta >= 0 { return Timestamp(microseconds: lhs.microseconds &+ UInt64(delta)) }
        let back = UInt64(-delta)
        return Timestamp(microseconds: lhs.microseconds > back ? lhs.microseconds - back : 0)
    }

    /// The time from `rhs` to `lhs`; negative when `lhs` is earlier.
    public static func - (lhs: Timestamp, rhs: Timestamp) -> Duration {
        .microseconds(Int64(bitPattern: lhs.microseconds &- rhs.microseconds))
    }

    /// Milliseconds with three decimals, e.g. `120.000ms`.
    public var description: String {
        let ms = microseconds / 1_000
        let fraction = microseconds % 1_000
        let padded = String(fraction)
        return "\(ms).\(String(repeating: "0", count: 3 - padded.count))\(padded)ms"
    }
}

extension Duration {
    /// The duration in whole microseconds, rounded toward zero.
    public var wholeMicroseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }

    /// The duration in seconds as a floating-point number.
    public var seconds: Double {
        Double(wholeMicroseconds) / 1_000_000
    }
}

/// The earlier of two deadlines, either of which may be missing: what a source with two
/// clocks answers the loop, at every wake-up, without building an array.
public func earliest(_ a: Timestamp?, _ b: Timestamp?) -> Timestamp? {
    guard let a else { return b }
    guard let b else { return a }
    return min(a, b)
}
