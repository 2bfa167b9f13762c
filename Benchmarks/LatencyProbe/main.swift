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
import InputDevices
import LibinputInput
import PollLoop
import Rulebook
import TouchGestures
import TouchgestDaemon

/// Times each command from the moment libinput handed over the event that caused it.
final class Probe: GesturePipelineObserver {
    var handedOver: Timestamp?
    var samples: [Int64] = []
    var timerDecisions = 0
    /// With --spawn, a sample is taken once the command's process has started instead.
    let spawn: Bool

    init(spawn: Bool) { self.spawn = spawn }

    func adapter(_ event: AdapterEvent) {
        if case let .deviceAdded(device) = event { say("device added: \(device.node)") }
    }

    func transition(_ record: TransitionRecord) {}

    func command(_ request: CommandRequest) {
        guard handedOver != nil else {
            timerDecisions += 1
            return
        }
        if !spawn { sample() }
    }

    func runner(_ event: CommandRunner.Event) {
        if spawn, case .started = event, handedOver != nil { sample() }
    }

    private func sample() {
        guard let handedOver else { return }
        samples.append((PollScheduler.now() - handedOver).wholeMicroseconds)
    }
}

// With --spawn the commands really run (through the pipeline's CommandRunner, as touchgest
// run does) and the time is measured to the moment each command's process has been started.
let spawn = CommandLine.arguments.contains("--spawn")
let arguments = CommandLine.arguments.filter { $0 != "--spawn" }
guard arguments.count == 2 else {
    print("usage: LatencyProbe [--spawn] RULES.toml")
    exit(2)
}
let book = loadRulesOrExit(arguments[1])
let probe = Probe(spawn: spawn)
// The daemon's own pipeline: the same wiring touchgest run uses, with the probe as its observer.
let pipeline: GesturePipeline
do {
    pipeline = try GesturePipeline(backend: .seat("seat0"), runCommands: spawn, observer: probe)
} catch {
    print(error)
    exit(1)
}
pipeline.load(book)
pipeline.runner?.observer = { probe.runner($0) }
// Only the moment of handing over is added around the pipeline's own handler.
let handle = pipeline.input.handler
pipeline.input.handler = { event in
    if case .input = event { probe.handedOver = PollScheduler.now() }
    handle?(event)
    probe.handedOver = nil
}
pipeline.runUntilSignalled()

let sorted = probe.samples.sorted()
say("commands caused directly by input: \(sorted.count) (and \(probe.timerDecisions) decided by timers, not counted)")
say("event handed over -> command \(spawn ? "started (the clone returned)" : "requested"): median \(percentile(sorted, 0.5)) us, p99 \(percentile(sorted, 0.99)) us, max \(sorted.last ?? 0) us")
say("poll wake-ups: \(pipeline.loop.wakeups)")
