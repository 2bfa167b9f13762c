import CXCB
import Glibc
import PollLoop
import TextWire
import TouchGestures

/// The focused window on X11, through XCB: the window manager's `_NET_ACTIVE_WINDOW`
/// on the root window (EWMH), followed by `PropertyNotify`, then that window's
/// `WM_CLASS` (its class part) and `_NET_WM_NAME` (else `WM_NAME`).
///
/// While rules want modifiers (``followModifiers(_:)``) it also follows the core
/// keyboard's modifier state through XKB (`StateNotify` for the effective modifiers, and
/// `GetState` once): X11 tells any client that state, and touchgest reads the modifier
/// bits of those events and nothing else of them (not the key that changed them).
///
/// It waits only on the connection's descriptor: the X server sends nothing unless the
/// root's or the focused window's properties change (or, followed, the modifiers), so no
/// wake-up while the focus stays. When the server goes away it reports why once and connects again with a
/// growing wait (``FocusDefaults``).
public final class X11FocusProvider: FocusProvider {
    /// An open connection and what it follows.
    private struct Connection {
        var xcb: OpaquePointer
        var fd: Int32
        var root: xcb_window_t
        var atoms: Atoms
        /// The window manager's name, for the log.
        var manager: String?
        /// The window `_NET_ACTIVE_WINDOW` names, whose properties are selected; 0: none.
        var active: xcb_window_t = 0
        /// XKB's first event number; nil where the server lacks XKB (then no modifiers).
        var xkbEvent: UInt8?
        /// The sequence of the `GetState` asked when the modifiers began to be followed,
        /// until its reply is read (``drainEvents()``: never waited for).
        var pendingState: UInt32?
    }

    /// The atoms the provider asks for by name.
    private struct Atoms {
        var activeWindow: xcb_atom_t
        var netWMName: xcb_atom_t
        var utf8String: xcb_atom_t
        var supportingWMCheck: xcb_atom_t
    }

    public let desktop = "x11"
    public let reporting = FocusReporting()
    /// The display, as `DISPLAY` names it (`:0`).
    public let display: String
    /// XCB connects and asks for the atoms on its own thread: a server that never answers
    /// holds that thread, not the loop.
    private let connection: Reconnecting<Connection>
    /// Events are left in XCB's queue (``drainEvents()``): handled again at once.
    private var backlog = false
    /// Whether rules want the modifiers (``followModifiers(_:)``).
    private var modifiersWanted = false
    /// Events handled per wake-up.
    static let eventsPerWake = 256

    /// Longest title or class read, in bytes: more is cut (a title is shown and matched,
    /// never needed whole).
    static let maximumPropertyBytes: UInt32 = 4_096

    /// How long connecting may take (``FocusDefaults/connectTimeout``).
    let connectTimeout: Duration

    public init(display: String, connectTimeout: Duration = FocusDefaults.connectTimeout) {
        self.display = display
        self.connectTimeout = connectTimeout
        connection = Reconnecting(
            policy: FocusDefaults.reconnect, connectTimeout: connectTimeout,
            open: .background({ Self.open(display) }, dispose: { xcb_disconnect($0.xcb) }),
            close: { xcb_disconnect($0.xcb) }, descriptors: { connection, read in read(connection.fd) },
            unreachable: { display.isEmpty ? "DISPLAY is not set" : nil },
            timedOut: "the X server at \(display) did not answer within \(shown(connectTimeout))",
            noThread: "cannot start a thread to connect to the X server")
        connection.onConnected = { [unowned self] in follow() }
        connection.onLost = { [unowned self] why, _, broke in
            backlog = false
            reporting.lostOnce(broke ? why + "; trying again" : why)
        }
    }

    public func start() {
        connection.start()
    }

    // MARK: PollSource

    public func collect(_ interest: inout PollInterest) {
        connection.collect(&interest)
    }

    public var nextDeadline: Timestamp? {
        guard connection.isConnected else { return connection.deadline }
        return backlog ? PollScheduler.now() : nil
    }

    public func handleDeadlines() {
        if !connection.isConnected {
            connection.handleDeadlines()
        } else if backlog {
            drainEvents()
        }
    }

    public func handleReadable(_ fd: Int32) {
        if !connection.handleReadable() { drainEvents() }
    }

    // MARK: Connecting

    /// Connects, reads the screen's root and the atoms, and the window manager's name:
    /// every round trip of connecting, on the attempt's thread.
    private static func open(_ display: String) -> Result<Connection, ConnectFailure> {
        var screenNumber: Int32 = 0
        guard let xcb = xcb_connect(display, &screenNumber) else {
            return .failure(ConnectFailure("cannot reach the X server at \(display)"))
        }
        func fail(_ why: String) -> Result<Connection, ConnectFailure> {
            xcb_disconnect(xcb)
            return .failure(ConnectFailure(why))
        }
        let code = xcb_connection_has_error(xcb)
        guard code == 0 else { return fail("cannot reach the X server at \(display): \(describe(code))") }
        var screens = xcb_setup_roots_iterator(xcb_get_setup(xcb))
        var skipped: Int32 = 0
        while skipped < screenNumber && screens.rem > 0 {
            xcb_screen_next(&screens)
            skipped += 1
        }
        guard screens.rem > 0, let screen = screens.data else { return fail("the X server at \(display) has no screen \(screenNumber)") }
        let names = ["_NET_ACTIVE_WINDOW", "_NET_WM_NAME", "UTF8_STRING", "_NET_SUPPORTING_WM_CHECK"]
        let cookies = names.map { name in xcb_intern_atom(xcb, 0, UInt16(name.utf8.count), name) }
        let values = cookies.map { cookie -> xcb_atom_t in
            guard let reply = xcb_intern_atom_reply(xcb, cookie, nil) else { return 0 }
            defer { free(reply) }
            return reply.pointee.atom
        }
        guard !values.contains(0) else {
            return fail("the X server at \(display) did not answer: \(describe(xcb_connection_has_error(xcb)))")
        }
        let atoms = Atoms(activeWindow: values[0], netWMName: values[1], utf8String: values[2], supportingWMCheck: values[3])
        let root = screen.pointee.root
        return .success(Connection(xcb: xcb, fd: xcb_get_file_descriptor(xcb), root: root, atoms: atoms,
                                   manager: windowManagerName(xcb, root: root, atoms: atoms), xkbEvent: xkbEvent(xcb)))
    }

    /// Turns XKB on for this connection (a client must ask before using it): its first
    /// event number, or nil where the server has no XKB.
    private static func xkbEvent(_ xcb: OpaquePointer) -> UInt8? {
        guard let data = xcb_get_extension_data(xcb, cxcb_xkb_extension()), data.pointee.present != 0 else { return nil }
        let cookie = xcb_xkb_use_extension(xcb, UInt16(XCB_XKB_MAJOR_VERSION), UInt16(XCB_XKB_MINOR_VERSION))
        guard let reply = xcb_xkb_use_extension_reply(xcb, cookie, nil) else { return nil }
        defer { free(reply) }
        return reply.pointee.supported != 0 ? data.pointee.first_event : nil
    }

    /// The connect succeeded: follow the root's properties and the active window.
    private func follow() {
        guard let opened = connection.connected else { return }
        backlog = false
        reporting.forgetFocus()
        Self.selectProperties(of: opened.root, on: opened.xcb)
        reporting.reached("x11 at \(display)" + (opened.manager.map { " (\($0))" } ?? ""))
        if modifiersWanted { selectModifiers() }
        followActiveWindow()
        // Replies read above may have brought events with them, which XCB keeps in its
        // queue: the descriptor would not show them.
        drainEvents()
    }

    private func lose(_ why: String) {
        connection.lose(why)
    }

    // MARK: Modifiers

    public func followModifiers(_ wanted: Bool) {
        guard wanted != modifiersWanted else { return }
        modifiersWanted = wanted
        if connection.isConnected { selectModifiers() }
    }

    /// Asks for the core keyboard's `StateNotify` when its effective modifiers change
    /// (or for none), and, followed, their state now: its reply is read when it comes.
    private func selectModifiers() {
        guard var opened = connection.connected, opened.xkbEvent != nil else { return }
        let keyboard = xcb_xkb_device_spec_t(XCB_XKB_ID_USE_CORE_KBD.rawValue)
        var details = xcb_xkb_select_events_details_t()
        details.affectState = UInt16(XCB_XKB_STATE_PART_MODIFIER_STATE.rawValue)
        details.stateDetails = modifiersWanted ? details.affectState : 0
        xcb_xkb_select_events_aux(opened.xcb, keyboard, UInt16(XCB_XKB_EVENT_TYPE_STATE_NOTIFY.rawValue), 0, 0, 0, 0, &details)
        if let asked = opened.pendingState { xcb_discard_reply(opened.xcb, asked) }
        opened.pendingState = modifiersWanted ? xcb_xkb_get_state(opened.xcb, keyboard).sequence : nil
        connection.link = opened
        xcb_flush(opened.xcb)
    }

    /// X's modifier bits as touchgest names them. Shift, Lock and Control are fixed bits;
    /// Alt and Super are where every standard keymap puts them, Mod1 and Mod4
    /// (`xmodmap -pm`), so a keymap that moves them moves them out of touchgest's sight.
    static func modifiers(_ bits: UInt8) -> KeyModifierFlags {
        let map: [(bit: UInt8, flag: KeyModifierFlags)] = [
            (1 << 0, .shift), (1 << 1, .alphaShift), (1 << 2, .control), (1 << 3, .alternate), (1 << 6, .command),
        ]
        return map.reduce(into: KeyModifierFlags()) { held, entry in if bits & entry.bit != 0 { held.insert(entry.flag) } }
    }

    /// Whether a `StateNotify` of `sequence` (the last request the server had handled, in
    /// 16 bits) tells a state no older than the `GetState` asked: then it is the newer
    /// answer, and the reply is dropped when it comes. An older one is passed over: the
    /// reply will be newer.
    private func isNewerThanAsked(_ sequence: UInt16) -> Bool {
        guard var opened = connection.connected, let asked = opened.pendingState else { return true }
        guard Int16(bitPattern: sequence &- UInt16(truncatingIfNeeded: asked)) >= 0 else { return false }
        xcb_discard_reply(opened.xcb, asked)
        opened.pendingState = nil
        connection.link = opened
        return true
    }

    /// The `GetState` reply, if it has come: the modifiers when following began.
    private func readPendingState() -> KeyModifierFlags? {
        guard var opened = connection.connected, let sequence = opened.pendingState else { return nil }
        var reply: UnsafeMutableRawPointer?
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        guard xcb_poll_for_reply(opened.xcb, sequence, &reply, &error) == 1 else { return nil }
        opened.pendingState = nil
        connection.link = opened
        free(error)
        guard let reply else { return nil }
        defer { free(reply) }
        return Self.modifiers(reply.load(as: xcb_xkb_get_state_reply_t.self).mods)
    }

    // MARK: Events

    /// Handles the events XCB has, read now or queued while waiting for a reply, at most
    /// ``eventsPerWake`` a wake-up: a window that retitles itself without pause must not
    /// hold the loop. What they say is read once after them (the active window, else its
    /// title), not once an event, and at most once a wake-up. Reading it waits for
    /// replies, and XCB keeps the events that come before a reply in its queue, where the
    /// descriptor does not show them: after a read, and at the limit, ``backlog`` makes
    /// the loop come back at once to look at the queue again.
    private func drainEvents() {
        guard let connection = self.connection.connected else { return }
        var activeChanged = false
        var windowChanged = false
        var modifiers: KeyModifierFlags?
        var handled = 0
        backlog = false
        while true {
            guard handled < Self.eventsPerWake else {
                backlog = true
                break
            }
            guard let event = xcb_poll_for_event(connection.xcb) else {
                let code = xcb_connection_has_error(connection.xcb)
                if code != 0 {
                    lose(code == 1 ? "the X server at \(display) closed the connection" : "the X server at \(display): \(Self.describe(code))")
                    return
                }
                break
            }
            handled += 1
            defer { free(event) }
            let type = event.pointee.response_type & 0x7F
            // Of XKB's events only StateNotify is asked for; of it only the modifiers are read.
            if let xkb = connection.xkbEvent, type == xkb, event.pointee.response_type & 0x80 == 0 {
                let notify = UnsafeRawPointer(event).load(as: xcb_xkb_state_notify_event_t.self)
                if notify.xkbType == UInt8(XCB_XKB_STATE_NOTIFY) && modifiersWanted && isNewerThanAsked(notify.sequence) {
                    modifiers = Self.modifiers(notify.mods)
                }
                continue
            }
            // The high bit marks events another client sent; 0 is an error, for a
            // request whose window went away meanwhile: the next event says what changed.
            guard type == UInt8(XCB_PROPERTY_NOTIFY) else { continue }
            let notify = UnsafeRawPointer(event).load(as: xcb_property_notify_event_t.self)
            if notify.window == connection.root && notify.atom == connection.atoms.activeWindow {
                activeChanged = true
            } else if notify.window == connection.active && connection.active != 0
                        && [connection.atoms.netWMName, XCB_ATOM_WM_NAME.rawValue, XCB_ATOM_WM_CLASS.rawValue].contains(notify.atom) {
                windowChanged = true
            }
        }
        if let asked = readPendingState() { modifiers = asked }
        if let modifiers { reporting.held(modifiers) }
        if activeChanged {
            followActiveWindow()
        } else if windowChanged {
            report(readWindow(connection.active, connection))
        } else {
            return
        }
        // The read's replies may have brought events into XCB's queue.
        backlog = true
    }

    /// Reads `_NET_ACTIVE_WINDOW`, follows the window it names and reports it.
    private func followActiveWindow() {
        guard var connection = self.connection.connected else { return }
        let window = Self.readProperty(connection.root, connection.atoms.activeWindow, type: XCB_ATOM_WINDOW.rawValue, connection.xcb)
            .flatMap { $0.count >= 4 ? $0.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) } : nil } ?? 0
        if window != connection.active {
            if connection.active != 0 { Self.selectProperties(of: connection.active, on: connection.xcb, mask: 0) }
            // Selected before reading, so a title set meanwhile still comes as an event.
            if window != 0 { Self.selectProperties(of: window, on: connection.xcb) }
            connection.active = window
            self.connection.link = connection
        }
        report(window == 0 ? .noWindow : readWindow(window, connection))
    }

    private func report(_ focus: WindowFocus) {
        reporting.focused(focus)
    }

    // MARK: Properties

    /// A window's class and title, in one round trip.
    private func readWindow(_ window: xcb_window_t, _ connection: Connection) -> WindowFocus {
        let xcb = connection.xcb
        let length = Self.maximumPropertyBytes / 4
        let classCookie = xcb_get_property(xcb, 0, window, XCB_ATOM_WM_CLASS.rawValue, XCB_ATOM_STRING.rawValue, 0, length)
        let netNameCookie = xcb_get_property(xcb, 0, window, connection.atoms.netWMName, connection.atoms.utf8String, 0, length)
        let nameCookie = xcb_get_property(xcb, 0, window, XCB_ATOM_WM_NAME.rawValue, XCB_GET_PROPERTY_TYPE_ANY.rawValue, 0, length)
        let classBytes = Self.reply(xcb, classCookie)
        let netName = Self.reply(xcb, netNameCookie)
        let name = Self.reply(xcb, nameCookie)
        // WM_CLASS is "instance\0class\0": rules match the class, as xprop shows it last.
        let parts = (classBytes ?? []).split(separator: 0, omittingEmptySubsequences: false)
        let appID = parts.count > 1 ? Self.latin1(parts[1]) : parts.first.map(Self.latin1) ?? ""
        let title: String
        if let netName, !netName.isEmpty {
            title = String(decoding: netName, as: UTF8.self)
        } else {
            title = Self.latin1(name ?? [])
        }
        return .window(appID: appID, title: title)
    }

    /// The window manager's name (`_NET_SUPPORTING_WM_CHECK`'s `_NET_WM_NAME`), for the log.
    private static func windowManagerName(_ xcb: OpaquePointer, root: xcb_window_t, atoms: Atoms) -> String? {
        guard let check = readProperty(root, atoms.supportingWMCheck, type: XCB_ATOM_WINDOW.rawValue, xcb),
              check.count >= 4 else { return nil }
        let window = check.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        guard let name = readProperty(window, atoms.netWMName, type: atoms.utf8String, xcb),
              !name.isEmpty else { return nil }
        return String(decoding: name, as: UTF8.self)
    }

    private static func readProperty(_ window: xcb_window_t, _ property: xcb_atom_t, type: xcb_atom_t, _ xcb: OpaquePointer) -> [UInt8]? {
        reply(xcb, xcb_get_property(xcb, 0, window, property, type, 0, maximumPropertyBytes / 4))
    }

    /// The value of a GetProperty reply; nil when the window or property is not there.
    private static func reply(_ xcb: OpaquePointer, _ cookie: xcb_get_property_cookie_t) -> [UInt8]? {
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        let reply = xcb_get_property_reply(xcb, cookie, &error)
        free(error)
        guard let reply else { return nil }
        defer { free(reply) }
        guard reply.pointee.type != 0, let value = xcb_get_property_value(reply) else { return nil }
        let count = Int(xcb_get_property_value_length(reply))
        return Array(UnsafeRawBufferPointer(start: value, count: count))
    }

    private static func selectProperties(of window: xcb_window_t, on xcb: OpaquePointer,
                                         mask: UInt32 = XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue) {
        var value = mask
        xcb_change_window_attributes(xcb, window, XCB_CW_EVENT_MASK.rawValue, &value)
        xcb_flush(xcb)
    }

    /// `STRING` properties are ISO 8859-1.
    private static func latin1<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        var text = ""
        for byte in bytes where byte != 0 { text.unicodeScalars.append(Unicode.Scalar(byte)) }
        return text
    }

    /// `xcb_connection_has_error`'s codes, as xcb.h explains them.
    static func describe(_ code: Int32) -> String {
        switch code {
        case 0: "no error"
        case 1: "connection failed (no server there, or it closed)"
        case 2: "an extension it needs is missing"
        case 3: "out of memory"
        case 4: "a request too long"
        case 5: "the display name cannot be read"
        case 6: "no such screen"
        case 7: "passing descriptors failed"
        default: "error \(code)"
        }
    }
}
