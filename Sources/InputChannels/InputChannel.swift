import Glibc
import InputActions
import PollLoop
import TouchGestures

/// What an input channel tells the daemon, in order.
public enum InputChannelReport: Hashable, Sendable {
    /// The channel reached its desktop; the text says which and where, for the log.
    case connected(String)
    /// It went away or never answered; it tries again by itself.
    case lost(String)
    /// One action could not be pressed, and why (said once per cause).
    case cannotPress(String)
}

extension InputChannelReport: CustomStringConvertible {
    /// The one line the log of `touchgest run` and the text of `touchgest debug` give this
    /// report: `input: connected to x11 XTEST at :0`, `input: keys, text and buttons cannot
    /// be pressed: WHY`, `input: WHY`.
    public var description: String {
        switch self {
        case let .connected(text): "input: connected to \(text)"
        case let .lost(why): "input: keys, text and buttons cannot be pressed: \(why)"
        case let .cannotPress(why): "input: \(why)"
        }
    }
}

/// The desktop's own way of taking keys, text and clicks from touchgest: a source of the
/// daemon's poll loop that connects without blocking it and writes each action at once,
/// with no sleep between key events.
public protocol InputChannel: PollSource {
    /// What the channel is, for `debug`, the log and `doctor`: `x11 XTEST at :0`.
    var name: String { get }
    /// Receives every report; set it before ``start()``.
    var onReport: ((InputChannelReport) -> Void)? { get set }
    /// Connects now (on its own thread where the library only blocks).
    func start()
    /// Presses `action` now, or reports why it cannot.
    func press(_ action: InputAction)
}

/// Which channel this desktop has, from the environment, or why there is none.
public enum InputChannels {
    public static func choose(environment: [String: String]) -> Result<InputChannel, InputActionError> {
        let wayland = environment["WAYLAND_DISPLAY"].map { !$0.isEmpty } ?? false
        if !wayland, let display = environment["DISPLAY"], !display.isEmpty {
            return .success(XTestChannel(display: display))
        }
        if wayland, let display = environment["WAYLAND_DISPLAY"] {
            let desktop = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.uppercased() }
            if desktop.contains("GNOME") {
                // Through touchgest's extension; uinput where the extension is not there.
                return .success(GnomeShellChannel(sessionBus: environment["DBUS_SESSION_BUS_ADDRESS"] ?? "",
                                                  fallback: UinputChannel.isWritable() ? UinputChannel() : nil))
            }
            let runtime = environment["XDG_RUNTIME_DIR"] ?? ""
            if desktop.contains("KDE") {
                return .success(KWinFakeInputChannel(display: display, runtimeDirectory: runtime,
                                                     sessionBus: environment["DBUS_SESSION_BUS_ADDRESS"] ?? ""))
            }
            return .success(VirtualKeyboardChannel(display: display, runtimeDirectory: runtime))
        }
        if UinputChannel.isWritable() { return .success(UinputChannel()) }
        return .failure(InputActionError("no desktop to press keys in (neither DISPLAY nor WAYLAND_DISPLAY is set), and /dev/uinput is not writable by you"))
    }

    /// The route of desktop actions where the desktop takes them on a socket of its own
    /// (sway, i3, Hyprland, niri) or through EWMH (X11); nil where the input channel takes
    /// them (KDE) or none is built yet.
    public static func chooseActions(environment: [String: String]) -> InputChannel? {
        func set(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let path = set("SWAYSOCK") { return ActionChannel(wire: I3ActionWire(desktop: "sway", socketPath: path)) }
        if let path = set("I3SOCK") { return ActionChannel(wire: I3ActionWire(desktop: "i3", socketPath: path)) }
        if let signature = set("HYPRLAND_INSTANCE_SIGNATURE") {
            let folders = [set("XDG_RUNTIME_DIR").map { "\($0)/hypr/\(signature)" }, "/tmp/hypr/\(signature)"].compactMap { $0 }
            let folder = folders.first { access("\($0)/.socket.sock", F_OK) == 0 } ?? folders[0]
            return ActionChannel(wire: HyprlandActionWire(socketPath: "\(folder)/.socket.sock"))
        }
        if let path = set("NIRI_SOCKET") { return ActionChannel(wire: NiriActionWire(socketPath: path)) }
        if set("WAYLAND_DISPLAY") == nil, let display = set("DISPLAY") { return ActionChannel(wire: X11ActionWire(socketPath: display)) }
        return nil
    }

    /// What carries desktop actions out on this desktop, for `doctor`; nil when the desktop
    /// cannot be told.
    public static func actionRoute(environment: [String: String]) -> String? {
        if let channel = chooseActions(environment: environment) { return channel.name }
        let wayland = !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        let desktop = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.uppercased() }
        if wayland && desktop.contains("GNOME") { return "GNOME Shell's own calls, through touchgest's extension" }
        if wayland && desktop.contains("KDE") { return "KWin's global shortcuts on the session bus" }
        return nil
    }

    /// Why this desktop cannot do a desktop action (`sway has no overview`), nil when it
    /// can, from the same tables its route uses; nil when the desktop cannot be told.
    public static func lackedActions(environment: [String: String]) -> ((DesktopAction) -> String?)? {
        if let channel = chooseActions(environment: environment) as? ActionChannel { return channel.lacks }
        let wayland = !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        let desktop = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.uppercased() }
        if wayland && desktop.contains("GNOME") {
            return { GnomeShellChannel.actions.contains($0) ? nil : "GNOME Shell has no \($0)" }
        }
        if wayland && desktop.contains("KDE") {
            return { KWinFakeInputChannel.shortcut(for: $0) == nil ? "KDE Plasma has no \($0) that touchgest can reach" : nil }
        }
        return nil
    }
}
