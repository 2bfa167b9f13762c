/// The starter rule file of each desktop: examples/DESKTOP.toml as shipped, which the
/// build embeds (Starters/ links to them), so `touchgest init` needs no file installed
/// and the examples are the one place to edit a starter.
public enum StarterRules {
    public static func text(for desktop: Desktop) -> String {
        let bytes = switch desktop {
        case .sway: PackageResources.sway_toml
        case .hyprland: PackageResources.hyprland_toml
        case .niri: PackageResources.niri_toml
        case .gnome: PackageResources.gnome_toml
        case .kde: PackageResources.kde_toml
        case .x11: PackageResources.x11_toml
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
