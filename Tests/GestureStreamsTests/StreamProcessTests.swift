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

    /// Sends lines to a command that never reads until the stream calls it stuck: its
    /// pipe takes one, its queue ``StreamDefaults/maximumQueuedLines``.
    static func makeStuck(_ stream: StreamProcess, now: Timestamp) {
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 4_095) + [UInt8(ascii: "\n")]
        for _ in 0..<StreamDefaults.maximumQueuedLines + 16 {
            if case .stopping = stream.phase { return }
            stream.send(line, coalescible: false, now: now)
        }
    }

    @Test func aReloadWhileAStuckCommandIsStoppingKeepsItsKillGrace() {
        let stream = StreamProcess(rule: "r", command: "exec sleep 600", environment: Self.environment) { _ in }
        stream.start(now: Self.t0)
        defer { Self.stop(stream, now: Self.t0 + .seconds(10)) }
        Self.makeStuck(stream, now: Self.t0)
        // SIGTERM went at t0; SIGKILL is due a grace later.
        #expect(stream.nextDeadline == Self.t0 + StreamDefaults.killGrace)
        stream.close(now: Self.t0 + .milliseconds(100))
        guard case let .closing(_, signalAt, signals) = stream.phase else {
            Issue.record("\(stream.phase) after close")
            return
        }
        #expect(signalAt == Self.t0 + StreamDefaults.killGrace && signals == 1, "SIGKILL at +\(signalAt - Self.t0)")
        #expect(stream.nextDeadline == Self.t0 + StreamDefaults.killGrace)
    }

    @Test func aReloadAfterAStuckCommandWasKilledSignalsItNoMore() {
        let stream = StreamProcess(rule: "r", command: "exec sleep 600", environment: Self.environment) { _ in }
        stream.start(now: Self.t0)
        defer { Self.stop(stream, now: Self.t0 + .seconds(10)) }
        Self.makeStuck(stream, now: Self.t0)
        stream.handleDeadlines(now: Self.t0 + StreamDefaults.killGrace)
        #expect(stream.nextDeadline == nil, "SIGKILL went; only its exit is awaited")
        stream.close(now: Self.t0 + .milliseconds(1_500))
        guard case let .closing(_, _, signals) = stream.phase else {
            Issue.record("\(stream.phase) after close")
            return
        }
        #expect(signals == 2)
        #expect(stream.nextDeadline == nil)
    }
}
