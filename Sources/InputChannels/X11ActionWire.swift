import CXCB
import Glibc
import InputActions

/// Desktop actions on X11 through EWMH: client messages to the root window, which the
/// window manager carries out (openbox, Xfce, MATE, Cinnamon and KDE on X11 honour them):
/// `_NET_CURRENT_DESKTOP` (the next or previous desktop, counted from the current one,
/// round), `_NET_SHOWING_DESKTOP`, and for the active window (`_NET_ACTIVE_WINDOW`)
/// `_NET_CLOSE_WINDOW`, `_NET_WM_STATE` (maximized both ways, full screen: toggled) and
/// ICCCM's `WM_CHANGE_STATE` to iconic (minimize). EWMH has no overview or launcher, and
/// its desktops' layout (`_NET_DESKTOP_LAYOUT`) is one row almost everywhere, so up, down,
/// left and right are not offered.
///
/// XCB waits for the server's replies, so each action runs on a thread of its own with a
/// connection of its own (an action is a human's gesture: a connection costs about a
/// millisecond), and a stuck server holds that thread, not the loop.
struct X11ActionWire: ActionWire {
    var desktop: String { "x11" }
    /// The display.
    let socketPath: String

    func request(for action: DesktopAction) -> ActionRequest? {
        switch action {
        case .workspaceNext, .workspacePrevious, .showDesktop, .closeWindow, .maximize, .minimize, .fullscreen:
            let display = socketPath
            return .work { Self.perform(action, on: display) }
        case .workspaceUp, .workspaceDown, .workspaceLeft, .workspaceRight, .overview, .appGrid:
            return nil
        }
    }

    func answer(_ bytes: [UInt8], closed: Bool) -> ActionAnswer? { .done }

    private static let atomNames = [
        "_NET_CURRENT_DESKTOP", "_NET_NUMBER_OF_DESKTOPS", "_NET_ACTIVE_WINDOW", "_NET_SHOWING_DESKTOP", "_NET_CLOSE_WINDOW",
        "_NET_WM_STATE", "_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ", "_NET_WM_STATE_FULLSCREEN", "WM_CHANGE_STATE",
    ]

    /// Does `action` on the X server at `display`, on the caller's thread.
    static func perform(_ action: DesktopAction, on display: String) -> ActionAnswer {
        guard let xcb = xcb_connect(display, nil) else { return .refused("cannot reach the X server at \(display)") }
        defer { xcb_disconnect(xcb) }
        guard xcb_connection_has_error(xcb) == 0, let screen = xcb_setup_roots_iterator(xcb_get_setup(xcb)).data else {
            return .refused("cannot reach the X server at \(display)")
        }
        let root = screen.pointee.root
        let cookies = atomNames.map { xcb_intern_atom(xcb, 0, UInt16($0.utf8.count), $0) }
        var atoms: [String: xcb_atom_t] = [:]
        for (name, cookie) in zip(atomNames, cookies) {
            guard let reply = xcb_intern_atom_reply(xcb, cookie, nil) else { return .refused("the X server at \(display) did not answer") }
            atoms[name] = reply.pointee.atom
            free(reply)
        }
        func cardinal(_ name: String, of window: xcb_window_t = root) -> UInt32? {
            let cookie = xcb_get_property(xcb, 0, window, atoms[name]!, XCB_GET_PROPERTY_TYPE_ANY.rawValue, 0, 1)
            guard let reply = xcb_get_property_reply(xcb, cookie, nil) else { return nil }
            defer { free(reply) }
            guard xcb_get_property_value_length(reply) >= 4, let value = xcb_get_property_value(reply) else { return nil }
            return value.loadUnaligned(as: UInt32.self)
        }
        func send(_ name: String, to window: xcb_window_t, _ data: [UInt32]) {
            var event = xcb_client_message_event_t()
            event.response_type = UInt8(XCB_CLIENT_MESSAGE)
            event.format = 32
            event.window = window
            event.type = atoms[name]!
            withUnsafeMutableBytes(of: &event.data) { raw in
                for (index, word) in data.prefix(5).enumerated() { raw.storeBytes(of: word, toByteOffset: index * 4, as: UInt32.self) }
            }
            let mask = XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT.rawValue | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY.rawValue
            withUnsafeBytes(of: &event) { raw in
                _ = xcb_send_event(xcb, 0, root, mask, raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
        }
        // Source indication 2: a pager or other direct user action, which window managers obey.
        switch action {
        case .workspaceNext, .workspacePrevious:
            guard let count = cardinal("_NET_NUMBER_OF_DESKTOPS"), count > 0, let current = cardinal("_NET_CURRENT_DESKTOP") else {
                return .refused("the window manager does not say which desktop is shown (_NET_CURRENT_DESKTOP)")
            }
            let step: UInt32 = action == .workspaceNext ? 1 : count - 1
            send("_NET_CURRENT_DESKTOP", to: root, [(current + step) % count, UInt32(XCB_CURRENT_TIME)])
        case .showDesktop:
            send("_NET_SHOWING_DESKTOP", to: root, [cardinal("_NET_SHOWING_DESKTOP") == 1 ? 0 : 1])
        case .closeWindow, .maximize, .minimize, .fullscreen:
            guard let active = cardinal("_NET_ACTIVE_WINDOW"), active != 0 else { return .refused("no window is active") }
            switch action {
            case .closeWindow: send("_NET_CLOSE_WINDOW", to: active, [UInt32(XCB_CURRENT_TIME), 2])
            case .minimize: send("WM_CHANGE_STATE", to: active, [3])  // IconicState
            case .fullscreen: send("_NET_WM_STATE", to: active, [2, atoms["_NET_WM_STATE_FULLSCREEN"]!, 0, 2])  // 2: toggle
            default: send("_NET_WM_STATE", to: active, [2, atoms["_NET_WM_STATE_MAXIMIZED_VERT"]!, atoms["_NET_WM_STATE_MAXIMIZED_HORZ"]!, 2])
            }
        case .workspaceUp, .workspaceDown, .workspaceLeft, .workspaceRight, .overview, .appGrid:
            return .refused("EWMH has no \(action)")
        }
        // A round trip: the server has taken the message before the connection closes.
        free(xcb_get_input_focus_reply(xcb, xcb_get_input_focus(xcb), nil))
        return xcb_connection_has_error(xcb) == 0 ? .done : .refused("the X server at \(display) closed the connection")
    }
}
