// Fuzzes rule files end to end: text -> Rulebook.parse (TOML, validation, ordering)
// -> CompiledRulebook attached to an engine. Any text must give rules or diagnostics
// placed inside the text, never a trap or a hang. See scripts/fuzz.
import FuzzSupport
import Glibc
import Rulebook
import TouchGestures

/// Swallows the commands a compiled rulebook would run.
final class NullSink: CommandSink {
    func run(_ request: CommandRequest) {}
}

/// One input: parse, validate and compile it, then check the diagnostics.
func fuzzOne(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let lines = text.utf8.count { $0 == 0x0A } + 1
    do {
        let book = try Rulebook.parse(text, file: "fuzz.toml")
        check(book.warnings, lines: lines)
        let sink = NullSink()
        let compiled = CompiledRulebook(book, sink: sink)
        let environment = GestureEnvironment(scheduler: ManualScheduler())
        compiled.attach(to: environment)
        compiled.detach()
    } catch {
        guard !error.diagnostics.isEmpty else { fatalError("an error with no diagnostic") }
        check(error.diagnostics, lines: lines)
    }
}

func check(_ diagnostics: [Diagnostic], lines: Int) {
    for diagnostic in diagnostics {
        guard (0...lines).contains(diagnostic.line), diagnostic.column >= 0, !diagnostic.message.isEmpty else {
            fatalError("diagnostic outside an input of \(lines) lines: \(diagnostic)")
        }
    }
}

@main struct FuzzRulesMain {
    static func main() {
        FuzzTarget.run("FuzzRules", folder: FuzzTarget.folder(of: #filePath), fuzzOne)
    }
}
