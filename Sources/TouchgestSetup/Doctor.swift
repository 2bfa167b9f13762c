import CommandRunner
import Glibc
import InputDevices
import LibinputInput
import Rulebook
import TextWire
import TouchGestures

/// What `touchgest doctor` found: each finding with how to fix it.
public struct Doctor {
    public struct Finding: Sendable {
        public enum Level: String, Sendable {
            /// Works.
            case ok
            /// A fact the user should know: what a working set-up implies.
            case note
            /// Works, but not as the user likely wants.
            case warn
            /// Stops touchgest from working.
            case error
        }
        public var level: Level
        public var topic: String
        public var text: String
        /// The command or step that fixes it.
        public var fix: String?
    }

    public private(set) var findings: [Finding] = []

    public init() {}
    let environment = CommandRunner.processEnvironment()

    mutating func add(_ level: Finding.Level, _ topic: String, _ text: String, fix: String? = nil) {
        findings.append(Finding(level: level, topic: topic, text: text, fix: fix))
    }

    // MARK: Rules

    /// Whether the rule file is there and valid, and safe enough for `run`.
    public mutating func checkRules(_ path: String) -> Rulebook? {
        if access(path, F_OK) != 0 && errno == ENOENT {
            add(.warn, "rules", "no rule file at \(path): touchgest run has nothing to do",
                fix: "touchgest init   (writes a starter file for your desktop)")
            return nil
        }
        do {
            let book = try Rulebook.load(path: path, requireSafePermissions: true)
            add(.ok, "rules", "\(path) is valid: \(book.rules.count) rule\(book.rules.count == 1 ? "" : "s")")
            for warning in book.warnings { add(.warn, "rules", warning.description) }
            return book
        } catch {
            for diagnostic in error.diagnostics {
                add(.error, "rules", diagnostic.description, fix: "edit the file, then touchgest check")
            }
            return nil
        }
    }

    // MARK: Devices and access

    /// The touch devices libinput opens, and its problems opening others; with
    /// `readsModifierKeys` (`modifier-source = "keyboards"`) the keyboards it opens too.
    public mutating func checkDevices(_ backend: LibinputContext.Backend, statedSizes: [StatedDeviceSize],
                                      readsModifierKeys: Bool = false) -> (nodes: [String], problems: [String], keyboards: [String]) {
        let nodes: [String]
        let place: String
        switch backend {
        case let .seat(seat):
            nodes = Self.inputNodes()
            place = "seat \(seat)"
        case let .paths(paths):
            nodes = paths
            place = paths.joined(separator: ", ")
        }
        let context: LibinputContext
        do {
            context = try LibinputContext(backend, options: LibinputContext.Options(statedSizes: statedSizes, readsModifierKeys: readsModifierKeys))
        } catch {
            add(.error, "devices", "\(error)")
            return (nodes, [], [])
        }
        context.dispatch()
        for device in context.devices {
            add(.ok, "devices", "\(device)")
        }
        let problems = context.problems.map { "\($0)" }
        if context.devices.isEmpty {
            add(problems.isEmpty ? .warn : .error, "devices", "no touchpad or touchscreen seen on \(place)",
                fix: problems.isEmpty ? "plug one in, or check 'libinput list-devices' (as root) lists it" : nil)
        }
        return (nodes, problems, context.keyboards)
    }

    /// Whether this user can read the input device nodes, and by which right.
    public mutating func checkAccess(nodes: [String], problems: [String]) {
        var readable: [String] = []
        var refused: [String] = []
        for node in nodes {
            let descriptor = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            if descriptor >= 0 {
                readable.append(node)
                close(descriptor)
            } else if errno == EACCES || errno == EPERM {
                refused.append(node)
            }
        }
        let inGroup = Self.inInputGroup()
        let listed = Self.listedInInputGroup()
        let usermod = "sudo usermod -aG input \"$USER\", then log out and in again"
        if getuid() == 0 {
            add(.note, "access", "running as root: root reads every device, but touchgest run refuses to run its rules' commands as root; set it up for your own user")
        } else if inGroup {
            add(.ok, "access", "you are in the 'input' group: touchgest can read every input device")
            add(.note, "access", "so can every program you run, keystrokes included; a uaccess udev rule for touch devices only is narrower (data/ in touchgest's source, or the package's udev rule)")
        } else if !readable.isEmpty && refused.isEmpty {
            add(.ok, "access", "you can read \(readable.count) input device\(readable.count == 1 ? "" : "s") without the 'input' group (a uaccess udev rule gives them to the user at the seat)")
            add(.note, "access", "uaccess gives them only while you are logged in at this seat; over ssh or after switching users, touchgest cannot read them")
        } else if !refused.isEmpty {
            let first = refused[0]
            if listed {
                add(.error, "access", "you are listed in the 'input' group, but this session started before: \(first) cannot be read",
                    fix: "log out and in again (or reboot)")
            } else {
                add(.error, "access", "you cannot read \(first)\(refused.count > 1 ? " and \(refused.count - 1) more" : ""): you are not in the 'input' group and no uaccess rule gives them to you",
                    fix: usermod + "; or install touchgest's uaccess udev rule (touch devices only) and run: sudo udevadm trigger")
            }
        } else if nodes.isEmpty {
            add(.warn, "access", "no input device nodes in /dev/input to check")
        }
        for problem in problems where !problem.isEmpty {
            add(.warn, "devices", problem)
        }
    }

    /// /dev/input/event*, sorted.
    static func inputNodes() -> [String] {
        guard let folder = opendir("/dev/input") else { return [] }
        defer { closedir(folder) }
        var nodes: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("event") { nodes.append("/dev/input/\(name)") }
        }
        return nodes.sorted { $0.count == $1.count ? $0 < $1 : $0.count < $1.count }
    }

    /// Whether this process has the 'input' group.
    static func inInputGroup() -> Bool {
        guard let group = getgrnam("input") else { return false }
        let id = group.pointee.gr_gid
        if getegid() == id { return true }
        let count = getgroups(0, nil)
        guard count > 0 else { return false }
        var groups = [gid_t](repeating: 0, count: Int(count))
        let got = getgroups(count, &groups)
        return got > 0 && groups.prefix(Int(got)).contains(id)
    }

    /// Whether /etc/group lists this user in 'input' (which takes effect at the next login).
    static func listedInInputGroup() -> Bool {
        guard let group = getgrnam("input"), let user = getpwuid(getuid()) else { return false }
        let name = String(cString: user.pointee.pw_name)
        if user.pointee.pw_gid == group.pointee.gr_gid { return true }
        var member = group.pointee.gr_mem
        while let entry = member?.pointee {
            if String(cString: entry) == name { return true }
            member = member?.advanced(by: 1)
        }
        return false
    }

    // MARK: Service

    /// Whether the user service runs, asked of `systemctl --user`.
    public mutating func checkService() {
        guard let result = Self.capture("systemctl --user is-active touchgest.service") else {
            add(.note, "service", "cannot ask systemctl --user (no systemd user session here); run touchgest run yourself, or start it from your desktop's autostart")
            return
        }
        let state = result.output.split(separator: "\n").first.map(String.init) ?? ""
        switch state {
        case "active", "reloading":
            add(.ok, "service", "touchgest.service is running; see its log with: journalctl --user -u touchgest")
        case "failed":
            add(.error, "service", "touchgest.service failed",
                fix: "journalctl --user -u touchgest says why; then: systemctl --user restart touchgest.service")
        case "inactive", "unknown", "":
            let installed = Self.capture("systemctl --user cat touchgest.service")?.status == 0
            add(.warn, "service", installed ? "touchgest.service is not running" : "touchgest.service is not installed for this user",
                fix: installed ? "systemctl --user enable --now touchgest.service"
                    : "install the package (or: make install PREFIX=$HOME/.local), then: systemctl --user enable --now touchgest.service")
        default:
            add(.warn, "service", "touchgest.service is \(state)", fix: "systemctl --user status touchgest.service")
        }
    }

    // MARK: The desktop's own gestures

    /// Whether the desktop also acts on gestures the rules bind; with `desktop-gestures =
    /// "yield"`, what touchgest takes from it (``checkYield(_:_:evidence:)``); and what
    /// becomes of rules with `follow` (``checkFollow(_:_:)``).
    public mutating func checkDesktop(_ book: Rulebook) {
        guard let (desktop, evidence) = Desktop.detect(in: environment) else {
            add(.note, "desktop", "cannot tell which desktop this is, so cannot say whether its own gestures clash with the rules")
            return
        }
        defer { checkFollow(book, desktop) }
        if book.settings.desktopGestures == .yield { return checkYield(book, desktop, evidence: evidence) }
        func touchpadSwipes(fingers: ClosedRange<Int>) -> [String] {
            book.rules.filter { rule in
                (rule.gesture == .swipe || rule.gesture == .pan) && rule.device != .touchscreen
                    && (rule.gesture == .swipe ? fingers.contains(rule.fingers) : fingers.overlaps(rule.fingers...rule.maxFingers))
            }.map(\.name)
        }
        func names(_ list: [String]) -> String {
            list.map { "'\($0)'" }.joined(separator: ", ")
        }
        /// A desktop whose own touchpad swipes of `fingers` fire beside the rules.
        func ownSwipes(fingers: ClosedRange<Int>, _ desktop: String, ok: String, clash: String, then: String, fix: String) {
            let clashing = touchpadSwipes(fingers: fingers)
            guard !clashing.isEmpty else { return add(.ok, "desktop", "\(desktop): no rule binds \(ok)") }
            add(.warn, "desktop", "\(desktop)\(clash), so they fire too with rules \(names(clashing))\(then)", fix: fix)
        }
        switch desktop {
        case .gnome:
            // GNOME 46 and earlier take 3-finger swipes; later ones every swipe libinput
            // makes, of 3 or more fingers (gnome-shell merge request 3275).
            let clashing = touchpadSwipes(fingers: FingerLimit.counts(.swipe, on: .libinput))
            if clashing.isEmpty {
                add(.ok, "desktop", "GNOME (\(evidence)): no rule binds the touchpad swipes of 3 or more fingers GNOME uses itself")
            } else if let extensions = Self.capture("gsettings get org.gnome.shell enabled-extensions"), extensions.status == 0,
                      extensions.output.contains("disable-gestures") || extensions.output.contains("disablegestures") {
                add(.ok, "desktop", "GNOME (\(evidence)): a Disable Gestures extension is enabled, so GNOME's own swipes should not fire with rules \(names(clashing))")
            } else {
                add(.warn, "desktop", "GNOME (\(evidence)) switches workspaces and opens the overview with its own touchpad swipes of 3 fingers (after GNOME 46, of 3 or more), so they fire too with rules \(names(clashing)); GNOME has no setting that turns them off",
                    fix: "bind other gestures (taps, holds, pinches), or install and enable the 'Disable Gestures 2021' extension (extensions.gnome.org/extension/4049), then check: gsettings get org.gnome.shell enabled-extensions")
            }
            if Self.capture("gsettings get org.gnome.shell enabled-extensions") == nil {
                add(.note, "desktop", "gsettings is not available here, so the extensions GNOME runs cannot be checked")
            }
        case .kde:
            ownSwipes(fingers: 4...4, "KDE Plasma (\(evidence))", ok: "the 4-finger touchpad swipes KWin uses itself",
                      clash: ": KWin switches desktops and opens the overview with its own 4-finger touchpad swipes",
                      then: "; Plasma has no setting that turns them off", fix: "bind 3-finger swipes instead (examples/kde.toml does)")
        case .niri:
            // niri's own: 3-finger swipes (columns, workspaces) and, since 25.05, 4-finger
            // swipes (the overview).
            ownSwipes(fingers: 3...4, "niri (\(evidence))", ok: "the 3- and 4-finger touchpad swipes niri uses itself",
                      clash: " moves between columns and workspaces with its own 3-finger touchpad swipes, and opens the overview with 4-finger ones (since 25.05)",
                      then: "", fix: "bind other gestures (taps, holds, pinches, 5-finger swipes)")
        case .hyprland:
            add(.note, "desktop", "Hyprland (\(evidence)) acts on touchpad swipes only as its config's gestures say; if it binds the same swipes as your rules, both fire",
                fix: "look for 'gesture' and 'workspace_swipe' in ~/.config/hypr/hyprland.conf")
        case .sway:
            add(.note, "desktop", "sway (\(evidence)) acts on touchpad gestures only through 'bindgesture' in its config; if it binds the same gestures as your rules, both fire",
                fix: "grep bindgesture ~/.config/sway/config")
        case .x11:
            add(.note, "desktop", "X11 (\(evidence)): touchgest cannot tell whether your window manager acts on touchpad gestures itself")
        }
    }

    // MARK: Running a helper

    /// Runs `command` with /bin/sh and returns its exit status and standard output; nil
    /// when the program is not installed (status 127) or did not run.
    static func capture(_ command: String) -> (status: Int32, output: String)? {
        guard let stream = popen("\(command) 2>/dev/null </dev/null", "r") else { return nil }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536 {
            let count = fread(&buffer, 1, buffer.count, stream)
            if count <= 0 { break }
            bytes += buffer.prefix(count)
        }
        let status = pclose(stream)
        // The shell's status: exited with a code (127: no such program), or killed.
        guard status >= 0, status & 0x7F == 0 else { return nil }
        let code = (status >> 8) & 0xFF
        return code == 127 ? nil : (code, String(decoding: bytes, as: UTF8.self))
    }
}
