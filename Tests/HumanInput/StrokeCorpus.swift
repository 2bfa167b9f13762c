import Glibc
import Rulebook
import StrokeGestures
import TouchGestures

/// The stroke corpus: every shape of ``DrawnShape`` drawn by human-like hands
/// (``StrokeDrawing``) on a touchscreen with one and two fingers and on a touchpad with
/// two and three, the same on every run.
///
/// The templates are learned as a user learns them: a few more drawings of each shape,
/// by the same hands, taken by `touchgest learn`'s collector and made into templates by
/// ``StrokeLearner``, written as rules by ``StrokeRuleText``. The strokes to recognize are
/// other drawings, and they run through those rules beside the gesture corpus's rules
/// (swipes, taps, pans, pinches on the same fingers), as `touchgest replay` would.
public enum StrokeCorpus {
    /// The seed every drawing derives from: the gesture corpus's, mixed with "stroke".
    public static let seed: UInt64 = Corpus.seed ^ 0x73_74_72_6F_6B_65

    /// Who draws: on which device, with how many fingers.
    public struct Hand: Hashable, Sendable, CustomStringConvertible {
        public var touchpad: Bool
        public var fingers: Int

        public init(touchpad: Bool, fingers: Int) {
            self.touchpad = touchpad
            self.fingers = fingers
        }

        /// `ts1`, `tp3`: the start of the rule names.
        public var prefix: String { "\(touchpad ? "tp" : "ts")\(fingers)" }
        public var description: String { "\(touchpad ? "touchpad" : "touchscreen") \(fingers)f" }
    }

    /// The hands, and how many strokes of each shape each draws to be recognized.
    public static let hands: [(hand: Hand, strokes: Int)] = [
        (Hand(touchpad: false, fingers: 1), 16), (Hand(touchpad: false, fingers: 2), 5),
        (Hand(touchpad: true, fingers: 2), 4), (Hand(touchpad: true, fingers: 3), 5),
    ]

    /// Examples drawn per shape and hand to learn from: one template each.
    public static let examplesPerShape = 3

    /// The rule of `shape` drawn by `hand`, e.g. `ts1-circle-cw`.
    public static func rule(_ shape: DrawnShape, _ hand: Hand) -> String { "\(hand.prefix)-\(shape.rawValue)" }

    /// One stroke to recognize.
    public struct StrokeSample: Sendable {
        public var shape: DrawnShape
        public var hand: Hand
        public var sample: Sample
    }

    /// The strokes to recognize, in a fixed order.
    public static func samples() -> [StrokeSample] {
        drawings(stream: 1, per: { $0.strokes }).map { shape, hand, index, pad, label in
            let sample = Sample(kind: .drawnStroke, name: "\(hand) \(shape.rawValue) #\(index + 1) \(label)",
                                events: pad.gestures, contacts: pad.contacts,
                                expected: Expectation(rule: rule(shape, hand)), allowed: [],
                                // As the gesture corpus's: a one-finger pan takes the first finger
                                // of more (UIKit's maximumNumberOfTouches), so only one-finger
                                // strokes run beside it.
                                withPan: !hand.touchpad && hand.fingers == 1)
            return StrokeSample(shape: shape, hand: hand, sample: sample)
        }
    }

    /// `count` drawings of `shape` by `hand` from a stream of their own (`stream` 3 and up:
    /// 1 and 2 are the corpus's), as samples whose recording ``RecordingText`` writes; a
    /// touchpad's fingers are in its events.
    public static func drawings(of shape: DrawnShape, by hand: Hand, count: Int, stream: Int = 3) -> [Sample] {
        let root = SeededRandom(seed: seed).fork(stream)
        return (0..<count).map { index in
            var random = root.fork(index + 1)
            let (pad, label) = draw(shape, hand: hand, random: &random)
            return Sample(kind: .drawnStroke, name: "\(hand) \(shape.rawValue) \(label)",
                          events: CorpusRun.merged(pad.gestures, pad.contacts), expected: nil, allowed: [])
        }
    }

    /// The paths of the examples of `shape` drawn by `hand`, as `touchgest learn`'s
    /// collector takes them.
    public static func examples() -> [Hand: [DrawnShape: [[Point]]]] {
        var result: [Hand: [DrawnShape: [[Point]]]] = [:]
        for (shape, hand, _, pad, _) in drawings(stream: 2, per: { _ in examplesPerShape }) {
            let scheduler = ManualScheduler(start: Timestamp(microseconds: Sample.start.microseconds - 1))
            let environment = GestureEnvironment(scheduler: scheduler)
            let collector = StrokeCollector(fingers: hand.fingers, touchTypes: [hand.touchpad ? .indirect : .direct])
            collector.attach(to: environment)
            for event in hand.touchpad ? pad.contacts : pad.gestures {
                scheduler.deliver(at: event.timestamp) { environment.handle(event) }
            }
            scheduler.runUntilIdle()
            result[hand, default: [:]][shape, default: []] += collector.paths
        }
        return result
    }

    /// The stroke rules, one per shape and hand, with the templates learned from
    /// ``examples()``.
    public static let rules: String = {
        let learned = examples()
        var text = "\n# Drawn strokes (Tests/HumanInput/StrokeCorpus.swift): templates learned from \(examplesPerShape) drawings each.\n"
        for (hand, _) in hands {
            for shape in DrawnShape.allCases {
                let lesson = StrokeLearner.learn(learned[hand]?[shape] ?? [])
                text += "\n" + StrokeRuleText.rule(name: rule(shape, hand), device: hand.touchpad ? .touchpad : .touchscreen,
                                                   fingers: hand.fingers, templates: lesson.templates, command: "true")
            }
        }
        return text
    }()

    /// Every drawing of a stream: each hand draws each shape `per(hand)` times.
    private static func drawings(stream: Int, per: ((hand: Hand, strokes: Int)) -> Int)
        -> [(DrawnShape, Hand, Int, PadEvents, String)] {
        let root = SeededRandom(seed: seed).fork(stream)
        var number = 0
        var all: [(DrawnShape, Hand, Int, PadEvents, String)] = []
        for entry in hands {
            for shape in DrawnShape.allCases {
                for index in 0..<per(entry) {
                    number += 1
                    var random = root.fork(number)
                    let (pad, label) = draw(shape, hand: entry.hand, random: &random)
                    all.append((shape, entry.hand, index, pad, label))
                }
            }
        }
        return all
    }

    /// One drawing of `shape` by `hand`: on a touchscreen its frames (as gestures, the
    /// input every rule sees); on a touchpad libinput's events and the fingers.
    static func draw(_ shape: DrawnShape, hand: Hand, random: inout SeededRandom) -> (PadEvents, String) {
        let size = hand.touchpad ? random.uniform(18...40) : random.logUniform(hand.fingers == 1 ? 20...90 : 25...70)
        let centre = hand.touchpad
            ? Point(x: 50 + random.uniform(-4...4), y: 35 + random.uniform(-3...3))
            : Point(x: TouchscreenFrames.size.width / 2 + random.uniform(-60...60),
                    y: TouchscreenFrames.size.height / 2 + random.uniform(-25...25))
        let drawing = StrokeDrawing.human(shape, size: size, centre: centre, random: &random)
        let layout = fingerLayout(hand.fingers, random: &random)
        let landings = (0..<hand.fingers).map { _ in random.uniform(0...0.03) }
        let onset = landings.max()! + drawing.lead
        let end = onset + drawing.duration + drawing.trail
        // The fingers keep their places on the hand, give or take a slight turn and spread.
        let turn = random.uniform(-4...4) * .pi / 180
        let spread = random.uniform(-0.03...0.03)
        let jitter = hand.touchpad ? TouchpadCorpus.axisJitter(random.uniform(TouchpadCorpus.jitterRange))
            : TouchscreenCorpus.jitter(&random)
        let fingers = (0..<hand.fingers).map { index -> Finger in
            Finger(landing: landings[index], lift: end + random.uniform(0...0.02), jitter: jitter) { time in
                let progress = min(max((time - onset) / drawing.duration, 0), 1)
                let angle = turn * progress
                let offset = layout[index] * (1 + spread * progress)
                let turned = Point(x: offset.x * cos(angle) - offset.y * sin(angle), y: offset.x * sin(angle) + offset.y * cos(angle))
                return drawing.position(time - onset) + turned
            }
        }
        let label = "\(Int(size.rounded()))mm/\(Int((drawing.duration * 1000).rounded()))ms"
        if hand.touchpad { return (TouchpadCorpus.libinputEvents(fingers, random: &random), label) }
        return (PadEvents(gestures: TouchscreenCorpus.frames(fingers, random: &random), contacts: []), label)
    }
}
