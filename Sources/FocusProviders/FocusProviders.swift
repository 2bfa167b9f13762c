/// Which focus provider the environment calls for.
public enum FocusProviders {
    /// The providers `--focus` names, besides `auto` and `none`.
    public static let names = ["sway", "i3", "hyprland", "niri", "x11"]

    /// The provider for the desktop the environment names, in this order: sway
    /// (`SWAYSOCK`), i3 (`I3SOCK`), Hyprland (`HYPRLAND_INSTANCE_SIGNATURE`), niri
    /// (`NIRI_SOCKET`), then X11 (`DISPLAY`) unless `WAYLAND_DISPLAY` is set too: under
    /// a Wayland compositor `DISPLAY` is Xwayland's, which knows only its own windows.
    /// Nil, with the reason, when none fits.
    public static func choose(_ name: String = "auto", environment: [String: String]) -> Result<FocusProvider, FocusWireError> {
        func set(_ key: String) -> Bool { !(environment[key] ?? "").isEmpty }
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
        case "x11": return .success(X11FocusProvider(display: environment["DISPLAY"] ?? ""))
        case let other?:
            return .failure(FocusWireError("unknown focus provider '\(other)'; expected one of auto, none, \(names.joined(separator: ", "))"))
        case nil:
            if set("WAYLAND_DISPLAY") {
                return .failure(FocusWireError("no focus provider for this Wayland compositor: none of SWAYSOCK, I3SOCK, HYPRLAND_INSTANCE_SIGNATURE or NIRI_SOCKET is set (DISPLAY is Xwayland's, which knows only its own windows)"))
            }
            return .failure(FocusWireError("no focus provider for this desktop: none of SWAYSOCK, I3SOCK, HYPRLAND_INSTANCE_SIGNATURE, NIRI_SOCKET or DISPLAY is set"))
        }
    }
}
