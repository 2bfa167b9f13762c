import CProcess
import Glibc
import PollLoop
import TouchGestures

/// Runs shell commands for gestures without ever blocking the caller's loop.
///
/// Each command runs as `/bin/sh -c COMMAND` in its own process group, stdin from
/// /dev/null, stdout inherited, stderr captured (its tail is reported when the command
/// fails). A plain command (``DirectCommand``: words and quotes, no shell syntax, a
/// program found in `PATH`) is started directly with the same words, saving the shell's
/// start before the command's. Gesture values reach it only as environment variables. The caller polls
/// ``pollDescriptors`` and calls ``handleReadable(_:)``, and wakes at ``nextDeadline``
/// for ``handleDeadlines()``; children are reaped through pidfds, so no SIGCHLD
/// handler is needed and no zombie is left.
public final class CommandRunner {
    /// What to do when a job's key (its rule) still has a command running.
    public enum Overlap: Sendable {
        /// Drop the new job.
        case skip
        /// Start it when the running one ends; at most one waits, later ones are dropped.
        case queue
        /// Start it at once.
        case parallel
    }

    /// One command to run.
    public struct Job: Sendable, Equatable {
        /// Groups jobs for the overlap policy: the rule's name.
        public var key: String
        public var command: String
        /// Added to (and overriding) the runner's base environment.
        public var environment: [String: String]
        /// After this the process group gets SIGTERM, and SIGKILL a second later.
        public var timeout: Duration?
        public var overlap: Overlap

        public init(key: String, command: String, environment: [String: String] = [:],
                    timeout: Duration? = nil, overlap: Overlap = .queue) {
            self.key = key
            self.command = command
            self.environment = environment
            self.timeout = timeout
            self.overlap = overlap
        }
    }

    /// How a command ended.
    public enum Status: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)
        /// Stopped because it ran past its timeout.
        case timedOut
        case couldNotStart(String)

        public var description: String {
            switch self {
            case let .exited(code): "exited with status \(code)"
            case let .signalled(signal): "was killed by signal \(signal)"
            case .timedOut: "stopped after its timeout"
            case let .couldNotStart(reason): "could not start: \(reason)"
            }
        }

        public var succeeded: Bool { self == .exited(0) }

        /// How a process ended, from the status `waitpid` gave.
        public init(waitStatus status: Int32) {
            self = status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
        }
    }

    /// What the runner did, for the daemon's log.
    public enum Event: Sendable {
        case started(Job, pid: Int32)
        case skipped(Job)
        case queued(Job)
        case finished(Job, pid: Int32, status: Status, stderrTail: String)
    }

    /// Called with every event.
    public var observer: ((Event) -> Void)?

    /// The bytes of stderr kept per command.
    public static let stderrTailLimit = 2_048
    /// Reads of a command's stderr per wake-up (4 KiB each); the rest waits a round.
    static let stderrReadsPerWake = 16
    /// Time between SIGTERM and SIGKILL for a command past its timeout.
    public static let killGrace: Duration = .seconds(1)

    private final class Child {
        let job: Job
        let pid: Int32
        var pidfd: Int32
        var stderrFD: Int32
        /// The pipe's write end, kept by the daemon while the pidfd says when the command
        /// ends (see ``CommandRunner/spawn(_:)``); -1 otherwise.
        var stderrWriteEnd: Int32 = -1
        var stderrTail: [UInt8] = []
        var deadline: Timestamp?
        var timedOut = false
        /// Whether its pidfd and pipe are in the runner's ``CommandRunner/readSet``; if
        /// either could not join it, both are collected for poll instead.
        var inReadSet = false

        init(job: Job, pid: Int32, pidfd: Int32, stderrFD: Int32, deadline: Timestamp?) {
            self.job = job
            self.pid = pid
            self.pidfd = pidfd
            self.stderrFD = stderrFD
            self.deadline = deadline
        }
    }

    private let shell: String
    private let baseEnvironment: [String: String]
    /// The base environment as C strings, made once rather than at every start.
    private let baseBlock: EnvironmentBlock
    /// Where each command's program was found, by command and `PATH`, as a shell hashes
    /// the programs it ran: finding it means a `stat` per `PATH` folder, at every start of
    /// an on-step command otherwise. A program that went away since is found again.
    private var launches: [String: Launch] = [:]
    private let now: () -> Timestamp
    // This, readSet and readSetSerial: read by the loop at every wake-up (collect, nextDeadline), on its one thread, and no
    // access to them overlaps another: no dynamic exclusivity check.
    @exclusivity(unchecked) private var children: [Child] = []
    private var waiting: [Job] = []
    /// The stderr pipes of commands that have ended while something they left running
    /// (`firefox &`) still holds the write end. They are read and the bytes dropped until
    /// that end closes: a pipe with no reader would kill the writer with SIGPIPE at its
    /// next line of stderr.
    private var leftovers: [Int32] = []
    /// An epoll set of every descriptor the runner reads (its commands' pidfds and pipes,
    /// the leftovers), made with the runner, so that the daemon's descriptors at rest
    /// are the same before and after its first command (-1 if that failed: the first
    /// command tries again). The daemon's loop waits on it as one
    /// steady descriptor, so a running command does not take the loop from its epoll set
    /// to poll(2) at each wake-up. A descriptor leaves it before it is closed: a copy
    /// alive elsewhere (a child between its clone and its exec) would keep it in the set.
    @exclusivity(unchecked) private var readSet: Int32 = -1
    /// ``readSet``'s serial for the loop (``DescriptorSerial``): made late (the first
    /// command, if the runner could not make it), it may take a number another source has
    /// just let go of.
    @exclusivity(unchecked) private var readSetSerial: UInt64 = 0

    /// - Parameters:
    ///   - baseEnvironment: the environment every command starts from (the daemon's own by default).
    ///   - now: the monotonic clock, in the same base as libinput's timestamps.
    public init(shell: String = "/bin/sh", baseEnvironment: [String: String]? = nil,
                now: @escaping () -> Timestamp = PollScheduler.now) {
        self.shell = shell
        self.baseEnvironment = baseEnvironment ?? Self.processEnvironment()
        baseBlock = EnvironmentBlock(self.baseEnvironment)
        self.now = now
        readSet = cprocess_epoll_create()
        readSetSerial = DescriptorSerial.next()
    }

    deinit {
        for child in children {
            if child.pidfd >= 0 { close(child.pidfd) }
            if child.stderrFD >= 0 { close(child.stderrFD) }
            if child.stderrWriteEnd >= 0 { close(child.stderrWriteEnd) }
        }
        for fd in leftovers { close(fd) }
        if readSet >= 0 { close(readSet) }
    }

    /// Commands running now.
    public var runningCount: Int { children.count }

    /// Jobs waiting for their rule's previous command to end.
    public var queuedCount: Int { waiting.count }

    /// Descriptors to poll for reading: the runner's epoll set (open as long as the
    /// runner), and the pidfd and pipe of any command that could not join it.
    public func collect(_ interest: inout PollInterest) {
        if readSet >= 0 { interest.readSteadily(readSet, serial: readSetSerial) }
        for child in children where !child.inReadSet {
            if child.pidfd >= 0 { interest.read(child.pidfd) }
            if child.stderrFD >= 0 { interest.read(child.stderrFD) }
        }
    }

    /// The next timeout or kill deadline, if any.
    public var nextDeadline: Timestamp? {
        var next: Timestamp?
        for child in children {
            if let deadline = child.deadline, next.map({ deadline < $0 }) ?? true { next = deadline }
        }
        return next
    }

    /// Starts a job, or skips or queues it by its overlap policy.
    public func run(_ job: Job) {
        if children.contains(where: { $0.job.key == job.key }) {
            switch job.overlap {
            case .skip:
                observer?(.skipped(job))
                return
            case .queue:
                if waiting.contains(where: { $0.key == job.key }) {
                    observer?(.skipped(job))
                } else {
                    waiting.append(job)
                    observer?(.queued(job))
                }
                return
            case .parallel:
                break
            }
        }
        spawn(job)
    }

    /// Reads a descriptor from ``pollDescriptors`` that poll said is readable.
    public func handleReadable(_ fd: Int32) {
        if fd == readSet { return handleReadSet() }
        guard let child = children.first(where: { $0.pidfd == fd || $0.stderrFD == fd }) else { return }
        handle(fd, of: child)
    }

    /// `fd`, one of `child`'s descriptors, is readable: its pipe has bytes, or it has ended.
    private func handle(_ fd: Int32, of child: Child) {
        if fd == child.stderrFD { drainStderr(child) } else { reap(child) }
    }

    /// Stops commands past their timeout: SIGTERM to the group, SIGKILL after ``killGrace``.
    public func handleDeadlines() {
        let time = now()
        for child in children {
            guard let deadline = child.deadline, deadline <= time else { continue }
            if child.timedOut {
                kill(-child.pid, SIGKILL)
                child.deadline = nil
            } else {
                child.timedOut = true
                kill(-child.pid, SIGTERM)
                child.deadline = time + Self.killGrace
            }
        }
    }

    /// Polls until every command (and every queued one) has finished or `timeout` passed;
    /// for shutdown and tests. Returns whether all finished.
    @discardableResult
    public func waitUntilIdle(timeout: Duration) -> Bool {
        let end = now() + timeout
        while !children.isEmpty || !waiting.isEmpty {
            let time = now()
            guard time < end else { return false }
            var limit = end - time
            if let deadline = nextDeadline { limit = min(limit, max(deadline - time, .zero)) }
            var fds = pollDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let milliseconds = Int32(clamping: (limit.wholeMicroseconds + 999) / 1_000)
            if poll(&fds, nfds_t(fds.count), milliseconds) > 0 {
                for entry in fds where entry.revents != 0 { handleReadable(entry.fd) }
            }
            handleDeadlines()
        }
        return true
    }

    /// Sends SIGTERM to every running command's process group (the daemon's shutdown
    /// policy is to leave them alone; this is for callers that want otherwise).
    public func terminateAll() {
        waiting.removeAll()
        for child in children { kill(-child.pid, SIGTERM) }
    }

    // MARK: Spawning and reaping

    private func spawn(_ job: Job) {
        var pipeFDs: [Int32] = [-1, -1]
        guard cprocess_pipe_cloexec(&pipeFDs) == 0 else {
            return finishUnstarted(job, reason: "pipe: \(String(cString: strerror(errno)))")
        }
        var pid: pid_t = 0
        var pidfd: Int32 = -1
        let searchPath = job.environment["PATH"] ?? baseEnvironment["PATH"]
        let cacheKey = job.command + "\u{0}" + (searchPath ?? "")
        let launch = launches[cacheKey] ?? launch(for: job.command, searchPath: searchPath)
        var result: Int32 = 0
        baseBlock.withEntries(adding: job.environment) { envp in
            // cprocess_spawn clones with CLONE_VM | CLONE_VFORK: no copy of the daemon's
            // memory, an exec failure comes back as the result, and the pidfd with the pid.
            func start(_ launch: Launch) -> Int32 {
                let argv: [UnsafeMutablePointer<CChar>?] = launch.arguments.map { strdup($0) } + [nil]
                defer { for pointer in argv { free(pointer) } }
                var error: Int32 = 0
                pid = cprocess_spawn(launch.path, argv, envp, -1, pipeFDs[1], &pidfd, &error)
                return pid < 0 ? error : 0
            }
            result = start(launch)
            if result != 0 && launch.direct {
                // A script without a `#!` line (ENOEXEC), or a program gone since it was found:
                // the shell handles these as it always did, and the program is looked for again.
                launches[cacheKey] = nil
                result = start(shellLaunch(job.command))
            } else {
                if launches.count >= Self.launchCacheLimit { launches.removeAll() }
                launches[cacheKey] = launch
            }
        }
        guard result == 0 else {
            close(pipeFDs[0])
            close(pipeFDs[1])
            return finishUnstarted(job, reason: String(cString: strerror(result)))
        }
        // A new pipe's end has no status flag set: no need to ask which before adding one.
        _ = fcntl(pipeFDs[0], F_SETFL, O_NONBLOCK)
        let child = Child(job: job, pid: pid, pidfd: pidfd, stderrFD: pipeFDs[0],
                          deadline: job.timeout.map { now() + $0 })
        if pidfd >= 0 {
            // The pidfd says when the command ends, so the daemon keeps the pipe's write end
            // open too: the pipe then wakes the loop only when the command writes to it, and
            // not once more as it exits (its copy closing), which would be a second wake-up
            // for every command beside the pidfd's.
            child.stderrWriteEnd = pipeFDs[1]
        } else {
            // Without pidfds (a kernel before 5.3) the child is reaped when its stderr closes.
            close(pipeFDs[1])
        }
        if pidfd >= 0 {
            if join(child.pidfd) {
                child.inReadSet = join(child.stderrFD)
                if !child.inReadSet { leave(child.pidfd) }
            }
        }
        children.append(child)
        observer?(.started(job, pid: pid))
    }

    /// Adds `fd` to ``readSet`` (made now if the runner could not make it); whether it joined.
    private func join(_ fd: Int32) -> Bool {
        if readSet < 0 {
            readSet = cprocess_epoll_create()
            readSetSerial = DescriptorSerial.next()
        }
        return readSet >= 0 && cprocess_epoll_add(readSet, fd, UInt64(UInt32(bitPattern: fd))) == 0
    }

    private func leave(_ fd: Int32) {
        _ = cprocess_epoll_remove(readSet, fd)
    }

    /// Closes one of a child's descriptors, taking it out of ``readSet`` first.
    private func shut(_ fd: inout Int32, of child: Child) {
        if child.inReadSet { leave(fd) }
        close(fd)
        fd = -1
    }

    /// Hands each ready descriptor of ``readSet`` to whatever reads it. One closed while
    /// an earlier one was handled finds no reader and is skipped; its number taken again
    /// meanwhile (a queued command started) only costs its new reader an empty read.
    private func handleReadSet() {
        var ready = [UInt64](repeating: 0, count: 32)
        let count = cprocess_epoll_wait(readSet, &ready, Int32(ready.count), 0)
        guard count > 0 else { return }
        for key in ready[..<Int(count)] {
            let fd = Int32(bitPattern: UInt32(truncatingIfNeeded: key))
            if let child = children.first(where: { $0.inReadSet && ($0.pidfd == fd || $0.stderrFD == fd) }) {
                handle(fd, of: child)
            } else if leftovers.contains(fd) {
                drainLeftover(fd)
            }
        }
    }

    private func finishUnstarted(_ job: Job, reason: String) {
        observer?(.finished(job, pid: -1, status: .couldNotStart(reason), stderrTail: ""))
        startWaiting(for: job.key)
    }

    /// Reads a command's stderr, at most ``stderrReadsPerWake`` reads a wake-up: a
    /// command that writes without pause (`yes >&2`) never lets the pipe go empty, and
    /// would hold the loop.
    private func drainStderr(_ child: Child) {
        guard child.stderrFD >= 0 else { return }
        let ended = readPipe(child.stderrFD) { bytes in
            child.stderrTail.append(contentsOf: bytes)
            if child.stderrTail.count > Self.stderrTailLimit {
                child.stderrTail.removeFirst(child.stderrTail.count - Self.stderrTailLimit)
            }
        }
        guard ended else { return }
        shut(&child.stderrFD, of: child)
        if child.pidfd < 0 { reap(child) }
    }

    /// Reads the non-blocking pipe `fd` at most ``stderrReadsPerWake`` times, handing
    /// `keep` each read's bytes; whether the pipe reached its end (or failed) rather
    /// than ran dry.
    private func readPipe(_ fd: Int32, _ keep: (ArraySlice<UInt8>) -> Void) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        for _ in 0..<Self.stderrReadsPerWake {
            let count = read(fd, &buffer, buffer.count)
            if count > 0 {
                keep(buffer[..<count])
                continue
            }
            return !(count < 0 && (errno == EAGAIN || errno == EINTR))
        }
        return false
    }

    private func reap(_ child: Child) {
        var status: Int32 = 0
        let result = waitpid(child.pid, &status, WNOHANG)
        guard result == child.pid else { return }
        // Whatever the command wrote before it exited. With the daemon's write end closed,
        // the pipe reads to its end unless a process the command left behind holds it:
        // that pipe is not waited for, but read on as a leftover.
        if child.stderrWriteEnd >= 0 {
            close(child.stderrWriteEnd)
            child.stderrWriteEnd = -1
        }
        if child.stderrFD >= 0 {
            drainStderr(child)
            if child.stderrFD >= 0 {
                keepReading(child.stderrFD, joined: child.inReadSet)
                child.stderrFD = -1
            }
        }
        if child.pidfd >= 0 { shut(&child.pidfd, of: child) }
        children.removeAll { $0 === child }
        let exitStatus = child.timedOut ? .timedOut : Status(waitStatus: status)
        let tail = String(decoding: child.stderrTail, as: UTF8.self)
        observer?(.finished(child.job, pid: child.pid, status: exitStatus, stderrTail: tail))
        startWaiting(for: child.job.key)
    }

    /// Reads `fd`, an ended command's stderr pipe that something it left running still
    /// holds, until that closes it; `joined` when it is in ``readSet`` already. Closed at
    /// once if it cannot be watched.
    private func keepReading(_ fd: Int32, joined: Bool) {
        guard joined || join(fd) else {
            close(fd)
            return
        }
        leftovers.append(fd)
    }

    /// Reads a leftover pipe, the bytes dropped; closes it once its last writer has.
    private func drainLeftover(_ fd: Int32) {
        guard readPipe(fd, { _ in }) else { return }
        leave(fd)
        close(fd)
        leftovers.removeAll { $0 == fd }
    }

    /// Ended commands' stderr pipes still held open by what they left running.
    public var leftoverCount: Int { leftovers.count }

    private func startWaiting(for key: String) {
        guard !children.contains(where: { $0.job.key == key }),
              let index = waiting.firstIndex(where: { $0.key == key }) else { return }
        spawn(waiting.remove(at: index))
    }

    // MARK: What runs

    /// Most commands whose program is remembered; rules name a few dozen at most.
    static let launchCacheLimit = 256

    /// The program a job starts and its arguments.
    struct Launch: Equatable {
        var path: String
        var arguments: [String]
        /// Whether this is the command's own program rather than the shell.
        var direct: Bool
    }

    /// A plain command's own program when `searchPath` (the command's `PATH`) has it; the
    /// shell otherwise.
    func launch(for command: String, searchPath: String?) -> Launch {
        if let plain = DirectCommand(command),
           let path = Self.locate(plain.arguments[0], searchPath: searchPath) {
            return Launch(path: path, arguments: plain.arguments, direct: true)
        }
        return shellLaunch(command)
    }

    func shellLaunch(_ command: String) -> Launch {
        Launch(path: shell, arguments: [shell, "-c", command], direct: false)
    }

    /// Finds an executable regular file as the shell would: a name with a `/` as it is
    /// (relative to the working directory), any other name in each folder of `searchPath`
    /// in turn (an empty entry is the working directory). `nil` when there is none, or no
    /// `PATH`: then the shell runs the command and reports it.
    static func locate(_ name: String, searchPath: String?) -> String? {
        func isExecutableFile(_ path: String) -> Bool {
            var info = stat()
            return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
        }
        if name.contains("/") { return isExecutableFile(name) ? name : nil }
        guard let searchPath else { return nil }
        for folder in searchPath.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = folder.isEmpty ? name : "\(folder)/\(name)"
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    // MARK: Environment

    /// This process's environment (`environ`) as a dictionary: the base of every command's
    /// and stream's environment, and what the focus providers and `doctor` look at. An
    /// entry without `=` is skipped; of a name given twice, the later value wins.
    public static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}
