import CDBus
import Glibc
import PollLoop
import TouchGestures

/// A signal a ``BusLink`` received: who sent it, where, and its arguments.
public struct BusSignal {
    public var sender: String
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [BusValue]
}

/// Why a call failed: the error's name and message, or the connection closing.
public struct BusError: Error, CustomStringConvertible {
    public var name: String
    public var message: String

    public var description: String { message.isEmpty ? name : "\(name): \(message)" }
}

/// One connection to one bus (the system bus for logind; the session bus for the
/// screensaver and KDE's global shortcuts), inside the daemon's loop.
///
/// libdbus connects, says Hello and adds match rules only by blocking, so that part runs
/// on a thread of its own (``BackgroundAttempt``) and the loop waits on its descriptor, for
/// at most ``BusDefaults/connectTimeout``. Every call after that is sent without
/// waiting, and its answer is matched by serial. While connected the link has no deadline.
///
/// A bus that was reached and went away is tried again, after 100 ms doubling up to 2 s
/// (``BusDefaults``); one never reached is not: on a system without it, it is not
/// coming, and trying would wake an idle daemon for ever.
public final class BusLink {
    /// `system bus`, `session bus`: for messages.
    public let name: String
    /// The bus's address; empty when there is none to try.
    public let address: String
    /// Match rules added while connecting, before anything else is asked.
    public let matchRules: [String]
    public let connectTimeout: Duration

    /// The link is connected (again): ask what you need.
    public var onConnected: (() -> Void)?
    /// A signal came.
    public var onSignal: ((BusSignal) -> Void)?
    /// The bus cannot be reached or went away: why, and whether the link tries again.
    public var onLost: ((String, _ retrying: Bool) -> Void)?

    private typealias Reply = (Result<[BusValue], BusError>) -> Void

    private struct Connection {
        var bus: OpaquePointer
        var fd: Int32
        var calls: [UInt32: Reply] = [:]
    }

    private struct Opened {
        var bus: OpaquePointer
        var fd: Int32
    }

    /// A connect running on its own thread, with when it is given up on.
    private struct Pending {
        var attempt: BackgroundAttempt<Result<Opened, BusError>>
        var deadline: Timestamp
    }

    private enum Phase {
        case stopped
        case connecting(Pending)
        case connected(Connection)
        /// Gone after having been there: tried again at `at`.
        case waiting(at: Timestamp)
        /// Never reached: not tried again.
        case unreachable
    }

    private var phase = Phase.stopped
    /// Whether the bus was ever reached: only then is a failed connect tried again.
    public private(set) var everConnected = false
    /// The wait before the next try while the bus is gone.
    private var retryDelay = BusDefaults.firstRetry
    /// A connect given up on that has not returned: no second one is started beside it.
    private var stuck: BackgroundAttempt<Result<Opened, BusError>>?
    /// Messages are left in libdbus's queue: handled again at once.
    private var backlog = false
    /// libdbus closed the connection's socket (a write failed); the link is lost at its
    /// next drain, and until then does not read the socket's number.
    private var socketClosed = false
    /// When the connection in force was made: one that lasted
    /// ``BusDefaults/stableConnection`` starts the retries over when it breaks.
    private var connectedAt: Timestamp?

    public init(name: String, address: String, matchRules: [String], connectTimeout: Duration = BusDefaults.connectTimeout) {
        self.name = name
        self.address = address
        self.matchRules = matchRules
        self.connectTimeout = connectTimeout
    }

    deinit { disconnect() }

    public var isConnected: Bool {
        if case .connected = phase { return true }
        return false
    }

    /// Whether a connect is under way or due: the link has not settled yet.
    public var isTrying: Bool {
        switch phase {
        case .connecting, .waiting: true
        case .stopped, .connected, .unreachable: false
        }
    }

    /// Calls sent and not answered yet.
    public var pendingCalls: Int {
        if case let .connected(connection) = phase { return connection.calls.count }
        return 0
    }

    public func start() {
        connect()
    }

    // MARK: Polling

    /// The serial of what is read now, new for each attempt and each connection
    /// (``DescriptorSerial``): the loop then registers afresh a descriptor that took the
    /// number of another.
    private var descriptorSerial: UInt64 = 0

    /// The bus connection, or the attempt at one: what is read now.
    private var descriptor: Int32? {
        switch phase {
        case let .connected(connection): socketClosed ? nil : connection.fd
        case let .connecting(pending): pending.attempt.fd
        case .stopped, .waiting, .unreachable: nil
        }
    }

    /// The connection's descriptor, or the attempt's, steadily, so that a connected bus
    /// (logind's, on every desktop) keeps the loop on its epoll set. Each stays open under
    /// its number while the link reads it: libdbus closes a connection's socket only when
    /// reading or writing fails, and the link then counts itself lost at its next drain
    /// (``flush(_:)``, ``drain()``).
    public func collect(_ interest: inout PollInterest) {
        if let descriptor { interest.readSteadily(descriptor, serial: descriptorSerial) }
    }

    public var deadline: Timestamp? {
        switch phase {
        case let .waiting(at): at
        case let .connecting(pending): pending.deadline
        case .connected: backlog ? PollScheduler.now() : nil
        case .stopped, .unreachable: nil
        }
    }

    public func owns(_ fd: Int32) -> Bool {
        descriptor == fd
    }

    public func handleReadable() {
        if case let .connecting(pending) = phase {
            switch pending.attempt.take() {
            case nil: break
            case let .failure(error)?: failed(error.description)
            case let .success(opened)?: follow(opened)
            }
            return
        }
        guard case let .connected(connection) = phase else { return }
        guard dbus_connection_read_write(connection.bus, 0) != 0 else {
            lose("the \(name) closed the connection")
            return
        }
        drain()
    }

    public func handleDeadlines() {
        let now = PollScheduler.now()
        switch phase {
        case let .waiting(at) where at <= now:
            connect()
        case let .connecting(pending) where pending.deadline <= now:
            pending.attempt.abandon()
            stuck = pending.attempt
            failed("the \(name) at \(address) did not answer within \(shown(connectTimeout))")
        case .connected where backlog:
            drain()
        case .waiting, .connecting, .connected, .stopped, .unreachable:
            break
        }
    }

    // MARK: Connecting

    private func connect() {
        disconnect()
        guard !address.isEmpty else {
            phase = .unreachable
            onLost?("no \(name)", false)
            return
        }
        if let stuck, stuck.isRunning {
            failed("the \(name) at \(address) did not answer within \(shown(connectTimeout))")
            return
        }
        stuck = nil
        // A socket that is not there is said at once, with no thread: the usual case on a
        // system without the bus, whose daemon should then cost nothing at all.
        if let path = Self.socketPath(address), access(path, F_OK) != 0 {
            failed("cannot reach the \(name) at \(address): \(path): \(String(cString: strerror(errno)))")
            return
        }
        let (address, name, rules) = (address, name, matchRules)
        guard let attempt = BackgroundAttempt.start({ Self.open(address, name, rules) }, dispose: { result in
            if case let .success(opened) = result { Self.close(opened.bus) }
        }) else {
            failed("cannot start a thread to connect to the \(name)")
            return
        }
        phase = .connecting(Pending(attempt: attempt, deadline: PollScheduler.now() + connectTimeout))
        descriptorSerial = DescriptorSerial.next()
    }

    /// The socket file of a plain `unix:path=PATH` address; nil for any other (an
    /// abstract socket, several addresses, escaped characters), which only libdbus reads.
    static func socketPath(_ address: String) -> String? {
        guard address.hasPrefix("unix:path="), !address.contains(";"), !address.contains("%") else { return nil }
        let path = address.dropFirst("unix:path=".count).prefix { $0 != "," }
        return path.isEmpty ? nil : String(path)
    }

    /// Connects, says Hello and adds the match rules: every round trip of connecting, on
    /// the attempt's thread.
    private static func open(_ address: String, _ name: String, _ rules: [String]) -> Result<Opened, BusError> {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let bus = dbus_connection_open_private(address, &error) else {
            return .failure(BusError(name: "cannot reach the \(name) at \(address)", message: text(error.message)))
        }
        dbus_connection_set_exit_on_disconnect(bus, 0)
        func fail(_ why: String) -> Result<Opened, BusError> {
            let failure = BusError(name: why, message: text(error.message))
            close(bus)
            return .failure(failure)
        }
        guard dbus_bus_register(bus, &error) != 0 else { return fail("the \(name) at \(address) refused touchgest") }
        for rule in rules {
            dbus_bus_add_match(bus, rule, &error)
            if dbus_error_is_set(&error) != 0 { return fail("the \(name) at \(address) refused a match rule") }
        }
        var fd: Int32 = -1
        guard dbus_connection_get_unix_fd(bus, &fd) != 0 else { return fail("the \(name) at \(address) has no descriptor") }
        return .success(Opened(bus: bus, fd: fd))
    }

    private func follow(_ opened: Opened) {
        phase = .connected(Connection(bus: opened.bus, fd: opened.fd))
        descriptorSerial = DescriptorSerial.next()
        everConnected = true
        connectedAt = PollScheduler.now()
        onConnected?()
        // The calls made while connecting read whatever came with their answers into
        // libdbus's queue, which the descriptor does not show.
        drain()
    }

    /// A connect failed: tried again only if the bus was there before.
    private func failed(_ why: String) {
        disconnect()
        if everConnected {
            phase = .waiting(at: PollScheduler.now() + retryDelay)
            retryDelay = min(retryDelay * 2, BusDefaults.maximumRetry)
            onLost?(why, true)
        } else {
            phase = .unreachable
            onLost?(why, false)
        }
    }

    /// The connection broke: tried again, from the first retry if it had lasted (a bus that
    /// keeps dropping touchgest is tried less and less often, up to the longest wait).
    private func lose(_ why: String) {
        let now = PollScheduler.now()
        if let connectedAt, now - connectedAt >= BusDefaults.stableConnection { retryDelay = BusDefaults.firstRetry }
        disconnect()
        phase = .waiting(at: PollScheduler.now() + retryDelay)
        retryDelay = min(retryDelay * 2, BusDefaults.maximumRetry)
        onLost?(why, true)
    }

    private func disconnect() {
        switch phase {
        case let .connected(connection): Self.close(connection.bus)
        case let .connecting(pending): pending.attempt.abandon()
        case .stopped, .waiting, .unreachable: break
        }
        phase = .stopped
        backlog = false
        socketClosed = false
        connectedAt = nil
    }

    private static func close(_ bus: OpaquePointer) {
        dbus_connection_close(bus)
        dbus_connection_unref(bus)
    }

    // MARK: Messages

    /// Sends a method call; its answer (or error) comes to `reply`. Nothing is sent, and
    /// `reply` is never called, while the link is not connected: the one who asks asks
    /// again when ``onConnected`` says it is.
    public func call(_ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [BusArgument] = [],
              reply: @escaping (Result<[BusValue], BusError>) -> Void) {
        guard case var .connected(connection) = phase,
              let message = dbus_message_new_method_call(destination, path, interface, member) else { return }
        defer { dbus_message_unref(message) }
        // touchgest never starts a service: one that is not running is waited for.
        dbus_message_set_auto_start(message, 0)
        BusArgument.append(arguments, to: message)
        var serial: UInt32 = 0
        guard dbus_connection_send(connection.bus, message, &serial) != 0 else {
            lose("cannot send to the \(name)")
            return
        }
        flush(connection)
        connection.calls[serial] = reply
        phase = .connected(connection)
    }

    /// Adds a match rule without waiting for the bus to confirm it. The bus handles a
    /// connection's messages in order, so a call sent after it is answered only once the
    /// rule is in force: no signal between the two is lost.
    public func addMatch(_ rule: String) {
        call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "AddMatch", [.string(rule)]) { _ in }
    }

    /// Removes a match rule added with ``addMatch(_:)``, without waiting.
    public func removeMatch(_ rule: String) {
        call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RemoveMatch", [.string(rule)]) { _ in }
    }

    /// Writes out what libdbus holds for the bus. When a write fails, libdbus closes the
    /// socket itself, and a descriptor closed that way leaves the loop's epoll set in
    /// silence: the link would wait on it for ever. So the loop comes back at once
    /// (``backlog``), and ``drain()`` finds the connection gone there, not in the middle
    /// of whatever sent.
    private func flush(_ connection: Connection) {
        dbus_connection_flush(connection.bus)
        if dbus_connection_get_is_connected(connection.bus) == 0 {
            backlog = true
            // Its number may be another's by the next wait: it is no longer read.
            socketClosed = true
        }
    }

    /// Handles the messages libdbus has, at most ``BusDefaults/messagesPerWake`` a
    /// wake-up; the rest make the loop come back at once (``backlog``).
    private func drain() {
        backlog = false
        var handled = 0
        while case let .connected(connection) = phase {
            guard handled < BusDefaults.messagesPerWake else {
                backlog = true
                return
            }
            guard let message = dbus_connection_pop_message(connection.bus) else {
                if dbus_connection_get_is_connected(connection.bus) == 0 { lose("the \(name) closed the connection") }
                return
            }
            handled += 1
            handle(message)
            dbus_message_unref(message)
        }
    }

    private func handle(_ message: OpaquePointer) {
        guard case var .connected(connection) = phase else { return }
        switch Int(dbus_message_get_type(message)) {
        case Int(CDBUS_MESSAGE_TYPE_METHOD_RETURN), Int(CDBUS_MESSAGE_TYPE_ERROR):
            guard let reply = connection.calls.removeValue(forKey: dbus_message_get_reply_serial(message)) else { return }
            phase = .connected(connection)
            let arguments = BusValue.arguments(of: message)
            if Int(dbus_message_get_type(message)) == Int(CDBUS_MESSAGE_TYPE_ERROR) {
                // The last line, at most 300 bytes: a service in Python may send a whole
                // traceback, whose last line is the error.
                let text = (arguments.first?.text?.split(separator: "\n").last.map(String.init) ?? "").prefix(utf8Bytes: 300)
                reply(.failure(BusError(name: Self.text(dbus_message_get_error_name(message)), message: text)))
            } else {
                reply(.success(arguments))
            }
        case Int(CDBUS_MESSAGE_TYPE_SIGNAL):
            let signal = BusSignal(sender: Self.text(dbus_message_get_sender(message)), path: Self.text(dbus_message_get_path(message)),
                                   interface: Self.text(dbus_message_get_interface(message)),
                                   member: Self.text(dbus_message_get_member(message)), arguments: BusValue.arguments(of: message))
            if signal.interface == "org.freedesktop.DBus.Local" && signal.member == "Disconnected" {
                lose("the \(name) closed the connection")
            } else {
                onSignal?(signal)
            }
        case Int(CDBUS_MESSAGE_TYPE_METHOD_CALL):
            // touchgest offers nothing here: say so, rather than leave the caller waiting.
            guard dbus_message_get_no_reply(message) == 0,
                  let answer = dbus_message_new_error(message, "org.freedesktop.DBus.Error.UnknownMethod", "touchgest offers no methods here")
            else { return }
            dbus_connection_send(connection.bus, answer, nil)
            dbus_message_unref(answer)
            flush(connection)
        default:
            break
        }
    }

    private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }
}

/// A wait as messages say it: "5 s", "200 ms".
public func shown(_ duration: Duration) -> String {
    let milliseconds = duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
    return milliseconds % 1_000 == 0 ? "\(milliseconds / 1_000) s" : "\(milliseconds) ms"
}
