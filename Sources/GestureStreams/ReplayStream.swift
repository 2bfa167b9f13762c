import CommandRunner
import CProcess
import Glibc
import PollLoop
import TouchGestures

/// A rule's `stream` command for `touchgest replay --run`: started as the daemon starts
/// it, but each line is written in full before the next, in order. A replay runs on
/// virtual time and may wait for its reader, so nothing is coalesced and nothing is
/// late: a stream script can be tried on a recording line by line.
///
/// Phases: `feeding -> inputClosed -> exited`; the input closes when the command stops
/// reading or at ``finish()``, and the command is reaped once, by ``finish()`` or, when
/// that never ran, by `deinit` after SIGKILL. A command someone else reaped is `lost`.
public final class ReplayStream {
    private enum Phase {
        /// Its stdin open (blocking writes); its pidfd readable once it exited.
        case feeding(stdin: Int32, pidfd: Int32)
        /// Its stdin closed; not reaped yet.
        case inputClosed(pidfd: Int32)
        /// Reaped: how it ended.
        case exited(CommandRunner.Status)
        /// `waitpid` failed (another waiter took its status): why its end is unknown.
        case lost(StreamError)
    }

    public let rule: String
    /// The command's pid, also its process group.
    let pid: Int32
    private var phase: Phase
    /// Lines written in full.
    public private(set) var linesSent = 0
    /// Whether the command stopped reading (closed its stdin or exited) before the end.
    public private(set) var stoppedReading = false
    /// Whether it took no byte for ``StreamDefaults/stallTimeout`` and was stopped, as the
    /// daemon stops a stuck stream: a replay never waits for ever on a reader.
    public private(set) var stuck = false

    /// Starts `command` with `/bin/sh -c` in its own process group, `TOUCHGEST_RULE` set.
    public init(rule: String, command: String, environment: [String: String]? = nil) throws(StreamError) {
        var environment = environment ?? CommandRunner.processEnvironment()
        environment["TOUCHGEST_RULE"] = rule
        signal(SIGPIPE, SIG_IGN)
        switch StreamProcess.spawn(command, environment: environment) {
        case let .success(started):
            self.rule = rule
            pid = started.pid
            phase = .feeding(stdin: started.stdin, pidfd: started.pidfd)
        case let .failure(error):
            throw StreamError(description: "cannot start the stream of rule '\(rule)': \(error.text)")
        }
    }

    /// A stream dropped without ``finish()`` (the replay failed) leaves nothing behind:
    /// its command's group gets SIGKILL and the command is reaped.
    deinit {
        switch phase {
        case let .feeding(stdin, pidfd):
            close(stdin)
            kill(-pid, SIGKILL)
            _ = reap(pidfd)
        case let .inputClosed(pidfd):
            kill(-pid, SIGKILL)
            _ = reap(pidfd)
        case .exited, .lost:
            break
        }
    }

    /// Writes one line (without its newline), waiting for the reader to take it; drops it
    /// once the command stopped reading. A reader that takes no byte for
    /// ``StreamDefaults/stallTimeout`` is stuck: its input is closed and it is stopped
    /// (SIGTERM, then SIGKILL), and the lines after are dropped.
    public func send(_ line: String) {
        guard case let .feeding(stdin, pidfd) = phase else { return }
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(stdin, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written < 0 && errno == EAGAIN {
                switch Self.waitForRoom(stdin: stdin, pidfd: pidfd) {
                case .room: continue
                case .exited: break
                case .stuck:
                    stuck = true
                    for (grace, signal) in [(Duration.zero, SIGTERM), (StreamDefaults.killGrace, SIGKILL)] {
                        if Self.exits(pidfd, within: grace) { break }
                        kill(-pid, signal)
                    }
                }
            }
            if written <= 0 {
                stoppedReading = true
                close(stdin)
                phase = .inputClosed(pidfd: pidfd)
                return
            }
            offset += written
        }
        linesSent += 1
    }

    private enum Room { case room, exited, stuck }

    /// Waits until the pipe has room, the command exits, or it takes no byte for the
    /// stall time. Linux reports a one-page pipe writable only once the page is empty,
    /// so progress is the bytes waiting in the pipe going down, not POLLOUT alone.
    private static func waitForRoom(stdin: Int32, pidfd: Int32) -> Room {
        var queued = cprocess_pipe_queued(stdin)
        while true {
            var entries = [pollfd(fd: stdin, events: Int16(POLLOUT), revents: 0), pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)]
            let milliseconds = Int32(StreamDefaults.stallTimeout.wholeMicroseconds / 1_000)
            let ready = poll(&entries, 2, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            if entries[1].revents != 0 { return .exited }
            if ready > 0 { return .room }
            let now = cprocess_pipe_queued(stdin)
            guard now >= 0, now < queued else { return .stuck }
            queued = now
        }
    }

    /// Closes the command's stdin, so it reads the end, and waits for it to exit: as a
    /// reload closes a stream, SIGTERM after ``StreamDefaults/closeGrace`` and SIGKILL
    /// ``StreamDefaults/killGrace`` later. Returns how it ended; called again, returns
    /// the same at once. Throws when its end cannot be known (`waitpid` failed).
    public func finish() throws(StreamError) -> CommandRunner.Status {
        let pidfd: Int32
        switch phase {
        case let .feeding(stdin, fd):
            close(stdin)
            phase = .inputClosed(pidfd: fd)
            pidfd = fd
        case let .inputClosed(fd):
            pidfd = fd
        case let .exited(status):
            return status
        case let .lost(error):
            throw error
        }
        for (grace, signal) in [(StreamDefaults.closeGrace, SIGTERM), (StreamDefaults.killGrace, SIGKILL)] {
            if Self.exits(pidfd, within: grace) { break }
            // Not reaped yet, so the pid (and its group) is still this command's.
            kill(-pid, signal)
        }
        return try reap(pidfd).get()
    }

    /// Whether the process of `pidfd` exits within `limit`; the wait goes on after a
    /// signal interrupts it, for what is left of `limit`.
    private static func exits(_ pidfd: Int32, within limit: Duration) -> Bool {
        let end = PollScheduler.now() + limit
        var entry = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
        while true {
            let left = max(end - PollScheduler.now(), .zero)
            let milliseconds = Int32(clamping: (left.wholeMicroseconds + 999) / 1_000)
            let ready = poll(&entry, 1, milliseconds)
            if ready >= 0 || errno != EINTR { return ready > 0 }
        }
    }

    /// Waits for the command (it exited, or was sent SIGKILL), closes its pidfd, and
    /// records how it ended, or that `waitpid` could not tell.
    private func reap(_ pidfd: Int32) -> Result<CommandRunner.Status, StreamError> {
        var status: Int32 = 0
        var reaped: Int32
        repeat {
            reaped = waitpid(pid, &status, 0)
        } while reaped < 0 && errno == EINTR
        let code = errno
        close(pidfd)
        guard reaped == pid else {
            let error = StreamError(description: "cannot wait for the stream of rule '\(rule)' (pid \(pid)): \(String(cString: strerror(code)))")
            phase = .lost(error)
            return .failure(error)
        }
        let ended = CommandRunner.Status(waitStatus: status)
        phase = .exited(ended)
        return .success(ended)
    }
}
