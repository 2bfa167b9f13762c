import CDBus
import Glibc
import PollLoop
import TouchGestures

/// The names touchgest and its desktop helpers speak on the session bus.
public enum DBusFocusNames {
    /// The name touchgest owns for KWin's script to call (KDE only).
    public static let service = "org.touchgest.Focus"
    /// The object: touchgest's for KWin's script, the extension's in GNOME Shell.
    public static let path = "/org/touchgest/Focus"
    /// KDE: touchgest's method `WindowActivated(s class, s caption)`. GNOME: the
    /// extension's signal `FocusChanged(s wm_class, s title)` and method `GetFocus() -> (ss)`.
    /// An empty class is no window.
    public static let interface = "org.touchgest.Focus"
    /// The plugin name touchgest loads its KWin script under.
    public static let kwinScript = "touchgest-focus"
    /// The GNOME Shell extension's uuid.
    public static let gnomeExtension = "touchgest-focus@touchgest.org"
    /// GNOME Shell's interface for its extensions, on `/org/gnome/Shell`.
    public static let gnomeExtensions = "org.gnome.Shell.Extensions"
}

/// A desktop that tells the focus over D-Bus.
public enum DBusDesktop: Hashable, Sendable {
    /// KDE Plasma: touchgest loads `script` into KWin (`org.kde.KWin /Scripting`
    /// `loadScript`, `start`), and the script calls `WindowActivated` back.
    case kde(script: String)
    /// GNOME: the touchgest-focus shell extension signals the focus.
    case gnome

    var name: String {
        switch self {
        case .kde: "kde"
        case .gnome: "gnome"
        }
    }

    /// The name the desktop owns on the session bus.
    var busName: String {
        switch self {
        case .kde: "org.kde.KWin"
        case .gnome: "org.gnome.Shell"
        }
    }

    var shown: String {
        switch self {
        case .kde: "KWin"
        case .gnome: "GNOME Shell"
        }
    }
}

/// The focused window on KDE Plasma and GNOME, over the session bus (libdbus).
///
/// It waits only on the bus connection: while connected it has no deadline, and the bus
/// says when the desktop leaves or comes back (`NameOwnerChanged`), so no wake-up while
/// nothing changes. When the bus itself goes away it connects again with a growing wait
/// (``FocusDefaults``). Every call is asynchronous: replies are matched by serial.
public final class DBusFocusProvider: FocusProvider {
    /// What a call touchgest sent was for.
    private enum Call {
        case owner, unloadScript, loadScript, startScripts, scriptLoaded, getFocus, extensionInfo
    }

    /// What touchgest asks the desktop when a wait ends.
    private enum Ask {
        /// GNOME: the extension, for the focus.
        case focus
        /// KWin: to load the script (KWin was not ready for it).
        case script
        /// KWin: whether it still has the script, which has not called back.
        case scriptLoaded
    }

    /// The open bus and what is known about the desktop on it.
    private struct Connection {
        var bus: OpaquePointer
        var fd: Int32
        var calls: [UInt32: Call] = [:]
        /// The desktop's unique name while it is on the bus.
        var owner: String?
        /// The desktop answered: `.connected` was reported.
        var following = false
        /// When to ask the desktop again, and what: GNOME Shell came onto the bus and its
        /// extensions may not be loaded yet (the extension is asked for the focus then, if
        /// it has not said it by itself); KWin is on the bus without its scripting object
        /// yet; KWin started the script, which has not called back yet.
        var askAt: Timestamp?
        var ask = Ask.focus
        /// The wait before KWin is asked again, doubling while it is not ready.
        var askDelay = FocusDefaults.firstRetry
    }

    /// A bus that a connect made on its thread hands over.
    private struct Opened {
        var bus: OpaquePointer
        var fd: Int32
    }

    private enum Phase {
        /// ``start()`` not called yet.
        case stopped
        /// libdbus connects, says Hello and adds the match rules on its own thread, each
        /// a blocking round trip: a bus that never answers holds that thread, not the loop.
        case connecting(PendingConnect<Opened>)
        case connected(Connection)
        /// The bus is gone; tried again at the retry.
        case waiting(FocusRetry)
    }

    public let which: DBusDesktop
    public var desktop: String { which.name }
    public var onReport: ((FocusReport) -> Void)? {
        get { reporting.onReport }
        set { reporting.onReport = newValue }
    }
    private var reporting = FocusReporting()
    /// The session bus address, `DBUS_SESSION_BUS_ADDRESS` (else `$XDG_RUNTIME_DIR/bus`).
    public let address: String
    private var phase = Phase.stopped

    /// touchgest's unique name on the session bus while connected (`:1.42`).
    var uniqueName: String? {
        guard case let .connected(connection) = phase, let name = dbus_bus_get_unique_name(connection.bus) else { return nil }
        return String(cString: name)
    }
    /// A connect given up on that has not returned yet: no second one is started beside it.
    private var stuck: BackgroundAttempt<Result<Opened, ConnectFailure>>?
    /// Messages are left in libdbus's queue (``drain()``): handled again at once.
    private var backlog = false
    /// libdbus closed the connection's socket (a write failed); the provider is lost at
    /// its next drain, and until then does not read the socket's number.
    private var socketClosed = false
    /// Messages handled per wake-up.
    static let messagesPerWake = 256
    /// Why GNOME Shell's last GetFocus failed, while its extension info is asked.
    private var lastFocusError = ""

    /// How long a call may wait for its answer before libdbus answers it with an error.
    static let callTimeout: Int32 = 5_000

    /// How long connecting may take (``FocusDefaults/connectTimeout``).
    let connectTimeout: Duration

    public init(_ which: DBusDesktop, environment: [String: String], connectTimeout: Duration = FocusDefaults.connectTimeout) {
        self.which = which
        self.connectTimeout = connectTimeout
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty {
            self.address = address
        } else if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            self.address = "unix:path=\(runtime)/bus"
        } else {
            self.address = ""
        }
    }

    deinit { disconnect() }

    public func start() {
        connect(delay: FocusDefaults.firstRetry)
    }

    // MARK: PollSource

    /// The serial of what is read now, new for each attempt and each connection
    /// (``DescriptorSerial``): the loop then registers afresh a descriptor that took the
    /// number of another.
    private var descriptorSerial: UInt64 = 0

    public func collect(_ interest: inout PollInterest) {
        switch phase {
        case let .connected(connection):
            if !socketClosed { interest.readSteadily(connection.fd, serial: descriptorSerial) }
        case let .connecting(pending): interest.readSteadily(pending.attempt.fd, serial: descriptorSerial)
        case .stopped, .waiting: break
        }
    }

    public var nextDeadline: Timestamp? {
        switch phase {
        case let .waiting(retry): retry.at
        case let .connecting(pending): pending.deadline
        case let .connected(connection): backlog ? PollScheduler.now() : connection.askAt
        case .stopped: nil
        }
    }

    public func handleDeadlines() {
        switch phase {
        case let .waiting(retry):
            if let delay = retry.due(at: PollScheduler.now()) { connect(delay: delay) }
        case let .connecting(pending) where pending.deadline <= PollScheduler.now():
            pending.attempt.abandon()
            stuck = pending.attempt
            wait(pending.delay, noAnswer)
        case .connected where backlog:
            drain()
        case var .connected(connection):
            guard let due = connection.askAt, due <= PollScheduler.now() else { return }
            connection.askAt = nil
            phase = .connected(connection)
            switch connection.ask {
            case .focus: askForFocus()
            case .script: loadScript()
            case .scriptLoaded:
                call(which.busName, "/Scripting", "org.kde.kwin.Scripting", "isScriptLoaded", [DBusFocusNames.kwinScript], for: .scriptLoaded)
            }
        case .connecting, .stopped:
            break
        }
    }

    private var noAnswer: String {
        "the session bus at \(address) did not answer within \(shown(connectTimeout))"
    }

    public func handleReadable(_ fd: Int32) {
        if case let .connecting(pending) = phase {
            switch pending.attempt.take() {
            case nil: break
            case let .failure(failure)?: wait(pending.delay, failure.description)
            case let .success(opened)?: follow(opened)
            }
            return
        }
        guard case let .connected(connection) = phase else { return }
        guard dbus_connection_read_write(connection.bus, 0) != 0 else {
            lose("the session bus closed the connection")
            return
        }
        drain()
    }

    // MARK: Connecting

    private func connect(delay: Duration) {
        disconnect()
        reporting.forgetFocus()
        guard !address.isEmpty else {
            wait(delay, "no session bus: DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are not set")
            return
        }
        if let stuck, stuck.isRunning {
            wait(delay, noAnswer)
            return
        }
        stuck = nil
        let (address, which) = (address, which)
        guard let attempt = BackgroundAttempt.start({ Self.open(address, which) }, dispose: { result in
            if case let .success(opened) = result { Self.close(opened.bus) }
        }) else {
            wait(delay, "cannot start a thread to connect to the session bus")
            return
        }
        phase = .connecting(PendingConnect(attempt: attempt, deadline: PollScheduler.now() + connectTimeout, delay: delay))
        descriptorSerial = DescriptorSerial.next()
    }

    /// Connects, says Hello, takes touchgest's name (KDE) and adds the match rules:
    /// every round trip of connecting, on the attempt's thread.
    private static func open(_ address: String, _ which: DBusDesktop) -> Result<Opened, ConnectFailure> {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let bus = dbus_connection_open_private(address, &error) else {
            return .failure(ConnectFailure("cannot reach the session bus at \(address): \(message(error))"))
        }
        dbus_connection_set_exit_on_disconnect(bus, 0)
        func fail(_ why: String) -> Result<Opened, ConnectFailure> {
            close(bus)
            return .failure(ConnectFailure(why))
        }
        guard dbus_bus_register(bus, &error) != 0 else { return fail("the session bus at \(address) refused touchgest: \(message(error))") }
        if case .kde = which {
            let result = dbus_bus_request_name(bus, DBusFocusNames.service, UInt32(CDBUS_NAME_FLAG_DO_NOT_QUEUE), &error)
            guard result == CDBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER || result == CDBUS_REQUEST_NAME_REPLY_ALREADY_OWNER else {
                return fail("\(DBusFocusNames.service) is taken on the session bus (another touchgest?)"
                            + (dbus_error_is_set(&error) != 0 ? ": \(message(error))" : ""))
            }
        }
        var rules = ["type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(which.busName)'"]
        if case .gnome = which {
            rules.append("type='signal',sender='\(which.busName)',path='\(DBusFocusNames.path)',interface='\(DBusFocusNames.interface)',member='FocusChanged'")
            // The shell's word when the extension is enabled, disabled, refused or fails.
            rules.append("type='signal',sender='\(which.busName)',path='/org/gnome/Shell',interface='\(DBusFocusNames.gnomeExtensions)',"
                         + "member='ExtensionStateChanged',arg0='\(DBusFocusNames.gnomeExtension)'")
        }
        for rule in rules {
            dbus_bus_add_match(bus, rule, &error)
            if dbus_error_is_set(&error) != 0 { return fail("the session bus at \(address) refused a match rule: \(message(error))") }
        }
        var fd: Int32 = -1
        guard dbus_connection_get_unix_fd(bus, &fd) != 0 else { return fail("the session bus at \(address) has no descriptor") }
        return .success(Opened(bus: bus, fd: fd))
    }

    /// The connect succeeded: ask who owns the desktop's name, and follow it.
    private func follow(_ opened: Opened) {
        phase = .connected(Connection(bus: opened.bus, fd: opened.fd))
        descriptorSerial = DescriptorSerial.next()
        reporting.opened(at: PollScheduler.now())
        call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner", [which.busName], for: .owner)
        // The calls made while connecting read whatever came with their answers into
        // libdbus's queue.
        drain()
    }

    private static func close(_ bus: OpaquePointer) {
        dbus_connection_close(bus)
        dbus_connection_unref(bus)
    }

    private func wait(_ delay: Duration, _ why: String) {
        phase = .waiting(.after(delay))
        reporting.lostOnce(why)
    }

    private func lose(_ why: String) {
        disconnect()
        wait(reporting.retryAfterLoss(at: PollScheduler.now()), why + "; trying again")
    }

    private func disconnect() {
        switch phase {
        case let .connected(connection): Self.close(connection.bus)
        case let .connecting(pending): pending.attempt.abandon()
        case .stopped, .waiting: break
        }
        phase = .stopped
        socketClosed = false
    }

    /// The desktop left the bus (`left`) or refused: nothing to do until the bus says it
    /// is back, or the extension signals.
    private func desktopGone(_ why: String, left: Bool = false) {
        guard case var .connected(connection) = phase else { return }
        if left {
            connection.owner = nil
            connection.askDelay = FocusDefaults.firstRetry
        }
        connection.following = false
        connection.askAt = nil
        phase = .connected(connection)
        reporting.forgetFocus()
        // Each cause is said, once: these are states the bus told, not tries that fail.
        reporting.lost(why)
    }

    private func following() {
        guard case var .connected(connection) = phase, !connection.following else { return }
        connection.following = true
        connection.askAt = nil
        connection.askDelay = FocusDefaults.firstRetry
        phase = .connected(connection)
        var text = "\(desktop): \(which.shown) on the session bus at \(address)"
        if case let .kde(script) = which { text += ", running \(script)" }
        reporting.connected(text)
    }

    // MARK: Messages

    /// Handles the messages libdbus has, at most ``messagesPerWake`` a wake-up: any
    /// program on the bus can call touchgest's name without pause, and must not hold the
    /// loop. Messages left over are libdbus's, which the descriptor does not show:
    /// ``backlog`` makes the loop come back at once for them.
    private func drain() {
        backlog = false
        var handled = 0
        while case let .connected(connection) = phase {
            guard handled < Self.messagesPerWake else {
                backlog = true
                return
            }
            guard let message = dbus_connection_pop_message(connection.bus) else {
                if dbus_connection_get_is_connected(connection.bus) == 0 { lose("the session bus closed the connection") }
                return
            }
            handled += 1
            handle(message)
            dbus_message_unref(message)
        }
    }

    private func handle(_ message: OpaquePointer) {
        guard case var .connected(connection) = phase else { return }
        let member = Self.text(dbus_message_get_member(message))
        let interface = Self.text(dbus_message_get_interface(message))
        switch Int(dbus_message_get_type(message)) {
        case Int(CDBUS_MESSAGE_TYPE_METHOD_RETURN), Int(CDBUS_MESSAGE_TYPE_ERROR):
            guard let call = connection.calls.removeValue(forKey: dbus_message_get_reply_serial(message)) else { return }
            phase = .connected(connection)
            let error = Int(dbus_message_get_type(message)) == Int(CDBUS_MESSAGE_TYPE_ERROR)
                ? Self.text(dbus_message_get_error_name(message)) + (Self.arguments(message).first.map { ": \(Self.trimmed($0))" } ?? "") : nil
            answered(call, Self.arguments(message), info: DBusValue.arguments(of: message).first ?? .unreadable, error: error)
        case Int(CDBUS_MESSAGE_TYPE_SIGNAL):
            let sender = Self.text(dbus_message_get_sender(message))
            if interface == "org.freedesktop.DBus.Local" && member == "Disconnected" {
                lose("the session bus closed the connection")
            } else if dbus_message_get_destination(message) != nil {
                // Addressed to touchgest alone: a unicast signal skips match rules, so it is
                // none of those followed, whoever claims to send it (BusLink does the same).
                return
            } else if interface == "org.freedesktop.DBus" && member == "NameOwnerChanged" && sender == "org.freedesktop.DBus" {
                let arguments = Self.arguments(message)
                guard arguments.count == 3, arguments[0] == which.busName else { return }
                if arguments[2].isEmpty {
                    desktopGone("\(which.shown) left the session bus at \(address); waiting for it", left: true)
                } else {
                    desktopArrived(arguments[2], starting: true)
                }
            } else if case .gnome = which, interface == DBusFocusNames.interface, member == "FocusChanged", sender == connection.owner {
                // The extension was enabled after touchgest asked, or the focus changed.
                focusArguments(Self.arguments(message))
            } else if case .gnome = which, interface == DBusFocusNames.gnomeExtensions, member == "ExtensionStateChanged",
                      sender == connection.owner {
                let values = DBusValue.arguments(of: message)
                guard values.count == 2, values[0].text == DBusFocusNames.gnomeExtension else { return }
                extensionChanged(GnomeExtension(values[1]))
            }
        case Int(CDBUS_MESSAGE_TYPE_METHOD_CALL):
            let fromDesktop = connection.owner != nil && Self.text(dbus_message_get_sender(message)) == connection.owner
            if case .kde = which, fromDesktop, interface == DBusFocusNames.interface, member == "WindowActivated",
               Self.text(dbus_message_get_path(message)) == DBusFocusNames.path {
                reply(to: message, error: nil)
                focusArguments(Self.arguments(message))
            } else {
                reply(to: message, error: "touchgest has no method \(interface).\(member) here")
            }
        default:
            break
        }
    }

    /// The desktop is on the bus under `owner`; `starting` when the bus just said it came.
    private func desktopArrived(_ owner: String, starting: Bool = false) {
        guard case var .connected(connection) = phase else { return }
        connection.owner = owner
        switch which {
        case .kde:
            phase = .connected(connection)
            loadScript()
        case .gnome where starting:
            // GNOME Shell takes its name before it loads its extensions: asked now, the
            // extension would be missing. Once loaded it says the focus itself
            // (FocusChanged, ExtensionStateChanged); if not, it is asked after a while.
            connection.askAt = PollScheduler.now() + FocusDefaults.helperGrace
            connection.ask = .focus
            phase = .connected(connection)
        case .gnome:
            phase = .connected(connection)
            askForFocus()
        }
    }

    private func loadScript() {
        // A script of the same name from an earlier touchgest is replaced.
        call(which.busName, "/Scripting", "org.kde.kwin.Scripting", "unloadScript", [DBusFocusNames.kwinScript], for: .unloadScript)
    }

    /// KWin is on the bus but has not exported its scripting object yet (it takes its
    /// name first): asked again after a growing wait, and said once the wait is long.
    private func kwinNotReady(_ why: String) {
        guard case var .connected(connection) = phase else { return }
        let delay = connection.askDelay
        if delay >= FocusDefaults.maximumRetry { desktopGone(why + "; trying again") }
        guard case .connected = phase else { return }
        connection.askAt = PollScheduler.now() + delay
        connection.ask = .script
        connection.askDelay = min(delay * 2, FocusDefaults.maximumRetry)
        connection.following = false
        phase = .connected(connection)
    }

    private func askForFocus() {
        call(which.busName, DBusFocusNames.path, DBusFocusNames.interface, "GetFocus", [], for: .getFocus)
    }

    /// GNOME Shell says the extension changed state.
    private func extensionChanged(_ shellSays: GnomeExtension) {
        if shellSays.state == .enabled {
            askForFocus()
        } else if let problem = shellSays.problem {
            desktopGone(problem)
        }
    }

    private func answered(_ call: Call, _ arguments: [String], info: DBusValue, error: String?) {
        switch call {
        case .owner:
            if let error {
                desktopGone("\(which.shown) is not on the session bus at \(address) (\(error)); waiting for it")
            } else if let owner = arguments.first {
                desktopArrived(owner)
            }
        case .unloadScript:
            // Unloading a script that is not there is false, or an error on older KWins.
            guard case let .kde(script) = which else { return }
            self.call(which.busName, "/Scripting", "org.kde.kwin.Scripting", "loadScript", [script, DBusFocusNames.kwinScript], for: .loadScript)
        case .loadScript:
            guard case let .kde(script) = which else { return }
            if let error, error.hasPrefix("org.freedesktop.DBus.Error.UnknownObject") || error.hasPrefix("org.freedesktop.DBus.Error.UnknownMethod") {
                kwinNotReady("KWin on the session bus at \(address) cannot load scripts yet (\(error))")
            } else if let error {
                desktopGone("KWin did not load \(script): \(error)")
            } else if let id = arguments.first.flatMap(Int.init), id >= 0 {
                self.call(which.busName, "/Scripting", "org.kde.kwin.Scripting", "start", [], for: .startScripts)
            } else {
                desktopGone("KWin did not load \(script) (id \(arguments.first ?? "none")): is the file there and readable?")
            }
        case .startScripts:
            if let error {
                desktopGone("KWin did not start its scripts: \(error)")
            } else if case var .connected(connection) = phase, !connection.following {
                // The script calls back as soon as it runs (following() then). KWin 5.27
                // gives an id to a file it cannot read and drops it when it starts it,
                // saying nothing: silence is asked about after a while.
                connection.askAt = PollScheduler.now() + FocusDefaults.helperGrace
                connection.ask = .scriptLoaded
                phase = .connected(connection)
            }
        case .scriptLoaded:
            guard case let .kde(script) = which else { return }
            if error == nil && arguments.first == "true" {
                desktopGone("KWin runs \(script), but the script has not called touchgest back")
            } else {
                desktopGone("KWin could not run \(script): is the file there, and can KWin read it? (KWin's log says why)")
            }
        case .getFocus:
            if let error {
                // The shell says why, if it can.
                lastFocusError = error
                self.call(which.busName, "/org/gnome/Shell", DBusFocusNames.gnomeExtensions, "GetExtensionInfo",
                          [DBusFocusNames.gnomeExtension], for: .extensionInfo)
            } else {
                focusArguments(arguments)
            }
        case .extensionInfo:
            if error == nil, let problem = GnomeExtension(info).problem {
                desktopGone(problem)
            } else {
                desktopGone("GNOME Shell at \(address) does not answer for the focus (\(lastFocusError)): "
                            + "enable the extension: \(GnomeExtension.enableCommand)")
            }
        }
    }

    private func focusArguments(_ arguments: [String]) {
        guard arguments.count >= 2 else { return }
        following()
        let focus: WindowFocus = arguments[0].isEmpty ? .noWindow : .window(appID: arguments[0], title: arguments[1])
        reporting.focused(focus)
    }

    // MARK: libdbus

    /// Sends a method call with string arguments; its answer comes to ``answered(_:_:error:)``.
    private func call(_ destination: String, _ path: String, _ interface: String, _ method: String,
                      _ arguments: [String], for purpose: Call) {
        guard case var .connected(connection) = phase,
              let message = dbus_message_new_method_call(destination, path, interface, method) else { return }
        defer { dbus_message_unref(message) }
        Self.append(arguments, to: message)
        var serial: UInt32 = 0
        guard dbus_connection_send(connection.bus, message, &serial) != 0 else {
            lose("cannot send to the session bus")
            return
        }
        flush(connection)
        connection.calls[serial] = purpose
        phase = .connected(connection)
    }

    private func reply(to message: OpaquePointer, error: String?) {
        guard case let .connected(connection) = phase, dbus_message_get_no_reply(message) == 0 else { return }
        let answer = error.map { dbus_message_new_error(message, "org.freedesktop.DBus.Error.UnknownMethod", $0) }
            ?? dbus_message_new_method_return(message)
        guard let answer else { return }
        dbus_connection_send(connection.bus, answer, nil)
        dbus_message_unref(answer)
        flush(connection)
    }

    /// Writes out what libdbus holds for the bus. When a write fails, libdbus closes the
    /// socket itself, and a descriptor closed that way leaves the loop's epoll set in
    /// silence: the provider would wait on it for ever. So the loop comes back at once
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

    private static func append(_ strings: [String], to message: OpaquePointer) {
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        for string in strings {
            string.withCString { pointer in
                var value: UnsafePointer<CChar>? = pointer
                _ = dbus_message_iter_append_basic(&iterator, Int32(CDBUS_TYPE_STRING), &value)
            }
        }
    }

    /// A message's strings, numbers and booleans, as text.
    static func arguments(_ message: OpaquePointer) -> [String] {
        DBusValue.arguments(of: message).map(\.text)
    }

    private static func trimmed(_ text: String) -> String {
        String(text.reversed().drop { $0.isWhitespace }.reversed())
    }

    private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    private static func message(_ error: DBusError) -> String {
        text(error.message)
    }
}
