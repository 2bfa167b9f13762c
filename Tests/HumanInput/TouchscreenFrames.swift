import TouchGestures

/// Touchscreen frames as libinput delivers them: one `TouchEvent` per sensor frame,
/// a finger beginning in the first frame it is down and ending in the first it is not,
/// the others moved (or stationary when they did not move).
public enum TouchscreenFrames {
    /// The screen the corpus uses: a 13-inch 3:2 panel.
    public static let size = Size(width: 280, height: 187)
    /// The touchscreen's device number in samples and recordings.
    public static let device = DeviceID(2)

    /// The frames for `fingers`, with ids starting at `firstID`.
    public static func events(for fingers: [Finger], frames: [Double], firstID: Int = 1,
                              random: inout SeededRandom) -> [InputEvent] {
        var live: [Int: Touch] = [:]
        var events: [InputEvent] = []
        for time in frames {
            let stamp = timestamp(time)
            var changed: [Touch] = []
            for (index, finger) in fingers.enumerated() {
                let id = firstID + index
                if finger.isDown(at: time) {
                    let noise = Point(x: random.gaussian(standardDeviation: finger.jitter),
                                      y: random.gaussian(standardDeviation: finger.jitter))
                    let location = clamp(finger.path(time) + noise)
                    let previous = live[id]?.location
                    guard previous != location else { continue }
                    let touch = Touch(id: id, phase: previous == nil ? .began : .moved, location: location,
                                      previousLocation: previous, timestamp: stamp, type: .direct,
                                      device: device, surfaceSize: size)
                    live[id] = touch
                    changed.append(touch)
                } else if var touch = live[id] {
                    touch.previousLocation = touch.location
                    touch.phase = .ended
                    touch.timestamp = stamp
                    live[id] = nil
                    changed.append(touch)
                }
            }
            guard !changed.isEmpty else { continue }
            events.append(.touches(TouchEvent(timestamp: stamp, down: live.values, changed: changed)))
        }
        return events
    }

    private static func clamp(_ point: Point) -> Point {
        Point(x: min(max(point.x, 0), size.width), y: min(max(point.y, 0), size.height))
    }
}

/// A time in seconds from a sample's start as the sample's clock.
public func timestamp(_ seconds: Double) -> Timestamp {
    Timestamp(microseconds: Sample.start.microseconds + UInt64((seconds * 1_000_000).rounded()))
}
