import CommandRunner
import GestureStreams
import InputDevices
import LibinputInput
import Recordings
import Rulebook
import TouchGestures

/// A recording played through the rules on virtual time: what `touchgest replay` runs.
///
/// The same wiring as a ``GesturePipeline`` with a ``ManualScheduler`` for a clock: the rules
/// are attached to one environment, every event goes in through the environment's one
/// way in, and the commands go to the observer and, with `runCommands`, to a runner.
public final class Replay {
    public let scheduler = ManualScheduler()
    public let environment: GestureEnvironment
    public let compiled: CompiledRulebook
    private let actions: ReplayActions
    private weak var observer: GesturePipelineObserver?
    /// With `runCommands`: each command that could not start, as the daemon logs it
    /// (`rule NAME: command could not start: WHY`), in order.
    public private(set) var commandsNotStarted: [String] = []

    /// Compiles `book` for a replay of `reader`; with `runCommands`, starts the rules'
    /// stream commands (throws if one cannot start) and runs commands for real.
    public init(_ book: Rulebook, reader: RecordingReader, focus: FocusContext, runCommands: Bool,
                observer: GesturePipelineObserver) throws(StreamError) {
        environment = GestureEnvironment(scheduler: scheduler)
        var streams: [String: ReplayStream] = [:]
        if runCommands {
            for rule in book.rules {
                guard let command = rule.stream, streams[rule.name] == nil else { continue }
                streams[rule.name] = try ReplayStream(rule: rule.name, command: command)
            }
        }
        actions = ReplayActions(runner: runCommands ? CommandRunner() : nil, streams: streams, observer: observer)
        self.observer = observer
        compiled = CompiledRulebook(book, sink: actions, focus: focus) { reader.device($0)?.name }
        compiled.attach(to: environment)
        if observer.wantsTransitions { environment.transitionObserver = { [weak observer] in observer?.transition($0) } }
        if observer.wantsPhaseMoves { environment.phaseObserver = { [weak observer] in observer?.phaseMove($0) } }
        actions.runner?.observer = { [weak self] event in
            if case let .finished(job, _, status, _) = event, case .couldNotStart = status {
                self?.commandsNotStarted.append("rule \(job.key): command \(status)")
            }
        }
    }

    /// Plays `reader` to its end or to its first bad line (thrown, after what came
    /// before it), then waits (a minute at most) for the commands it started.
    public func play(_ reader: RecordingReader) throws(RecordingError) {
        defer { actions.runner?.waitUntilIdle(timeout: .seconds(60)) }
        try RecordingReplay.run(reader, scheduler: scheduler) { event in
            observer?.adapter(event)
            if case let .input(input) = event { environment.handle(input) }
        }
    }

    /// Closes every stream and waits for it; returns what went wrong, by rule, in rule
    /// order: a stream that got stuck (and was stopped), closed its input early, or did
    /// not exit cleanly. `failed` is true when one was stuck: the replay then failed.
    public func finishStreams() -> (problems: [String], failed: Bool) {
        var problems: [String] = []
        var failed = false
        for stream in actions.streams.values.sorted(by: { $0.rule < $1.rule }) {
            let status: CommandRunner.Status
            do {
                status = try stream.finish()
            } catch {
                problems.append("\(error)")
                continue
            }
            if stream.stuck {
                failed = true
                problems.append("the stream of rule '\(stream.rule)' took no input for \(StreamDefaults.stallTimeout) and was stopped, as touchgest run stops a stuck stream (\(stream.linesSent) lines were sent; it \(status))")
            } else if stream.stoppedReading || !status.succeeded {
                let read = stream.stoppedReading ? "closed its input after \(stream.linesSent) lines were sent, and " : ""
                problems.append("the stream of rule '\(stream.rule)' \(read)\(status)")
            }
        }
        return (problems, failed)
    }
}

/// Where a replay's rules send their commands and samples: the observer, and with
/// `--run` the runner and the stream commands.
private final class ReplayActions: CommandSink {
    let runner: CommandRunner?
    /// The rules' stream commands, by rule.
    let streams: [String: ReplayStream]
    weak var observer: GesturePipelineObserver?

    init(runner: CommandRunner?, streams: [String: ReplayStream], observer: GesturePipelineObserver) {
        self.runner = runner
        self.streams = streams
        self.observer = observer
    }

    func wantsSamples(of rule: String) -> Bool { streams[rule] != nil }

    func stream(_ sample: GestureSample) { streams[sample.rule]?.send(sample.jsonLine) }

    func run(_ request: CommandRequest) {
        observer?.command(request)
        runner?.run(CommandRunner.Job(request))
    }

    /// Shown, never pressed: a replay's keys would land in whatever window has the focus.
    func press(_ request: InputRequest) {
        observer?.press(request)
    }

    /// Shown, never handed to the desktop.
    func follow(_ request: FollowRequest) {
        observer?.follow(request)
    }
}
