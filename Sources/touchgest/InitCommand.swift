import ArgumentParser
import CommandRunner
import Glibc
import Rulebook

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
        } else if let detected = Desktop.detect(in: CommandRunner.processEnvironment()) {
            found = detected
        } else {
            printError("touchgest: error: cannot tell which desktop this is: none of XDG_CURRENT_DESKTOP, SWAYSOCK, HYPRLAND_INSTANCE_SIGNATURE, NIRI_SOCKET and DISPLAY names one; name it with --desktop, one of \(Desktop.allCases.map(\.rawValue).joined(separator: ", "))")
            throw ExitCode(1)
        }
        let path = rules.path
        let text = Self.header(for: found.desktop) + StarterRules.text(for: found.desktop)
        if let problem = Self.writeNew(path, text) {
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

    /// The comment above the desktop's example rules.
    static func header(for desktop: Desktop) -> String {
        """
        # Written by `touchgest init` for \(desktop.title). Edit it freely: `touchgest check`
        # validates it, `touchgest debug` shows which rule each gesture fires (and, with no
        # rule file, the name and rule of every gesture), and `touchgest run` reloads it when
        # you save. Every key: man touchgest-rules.
        \n
        """
    }

    /// Creates `path` (and the folders to it, private) holding `text`, mode 600; never
    /// replaces or follows anything already there. Returns why not, or nil.
    static func writeNew(_ path: String, _ text: String) -> String? {
        var folder = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/").dropLast() {
            folder += "/\(part)"
            if mkdir(folder, 0o700) != 0 && errno != EEXIST {
                return "cannot make the folder \(folder): \(String(cString: strerror(errno)))"
            }
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = errno
            var status = stat()
            if reason == EEXIST && lstat(path, &status) == 0 {
                if status.st_mode & S_IFMT == S_IFLNK {
                    return "\(path) is a symlink; touchgest init never writes through one. Point touchgest at the file it names with --rules, or remove the link and run init again"
                }
                return "\(path) already exists; touchgest init never overwrites a rule file. Check it with 'touchgest check', or move it away (mv '\(path)' '\(path).old') and run init again"
            }
            return "cannot create \(path): \(String(cString: strerror(reason)))"
        }
        defer { close(descriptor) }
        // umask may have taken bits away, never added any; state the mode outright.
        fchmod(descriptor, 0o600)
        var remaining = text
        let failed = remaining.withUTF8 { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return true }
                offset += written
            }
            return false
        }
        if failed {
            let reason = String(cString: strerror(errno))
            unlink(path)
            return "cannot write \(path): \(reason)"
        }
        return nil
    }
}
