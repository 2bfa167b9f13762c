// Fuzzes the TOML parser alone: any bytes must give a table or a positioned error,
// never a trap, a hang or a position outside the input. See scripts/fuzz.
import Glibc
import TOML

/// One input: parse it, then check what came back.
func fuzzOne(_ bytes: [UInt8]) {
    let lines = bytes.count { $0 == 0x0A } + 1
    do {
        let table = try TOMLParser().parse(utf8: bytes)
        check(table, lines: lines)
    } catch {
        guard (1...lines).contains(error.position.line), error.position.column >= 1, !error.message.isEmpty else {
            fatalError("bad error position \(error) for an input of \(lines) lines")
        }
    }
}

/// Every position in the tree lies inside the input.
func check(_ table: TOMLTable, lines: Int) {
    for entry in table.entries {
        guard (1...lines).contains(entry.keyPosition.line), entry.keyPosition.column >= 1 else {
            fatalError("key '\(entry.key)' placed at \(entry.keyPosition) in an input of \(lines) lines")
        }
        check(entry.value, lines: lines)
    }
}

func check(_ value: TOMLValue, lines: Int) {
    guard (1...lines).contains(value.position.line), value.position.column >= 1 else {
        fatalError("value placed at \(value.position) in an input of \(lines) lines")
    }
    switch value.content {
    case let .array(elements): for element in elements { check(element, lines: lines) }
    case let .table(table): check(table, lines: lines)
    case .string, .integer, .float, .boolean, .dateTime: break
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzOne(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// libFuzzer's driver, called from Swift's own entry point: SwiftPM renames an
/// executable's `main` (to `FuzzTOML_main`), so libFuzzer's `main` cannot be used.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@main struct FuzzTOMLDriver {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzzerTestOneInput))
    }
}
#else
/// Without libFuzzer: runs every corpus and regression file once, so a crash found
/// once stays fixed in every build.
@main struct FuzzTOMLRegressions {
    static func main() {
        let folder = String(#filePath[..<#filePath.lastIndex(of: "/")!])
        var count = 0
        for subfolder in ["corpus", "regressions"] {
            for path in files(in: "\(folder)/\(subfolder)") {
                fuzzOne(read(path))
                count += 1
            }
        }
        print("FuzzTOML: \(count) inputs, no crash")
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
