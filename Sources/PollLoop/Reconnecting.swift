import TouchGestures

/// Why a try to connect failed, for the log.
public struct ConnectFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// How a ``Reconnecting`` source opens its link.
public enum Opener<Link> {
    /// Opens without blocking (a unix socket connects at once or not at all), and the link
    /// is connected at once.
    case inline(() -> Result<Link, ConnectFailure>)
    /// Opens without blocking, then shakes hands in the loop: the owner reads the link's
    /// descriptors and says ``Reconnecting/established()`` when the peer answered as it
    /// should, within the connect timeout.
    case handshake(() -> Result<Link, ConnectFailure>)
    /// Opens by blocking (a C library's connect and handshake: XCB's, libdbus's): on a
    /// thread of its own (``BackgroundAttempt``), within the connect timeout. `dispose`
    /// closes a link that comes after it was given up on, on that thread.
    case background(() -> Result<Link, ConnectFailure>, dispose: (Link) -> Void)
}

/// A connection's life, for every source that talks to a peer which may go away (a bus,
/// a desktop's socket, an X server, a compositor): stopped, connecting, connected, or
/// waiting to try again under its ``ReconnectPolicy``. Its owner supplies how to open a
/// link and close it, and which descriptors a link reads; it handles what they read.
///
/// Each try and each connection reads its descriptors under a serial of its own
/// (``DescriptorSerial``), made with it and kept in its phase: one link closed and the
/// next opened under the same number in one round of the loop are two registrations,
/// and no owner renews a serial by hand.
///
/// A connect given up on (past the timeout) whose thread has not returned is not joined
/// by a second one: every try fails at once until it returns, so a peer that never
/// answers costs one thread.
public final class Reconnecting<Link> {
    // What the loop asks of every source at every wake-up (collect, deadline, reads, the
    // link) is inlinable, so that each user's module gets it specialized for its own Link:
    // unspecialized, each of those calls looked up the metadata of Phase<Link> in the
    // runtime's cache, and cost more than a gesture update's own work
    // (scripts/measure-instructions: 30,000 instructions an update against 22,000).
    @usableFromInline struct Attempt {
        @usableFromInline var work: BackgroundAttempt<Result<Link, ConnectFailure>>
        @usableFromInline var deadline: Timestamp
        @usableFromInline var serial: UInt64
    }

    @usableFromInline enum Phase {
        case stopped
        /// A connect on its own thread.
        case connecting(Attempt)
        /// Opened, shaking hands in the loop until `deadline`.
        case handshaking(Link, deadline: Timestamp, serial: UInt64)
        case connected(Link, since: Timestamp, serial: UInt64)
        /// Tried again at `at`.
        case waiting(at: Timestamp)
        /// Never reached, and the policy says not to try again.
        case unreachable
    }

    public let policy: ReconnectPolicy
    /// How long connecting (a thread's connect, or a handshake) may take.
    public let connectTimeout: Duration
    private let opener: Opener<Link>
    private let closeLink: (Link) -> Void
    @usableFromInline let descriptors: (Link, (Int32) -> Void) -> Void
    /// Why a try fails at once, with no thread and nothing opened: nothing there to reach
    /// (no address, no socket file). Asked before each try of a ``Opener/background``.
    private let unreachable: () -> String?
    /// What the log says of a connect given up on.
    private let timedOut: String
    /// What the log says when no thread can be started for a connect.
    private let noThread: String
    private let clock: () -> Timestamp

    /// The link is connected (again): its owner asks what it needs.
    public var onConnected: (() -> Void)?
    /// The peer cannot be reached or went away: why, whether it is tried again, and
    /// whether a connection that was made broke (not a try that failed).
    public var onLost: ((_ why: String, _ retrying: Bool, _ broke: Bool) -> Void)?

    // Read at every wake-up by the loop, on its one thread, never while being written:
    // no dynamic exclusivity check (as GestureRecognizer.state).
    @exclusivity(unchecked) @usableFromInline var phase = Phase.stopped
    private var backoff: Backoff
    /// A connect given up on that has not returned: no second one beside it.
    private var stuck: BackgroundAttempt<Result<Link, ConnectFailure>>?
    /// Whether the peer was ever reached: only then is a failed try tried again, unless
    /// the policy tries one never reached.
    public private(set) var everConnected = false

    /// `descriptors` names, through its second argument, each descriptor a link reads
    /// while it is open (without allocating: it is asked before every wait).
    public init(policy: ReconnectPolicy, connectTimeout: Duration, open: Opener<Link>, close: @escaping (Link) -> Void,
                descriptors: @escaping (Link, (Int32) -> Void) -> Void, unreachable: @escaping () -> String? = { nil },
                timedOut: String, noThread: String = "cannot start a thread to connect",
                clock: @escaping () -> Timestamp = PollScheduler.now) {
        self.policy = policy
        self.connectTimeout = connectTimeout
        opener = open
        closeLink = close
        self.descriptors = descriptors
        self.unreachable = unreachable
        self.timedOut = timedOut
        self.noThread = noThread
        self.clock = clock
        backoff = Backoff(policy)
    }

    deinit { disconnect() }

    /// The first try, now.
    public func start() { connect() }

    /// The link while it is open (shaking hands or connected); the owner may change what
    /// it keeps in it.
    @inlinable public var link: Link? {
        get {
            switch phase {
            case let .handshaking(link, _, _), let .connected(link, _, _): link
            case .stopped, .connecting, .waiting, .unreachable: nil
            }
        }
        set {
            guard let newValue else { return }
            switch phase {
            case let .handshaking(_, deadline, serial): phase = .handshaking(newValue, deadline: deadline, serial: serial)
            case let .connected(_, since, serial): phase = .connected(newValue, since: since, serial: serial)
            case .stopped, .connecting, .waiting, .unreachable: break
            }
        }
    }

    /// The link once connected (past its handshake).
    @inlinable public var connected: Link? {
        if case let .connected(link, _, _) = phase { return link }
        return nil
    }

    @inlinable public var isConnected: Bool { connected != nil }

    /// The link while it shakes hands (``Opener/handshake``).
    @inlinable public var handshaking: Link? {
        if case let .handshaking(link, _, _) = phase { return link }
        return nil
    }

    /// Whether a connect is under way or due: the source has not settled yet.
    @inlinable public var isTrying: Bool {
        switch phase {
        case .connecting, .handshaking, .waiting: true
        case .stopped, .connected, .unreachable: false
        }
    }

    // MARK: Polling

    /// Reads, steadily, the attempt's descriptor while a thread connects, and the link's
    /// while it is open, each under the serial of its try or connection.
    @inlinable public func collect(_ interest: inout PollInterest) {
        switch phase {
        case let .connecting(attempt):
            interest.readSteadily(attempt.work.fd, serial: attempt.serial)
        case let .handshaking(link, _, serial), let .connected(link, _, serial):
            descriptors(link) { interest.readSteadily($0, serial: serial) }
        case .stopped, .waiting, .unreachable:
            break
        }
    }

    /// Whether `fd` is read now: the attempt's descriptor, or one of the link's.
    @inlinable public func reads(_ fd: Int32) -> Bool {
        switch phase {
        case let .connecting(attempt):
            return attempt.work.fd == fd
        case let .handshaking(link, _, _), let .connected(link, _, _):
            var found = false
            descriptors(link) { found = found || $0 == fd }
            return found
        case .stopped, .waiting, .unreachable:
            return false
        }
    }

    /// When the next try is due, or a connect is given up on; nil while connected.
    @inlinable public var deadline: Timestamp? {
        switch phase {
        case let .waiting(at): at
        case let .connecting(attempt): attempt.deadline
        case let .handshaking(_, deadline, _): deadline
        case .stopped, .connected, .unreachable: nil
        }
    }

    /// Tries again when the wait is over; gives up on a connect past its timeout.
    public func handleDeadlines() {
        let now = clock()
        switch phase {
        case let .waiting(at) where at <= now:
            connect()
        case let .connecting(attempt) where attempt.deadline <= now:
            attempt.work.abandon()
            stuck = attempt.work
            failed(timedOut)
        case let .handshaking(_, deadline, _) where deadline <= now:
            failed(timedOut)
        case .stopped, .connecting, .handshaking, .connected, .waiting, .unreachable:
            break
        }
    }

    /// Takes a thread's connect if it is done, and returns true while one runs: the
    /// owner has nothing to read. False while the link is open: its descriptors are the
    /// owner's to read.
    public func handleReadable() -> Bool {
        guard case let .connecting(attempt) = phase else { return false }
        switch attempt.work.take() {
        case nil: break
        case let .failure(failure)?: failed(failure.description)
        case let .success(link)?: enter { .connected(link, since: clock(), serial: $0) }
        }
        return true
    }

    /// The handshake is done: the link is connected.
    public func established() {
        guard case let .handshaking(link, _, serial) = phase else { return }
        phase = .connected(link, since: clock(), serial: serial)
        everConnected = true
        onConnected?()
    }

    /// The connection broke, or the try or its handshake failed, for `why`. A broken
    /// connection is tried again from the first wait if it had lasted, else after twice
    /// the last (a peer that keeps dropping touchgest is tried less and less often).
    public func lose(_ why: String) {
        switch phase {
        case let .connected(_, since, _):
            let delay = backoff.afterLoss(clock() - since)
            disconnect()
            phase = .waiting(at: clock() + delay)
            onLost?(why, true, true)
        case .connecting, .handshaking:
            failed(why)
        case .stopped, .waiting, .unreachable:
            break
        }
    }

    /// Closes what is open; no try follows.
    public func stop() { disconnect() }

    // MARK: Connecting

    private func connect() {
        disconnect()
        switch opener {
        case let .inline(open), let .handshake(open):
            switch open() {
            case let .failure(failure): failed(failure.description)
            case let .success(link):
                if case .inline = opener {
                    enter { .connected(link, since: clock(), serial: $0) }
                } else {
                    enter { .handshaking(link, deadline: clock() + connectTimeout, serial: $0) }
                }
            }
        case let .background(work, dispose):
            if let why = unreachable() { return failed(why) }
            if let stuck, stuck.isRunning { return failed(timedOut) }
            stuck = nil
            guard let attempt = BackgroundAttempt.start(work, dispose: { result in
                if case let .success(link) = result { dispose(link) }
            }) else {
                return failed(noThread)
            }
            enter { .connecting(Attempt(work: attempt, deadline: clock() + connectTimeout, serial: $0)) }
        }
    }

    /// The one way into a phase that reads a descriptor: each try and each connection
    /// gets a serial no descriptor has had, kept in its phase.
    private func enter(_ next: (_ serial: UInt64) -> Phase) {
        phase = next(DescriptorSerial.next())
        guard case .connected = phase else { return }
        everConnected = true
        onConnected?()
    }

    /// A try failed: tried again after the next wait if the peer was reached before, or
    /// the policy tries one never reached.
    private func failed(_ why: String) {
        disconnect()
        if everConnected || policy.triesUnreached {
            phase = .waiting(at: clock() + backoff.afterFailedTry())
            onLost?(why, true, false)
        } else {
            phase = .unreachable
            onLost?(why, false, false)
        }
    }

    private func disconnect() {
        switch phase {
        case let .handshaking(link, _, _), let .connected(link, _, _): closeLink(link)
        case let .connecting(attempt): attempt.work.abandon()
        case .stopped, .waiting, .unreachable: break
        }
        phase = .stopped
    }
}
