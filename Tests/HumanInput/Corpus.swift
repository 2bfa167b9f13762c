import Glibc
import TouchGestures

/// The corpus: every generated sample, the same on every run.
///
/// Shapes come from published facts, not from what the engine happens to accept:
/// reaching movements follow a minimum-jerk profile (Flash & Hogan 1985); swipes are
/// 10-60 mm over 60-1,400 ms (the team's measurement in the issue); touch sensors
/// report every 7-12 ms with 0.1-0.3 mm of noise; a resting hand sways and trembles by
/// fractions of a millimetre to a few. docs/recognition.md lists the sources.
public enum Corpus {
    /// The seed every sample derives from. Changing it is changing the yardstick.
    public static let seed: UInt64 = 0x70_75_63_68_67_65_73_74

    /// The named cases of the issue: touchpad 3-finger swipes that must fire.
    public static let namedCases: [(distance: Double, duration: Double)] = [(10, 0.100), (12, 0.120), (60, 0.600), (40, 0.800)]

    /// Every sample, in a fixed order.
    public static func samples() -> [Sample] {
        var all: [Sample] = []
        let root = SeededRandom(seed: seed)
        var stream = 0
        func next() -> SeededRandom {
            stream += 1
            return root.fork(stream)
        }

        // Touchpad swipes: 18 per finger count and direction; 40% rest first (libinput's
        // hold begins and is cancelled), for 150-450 ms, short of the 500 ms long-press.
        for fingers in [3, 4] {
            for heading in Heading.allCases {
                for _ in 0..<18 {
                    var random = next()
                    let shape = SwipeShape.human(random: &random)
                    let pause: Double? = random.chance(0.4) ? random.uniform(0.15...0.45) : nil
                    let pad = TouchpadCorpus.swipe(fingers: fingers, heading: heading, shape: shape, pause: pause, random: &random)
                    let rest = pause.map { " after \(Int($0 * 1000))ms rest" } ?? ""
                    all.append(Sample(kind: fingers == 3 ? .touchpadSwipe3 : .touchpadSwipe4,
                                      name: "touchpad swipe \(fingers)f \(heading) \(shape.label)\(rest)", events: pad.gestures,
                                      contacts: pad.contacts,
                                      expected: Expectation(rule: CorpusRules.swipe(touchpad: true, fingers: fingers, heading)),
                                      allowed: []))
                }
            }
        }
        for named in namedCases {
            for heading in Heading.allCases {
                var random = next()
                let shape = SwipeShape.random(distance: named.distance, duration: named.duration, random: &random)
                let pad = TouchpadCorpus.swipe(fingers: 3, heading: heading, shape: shape, pause: nil, random: &random)
                all.append(Sample(kind: .touchpadSwipe3, name: "named: touchpad swipe 3f \(heading) \(shape.label)", events: pad.gestures,
                                  contacts: pad.contacts,
                                  expected: Expectation(rule: CorpusRules.swipe(touchpad: true, fingers: 3, heading)),
                                  allowed: [], isNamedCase: true))
            }
        }

        // Touchpad pinches (in and out, a few degrees of twist) and rotations (30-80
        // degrees, a few percent of scale), 250-900 ms.
        for index in 0..<40 {
            var random = next()
            let spreading = index % 2 == 0
            let separation = spreading ? random.uniform(20...35) : random.uniform(40...60)
            let factor = spreading ? random.uniform(1.35...1.9) : random.uniform(0.5...0.72)
            let duration = random.uniform(0.25...0.9)
            let pad = TouchpadCorpus.pinch(separation: separation, factor: factor, degrees: random.uniform(-4...4),
                                           duration: duration, random: &random)
            all.append(Sample(kind: .touchpadPinch, name: "touchpad pinch \(spreading ? "out" : "in") x\(factor.label(2)) \(duration.milliseconds)",
                              events: pad.gestures, contacts: pad.contacts, expected: Expectation(rule: CorpusRules.touchpadPinch, check: .scale(spreading: spreading)),
                              allowed: []))
        }
        for index in 0..<40 {
            var random = next()
            let clockwise = index % 2 == 0
            let degrees = random.uniform(30...80) * (clockwise ? 1 : -1)
            let duration = random.uniform(0.3...1.0)
            let pad = TouchpadCorpus.pinch(separation: random.uniform(30...45), factor: random.uniform(0.97...1.03),
                                           degrees: degrees, duration: duration, random: &random)
            all.append(Sample(kind: .touchpadRotation, name: "touchpad rotation \(degrees.label(0))deg \(duration.milliseconds)",
                              events: pad.gestures, contacts: pad.contacts, expected: Expectation(rule: CorpusRules.touchpadRotation, check: .rotation(clockwise: clockwise)),
                              allowed: []))
        }

        // Touchpad holds: 3 and 4 fingers resting 0.7-2 s, wandering 0.1-0.4 mm. (libinput
        // itself turns a rest that wanders 1 mm after 150 ms into a swipe: the negatives.)
        for index in 0..<30 {
            var random = next()
            let fingers = index % 2 == 0 ? 3 : 4
            let duration = random.uniform(0.7...2.0)
            let pad = TouchpadCorpus.rest(fingers: fingers, duration: duration, wander: random.uniform(0.1...0.4), random: &random)
            all.append(Sample(kind: .touchpadHold, name: "touchpad hold \(fingers)f \(duration.milliseconds)", events: pad.gestures,
                              contacts: pad.contacts,
                              expected: Expectation(rule: CorpusRules.touchpadHold(fingers)), allowed: []))
        }

        // Touchpad taps: 2 and 3 fingers, 40-170 ms (libinput's tap timeout is 180 ms).
        for index in 0..<30 {
            var random = next()
            let fingers = index % 2 == 0 ? 2 : 3
            let duration = random.uniform(0.04...0.17)
            all.append(Sample(kind: .touchpadTap, name: "touchpad tap \(fingers)f \(duration.milliseconds)",
                              events: TouchpadCorpus.tap(fingers: fingers, duration: duration),
                              expected: Expectation(rule: CorpusRules.touchpadTap(fingers)), allowed: []))
        }

        // Touchscreen swipes: 1-3 fingers, 8 per finger count and direction.
        for fingers in 1...3 {
            for heading in Heading.allCases {
                for _ in 0..<8 {
                    var random = next()
                    let shape = SwipeShape.human(random: &random)
                    let events = TouchscreenCorpus.swipe(fingers: fingers, heading: heading, shape: shape, random: &random)
                    let kind: SampleKind = [.touchscreenSwipe1, .touchscreenSwipe2, .touchscreenSwipe3][fingers - 1]
                    all.append(Sample(kind: kind, name: "touchscreen swipe \(fingers)f \(heading) \(shape.label)", events: events,
                                      expected: Expectation(rule: CorpusRules.swipe(touchpad: false, fingers: fingers, heading)),
                                      allowed: [], withPan: fingers == 1))
                }
            }
        }

        // Touchscreen taps: 40-250 ms, rolling 0.3-1.5 mm.
        for _ in 0..<40 {
            var random = next()
            let duration = random.uniform(0.04...0.25)
            let roll = random.uniform(0.3...1.5)
            let events = TouchscreenCorpus.tap(at: TouchscreenCorpus.somewhere(&random), duration: duration, roll: roll, random: &random)
            all.append(Sample(kind: .touchscreenTap, name: "touchscreen tap \(duration.milliseconds) roll \(roll.label(1))mm",
                              events: events, expected: Expectation(rule: CorpusRules.screenTap), allowed: []))
        }

        // Double taps: taps of 40-150 ms, 80-250 ms apart, the second within 4 mm.
        for _ in 0..<30 {
            var random = next()
            let place = TouchscreenCorpus.somewhere(&random)
            let first = random.uniform(0.04...0.15)
            let gap = random.uniform(0.08...0.25)
            let second = random.uniform(0.04...0.15)
            let angle = random.uniform(0...(2 * .pi))
            let offset = Point(x: cos(angle), y: sin(angle)) * random.uniform(0.5...4)
            let events = TouchscreenCorpus.tap(at: place, duration: first, roll: random.uniform(0.3...1.5), random: &random)
                + TouchscreenCorpus.tap(at: place + offset, duration: second, roll: random.uniform(0.3...1.5),
                                        startingAt: first + gap, id: 2, random: &random)
            all.append(Sample(kind: .touchscreenDoubleTap, name: "touchscreen double tap gap \(gap.milliseconds)", events: events,
                              expected: Expectation(rule: CorpusRules.screenDoubleTap), allowed: []))
        }

        // Long-presses: 0.7-1.5 s with a tremor under 3 mm.
        for _ in 0..<30 {
            var random = next()
            let duration = random.uniform(0.7...1.5)
            let tremor = random.uniform(0.5...2.5)
            all.append(Sample(kind: .touchscreenLongPress, name: "touchscreen long-press \(duration.milliseconds) tremor \(tremor.label(1))mm",
                              events: TouchscreenCorpus.press(duration: duration, tremor: tremor, random: &random),
                              expected: Expectation(rule: CorpusRules.screenPress), allowed: []))
        }

        // Touchscreen pinches and rotations.
        for index in 0..<40 {
            var random = next()
            let spreading = index % 2 == 0
            let separation = spreading ? random.uniform(20...40) : random.uniform(50...90)
            let factor = spreading ? random.uniform(1.5...2.5) : random.uniform(0.35...0.65)
            let duration = random.uniform(0.25...0.9)
            let events = TouchscreenCorpus.pinch(separation: separation, factor: factor, degrees: random.uniform(-5...5),
                                                 duration: duration, random: &random)
            all.append(Sample(kind: .touchscreenPinch, name: "touchscreen pinch \(spreading ? "out" : "in") x\(factor.label(2)) \(duration.milliseconds)",
                              events: events, expected: Expectation(rule: CorpusRules.screenPinch, check: .scale(spreading: spreading)),
                              allowed: []))
        }
        for index in 0..<40 {
            var random = next()
            let clockwise = index % 2 == 0
            let degrees = random.uniform(30...100) * (clockwise ? 1 : -1)
            let duration = random.uniform(0.3...1.0)
            let events = TouchscreenCorpus.pinch(separation: random.uniform(30...60), factor: random.uniform(0.96...1.04),
                                                 degrees: degrees, duration: duration, random: &random)
            all.append(Sample(kind: .touchscreenRotation, name: "touchscreen rotation \(degrees.label(0))deg \(duration.milliseconds)",
                              events: events, expected: Expectation(rule: CorpusRules.screenRotation, check: .rotation(clockwise: clockwise)),
                              allowed: []))
        }

        // Slow one-finger drags, steady at 15-25 mm/s for 1.5-4 s (a swipe averages 40
        // and more), moving off at once (more than 4 mm in the first 0.5 s, or it would
        // be a long-press): the pan's, not a swipe's.
        for _ in 0..<30 {
            var random = next()
            let duration = random.uniform(1.5...4)
            let distance = duration * random.uniform(15...25)
            let angle = random.uniform(0...(2 * .pi))
            all.append(Sample(kind: .touchscreenDrag, name: "touchscreen drag \(distance.label(0))mm/\(duration.milliseconds)",
                              events: TouchscreenCorpus.drag(distance: distance, duration: duration, angle: angle, random: &random),
                              expected: Expectation(rule: CorpusRules.screenPan), allowed: [], withPan: true))
        }

        // Negatives: fingers resting 0.3-2 s. On the touchpad, wander under 1 mm stays a
        // hold in libinput's eyes; 1-5 mm makes it start a tiny swipe. A hold rule may fire.
        for index in 0..<60 {
            var random = next()
            let fingers = index % 2 == 0 ? 3 : 4
            let duration = random.uniform(0.3...2.0)
            let wander = index < 30 ? random.uniform(0.2...0.7) : random.uniform(1.2...4.8)
            let pad = TouchpadCorpus.rest(fingers: fingers, duration: duration, wander: wander, random: &random)
            let swiped = pad.gestures.contains { if case .touchpad(let event) = $0, case .swipeBegin = event.gesture { true } else { false } }
            all.append(Sample(kind: swiped ? .touchpadRestSwipe : .touchpadRestHold,
                              name: "touchpad rest \(fingers)f \(duration.milliseconds) wander \(wander.label(1))mm", events: pad.gestures,
                              contacts: pad.contacts,
                              expected: nil, allowed: [CorpusRules.touchpadHold(fingers)]))
        }
        for index in 0..<30 {
            var random = next()
            let fingers = index % 2 == 0 ? 2 : 3
            let duration = random.uniform(0.3...2.0)
            let wander = random.uniform(0.3...4.5)
            // Two fingers resting are a two-finger long-press, which a rule binds.
            all.append(Sample(kind: .touchscreenRest, name: "touchscreen rest \(fingers)f \(duration.milliseconds) wander \(wander.label(1))mm",
                              events: TouchscreenCorpus.rest(fingers: fingers, duration: duration, wander: wander, random: &random),
                              expected: nil, allowed: fingers == 2 ? [CorpusRules.screenPress(2)] : []))
        }
        // After every family above, so that theirs keep their streams.
        all += secondRound(next)
        return all
    }
}

extension Double {
    /// The number with `decimals` decimals, for sample names.
    func label(_ decimals: Int) -> String { fixedDecimals(self, decimals) }
    /// Seconds as `350ms`.
    var milliseconds: String { "\(Int((self * 1000).rounded()))ms" }
}
