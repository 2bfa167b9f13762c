import Glibc
import TestSupport
import Testing

/// `touchgest doctor`, each finding in an environment made to create it: a fake HOME,
/// and a PATH holding only stub `systemctl` and `gsettings` scripts (or neither).
@Suite struct DoctorCommandTests {
    /// A fake home with `rules` (if any) as its rule file, and stubs printing the given text.
    static func home(rules: String?, systemctl: String? = nil, gsettings: String? = nil) -> String {
        let home = temporaryFolder()
        chmod(home, 0o700)
        mkdir("\(home)/bin", 0o700)
        if let rules {
            mkdir("\(home)/.config", 0o700)
            mkdir("\(home)/.config/touchgest", 0o700)
            writeText("\(home)/.config/touchgest/rules.toml", rules)
            chmod("\(home)/.config/touchgest/rules.toml", 0o600)
        }
        for (name, body) in [("systemctl", systemctl), ("gsettings", gsettings)] {
            guard let body else { continue }
            writeText("\(home)/bin/\(name)", "#!/bin/sh\n\(body)\n")
            chmod("\(home)/bin/\(name)", 0o755)
        }
        return home
    }

    static func doctor(_ home: String, _ variables: String = "", _ arguments: String = "--device /dev/null") -> Result {
        touchgest("doctor \(arguments)", prefix: "env -i HOME=\(home) PATH=\(home)/bin \(variables) ")
    }

    static let activeService = """
        case "$*" in "--user is-active touchgest.service") echo active;; *) exit 1;; esac
        """
    static let stoppedService = """
        case "$*" in "--user is-active touchgest.service") echo inactive; exit 3;; "--user cat touchgest.service") exit 0;; *) exit 1;; esac
        """
    static let swipes = """
        [rule.workspace-next]
        gesture = "swipe"
        device = "touchpad"
        fingers = 3
        direction = "left"
        command = "true"

        [rule.overview]
        gesture = "swipe"
        device = "touchpad"
        fingers = 4
        direction = "up"
        command = "true"

        """

    func lines(_ result: Result) -> [String] { result.stdout.split(separator: "\n").map(String.init) }

    @Test func noRuleFileSaysToRunInit() {
        let result = Self.doctor(Self.home(rules: nil, systemctl: Self.activeService))
        let lines = lines(result)
        let index = lines.firstIndex { $0.hasPrefix("warn  rules: no rule file at ") }
        #expect(index != nil, "\(result.stdout)")
        if let index { #expect(lines[index + 1] == "      fix: touchgest init   (writes a starter file for your desktop)") }
    }

    @Test func aBrokenRuleFileIsAnErrorWithItsPlace() {
        let home = Self.home(rules: "[rule.x]\ngesture = \"swipe\"\nfingers = 3\ndirection = \"lefft\"\ncommand = \"true\"\n", systemctl: Self.activeService)
        let result = Self.doctor(home)
        #expect(result.status == 1)
        #expect(lines(result).contains { $0.hasPrefix("error rules: \(home)/.config/touchgest/rules.toml:4:13: error: unknown direction 'lefft'") }, "\(result.stdout)")
        #expect(lines(result).contains("      fix: edit the file, then touchgest check"))
    }

    @Test func aValidRuleFileIsCounted() {
        let home = Self.home(rules: Self.swipes, systemctl: Self.activeService)
        #expect(lines(Self.doctor(home)).contains("ok    rules: \(home)/.config/touchgest/rules.toml is valid: 2 rules"))
    }

    @Test func theServiceRunningStoppedOrUnknowable() {
        let running = lines(Self.doctor(Self.home(rules: Self.swipes, systemctl: Self.activeService)))
        #expect(running.contains("ok    service: touchgest.service is running; see its log with: journalctl --user -u touchgest"))
        let stopped = lines(Self.doctor(Self.home(rules: Self.swipes, systemctl: Self.stoppedService)))
        let index = stopped.firstIndex(of: "warn  service: touchgest.service is not running")
        #expect(index != nil, "\(stopped)")
        if let index { #expect(stopped[index + 1] == "      fix: systemctl --user enable --now touchgest.service") }
        let absent = lines(Self.doctor(Self.home(rules: Self.swipes)))
        #expect(absent.contains { $0.hasPrefix("note  service: cannot ask systemctl --user (no systemd user session here)") }, "\(absent)")
    }

    @Test func gnomeAlsoFiresOnSwipesOfThreeOrMoreFingersUnlessAnExtensionTurnsItsGesturesOff() {
        let home = Self.home(rules: Self.swipes, systemctl: Self.activeService, gsettings: "echo \"@as []\"")
        let result = lines(Self.doctor(home, "XDG_CURRENT_DESKTOP=GNOME"))
        #expect(result.contains("warn  desktop: GNOME (XDG_CURRENT_DESKTOP=GNOME) switches workspaces and opens the overview with its own touchpad swipes of 3 fingers (after GNOME 46, of 3 or more), so they fire too with rules 'workspace-next', 'overview'; GNOME has no setting that turns them off"), "\(result)")
        #expect(result.contains { $0.hasPrefix("      fix: bind other gestures (taps, holds, pinches), or install and enable the 'Disable Gestures 2021' extension") })
        let off = Self.home(rules: Self.swipes, systemctl: Self.activeService,
                            gsettings: "echo \"['disable-gestures-2021@verycrazydog.gmail.com']\"")
        #expect(lines(Self.doctor(off, "XDG_CURRENT_DESKTOP=GNOME")).contains { $0.hasPrefix("ok    desktop: GNOME (XDG_CURRENT_DESKTOP=GNOME): a Disable Gestures extension is enabled") })
        let unknowable = lines(Self.doctor(Self.home(rules: Self.swipes, systemctl: Self.activeService), "XDG_CURRENT_DESKTOP=GNOME"))
        #expect(unknowable.contains("note  desktop: gsettings is not available here, so the extensions GNOME runs cannot be checked"))
    }

    /// On real GNOME Shell and KWin: GnomeFocusTests and KWinFocusTests.
    @Test func onGnomeAndKDEWithoutTheirSessionBusTheRulesForApplicationsAreSaidNotToFire() {
        let rules = Self.swipes + "[rule.browser-back]\ngesture = \"tap\"\nfingers = 2\napplication = \"firefox\"\ncommand = \"true\"\n"
        let home = Self.home(rules: rules, systemctl: Self.activeService, gsettings: "echo \"@as []\"")
        for desktop in ["GNOME", "KDE"] {
            let result = lines(Self.doctor(home, "XDG_CURRENT_DESKTOP=\(desktop) WAYLAND_DISPLAY=wayland-0 DBUS_SESSION_BUS_ADDRESS=unix:path=\(home)/no-bus"))
            let focus = result.filter { $0.contains(" focus: ") || $0.hasPrefix("      fix: run touchgest doctor") }
            #expect(focus.count == 2 && focus[0].hasPrefix("error focus: cannot reach the session bus at unix:path=\(home)/no-bus: ")
                    && focus[0].hasSuffix("; so rules with an application or title key never fire ('browser-back'); the others do")
                    && focus[1] == "      fix: run touchgest doctor in your desktop session", "\(result)")
        }
        // On X11 the X server tells the focus: no helper to check.
        #expect(lines(Self.doctor(home, "XDG_CURRENT_DESKTOP=KDE DISPLAY=:9")).contains(
            "ok    focus: KDE Plasma on X11: touchgest reads the focused window from the X server; no extension or script is needed"))
    }

    @Test func niriAlsoFiresOnThreeAndFourFingerSwipes() {
        let result = lines(Self.doctor(Self.home(rules: Self.swipes, systemctl: Self.activeService), "XDG_CURRENT_DESKTOP=niri"))
        #expect(result.contains { $0.hasPrefix("warn  desktop: niri (XDG_CURRENT_DESKTOP=niri) moves between columns and workspaces with its own 3-finger touchpad swipes, and opens the overview with 4-finger ones (since 25.05), so they fire too with rules 'workspace-next', 'overview'") }, "\(result)")
    }

    /// What `touchgest init` writes for a desktop must not be what doctor warns about there.
    @Test(arguments: [("niri", "XDG_CURRENT_DESKTOP=niri"), ("kde", "XDG_CURRENT_DESKTOP=KDE"), ("gnome", "XDG_CURRENT_DESKTOP=GNOME")])
    func eachDesktopsStarterLeavesTheDesktopsOwnGesturesAlone(desktop: String, variable: String) {
        let home = Self.home(rules: readText("\(packageRoot)/examples/\(desktop).toml"), systemctl: Self.activeService, gsettings: "echo \"@as []\"")
        let result = lines(Self.doctor(home, variable))
        let verdict = result.first { $0.contains(" desktop: ") }
        #expect(verdict?.hasPrefix("ok    desktop: ") == true, "\(result)")
    }

    @Test func kwinAlsoFiresOnFourFingerSwipes() {
        let result = lines(Self.doctor(Self.home(rules: Self.swipes, systemctl: Self.activeService), "XDG_CURRENT_DESKTOP=KDE"))
        #expect(result.contains { $0.hasPrefix("warn  desktop: KDE Plasma (XDG_CURRENT_DESKTOP=KDE): KWin switches desktops and opens the overview with its own 4-finger touchpad swipes, so they fire too with rules 'overview'") }, "\(result)")
        let clean = Self.home(rules: "[rule.t]\ngesture = \"tap\"\nfingers = 3\ncommand = \"true\"\n", systemctl: Self.activeService)
        #expect(lines(Self.doctor(clean, "XDG_CURRENT_DESKTOP=KDE")).contains { $0.hasPrefix("ok    desktop: KDE Plasma") })
    }

    // MARK: desktop-gestures = "yield" and follow (issue 35)

    static let yielding = "[settings]\ndesktop-gestures = \"yield\"\n\n" + swipes + """
        [rule.slide]
        gesture = "pan"
        device = "touchpad"
        fingers = 3
        follow = "workspaces"
        command = "true"

        """

    /// The desktop's findings: each `desktop` line and the fix after it.
    func desktopLines(_ result: Result) -> [String] {
        var kept: [String] = []
        var previous = ""
        for line in lines(result) {
            if line.contains(" desktop: ") || (line.hasPrefix("      fix: ") && previous.contains(" desktop: ")) { kept.append(line) }
            previous = line
        }
        return kept
    }

    /// Per desktop with `yield`: what touchgest takes and how, or what is the user's to
    /// set by hand; and with `follow`, whether the animation follows the fingers or what
    /// happens instead.
    @Test(arguments: [
        ("HYPRLAND_INSTANCE_SIGNATURE=x", [
            "ok    desktop: Hyprland (HYPRLAND_INSTANCE_SIGNATURE is set): while rules bind 3- and 4-finger touchpad swipes, touchgest turns Hyprland's own workspace swipe off through its socket (before Hyprland 0.51: gestures:workspace_swipe, or only workspace_swipe_min_fingers when only more fingers than its own clash), and back on when touchgest stops or its rules no longer bind them; if touchgest is killed first, 'hyprctl reload' turns it back on",
            "note  desktop: Hyprland 0.51 and later bind their swipes with 'gesture =' lines, which the socket does not list: there touchgest takes nothing (its log says so), and the lines with the fingers your rules bind are yours to remove",
            "      fix: grep -n 'gesture *=' ~/.config/hypr/hyprland.conf",
            "note  desktop: rule 'slide': follow = \"workspaces\": Hyprland's animation cannot be driven from outside (only its own gesture or a plugin moves it), so the rule does what it says without follow: its command or action at its threshold, a jump",
        ]),
        ("XDG_CURRENT_DESKTOP=GNOME", [
            "ok    desktop: GNOME (XDG_CURRENT_DESKTOP=GNOME): its own 3- and 4-finger touchpad swipes are yielded through touchgest's extension while touchgest runs (desktop-gestures = \"yield\"), and come back when it stops",
            "ok    desktop: rule 'slide': follow = \"workspaces\": GNOME's workspace animation follows the fingers through touchgest's extension, and GNOME decides at the lift whether to finish or go back",
        ]),
        ("XDG_CURRENT_DESKTOP=KDE", [
            "warn  desktop: KDE Plasma (XDG_CURRENT_DESKTOP=KDE): touchgest cannot ask KWin to yield, and KWin 5.27 and 6 have no setting for their own 4-finger touchpad swipes: left and right switch virtual desktops (built in), up and down belong to desktop effects (the Overview; in 5.27 also Present Windows and the Desktop Grid), which go only with the effect",
            "      fix: bind 3-finger swipes instead (examples/kde.toml does); or turn the effect off in System Settings > Workspace Behavior > Desktop Effects (the Overview: kwriteconfig6 --file kwinrc --group Plugins --key overviewEnabled false, then qdbus6 org.kde.KWin /KWin reconfigure; kwriteconfig5 and qdbus on 5.27)",
            "note  desktop: rule 'slide': follow = \"workspaces\": KWin's animation cannot be driven from outside (a virtual touchpad would; touchgest has none yet), so the rule does what it says without follow: its command or action at its threshold, a jump",
        ]),
        ("SWAYSOCK=/nowhere", [
            "note  desktop: sway (SWAYSOCK is set) has no touchpad gestures of its own by default; the 'bindgesture' lines in its config are yours: remove those for 3- and 4-finger touchpad swipes, as touchgest does not change sway's config",
            "      fix: grep -n bindgesture ~/.config/sway/config",
            "note  desktop: rule 'slide': follow = \"workspaces\": sway has no such animation, so the rule does what it says without follow: its command or action at its threshold, a jump",
        ]),
        ("XDG_CURRENT_DESKTOP=niri", [
            "warn  desktop: niri (XDG_CURRENT_DESKTOP=niri): touchgest cannot ask niri to yield its own 3- and 4-finger touchpad swipes (3: columns and workspaces; 4: the overview, since 25.05), so they fire too",
            "      fix: bind other gestures (taps, holds, pinches, 5-finger swipes)",
            "note  desktop: rule 'slide': follow = \"workspaces\": niri's animation cannot be driven over its IPC, so the rule does what it says without follow: its command or action at its threshold, a jump",
        ]),
        ("DISPLAY=:9", [
            "note  desktop: X11 (DISPLAY=:9 without WAYLAND_DISPLAY): the X server has no touchpad gestures of its own, so there is nothing to yield; a window manager or a tool (touchegg, libinput-gestures) that binds 3- and 4-finger touchpad swipes is yours to stop",
            "note  desktop: rule 'slide': follow = \"workspaces\": touchgest cannot drive an X11 window manager's animation, so the rule does what it says without follow: its command or action at its threshold, a jump",
        ]),
    ])
    func yieldSaysPerDesktopWhatTouchgestTakesAndWhatIsTheUsersToSet(variable: String, expected: [String]) {
        let home = Self.home(rules: Self.yielding, systemctl: Self.activeService, gsettings: "echo \"@as []\"")
        #expect(desktopLines(Self.doctor(home, variable)) == expected)
    }

    @Test func yieldWithNoSwipeRuleTakesNothingAndKeepStillWarns() {
        let taps = "[settings]\ndesktop-gestures = \"yield\"\n\n[rule.t]\ngesture = \"tap\"\nfingers = 3\ncommand = \"true\"\n"
        #expect(desktopLines(Self.doctor(Self.home(rules: taps, systemctl: Self.activeService), "HYPRLAND_INSTANCE_SIGNATURE=x")) == [
            "ok    desktop: Hyprland (HYPRLAND_INSTANCE_SIGNATURE is set): desktop-gestures = \"yield\", but no rule binds a touchpad swipe, so nothing of its own is taken",
        ])
        let kept = desktopLines(Self.doctor(Self.home(rules: Self.swipes, systemctl: Self.activeService), "HYPRLAND_INSTANCE_SIGNATURE=x"))
        #expect(kept.first == "note  desktop: Hyprland (HYPRLAND_INSTANCE_SIGNATURE is set) acts on touchpad swipes only as its config's gestures say; if it binds the same swipes as your rules, both fire")
    }

    // MARK: The session's state (logind and screensaver stand-ins on private buses, rig/session-buses)

    /// Starts a private system bus with the logind stand-in (session c1), and a session bus
    /// with `screensaver` stand-ins; returns the folder and doctor's variables for them.
    static func buses(screensavers: [String] = []) -> (folder: String, variables: String) {
        let folder = temporaryFolder()
        let script = "\(packageRoot)/rig/session-buses"
        _ = run(script, "bus \(folder) system")
        _ = run(script, "logind \(folder) c1")
        var variables = "DBUS_SYSTEM_BUS_ADDRESS=unix:path=\(folder)/system XDG_SESSION_ID=c1"
        if !screensavers.isEmpty {
            _ = run(script, "bus \(folder) session")
            for kind in screensavers { _ = run(script, "screensaver \(folder) \(kind)") }
            variables += " DBUS_SESSION_BUS_ADDRESS=unix:path=\(folder)/session"
        }
        return (folder, variables)
    }

    static func stopBuses(_ folder: String) {
        _ = run("\(packageRoot)/rig/session-buses", "stop-bus \(folder) system")
        _ = run("\(packageRoot)/rig/session-buses", "stop-bus \(folder) session")
    }

    /// sway's locker tells logind nothing: doctor says so, with the swayidle lines that
    /// lock through logind and say Unlock when swaylock ends.
    @Test func swaylockIsSaidToTellLogindNothingWithTheRemedy() {
        let (folder, variables) = Self.buses()
        defer { Self.stopBuses(folder) }
        let result = lines(Self.doctor(Self.home(rules: Self.swipes, systemctl: Self.activeService), "SWAYSOCK=/tmp/none \(variables)"))
        #expect(result.contains { $0.hasPrefix("ok    session: logind follows session c1 (XDG_SESSION_ID), /org/freedesktop/login1/session/c1: touchgest knows when the session is not in front (Active), when the machine goes to sleep (PrepareForSleep)") }, "\(result)")
        #expect(result.contains("note  session: no session bus: the screensaver's ActiveChanged cannot be followed"), "\(result)")
        let index = result.firstIndex { $0.hasPrefix("warn  session: swaylock does not set logind's LockedHint and sway has no lock event") }
        #expect(index != nil, "\(result)")
        if let index {
            #expect(result[index + 1].hasPrefix("      fix: lock through logind and tell it when swaylock ends"))
            #expect(result[index + 1].contains("lock 'pidof swaylock || { swaylock; loginctl unlock-session; } &'"))
        }
    }

    /// GNOME tells logind and its own screensaver interface: both are named as followed.
    @Test func gnomeTellsLockedHintAndItsScreensaver() {
        let (folder, variables) = Self.buses(screensavers: ["gnome-shell"])
        defer { Self.stopBuses(folder) }
        let home = Self.home(rules: Self.swipes, systemctl: Self.activeService, gsettings: "echo \"@as []\"")
        let result = lines(Self.doctor(home, "XDG_CURRENT_DESKTOP=GNOME \(variables)"))
        #expect(result.contains("ok    session: org.gnome.Shell.ScreenShield is on the session bus; not active: touchgest follows its ActiveChanged"), "\(result)")
        #expect(result.contains { $0.hasPrefix("ok    session: GNOME Shell sets logind's LockedHint when its screen locks") }, "\(result)")
    }

    /// Hyprland: hypridle's on_lock_cmd and on_unlock_cmd set LockedHint.
    @Test func hyprlockIsSaidToTellLogindNothingWithHypridlesRemedy() {
        let (folder, variables) = Self.buses(screensavers: [])
        defer { Self.stopBuses(folder) }
        let result = lines(Self.doctor(Self.home(rules: Self.swipes, systemctl: Self.activeService), "HYPRLAND_INSTANCE_SIGNATURE=x \(variables)"))
        let index = result.firstIndex { $0.hasPrefix("warn  session: hyprlock does not set logind's LockedHint") }
        #expect(index != nil, "\(result)")
        if let index { #expect(result[index + 1].contains("on_lock_cmd = busctl call org.freedesktop.login1 /org/freedesktop/login1/session/auto org.freedesktop.login1.Session SetLockedHint b true")) }
    }

    /// No system bus: touchgest still runs, and doctor says what it cannot tell.
    @Test func withoutASystemBusDoctorSaysRulesActWhateverTheScreenShows() {
        let folder = temporaryFolder()
        let result = lines(Self.doctor(Self.home(rules: Self.swipes, systemctl: Self.activeService), "DBUS_SYSTEM_BUS_ADDRESS=unix:path=\(folder)/none"))
        #expect(result.contains { $0.hasPrefix("warn  session: cannot reach the system bus at unix:path=\(folder)/none") && $0.hasSuffix("; rules act whatever the screen shows") }, "\(result)")
    }

    @Test func aNodeLibinputCannotUseIsAnError() {
        let result = Self.doctor(Self.home(rules: Self.swipes, systemctl: Self.activeService))
        #expect(result.status == 1)
        #expect(lines(result).contains("error devices: cannot open /dev/null: libinput does not take it as an input device"), "\(result.stdout)")
    }

    /// Only root can become a user without the 'input' group; as anyone else this test is
    /// disabled (shown as skipped), never passed.
    @Test(.enabled(if: getuid() == 0)) func aUserWhoCannotReadTheDeviceIsToldHowToGetAccess() {
        let home = Self.home(rules: nil)
        chmod(home, 0o755)
        let node = "\(home)/event7"
        writeText(node, "")
        chmod(node, 0o600)
        let result = touchgest("doctor --device \(node) --rules \(home)/none.toml",
                               prefix: "env -i HOME=\(home) PATH=\(home)/bin /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups ")
        let lines = lines(result)
        #expect(result.status == 1)
        let index = lines.firstIndex { $0.hasPrefix("error access: you cannot read \(node): you are not in the 'input' group and no uaccess rule gives them to you") }
        #expect(index != nil, "\(result.stdout) \(result.stderr)")
        if let index { #expect(lines[index + 1].hasPrefix("      fix: sudo usermod -aG input \"$USER\", then log out and in again; or install touchgest's uaccess udev rule")) }
    }

    /// doctor names where actions go and which of the rules' the desktop lacks, with the
    /// rule; where it cannot tell the desktop, that actions do nothing.
    @Test func actionsAreSaidWithTheirRouteAndWhatTheDesktopLacks() {
        let home = Self.home(rules: """
            [rule.next]
            gesture = "swipe"
            fingers = 4
            direction = "left"
            action = "workspace-next"

            [rule.grid]
            gesture = "tap"
            fingers = 3
            action = "app-grid"
            """)
        // The actions finding, and its fix when it has one.
        let findings = { (variables: String) -> [String] in
            let lines = Self.doctor(home, variables).stdout.split(separator: "\n").map(String.init)
            guard let index = lines.firstIndex(where: { $0.contains(" actions: ") }) else { return [] }
            return Array(lines[index...].prefix { $0 == lines[index] || $0.hasPrefix("      fix: ") }.prefix(2))
        }
        #expect(findings("SWAYSOCK=\(home)/sway.sock") == [
            "warn  actions: actions go through sway IPC at \(home)/sway.sock, but sway has no app-grid (rule 'grid'); rules with actions: 'next', 'grid'",
            "      fix: give those rules keys or a command instead (man touchgest-rules lists which desktops have which actions)",
        ])
        #expect(findings("XDG_CURRENT_DESKTOP=GNOME WAYLAND_DISPLAY=wayland-0") == [
            "ok    actions: actions go through GNOME Shell's own calls, through touchgest's extension; rules with actions: 'next', 'grid'",
        ])
        #expect(findings("") == [
            "warn  actions: cannot tell which desktop this is, so actions do nothing here; rules with actions: 'next', 'grid'",
            "      fix: run touchgest in your desktop session (doctor reads its variables: XDG_CURRENT_DESKTOP, WAYLAND_DISPLAY, SWAYSOCK, DISPLAY)",
        ])
    }

    static let superSwipe = """
        [rule.move]
        gesture = "swipe"
        fingers = 3
        direction = "left"
        modifiers = "super"
        command = "true"
        """

    /// On a desktop that does not tell the modifiers, doctor names the opt-in, what it
    /// needs and what that means.
    @Test func modifierRulesOnSwayAreExplainedWithTheKeyboardsOptIn() {
        let result = Self.doctor(Self.home(rules: Self.superSwipe, systemctl: Self.activeService), "SWAYSOCK=/nowhere WAYLAND_DISPLAY=wayland-1")
        let lines = lines(result)
        #expect(result.status == 1)
        let index = lines.firstIndex { $0.hasPrefix("error modifiers: ") }
        #expect(index.map { lines[$0] } == "error modifiers: sway's IPC tells no client which keys are held, so rules that want modifier keys held: move never fire",
                "\(result.stdout)")
        if let index {
            #expect(lines[index + 1] == "      fix: read them from the keyboards: modifier-source = \"keyboards\" in [settings]. That needs the 'input' group "
                + "(sudo usermod -aG input \"$USER\", then log out and in again), and with it any program you run can read every keystroke; "
                + "touchgest reads only whether Ctrl, Shift, Alt, Super or Caps Lock is down and drops every other key at once "
                + "(none is kept, logged, recorded, streamed or shown)")
        }
    }

    /// With the opt-in and no keyboard it can read, doctor says the rules never fire and
    /// what reading keyboards takes.
    @Test func theKeyboardsOptInWithNoKeyboardReadableIsAnError() {
        let result = Self.doctor(Self.home(rules: "[settings]\nmodifier-source = \"keyboards\"\n\n" + Self.superSwipe, systemctl: Self.activeService),
                                 "SWAYSOCK=/nowhere WAYLAND_DISPLAY=wayland-1")
        let lines = lines(result)
        let index = lines.firstIndex { $0.hasPrefix("error modifiers: ") }
        #expect(index.map { lines[$0] } == "error modifiers: modifier-source = \"keyboards\", but touchgest can read no keyboard, so rules that want "
                + "modifier keys held: move never fire", "\(result.stdout)")
        if let index {
            #expect(lines[index + 1] == "      fix: sudo usermod -aG input \"$USER\", then log out and in again (reading keyboards takes the 'input' "
                + "group, and with it any program you run can read every keystroke); or remove modifier-source and those rules")
        }
    }

    /// Where a desktop tells the modifiers, doctor names it: the X server on X11.
    @Test func modifierRulesOnX11SayTheXServerTellsThem() {
        let result = Self.doctor(Self.home(rules: Self.superSwipe, systemctl: Self.activeService), "DISPLAY=:7")
        #expect(lines(result).filter { $0.hasPrefix("ok    modifiers: ") } == [
            "ok    modifiers: the X server (XKB state) tells which modifier keys are held, for rules that want modifier keys held: move",
        ], "\(result.stdout)")
    }
}
