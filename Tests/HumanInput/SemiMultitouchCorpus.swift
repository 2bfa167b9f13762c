import Glibc
import TouchGestures

/// A semi-MT touchpad (an ALPS or Synaptics PS/2 pad of about 2010, with no resolution):
/// what touchgest's contact reader makes of its fingers, and the taps libinput reports.
///
/// - The kernel reports a box around the fingers, not the fingers: its two corners are
///   (smallest x, smallest y) and (largest x, largest y), and `BTN_TOOL_*` says how many
///   fingers there are. One finger is its own box.
/// - The reader spreads that many touches evenly from the first corner to the second
///   (`ContactDevice`), so when a second finger lands left of or above the first, the
///   first touch jumps to the box's corner; when one of two lifts, the other jumps to
///   where the remaining finger is.
/// - libinput treats the pad as single-touch: one point (the first corner, which the
///   kernel copies to ABS_X/ABS_Y) and the finger count. Its tap fails once that point is
///   more than 1.3 mm from where a touch landed, measured in any frame in which the finger
///   count did not change (it skips the frame of the change, src/evdev-mt-touchpad-tap.c,
///   but not the frames after it; the rig shows both: docs/libinput-facts.md), or when the
///   fingers stay longer than its 180 ms tap timeout.
/// - PS/2 pads report about 80 times a second.
public enum SemiMultitouchCorpus {
    /// The pad's device number in samples and recordings.
    public static let device = DeviceID(3)
    /// libinput's size for a touchpad with no resolution (tp_init_default_resolution), which
    /// the reader also uses.
    public static let size = Size(width: 69, height: 50)
    /// libinput's tap motion threshold, in millimetres.
    static let tapMotion = 1.3
    /// libinput's tap timeout, in seconds.
    static let tapTimeout = 0.180
    /// The reader's first touch id on the pad (far from the touchscreen's).
    static let firstTouchID = 1_000

    /// Two fingers tapping: the first lands, the second `delay` seconds later at `offset`
    /// mm from it; they stay `duration` seconds after the second landed and lift
    /// `liftGap` seconds apart, the first or the second first.
    ///
    /// With `drift`, the first touch's reported position slides that many millimetres
    /// toward where the second finger lands, over the time before it lands: a real ALPS
    /// pad (issue 40) reports the first contact drifting 5-6 mm (at libinput's assumed
    /// size) in the ~100 ms before the second finger lands, as the approaching finger pulls
    /// the sensor's one estimate toward it.
    public static func tap(offset: Point, delay: Double, duration: Double, liftGap: Double, firstLiftsFirst: Bool,
                           drift: Double = 0, random: inout SeededRandom) -> [InputEvent] {
        let first = Point(x: random.uniform(25...45), y: random.uniform(15...35))
        let jitter = TouchpadCorpus.axisJitter(random.uniform(TouchpadCorpus.jitterRange))
        let lift = delay + duration
        let lifts = firstLiftsFirst ? [lift, lift + liftGap] : [lift + liftGap, lift]
        let pull = offset / max(offset.length, 1e-9) * drift
        let fingers = [
            Finger(landing: 0, lift: lifts[0], jitter: jitter) { time in first + pull * Motion.minimumJerk(time / delay) },
            Finger(landing: delay, lift: lifts[1], jitter: jitter) { _ in first + offset },
        ]
        return events(fingers, random: &random)
    }

    /// Two fingers scrolling: the second lands `delay` seconds after the first at `offset`
    /// mm from it, and both travel `travel` mm over `duration` seconds.
    public static func scroll(offset: Point, delay: Double, travel: Point, duration: Double, random: inout SeededRandom) -> [InputEvent] {
        let first = Point(x: 34.5, y: 25) - travel / 2 + Point(x: random.uniform(-5...5), y: random.uniform(-5...5))
        let jitter = TouchpadCorpus.axisJitter(random.uniform(TouchpadCorpus.jitterRange))
        let onset = delay + random.uniform(0.01...0.06)
        let lift = onset + duration + random.uniform(0...0.03)
        let fingers = [first, first + offset].enumerated().map { index, start in
            Finger(landing: index == 0 ? 0 : delay, lift: lift + random.uniform(0...0.015), jitter: jitter) { time in
                start + travel * Motion.minimumJerk((time - onset) / duration)
            }
        }
        return events(fingers, random: &random)
    }

    /// The reader's touch frames for `fingers`, and libinput's tap when it would report one.
    static func events(_ fingers: [Finger], random: inout SeededRandom) -> [InputEvent] {
        let interval = random.uniform(0.0120...0.0130)
        let times = frameTimes(for: fingers, interval: interval, wobble: 0.0003, random: &random)
        var live: [Int: Touch] = [:]
        var nextID = firstTouchID
        var events: [InputEvent] = []
        // libinput's one point and where each of its touches landed.
        var landedAt: [Point] = []
        var lastCount = 0
        var moved = false
        var firstLanding: Double?
        var secondLanding: Double?
        var mostFingers = 0
        for time in times {
            let down = fingers.filter { $0.isDown(at: time) }.map { finger in
                clamp(finger.path(time) + Point(x: random.gaussian(standardDeviation: finger.jitter),
                                                y: random.gaussian(standardDeviation: finger.jitter)))
            }
            let count = down.count
            let corners = down.isEmpty ? nil : (Point(x: down.map(\.x).min()!, y: down.map(\.y).min()!),
                                                Point(x: down.map(\.x).max()!, y: down.map(\.y).max()!))
            // libinput's view.
            if let corners {
                if firstLanding == nil { firstLanding = time }
                if count >= 2, secondLanding == nil { secondLanding = time }
                mostFingers = max(mostFingers, count)
                if count > landedAt.count {
                    landedAt += Array(repeating: corners.0, count: count - landedAt.count)
                } else if count < landedAt.count {
                    landedAt.removeLast(landedAt.count - count)
                }
                if count == lastCount, landedAt.contains(where: { $0.distance(to: corners.0) > tapMotion }) { moved = true }
            }
            lastCount = count
            // The reader's view: `count` touches along the box's diagonal, by index.
            let stamp = timestamp(time)
            var changed: [Touch] = []
            for key in 0..<max(count, live.count) {
                if key < count, let corners {
                    let along = count > 1 ? Double(key) / Double(count - 1) : 0
                    let location = corners.0 + (corners.1 - corners.0) * along
                    if var touch = live[key] {
                        guard touch.location != location else { continue }
                        touch.previousLocation = touch.location
                        touch.location = location
                        touch.normalizedLocation = Point(x: location.x / size.width, y: location.y / size.height)
                        touch.timestamp = stamp
                        touch.phase = .moved
                        live[key] = touch
                        changed.append(touch)
                    } else {
                        let touch = Touch(id: nextID, phase: .began, location: location, timestamp: stamp, type: .indirect,
                                          device: device, surfaceSize: size)
                        nextID += 1
                        live[key] = touch
                        changed.append(touch)
                    }
                } else if var touch = live[key] {
                    touch.previousLocation = touch.location
                    touch.phase = .ended
                    touch.timestamp = stamp
                    live[key] = nil
                    changed.append(touch)
                }
            }
            if !changed.isEmpty {
                events.append(.touches(TouchEvent(timestamp: stamp, down: live.values, changed: changed)))
            }
            if count == 0, let landed = firstLanding {
                // The lift: libinput's tap, if the point stayed and the fingers were quick.
                let quick = time - (secondLanding ?? landed) <= tapTimeout && (secondLanding ?? landed) - landed <= tapTimeout
                if !moved, quick {
                    events.append(.touchpad(TouchpadEvent(.tap(fingers: mostFingers), timestamp: stamp, device: device,
                                                          fingersDown: timestamp(landed))))
                }
                break
            }
        }
        return events
    }

    private static func clamp(_ point: Point) -> Point {
        Point(x: min(max(point.x, 0), size.width), y: min(max(point.y, 0), size.height))
    }
}
