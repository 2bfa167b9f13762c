import CUinput
import Glibc
import InputActions
import PollLoop
import TouchGestures

/// Keys and text through a keyboard of touchgest's own on `/dev/uinput`: the route of
/// last resort, for GNOME on Wayland (which takes keys from no client) and a console.
///
/// Used only where the user can open `/dev/uinput` for writing (udev/70-touchgest-uinput.rules
/// grants the active seat's user that; docs/input-actions.md says what it allows). The
/// device is a keyboard and nothing else: keys, no pointer axes, no buttons, on
/// BUS_VIRTUAL, so that libinput and the desktop never take it for a mouse or touchpad
/// (one that "disables the touchpad while a mouse is plugged in" would switch the real
/// touchpad off) nor for the laptop's own keyboard (whose typing pauses the touchpad).
/// The desktop reads its keys through its own keyboard map; touchgest finds key codes in
/// a map built from the system's xkb defaults (``KeyboardMap``). Each action is one
/// write, from the loop, no sleep.
public final class UinputChannel: InputChannel {
    public let path: String
    public var name: String { "uinput keyboard at \(path)" }
    public var onReport: ((InputChannelReport) -> Void)?
    private var fd: Int32 = -1
    private var map: KeyboardMap?
    private var lastProblem: String?

    /// The name the keyboard has in `libinput list-devices` and the desktop's settings.
    static let deviceName = "touchgest keyboard"

    public init(path: String = "/dev/uinput") {
        self.path = path
    }

    deinit {
        if fd >= 0 {
            cuinput_destroy(fd)
            close(fd)
        }
    }

    /// Whether this user may write to `path` (the channel is chosen only then).
    public static func isWritable(_ path: String = "/dev/uinput") -> Bool {
        access(path, W_OK) == 0
    }

    public func start() {
        let opened = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        // Nothing is tried again: permissions and a missing module do not change by themselves.
        guard opened >= 0 else { return lost("cannot open \(path): \(String(cString: strerror(errno)))") }
        let created = cuinput_create_keyboard(opened, Self.deviceName)
        guard created == 0 else {
            close(opened)
            return lost("cannot make a keyboard on \(path): \(String(cString: strerror(-created)))")
        }
        guard let map = KeyboardMap() else {
            cuinput_destroy(opened)
            close(opened)
            return lost("libxkbcommon could not build a keyboard map (is xkb-data installed?)")
        }
        fd = opened
        self.map = map
        onReport?(.connected(name))
    }

    private func lost(_ why: String) {
        onReport?(.lost(why))
    }

    public func press(_ action: InputAction) {
        guard fd >= 0, let map else { return problem("\(name) is not open") }
        switch Self.keyEvents(for: action, on: map) {
        case let .failure(error):
            problem(error.description)
        case let .success(events):
            let codes = events.map { UInt16(truncatingIfNeeded: $0.code) }
            let values = events.map { Int32($0.pressed ? 1 : 0) }
            let written = cuinput_write_keys(fd, codes, values, Int32(events.count))
            if written < 0 { problem("\(name) took no keys: \(String(cString: strerror(Int32(-written))))") }
        }
    }

    /// The kernel key events `action` makes on `map`, in order; a keyboard of its own
    /// has no buttons.
    static func keyEvents(for action: InputAction, on map: KeyboardMap) -> Result<[(code: UInt32, pressed: Bool)], InputActionError> {
        if case .button = action {
            return .failure(InputActionError("the uinput channel is a keyboard only (a pointer device could switch the touchpad off): button does nothing here"))
        }
        return map.strokes(for: action).map { strokes in strokes.map { ($0.place.key, $0.pressed) } }
    }

    private func problem(_ why: String) {
        guard why != lastProblem else { return }
        lastProblem = why
        onReport?(.cannotPress(why))
    }

    // MARK: PollSource: nothing to read, nothing to wait for.

    public func collect(_ interest: inout PollInterest) {}
    public func handleReadable(_ fd: Int32) {}
    public var nextDeadline: Timestamp? { nil }
    public func handleDeadlines() {}
}
