import CProcess
import Glibc
import PollLoop
@testable import GestureStreams
import TestSupport
import TouchGestures
import Testing

/// One stream command's phases, stepped by hand on made-up time with real processes:
/// nothing here waits for a clock, only for a process to do what it was told.
@Suite struct StreamProcessTests {
    static let t0 = Timestamp(microseconds: 1_000_000_000)
    static let environment = ["PATH": "/usr/local/bin:/usr/bin:/bin"]

    /// A stream of rule `r`. SIGPIPE is ignored first, as the hub does: a write to a
    /// command that closed its stdin must be an EPIPE, not the end of the test process
    /// (and of the cleanup of every other test's commands).
    static func stream(_ command: String, keepPidfd: @escaping (_ pid: Int32) -> Bool = { _ in true },
                       report: @escaping (StreamHub.Event) -> Void = { _ in }) -> StreamProcess {
        signal(SIGPIPE, SIG_IGN)
        return StreamProcess(rule: "r", command: command, environment: environment, keepPidfd: keepPidfd, report: report)
    }

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

    @Test func aStartWithoutAPidfdIsAStartFailureTheChildIsKilledAndReapedAndTheStartBacksOff() {
        var events: [StreamHub.Event] = []
        var spawned: [Int32] = []
        // As on a kernel before 5.3, which has no pidfd to poll.
        let stream = Self.stream("exec sleep 600", keepPidfd: { pid in
            spawned.append(pid)
            return false
        }, report: { events.append($0) })
        defer { spawned.forEach(Self.reapIfLeft) }
        stream.start(now: Self.t0)
        stream.handleDeadlines(now: Self.t0 + .milliseconds(250))
        #expect(events == [
            .couldNotStart(rule: "r", reason: "no pidfd to follow /bin/sh by (Linux 5.3 or later makes one)", retryIn: .milliseconds(250)),
            .couldNotStart(rule: "r", reason: "no pidfd to follow /bin/sh by (Linux 5.3 or later makes one)", retryIn: .milliseconds(500)),
        ])
        #expect(stream.nextDeadline == Self.t0 + .milliseconds(750))
        #expect(polled(for: POLLIN, stream.collect).isEmpty && stream.child == nil)
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

    /// Lines of 400 bytes, more than the one-page pipe holds: sent at `now`, some wait.
    static func fillPipe(_ stream: StreamProcess, now: Timestamp) {
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 399) + [UInt8(ascii: "\n")]
        for _ in 0..<20 { stream.send(line, coalescible: false, now: now) }
    }

    /// Where lines begin to wait: well past a start's grace, so the stall time alone counts.
    static let t1 = t0 + StreamDefaults.startGrace + .seconds(1)

    @Test func aReaderThatTakesNothingIsStoppedTwoSecondsAfterLinesBeganToWait() {
        var events: [StreamHub.Event] = []
        let stream = Self.stream("exec sleep 600", report: { events.append($0) })
        stream.start(now: Self.t0)
        defer { Self.stop(stream, now: Self.t1 + .seconds(10)) }
        Self.fillPipe(stream, now: Self.t1)
        #expect(stream.nextDeadline == Self.t1 + StreamDefaults.stallTimeout)
        stream.handleDeadlines(now: Self.t1 + (StreamDefaults.stallTimeout - .microseconds(1)))
        #expect(events.count == 1, "\(events)")
        stream.handleDeadlines(now: Self.t1 + StreamDefaults.stallTimeout)
        #expect(events.dropFirst().first == .stuck(rule: "r", pid: stream.child?.pid ?? 0, queued: 10))
    }

    @Test func aReaderThatTookPartOfItsPipeIsStoppedOnlyOnceItTookNothingForTwoSeconds() throws {
        var events: [StreamHub.Event] = []
        let folder = temporaryFolder()
        let fifo = "\(folder)/took"
        #expect(mkfifo(fifo, 0o600) == 0)
        let took = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        defer { close(took) }
        // It takes one line (a shell reads a byte at a time), says so, and reads no more.
        let stream = Self.stream("read -r line; echo took > \(fifo); exec sleep 600", report: { events.append($0) })
        stream.start(now: Self.t0)
        defer { Self.stop(stream, now: Self.t1 + .seconds(10)) }
        Self.fillPipe(stream, now: Self.t1)
        var entry = pollfd(fd: took, events: Int16(POLLIN), revents: 0)
        #expect(poll(&entry, 1, 30_000) == 1, "the command did not take its line")
        // A one-page pipe is writable again only once it is empty: nothing here tells the
        // stream that a line was taken, but it was, within the 2 s.
        stream.handleDeadlines(now: Self.t1 + StreamDefaults.stallTimeout)
        #expect(events.count == 1, "stopped though it took a line: \(events)")
        // Nothing taken in the next 2 s.
        let next = try #require(stream.nextDeadline)
        #expect(next == Self.t1 + StreamDefaults.stallTimeout * 2)
        stream.handleDeadlines(now: next)
        #expect(events.dropFirst().first == .stuck(rule: "r", pid: stream.child?.pid ?? 0, queued: 10))
    }

    @Test func aReloadWhileAStuckCommandIsStoppingKeepsItsKillGrace() {
        let stream = Self.stream("exec sleep 600")
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
        let stream = Self.stream("exec sleep 600")
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

    @Test func whatAStuckCommandLeftInItsGroupThatIgnoresSIGTERMGetsSIGKILLWhenTheGraceEnds() throws {
        var events: [StreamHub.Event] = []
        let folder = temporaryFolder()
        let fifo = "\(folder)/child"
        #expect(mkfifo(fifo, 0o600) == 0)
        let said = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        defer { close(said) }
        // A background sleep that ignores SIGTERM (an ignored signal stays ignored across
        // exec) says its pid once it does; the command itself dies of SIGTERM.
        let background = "(trap '' TERM; exec sh -c 'echo $$ > \(fifo); exec sleep 600') </dev/null >/dev/null 2>&1 &"
        let stream = Self.stream("\(background) exec sleep 600", report: { events.append($0) })
        stream.start(now: Self.t0)
        defer { Self.stop(stream, now: Self.t0 + .seconds(10)) }
        let command = try #require(stream.child)
        var entry = pollfd(fd: said, events: Int16(POLLIN), revents: 0)
        #expect(poll(&entry, 1, 30_000) == 1, "the background sleep did not start")
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = read(said, &bytes, bytes.count)
        let child = try #require(Int32(String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self).split(separator: "\n").first ?? ""))
        let childfd = cprocess_pidfd_open(child)
        defer {
            var left = pollfd(fd: childfd, events: Int16(POLLIN), revents: 0)
            if childfd >= 0, poll(&left, 1, 0) == 0 { kill(child, SIGKILL) }
            if childfd >= 0 { close(childfd) }
        }
        #expect(childfd >= 0, "sleep \(child) is not running")
        Self.makeStuck(stream, now: Self.t0)
        var exited = pollfd(fd: command.pidfd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&exited, 1, 30_000) == 1, "the command outlived its SIGTERM")
        stream.handleExit(now: Self.t0 + .milliseconds(100))
        #expect(events.suffix(2) == [.restarting(rule: "r", pid: command.pid, retryIn: .milliseconds(250)), .leftBehind(rule: "r", pid: command.pid)])
        // The command starts again meanwhile; the sleep is still there until the SIGKILL
        // the stop scheduled.
        stream.handleDeadlines(now: Self.t0 + (StreamDefaults.killGrace - .microseconds(1)))
        #expect(stream.child.map { $0.pid != command.pid } == true, "not started again")
        var left = pollfd(fd: childfd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&left, 1, 0) == 0)
        #expect(stream.nextDeadline == Self.t0 + StreamDefaults.killGrace)
        stream.handleDeadlines(now: Self.t0 + StreamDefaults.killGrace)
        #expect(poll(&left, 1, 30_000) == 1, "sleep \(child) outlived the SIGKILL")
    }

    @Test func linesForACommandThatClosedItsInputAreDroppedUntilItExitsThenItStartsAgain() throws {
        var events: [StreamHub.Event] = []
        let command = "exec 0<&-; exec sleep 1"
        let stream = Self.stream(command, report: { events.append($0) })
        stream.start(now: Self.t0)
        defer { Self.stop(stream, now: Self.t0 + .seconds(10)) }
        let first = try #require(stream.child)
        // Once it closed its stdin: a pipe's write end reports POLLERR when no reader is left.
        var input = pollfd(fd: first.stdin, events: 0, revents: 0)
        #expect(poll(&input, 1, 30_000) == 1 && input.revents & Int16(POLLERR) != 0)
        // More than its queue holds, before its exit is handled.
        for value in 1...300 {
            stream.send(Array("{\"value\":\(value)}\n".utf8), coalescible: false, now: Self.t0 + .milliseconds(value))
        }
        #expect(polled(for: POLLOUT, stream.collect).isEmpty, "its reader is gone, so nothing is polled for writing")
        #expect(stream.nextDeadline == nil, "nothing waits for it, so it cannot be late")
        var exit = pollfd(fd: first.pidfd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&exit, 1, 30_000) == 1)
        stream.handleExit(now: Self.t0 + .seconds(2))
        stream.handleDeadlines(now: Self.t0 + .milliseconds(2_250))
        let second = try #require(stream.child)
        #expect(events == [
            .started(rule: "r", command: command, pid: first.pid),
            .exited(rule: "r", pid: first.pid, status: .exited(0), retryIn: .milliseconds(250)),
            .started(rule: "r", command: command, pid: second.pid),
        ])
    }
}
