import ArgumentParser
import Glibc
import LibinputInput
import Rulebook
import TouchGestures

struct DebugCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "debug",
        abstract: "Show devices, touches, touchpad gestures and every recognizer transition, live.",
        discussion: """
            Each recognizer is named after its rule. Lines read RULE FROM -> TO (CAUSE); when a
            rule would run its command, the next line says so. Commands run only with --run.
            """
    )

    @OptionGroup var rules: RulesOptions
    @OptionGroup var input: InputOptions
    @OptionGroup var focus: FocusOptions

    @Flag(help: "One JSON object per line instead of text.")
    var json = false

    @Flag(name: .customLong("run"), help: "Run the rules' commands, as touchgest run would.")
    var runCommands = false

    @OptionGroup var root: RootOptions

    func validate() throws {
        try root.check(runsCommands: runCommands)
    }

    func run() throws {
        var book: Rulebook?
        if rules.rules == nil && access(rules.path, F_OK) != 0 {
            // Nothing to recognize yet: still show devices and input, which is what a
            // user setting touchgest up wants to see first.
            printError("touchgest: no rule file at \(rules.path); showing input only (see touchgest-rules(5))")
        } else {
            do {
                book = try Rulebook.load(path: rules.path, requireSafePermissions: runCommands)
            } catch {
                for diagnostic in error.diagnostics { printError(diagnostic.description) }
                throw ExitCode(1)
            }
        }
        let printer = DebugPrinter(json: json)
        let session = try Session.open(input, book: book, runCommands: runCommands, observer: printer)
        if let book { session.load(book) }
        session.startFocus(focus.provider)
        session.runUntilSignalled()
    }
}
