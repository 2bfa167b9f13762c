import CXCB
import Glibc
import TestSupport

/// A bare X server (Xvfb without a window manager, rig/headless-x11 start-bare), stopped
/// when dropped: the test plays the window manager.
final class BareXServer {
    let folder = temporaryFolder()
    let display: String

    /// Throws with what rig/headless-x11 said when the server did not start.
    init() throws {
        guard let pipe = popen("'\(packageRoot)/rig/headless-x11' start-bare \(folder) 2>&1", "r") else {
            throw StartFailure(text: "cannot run rig/headless-x11")
        }
        var output = ""
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = fread(&buffer, 1, buffer.count, pipe)
            guard count > 0 else { break }
            output += String(decoding: buffer[..<count], as: UTF8.self)
        }
        let started = pclose(pipe) == 0
        display = output.split(separator: "\n").last.map(String.init) ?? ""
        guard started, display.hasPrefix(":") else { throw StartFailure(text: "rig/headless-x11 start-bare: \(output)") }
    }

    deinit {
        if let pipe = popen("'\(packageRoot)/rig/headless-x11' stop \(folder)", "r") { pclose(pipe) }
    }

    struct StartFailure: Error, CustomStringConvertible {
        var text: String
        var description: String { text }
    }
}

/// An X client that does what a window manager does to the properties the X11 focus
/// provider follows, each request sent at once and waited for with ``sync()``.
final class XClient {
    let xcb: OpaquePointer
    let root: xcb_window_t

    init?(display: String) {
        guard let xcb = xcb_connect(display, nil), xcb_connection_has_error(xcb) == 0,
              let screen = xcb_setup_roots_iterator(xcb_get_setup(xcb)).data else { return nil }
        self.xcb = xcb
        root = screen.pointee.root
    }

    deinit { xcb_disconnect(xcb) }

    func atom(_ name: String) -> xcb_atom_t {
        let reply = xcb_intern_atom_reply(xcb, xcb_intern_atom(xcb, 0, UInt16(name.utf8.count), name), nil)
        defer { free(reply) }
        return reply?.pointee.atom ?? 0
    }

    /// An unmapped window with `WM_CLASS` "class\0class\0" and `_NET_WM_NAME` `title`.
    func window(class name: String, title: String) -> xcb_window_t {
        let window = xcb_generate_id(xcb)
        xcb_create_window(xcb, 0, window, root, 0, 0, 10, 10, 0, UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue),
                          UInt32(XCB_COPY_FROM_PARENT), 0, nil)
        set(window, XCB_ATOM_WM_CLASS.rawValue, type: XCB_ATOM_STRING.rawValue, Array("\(name)\0\(name)\0".utf8))
        setTitle(window, title)
        return window
    }

    func setTitle(_ window: xcb_window_t, _ title: String) {
        set(window, atom("_NET_WM_NAME"), type: atom("UTF8_STRING"), Array(title.utf8))
    }

    /// `_NET_ACTIVE_WINDOW` on the root, as an EWMH window manager sets it.
    func activate(_ window: xcb_window_t) {
        var value = window
        xcb_change_property(xcb, UInt8(XCB_PROP_MODE_REPLACE.rawValue), root, atom("_NET_ACTIVE_WINDOW"),
                            XCB_ATOM_WINDOW.rawValue, 32, 1, &value)
        xcb_flush(xcb)
    }

    /// While the server is grabbed it answers this client only: another client's
    /// requests wait, while the events this client causes are sent at once.
    func grabServer() {
        xcb_grab_server(xcb)
        sync()
    }

    func ungrabServer() {
        xcb_ungrab_server(xcb)
        sync()
    }

    /// Returns once the server has handled every request sent so far.
    func sync() {
        free(xcb_get_input_focus_reply(xcb, xcb_get_input_focus(xcb), nil))
    }

    private func set(_ window: xcb_window_t, _ property: xcb_atom_t, type: xcb_atom_t, _ bytes: [UInt8]) {
        xcb_change_property(xcb, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, property, type, 8, UInt32(bytes.count), bytes)
        xcb_flush(xcb)
    }
}

/// Whether a thread of this process waits in `poll` (XCB's wait for a reply), by
/// /proc/self/task/TID/syscall, whose first number is the system call it is in.
func waitsInPoll(thread: pid_t) -> Bool {
    guard let call = readFile("/proc/self/task/\(thread)/syscall")?.split(separator: " ").first.flatMap({ Int($0) }) else { return false }
    // The kernel's numbers for poll and ppoll (asm/unistd_64.h; arm64 has only ppoll).
    #if arch(x86_64)
    return call == 7 || call == 271
    #elseif arch(arm64)
    return call == 73
    #else
    #error("waitsInPoll knows the system call numbers of x86-64 and arm64 only")
    #endif
}
