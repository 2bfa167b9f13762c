// Fuzzes rule files end to end: text -> Rulebook.parse (TOML, validation, ordering)
// -> CompiledRulebook attached to an engine. Any text must give rules or diagnostics
// placed inside the text, never a trap or a hang. See scripts/fuzz.
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

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzOne(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// libFuzzer's driver, called from Swift's own entry point: SwiftPM renames an
/// executable's `main` (to `FuzzRules_main`), so libFuzzer's `main` cannot be used.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@main struct FuzzRulesDriver {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzzerTestOneInput))
    }
}
#else
/// Without libFuzzer: runs every corpus and regression file once, so a crash found
/// once stays fixed in every build.
@main struct FuzzRulesRegressions {
    static func main() {
        let folder = String(#filePath[..<#filePath.lastIndex(of: "/")!])
        var count = 0
        for subfolder in ["corpus", "regressions"] {
            for path in files(in: "\(folder)/\(subfolder)") {
                fuzzOne(read(path))
                count += 1
            }
        }
        print("FuzzRules: \(count) inputs, no crash")
    }
}

func files(in folder: String) -> [String] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if !name.hasPrefix(".") { names.append("\(folder)/\(name)") }
    }
    return names.sorted()
}

func read(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "r") else { fatalError("cannot read \(path)") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes += buffer[..<count]
    }
    return bytes
}
#endif
