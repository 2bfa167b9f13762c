import ArgumentParser
import TouchgestDaemon

/// Which focus provider tells the rules' `application` and `title` keys the focused window.
struct FocusOptions: ParsableArguments {
    @Option(name: .customLong("focus"), help: ArgumentHelp(
        "Where the focused window comes from: auto (from the environment: SWAYSOCK, I3SOCK, HYPRLAND_INSTANCE_SIGNATURE, NIRI_SOCKET, XDG_CURRENT_DESKTOP=KDE or GNOME on Wayland, else DISPLAY), none, \(Daemon.focusProviderNames.joined(separator: ", ")).",
        valueName: "provider"))
    var provider = "auto"

    func validate() throws {
        guard provider == "auto" || provider == "none" || Daemon.focusProviderNames.contains(provider) else {
            throw ValidationError("unknown focus provider '\(provider)'; expected one of auto, none, \(Daemon.focusProviderNames.joined(separator: ", "))")
        }
    }
}
