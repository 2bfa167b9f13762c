import CommandRunner
import Glibc

/// A rule's `stream` command for `touchgest replay --run`: started as the daemon starts
/// it, but each line is written in full before the next, in order. A replay runs on
/// virtual time and may wait for its reader, so nothing is coalesced and nothing is
/// late: a stream script can be tried on a recording line by line.
public final class ReplayStream {
    public let rule: String
    private let pid: Int32
    private var pidfd: Int32
    private var stdin: Int32
    /// Lines written in full.
    public private(set) var linesSent = 0
    /// Whether the command stopped reading (closed its stdin or exited) before the end.
    public private(set) var stoppedReading = false

    /// Starts `command` with `/bin/sh -c` in its own process group, `TOUCHGEST_RULE` set.
    public init(rule: String, command: String, environment: [String: String]? = nil) throws(StreamError) {
        var environment = environment ?? StreamHub.processEnvironment()
        environment["TOUCHGEST_RULE"] = rule
        signal(SIGPIPE, SIG_IGN)
        switch StreamProcess.spawn(command, environment: environment) {
        case let .success(started):
            self.rule = rule
            pid = started.pid
            pidfd = started.pidfd
            stdin = started.stdin
            _ = fcntl(stdin, F_SETFL, fcntl(stdin, F_GETFL) & ~O_NONBLOCK)
        case let .failure(error):
            throw StreamError(description: "cannot start the stream of rule '\(rule)': \(error.text)")
        }
    }

    deinit {
        if stdin >= 0 { close(stdin) }
        if pidfd >= 0 { close(pidfd) }
    }

    /// Writes one line (without its newline), waiting for the reader to take it.
    public func send(_ line: String) {
        guard stdin >= 0 else { return }
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(stdin, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                stoppedReading = true
                close(stdin)
                stdin = -1
                return
            }
            offset += written
        }
        linesSent += 1
    }

    /// Closes the command's stdin, so it reads the end, and waits for it to exit: as a
    /// reload closes a stream, SIGTERM after ``StreamDefaults/closeGrace`` and SIGKILL
    /// ``StreamDefaults/killGrace`` later. Returns how it ended.
    public func finish() -> CommandRunner.Status {
        if stdin >= 0 { close(stdin) }
        stdin = -1
        for (wait, signal) in [(StreamDefaults.closeGrace, SIGTERM), (StreamDefaults.killGrace, SIGKILL)] {
            if let status = waitForExit(wait) { return status }
            kill(-pid, signal)
        }
        return waitForExit(nil) ?? .signalled(SIGKILL)
    }

    /// Reaps the command if it exits within `limit` (nil: however long it takes).
    private func waitForExit(_ limit: Duration?) -> CommandRunner.Status? {
        if let limit, pidfd >= 0 {
            var entry = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: limit.wholeMicroseconds / 1_000)
            while poll(&entry, 1, milliseconds) < 0 && errno == EINTR {}
        }
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, limit == nil ? 0 : WNOHANG)
        guard reaped == pid else { return nil }
        if pidfd >= 0 { close(pidfd) }
        pidfd = -1
        return CommandRunner.Status(waitStatus: status)
    }
}
