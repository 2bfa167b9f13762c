// Fuzzes the recording reader and the replay behind it: bytes -> RecordingReader ->
// RecordingReplay through a small fixed rulebook on a ManualScheduler, as `touchgest
// replay` does. Any input must end in events or in an error naming a line, never in a
// trap or a hang.
//
// Built with -DFUZZING and -sanitize=fuzzer (scripts/fuzz Recording), libFuzzer calls
// LLVMFuzzerTestOneInput. In a normal build, main runs every file of Fuzz/Recording/corpus
// and Fuzz/Recording/regressions through the same function, so each input that once
// crashed it is checked in every test run.
import FuzzSupport
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
        try RecordingReplay.run(reader, scheduler: scheduler) { event in
            if case let .input(input) = event { environment.handle(input) }
        }
        return nil
    } catch {
        return error.description
    }
}

@main struct FuzzRecordingMain {
    static func main() {
        FuzzTarget.run("FuzzRecording", folder: FuzzTarget.folder(of: #filePath)) { replay($0) }
    }
}
