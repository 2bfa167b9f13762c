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
        let desktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").lowercased().split(separator: ":").map(String.init)
        let chosen: String?
        if name != "auto" {
            chosen = name
        } else if set("SWAYSOCK") {
            chosen = "sway"
        } else if set("I3SOCK") {
            chosen = "i3"
        } else if set("HYPRLAND_INSTANCE_SIGNATURE") {
            chosen = "hyprland"
        } else if set("NIRI_SOCKET") {
            chosen = "niri"
        } else if set("WAYLAND_DISPLAY") && desktops.contains("kde") {
            chosen = "kde"
        } else if set("WAYLAND_DISPLAY") && desktops.contains("gnome") {
            chosen = "gnome"
        } else if set("DISPLAY") && !set("WAYLAND_DISPLAY") {
            chosen = "x11"
        } else {
            chosen = nil
        }
        switch chosen {
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
