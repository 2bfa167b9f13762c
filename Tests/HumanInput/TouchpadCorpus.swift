import Glibc
import TouchGestures

/// Touchpad samples: fingers moved as people move them, turned into the events
/// libinput delivers by ``LibinputTouchpad``.
public enum TouchpadCorpus {
    /// The touchpad's device number in samples and recordings.
    public static let device = DeviceID(1)
    /// Per-frame sensor noise, as the RMS length of the 2-D error in millimetres.
    static let jitterRange = 0.1...0.3

    /// Axis standard deviation for a noise whose RMS length is `rms`.
    static func axisJitter(_ rms: Double) -> Double { rms / 2.0.squareRoot() }

    /// One swipe: fingers land (up to 25 ms apart), maybe rest, move with a
    /// minimum-jerk profile, and lift (up to 20 ms apart) at or just after the end.
    public static func swipe(fingers count: Int, heading: Heading, shape: SwipeShape, pause: Double?,
                             random: inout SeededRandom) -> PadEvents {
        let layout = fingerLayout(count, random: &random)
        let landings = (0..<count).map { _ in random.uniform(0...0.025) }
        let settled = landings.max()!
        let onset = settled + (pause ?? random.uniform(0...0.06))
        let lift = onset + shape.duration * random.uniform(0.92...1) + random.uniform(0...0.04)
        let jitter = axisJitter(random.uniform(jitterRange))
        let rest = Motion.Wander(amplitude: random.uniform(0.1...0.5), random: &random)
        let centre = Point(x: 50, y: 35) - heading.vector * (shape.distance / 2)
        let fingers = (0..<count).map { index -> Finger in
            // Fingers of one hand do not move as one rigid body: a few percent apart.
            let gain = random.uniform(0.95...1.05)
            let start = centre + layout[index]
            return Finger(landing: landings[index], lift: lift + random.uniform(0...0.02), jitter: jitter) { time in
                let moving = min(max(time - onset, 0), shape.duration)
                let resting = rest.offset(at: min(time, onset))
                return start + resting + shape.displacement(at: moving, heading: heading) * gain
            }
        }
        return libinputEvents(fingers, random: &random)
    }

    /// Fingers resting for `duration` seconds, wandering up to `wander` mm together and
    /// a little each on their own.
    public static func rest(fingers count: Int, duration: Double, wander: Double, random: inout SeededRandom) -> PadEvents {
        let layout = fingerLayout(count, random: &random)
        let hand = Motion.Wander(amplitude: wander, random: &random)
        let jitter = axisJitter(random.uniform(jitterRange))
        let lift = duration
        let fingers = (0..<count).map { index -> Finger in
            let own = Motion.Wander(amplitude: min(wander * 0.2, 0.6), random: &random)
            let landing = random.uniform(0...0.025)
            let start = Point(x: 50, y: 35) + layout[index]
            return Finger(landing: landing, lift: lift + random.uniform(0...0.02), jitter: jitter) { time in
                start + hand.offset(at: time) + own.offset(at: time - landing)
            }
        }
        return libinputEvents(fingers, random: &random)
    }

    /// Thumb and index: spreading or closing by `factor` (pinch) and turning by
    /// `degrees` clockwise (rotation), both along a minimum-jerk profile. `wobble` is
    /// the spread's change besides the factor, a fraction of it at a fraction of the
    /// movement (a rotation's gap wobbles); `hand` moves both fingers along a
    /// minimum-jerk reach of its own (a pinch made while the hand moves).
    public static func pinch(separation: Double, factor: Double, degrees: Double, duration: Double,
                             wobble: @escaping (Double) -> Double = { _ in 0 }, hand: HandTravel = .none,
                             random: inout SeededRandom) -> PadEvents {
        let centre = Point(x: 50 + random.uniform(-8...8), y: 35 + random.uniform(-5...5))
        // Index up and to the right of the thumb, as a right hand rests.
        let start = random.uniform(-65 ... -40) * .pi / 180
        let landings = [0, random.uniform(0...0.025)]
        let onset = landings.max()! + random.uniform(0.02...0.12)
        let lift = onset + duration + random.uniform(0...0.06)
        let jitter = axisJitter(random.uniform(jitterRange))
        let drift = Point(x: random.uniform(-2...2), y: random.uniform(-2...2))
        let fingers = (0..<2).map { index -> Finger in
            Finger(landing: landings[index], lift: lift + random.uniform(0...0.02), jitter: jitter) { time in
                let progress = Motion.minimumJerk((time - onset) / duration)
                let radius = separation / 2 * (1 + (factor - 1) * progress) * (1 + wobble(max(time - onset, 0)))
                let angle = start + degrees * .pi / 180 * progress
                let arm = Point(x: cos(angle), y: sin(angle)) * radius
                let middle = centre + drift * progress + hand.offset(at: time - onset)
                return index == 0 ? middle + arm : middle - arm
            }
        }
        return libinputEvents(fingers, random: &random)
    }

    /// Two fingers side by side, `separation` mm apart, scrolling: as they start, their
    /// gap changes by `settle` (a fraction) and the pair turns `settleDegrees`, within
    /// `settleTime` seconds; then the hand travels `travel` mm over `duration` seconds
    /// while the gap drifts by `drift` more. libinput takes most such scrolls for
    /// scrolling (no gesture), and some, whose fingers part ways as they start, for a pinch.
    public static func scroll(separation: Double, settle: Double, settleDegrees: Double, settleTime: Double,
                              travel: Point, duration: Double, drift: Double, random: inout SeededRandom) -> PadEvents {
        let centre = Point(x: 50 + random.uniform(-10...10), y: 35 + random.uniform(-8...8)) - travel / 2
        let tilt = random.uniform(-15...15) * .pi / 180
        let landings = [0, random.uniform(0...0.025)]
        let settled = landings.max()!
        let onset = settled + settleTime * random.uniform(0.3...1)
        let lift = onset + duration + random.uniform(0...0.04)
        let jitter = axisJitter(random.uniform(jitterRange))
        let fingers = (0..<2).map { index -> Finger in
            Finger(landing: landings[index], lift: lift + random.uniform(0...0.02), jitter: jitter) { time in
                let settling = Motion.minimumJerk((time - settled) / settleTime)
                let moving = Motion.minimumJerk((time - onset) / duration)
                let radius = separation / 2 * (1 + settle * settling) * (1 + drift * moving)
                let angle = tilt + settleDegrees * .pi / 180 * settling
                let arm = Point(x: cos(angle), y: sin(angle)) * radius
                let middle = centre + travel * moving
                return index == 0 ? middle - arm : middle + arm
            }
        }
        return libinputEvents(fingers, random: &random)
    }

    /// A tap as libinput reports it: 1- and 2-finger taps (over 40 ms) come after a quick
    /// hold that is cancelled at the lift; the tap itself is stamped at the lift.
    public static func tap(fingers: Int, duration: Double) -> [InputEvent] {
        var gestures: [(Double, TouchpadGesture)] = []
        if fingers <= 2, duration > LibinputTouchpad.quickHoldTimeout {
            gestures.append((LibinputTouchpad.quickHoldTimeout, .holdBegin(fingers: fingers)))
            gestures.append((duration, .holdEnd(fingers: fingers, cancelled: true)))
        }
        gestures.append((duration, .tap(fingers: fingers)))
        return gestures.map { .touchpad(TouchpadEvent($0.1, timestamp: timestamp($0.0), device: device)) }
    }

    /// The pad's size in millimetres, as the recordings state it.
    public static let size = Size(width: 100, height: 70)

    /// libinput's events for `fingers` on a sensor reporting every 7-8 ms, and the
    /// fingers themselves as the contact reader delivers them from the same frames.
    static func libinputEvents(_ fingers: [Finger], random: inout SeededRandom) -> PadEvents {
        let interval = random.uniform(0.0069...0.0082)
        let frames = frameTimes(for: fingers, interval: interval, wobble: 0.0002, random: &random)
        let sensed = TouchscreenFrames.sensed(fingers, frames: frames, random: &random)
        let gestures = LibinputTouchpad.events(sensed: sensed).map {
            InputEvent.touchpad(TouchpadEvent($0.gesture, timestamp: timestamp($0.time), device: device))
        }
        let onThePad = sensed.map { frame in
            (time: frame.time, positions: frame.positions.mapValues { point in
                Point(x: min(max(point.x, 0), size.width), y: min(max(point.y, 0), size.height))
            })
        }
        return PadEvents(gestures: gestures, contacts: TouchscreenFrames.events(onThePad, type: .indirect, device: device, size: size))
    }
}

/// What a touchpad delivers for one movement of the fingers: libinput's gestures, and the
/// fingers, which reach the engine only while a rule reads them (`GesturePipeline`, and so
/// ``CorpusRun``).
public struct PadEvents: Sendable {
    public var gestures: [InputEvent]
    public var contacts: [InputEvent]
}
