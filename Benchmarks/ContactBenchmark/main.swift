// Measures the touchpad contact reader on the real libinput with the rig's emulated
// clickpad (scripts/measure-contacts runs it):
//   - CPU time the reader adds per 1,000 frames (its reads and frame building), and the
//     engine's time on those frames;
//   - latency from a frame written to the node (the rig's --frame-log) to the command
//     requested, for a 4-finger tap and a touchpad edge swipe;
//   - poll wake-ups (0 while idle).
//
//   unshare -m --propagation private /usr/bin/python3 rig/touchrig.py --device touchpad \
//       --frame-log FRAMES --script Benchmarks/ContactBenchmark/gestures.txt -- \
//       .build/release/ContactBenchmark Benchmarks/ContactBenchmark/rules.toml FRAMES
//
// Prints the figures when stopped with SIGINT or SIGTERM.
import BenchmarkSupport
import CProcess
import ContactInput
import Glibc
import InputDevices
import LibinputInput
import PollLoop
import Rulebook
import TouchGestures

final class Probe: CommandSink {
    /// (rule, CLOCK_MONOTONIC us) of each command requested.
    var requests: [(String, Int64)] = []
    func run(_ request: CommandRequest) {
        requests.append((request.rule, Int64(PollScheduler.now().microseconds)))
    }
}

/// libinput, timed the same way: what reading the same frames costs it on the same node.
final class TimedLibinput: PollSource {
    let context: LibinputContext
    var microseconds: Int64 = 0
    var engineMicroseconds: Int64 = 0
    init(_ context: LibinputContext) { self.context = context }
    func collect(_ interest: inout PollInterest) { context.collect(&interest) }
    func handleReadable(_ fd: Int32) {
        let start = threadCPUMicroseconds()
        let engineBefore = engineMicroseconds
        context.handleReadable(fd)
        microseconds += threadCPUMicroseconds() - start - (engineMicroseconds - engineBefore)
    }
    var nextDeadline: Timestamp? { nil }
    func handleDeadlines() {}
    var failure: String? { context.failure }
}

/// The reader, timed: every call into it is CPU time it adds to the daemon.
final class TimedReader: PollSource {
    let reader: ContactReader
    var readerMicroseconds: Int64 = 0
    var engineMicroseconds: Int64 = 0
    var frames = 0
    init(_ reader: ContactReader) { self.reader = reader }
    func collect(_ interest: inout PollInterest) { reader.collect(&interest) }
    func handleReadable(_ fd: Int32) {
        let start = threadCPUMicroseconds()
        let engineBefore = engineMicroseconds
        reader.handleReadable(fd)
        readerMicroseconds += threadCPUMicroseconds() - start - (engineMicroseconds - engineBefore)
    }
    var nextDeadline: Timestamp? { nil }
    func handleDeadlines() {}
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    print("usage: ContactBenchmark RULES.toml FRAME-LOG")
    exit(2)
}
let book = loadRulesOrExit(arguments[1])
let scheduler = PollScheduler()
let environment = GestureEnvironment(scheduler: scheduler)
let probe = Probe()
let compiled = CompiledRulebook(book, sink: probe)
compiled.attach(to: environment)
let input = openSeatOrExit()
let timedInput = TimedLibinput(input)
let contacts = TimedReader(ContactReader())
contacts.reader.handler = { frame in
    contacts.frames += 1
    let start = threadCPUMicroseconds()
    environment.handle(frame)
    contacts.engineMicroseconds += threadCPUMicroseconds() - start
}
input.handler = { event in
    switch event {
    case let .deviceAdded(device):
        do {
            try contacts.reader.open(node: device.node, device: device.id, size: device.size)
        } catch {
            say("\(error)")
        }
        say("device added: \(device.node)")
    case let .deviceRemoved(device):
        contacts.reader.close(device.id, at: PollScheduler.now())
    case let .input(event):
        let start = threadCPUMicroseconds()
        environment.handle(event)
        timedInput.engineMicroseconds += threadCPUMicroseconds() - start
    }
}
let loop = EventLoop()
loop.add(timedInput)
loop.add(contacts)
loop.add(scheduler)
/// Wake-ups before the one the stop signal caused.
nonisolated(unsafe) var wakeupsBefore = 0
loop.add(SignalSource([SIGINT, SIGTERM]) { _ in
    wakeupsBefore = loop.wakeups - 1
    loop.stop()
})
input.dispatch()
let wakeupsAtStart = loop.wakeups
loop.run()

// Frames as the rig wrote them: "DEVICE STAMP", the stamp 2 ms ahead of the write.
let written = readLines(arguments[2]).compactMap { line in
    line.split(separator: " ").last.flatMap { Int64($0.filter(\.isNumber)) }.map { $0 - 2_000 }
}.sorted()
var latencies: [String: [Int64]] = [:]
for (rule, at) in probe.requests {
    // The frame that made the decision: the last one written before the request.
    guard let frame = written.last(where: { $0 <= at }) else { continue }
    latencies[rule, default: []].append(at - frame)
}
let perThousand = contacts.frames > 0 ? Double(contacts.readerMicroseconds) * 1_000 / Double(contacts.frames) : 0
let enginePerThousand = contacts.frames > 0 ? Double(contacts.engineMicroseconds) * 1_000 / Double(contacts.frames) : 0
say("contact frames: \(contacts.frames)")
let libinputPerThousand = contacts.frames > 0 ? Double(timedInput.microseconds) * 1_000 / Double(contacts.frames) : 0
say("contact reader CPU: \(fixedDecimals(perThousand / 1_000, 2)) ms per 1,000 frames (engine on those frames: \(fixedDecimals(enginePerThousand / 1_000, 2)) ms)")
say("libinput reading the same frames from the same emulated node: \(fixedDecimals(libinputPerThousand / 1_000, 2)) ms per 1,000 frames")
for rule in latencies.keys.sorted() {
    let sorted = latencies[rule]!.sorted()
    say("frame written -> command requested, \(rule): \(sorted.count) commands, median \(percentile(sorted, 0.5)) us, max \(sorted.last!) us")
}
say("poll wake-ups: \(wakeupsBefore - wakeupsAtStart) (not counting the stop signal's)")
