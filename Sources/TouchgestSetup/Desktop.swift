import CommandRunner

/// The desktops touchgest has a starter rule file for, and how to tell which one runs.
public enum Desktop: String, CaseIterable, Sendable {
    case sway, hyprland, niri, gnome, kde, x11

    /// How the desktop is named to people.
    public var title: String {
        switch self {
        case .sway: "sway"
        case .hyprland: "Hyprland"
        case .niri: "niri"
        case .gnome: "GNOME"
        case .kde: "KDE Plasma"
        case .x11: "an X11 desktop"
        }
    }

    /// The desktop this process runs in, from its own environment (``detect(in:)``).
    public static func detect() -> (desktop: Desktop, evidence: String)? {
        detect(in: CommandRunner.processEnvironment())
    }

    /// The desktop `environment` (the session's variables) shows, and the variable that
    /// shows it, e.g. `XDG_CURRENT_DESKTOP=GNOME`; nil when none does.
    ///
    /// XDG_CURRENT_DESKTOP (a colon-separated list, e.g. `ubuntu:GNOME`) comes first; then
    /// each compositor's own socket variable, which sway and others set even when no
    /// session manager sets XDG_CURRENT_DESKTOP; then DISPLAY without WAYLAND_DISPLAY, an
    /// X11 session of some other desktop.
    public static func detect(in environment: [String: String]) -> (desktop: Desktop, evidence: String)? {
        for name in ["XDG_CURRENT_DESKTOP", "XDG_SESSION_DESKTOP", "DESKTOP_SESSION"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            for entry in value.lowercased().split(separator: ":") {
                let desktop: Desktop? = switch entry {
                case "sway": .sway
                case "hyprland": .hyprland
                case "niri": .niri
                case "gnome", "gnome-classic", "gnome-flashback", "ubuntu", "pop", "unity": .gnome
                case "kde", "plasma", "plasmawayland", "plasmax11": .kde
                default: nil
                }
                if let desktop { return (desktop, "\(name)=\(value)") }
            }
        }
        let sockets: [(String, Desktop)] = [("SWAYSOCK", .sway), ("HYPRLAND_INSTANCE_SIGNATURE", .hyprland), ("NIRI_SOCKET", .niri)]
        for (name, desktop) in sockets where !(environment[name] ?? "").isEmpty {
            return (desktop, "\(name) is set")
        }
        if !(environment["DISPLAY"] ?? "").isEmpty && (environment["WAYLAND_DISPLAY"] ?? "").isEmpty {
            return (.x11, "DISPLAY=\(environment["DISPLAY"]!) without WAYLAND_DISPLAY")
        }
        return nil
    }
}
