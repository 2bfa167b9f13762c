import Glibc
import InputDevices
import Recordings
import Rulebook
import StrokeGestures
import TouchGestures

/// What `touchgest learn` does, without its printing: collects strokes drawn with some
/// fingers, live on a pipeline or from a recording, with the collector that measures them
/// as the stroke rules will; makes templates of them; says how alike the drawings are and
/// which stroke rules of a rule file the shape would be confused with; writes the rule.
public final class StrokeLearning {
    /// The fingers that draw.
    public let fingers: Int
    /// What takes the strokes: tell its `onStroke` to hear of each as it ends.
    public let collector: StrokeCollector

    /// Learns strokes of `fingers` fingers: 1 on touchscreens only (one finger on a
    /// touchpad is the pointer), 4 on touchpads only, 2 and 3 on either.
    public init(fingers: Int) {
        self.fingers = fingers
        let types: Set<TouchType> = fingers == 1 ? [.direct] : fingers > 3 ? [.indirect] : [.direct, .indirect]
        collector = StrokeCollector(fingers: fingers, touchTypes: types)
    }

    /// The whole strokes drawn so far: the examples.
    public var examples: [StrokeReport] {
        collector.strokes.filter { $0.entries.first?.ending == .noTemplates }
    }

    /// Collects from `pipeline`'s input, reading touchpad fingers from now on.
    public func collect(on pipeline: GesturePipeline) {
        pipeline.readTouchpadFingers()
        collector.attach(to: pipeline.environment)
    }

    /// Collects every stroke of a recording, played on virtual time; throws at its first
    /// bad line (the strokes before it are kept).
    public func collect(from reader: RecordingReader) throws(RecordingError) {
        let scheduler = ManualScheduler()
        let environment = GestureEnvironment(scheduler: scheduler)
        collector.attach(to: environment)
        try RecordingReplay.run(reader, scheduler: scheduler) { event in
            if case let .input(input) = event { environment.handle(input) }
        }
    }

    /// Why no rule can be made.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// No whole stroke of the fingers was drawn.
        case noExamples(fingers: Int)
        /// Some examples were drawn on a touchscreen and some on a touchpad.
        case mixedDevices
        /// The rule file has a rule of that name already.
        case nameTaken(String, file: String)
        /// The rule file cannot take the rule (it does not parse, or would not with it).
        case ruleFile(String)
        /// The file could not be written.
        case write(String)

        public var description: String {
            switch self {
            case let .noExamples(fingers):
                "no stroke of \(fingers) finger\(fingers == 1 ? "" : "s") was drawn (a stroke spans at least \(fixedDecimals(StrokeDefaults.minimumSize, 0)) mm, drawn with exactly that many fingers)"
            case .mixedDevices:
                "the examples were drawn on a touchscreen and on a touchpad; draw them all on one"
            case let .nameTaken(name, file):
                "\(file) has a rule named '\(name)' already; choose another name, or edit that rule"
            case let .ruleFile(why): why
            case let .write(why): why
            }
        }
    }

    /// What the examples teach, as a rule named `name` that runs `command`, compared with
    /// the stroke rules of `rules` on the same fingers and devices.
    public func lesson(name: String, command: String, threshold: Double? = nil, rules: Rulebook? = nil) throws(Problem) -> StrokeLesson {
        let examples = examples
        guard !examples.isEmpty else { throw .noExamples(fingers: fingers) }
        let types = Set(examples.map(\.touchType))
        guard types.count == 1 else { throw .mixedDevices }
        let device: DeviceKind = types.first == .indirect ? .touchpad : .touchscreen
        let learned = StrokeLearner.learn(examples.map(\.path.points), keeping: StrokeDefaults.maximumTemplatesPerRule)
        let threshold = threshold ?? StrokeDefaults.threshold
        // The kept drawings that made a template, each beside its template.
        let drawn = learned.kept.map { examples[$0].path.points }.compactMap { path in
            StrokeLearner.template(from: path).map { (shape: StrokeShape(path), template: $0) }
        }
        var others: [StrokeLesson.Neighbour] = []
        for rule in rules?.rules ?? [] where rule.gesture == .stroke && rule.fingers == fingers && rule.device.overlaps(device) && rule.name != name {
            let score = StrokeLearner.closeness(learned.templates, rule.templates)
            let confusions = StrokeLearner.confusions(examples: drawn.map(\.shape), templates: drawn.map(\.template), threshold: threshold,
                                                      other: rule.templates, otherThreshold: rule.strokeThreshold)
            others.append(StrokeLesson.Neighbour(rule: rule.name, score: score, threshold: min(threshold, rule.strokeThreshold),
                                                 drawings: drawn.count + rule.templates.count, confusions: confusions))
        }
        let text = StrokeRuleText.rule(name: name, device: device, fingers: fingers, templates: learned.templates,
                                       threshold: threshold, command: command)
        return StrokeLesson(name: name, device: device, fingers: fingers, threshold: threshold, examples: examples,
                            kept: learned.kept, templates: learned.templates, scores: learned.scores,
                            neighbours: others.sorted { $0.score > $1.score }, rule: text)
    }

    /// Appends `lesson`'s rule to the rule file at `path`, never changing what is there,
    /// through ``RuleFileWriter`` (a whole new copy renamed over the file, or nothing):
    /// refused when the file has a rule of that name, when it has errors, when the file
    /// with the rule added would not pass `touchgest check` (with its errors), or when
    /// another program changed the file meanwhile. A file that does not exist is made
    /// (mode 600, its folders 700); a symlink's target is written, the link kept.
    public static func append(_ lesson: StrokeLesson, to path: String) throws(Problem) {
        let writer: RuleFileWriter
        do {
            writer = try RuleFileWriter(reading: path)
        } catch {
            throw .ruleFile(error.description)
        }
        let existing = writer.text ?? ""
        if writer.text != nil {
            let book: Rulebook
            do {
                book = try Rulebook.parse(existing, file: path)
            } catch {
                throw .ruleFile("\(path) has errors; fix them before adding to it (touchgest check):\n" + error.description)
            }
            if book.rule(named: lesson.name) != nil { throw .nameTaken(lesson.name, file: path) }
        }
        let separator = existing.isEmpty || existing.hasSuffix("\n\n") ? "" : existing.hasSuffix("\n") ? "\n" : "\n\n"
        do {
            try writer.commit(existing + separator + lesson.rule)
        } catch {
            if case let .invalid(problems) = error {
                throw .ruleFile("\(path) would not be valid with the rule added, so it was left alone:\n" + problems.description)
            }
            throw .write(error.description)
        }
    }
}

/// What a set of examples taught: the rule, and how it will fare.
public struct StrokeLesson: Sendable {
    /// A stroke rule of the rule file on the same fingers, how close the new shape comes
    /// to it (``StrokeLearner/closeness(_:_:)``), and which drawings of the two would be
    /// taken for the other (``StrokeLearner/confusions(examples:templates:threshold:other:otherThreshold:)``).
    public struct Neighbour: Sendable, Equatable {
        /// The other rule's name.
        public var rule: String
        /// The best score a template of one reaches against the other's.
        public var score: Double
        /// The lower of the two rules' thresholds.
        public var threshold: Double
        /// The drawings judged: the new examples kept and the other rule's templates.
        public var drawings: Int
        /// Those that come closer to the other shape than to their own.
        public var confusions: [StrokeLearner.Confusion]

        /// Whether a stroke of one would be taken for the other: some drawing of one comes
        /// closer to the other's templates than to its own (its own left out). Templates
        /// merely close (at the threshold) are no sign: on real drawings circle and
        /// triangle were that close in nearly every rule file, and confused in 2 of 2,100.
        public var isTooAlike: Bool { !confusions.isEmpty }
    }

    /// The rule's name.
    public var name: String
    /// Where the examples were drawn: touchscreen or touchpad.
    public var device: DeviceKind
    public var fingers: Int
    /// The score the rule's closest template must reach.
    public var threshold: Double
    /// The strokes it learned from, in order.
    public var examples: [StrokeReport]
    /// The examples the templates come from, by index from 0: all of them, or the most
    /// typical ``StrokeDefaults/maximumTemplatesPerRule`` (``StrokeLearner/mostTypical(_:keeping:candidates:)``).
    public var kept: [Int]
    /// One template per kept example.
    public var templates: [StrokeTemplate]
    /// For each kept example, its best score against the other kept examples' templates.
    public var scores: [Double?]
    /// The stroke rules on the same fingers, closest first.
    public var neighbours: [Neighbour]
    /// The rule as rule-file text.
    public var rule: String

    /// The kept examples that score under the threshold against the others, by number from 1.
    public var unlikeTheRest: [Int] {
        zip(kept, scores).compactMap { index, score in score.map { $0 < threshold ? index + 1 : nil } ?? nil }
    }
}
