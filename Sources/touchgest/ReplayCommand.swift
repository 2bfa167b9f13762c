import ArgumentParser
import CommandRunner
import Glibc
import GestureStreams
import Recordings
import Rulebook
import TouchGestures

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recording through the rules on virtual time and show what fires.",
        discussion: """
            Each line names a rule, what it decided and the gesture's values; a decision that
            runs a command shows the command, and one a stream gets names the stream. With
            -v, every recognizer transition: RULE FROM -> TO (CAUSE). Needs no touch device.
            The same file and rules give the same output every time: attach a recording to a
            bug report, or tune thresholds. Commands run only with --run;
            then each stream command reads every line of its rule, none coalesced, and the
            replay waits for it to take each one: a way to try a stream script on a recording.
            Events are replayed as they are read; a bad line stops the replay with an error
            naming it, after what came before it.
            """
    )

    @OptionGroup var rules: RulesOptions

    @Argument(help: ArgumentHelp("A recording made with touchgest record.", valueName: "file"))
    var file: String

    @Flag(help: "One JSON object per line instead of text.")
    var json = false

    @Flag(help: "Show the input events too, not only recognizer transitions and commands.")
    var input = false

    @OptionGroup var output: OutputOptions

    @Flag(name: .customLong("run"), help: "Run the rules' commands.")
    var runCommands = false

    @Option(help: ArgumentHelp("Replay as if this application's window had the focus (its app id or WM_CLASS class), for rules with an application condition.",
                               valueName: "app"))
    var focusedApp: String?

    @Option(help: ArgumentHelp("The title of that window.", valueName: "title"))
    var focusedTitle: String?

    @OptionGroup var root: RootOptions

    func validate() throws {
        try root.check(runsCommands: runCommands)
        if focusedTitle != nil && focusedApp == nil {
            throw ValidationError("--focused-title needs --focused-app: the title is of the application's window")
        }
    }

    /// The focus the whole replay has: a recording holds no desktop.
    var focus: FocusContext {
        guard let focusedApp else {
            return FocusContext(.unknown("a recording has no focused window; give --focused-app to replay as if one had the focus"))
        }
        return FocusContext(.window(FocusedWindow(application: focusedApp, title: focusedTitle ?? "")))
    }

    func run() throws {
        let book: Rulebook
        let catalogue = rules.rules == nil && access(rules.path, F_OK) != 0 && !runCommands
        do {
            if catalogue {
                printError("touchgest: no rule file at \(rules.path); naming every gesture with its rule (touchgest init writes a starter file)")
            }
            book = catalogue ? GestureCatalogue.rulebook() : try Rulebook.load(path: rules.path, requireSafePermissions: runCommands)
        } catch {
            for diagnostic in error.diagnostics { printError(diagnostic.description) }
            throw ExitCode(1)
        }
        for warning in book.warnings { printError(warning.description) }
        let reader: RecordingReader
        do {
            reader = try RecordingReader(path: file)
        } catch {
            printError("\(error)")
            throw ExitCode(1)
        }
        let scheduler = ManualScheduler()
        let environment = GestureEnvironment(scheduler: scheduler)
        let printer = DebugPrinter(json: json, clock: { scheduler.now }, showInput: input, verbose: output.verbose || input,
                                  catalogue: catalogue, runsCommands: runCommands)
        let runner = runCommands ? CommandRunner() : nil
        let streams: [ReplayStream]
        do {
            streams = try runCommands ? book.rules.compactMap { rule in
                try rule.stream.map { command throws(StreamError) in try ReplayStream(rule: rule.name, command: command) }
            } : []
        } catch {
            printError("touchgest: \(error)")
            throw ExitCode(1)
        }
        let sink = ReplaySink(printer: printer, runner: runner, streams: streams)
        defer { sink.finishStreams() }
        let focus = focus
        focus.onUnavailable = { printer.focusNote($0, rule: nil) }
        if output.verbose { focus.onSitOut = { printer.focusNote($1, rule: $0) } }
        let compiled = CompiledRulebook(book, sink: sink, focus: focus) { reader.device($0)?.name }
        compiled.attach(to: environment)
        printer.use(compiled)
        environment.transitionObserver = { printer.transition($0) }
        do {
            try RecordingReplay.run(reader, scheduler: scheduler, environment: environment,
                                    deliver: { compiled.handle($0, in: environment) }) { printer.adapter($0) }
        } catch {
            printError("\(error)")
            runner?.waitUntilIdle(timeout: .seconds(60))
            throw ExitCode(1)
        }
        runner?.waitUntilIdle(timeout: .seconds(60))
    }
}

/// Prints (and with --run, runs) the commands a replay triggers, and feeds the streams.
final class ReplaySink: CommandSink {
    let printer: DebugPrinter
    let runner: CommandRunner?
    /// With --run, the rules' stream commands, by rule.
    let streams: [String: ReplayStream]

    init(printer: DebugPrinter, runner: CommandRunner?, streams: [ReplayStream]) {
        self.printer = printer
        self.runner = runner
        self.streams = Dictionary(streams.map { ($0.rule, $0) }) { first, _ in first }
    }

    func wantsSamples(of rule: String) -> Bool { streams[rule] != nil }

    func stream(_ sample: GestureSample) { streams[sample.rule]?.send(sample.jsonLine) }

    /// Closes every stream and waits for it, saying on stderr which one did not read to the end.
    func finishStreams() {
        for stream in streams.values.sorted(by: { $0.rule < $1.rule }) {
            let status: CommandRunner.Status
            do {
                status = try stream.finish()
            } catch {
                printError("touchgest: \(error)")
                continue
            }
            if stream.stoppedReading || !status.succeeded {
                let read = stream.stoppedReading ? "closed its input after \(stream.linesSent) lines were sent, and " : ""
                printError("touchgest: the stream of rule '\(stream.rule)' \(read)\(status)")
            }
        }
    }

    func run(_ request: CommandRequest) {
        printer.command(request)
        runner?.run(CommandRunner.Job(key: request.rule, command: request.command, environment: request.environment,
                                      timeout: request.timeout, overlap: Session.overlap(request.overlap)))
    }
}
