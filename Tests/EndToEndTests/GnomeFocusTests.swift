import Glibc
import TestSupport
import Testing

/// Rules for the focused window on a real GNOME Shell 43.9 (headless, no GPU, no input,
/// running as nobody: rig/headless-gnome) with touchgest's extension (the 42-44 flavour,
/// data/gnome-shell/42-44) installed and enabled, real GTK windows, the focus moved by
/// the rig's test-only extension (Main.activateWindow), and gestures from the real
/// libinput on emulated devices. One GNOME Shell serves the whole suite.
///
/// Not run here: GNOME 42 and 44 (the same flavour), and 45 to 50 (the ES-module flavour,
/// checked only with the local gjs: GnomeExtensionModuleTests).
@Suite(.serialized, .enabled(if: getuid() == 0, "GNOME Shell runs as nobody, which only root can switch to"),
       .desktop("headless-gnome"))
struct GnomeFocusTests {
    /// touchgest's environment on this desktop: what a GNOME session on Wayland sets.
    static func session(_ desktop: WaylandDesktop) -> String {
        "env -u SWAYSOCK -u I3SOCK -u HYPRLAND_INSTANCE_SIGNATURE -u NIRI_SOCKET -u DISPLAY XDG_CURRENT_DESKTOP=GNOME "
            + "WAYLAND_DISPLAY=wayland-0 DBUS_SESSION_BUS_ADDRESS='\(desktop.address)'"
    }

    /// `touchgest doctor`'s focus findings in that environment, as a rig script's step.
    /// doctor's focus findings and their fixes (its other findings, the session's, left out).
    static func doctor(_ desktop: WaylandDesktop) -> String {
        "shell \(session(desktop)) HOME=$FOLDER '\(touchgestBinary)' doctor --device /dev/null --rules $FOLDER/rules.toml "
            + "2>&1 | grep -A1 ' focus: ' | grep -E ' focus: |^      fix: ' > $FOLDER/doctor.out"
    }

    @Test func theSameSwipeRunsADifferentCommandPerFocusedAppAndSurvivesGnomeShellRestarting() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        desktop.changed()
        let run = try desktop.run(accepting: { WaylandDesktop.out($0).count == 6 }) {
            rig(devices: ["touchpad"], rules: FocusRules.rules, script: """
                device touchpad
                await focus: term-b "Bee"
                \(FocusRules.swipe)
                tap 2 at 50,35
                wait 400ms
                shell \(desktop.command("focus", "term-a"))
                await focus: term-a "Alpha"
                \(FocusRules.swipe)
                tap 2 at 50,35
                wait 400ms
                shell \(desktop.command("workspace", "1"))
                await focus: no window
                \(FocusRules.swipe)
                shell \(desktop.command("kill"))
                await focus: unavailable: GNOME Shell left the session bus at \(desktop.address); waiting for it
                \(FocusRules.swipe)
                shell \(desktop.command("start", "term-a=Again")) > /dev/null
                await focus: term-a "Again"
                \(FocusRules.swipe)
                """, arguments: "run -v --allow-root --focus gnome", extra: "--merge-stderr --signal TERM --ready 'device added'",
                wrapper: Self.session(desktop))
        }
        #expect(run.status == 0, "\(run)")
        #expect(readText("\(run.folder)/out").split(separator: "\n") == [
            "general term-b",
            "term-a-tab term-a Alpha",
            "not-b term-a",
            "general ",
            // GNOME Shell is gone: the general rule still fires, without TOUCHGEST_APP.
            "general ",
            "term-a-tab term-a Again",
        ], "\(run)")
        // Why the rules for applications could not fire is said once, not per gesture.
        #expect(run.lines.filter { $0.contains("rules with an application or title condition do not fire") }.count == 1, "\(run)")
        // The extension spoke by itself once the new shell had loaded it: touchgest did not
        // call it missing while the shell was starting.
        #expect(!run.lines.contains { $0.contains("has no extension") }, "\(run)")
    }

    @Test func debugShowsTheFocusAndTitlesAsTheyChangeAndATitleRuleFires() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        let run = try desktop.run(accepting: { $0.decisions.count == 2 }) {
            rig(devices: ["touchpad"], rules: FocusRules.titleRules, script: """
                device touchpad
                await focus: term-b "Bee"
                \(FocusRules.swipe)
                shell \(desktop.command("title", "term-b 'Draft 1'"))
                await focus: term-b "Draft 1"
                \(FocusRules.swipe)
                shell \(desktop.command("focus", "term-a"))
                await focus: term-a "Alpha"
                shell \(desktop.command("workspace", "1"))
                await focus: no window
                """, arguments: "debug --focus auto", extra: "--signal TERM --ready 'device added'",
                wrapper: Self.session(desktop))
        }
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.filter { $0.hasPrefix("focus:") || $0.contains("sits out") } == [
            "focus: connected to gnome: GNOME Shell on the session bus at \(desktop.address)",
            "focus: term-b \"Bee\"",
            "draft-swipe sits out: the focused window is term-b \"Bee\"; the rule wants title \"Draft*\"",
            "focus: term-b \"Draft 1\"",
            "focus: term-a \"Alpha\"",
            "focus: no window",
        ], "\(run)")
        #expect(run.decisions == ["next-workspace possible -> recognized", "draft-swipe possible -> recognized"], "\(run)")
    }

    @Test func withTheExtensionDisabledApplicationRulesDoNotFireAndTheLogAndDoctorSayWhyOnce() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        let disabled = "the extension touchgest-focus@touchgest.org is disabled: gnome-extensions enable touchgest-focus@touchgest.org"
        let run = try desktop.run(accepting: { WaylandDesktop.out($0).count == 3 }) {
            rig(devices: ["touchpad"], rules: FocusRules.rules, script: """
                device touchpad
                await focus: term-b "Bee"
                shell \(desktop.command("disable"))
                await focus: unavailable: \(disabled)
                shell \(desktop.command("focus", "term-a"))
                \(FocusRules.swipe)
                tap 2 at 50,35
                wait 400ms
                \(FocusRules.swipe)
                \(Self.doctor(desktop))
                shell \(desktop.command("enable"))
                await focus: term-a "Alpha"
                \(FocusRules.swipe)
                """, arguments: "run -v --allow-root --focus gnome", extra: "--merge-stderr --signal TERM --ready 'device added'",
                wrapper: Self.session(desktop))
        }
        #expect(run.status == 0, "\(run)")
        // Disabled, touchgest cannot know term-a took the focus: the rule for term-a and
        // the tap for every application but term-b sit out.
        #expect(readText("\(run.folder)/out").split(separator: "\n") == [
            "general ", "general ", "term-a-tab term-a Alpha",
        ], "\(run)")
        #expect(run.lines.filter { $0.contains("rules with an application or title condition do not fire") } == [
            "touchgest: warning: focus: rules with an application or title condition do not fire: \(disabled)",
        ], "\(run)")
        let path = "\(desktop.folder)/home/.local/share/gnome-shell/extensions/touchgest-focus@touchgest.org"
        #expect(readText("\(run.folder)/doctor.out").split(separator: "\n") == [
            "error focus: touchgest's extension is installed for GNOME Shell 43.9 (\(path)) but not enabled; "
                + "so rules with an application or title key never fire ('terminal-a-tab', 'not-b-tap'); the others do",
            "      fix: gnome-extensions enable touchgest-focus@touchgest.org",
        ], "\(readText("\(run.folder)/doctor.out"))")
    }

    @Test func doctorSaysTheExtensionIsInstalledForThisVersionEnabledAndAnswering() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        let output = desktop.doctor(FocusRules.rules, session: Self.session(desktop))
        let path = "\(desktop.folder)/home/.local/share/gnome-shell/extensions/touchgest-focus@touchgest.org"
        #expect(output.filter { $0.contains(" focus: ") } == [
            "ok    focus: touchgest's extension is installed for GNOME Shell 43.9 (\(path)), enabled and answering: the focus is term-b \"Bee\"",
            "ok    focus: rules with an application or title key fire for the window that has the focus: 'terminal-a-tab', 'not-b-tap'",
        ], "\(output)")
    }

    // Keys go through touchgest's extension: doctor says so, with the rules that press
    // them; with the extension disabled (and no /dev/uinput on this machine), that it does
    // not answer and what to do.
    @Test func doctorSaysKeysGoThroughTheExtensionOrThatItDoesNotAnswer() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        let rules = """
            [rule.paste]
            gesture = "tap"
            fingers = 2
            keys = "ctrl+shift+v"
            """
        let enabled = desktop.doctor(rules, session: Self.session(desktop)).filter { $0.contains(" input: ") }
        #expect(enabled == [
            "ok    input: keys, text and buttons go through GNOME Shell's own keyboard and pointer, through touchgest's extension; "
                + "rules that press keys, text or buttons: paste",
        ])
        desktop.run("disable")
        let disabled = desktop.doctor(rules, session: Self.session(desktop)).filter { $0.contains(" input: ") }
        #expect(disabled == [
            "warn  input: GNOME Shell's own keyboard and pointer, through touchgest's extension does not answer: touchgest's GNOME Shell "
                + "extension does not answer (org.freedesktop.DBus.Error.UnknownMethod): install it (make install, or the package), "
                + "enable it (gnome-extensions enable touchgest-focus@touchgest.org) and log in again; or allow /dev/uinput "
                + "(docs/input-actions.md); rules that press keys, text or buttons: paste",
        ])
    }

    @Test func gnome43RefusesTheFlavourFor45AndTouchgestAndDoctorSayWhichToInstall() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        desktop.changed()
        // The shell finds its extensions when it starts: the 45-50 flavour in place of
        // the 42-44 one, then GNOME Shell started again.
        desktop.run("kill")
        desktop.run("flavour", "45-50")
        _ = try startDesktop(desktop.command("start", WaylandDesktop.windows))
        defer { desktop.run("flavour", "42-44") }
        let path = "\(desktop.folder)/home/.local/share/gnome-shell/extensions/touchgest-focus@touchgest.org"
        let run = try desktop.run(accepting: { WaylandDesktop.out($0) == ["general "] }) {
            rig(devices: ["touchpad"], rules: FocusRules.rules, script: """
                device touchpad
                await focus: unavailable: GNOME Shell refused the extension touchgest-focus@touchgest.org at \(path)
                \(FocusRules.swipe)
                \(Self.doctor(desktop))
                """, arguments: "run -v --allow-root --focus gnome", extra: "--merge-stderr --signal TERM --ready 'device added'",
                wrapper: Self.session(desktop))
        }
        #expect(run.status == 0, "\(run)")
        #expect(readText("\(run.folder)/out").split(separator: "\n") == ["general "], "\(run)")
        let doctor = readText("\(run.folder)/doctor.out").split(separator: "\n").map(String.init)
        #expect(doctor.first == "error focus: GNOME Shell 43.9 refused touchgest's extension (\(path)): its metadata.json names GNOME "
                + "45, 46, 47, 48, 49, 50, not 43; GNOME 43 needs the 42-44 flavour; so rules with an application or title key "
                + "never fire ('terminal-a-tab', 'not-b-tap'); the others do", "\(doctor)")
        #expect(doctor.last?.hasPrefix("      fix: make install GNOME_SHELL_FLAVOUR=42-44") == true
                || doctor.last?.contains("/share/touchgest/gnome-shell/42-44/touchgest-focus@touchgest.org ~/.local/share/gnome-shell/extensions/") == true,
                "\(doctor)")
    }
}
