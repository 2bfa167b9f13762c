import CDBus
import Glibc
import PollLoop
import TextWire
import TouchGestures

/// Who sent a signal or a method call and what it claims to be, read before its body: a
/// ``BusLink`` decodes the arguments only of a message its owner trusts (``BusLink/trusts``,
/// ``BusLink/onMethodCall``).
public struct BusHeader: Hashable, Sendable {
    /// The sender's unique name, as the bus daemon wrote it (a peer cannot forge it).
    public var sender: String
    public var path: String
    public var interface: String
    public var member: String

    public init(sender: String, path: String, interface: String, member: String) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
    }
}

/// A signal a ``BusLink`` received from a sender it trusts: who, where, and its arguments.
public struct BusSignal {
    public var header: BusHeader
    public var arguments: [BusValue]

    public var sender: String { header.sender }
    public var path: String { header.path }
    public var interface: String { header.interface }
    public var member: String { header.member }
}

/// Why a call failed: the error's name and message, or the connection closing.
public struct BusError: Error, CustomStringConvertible {
    public var name: String
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { message.isEmpty ? name : name.isEmpty ? message : "\(name): \(message)" }

    /// The error of a call given up on (``BusDefaults/callTimeout``), named as libdbus names
    /// its own.
    public static let noReply = "org.freedesktop.DBus.Error.NoReply"

    /// Whether the call went unanswered.
    public var isNoReply: Bool { name == Self.noReply }

    /// Whether the peer is not there to take the call: no one owns its name, or it has no
    /// such object, interface or method (a GNOME Shell extension disabled, not installed or
    /// older than the call).
    public var isAbsent: Bool {
        ["org.freedesktop.DBus.Error.UnknownMethod", "org.freedesktop.DBus.Error.UnknownObject",
         "org.freedesktop.DBus.Error.UnknownInterface", "org.freedesktop.DBus.Error.ServiceUnknown"].contains(name)
    }
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
    /// A well-known name touchgest takes while connecting (`org.touchgest.Focus`, for
    /// KWin's script to call); connecting fails if another program has it.
    public let ownedName: String?
    /// What touchgest reads of one message from a peer it trusts.
    public let bounds: BusValue.Bounds
    /// When to connect again.
    public let policy: ReconnectPolicy
    public let connectTimeout: Duration
    /// How long a call may wait for its answer (``BusDefaults/callTimeout``).
    public let callTimeout: Duration

    /// The link is connected (again): ask what you need.
    public var onConnected: (() -> Void)?
    /// Whether a signal is from whom it claims to be, asked before its body is read: the
    /// current owner of the name it speaks for. Signals of the bus itself
    /// (`org.freedesktop.DBus`) are taken only from the bus, and signals addressed to
    /// touchgest alone (unicast: they skip match rules, and any user may send them on the
    /// system bus) never, whatever this says. Unset, no other signal is taken.
    public var trusts: ((BusHeader) -> Bool)?
    /// Whether a signal addressed to touchgest alone is one it asked a peer for (GNOME
    /// Shell's extension tells the modifier keys held only to who asked, never to the whole
    /// bus); such a signal is then taken from whom ``trusts`` names, and from no one else.
    /// Unset, none is.
    public var takesAddressed: ((BusHeader) -> Bool)?
    /// A signal came from a sender ``trusts`` accepted.
    public var onSignal: ((BusSignal) -> Void)?
    /// A method call came: handled if this returns true, after reading the arguments (nil
    /// when past ``bounds``) only if it wants them; answered with an empty reply then, and
    /// with an error naming the method otherwise. Unset, touchgest offers no methods.
    public var onMethodCall: ((BusHeader, _ arguments: () -> [BusValue]?) -> Bool)?
    /// The bus cannot be reached or went away: why, and whether the link tries again.
    /// `broke` when a connection that was made broke, not when a try to connect failed.
    public var onLost: ((String, _ retrying: Bool, _ broke: Bool) -> Void)?

    private typealias Reply = (Result<[BusValue], BusError>) -> Void

    /// A call sent: what to do with its answer, and when it is given up on.
    private struct Call {
        var member: String
        var reply: Reply
        var deadline: Timestamp
    }

    /// An open connection: libdbus's, and its socket.
    private struct Bus {
        var bus: OpaquePointer
        var fd: Int32
    }

    /// The connection's life: connected on a thread, tried again under ``policy``.
    private let connection: Reconnecting<Bus>
    /// The calls sent on the connection in force and not answered yet.
    private var calls: [UInt32: Call] = [:]
    /// Messages are left in libdbus's queue: handled again at once.
    private var backlog = false
    /// libdbus closed the connection's socket (a write failed); the link is lost at its
    /// next drain, and until then does not read the socket's number.
    private var socketClosed = false

    /// Whether the bus was ever reached: only then is a failed connect tried again, unless
    /// the policy says to try one never reached too.
    public var everConnected: Bool { connection.everConnected }

    public init(name: String, address: String, matchRules: [String], ownedName: String? = nil,
                bounds: BusValue.Bounds = BusDefaults.messageBounds, policy: ReconnectPolicy = BusDefaults.reconnect,
                connectTimeout: Duration = BusDefaults.connectTimeout, callTimeout: Duration = BusDefaults.callTimeout) {
        self.name = name
        self.address = address
        self.matchRules = matchRules
        self.ownedName = ownedName
        self.bounds = bounds
        self.policy = policy
        self.connectTimeout = connectTimeout
        self.callTimeout = callTimeout
        let rules = matchRules
        connection = Reconnecting(
            policy: policy, connectTimeout: connectTimeout,
            open: .background({ Self.open(address, name, rules, ownedName) }, dispose: { Self.close($0.bus) }),
            close: { Self.close($0.bus) }, descriptors: { bus, read in read(bus.fd) },
            unreachable: {
                guard !address.isEmpty else { return "no \(name)" }
                // A socket that is not there is said at once, with no thread: the usual
                // case on a system without the bus, whose daemon should then cost nothing.
                if let path = Self.socketPath(address), access(path, F_OK) != 0 {
                    return "cannot reach the \(name) at \(address): \(path): \(String(cString: strerror(errno)))"
                }
                return nil
            },
            timedOut: "the \(name) at \(address) did not answer within \(shown(connectTimeout))",
            noThread: "cannot start a thread to connect to the \(name)")
        connection.onConnected = { [unowned self] in follow() }
        connection.onLost = { [unowned self] why, retrying, broke in
            calls = [:]
            backlog = false
            socketClosed = false
            onLost?(why, retrying, broke)
        }
    }

    public var isConnected: Bool { connection.isConnected }

    /// Whether a connect is under way or due: the link has not settled yet.
    public var isTrying: Bool { connection.isTrying }

    /// Calls sent and not answered yet.
    public var pendingCalls: Int { calls.count }

    /// touchgest's unique name on the bus while connected (`:1.42`).
    public var uniqueName: String? {
        guard let bus = connection.connected, let name = dbus_bus_get_unique_name(bus.bus) else { return nil }
        return String(cString: name)
    }

    /// Signals dropped unread since the link was made: addressed to touchgest alone, or
    /// from a sender it does not trust. Not said in the log: anyone can send them.
    public private(set) var signalsRefused = 0

    public func start() {
        connection.start()
    }

    // MARK: Polling

    /// The connection's descriptor, or the attempt's, steadily, so that a connected bus
    /// (logind's, on every desktop) keeps the loop on its epoll set. Each stays open under
    /// its number while the link reads it: libdbus closes a connection's socket only when
    /// reading or writing fails, and the link then counts itself lost at its next drain
    /// (``flush(_:)``, ``drain()``).
    public func collect(_ interest: inout PollInterest) {
        if !socketClosed { connection.collect(&interest) }
    }

    public var deadline: Timestamp? {
        guard connection.isConnected else { return connection.deadline }
        return backlog ? PollScheduler.now() : calls.values.lazy.map(\.deadline).min()
    }

    public func owns(_ fd: Int32) -> Bool {
        !socketClosed && connection.reads(fd)
    }

    public func handleReadable() {
        guard !connection.handleReadable(), let bus = connection.connected else { return }
        guard dbus_connection_read_write(bus.bus, 0) != 0 else {
            lose("the \(name) closed the connection")
            return
        }
        drain()
    }

    public func handleDeadlines() {
        guard connection.isConnected else { return connection.handleDeadlines() }
        if backlog { drain() } else { expireCalls(PollScheduler.now()) }
    }

    /// Calls whose answer is overdue are answered with an error: a peer that owns its name
    /// and never answers (a hung service) is said, not waited on for ever.
    private func expireCalls(_ now: Timestamp) {
        let overdue = calls.filter { $0.value.deadline <= now }.sorted { $0.key < $1.key }
        guard !overdue.isEmpty else { return }
        for (serial, _) in overdue { calls[serial] = nil }
        for (_, call) in overdue {
            call.reply(.failure(BusError(name: BusError.noReply, message: "no answer to \(call.member) within \(shown(callTimeout))")))
        }
    }

    // MARK: Connecting

    /// The socket file of a plain `unix:path=PATH` address; nil for any other (an
    /// abstract socket, several addresses, escaped characters), which only libdbus reads.
    static func socketPath(_ address: String) -> String? {
        guard address.hasPrefix("unix:path="), !address.contains(";"), !address.contains("%") else { return nil }
        let path = address.dropFirst("unix:path=".count).prefix { $0 != "," }
        return path.isEmpty ? nil : String(path)
    }

    /// Connects, says Hello, takes the name and adds the match rules: every round trip of
    /// connecting, on the attempt's thread.
    private static func open(_ address: String, _ name: String, _ rules: [String], _ owned: String?) -> Result<Bus, ConnectFailure> {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        func failure(_ why: String) -> ConnectFailure {
            ConnectFailure(BusError(name: why, message: text(error.message)).description)
        }
        guard let bus = dbus_connection_open_private(address, &error) else {
            return .failure(failure("cannot reach the \(name) at \(address)"))
        }
        dbus_connection_set_exit_on_disconnect(bus, 0)
        func fail(_ why: String) -> Result<Bus, ConnectFailure> {
            let reason = failure(why)
            close(bus)
            return .failure(reason)
        }
        guard dbus_bus_register(bus, &error) != 0 else { return fail("the \(name) at \(address) refused touchgest") }
        if let owned {
            let result = dbus_bus_request_name(bus, owned, UInt32(CDBUS_NAME_FLAG_DO_NOT_QUEUE), &error)
            guard result == CDBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER || result == CDBUS_REQUEST_NAME_REPLY_ALREADY_OWNER else {
                return fail("\(owned) is taken on the \(name) (another touchgest?)")
            }
        }
        for rule in rules {
            dbus_bus_add_match(bus, rule, &error)
            if dbus_error_is_set(&error) != 0 { return fail("the \(name) at \(address) refused a match rule") }
        }
        var fd: Int32 = -1
        guard dbus_connection_get_unix_fd(bus, &fd) != 0 else { return fail("the \(name) at \(address) has no descriptor") }
        return .success(Bus(bus: bus, fd: fd))
    }

    private func follow() {
        calls = [:]
        backlog = false
        socketClosed = false
        onConnected?()
        // The calls made while connecting read whatever came with their answers into
        // libdbus's queue, which the descriptor does not show.
        drain()
    }

    /// The connection broke: tried again, from the first retry if it had lasted (a bus that
    /// keeps dropping touchgest is tried less and less often).
    public func lose(_ why: String) {
        connection.lose(why)
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
        guard let bus = connection.connected,
              let message = dbus_message_new_method_call(destination, path, interface, member) else { return }
        defer { dbus_message_unref(message) }
        // touchgest never starts a service: one that is not running is waited for.
        dbus_message_set_auto_start(message, 0)
        BusArgument.append(arguments, to: message)
        var serial: UInt32 = 0
        guard dbus_connection_send(bus.bus, message, &serial) != 0 else {
            lose("cannot send to the \(name)")
            return
        }
        flush(bus)
        calls[serial] = Call(member: member, reply: reply, deadline: PollScheduler.now() + callTimeout)
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
    private func flush(_ bus: Bus) {
        dbus_connection_flush(bus.bus)
        if dbus_connection_get_is_connected(bus.bus) == 0 {
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
        let refusedBefore = signalsRefused
        while let bus = connection.connected {
            guard handled < BusDefaults.messagesPerWake else {
                backlog = true
                return
            }
            guard let message = dbus_connection_pop_message(bus.bus) else {
                if dbus_connection_get_is_connected(bus.bus) == 0 { lose("the \(name) closed the connection") }
                // glibc keeps what it freed of a big message (libdbus reads each whole),
                // and another user decides how big: given back once the queue is empty.
                if signalsRefused != refusedBefore { trimHeap() }
                return
            }
            handled += 1
            handle(message)
            dbus_message_unref(message)
        }
    }

    private func handle(_ message: OpaquePointer) {
        guard let bus = connection.connected else { return }
        switch Int(dbus_message_get_type(message)) {
        case Int(CDBUS_MESSAGE_TYPE_METHOD_RETURN), Int(CDBUS_MESSAGE_TYPE_ERROR):
            // The bus lets through only answers to calls touchgest made, from whom it asked.
            guard let call = calls.removeValue(forKey: dbus_message_get_reply_serial(message)) else { return }
            guard let arguments = BusValue.arguments(of: message, within: bounds) else {
                let sender = Self.text(dbus_message_get_sender(message))
                lose("\(sender) answered \(call.member) with more than touchgest reads (\(bounds))")
                return
            }
            if Int(dbus_message_get_type(message)) == Int(CDBUS_MESSAGE_TYPE_ERROR) {
                // The last line, at most 300 bytes: a service in Python may send a whole
                // traceback, whose last line is the error.
                let text = (arguments.first?.text?.split(separator: "\n").last.map(String.init) ?? "").prefix(utf8Bytes: 300)
                call.reply(.failure(BusError(name: Self.text(dbus_message_get_error_name(message)), message: text)))
            } else {
                call.reply(.success(arguments))
            }
        case Int(CDBUS_MESSAGE_TYPE_SIGNAL):
            let header = BusHeader(sender: Self.text(dbus_message_get_sender(message)), path: Self.text(dbus_message_get_path(message)),
                                         interface: Self.text(dbus_message_get_interface(message)),
                                         member: Self.text(dbus_message_get_member(message)))
            if header.interface == "org.freedesktop.DBus.Local" && header.member == "Disconnected" {
                lose("the \(name) closed the connection")
                return
            }
            guard admits(header, addressed: dbus_message_get_destination(message) != nil) else {
                signalsRefused += 1
                return
            }
            guard let arguments = BusValue.arguments(of: message, within: bounds) else {
                // A sender touchgest trusts, past what it reads: a broken or hijacked
                // service. Dropped and connected again, with back-off, said once.
                lose("\(header.sender) sent \(header.interface).\(header.member) with more than touchgest reads (\(bounds))")
                return
            }
            onSignal?(BusSignal(header: header, arguments: arguments))
        case Int(CDBUS_MESSAGE_TYPE_METHOD_CALL):
            let header = BusHeader(sender: Self.text(dbus_message_get_sender(message)), path: Self.text(dbus_message_get_path(message)),
                                   interface: Self.text(dbus_message_get_interface(message)),
                                   member: Self.text(dbus_message_get_member(message)))
            let bounds = bounds
            let handled = onMethodCall?(header) { BusValue.arguments(of: message, within: bounds) } ?? false
            // Answered either way, rather than leave the caller waiting.
            guard connection.isConnected, dbus_message_get_no_reply(message) == 0,
                  let answer = handled ? dbus_message_new_method_return(message)
                      : dbus_message_new_error(message, "org.freedesktop.DBus.Error.UnknownMethod",
                                               "touchgest has no method \(header.interface).\(header.member) here")
            else { return }
            dbus_connection_send(bus.bus, answer, nil)
            dbus_message_unref(answer)
            flush(bus)
        default:
            break
        }
    }

    /// Whether a signal is read at all. Signals addressed to touchgest alone are not, but
    /// for those it asked for (``takesAddressed``): every other signal it follows is
    /// broadcast, through a match rule naming its sender, while a unicast one skips match
    /// rules and, on the system bus, may come from any user. The bus's own signals are
    /// taken only from the bus (never addressed); the rest only from whom ``trusts`` names.
    private func admits(_ header: BusHeader, addressed: Bool) -> Bool {
        guard !addressed || (header.interface != Self.busName && takesAddressed?(header) == true) else { return false }
        if header.interface == Self.busName { return header.sender == Self.busName }
        return trusts?(header) ?? false
    }

    /// The bus daemon's own name, interface and sender of its signals.
    public static let busName = "org.freedesktop.DBus"

    private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }
}

