import CProcess
import Glibc
import InputActions
import PollLoop

/// Keys and text on wlroots compositors (sway, Hyprland, river, labwc, wayfire) and niri,
/// through `zwp_virtual_keyboard_v1`.
///
/// Once the registry is read, `wl_seat` and `zwp_virtual_keyboard_manager_v1` are bound,
/// a virtual keyboard is made and given a keyboard map built with libxkbcommon from the
/// system's defaults (``KeyboardMap``). Then each action is its key events and the
/// modifier state they make, written as the compositor takes them. GNOME and KDE offer no such global: the
/// channel says so.
public final class VirtualKeyboardChannel: WaylandChannel {
    /// The objects this channel makes after the shared ones.
    enum Made: UInt32 {
        case seat = 4, manager, keyboard
    }

    static let managerInterface = "zwp_virtual_keyboard_manager_v1"
    public override var name: String { "Wayland virtual keyboard at \(socketPath)" }
    private var map: KeyboardMap?

    public override init(display: String, runtimeDirectory: String) {
        super.init(display: display, runtimeDirectory: runtimeDirectory)
    }

    override func bind(_ globals: Globals, on fd: Int32) -> String? {
        guard let manager = globals[Self.managerInterface] else {
            return "the compositor at \(socketPath) offers no \(Self.managerInterface) (sway, Hyprland, river, labwc, wayfire and niri do; GNOME and KDE do not)"
        }
        guard let seat = globals["wl_seat"] else { return "the compositor at \(socketPath) has no seat" }
        guard let map = KeyboardMap() else { return "libxkbcommon could not build a keyboard map (is xkb-data installed?)" }
        let keymapFD = cprocess_memfd("touchgest-keymap")
        guard keymapFD >= 0, map.text.withUnsafeBytes({ write(keymapFD, $0.baseAddress, $0.count) }) == map.text.count else {
            if keymapFD >= 0 { close(keymapFD) }
            return "cannot make the keyboard map's file: \(String(cString: strerror(errno)))"
        }
        defer { close(keymapFD) }
        var requests = Self.bindRequest(seat.name, "wl_seat", version: 1, to: Made.seat.rawValue)
        requests += Self.bindRequest(manager.name, Self.managerInterface, version: 1, to: Made.manager.rawValue)
        requests += Self.request(Made.manager.rawValue, 0, [Made.seat.rawValue, Made.keyboard.rawValue])
        guard UnixSocket.sendAll(fd, requests) else { return "the compositor at \(socketPath) took no requests" }
        // keymap(format xkb_v1 = 1, fd, size): the descriptor goes beside the bytes.
        let keymap = Self.request(Made.keyboard.rawValue, 0, [1, UInt32(map.text.count)])
        let sent = keymap.withUnsafeBytes { cprocess_send_with_fd(fd, $0.baseAddress, UInt($0.count), keymapFD) }
        guard sent == keymap.count else { return "the compositor at \(socketPath) took no keyboard map" }
        self.map = map
        return nil
    }

    override func check(_ action: InputAction) -> String? {
        guard let map else { return "\(name) is not connected" }
        if case .button = action {
            return "a virtual keyboard has no buttons: button needs another channel on this desktop"
        }
        return map.check(action)?.description
    }

    override func encode(_ piece: InputAction) -> [UInt8] {
        guard let map, case let .success(strokes) = map.strokes(for: piece) else { return [] }
        // key(time, key, state), then modifiers(depressed, latched, locked, group) where
        // the key is a modifier of the map.
        let time = UInt32(truncatingIfNeeded: PollScheduler.now().microseconds / 1_000)
        var depressed: UInt32 = 0
        var requests: [UInt8] = []
        for stroke in strokes {
            requests += Self.request(Made.keyboard.rawValue, 1, [time, stroke.place.key, stroke.pressed ? 1 : 0])
            if let mask = map.masks[stroke.keysym] {
                depressed = stroke.pressed ? depressed | mask : depressed & ~mask
                requests += Self.request(Made.keyboard.rawValue, 2, [depressed, 0, 0, 0])
            }
        }
        return requests
    }
}
