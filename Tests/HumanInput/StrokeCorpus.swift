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
///
/// The drawings come in families (``Family``): the first corpus's, and after it, each from
/// streams of its own so that the first stays as it was, what real drawings showed
/// (issue 40): landing hooks, tall narrow shapes, fast drawings learned from three
/// fast drawings or from one.
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

    /// A family of drawings: which shapes, drawn how, how many, learned from what.
    public enum Family: String, CaseIterable, Sendable, CustomStringConvertible {
        /// The first corpus: the fifteen everyday shapes, three templates each.
        case drawn
        /// Every shape, landing with a hook of 2-5 mm at 60-150 degrees to the way the shape
        /// sets out (``StrokeDrawing/hooked(length:angle:time:)``), against the same rules.
        case hooked = "landing hook"
        /// Curly braces, tall and narrow, learned from three drawings as the first corpus's.
        case tall = "tall, narrow"
        /// Every shape drawn fast (``StrokeDrawing/Pace/fast``), against rules learned
        /// from three fast drawings of each: issue 40's "fast drawings with few
        /// templates", as its goal for real fast drawings is at three templates.
        case fastThree = "fast, three templates"
        /// The same fast drawings against rules learned from one fast drawing of each:
        /// issue 40's goal for real drawings with one template is 98%, at medium speed.
        case fastOne = "fast, one template"

        public var description: String { rawValue }

        /// The shapes drawn.
        public var shapes: [DrawnShape] {
            switch self {
            case .drawn: DrawnShape.everyday
            case .tall: DrawnShape.tall
            case .hooked, .fastThree, .fastOne: DrawnShape.allCases
            }
        }

        /// How many drawings of each shape `hand` makes to be recognized.
        public func strokes(_ hand: (hand: Hand, strokes: Int)) -> Int {
            switch self {
            case .drawn: hand.strokes
            // 120 braces: one miss in 120 is under 1%.
            case .tall: 2 * hand.strokes
            case .hooked, .fastThree, .fastOne: hand.hand.touchpad || hand.hand.fingers > 1 ? 3 : 8
            }
        }

        /// The drawings' stream; 1 and 2 are the first corpus's, 3 up to a few hundred the
        /// tests' (``drawings(of:by:count:stream:)``).
        var stream: Int {
            switch self {
            case .drawn: 1
            case .hooked: 4001
            case .tall: 4002
            // The fast families draw the same strokes: only their rules differ.
            case .fastThree, .fastOne: 4004
            }
        }

        /// The rules its strokes are matched against.
        public var rules: Rules {
            switch self {
            case .drawn, .hooked, .tall: .learned
            case .fastThree: .fastFromThree
            case .fastOne: .fastFromOne
            }
        }

        /// Whether its drawings are fast (``StrokeDrawing/Pace/fast``).
        var isFast: Bool { self == .fastOne || self == .fastThree }
    }

    /// The rule of `shape` drawn by `hand`, e.g. `ts1-circle-cw`.
    public static func rule(_ shape: DrawnShape, _ hand: Hand) -> String { "\(hand.prefix)-\(shape.rawValue)" }

    /// One stroke to recognize.
    public struct StrokeSample: Sendable {
        public var family: Family
        public var shape: DrawnShape
        public var hand: Hand
        public var sample: Sample
    }

    /// The strokes to recognize, in a fixed order: the first corpus's, then each new family's.
    public static func samples() -> [StrokeSample] {
        Family.allCases.flatMap(samples)
    }

    /// The strokes of one family to recognize, in a fixed order.
    public static func samples(_ family: Family) -> [StrokeSample] {
        drawings(family, stream: family.stream, per: family.strokes).map { shape, hand, index, pad, label in
            let kind = family == .drawn ? "" : " \(family.rawValue)"
            let sample = Sample(kind: .drawnStroke, name: "\(hand) \(shape.rawValue)\(kind) #\(index + 1) \(label)",
                                events: pad.gestures, contacts: pad.contacts,
                                expected: Expectation(rule: rule(shape, hand)), allowed: [],
                                // As the gesture corpus's: a one-finger pan takes the first finger
                                // of more (UIKit's maximumNumberOfTouches), so only one-finger
                                // strokes run beside it.
                                withPan: !hand.touchpad && hand.fingers == 1)
            return StrokeSample(family: family, shape: shape, hand: hand, sample: sample)
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
        collected(drawings(.drawn, stream: 2, per: { _ in examplesPerShape }) + drawings(.tall, stream: 4003, per: { _ in examplesPerShape }))
    }

    /// The rule sets the families are matched against.
    public enum Rules: Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// ``rules``: three drawings at the ordinary pace.
        case learned
        /// ``fastThreeRules``.
        case fastFromThree
        /// ``fastRules``.
        case fastFromOne

        /// The rule file's text.
        public var text: String {
            switch self {
            case .learned: StrokeCorpus.rules
            case .fastFromThree: fastThreeRules
            case .fastFromOne: fastRules
            }
        }

        /// What each rule was learned from.
        public var description: String {
            switch self {
            case .learned: "three drawings"
            case .fastFromThree: "three fast drawings"
            case .fastFromOne: "one fast drawing"
            }
        }
    }

    /// The paths of the fast drawings of each shape by each hand that ``fastThreeRules``
    /// and ``fastRules`` learn from: the first `count` the collector takes of three, as a
    /// user draws again when `learn` did not take a drawing (a fast two-finger down-up on
    /// the touchpad can end before libinput's gesture begins).
    public static func fastExamples(_ count: Int) -> [Hand: [DrawnShape: [[Point]]]] {
        collected(drawings(.fastThree, stream: 4005, per: { _ in 3 })).mapValues { $0.mapValues { Array($0.prefix(count)) } }
    }

    /// The paths `touchgest learn`'s collector takes from `drawings`, by hand and shape.
    private static func collected(_ drawings: [(DrawnShape, Hand, Int, PadEvents, String)]) -> [Hand: [DrawnShape: [[Point]]]] {
        var result: [Hand: [DrawnShape: [[Point]]]] = [:]
        for (shape, hand, _, pad, _) in drawings {
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
    /// The first corpus's rules come first, as they were, then the tall shapes'.
    public static let rules: String = {
        let learned = examples()
        var text = "\n# Drawn strokes (Tests/HumanInput/StrokeCorpus.swift): templates learned from \(examplesPerShape) drawings each.\n"
        for shapes in [DrawnShape.everyday, DrawnShape.tall] {
            for (hand, _) in hands {
                for shape in shapes { text += "\n" + ruleText(shape, hand, paths: learned[hand]?[shape] ?? []) }
            }
        }
        return text
    }()

    /// The stroke rules, one per shape and hand, each learned from one fast drawing
    /// (``fastExamples(_:)``): the rules the one-template fast family is matched against.
    public static let fastRules = learnedFromFast(Rules.fastFromOne, count: 1)

    /// The stroke rules, one per shape and hand, each learned from three fast drawings:
    /// the rules the three-template fast family is matched against.
    public static let fastThreeRules = learnedFromFast(Rules.fastFromThree, count: 3)

    /// The rules `rules` stands for, learned from the first `count` fast drawings of each.
    private static func learnedFromFast(_ rules: Rules, count: Int) -> String {
        let learned = fastExamples(count)
        var text = "\n# Drawn strokes (Tests/HumanInput/StrokeCorpus.swift): templates learned from \(rules) each.\n"
        for (hand, _) in hands {
            for shape in DrawnShape.allCases { text += "\n" + ruleText(shape, hand, paths: learned[hand]?[shape] ?? []) }
        }
        return text
    }

    /// The rule of `shape` by `hand` with the templates learned from `paths`.
    private static func ruleText(_ shape: DrawnShape, _ hand: Hand, paths: [[Point]]) -> String {
        let lesson = StrokeLearner.learn(paths)
        return StrokeRuleText.rule(name: rule(shape, hand), device: hand.touchpad ? .touchpad : .touchscreen,
                                   fingers: hand.fingers, templates: lesson.templates, command: "true")
    }

    /// Every drawing of `family` in a stream: each hand draws each shape `per(hand)` times.
    private static func drawings(_ family: Family, stream: Int, per: ((hand: Hand, strokes: Int)) -> Int)
        -> [(DrawnShape, Hand, Int, PadEvents, String)] {
        let root = SeededRandom(seed: seed).fork(stream)
        var number = 0
        var all: [(DrawnShape, Hand, Int, PadEvents, String)] = []
        for entry in hands {
            for shape in family.shapes {
                for index in 0..<per(entry) {
                    number += 1
                    var random = root.fork(number)
                    let (pad, label) = draw(shape, hand: entry.hand, family: family, random: &random)
                    all.append((shape, entry.hand, index, pad, label))
                }
            }
        }
        return all
    }

    /// One drawing of `shape` by `hand`: on a touchscreen its frames (as gestures, the
    /// input every rule sees); on a touchpad libinput's events and the fingers.
    static func draw(_ shape: DrawnShape, hand: Hand, family: Family = .drawn, random: inout SeededRandom) -> (PadEvents, String) {
        let size = hand.touchpad ? random.uniform(18...40) : random.logUniform(hand.fingers == 1 ? 20...90 : 25...70)
        let centre = hand.touchpad
            ? Point(x: 50 + random.uniform(-4...4), y: 35 + random.uniform(-3...3))
            : Point(x: TouchscreenFrames.size.width / 2 + random.uniform(-60...60),
                    y: TouchscreenFrames.size.height / 2 + random.uniform(-25...25))
        var drawing = StrokeDrawing.human(shape, size: size, centre: centre, pace: family.isFast ? .fast : .ordinary, random: &random)
        if family == .hooked {
            let angle = random.uniform(60...150) * (random.chance(0.5) ? 1 : -1) * .pi / 180
            drawing = drawing.hooked(length: random.uniform(2...5), angle: angle, time: random.uniform(0.04...0.08))
        }
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
