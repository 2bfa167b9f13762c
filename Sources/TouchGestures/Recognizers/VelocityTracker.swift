/// Velocity of a value over the last ``GestureDefaults/velocityWindow``, in units per second.
///
/// Fed at every update of a gesture: its arithmetic is on whole microseconds, as
/// timestamps are. `Duration`'s (128-bit, through `components`) cost more than the rest
/// of the tracker; it is done once, when the window is set.
struct VelocityTracker {
    private var samples: [(time: Timestamp, value: Point)] = []
    private var windowMicroseconds = Self.defaultWindowMicroseconds

    private static let defaultWindowMicroseconds = GestureDefaults.velocityWindow.wholeMicroseconds

    /// How far back the samples reach.
    var window: Duration {
        get { .microseconds(windowMicroseconds) }
        set { windowMicroseconds = newValue.wholeMicroseconds }
    }

    /// A tracker whose first sample is `value` at `time`; zero (the default) measures
    /// movement from where the fingers are then.
    init(_ value: Point = .zero, at time: Timestamp, window: Duration = GestureDefaults.velocityWindow) {
        self.window = window
        add(value, at: time)
    }

    mutating func add(_ value: Point, at time: Timestamp) {
        samples.append((time, value))
        // `time - window`, clamped at zero as `Timestamp + Duration` is.
        let oldest: UInt64
        if windowMicroseconds >= 0 {
            let back = UInt64(windowMicroseconds)
            oldest = time.microseconds > back ? time.microseconds - back : 0
        } else {
            oldest = time.microseconds &+ UInt64(-windowMicroseconds)
        }
        if let keep = samples.firstIndex(where: { $0.time.microseconds >= oldest }), keep > 0 {
            samples.removeFirst(keep)
        }
    }

    mutating func removeAll() {
        samples.removeAll(keepingCapacity: true)
    }

    var velocity: Point {
        guard let first = samples.first, let last = samples.last, last.time > first.time else { return .zero }
        return (last.value - first.value) / (Double(last.time.microseconds - first.time.microseconds) / 1_000_000)
    }
}
