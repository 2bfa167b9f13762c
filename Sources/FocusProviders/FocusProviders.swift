import Glibc

/// Which focus provider the environment calls for.
public enum FocusProviders {
    /// The providers `--focus` names, besides `auto` and `none`.
    public static let names = ["sway", "i3", "hyprland", "niri", "kde", "gnome", "x11"]

    /// The provider for the desktop the environment names, in this order: sway
    /// (`SWAYSOCK`), i3 (`I3SOCK`), Hyprland (`HYPRLAND_INSTANCE_SIGNATURE`), niri
    /// (`NIRI_SOCKET`), KDE Plasma and GNOME on Wayland (`XDG_CURRENT_DESKTOP` and
    /// `WAYLAND_DISPLAY`), then X11 (`DISPLAY`) unless `WAYLAND_DISPLAY` is set too: under
    /// a Wayland compositor `DISPLAY` is Xwayland's, which knows only its own windows.
    /// KDE and GNOME on X11 take the X11 provider, which needs no script or extension.
    /// Nil, with the reason, when none fits.
    public static func choose(_ name: String = "auto", environment: [String: String]) -> Result<FocusProvider, FocusWireError> {
        func set(_ key: String) -> Bool { !(environment[key] ?? "").isEmpty }
        switch name != "auto" ? name : desktop(environment) {
        case "sway": return .success(SocketFocusProvider(wire: I3IPCWire(.sway, environment: environment)))
        case "i3": return .success(SocketFocusProvider(wire: I3IPCWire(.i3, environment: environment)))
        case "hyprland": return .success(SocketFocusProvider(wire: HyprlandWire(environment: environment)))
        case "niri": return .success(SocketFocusProvider(wire: NiriWire(environment: environment)))
        case "kde": return .success(DBusFocusProvider(.kde(script: kwinScript(environment)), environment: environment))
        case "gnome": return .success(DBusFocusProvider(.gnome, environment: environment))
        case "x11": return .success(X11FocusProvider(display: environment["DISPLAY"] ?? ""))
        case let other?:
            return .failure(FocusWireError("unknown focus provider '\(other)'; expected one of auto, none, \(names.joined(separator: ", "))"))
        case nil:
            if set("WAYLAND_DISPLAY") {
                return .failure(FocusWireError("no focus provider for this Wayland compositor: none of SWAYSOCK, I3SOCK, HYPRLAND_INSTANCE_SIGNATURE or NIRI_SOCKET is set and XDG_CURRENT_DESKTOP names neither KDE nor GNOME (DISPLAY is Xwayland's, which knows only its own windows)"))
            }
            return .failure(FocusWireError("no focus provider for this desktop: none of SWAYSOCK, I3SOCK, HYPRLAND_INSTANCE_SIGNATURE, NIRI_SOCKET or DISPLAY is set"))
        }
    }

    /// The provider `auto` takes for the desktop the environment names (``choose(_:environment:)``
    /// says in which order); nil when none fits.
    static func desktop(_ environment: [String: String]) -> String? {
        func set(_ key: String) -> Bool { !(environment[key] ?? "").isEmpty }
        let desktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").lowercased().split(separator: ":").map(String.init)
        if set("SWAYSOCK") { return "sway" }
        if set("I3SOCK") { return "i3" }
        if set("HYPRLAND_INSTANCE_SIGNATURE") { return "hyprland" }
        if set("NIRI_SOCKET") { return "niri" }
        if set("WAYLAND_DISPLAY") && desktops.contains("kde") { return "kde" }
        if set("WAYLAND_DISPLAY") && desktops.contains("gnome") { return "gnome" }
        if set("DISPLAY") && !set("WAYLAND_DISPLAY") { return "x11" }
        return nil
    }

    /// What tells touchgest which modifier keys are held on the desktop the environment
    /// names (its focus provider, ``FocusProvider/followModifiers(_:)``), or why nothing
    /// does: no Wayland compositor but GNOME (through touchgest's extension, which asks
    /// GNOME Shell) tells a client, and keyboards are never read.
    public static func modifierSource(environment: [String: String]) -> Result<String, FocusWireError> {
        switch desktop(environment) {
        case "x11": .success("the X server (XKB state)")
        case "sway", "i3": .failure(FocusWireError("\(desktop(environment)!)'s IPC tells no client which keys are held"))
        case "hyprland": .failure(FocusWireError("Hyprland's socket tells no client which keys are held"))
        case "niri": .failure(FocusWireError("niri's IPC tells no client which keys are held"))
        case "kde": .failure(FocusWireError("KWin tells neither its scripts nor D-Bus clients which keys are held"))
        case "gnome": .success("GNOME Shell, through touchgest's extension (\(DBusFocusNames.gnomeExtension))")
        default: .failure(FocusWireError("no desktop is known here to tell which keys are held (DISPLAY, or a Wayland desktop's variables, are not set)"))
        }
    }

    /// Where the KWin script is: `TOUCHGEST_KWIN_SCRIPT`, else where it is installed
    /// (``installed(_:)``).
    public static func kwinScript(_ environment: [String: String]) -> String {
        if let path = environment["TOUCHGEST_KWIN_SCRIPT"], !path.isEmpty { return path }
        let tail = "share/touchgest/kwin/touchgest-focus.js"
        return installed(tail) ?? "/usr/\(tail)"
    }

    /// Where a file touchgest installs under `share/` is, `tail` naming it from the prefix
    /// (`share/touchgest/...`): beside the program's `bin` (`make install` to any prefix),
    /// else under /usr/local, else under /usr. Nil when it is in none of them.
    public static func installed(_ tail: String) -> String? {
        var candidates: [String] = []
        var buffer = [CChar](repeating: 0, count: 4_096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 {
            let program = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let prefix = program.split(separator: "/", omittingEmptySubsequences: false).dropLast(2).joined(separator: "/")
            candidates.append("\(prefix)/\(tail)")
        }
        candidates += ["/usr/local/\(tail)", "/usr/\(tail)"]
        return candidates.first { access($0, R_OK) == 0 }
    }
}
