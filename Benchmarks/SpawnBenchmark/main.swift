// What starting a command costs the process that starts it. CommandRunner starts `true`
// (a shell builtin, so through `/bin/sh -c`, as a rule's `command = "true"` is), with the
// ten variables a swipe's command gets, one at a
// time, COUNT times a round, three rounds, and waits for each in its own poll loop (the
// daemon waits in its epoll loop instead: the same pidfd, the same reaping); prints, per
// command, this process's CPU (the scheduler's count; what the child spends after the
// clone is its own) and its wake-ups (voluntary context switches: the wait for the
// child's exec, the wait for its exit), each round's and the median.
//
// With --to-exec STAMP it starts STAMP instead (a static program whose first act is to
// write CLOCK_MONOTONIC in nanoseconds to its standard error, as scripts/measure-spawn
// builds it; started directly, as a rule's plain command is) and also prints the time
// from `run` being called to STAMP's first instruction: the runner's part of a gesture's
// frame-to-command time (median and 95th percentile of each round, and the median round).
//
// Usage: swift run -c release SpawnBenchmark [COUNT] [--to-exec STAMP]   (COUNT default 2,000)
import CommandRunner
import Glibc
import TouchGestures

var arguments = Array(CommandLine.arguments.dropFirst())
var stamp: String?
if let flag = arguments.firstIndex(of: "--to-exec") {
    guard flag + 1 < arguments.count else {
        print("SpawnBenchmark: --to-exec needs the path of a stamp program")
        exit(2)
    }
    stamp = arguments[flag + 1]
    arguments.removeSubrange(flag...(flag + 1))
}
let count: Int
if let first = arguments.first {
    guard let given = Int(first), given > 0, arguments.count == 1 else {
        print("SpawnBenchmark: COUNT must be a whole number above 0, not '\(arguments.joined(separator: " "))'")
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
/// With --to-exec: the CLOCK_MONOTONIC nanoseconds STAMP wrote when it began, per command.
var execStamps: [Int64] = []
runner.observer = { event in
    guard case let .finished(_, _, status, tail) = event else { return }
    if status != .exited(0) { failed += 1 }
    if stamp != nil { execStamps.append(Int64(tail) ?? -1) }
}

func monotonicNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
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

struct Round {
    var cpu: Double
    var wakeUps: Double
    /// From `run` to the command's first instruction, µs, sorted (with --to-exec).
    var toExec: [Double]
}

@MainActor func measureRound() -> Round {
    let cpu = processCPU()
    let switches = wakeUps()
    var toExec: [Double] = []
    for index in 0..<count {
        let asked = monotonicNanoseconds()
        runner.run(.init(key: "spawn-\(index)", command: stamp ?? "true", environment: ruleVariables))
        guard runner.waitUntilIdle(timeout: .seconds(10)) else { fatalError("command \(index) did not end within 10 s") }
        if stamp != nil, let began = execStamps.popLast(), began > 0 { toExec.append(Double(began - asked) / 1e3) }
    }
    let spent = processCPU() - cpu
    let microseconds = Double(spent.components.seconds) * 1e6 + Double(spent.components.attoseconds) / 1e12
    return Round(cpu: microseconds / Double(count), wakeUps: Double(wakeUps() - switches) / Double(count),
                 toExec: toExec.sorted())
}

/// The value a fraction `p` of the way into `sorted`, rounded down to a sample.
func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

@MainActor func toExecText(_ sorted: [Double]) -> String {
    stamp == nil ? "" : "; run -> exec \(fixedDecimals(percentile(sorted, 0.5), 1)) µs (p95 \(fixedDecimals(percentile(sorted, 0.95), 1)))"
}

_ = measureRound()  // the first starts fill caches (the program's path, the environment block)
var rounds: [Round] = []
for number in 1...3 {
    let result = measureRound()
    rounds.append(result)
    print("round \(number): \(fixedDecimals(result.cpu, 1)) µs of CPU and \(fixedDecimals(result.wakeUps, 2)) wake-ups per command"
        + toExecText(result.toExec))
}
guard failed == 0 else { fatalError("\(failed) commands did not exit 0") }
guard stamp == nil || rounds.allSatisfy({ $0.toExec.count == count }) else {
    fatalError("the stamp program wrote no time for some commands: is it the program scripts/measure-spawn builds?")
}
let cpu = rounds.map(\.cpu).sorted()[1]
let wake = rounds.map(\.wakeUps).sorted()[1]
let middle = rounds.sorted { percentile($0.toExec, 0.5) < percentile($1.toExec, 0.5) }[1].toExec
print("median: \(fixedDecimals(cpu, 1)) µs of CPU and \(fixedDecimals(wake, 2)) wake-ups per command" + toExecText(middle)
    + " (\(count) commands a round)")
