// What the benchmarks share: their output, their statistics, their clocks, and how they
// start on the rig. Files are read with TestSupport's helpers, as the tests read them.
import Glibc
import InputDevices
import LibinputInput
import Rulebook
import TestSupport

/// Writes a line at once, unbuffered: the rig waits for the "device added" lines on a pipe.
public func say(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}

/// The value a fraction `p` (0...1) of the way into `sorted` (ascending), rounded down
/// to a sample: p 0.5 is the median, 0.99 the 99th percentile. 0 when there is none.
public func percentile<Value: Numeric>(_ sorted: [Value], _ p: Double) -> Value {
    sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

/// The lines of the file at `path` (a log the rig or a consumer wrote), none when it
/// cannot be read.
public func readLines(_ path: String) -> [Substring] {
    readText(path).split(separator: "\n")
}

/// CPU time of the calling thread, in microseconds: what the code it runs costs.
public func threadCPUMicroseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000
}

/// User and system CPU time of this process and of the children it has reaped, in
/// microseconds: what a command costs, with what it started.
public func processCPUMicroseconds() -> Int64 {
    var total: Int64 = 0
    for who in [RUSAGE_SELF, RUSAGE_CHILDREN] {
        var usage = rusage()
        getrusage(who.rawValue, &usage)
        total += Int64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000
            + Int64(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    }
    return total
}

/// The rule file at `path`, or exit 1 with its error.
public func loadRulesOrExit(_ path: String) -> Rulebook {
    do {
        return try Rulebook.load(path: path)
    } catch {
        print(error)
        exit(1)
    }
}

/// libinput on seat0 (the rig's devices), or exit 1 with the error.
public func openSeatOrExit() -> LibinputContext {
    do {
        return try LibinputContext(.seat("seat0"))
    } catch {
        print(error)
        exit(1)
    }
}
