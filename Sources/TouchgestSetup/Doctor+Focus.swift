import BusLoop
import FocusProviders
import Glibc
import TextWire
import Rulebook

/// The focus on GNOME and KDE Plasma on Wayland, where touchgest learns it from a helper
/// inside the desktop: GNOME Shell's extension, KWin's script.
extension Doctor {
    /// Whether the desktop's helper is in place and answering, and what that means for the
    /// rules with an application or title key in `book`.
    public mutating func checkFocus(_ book: Rulebook?) {
        guard let (desktop, _) = Desktop.detect(in: environment), desktop == .gnome || desktop == .kde else { return }
        let windowRules = book?.rules.filter { !$0.window.isEmpty }.map(\.name) ?? []
        guard !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty else {
            add(.ok, "focus", "\(desktop.title) on X11: touchgest reads the focused window from the X server; no extension or script is needed")
            return
        }
        let address: String
        if let variable = environment["DBUS_SESSION_BUS_ADDRESS"], !variable.isEmpty {
            address = variable
        } else if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            address = "unix:path=\(runtime)/bus"
        } else {
            focusBroken(windowRules, "no session bus: DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are not set",
                        fix: "run touchgest doctor in your desktop session")
            return
        }
        let client: BusClient
        do {
            client = try BusClient(address: address)
        } catch {
            focusBroken(windowRules, "cannot reach the session bus at \(address): \(error)", fix: "run touchgest doctor in your desktop session")
            return
        }
        if desktop == .gnome {
            checkGnomeExtension(client, windowRules)
        } else {
            checkKWinScript(client, windowRules)
        }
    }

    /// GNOME: installed for this shell's version, enabled, answering.
    private mutating func checkGnomeExtension(_ client: BusClient, _ windowRules: [String]) {
        let uuid = GnomeExtension.uuid
        let version: String
        switch client.property("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell", "ShellVersion") {
        case let .success(value):
            version = value.shown
        case let .failure(error):
            focusBroken(windowRules, "GNOME Shell does not answer on the session bus at \(client.address) (\(error))",
                        fix: "run touchgest doctor in your GNOME session")
            return
        }
        let major = Int(version.prefix { $0.isNumber }) ?? 0
        guard let flavour = GnomeExtension.flavour(for: major) else {
            focusBroken(windowRules, "touchgest's extension is written for GNOME Shell 42 to 50, not \(version)",
                        fix: "try the 45-50 flavour: \(Self.gnomeInstall("45-50")), log out and in, then: \(GnomeExtension.enableCommand); and report how it went")
            return
        }
        let install = "\(Self.gnomeInstall(flavour)), log out and in, then: \(GnomeExtension.enableCommand)"
        let info: GnomeExtension
        switch client.call("org.gnome.Shell", "/org/gnome/Shell", DBusFocusNames.gnomeExtensions, "GetExtensionInfo", [.string(uuid)]) {
        case let .success(values): info = GnomeExtension(values.first ?? .other)
        case let .failure(error):
            focusBroken(windowRules, "GNOME Shell \(version) does not say which extensions it has (\(error))", fix: nil)
            return
        }
        let place = info.path.isEmpty ? "" : " (\(info.path))"
        switch info.state {
        case .missing:
            focusBroken(windowRules, "touchgest's extension \(uuid) is not installed for GNOME Shell \(version)", fix: install)
            return
        case .outOfDate:
            let names = Self.shellVersions(inFolder: info.path)
            focusBroken(windowRules, "GNOME Shell \(version) refused touchgest's extension\(place): its metadata.json names GNOME "
                        + (names.isEmpty ? "other versions" : names.joined(separator: ", ")) + ", not \(major); GNOME \(major) needs the \(flavour) flavour",
                        fix: install)
            return
        case .disabled, .other:
            focusBroken(windowRules, "touchgest's extension is installed for GNOME Shell \(version)\(place) but not enabled", fix: GnomeExtension.enableCommand)
            return
        case .error:
            focusBroken(windowRules, "touchgest's extension failed in GNOME Shell \(version)\(place)\(info.error.isEmpty ? "" : ": \(info.error)")",
                        fix: "journalctl --user -b /usr/bin/gnome-shell says more; \(install)")
            return
        case .enabled, .moving:
            break
        }
        switch client.call("org.gnome.Shell", DBusFocusNames.path, DBusFocusNames.interface, "GetFocus") {
        case let .success(values) where values.count >= 2:
            let focus = values[0].shown.isEmpty ? "no window" : "\(values[0].shown) \"\(values[1].shown)\""
            add(.ok, "focus", "touchgest's extension is installed for GNOME Shell \(version)\(place), enabled and answering: the focus is \(focus)")
            focusWorks(windowRules, "GNOME")
        case let .success(values):
            focusBroken(windowRules, "touchgest's extension is enabled in GNOME Shell \(version)\(place) but answers \(values.count) values for the focus, not 2",
                        fix: "install the extension of the same version as touchgest: \(install)")
        case let .failure(error):
            focusBroken(windowRules, "touchgest's extension is enabled in GNOME Shell \(version)\(place) but does not answer (\(error))",
                        fix: "log out and in: GNOME Shell on Wayland takes a changed extension only at login")
        }
    }

    /// KDE Plasma: whether KWin runs touchgest's script, which touchgest loads itself.
    private mutating func checkKWinScript(_ client: BusClient, _ windowRules: [String]) {
        let name = DBusFocusNames.kwinScript
        let script = FocusProviders.kwinScript(environment)
        let loaded: Bool
        switch client.call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "isScriptLoaded", [.string(name)]) {
        case let .success(values):
            loaded = values.first?.boolean == true
        case let .failure(error):
            focusBroken(windowRules, "KWin does not answer on the session bus at \(client.address) (\(error))", fix: "run touchgest doctor in your Plasma session")
            return
        }
        let running = client.hasOwner(DBusFocusNames.service)
        if loaded && running {
            add(.ok, "focus", "KWin has loaded touchgest's script (\(name)), which reports the active window to the touchgest running now")
            focusWorks(windowRules, "KWin")
        } else if loaded {
            focusBroken(windowRules, "KWin runs touchgest's script (\(name)), but no touchgest owns \(DBusFocusNames.service) to hear it",
                        fix: "systemctl --user start touchgest.service (or touchgest run)")
        } else if access(script, R_OK) != 0 {
            focusBroken(windowRules, "KWin has not loaded touchgest's script, and touchgest cannot read it at \(script)",
                        fix: "install touchgest (make install, or the package), or set TOUCHGEST_KWIN_SCRIPT to the script's path")
        } else if running {
            focusBroken(windowRules, "touchgest runs, but KWin has not loaded its script \(script)",
                        fix: "touchgest's log says why KWin refused it (journalctl --user -u touchgest); KWin must be able to read the file")
        } else {
            focusBroken(windowRules, "KWin has not loaded touchgest's script: touchgest loads \(script) when it starts with --focus kde or auto, and no touchgest runs now",
                        fix: "systemctl --user start touchgest.service (or touchgest run)")
        }
    }

    /// The helper works: what that means for the rules.
    private mutating func focusWorks(_ windowRules: [String], _ helper: String) {
        if windowRules.isEmpty {
            add(.note, "focus", "no rule has an application or title key; when one does, it fires for the window \(helper) reports")
        } else {
            add(.ok, "focus", "rules with an application or title key fire for the window that has the focus: \(Self.quoted(windowRules))")
        }
    }

    /// The helper does not work: an error when a rule needs it, else a warning.
    private mutating func focusBroken(_ windowRules: [String], _ why: String, fix: String?) {
        if windowRules.isEmpty {
            add(.warn, "focus", why + "; no rule has an application or title key yet, so nothing is lost now", fix: fix)
        } else {
            add(.error, "focus", why + "; so rules with an application or title key never fire (\(Self.quoted(windowRules))); the others do", fix: fix)
        }
    }

    private static func quoted(_ names: [String]) -> String {
        names.map { "'\($0)'" }.joined(separator: ", ")
    }

    /// The command that installs the extension's `flavour` for this user.
    static func gnomeInstall(_ flavour: String) -> String {
        if let folder = FocusProviders.installed("share/touchgest/gnome-shell/\(flavour)/\(GnomeExtension.uuid)") {
            return "rm -rf ~/.local/share/gnome-shell/extensions/\(GnomeExtension.uuid) && cp -r \(folder) ~/.local/share/gnome-shell/extensions/"
        }
        return "make install GNOME_SHELL_FLAVOUR=\(flavour) (in touchgest's source)"
    }

    /// The `shell-version` list of the metadata.json in `folder`.
    static func shellVersions(inFolder folder: String) -> [String] {
        guard !folder.isEmpty, let text = readFile("\(folder)/metadata.json"),
              let metadata = try? JSONValue.parse(Array(text.utf8)) else { return [] }
        return metadata["shell-version"]?.array?.compactMap(\.string) ?? []
    }

    static func readFile(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while bytes.count < 1 << 20 {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer.prefix(count)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
