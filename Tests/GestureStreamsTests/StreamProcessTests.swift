import Glibc
@testable import GestureStreams
import TouchGestures
import Testing

/// One stream command's phases, stepped by hand on made-up time with real processes:
/// nothing here waits for a clock, only for a process to do what it was told.
@Suite struct StreamProcessTests {
    static let t0 = Timestamp(microseconds: 1_000_000_000)
    static let environment = ["PATH": "/usr/local/bin:/usr/bin:/bin"]

    /// Reaps `pid` if it is still ours, killing its group first when it still runs, so no
    /// stand-in outlives a test that failed.
    static func reapIfLeft(_ pid: Int32) {
        var status: Int32 = 0
        guard pid > 0, waitpid(pid, &status, WNOHANG) == 0 else { return }
        kill(-pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// Kills the command the stream runs now and lets the stream reap it.
    static func stop(_ stream: StreamProcess, now: Timestamp) {
        guard let child = stream.child else { return }
        kill(-child.pid, SIGKILL)
        var entry = pollfd(fd: child.pidfd, events: Int16(POLLIN), revents: 0)
        while child.pidfd >= 0 && poll(&entry, 1, -1) < 0 && errno == EINTR {}
        stream.handleExit(now: now)
        reapIfLeft(child.pid)
    }

    @Test func aFailedPidfdOpenIsAStartFailureTheChildIsKilledAndReapedAndTheStartBacksOff() {
        var events: [StreamHub.Event] = []
        var spawned: [Int32] = []
        let stream = StreamProcess(rule: "r", command: "exec sleep 600", environment: Self.environment,
                                   pidfdOpen: { pid in
                                       spawned.append(pid)
                                       errno = EMFILE
                                       return -1
                                   }) { events.append($0) }
        defer { spawned.forEach(Self.reapIfLeft) }
        stream.start(now: Self.t0)
        stream.handleDeadlines(now: Self.t0 + .milliseconds(250))
        #expect(events == [
            .couldNotStart(rule: "r", reason: "pidfd_open: Too many open files", retryIn: .milliseconds(250)),
            .couldNotStart(rule: "r", reason: "pidfd_open: Too many open files", retryIn: .milliseconds(500)),
        ])
        #expect(stream.nextDeadline == Self.t0 + .milliseconds(750))
        #expect(stream.readDescriptors.isEmpty && stream.child == nil)
        // Each child was started, then killed and reaped before start returned: no zombie is left.
        #expect(spawned.count == 2)
        for pid in spawned {
            #expect(waitpid(pid, nil, WNOHANG) == -1 && errno == ECHILD, "pid \(pid) is not reaped")
        }
    }
}
