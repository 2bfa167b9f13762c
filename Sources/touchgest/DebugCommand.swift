import ArgumentParser
import Glibc
import Rulebook
import TouchGestures
import TouchgestDaemon

struct DebugCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "debug",
        abstract: "Show devices and the gestures the rules recognize, live.",
        discussion: """
            \(DebugPrinter.help) Commands and streams run only with --run. With -v, every input
            event too. Lines starting session: show the session's state as it changes (locked,
            inactive, sleeping, unlocked, with what said so), which rules act then, and which
            source is followed or missing; debug acts on it as touchgest run does.
            Without a rule file, debug recognizes a built-in catalogue of every gesture and
            names each one ("swipe left, 3 fingers") with the rule that binds it.
            """
    )

    @OptionGroup var rules: RulesOptions
    @OptionGroup var input: InputOptions
    @OptionGroup var focus: FocusOptions
    @OptionGroup var sessionState: SessionOptions

    @Flag(help: "One JSON object per line instead of text.")
    var json = false

    @OptionGroup var output: OutputOptions

    @Flag(name: .customLong("run"), help: "Run the rules' commands, as touchgest run would.")
    var runCommands = false

    @Flag(help: "Show what touchgest is deciding on screen while fingers are down, as feedback = \"on\" does.")
    var overlay = false

    @OptionGroup var root: RootOptions

    func validate() throws {
        try root.check(runsCommands: runCommands)
    }

    func run() throws {
        var book: Rulebook?
        let catalogue = rules.rules == nil && access(rules.path, F_OK) != 0
        if catalogue {
            // Nothing bound yet: name every gesture the user makes, with the rule that
            // would bind it, which is what a user setting touchgest up wants to see first.
            printError("touchgest: no rule file at \(rules.path); naming every gesture with its rule (touchgest init writes a starter file); runs nothing")
            book = GestureCatalogue.rulebook()
        } else {
            do {
                book = try Rulebook.load(path: rules.path, requireSafePermissions: runCommands)
            } catch {
                for diagnostic in error.diagnostics { printError(diagnostic.description) }
                throw ExitCode(1)
            }
        }
        let runs = runCommands && !catalogue
        let printer = DebugPrinter(json: json, verbose: output.verbose, catalogue: catalogue, runsCommands: runs)
        let pipeline = try GesturePipeline.open(input, book: catalogue ? nil : book, runCommands: runs, observer: printer)
        // Before the rules: the overlay hears of their strokes from the start.
        pipeline.showFeedback(overlay || book?.settings.feedback == .on)
        if let book {
            pipeline.load(book)
            if let compiled = pipeline.compiled { printer.use(compiled) }
            if let source = book.modifierSource() { printer.modifierSource(source) }
        }
        pipeline.startFocus(focus.provider)
        pipeline.startSessionState(sessionState.source)
        pipeline.runUntilSignalled()
    }
}
