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
import BenchmarkSupport
import CommandRunner
import CProcess
import Glibc
import LibinputInput
import PollLoop
import Rulebook
import TouchGestures

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
let book = loadRulesOrExit(arguments[1])
let scheduler = PollScheduler()
let environment = GestureEnvironment(scheduler: scheduler)
let probe = Probe()
if spawn { probe.runner = CommandRunner() }
let compiled = CompiledRulebook(book, sink: probe)
compiled.attach(to: environment)
let input = openSeatOrExit()
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
say("commands caused directly by input: \(sorted.count) (and \(probe.timerDecisions) decided by timers, not counted)")
say("event handed over -> command \(spawn ? "started (posix_spawn returned)" : "requested"): median \(percentile(sorted, 0.5)) us, p99 \(percentile(sorted, 0.99)) us, max \(sorted.last ?? 0) us")
say("poll wake-ups: \(loop.wakeups)")
