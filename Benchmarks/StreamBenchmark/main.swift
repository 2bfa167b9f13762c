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
import CommandRunner
import CProcess
import GestureStreams
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

func percentile(_ sorted: [Int64], _ p: Double) -> Int64 {
    sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

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
    let book: Rulebook
    do {
        book = try Rulebook.load(path: rulesPath)
    } catch {
        print(error)
        exit(1)
    }
    let scheduler = PollScheduler()
    let environment = GestureEnvironment(scheduler: scheduler)
    let hub = StreamHub()
    hub.setStreams(book.rules.compactMap { rule in rule.stream.map { (rule: rule.name, command: $0) } })
    // Rules hold their sink weakly: keep it alive here.
    let sink = StreamSink(hub: hub)
    let compiled = CompiledRulebook(book, sink: sink)
    compiled.attach(to: environment)
    let input: LibinputContext
    do {
        input = try LibinputContext(.seat("seat0"))
    } catch {
        print(error)
        exit(1)
    }
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
        for line in readLog(String(log)) {
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

func readLog(_ path: String) -> [Substring] {
    guard let file = fopen(path, "r") else { return [] }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self).split(separator: "\n")
}

/// User + system CPU of this process and of its reaped children, in microseconds.
func cpuMicroseconds() -> Int64 {
    var total: Int64 = 0
    for who in [RUSAGE_SELF, RUSAGE_CHILDREN] {
        var usage = rusage()
        getrusage(who.rawValue, &usage)
        total += Int64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000
            + Int64(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    }
    return total
}

func cpu(count: Int) {
    let sample = { (index: Int) in
        GestureSample(rule: "slide", gesture: .pan, phase: .changed, timestamp: .milliseconds(UInt64(index) * 8), fingers: 3,
                      device: .indirect, deviceName: "Synaptics TM3276-022", direction: "left",
                      location: Point(x: -Double(index) * 0.1, y: 0.4), translation: Point(x: -Double(index) * 0.1, y: 0.4),
                      velocity: Point(x: -12.5, y: 0.1), progress: min(1, Double(index) / 400))
    }
    // Streamed: every line reaches the consumer (none coalesced): the loop runs until each is written.
    let hub = StreamHub()
    let loop = EventLoop()
    loop.add(hub)
    hub.setStreams([(rule: "slide", command: "exec cat > /dev/null")])
    var before = cpuMicroseconds()
    var wall = PollScheduler.now()
    for index in 0..<count {
        hub.publish(rule: "slide", line: sample(index).jsonLine, coalescible: false)
        while !hub.writeDescriptors.isEmpty { loop.run(until: PollScheduler.now() + .milliseconds(5)) }
    }
    hub.shutdown()
    let streamed = cpuMicroseconds() - before
    let streamedWall = PollScheduler.now() - wall
    say("\(count) updates streamed to one command: \(streamed / 1_000) ms CPU (daemon + consumer), \(streamedWall) wall")

    // Spawned: one command per update, with the update's values in its environment.
    let runner = CommandRunner()
    before = cpuMicroseconds()
    wall = PollScheduler.now()
    for index in 0..<count {
        let values = sample(index)
        runner.run(CommandRunner.Job(key: "slide", command: "true", environment: [
            "TOUCHGEST_RULE": values.rule, "TOUCHGEST_DX": fixedDecimals(values.translation?.x ?? 0, 1),
        ], overlap: .parallel))
        // At most 16 at once, as a fast gesture would keep a handful running.
        while runner.runningCount >= 16 { runner.waitUntilIdle(timeout: .milliseconds(1)) }
    }
    runner.waitUntilIdle(timeout: .seconds(60))
    let spawned = cpuMicroseconds() - before
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
