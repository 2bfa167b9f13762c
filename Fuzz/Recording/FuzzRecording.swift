// Fuzzes the recording reader and the replay behind it: bytes -> RecordingReader ->
// RecordingReplay through a small fixed rulebook on a ManualScheduler, as `touchgest
// replay` does. Any input must end in events or in an error naming a line, never in a
// trap or a hang.
//
// Built with -DFUZZING and -sanitize=fuzzer (scripts/fuzz Recording), libFuzzer calls
// LLVMFuzzerTestOneInput. In a normal build, main runs every file of Fuzz/Recording/corpus
// and Fuzz/Recording/regressions through the same function, so each input that once
// crashed it is checked in every test run.
import Glibc
import Recordings
import Rulebook
import TouchGestures

/// Every gesture kind, a stepped pinch and rotation, a tap that waits for a double tap,
/// and rules on both kinds of device.
let rules = """
    [rule.swipe]
    gesture = "swipe"
    fingers = 3
    command = "true"

    [rule.drag]
    gesture = "pan"
    fingers = 4
    on-end = "true"

    [rule.zoom]
    gesture = "pinch"
    step = 0.5
    on-step = "true"

    [rule.turn]
    gesture = "rotation"
    step = 30
    on-step = "true"

    [rule.hold]
    gesture = "long-press"
    fingers = 3
    on-begin = "true"
    on-end = "true"

    [rule.tap]
    gesture = "tap"
    fingers = 2
    command = "true"

    [rule.double-tap]
    gesture = "tap"
    fingers = 2
    taps = 2
    command = "true"

    [rule.screen-tap]
    gesture = "tap"
    device = "touchscreen"
    command = "true"

    [rule.edge]
    gesture = "edge-pan"
    device = "touchscreen"
    edges = "left"
    on-end = "true"
    """

let rulebook: Rulebook = {
    do {
        return try Rulebook.parse(rules, file: "fuzz.toml")
    } catch {
        fatalError("the fuzz target's own rules do not parse: \(error)")
    }
}()

/// Counts the commands a replay would run, and runs none.
final class CountingSink: CommandSink {
    var count = 0
    func run(_ request: CommandRequest) { count += 1 }
}

/// Replays `bytes` as a recording; returns the error text, or nil when it replayed.
@discardableResult
func replay(_ bytes: [UInt8]) -> String? {
    let reader = RecordingReader(bytes: bytes, path: "fuzz.tgrec")
    let scheduler = ManualScheduler()
    let environment = GestureEnvironment(scheduler: scheduler)
    let compiled = CompiledRulebook(rulebook, sink: CountingSink()) { reader.device($0)?.name }
    compiled.attach(to: environment)
    do {
        try RecordingReplay.run(reader, scheduler: scheduler, environment: environment)
        return nil
    } catch {
        return error.description
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    replay(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

// SwiftPM links an executable target with `main` aliased to `<Target>_main`, so
// libFuzzer's own main is never linked in; this one starts libFuzzer's driver instead.
@_extern(c, "LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

@_cdecl("FuzzRecording_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzTestOneInput)
}
#else
@main
struct FuzzRecordingMain {
    /// Replays every file in the corpus and regressions folders; exits 1 if a folder
    /// is missing or empty (a misplaced checkout must not pass for a clean run).
    static func main() {
        let root = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : folderOfThisFile()
        var total = 0
        for folder in ["corpus", "regressions"] {
            let files = names(in: "\(root)/\(folder)")
            for name in files {
                guard let bytes = contents(of: "\(root)/\(folder)/\(name)") else {
                    print("FuzzRecording: cannot read \(root)/\(folder)/\(name)")
                    exit(1)
                }
                let outcome = replay(bytes)
                print("\(folder)/\(name): \(outcome.map { $0.escapingControls } ?? "replayed")")
                total += 1
            }
        }
        guard total > 0 else {
            print("FuzzRecording: no inputs in \(root)/corpus or \(root)/regressions")
            exit(1)
        }
        print("FuzzRecording: \(total) inputs, no crash")
    }

    static func folderOfThisFile() -> String {
        String(#filePath[..<#filePath.lastIndex(of: "/")!])
    }

    static func names(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    static func contents(of path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
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
}

extension String {
    /// Error texts quote the input, which can hold anything: keep the log readable.
    var escapingControls: String {
        String(unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : Character($0) })
    }
}
#endif
