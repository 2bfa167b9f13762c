import ArgumentParser
import Glibc
import Rulebook
import TouchGestures
import TouchgestDaemon

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recording through the rules on virtual time and show what fires.",
        discussion: """
            \(DebugPrinter.help) Needs no touch device.
            The same file and rules give the same output every time: attach a recording to a
            bug report, or tune thresholds. Commands run only with --run;
            then each stream command reads every line of its rule, none coalesced, and the
            replay waits for it to take each one: a way to try a stream script on a recording.
            With --run it exits 1, naming it, when a command could not start or a stream took
            no input for 2 seconds, as touchgest run would log it. Events are replayed as they are read; a bad line stops the replay with an error
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
        var clock: (() -> Timestamp)?
        let printer = DebugPrinter(json: json, clock: { clock?() ?? Timestamp(microseconds: 0) }, showInput: input,
                                   verbose: output.verbose || input, catalogue: catalogue, runsCommands: runCommands, pressesInput: false)
        let focus = focus
        focus.onUnavailable = { printer.focusNote($0, rule: nil) }
        if output.verbose { focus.onSitOut = { printer.focusNote($1, rule: $0) } }
        let replay: Replay
        do {
            replay = try Replay(book, reader: reader, focus: focus, runCommands: runCommands, observer: printer)
        } catch {
            printError("touchgest: \(error)")
            throw ExitCode(1)
        }
        clock = { replay.scheduler.now }
        printer.use(replay.compiled)
        var failed = false
        do {
            try replay.play(reader)
        } catch {
            printError("\(error)")
            failed = true
        }
        let streams = replay.finishStreams()
        for problem in streams.problems { printError("touchgest: \(problem)") }
        // The daemon logs a command that could not start; replay says it and fails.
        for problem in replay.commandsNotStarted { printError("touchgest: \(problem)") }
        if failed || streams.failed || !replay.commandsNotStarted.isEmpty { throw ExitCode(1) }
    }
}
