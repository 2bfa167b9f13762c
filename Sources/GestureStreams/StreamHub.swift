import CommandRunner
import Glibc
import PollLoop
import TextWire
import TouchGestures

/// Sends each rule's JSON lines to the rule's `stream` command and to every subscriber
/// of the events socket, inside the daemon's one poll loop, never blocking it.
///
/// A line goes out at once when the reader has room; otherwise it waits in the reader's
/// own queue, where a `changed` line replaces the previous `changed` of its rule (the
/// latest state wins) and every other line stays. Idle, the hub asks for no wake-up:
/// it polls only the commands' pidfds and the socket, and writes only when lines wait.
public final class StreamHub: PollSource {
    /// What the hub did, for the daemon's log.
    public enum Event: Sendable, Equatable {
        case started(rule: String, command: String, pid: Int32)
        case couldNotStart(rule: String, reason: String, retryIn: Duration)
        /// The command exited by itself; it starts again after `retryIn`.
        case exited(rule: String, pid: Int32, status: CommandRunner.Status, retryIn: Duration)
        /// The command stopped reading: `queued` lines waited. It is being stopped.
        case stuck(rule: String, pid: Int32, queued: Int)
        /// A stuck command is gone; it starts again after `retryIn`.
        case restarting(rule: String, pid: Int32, retryIn: Duration)
        /// A stream closed by a reload or shutdown has exited.
        case closed(rule: String, pid: Int32, status: CommandRunner.Status)
        /// The command `pid` was reaped with processes it started still in its group:
        /// they are being stopped (SIGTERM unless the group had it; SIGKILL at most
        /// ``StreamDefaults/killGrace`` later for any that stays).
        case leftBehind(rule: String, pid: Int32)
        case subscriberJoined(count: Int)
        /// A subscriber left (`reason` nil) or was dropped for `reason`.
        case subscriberLeft(count: Int, reason: String?)
        /// The socket could not accept a subscriber for `reason` (the errno text, e.g. too
        /// many open files); it is not polled until `retryIn` has passed.
        case acceptFailed(reason: String, retryIn: Duration)
        /// A subscriber past `limit` was refused (said once until one leaves).
        case subscriberRefused(limit: Int)
    }

    /// Called with every event.
    public var observer: ((Event) -> Void)?

    private let now: () -> Timestamp
    private let baseEnvironment: [String: String]
    // Read by the loop at every wake-up (collect, nextDeadline), on its one thread, and no
    // access to them overlaps another: no dynamic exclusivity check.
    /// Streams in force, by rule.
    @exclusivity(unchecked) private var streams: [String: StreamProcess] = [:]
    /// Streams of earlier rules, closing (until their commands and what those left in
    /// their groups are gone).
    @exclusivity(unchecked) private var closing: [StreamProcess] = []
    @exclusivity(unchecked) private var server: SubscriberServer?

    /// - Parameters:
    ///   - baseEnvironment: the environment stream commands start from (the daemon's own by default).
    ///   - now: the monotonic clock, in the same base as libinput's timestamps.
    public init(baseEnvironment: [String: String]? = nil, now: @escaping () -> Timestamp = PollScheduler.now) {
        self.now = now
        self.baseEnvironment = baseEnvironment ?? CommandRunner.processEnvironment()
        // A reader that goes away must be an EPIPE to handle, not a signal that kills the daemon.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Closes the socket and every descriptor of the commands (their stdin, so they read
    /// the end, and their pidfds). It waits for no command: ``shutdown(timeout:)`` is what
    /// stops and reaps them.
    deinit {
        server?.close()
        for stream in Array(streams.values) + closing { stream.child?.closeDescriptors() }
    }

    /// The socket path subscribers connect to, once ``listen(at:)`` succeeded.
    public var socketPath: String? { server?.path }

    /// Subscribers connected now.
    public var subscriberCount: Int { server?.subscribers.count ?? 0 }

    /// Rules whose stream command runs now (not backing off, not closing), with its pid;
    /// one that closed its stdin runs until it exits.
    public var runningStreams: [String: Int32] {
        streams.compactMapValues { stream in
            switch stream.phase {
            case let .running(child), let .inputClosed(child): child.pid
            case .idle, .stopping, .backingOff, .closing, .closed: nil
            }
        }
    }

    /// Streams of replaced rules still closing.
    public var closingCount: Int { closing.count }

    /// Serves subscribers at `path` (see ``defaultSocketPath(environment:)``). Throws a
    /// message naming the path when it cannot.
    public func listen(at path: String) throws(StreamError) {
        do {
            server = try SubscriberServer(path: path) { [weak self] event in self?.observer?(event) }
            if session != "unlocked" { server?.announce(Self.sessionLine(session), keep: true, now: now()) }
        } catch {
            throw StreamError(description: error.description)
        }
    }

    /// Puts these streams in force, one per rule: every stream running now is closed
    /// cleanly (its queued lines go out, then its stdin closes), and each of `commands`
    /// starts afresh.
    public func setStreams(_ commands: [(rule: String, command: String)]) {
        let time = now()
        for stream in streams.values {
            stream.close(now: time)
            if !stream.isClosed { closing.append(stream) }
        }
        streams.removeAll()
        for (rule, command) in commands {
            var environment = baseEnvironment
            environment["TOUCHGEST_RULE"] = rule
            let stream = StreamProcess(rule: rule, command: command, environment: environment) { [weak self] event in
                self?.observer?(event)
            }
            streams[rule] = stream
            stream.start(now: time)
        }
    }

    /// Whether a line of `rule` would go anywhere: to its stream or to a subscriber.
    public func wants(_ rule: String) -> Bool {
        // Asked at every update of every gesture: with no stream, the rule's name is not hashed.
        !(server?.subscribers.isEmpty ?? true) || !streams.isEmpty && streams[rule] != nil
    }

    /// Sends one line (without its newline) of `rule`. `coalescible`: a `changed` line,
    /// which a newer one may replace while it waits.
    public func publish(rule: String, line: String, coalescible: Bool) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        let time = now()
        streams[rule]?.send(bytes, coalescible: coalescible, now: time)
        server?.send(bytes, key: rule, coalescible: coalescible, now: time)
    }

    /// Tells every subscriber the session's state in one line, `{"v":1,"session":"locked"}`
    /// (`unlocked`, `locked`, `inactive`, `sleeping`), and, while it is not `unlocked`,
    /// every subscriber that joins from now on. Stream commands do not get it: a gesture
    /// under way already got its `cancelled` line.
    public func announceSession(_ condition: String) {
        server?.announce(Self.sessionLine(condition), keep: condition != "unlocked", now: now())
        session = condition
    }

    /// `{"v":1,"session":"locked"}` and its newline.
    private static func sessionLine(_ condition: String) -> [UInt8] {
        var line = JSONLine()
        line.add("v", 1)
        line.add("session", condition)
        return Array((line.text + "\n").utf8)
    }

    /// The last session line announced, for a server that starts later.
    private var session = "unlocked"

    /// For shutdown: stops serving subscribers (the socket file goes), closes every
    /// stream as a reload does, and waits until each command has exited, at most `timeout`
    /// (the commands get SIGTERM after ``StreamDefaults/closeGrace``, SIGKILL a second later),
    /// and until what they left in their groups got its SIGKILL, if the SIGTERM sent when
    /// the command was reaped found anything there. Returns whether all exited.
    @discardableResult
    public func shutdown(timeout: Duration = StreamDefaults.closeGrace + StreamDefaults.killGrace * 2) -> Bool {
        server?.close()
        server = nil
        setStreams([])
        let end = now() + timeout
        while !closing.isEmpty {
            let time = now()
            guard time < end else { return false }
            var limit = end - time
            if let deadline = nextDeadline { limit = min(limit, max(deadline - time, .zero)) }
            var interest = PollInterest()
            collect(&interest)
            var fds = interest.entries
            let milliseconds = Int32(clamping: (limit.wholeMicroseconds + 999) / 1_000)
            if poll(&fds, nfds_t(fds.count), milliseconds) > 0 {
                for entry in fds where entry.revents != 0 {
                    if entry.events & Int16(POLLIN) != 0 { handleReadable(entry.fd) }
                    if entry.events & Int16(POLLOUT) != 0 { handleWritable(entry.fd) }
                }
            }
            handleDeadlines()
        }
        return true
    }

    // MARK: PollSource

    private var all: [StreamProcess] { Array(streams.values) + closing }

    // The loop asks these at every wake-up: with no stream and no subscriber they make
    // nothing (scripts/measure-overhead).
    // Asked at every wake-up; most rules have no stream, and a loop over an empty
    // dictionary or array still retains and releases its storage: they are skipped.
    public func collect(_ interest: inout PollInterest) {
        server?.collect(&interest)
        if !streams.isEmpty { for stream in streams.values { stream.collect(&interest) } }
        if !closing.isEmpty { for stream in closing { stream.collect(&interest) } }
    }

    public var nextDeadline: Timestamp? {
        var next = server?.nextDeadline
        if !streams.isEmpty { for stream in streams.values { next = earliest(next, stream.nextDeadline) } }
        if !closing.isEmpty { for stream in closing { next = earliest(next, stream.nextDeadline) } }
        return next
    }

    public func handleReadable(_ fd: Int32) {
        if let server, server.owns(fd) { return server.handleReadable(fd, now: now()) }
        guard let stream = all.first(where: { $0.reportsExit(on: fd) }) else { return }
        stream.handleExit(now: now())
        closing.removeAll(where: \.isClosed)
    }

    public func handleWritable(_ fd: Int32) {
        if let server, server.owns(fd) { return server.handleWritable(fd, now: now()) }
        all.first { $0.child?.stdin == fd }?.handleWritable(now: now())
    }

    public func handleDeadlines() {
        let time = now()
        for stream in all { stream.handleDeadlines(now: time) }
        closing.removeAll(where: \.isClosed)
        server?.handleDeadlines(now: time)
    }

    // MARK: The socket's place

    /// `$XDG_RUNTIME_DIR/touchgest/events.sock`; nil without `XDG_RUNTIME_DIR` (then
    /// there is no private place for it).
    public static func defaultSocketPath(environment: [String: String]) -> String? {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        return runtime + "/touchgest/events.sock"
    }
}

/// Why streams or the events socket cannot work, for the log.
public struct StreamError: Error, Equatable, CustomStringConvertible {
    public var description: String
}
