import ArgumentParser
import Rulebook
import TouchgestDaemon

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate rule files.",
        discussion: """
            Prints every error of each file as FILE:LINE:COLUMN: error: MESSAGE and exits 1,
            or prints "ok" and exits 0. Warnings are printed but do not fail the check; they
            include each action the desktop check runs on lacks (action = "overview" on sway).
            """
    )

    @OptionGroup var options: RulesOptions

    @Flag(help: "After ok, print each rule and the rules it waits for to fail.")
    var explain = false

    @Argument(help: ArgumentHelp("Rule files to check (default: the rule file touchgest run would use).", valueName: "path"))
    var paths: [String] = []

    func run() throws {
        let files = paths.isEmpty ? [options.path] : paths
        var failed = false
        var explanations: [String] = []
        for file in files {
            do {
                let book = try Rulebook.load(path: file)
                let problems = book.desktopProblems()
                for diagnostic in book.warnings + problems { printError(diagnostic.description) }
                if problems.contains(where: { $0.severity == .error }) { failed = true }
                explanations.append(files.count > 1 ? "\(file):\n\(book.explain())" : book.explain())
            } catch {
                failed = true
                for diagnostic in error.diagnostics { printError(diagnostic.description) }
            }
        }
        if failed { throw ExitCode(1) }
        emit("ok")
        if explain {
            for line in explanations.joined(separator: "\n\n").split(separator: "\n", omittingEmptySubsequences: false) {
                emit(String(line))
            }
        }
    }
}
