// Measures the time from libinput handing touchgest an event to a rule's command being
// requested (the recognizer's action), on a real libinput context.
//
//   unshare -m --propagation private /usr/bin/python3 rig/touchrig.py --device touchpad \
//       --device touchscreen --script Benchmarks/LatencyProbe/gestures.txt -- \
//       .build/release/LatencyProbe RULES.toml
//
// (scripts/measure does exactly this.) Only commands caused directly by an input event
// count: a decision a timer makes (a single tap once the double tap's wait is over) is
// not input latency. Prints the figures when stopped with SIGINT or SIGTERM.
import CommandRunner
import CProcess
import Glibc
import LibinputInput
import PollLoop
import Rulebook
import TouchGestures

/// Writes a line at once: the rig waits for the "device added" lines on a pipe.
func say(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}

final class Probe: CommandSink {
    var handedOver: Timestamp?
    var samples: [Int64] = []
    var timerDecisions = 0
    var runner: CommandRunner?

    func run(_ request: CommandRequest) {
        guard let handedOver else {
            timerDecisions += 1
            return
        }
        if let runner {
            runner.run(CommandRunner.Job(key: request.rule, command: request.command, overlap: .parallel))
        }
        samples.append((PollScheduler.now() - handedOver).wholeMicroseconds)
    }
}

// With --spawn the commands really run (through CommandRunner, as touchgest run does) and
// the time is measured to the moment each command's process has been started.
let spawn = CommandLine.arguments.contains("--spawn")
let arguments = CommandLine.arguments.filter { $0 != "--spawn" }
guard arguments.count == 2 else {
    print("usage: LatencyProbe [--spawn] RULES.toml")
    exit(2)
}
let book: Rulebook
do {
    book = try Rulebook.load(path: arguments[1])
} catch {
    print(error)
    exit(1)
}
let scheduler = PollScheduler()
let environment = GestureEnvironment(scheduler: scheduler)
let probe = Probe()
if spawn { probe.runner = CommandRunner() }
let compiled = CompiledRulebook(book, sink: probe)
compiled.attach(to: environment)
let input: LibinputContext
do {
    input = try LibinputContext(.seat("seat0"))
} catch {
    print(error)
    exit(1)
}
input.handler = { event in
    switch event {
    case let .deviceAdded(device): say("device added: \(device.node)")
    case .deviceRemoved: break
    case let .input(event):
        probe.handedOver = PollScheduler.now()
        environment.handle(event)
        probe.handedOver = nil
    }
}
let loop = EventLoop()
loop.add(input)
loop.add(scheduler)
if let runner = probe.runner { loop.add(runner) }
loop.add(SignalSource([SIGINT, SIGTERM]) { _ in loop.stop() })
input.dispatch()
loop.run()

let sorted = probe.samples.sorted()
func percentile(_ p: Double) -> Int64 { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
say("commands caused directly by input: \(sorted.count) (and \(probe.timerDecisions) decided by timers, not counted)")
say("event handed over -> command \(spawn ? "started (posix_spawn returned)" : "requested"): median \(percentile(0.5)) us, p99 \(percentile(0.99)) us, max \(sorted.last ?? 0) us")
say("poll wake-ups: \(loop.wakeups)")
