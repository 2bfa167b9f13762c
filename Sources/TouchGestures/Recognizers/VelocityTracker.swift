/// Velocity of a value over the last ``GestureDefaults/velocityWindow``, in units per second.
struct VelocityTracker {
    private var samples: [(time: Timestamp, value: Point)] = []
    var window: Duration = GestureDefaults.velocityWindow

    /// A tracker whose first sample is `value` at `time`; zero (the default) measures
    /// movement from where the fingers are then.
    init(_ value: Point = .zero, at time: Timestamp, window: Duration = GestureDefaults.velocityWindow) {
        self.window = window
        add(value, at: time)
    }

    mutating func add(_ value: Point, at time: Timestamp) {
        samples.append((time, value))
        let oldest = time + (Duration.zero - window)
        if let keep = samples.firstIndex(where: { $0.time >= oldest }), keep > 0 {
            samples.removeFirst(keep)
        }
    }

    mutating func removeAll() {
        samples.removeAll(keepingCapacity: true)
    }

    var velocity: Point {
        guard let first = samples.first, let last = samples.last, last.time > first.time else { return .zero }
        return (last.value - first.value) / (last.time - first.time).seconds
    }
}
