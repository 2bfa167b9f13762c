import Glibc
import TouchGestures

/// Touchscreen samples: fingers on glass, one frame per sensor report (100 Hz, give
/// or take), fingers landing in different frames.
public enum TouchscreenCorpus {
    /// Per-frame noise of a touchscreen, as the RMS length of the 2-D error in millimetres.
    static let jitterRange = 0.05...0.2

    static func frames(_ fingers: [Finger], random: inout SeededRandom) -> [InputEvent] {
        let interval = random.uniform(0.0085...0.0115)
        let times = frameTimes(for: fingers, interval: interval, wobble: 0.0005, random: &random)
        return TouchscreenFrames.events(for: fingers, frames: times, random: &random)
    }

    static func jitter(_ random: inout SeededRandom) -> Double {
        TouchpadCorpus.axisJitter(random.uniform(jitterRange))
    }

    /// A swipe of `count` fingers landing up to 30 ms apart, lifting up to 20 ms apart.
    public static func swipe(fingers count: Int, heading: Heading, shape: SwipeShape, random: inout SeededRandom) -> [InputEvent] {
        let layout = fingerLayout(count, random: &random)
        let landings = (0..<count).map { _ in random.uniform(0...0.030) }
        let onset = landings.max()! + random.uniform(0...0.05)
        let lift = onset + shape.duration * random.uniform(0.92...1) + random.uniform(0...0.04)
        let noise = jitter(&random)
        let size = TouchscreenFrames.size
        let centre = Point(x: size.width / 2 + random.uniform(-40...40), y: size.height / 2 + random.uniform(-25...25))
            - heading.vector * (shape.distance / 2)
        let fingers = (0..<count).map { index -> Finger in
            let gain = random.uniform(0.95...1.05)
            let start = centre + layout[index]
            return Finger(landing: landings[index], lift: lift + random.uniform(0...0.02), jitter: noise) { time in
                start + shape.displacement(at: min(max(time - onset, 0), shape.duration), heading: heading) * gain
            }
        }
        return frames(fingers, random: &random)
    }

    /// A one-finger tap lasting `duration` seconds that rolls `roll` mm while down.
    public static func tap(at start: Point, duration: Double, roll: Double, startingAt begin: Double = 0,
                           id: Int = 1, random: inout SeededRandom) -> [InputEvent] {
        let angle = random.uniform(0...(2 * .pi))
        let direction = Point(x: cos(angle), y: sin(angle))
        let finger = Finger(landing: begin, lift: begin + duration, jitter: jitter(&random)) { time in
            start + direction * (roll * min(max((time - begin) / duration, 0), 1))
        }
        let interval = random.uniform(0.0085...0.0115)
        let times = frameTimes(for: [finger], interval: interval, wobble: 0.0005, random: &random)
        return TouchscreenFrames.events(for: [finger], frames: times, firstID: id, random: &random)
    }

    /// A random place on the screen's middle.
    static func somewhere(_ random: inout SeededRandom) -> Point {
        let size = TouchscreenFrames.size
        return Point(x: random.uniform(size.width * 0.2...size.width * 0.8), y: random.uniform(size.height * 0.2...size.height * 0.8))
    }

    /// A finger pressing for `duration` seconds with a tremor of at most `tremor` mm.
    public static func press(duration: Double, tremor: Double, random: inout SeededRandom) -> [InputEvent] {
        let start = somewhere(&random)
        let wander = Motion.Wander(amplitude: tremor, random: &random)
        let finger = Finger(landing: 0, lift: duration, jitter: jitter(&random)) { time in start + wander.offset(at: time) }
        return frames([finger], random: &random)
    }

    /// `count` fingers pressing for `duration` seconds, landing `gap` seconds apart, that
    /// settle as they land: one of them, picked at random, slides `settle` mm in its first
    /// `settleTime` seconds (a minimum-jerk move: the fingertip's pad settling on glass), the
    /// others `follow` times as far, along a way up to 40 degrees from its, in about as
    /// long (the hand settling with it); then each rests with a tremor of at most `tremor` mm.
    public static func settlingPress(fingers count: Int, duration: Double, gap: Double, settle: Double, follow: Double,
                                     settleTime: Double, tremor: Double, random: inout SeededRandom) -> [InputEvent] {
        let layout = fingerLayout(count, random: &random)
        let centre = somewhere(&random)
        let noise = jitter(&random)
        let leader = random.integer(0...(count - 1))
        let angle = random.uniform(0...(2 * .pi))
        let fingers = (0..<count).map { index -> Finger in
            let landing = Double(index) * gap
            let own = index == leader ? angle : angle + random.uniform(-0.7...0.7)
            let way = Point(x: cos(own), y: sin(own)) * (index == leader ? settle : settle * follow)
            let time = index == leader ? settleTime : settleTime * random.uniform(0.8...1.2)
            let wander = Motion.Wander(amplitude: tremor, random: &random)
            return Finger(landing: landing, lift: duration + random.uniform(0...0.02), jitter: noise) { now in
                centre + layout[index] + way * Motion.minimumJerk((now - landing) / time) + wander.offset(at: now - landing)
            }
        }
        return frames(fingers, random: &random)
    }

    /// A finger pressing for `duration` seconds that creeps at `speed` mm/s along `angle`
    /// radians from the moment it lands, reaching that speed after a first-order `lag`,
    /// with a tremor of at most `tremor` mm on top.
    public static func creepingPress(duration: Double, speed: Double, angle: Double, lag: Double, tremor: Double,
                                     random: inout SeededRandom) -> [InputEvent] {
        let start = somewhere(&random)
        let wander = Motion.Wander(amplitude: tremor, random: &random)
        let direction = Point(x: cos(angle), y: sin(angle))
        let finger = Finger(landing: 0, lift: duration, jitter: jitter(&random)) { time in
            start + direction * (speed * creptTime(time, lag: lag)) + wander.offset(at: time)
        }
        return frames([finger], random: &random)
    }

    /// Seconds of steady speed a movement that starts with a first-order `lag` has made up
    /// `time` seconds in.
    public static func creptTime(_ time: Double, lag: Double) -> Double {
        time - lag * (1 - exp(-time / lag))
    }

    /// Fingers resting for `duration` seconds, wandering together up to `wander` mm.
    public static func rest(fingers count: Int, duration: Double, wander: Double, random: inout SeededRandom) -> [InputEvent] {
        let layout = fingerLayout(count, random: &random)
        let centre = somewhere(&random)
        let hand = Motion.Wander(amplitude: wander, random: &random)
        let noise = jitter(&random)
        let fingers = (0..<count).map { index -> Finger in
            let own = Motion.Wander(amplitude: min(wander * 0.2, 0.6), random: &random)
            let landing = random.uniform(0...0.03)
            return Finger(landing: landing, lift: duration + random.uniform(0...0.02), jitter: noise) { time in
                centre + layout[index] + hand.offset(at: time) + own.offset(at: time - landing)
            }
        }
        return frames(fingers, random: &random)
    }

    /// One finger dragging slowly, `distance` mm over `duration` seconds along `angle`
    /// radians: a tracking movement, not a reach, so it reaches its steady speed after a
    /// first-order `lag` (80 ms: within about 0.2 s) and its speed wavers by 15%.
    public static func drag(distance: Double, duration: Double, angle: Double, lag: Double = 0.08,
                            random: inout SeededRandom) -> [InputEvent] {
        let direction = Point(x: cos(angle), y: sin(angle))
        let size = TouchscreenFrames.size
        let start = Point(x: size.width / 2, y: size.height / 2) - direction * (distance / 2)
        let onset = random.uniform(0.02...0.08)
        let speed = distance / duration
        let waver = random.uniform(0.5...1.5)
        let phase = random.uniform(0...(2 * .pi))
        let wander = Motion.Wander(amplitude: 0.8, random: &random)
        let finger = Finger(landing: 0, lift: onset + duration + random.uniform(0.05...0.2), jitter: jitter(&random)) { time in
            let moving = min(max(time - onset, 0), duration)
            let steady = moving - lag * (1 - exp(-moving / lag))
            let wavering = 0.15 / (2 * .pi * waver) * (cos(phase) - cos(2 * .pi * waver * moving + phase))
            return start + direction * (speed * (steady + wavering)) + wander.offset(at: time)
        }
        return frames([finger], random: &random)
    }

    /// Thumb and index spreading or closing by `factor` and turning `degrees` clockwise,
    /// landing up to 30 ms apart; `wobble` as on the touchpad
    /// (``TouchpadCorpus/pinch(separation:factor:degrees:duration:wobble:hand:random:)``).
    public static func pinch(separation: Double, factor: Double, degrees: Double, duration: Double,
                             wobble: @escaping (Double) -> Double = { _ in 0 }, random: inout SeededRandom) -> [InputEvent] {
        let centre = somewhere(&random)
        let start = random.uniform(-65 ... -30) * .pi / 180
        let landings = [0, random.uniform(0...0.03)]
        let onset = landings.max()! + random.uniform(0.02...0.1)
        let lift = onset + duration + random.uniform(0...0.06)
        let noise = jitter(&random)
        let drift = Point(x: random.uniform(-3...3), y: random.uniform(-3...3))
        let fingers = (0..<2).map { index -> Finger in
            Finger(landing: landings[index], lift: lift + random.uniform(0...0.02), jitter: noise) { time in
                let progress = Motion.minimumJerk((time - onset) / duration)
                let radius = separation / 2 * (1 + (factor - 1) * progress) * (1 + wobble(max(time - onset, 0)))
                let angle = start + degrees * .pi / 180 * progress
                let arm = Point(x: cos(angle), y: sin(angle)) * radius
                let middle = centre + drift * progress
                return index == 0 ? middle + arm : middle - arm
            }
        }
        return frames(fingers, random: &random)
    }
}
