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
        let positions = sensed(fingers, frames: frames, random: &random) { clamp($0) }
        return events(positions, firstID: firstID, type: .direct, device: device, size: size)
    }

    /// Where a sensor sees `fingers` in each of `frames`: each finger that is down, by its
    /// index, where it means to be plus the sensor's noise, drawn fresh for every frame
    /// (and passed through `clamp`, the surface's edges).
    public static func sensed(_ fingers: [Finger], frames: [Double], random: inout SeededRandom,
                              clamp: (Point) -> Point = { $0 }) -> [(time: Double, positions: [Int: Point])] {
        frames.map { time in
            var positions: [Int: Point] = [:]
            for (index, finger) in fingers.enumerated() where finger.isDown(at: time) {
                let noise = Point(x: random.gaussian(standardDeviation: finger.jitter),
                                  y: random.gaussian(standardDeviation: finger.jitter))
                positions[index] = clamp(finger.path(time) + noise)
            }
            return (time, positions)
        }
    }

    /// Frames of touches at `positions` (finger index -> place, per frame), a finger
    /// beginning in the first frame it is down and ending in the first it is not; a finger
    /// that did not move is not in a frame's changes. Touchscreen touches, or, with
    /// `type: .indirect`, touchpad fingers as the contact reader delivers them.
    public static func events(_ positions: [(time: Double, positions: [Int: Point])], firstID: Int = 1, type: TouchType,
                              device: DeviceID, size: Size) -> [InputEvent] {
        var live: [Int: Touch] = [:]
        var events: [InputEvent] = []
        let count = positions.map { $0.positions.keys.max().map { $0 + 1 } ?? 0 }.max() ?? 0
        for (time, frame) in positions {
            let stamp = timestamp(time)
            var changed: [Touch] = []
            for index in 0..<count {
                let id = firstID + index
                if let location = frame[index] {
                    let previous = live[id]?.location
                    guard previous != location else { continue }
                    let touch = Touch(id: id, phase: previous == nil ? .began : .moved, location: location,
                                      previousLocation: previous, timestamp: stamp, type: type,
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
