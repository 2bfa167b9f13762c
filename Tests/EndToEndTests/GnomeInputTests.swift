import Glibc
import TestSupport
import Testing

/// Keys, text and desktop actions from rules on a real GNOME Shell 43.9 (headless,
/// rig/headless-gnome), through touchgest's own extension: the shell's virtual keyboard
/// and its own workspace and overview calls, with no /dev/uinput (there is none here).
/// Keys are read back from a real GTK window (rig/window.js), the workspace and the
/// overview from the shell (the rig's extension). The extension trusts the touchgest under
/// test (its trusted-programs, written by the rig) and no other program.
@Suite(.serialized, .enabled(if: getuid() == 0, "GNOME Shell runs as nobody, which only root can switch to"),
       .desktop("headless-gnome"))
struct GnomeInputTests {
    static func session(_ desktop: WaylandDesktop) -> String {
        GnomeFocusTests.session(desktop)
    }

    /// What the focused window (term-b) got, in order: `press Control_L`.
    static func received(_ desktop: WaylandDesktop) -> [String] {
        KWinInputTests.received(desktop)
    }

    static let connected = "await input: connected to GNOME Shell's own keyboard and pointer, through touchgest's extension"

    @Test func aGesturesKeysAndTextReachTheFocusedWindowThroughTheExtension() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        let before = Self.received(desktop).count
        let run = rig(devices: ["touchpad"], rules: InputRules.keysAndText, script: """
            device touchpad
            \(Self.connected)
            \(InputRules.taps)
            """, arguments: InputRules.arguments, extra: InputRules.extra, wrapper: Self.session(desktop))
        #expect(run.status == 0, "\(run.lines.suffix(10))")
        #expect(Array(Self.received(desktop).dropFirst(before)) == InputRules.tapEvents, "\(run.lines.suffix(10))")
    }

    // The shell's own calls: a 3-finger swipe up shows the next workspace, a 3-finger tap
    // the overview, each read back from the shell; show-desktop, which GNOME lacks, is said.
    @Test func actionsMoveToTheNextWorkspaceAndShowTheOverviewAndOneGnomeLacksIsSaid() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        desktop.changed()
        #expect(desktop.run("shown") == "0 false\n")
        let run = rig(devices: ["touchpad"], rules: InputRules.nextWorkspace + """

            [rule.overview]
            gesture = "tap"
            fingers = 3
            action = "overview"

            [rule.desktop]
            gesture = "tap"
            fingers = 2
            action = "show-desktop"
            """, script: """
            device touchpad
            \(Self.connected)
            \(InputRules.swipe)
            shell timeout 30 sh -c 'until [ "$(\(desktop.command("shown")))" = "1 false" ]; do sleep 0.05; done'
            tap 3 at 50,35
            shell timeout 30 sh -c 'until [ "$(\(desktop.command("shown")))" = "1 true" ]; do sleep 0.05; done'
            tap 2 at 50,35
            await input: GNOME Shell has no show-desktop
            """, arguments: InputRules.arguments, extra: InputRules.extra, wrapper: Self.session(desktop))
        #expect(run.status == 0, "\(run.lines.suffix(10))")
        #expect(desktop.run("shown") == "1 true\n", "\(run.lines.suffix(10))")
        #expect(run.lines.filter { $0.hasPrefix("touchgest: warning: input: ") } == [
            "touchgest: warning: input: GNOME Shell has no show-desktop",
        ])
    }

    // Another program of the same user, calling the extension's methods as touchgest does,
    // is refused: nothing is typed, and it is told no modifier.
    @Test func anotherProgramCallingTheExtensionIsRefused() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        let before = Self.received(desktop).count
        let answer = shellOutput("dbus-send --bus='\(desktop.address)' --print-reply --dest=org.gnome.Shell /org/touchgest/Input "
                                 + "org.touchgest.Input.Keys string:'61:1 61:0' 2>&1")
        #expect(answer == "Error org.touchgest.Input.Refused: /usr/bin/dbus-send is not touchgest\n")
        #expect(Array(Self.received(desktop).dropFirst(before)) == [])
        // Nor may it follow the modifier keys held.
        let watch = shellOutput("dbus-send --bus='\(desktop.address)' --print-reply --dest=org.gnome.Shell /org/touchgest/Input "
                                + "org.touchgest.Input.WatchModifiers 2>&1")
        #expect(watch == "Error org.touchgest.Input.Refused: /usr/bin/dbus-send is not touchgest\n")
    }

    // While the shell is locked, the extension types nothing, whoever asks: touchgest's
    // own session state aside (off here), a second line of defence. The rig locks the
    // shell by its locked session mode, unlock-dialog, which its lock screen sets: headless,
    // without a display manager, GNOME Shell 43 makes no lock screen (rig/gnome-shell-lock
    // has the real one, for the session-state tests).
    @Test func nothingIsTypedWhileTheScreenIsLocked() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        desktop.changed()
        desktop.run("lock")
        let before = Self.received(desktop).count
        let run = rig(devices: ["touchpad"], rules: InputRules.keysAndText, script: """
            device touchpad
            \(Self.connected)
            tap 2 at 50,35
            await input: GNOME Shell refused keys ctrl+shift+v: the screen is locked
            """, arguments: "run -v --allow-root --focus none --session-state none", extra: InputRules.extra,
            wrapper: Self.session(desktop))
        #expect(run.status == 0, "\(run.lines.suffix(10))")
        #expect(Array(Self.received(desktop).dropFirst(before)) == [], "\(run.lines.suffix(10))")
    }

    /// Super held on the shell's seat (the rig's virtual keyboard inside GNOME Shell, as a
    /// keyboard would) while the rig swipes fires the rule that wants Super and not the
    /// plain one; released, the plain one. touchgest hears the modifiers from its extension
    /// alone (WatchModifiers; GNOME Shell 43 polls the seat's mask), and the script waits on
    /// the lines that say so.
    @Test func superHeldOnTheShellsKeyboardFiresTheSuperRuleAndReleasedThePlainOne() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        // Super pressed and released alone toggles the shell's overview.
        desktop.changed()
        let run = try desktop.run(accepting: { WaylandDesktop.out($0) == ["move", "plain"] }) {
            rig(devices: ["touchpad"], rules: """
                [settings]
                device = "touchpad"

                [rule.plain]
                gesture = "swipe"
                fingers = 3
                direction = "left"
                command = "echo plain >> $FOLDER/out"

                [rule.move]
                gesture = "swipe"
                fingers = 3
                direction = "left"
                modifiers = "super"
                command = "echo move >> $FOLDER/out"
                """, script: """
                device touchpad
                await modifiers: none
                shell \(desktop.command("key", "ffeb down"))
                await modifiers: super
                \(FocusRules.swipe)
                await rule move: started
                shell \(desktop.command("key", "ffeb up"))
                await modifiers: none
                \(FocusRules.swipe)
                await rule plain: started
                """, arguments: "run -vv --allow-root --focus gnome --session-state none",
                extra: "--merge-stderr --signal TERM --ready 'device added'", wrapper: Self.session(desktop))
        }
        #expect(run.status == 0, "\(run.lines.suffix(20))")
        #expect(WaylandDesktop.out(run) == ["move", "plain"], "\(run.lines.suffix(20))")
        #expect(run.lines.filter { $0.contains("modifiers: ") }.map { String($0.split(separator: "modifiers: ").last ?? "") }
                == ["none", "super", "none"], "\(run.lines.suffix(20))")
    }
}
