import ArgumentParser
import Glibc
import Rulebook
import TouchgestSetup

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a starter rule file for your desktop.",
        discussion: """
            Finds the desktop from XDG_CURRENT_DESKTOP, then SWAYSOCK, \
            HYPRLAND_INSTANCE_SIGNATURE, NIRI_SOCKET, then DISPLAY without WAYLAND_DISPLAY (X11), \
            and writes its example rules, commented, to the rule file touchgest run reads, \
            readable and writable only by you (mode 600). Never overwrites a file and never \
            writes through a symlink; exits 1 instead. Then prints what to do next.
            """
    )

    @OptionGroup var rules: RulesOptions

    @Option(help: ArgumentHelp("The desktop to write rules for, instead of finding it.", valueName: "desktop"))
    var desktop: Desktop?

    func run() throws {
        let found: (desktop: Desktop, evidence: String)
        if let desktop {
            found = (desktop, "--desktop \(desktop.rawValue)")
        } else if let detected = Desktop.detect() {
            found = detected
        } else {
            printError("touchgest: error: cannot tell which desktop this is: none of XDG_CURRENT_DESKTOP, SWAYSOCK, HYPRLAND_INSTANCE_SIGNATURE, NIRI_SOCKET and DISPLAY names one; name it with --desktop, one of \(Desktop.allCases.map(\.rawValue).joined(separator: ", "))")
            throw ExitCode(1)
        }
        let path = rules.path
        let text = StarterRules.file(for: found.desktop)
        if let problem = StarterRules.writeNew(path, text) {
            printError("touchgest: error: \(problem)")
            throw ExitCode(1)
        }
        emit("wrote \(path) for \(found.desktop.title) (\(found.evidence)), readable only by you")
        do {
            _ = try Rulebook.load(path: path, requireSafePermissions: true)
        } catch {
            // The file is fine; a folder above it is not, and touchgest run would refuse it.
            for diagnostic in error.diagnostics { printError("touchgest: warning: \(diagnostic.description)") }
        }
        emit("next:")
        emit("  touchgest doctor      can touchgest read your touchpad; would \(found.desktop.title)'s own gestures fire too")
        emit("  touchgest debug       make gestures: see which rule fires (Ctrl-C to stop)")
        emit("  edit the file, then   touchgest check")
        emit("  systemctl --user enable --now touchgest.service     run it in every session")
    }
}
