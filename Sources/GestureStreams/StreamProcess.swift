import CommandRunner
import CProcess
import Glibc
import PollLoop
import TouchGestures

/// One rule's `stream` command: started once, kept running, fed one JSON line per
/// gesture phase on its stdin, never blocking the loop.
///
/// Phases: `idle -> running`; a command that exits goes `running -> backingOff -> running`;
/// one that closes its stdin first goes `running -> inputClosed -> backingOff -> running`;
/// one that stops reading goes `running -> stopping -> backingOff -> running`; a reload
/// goes `running -> closing -> closed` (stdin drained and closed, so the command reads
/// EOF and exits; SIGTERM, then SIGKILL, if it does not).
///
/// Whatever a command started in its process group (`helper &` in its script) does not
/// outlive it: once the command is reaped, what is left of its group gets SIGTERM (unless
/// the group had it already), and SIGKILL ``StreamDefaults/killGrace`` later if anything
/// is still there. The group's id is the command's pid, which names the group as long as
/// a member is left.
final class StreamProcess {
    /// A started command.
    final class Child {
        let pid: Int32
        var pidfd: Int32
        /// The write end of its stdin; -1 once closed.
        var stdin: Int32
        let startedAt: Timestamp
        var outbox = Outbox()
        /// Since when lines have waited without a byte seen taken; nil while nothing waits.
        private(set) var waitingSince: Timestamp?
        /// Bytes in its stdin pipe (FIONREAD) when `waitingSince` was set; -1 if unknown.
        private var queuedSince: Int32 = -1

        /// When to look whether it took any byte since `waitingSince`: stuck then if it took
        /// none, so a reader stopped partway is stopped 2 to 4 s after its last byte; nil
        /// while nothing waits (an idle stream asks for no wake-up).
        var stallDeadline: Timestamp? {
            waitingSince.map { max($0 + StreamDefaults.stallTimeout, startedAt + StreamDefaults.startGrace) }
        }

        init(pid: Int32, pidfd: Int32, stdin: Int32, startedAt: Timestamp) {
            self.pid = pid
            self.pidfd = pidfd
            self.stdin = stdin
            self.startedAt = startedAt
        }

        /// Lines wait from `now`, the pipe holding what it holds now: called when they begin
        /// to wait, and whenever the reader is seen taking bytes.
        func waitFrom(_ now: Timestamp) {
            waitingSince = now
            queuedSince = stdin >= 0 ? cprocess_pipe_queued(stdin) : -1
        }

        /// Nothing waits any more.
        func stopWaiting() {
            waitingSince = nil
            queuedSince = -1
        }

        /// When the stall time since `waitingSince` is up: whether the reader took no byte
        /// meanwhile. On a one-page pipe Linux reports room to write only once the page is
        /// empty, so a reader that takes a line at a time shows its progress only as fewer
        /// bytes in the pipe; when it took some, the wait starts over from `now`.
        func tookNothing(now: Timestamp) -> Bool {
            let queued = stdin >= 0 ? cprocess_pipe_queued(stdin) : -1
            guard queued >= 0, queuedSince >= 0, queued < queuedSince else { return true }
            waitFrom(now)
            return false
        }

        func closeStdin() {
            if stdin >= 0 { Glibc.close(stdin) }
            stdin = -1
        }

        /// Its stdin and its pidfd, for a hub that goes away without reaping it.
        func closeDescriptors() {
            closeStdin()
            if pidfd >= 0 { Glibc.close(pidfd) }
            pidfd = -1
        }
    }

    enum Phase {
        case idle
        case running(Child)
        /// The command closed its stdin (a write failed with EPIPE) but has not exited:
        /// its lines are dropped, nothing waits for it, and once its pidfd says it exited
        /// it starts again as any command that exits.
        case inputClosed(Child)
        /// Stuck: SIGTERM sent to its group; SIGKILL at `killAt`; started again once reaped.
        case stopping(Child, killAt: Timestamp, killed: Bool)
        case backingOff(until: Timestamp)
        /// Closing for a reload or shutdown: its lines go out, then stdin closes; SIGTERM at
        /// `signalAt`, and SIGKILL ``StreamDefaults/killGrace`` later.
        case closing(Child, signalAt: Timestamp, signals: Int)
        case closed
    }

    /// The group of a command already reaped, with processes it started still in it:
    /// they got SIGTERM, and get SIGKILL at `killAt`.
    struct LeftGroup: Equatable {
        var id: Int32
        var killAt: Timestamp
    }

    let rule: String
    let command: String
    private let environment: [String: String]
    private let keepPidfd: (_ pid: Int32) -> Bool
    private let report: (StreamHub.Event) -> Void
    private(set) var phase = Phase.idle
    /// Groups of reaped commands still being stopped, beside the phase: a command started
    /// again can run while what the last one left is stopped.
    private(set) var leftGroups: [LeftGroup] = []
    /// Restarts in a row without a ``StreamDefaults/stableRun``.
    private var restarts = 0

    /// - Parameter keepPidfd: given a started command's pid, whether to follow it by the
    ///   pidfd its start made: yes. A parameter so that a test can take the pidfd away, as
    ///   a kernel before 5.3 does.
    init(rule: String, command: String, environment: [String: String],
         keepPidfd: @escaping (_ pid: Int32) -> Bool = { _ in true },
         report: @escaping (StreamHub.Event) -> Void) {
        self.rule = rule
        self.command = command
        self.environment = environment
        self.keepPidfd = keepPidfd
        self.report = report
    }

    /// Closed, and nothing left of its commands' groups: the hub can forget it.
    var isClosed: Bool {
        if case .closed = phase { return leftGroups.isEmpty }
        return false
    }

    var child: Child? {
        switch phase {
        case let .running(child), let .inputClosed(child), let .stopping(child, _, _), let .closing(child, _, _): child
        case .idle, .backingOff, .closed: nil
        }
    }

    /// The pidfd, for the command's exit; stdin while lines wait to go out.
    func collect(_ interest: inout PollInterest) {
        guard let child else { return }
        if child.pidfd >= 0 { interest.read(child.pidfd) }
        switch phase {
        case .running, .closing:
            if child.stdin >= 0 && !child.outbox.isEmpty { interest.write(child.stdin) }
        case .idle, .inputClosed, .stopping, .backingOff, .closed: break
        }
    }

    /// Whether `fd` tells of the command's exit.
    func reportsExit(on fd: Int32) -> Bool {
        guard let child, child.pidfd >= 0 else { return false }
        return child.pidfd == fd
    }

    var nextDeadline: Timestamp? {
        earliest(phaseDeadline, leftGroups.map(\.killAt).min())
    }

    private var phaseDeadline: Timestamp? {
        switch phase {
        case let .running(child): child.stallDeadline
        case .inputClosed: nil
        case let .stopping(_, killAt, killed): killed ? nil : killAt
        case let .backingOff(until): until
        case let .closing(child, signalAt, signals):
            signals >= 2 ? nil : min(signalAt, child.waitingSince.map { $0 + StreamDefaults.stallTimeout } ?? signalAt)
        case .idle, .closed: nil
        }
    }

    // MARK: Steps

    func start(now: Timestamp) {
        switch phase {
        case .idle, .backingOff: break
        case .running, .inputClosed, .stopping, .closing, .closed: return
        }
        switch Self.spawn(command, environment: environment, keepPidfd: keepPidfd) {
        case let .success(started):
            let child = Child(pid: started.pid, pidfd: started.pidfd, stdin: started.stdin, startedAt: now)
            phase = .running(child)
            report(.started(rule: rule, command: command, pid: started.pid))
        case let .failure(reason):
            let delay = nextDelay()
            phase = .backingOff(until: now + delay)
            report(.couldNotStart(rule: rule, reason: reason.text, retryIn: delay))
        }
    }

    /// Queues a line and writes what the pipe takes at once; drops it unless the command
    /// runs with its stdin open.
    func send(_ bytes: [UInt8], coalescible: Bool, now: Timestamp) {
        guard case let .running(child) = phase else { return }
        child.outbox.append(key: rule, coalescible: coalescible, bytes: bytes)
        if child.outbox.count > StreamDefaults.maximumQueuedLines {
            return stop(child, now: now)
        }
        flush(child, now: now)
    }

    func handleWritable(now: Timestamp) {
        guard let child else { return }
        flush(child, now: now)
    }

    /// The pidfd is readable: the command exited.
    func handleExit(now: Timestamp) {
        guard let child, let status = Self.reap(child) else { return }
        // Scheduled from the phase it exited in; said after the exit it follows from.
        let leftBehind = stopLeftovers(of: child, now: now)
        defer { if leftBehind { report(.leftBehind(rule: rule, pid: child.pid)) } }
        switch phase {
        case .running, .inputClosed:
            if now - child.startedAt >= StreamDefaults.stableRun { restarts = 0 }
            let delay = nextDelay()
            phase = .backingOff(until: now + delay)
            report(.exited(rule: rule, pid: child.pid, status: status, retryIn: delay))
        case .stopping:
            let delay = nextDelay()
            phase = .backingOff(until: now + delay)
            report(.restarting(rule: rule, pid: child.pid, retryIn: delay))
        case .closing:
            phase = .closed
            report(.closed(rule: rule, pid: child.pid, status: status))
        case .idle, .backingOff, .closed:
            break
        }
    }

    func handleDeadlines(now: Timestamp) {
        leftGroups.removeAll { group in
            guard group.killAt <= now else { return false }
            // ESRCH when the SIGTERM was enough.
            kill(-group.id, SIGKILL)
            return true
        }
        switch phase {
        case let .running(child):
            if let deadline = child.stallDeadline, deadline <= now, child.tookNothing(now: now) { stop(child, now: now) }
        case .inputClosed:
            break
        case let .stopping(child, killAt, killed):
            if !killed, killAt <= now {
                kill(-child.pid, SIGKILL)
                phase = .stopping(child, killAt: killAt, killed: true)
            }
        case let .backingOff(until):
            if until <= now { start(now: now) }
        case let .closing(child, signalAt, signals):
            if let since = child.waitingSince, since + StreamDefaults.stallTimeout <= now, child.tookNothing(now: now) {
                // It will not take the last lines: close its stdin without them.
                child.outbox.removeAll()
                child.stopWaiting()
                child.closeStdin()
            }
            if signalAt <= now && signals < 2 {
                kill(-child.pid, signals == 0 ? SIGTERM : SIGKILL)
                phase = .closing(child, signalAt: now + StreamDefaults.killGrace, signals: signals + 1)
            }
        case .idle, .closed:
            break
        }
    }

    /// Closes the stream: the lines already queued go out, then its stdin closes and the
    /// command should exit; it gets SIGTERM after ``StreamDefaults/closeGrace``. One being
    /// stopped (stuck) keeps its schedule: SIGKILL when its grace ends, or none again.
    func close(now: Timestamp) {
        switch phase {
        case let .running(child), let .inputClosed(child):
            phase = .closing(child, signalAt: now + StreamDefaults.closeGrace, signals: 0)
            flush(child, now: now)
        case let .stopping(child, killAt, killed):
            // Already signalled: keep its schedule, SIGKILL at `killAt` or none again.
            phase = .closing(child, signalAt: killed ? now : killAt, signals: killed ? 2 : 1)
        case .idle, .backingOff:
            phase = .closed
        case .closing, .closed:
            break
        }
    }

    // MARK: Internals

    private func flush(_ child: Child, now: Timestamp) {
        guard child.stdin >= 0 else { return }
        let fd = child.stdin
        let (progressed, result) = child.outbox.flush { buffer in write(fd, buffer.baseAddress, buffer.count) }
        switch result {
        case .drained:
            child.stopWaiting()
            if case .closing = phase { child.closeStdin() }
        case .blocked:
            if progressed || child.waitingSince == nil { child.waitFrom(now) }
        case .broken:
            // The command closed its stdin (or exited): its pidfd tells when it is gone.
            child.outbox.removeAll()
            child.stopWaiting()
            child.closeStdin()
            if case .running = phase { phase = .inputClosed(child) }
        }
    }

    /// The command is reaped: what it started in its group is stopped on the group's
    /// schedule. A group never signalled gets SIGTERM now and SIGKILL a grace later; one
    /// that had SIGTERM (stuck, or closing past its grace) keeps its SIGKILL time; one that
    /// had SIGKILL has nothing left that runs. Returns whether anything was left.
    private func stopLeftovers(of child: Child, now: Timestamp) -> Bool {
        let group = child.pid
        let killAt: Timestamp
        switch phase {
        case .running, .inputClosed, .closing(_, _, 0):
            // ESRCH: the command left nothing behind.
            guard kill(-group, SIGTERM) == 0 else { return false }
            killAt = now + StreamDefaults.killGrace
        case let .stopping(_, at, false), let .closing(_, at, 1):
            guard kill(-group, 0) == 0 else { return false }
            killAt = at
        case .stopping, .closing, .idle, .backingOff, .closed:
            return false
        }
        leftGroups.append(LeftGroup(id: group, killAt: killAt))
        return true
    }

    /// The command stopped reading: SIGTERM to its group, and SIGKILL if that is not enough.
    private func stop(_ child: Child, now: Timestamp) {
        let queued = child.outbox.count
        child.outbox.removeAll()
        child.stopWaiting()
        child.closeStdin()
        kill(-child.pid, SIGTERM)
        phase = .stopping(child, killAt: now + StreamDefaults.killGrace, killed: false)
        report(.stuck(rule: rule, pid: child.pid, queued: queued))
    }

    private func nextDelay() -> Duration {
        var delay = StreamDefaults.firstRestartDelay
        for _ in 0..<min(restarts, 16) where delay < StreamDefaults.maximumRestartDelay { delay *= 2 }
        restarts += 1
        return min(delay, StreamDefaults.maximumRestartDelay)
    }

    private static func reap(_ child: Child) -> CommandRunner.Status? {
        var status: Int32 = 0
        guard waitpid(child.pid, &status, WNOHANG) == child.pid else { return nil }
        if child.pidfd >= 0 { Glibc.close(child.pidfd) }
        child.pidfd = -1
        child.closeStdin()
        return CommandRunner.Status(waitStatus: status)
    }

    struct Started {
        var pid: Int32
        var pidfd: Int32
        var stdin: Int32
    }

    struct SpawnError: Error {
        var text: String
    }

    /// `/bin/sh -c COMMAND` in its own process group, stdin the read end of a small pipe
    /// whose write end (non-blocking) is returned; stdout and stderr are the daemon's.
    /// Without a pidfd (a kernel before 5.3 has none to poll) the child is killed and
    /// reaped, and that is the failure.
    static func spawn(_ command: String, environment: [String: String],
                      keepPidfd: (_ pid: Int32) -> Bool = { _ in true }) -> Result<Started, SpawnError> {
        func failure(_ what: String, _ code: Int32) -> Result<Started, SpawnError> {
            .failure(SpawnError(text: "\(what): \(String(cString: strerror(code)))"))
        }
        var pipeFDs: [Int32] = [-1, -1]
        guard cprocess_pipe_cloexec(&pipeFDs) == 0 else { return failure("pipe", errno) }
        _ = cprocess_set_pipe_size(pipeFDs[1], StreamDefaults.pipeBytes)

        let shell = "/bin/sh"
        let words: [String] = [shell, "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var cloned: Int32 = -1
        var error: Int32 = 0
        let pid = EnvironmentBlock(environment).withEntries { envp in
            cprocess_spawn(shell, argv, envp, pipeFDs[0], -1, &cloned, &error)
        }
        Glibc.close(pipeFDs[0])
        guard pid > 0 else {
            Glibc.close(pipeFDs[1])
            return failure("cannot start /bin/sh", error)
        }
        var pidfd = cloned
        if pidfd >= 0 && !keepPidfd(pid) {
            Glibc.close(pidfd)
            pidfd = -1
        }
        guard pidfd >= 0 else {
            // Without its pidfd nothing would tell when it exits, so nothing would reap it:
            // a start that failed, and no child is left behind (it has not run a line yet).
            Glibc.close(pipeFDs[1])
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return .failure(SpawnError(text: "no pidfd to follow /bin/sh by (Linux 5.3 or later makes one)"))
        }
        _ = fcntl(pipeFDs[1], F_SETFL, fcntl(pipeFDs[1], F_GETFL) | O_NONBLOCK)
        return .success(Started(pid: pid, pidfd: pidfd, stdin: pipeFDs[1]))
    }
}
