// Measures gesture streams (scripts/measure-streams runs both modes).
//
//   StreamBenchmark latency RULES.toml    under rig/touchrig.py with a touchpad: the real
//       libinput, engine and stream hub; the rules' consumers log when each line arrived.
//       On SIGINT/SIGTERM it closes the streams (each consumer finishes its log), then
//       prints the time from libinput handing over an event to the consumer reading its
//       line: median, p99, max.
//   StreamBenchmark cpu [COUNT]           no device: CPU time (this process and its
//       children, user + system) for COUNT (1,000) updates streamed as JSON lines to one
//       long-lived `cat > /dev/null`, against one `/bin/sh -c true` spawned per update
//       (an on-step command), as touchgest run would do each.
import BenchmarkSupport
import CommandRunner
import CProcess
import GestureStreams
import Glibc
import InputDevices
import LibinputInput
import PollLoop
import Rulebook
import TouchGestures

/// Hands samples to the hub, as touchgest run's session does.
final class StreamSink: CommandSink {
    let hub: StreamHub
    init(hub: StreamHub) { self.hub = hub }
    func run(_ request: CommandRequest) {}
    func wantsSamples(of rule: String) -> Bool { hub.wants(rule) }
    func stream(_ sample: GestureSample) {
        hub.publish(rule: sample.rule, line: sample.jsonLine, coalescible: sample.phase.isCoalescible)
    }
}


func latency(rulesPath: String) {
    let book = loadRulesOrExit(rulesPath)
    let scheduler = PollScheduler()
    let environment = GestureEnvironment(scheduler: scheduler)
    let hub = StreamHub()
    hub.setStreams(book.rules.compactMap { rule in rule.stream.map { (rule: rule.name, command: $0) } })
    // Rules hold their sink weakly: keep it alive here.
    let sink = StreamSink(hub: hub)
    let compiled = CompiledRulebook(book, sink: sink)
    compiled.attach(to: environment)
    let input = openSeatOrExit()
    // libinput's timestamp of each event -> when libinput handed it over (CLOCK_MONOTONIC us).
    var handedOver: [UInt64: Int64] = [:]
    input.handler = { event in
        switch event {
        case let .deviceAdded(device): say("device added: \(device.node)")
        case .deviceRemoved: break
        case let .input(event):
            let timestamp = switch event {
            case let .touches(frame): frame.timestamp
            case let .touchpad(gesture): gesture.timestamp
            }
            handedOver[timestamp.microseconds] = Int64(PollScheduler.now().microseconds)
            environment.handle(event)
        }
    }
    let loop = EventLoop()
    loop.add(input)
    loop.add(scheduler)
    loop.add(hub)
    loop.add(SignalSource([SIGINT, SIGTERM]) { _ in loop.stop() })
    input.dispatch()
    loop.run()
    hub.shutdown()
    withExtendedLifetime((sink, compiled)) {}

    var all: [Int64] = []
    var changed: [Int64] = []
    var unmatched = 0
    for rule in book.rules {
        guard let command = rule.stream, let log = command.split(separator: " ").last else { continue }
        for line in readLines(String(log)) {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let time = UInt64(fields[0]), let received = Int64(fields[1]) else { continue }
            guard let handed = handedOver[time] else {
                unmatched += 1
                continue
            }
            all.append(received - handed)
            if fields[2] == "changed" { changed.append(received - handed) }
        }
    }
    all.sort()
    changed.sort()
    say("lines read by the consumers: \(all.count) (\(changed.count) changed; \(unmatched) from timer decisions, not counted)")
    say("libinput event handed over -> line read by the consumer: median \(percentile(all, 0.5)) us, p99 \(percentile(all, 0.99)) us, max \(all.last ?? 0) us")
    say("poll wake-ups: \(loop.wakeups)")
}

func cpu(count: Int) {
    let sample = { (index: Int) in
        var snapshot = GestureSnapshot(rule: "slide", gesture: .pan, moment: .changed, timestamp: .milliseconds(UInt64(index) * 8),
                                       fingers: 3)
        snapshot.device = .indirect
        snapshot.deviceName = "Synaptics TM3276-022"
        snapshot.direction = .left
        snapshot.location = Point(x: -Double(index) * 0.1, y: 0.4)
        snapshot.readings.translation = snapshot.location
        snapshot.readings.velocity = Point(x: -12.5, y: 0.1)
        return GestureSample(snapshot, progress: min(1, Double(index) / 400))
    }
    // Streamed: every line reaches the consumer (none coalesced): the loop runs until each is written.
    let hub = StreamHub()
    let loop = EventLoop()
    loop.add(hub)
    hub.setStreams([(rule: "slide", command: "exec cat > /dev/null")])
    var before = processCPUMicroseconds()
    var wall = PollScheduler.now()
    for index in 0..<count {
        hub.publish(rule: "slide", line: sample(index).jsonLine, coalescible: false)
        while !hub.writeDescriptors.isEmpty { loop.run(until: PollScheduler.now() + .milliseconds(5)) }
    }
    hub.shutdown()
    let streamed = processCPUMicroseconds() - before
    let streamedWall = PollScheduler.now() - wall
    say("\(count) updates streamed to one command: \(streamed / 1_000) ms CPU (daemon + consumer), \(streamedWall) wall")

    // Spawned: one command per update, with the update's values in its environment.
    let runner = CommandRunner()
    before = processCPUMicroseconds()
    wall = PollScheduler.now()
    for index in 0..<count {
        let values = sample(index)
        runner.run(CommandRunner.Job(key: "slide", command: "true", environment: [
            "TOUCHGEST_RULE": values.rule, "TOUCHGEST_DX": fixedDecimals(values.readings.translation?.x ?? 0, 1),
        ], overlap: .parallel))
        // At most 16 at once, as a fast gesture would keep a handful running.
        while runner.runningCount >= 16 { runner.waitUntilIdle(timeout: .milliseconds(1)) }
    }
    runner.waitUntilIdle(timeout: .seconds(60))
    let spawned = processCPUMicroseconds() - before
    let spawnedWall = PollScheduler.now() - wall
    say("\(count) updates as one spawned /bin/sh -c true each: \(spawned / 1_000) ms CPU (daemon + commands), \(spawnedWall) wall")
    say("spawning costs \(spawned / max(streamed, 1))x the CPU of streaming")
}

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "latency" where arguments.count == 3: latency(rulesPath: arguments[2])
case "cpu": cpu(count: arguments.count > 2 ? Int(arguments[2]) ?? 1_000 : 1_000)
default:
    print("usage: StreamBenchmark latency RULES.toml | StreamBenchmark cpu [COUNT]")
    exit(2)
}
