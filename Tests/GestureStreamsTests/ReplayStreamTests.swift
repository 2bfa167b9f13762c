import Glibc
@testable import GestureStreams
import PollLoop
import Testing
import TouchGestures

/// A stream for `replay --run`: every line written in full, then closed as a reload closes
/// a stream, and the command always reaped once, by the stream, whatever happened.
@Suite struct ReplayStreamTests {
    static let environment = ["PATH": "/usr/local/bin:/usr/bin:/bin"]

    /// Reaps `pid` if it is still ours, killing its group first when it still runs, so no
    /// stand-in outlives a test that failed.
    static func reapIfLeft(_ pid: Int32) {
        var status: Int32 = 0
        guard pid > 0, waitpid(pid, &status, WNOHANG) == 0 else { return }
        kill(-pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    @Test func finishingTwiceGivesTheSameStatusWithoutWaitingOrSignallingAgain() throws {
        let stream = try ReplayStream(rule: "r", command: "cat > /dev/null; exit 3", environment: Self.environment)
        defer { Self.reapIfLeft(stream.pid) }
        stream.send("one")
        stream.send("two")
        #expect(try stream.finish() == .exited(3))
        #expect(try stream.finish() == .exited(3))
        #expect(stream.linesSent == 2 && !stream.stoppedReading)
    }

    @Test func aCommandReapedBehindItsBackIsAnErrorNotAnInventedKill() throws {
        let stream = try ReplayStream(rule: "r", command: "exit 0", environment: Self.environment)
        defer { Self.reapIfLeft(stream.pid) }
        var status: Int32 = 0
        while waitpid(stream.pid, &status, 0) < 0 && errno == EINTR {}
        #expect(throws: StreamError(description: "cannot wait for the stream of rule 'r' (pid \(stream.pid)): No child processes")) {
            try stream.finish()
        }
        // And the same again, without a signal to a pid that is no longer its.
        #expect(throws: StreamError(description: "cannot wait for the stream of rule 'r' (pid \(stream.pid)): No child processes")) {
            try stream.finish()
        }
    }

    @Test func aStreamDroppedWithoutFinishKillsAndReapsItsCommand() throws {
        var pid: Int32 = 0
        do {
            let stream = try ReplayStream(rule: "r", command: "exec sleep 600", environment: Self.environment)
            pid = stream.pid
            stream.send("one")
        }
        defer { Self.reapIfLeft(pid) }
        #expect(waitpid(pid, nil, WNOHANG) == -1 && errno == ECHILD, "pid \(pid) is left running or unreaped")
    }

    @Test func aCommandThatDoesNotExitAtTheEndOfItsInputGetsSIGTERMAfterTheCloseGrace() throws {
        let stream = try ReplayStream(rule: "r", command: "exec sleep 600", environment: Self.environment)
        defer { Self.reapIfLeft(stream.pid) }
        let start = PollScheduler.now()
        let status = try stream.finish()
        // SIGKILL only if SIGTERM did not end it within the kill grace: how fast a loaded
        // machine runs it is not this test's business.
        #expect(status == .signalled(SIGTERM) || status == .signalled(SIGKILL), "\(status)")
        #expect(PollScheduler.now() - start >= StreamDefaults.closeGrace)
        #expect(try stream.finish() == status)
    }
}
