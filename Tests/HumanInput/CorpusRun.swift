import Rulebook
import StrokeGestures
import TouchGestures

/// Runs samples through a rule file the way `touchgest replay` does: the rulebook
/// compiled onto a `GestureEnvironment` on a `ManualScheduler`, each event delivered at
/// its time with the timers due before it fired first, and every timer run at the end.
public final class CorpusRun {
    public let rulebook: Rulebook
    /// The same with the competing pan, for samples that ask for it.
    public let rulebookWithPan: Rulebook
    /// Engine diagnostics (impossible transitions) seen while running, per sample name.
    public private(set) var diagnostics: [String] = []
    /// How every stroke matched the stroke rules, by sample name, in order.
    public private(set) var strokeReports: [(sample: String, report: StrokeReport)] = []

    /// Parses the rule texts; throws their diagnostics if one is not valid.
    public init(rules: String = CorpusRules.text, withPan: String = CorpusRules.withPan) throws(RuleFileError) {
        rulebook = try Rulebook.parse(rules, file: "corpus.toml")
        rulebookWithPan = try Rulebook.parse(withPan, file: "corpus-pan.toml")
    }

    /// The command requests one sample triggers, in order.
    public func requests(for sample: Sample) -> [CommandRequest] {
        let scheduler = ManualScheduler(start: Timestamp(microseconds: Sample.start.microseconds - 1))
        let environment = GestureEnvironment(scheduler: scheduler)
        // As the daemon's pipeline does once it reads a semi-MT pad's fingers.
        environment.fingerReadTouchpads = [SemiMultitouchCorpus.device]
        let sink = RecordingSink()
        let compiled = CompiledRulebook(sample.withPan ? rulebookWithPan : rulebook, sink: sink) { device in
            switch device {
            case TouchpadCorpus.device: "corpus touchpad"
            case SemiMultitouchCorpus.device: "corpus semi-MT touchpad"
            default: "corpus touchscreen"
            }
        }
        compiled.attach(to: environment)
        environment.diagnosticHandler = { [weak self] diagnostic in
            self?.diagnostics.append("\(sample.name): \(diagnostic)")
        }
        compiled.strokeReports = { [weak self] report in self?.strokeReports.append((sample.name, report)) }
        // As the daemon reads a touchpad's fingers only while a rule reads them.
        let events = compiled.readsTouchpadContacts ? Self.merged(sample.events, sample.contacts) : sample.events
        for event in events {
            let time = event.timestamp
            scheduler.advance(to: Timestamp(microseconds: time.microseconds - 1))
            environment.handle(event)
            scheduler.advance(to: time)
        }
        scheduler.runUntilIdle()
        return sink.requests
    }

    /// `a` and `b` in time order; of two events at the same time, `a`'s first (libinput's
    /// descriptor is polled before the contact reader's).
    static func merged(_ a: [InputEvent], _ b: [InputEvent]) -> [InputEvent] {
        var result: [InputEvent] = []
        result.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i].timestamp <= b[j].timestamp) {
                result.append(a[i])
                i += 1
            } else {
                result.append(b[j])
                j += 1
            }
        }
        return result
    }

    /// What happened to one sample.
    public func outcome(of sample: Sample) -> Outcome {
        Outcome(sample: sample, requests: requests(for: sample))
    }
}

/// Collects command requests instead of running them.
final class RecordingSink: CommandSink {
    var requests: [CommandRequest] = []
    func run(_ request: CommandRequest) { requests.append(request) }
}

/// How a sample fared: the verdict a user would give.
public struct Outcome: Sendable {
    public enum Verdict: String, Sendable {
        /// The expected rule fired exactly once with the right values, nothing else did.
        case right
        /// Another rule fired instead (wrong direction or fingers), or the expected one
        /// fired once with the wrong values (pinch in for out).
        case wrong
        /// Nothing fired.
        case missed
        /// Rules fired more than once in all.
        case multiple
        /// A negative sample where nothing outside its allowed rules fired.
        case quiet
        /// A negative sample where a rule fired.
        case falsePositive
    }

    public var sample: Sample
    public var requests: [CommandRequest]
    /// Rules that fired (began or were recognized), in order, without the allowed ones.
    public var fired: [String]
    public var verdict: Verdict

    init(sample: Sample, requests: [CommandRequest]) {
        self.sample = sample
        self.requests = requests
        fired = requests.filter { $0.phase == .recognized || $0.phase == .begin }.map(\.rule)
            .filter { !sample.allowed.contains($0) }
        guard let expected = sample.expected else {
            verdict = fired.isEmpty ? .quiet : .falsePositive
            return
        }
        if fired.isEmpty {
            verdict = .missed
        } else if fired.count > 1 {
            verdict = .multiple
        } else if fired == [expected.rule], Self.passes(expected.check, requests, rule: expected.rule) {
            verdict = .right
        } else {
            verdict = .wrong
        }
    }

    private static func passes(_ check: Expectation.Check, _ requests: [CommandRequest], rule: String) -> Bool {
        let end = requests.last { $0.rule == rule && $0.phase == .end }
        switch check {
        case .none:
            return true
        case let .scale(spreading):
            guard let text = end?.environment["TOUCHGEST_SCALE"], let scale = Double(text) else { return false }
            return spreading ? scale > 1 : scale < 1
        case let .rotation(clockwise):
            guard let text = end?.environment["TOUCHGEST_ROTATION"], let degrees = Double(text) else { return false }
            return clockwise ? degrees > 0 : degrees < 0
        }
    }
}
