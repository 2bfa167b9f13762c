// What starting a command costs the process that starts it. CommandRunner starts `true`
// (a shell builtin, so through `/bin/sh -c`, as a rule's `command = "true"` is), with the
// ten variables a swipe's command gets, one at a
// time, COUNT times a round, three rounds, and waits for each in its own poll loop (the
// daemon waits in its epoll loop instead: the same pidfd, the same reaping); prints, per
// command, this process's CPU (the scheduler's count; what the child spends after the
// clone is its own) and its wake-ups (voluntary context switches: the wait for the
// child's exec, the wait for its exit), each round's and the median.
//
// Usage: swift run -c release SpawnBenchmark [COUNT]     (COUNT default 2,000)
import CommandRunner
import Glibc
import TouchGestures

let count: Int
if CommandLine.arguments.count > 1 {
    guard let given = Int(CommandLine.arguments[1]), given > 0 else {
        print("SpawnBenchmark: COUNT must be a whole number above 0, not '\(CommandLine.arguments[1])'")
        exit(2)
    }
    count = given
} else {
    count = 2_000
}
let runner = CommandRunner()
/// The variables a 3-finger swipe's command gets (the rulebook's `TOUCHGEST_*` and the
/// focused window's), so that each start merges them into the environment as the
/// daemon's do.
let ruleVariables = [
    "TOUCHGEST_RULE": "swipe-left", "TOUCHGEST_GESTURE": "swipe", "TOUCHGEST_PHASE": "end",
    "TOUCHGEST_FINGERS": "3", "TOUCHGEST_DEVICE": "touchpad", "TOUCHGEST_X": "52.4", "TOUCHGEST_Y": "31.0",
    "TOUCHGEST_DIRECTION": "left", "TOUCHGEST_APP": "org.gnome.Nautilus", "TOUCHGEST_TITLE": "Home",
]
var failed = 0
runner.observer = { event in
    if case let .finished(_, _, status, _) = event, status != .exited(0) { failed += 1 }
}

func processCPU() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
}

func wakeUps() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_nvcsw
}

@MainActor func measureRound() -> (cpu: Double, wakeUps: Double) {
    let cpu = processCPU()
    let switches = wakeUps()
    for index in 0..<count {
        runner.run(.init(key: "spawn-\(index)", command: "true", environment: ruleVariables))
        guard runner.waitUntilIdle(timeout: .seconds(10)) else { fatalError("command \(index) did not end within 10 s") }
    }
    let spent = processCPU() - cpu
    let microseconds = Double(spent.components.seconds) * 1e6 + Double(spent.components.attoseconds) / 1e12
    return (microseconds / Double(count), Double(wakeUps() - switches) / Double(count))
}

_ = measureRound()  // the first starts fill caches (the program's path, the environment block)
var rounds: [(cpu: Double, wakeUps: Double)] = []
for number in 1...3 {
    let result = measureRound()
    rounds.append(result)
    print("round \(number): \(fixedDecimals(result.cpu, 1)) µs of CPU and \(fixedDecimals(result.wakeUps, 2)) wake-ups per command")
}
guard failed == 0 else { fatalError("\(failed) commands did not exit 0") }
let cpu = rounds.map(\.cpu).sorted()[1]
let wake = rounds.map(\.wakeUps).sorted()[1]
print("median: \(fixedDecimals(cpu, 1)) µs of CPU and \(fixedDecimals(wake, 2)) wake-ups per command (\(count) commands a round)")
