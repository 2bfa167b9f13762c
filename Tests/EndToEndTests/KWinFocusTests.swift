import Glibc
import TestSupport
import Testing

/// Rules for the focused window on a real KWin 5.27.5 (kwin_wayland --virtual, no GPU, no
/// input, running as nobody: rig/headless-kwin) that loads touchgest's script
/// (data/kwin/touchgest-focus.js) when touchgest asks, real GTK windows, the focus moved by
/// the rig's own KWin scripts, and gestures from the real libinput on emulated devices.
/// One KWin serves the whole suite.
///
/// Not run here: Plasma 6's KWin, whose names for windows (`windowActivated`,
/// `activeWindow`) the script takes first; the Plasma 5 names are the ones run here.
@Suite(.serialized, .enabled(if: getuid() == 0, "KWin runs as nobody, which only root can switch to"),
       .desktop("headless-kwin"))
struct KWinFocusTests {
    static let script = "\(packageRoot)/data/kwin/touchgest-focus.js"

    /// touchgest's environment on this desktop: what a Plasma session on Wayland sets.
    static func session(_ desktop: WaylandDesktop, script: String = Self.script) -> String {
        "env -u SWAYSOCK -u I3SOCK -u HYPRLAND_INSTANCE_SIGNATURE -u NIRI_SOCKET -u DISPLAY XDG_CURRENT_DESKTOP=KDE "
            + "WAYLAND_DISPLAY=kwin-0 DBUS_SESSION_BUS_ADDRESS='\(desktop.address)' TOUCHGEST_KWIN_SCRIPT='\(script)'"
    }

    /// `touchgest doctor`'s focus findings in that environment, as a rig script's step.
    static func doctor(_ desktop: WaylandDesktop, script: String = Self.script) -> String {
        "shell \(session(desktop, script: script)) HOME=$FOLDER '\(touchgestBinary)' doctor --device /dev/null --rules $FOLDER/rules.toml "
            + "2>&1 | grep -A1 ' focus: ' | grep -E ' focus: |^      fix: ' > $FOLDER/doctor.out"
    }

    @Test func theSameSwipeRunsADifferentCommandPerFocusedAppAndSurvivesKWinRestarting() throws {
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
                shell \(desktop.command("desktop", "2"))
                await focus: no window
                \(FocusRules.swipe)
                shell \(desktop.command("kill"))
                await focus: unavailable: KWin left the session bus at \(desktop.address); waiting for it
                \(FocusRules.swipe)
                shell \(desktop.command("start", "term-a=Again")) > /dev/null
                await focus: term-a "Again"
                \(FocusRules.swipe)
                """, arguments: "run -v --allow-root --focus kde", extra: "--merge-stderr --signal TERM --ready 'device added'",
                wrapper: Self.session(desktop))
        }
        #expect(run.status == 0, "\(run)")
        #expect(readText("\(run.folder)/out").split(separator: "\n") == [
            "general term-b",
            "term-a-tab term-a Alpha",
            "not-b term-a",
            "general ",
            // KWin is gone: the general rule still fires, without TOUCHGEST_APP.
            "general ",
            "term-a-tab term-a Again",
        ], "\(run)")
        // Why the rules for applications could not fire is said once, not per gesture.
        #expect(run.lines.filter { $0.contains("rules with an application or title condition do not fire") }.count == 1, "\(run)")
        // The new KWin got the script again.
        #expect(run.lines.filter { $0.contains("focus: connected to kde: KWin") }.count == 2, "\(run)")
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
                shell \(desktop.command("desktop", "2"))
                await focus: no window
                """, arguments: "debug --focus auto", extra: "--signal TERM --ready 'device added'",
                wrapper: Self.session(desktop))
        }
        #expect(run.status == 0, "\(run)")
        // KWin 5.27 activates no window before it activates the next one: the provider
        // reports that moment as it is, and the test leaves it out (the last await shows
        // "no window" comes when it should).
        #expect(run.lines.filter { ($0.hasPrefix("focus:") && $0 != "focus: no window") || $0.contains("sits out") } == [
            "focus: connected to kde: KWin on the session bus at \(desktop.address), running \(Self.script)",
            "focus: term-b \"Bee\"",
            "draft-swipe sits out: the focused window is term-b \"Bee\"; the rule wants title \"Draft*\"",
            "focus: term-b \"Draft 1\"",
            "focus: term-a \"Alpha\"",
        ], "\(run)")
        #expect(run.decisions == ["next-workspace possible -> recognized", "draft-swipe possible -> recognized"], "\(run)")
    }

    @Test func aScriptKWinCannotReadLeavesApplicationRulesOutAndTheLogAndDoctorSayWhyOnce() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        // touchgest (root) can read it; KWin (nobody) cannot.
        let folder = temporaryFolder()
        let script = "\(folder)/touchgest-focus.js"
        writeText(script, readText(Self.script), mode: 0o600)
        let refused = "KWin could not run \(script): is the file there, and can KWin read it? (KWin's log says why)"
        let run = try desktop.run(accepting: { WaylandDesktop.out($0).count == 2 }) {
            rig(devices: ["touchpad"], rules: FocusRules.rules, script: """
                device touchpad
                await focus: unavailable: \(refused)
                \(FocusRules.swipe)
                tap 2 at 50,35
                wait 400ms
                \(FocusRules.swipe)
                \(Self.doctor(desktop, script: script))
                """, arguments: "run -v --allow-root --focus kde", extra: "--merge-stderr --signal TERM --ready 'device added'",
                wrapper: Self.session(desktop, script: script))
        }
        #expect(run.status == 0, "\(run)")
        #expect(readText("\(run.folder)/out").split(separator: "\n") == ["general ", "general "], "\(run)")
        #expect(run.lines.filter { $0.contains("rules with an application or title condition do not fire") } == [
            "touchgest: warning: focus: rules with an application or title condition do not fire: \(refused)",
        ], "\(run)")
        #expect(readText("\(run.folder)/doctor.out").split(separator: "\n") == [
            "error focus: touchgest runs, but KWin has not loaded its script \(script); so rules with an application or title key "
                + "never fire ('terminal-a-tab', 'not-b-tap'); the others do",
            "      fix: touchgest's log says why KWin refused it (journalctl --user -u touchgest); KWin must be able to read the file",
        ], "\(readText("\(run.folder)/doctor.out"))")
    }

    @Test func doctorSaysWhetherKWinLoadedTheScript() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        // No touchgest runs: nothing loaded the script.
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", FocusRules.rules.replacing("$FOLDER", with: folder))
        let alone = shellOutput("\(Self.session(desktop)) HOME=\(folder) '\(touchgestBinary)' doctor --device /dev/null --rules \(folder)/rules.toml 2>&1")
        #expect(alone.split(separator: "\n").filter { $0.contains(" focus: ") || $0.hasPrefix("      fix: systemctl") } == [
            "error focus: KWin has not loaded touchgest's script: touchgest loads \(Self.script) when it starts with --focus kde or auto, "
                + "and no touchgest runs now; so rules with an application or title key never fire ('terminal-a-tab', 'not-b-tap'); the others do",
            "      fix: systemctl --user start touchgest.service (or touchgest run)",
        ], "\(alone)")
        // With touchgest running, KWin has it.
        let run = try desktop.run(accepting: { _ in true }) {
            rig(devices: ["touchpad"], rules: FocusRules.rules, script: """
                device touchpad
                await focus: term-b "Bee"
                \(Self.doctor(desktop))
                """, arguments: "run -v --allow-root --focus kde", extra: "--merge-stderr --signal TERM --ready 'device added'",
                wrapper: Self.session(desktop))
        }
        #expect(run.status == 0, "\(run)")
        #expect(readText("\(run.folder)/doctor.out").split(separator: "\n") == [
            "ok    focus: KWin has loaded touchgest's script (touchgest-focus), which reports the active window to the touchgest running now",
            "ok    focus: rules with an application or title key fire for the window that has the focus: 'terminal-a-tab', 'not-b-tap'",
        ], "\(readText("\(run.folder)/doctor.out"))")
    }
}
