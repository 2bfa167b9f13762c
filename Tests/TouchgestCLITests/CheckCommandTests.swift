import TestSupport
import Glibc
import Testing

@Suite struct CheckCommandTests {
    @Test func theShippedExamplesCheckOkAndNothingElse() {
        let result = touchgest("check \(packageRoot)/examples/*.toml")
        #expect(result.status == 0)
        #expect(result.stdout == "ok\n")
        #expect(result.stderr == "")
    }

    @Test func aBrokenFileListsEveryErrorAndExitsOne() {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", """
            [rule.a]
            gesture = "swipe"
            direction = "lefft"
            command = "x"

            [rule.b]
            gesture = "tap"
            taps = 9
            command = "y"
            """)
        let result = touchgest("check \(folder)/rules.toml")
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == """
            \(folder)/rules.toml:3:13: error: unknown direction 'lefft' (did you mean 'left'?); expected one of right, up-right, up, up-left, left, down-left, down, down-right, any
            \(folder)/rules.toml:8:8: error: taps 9 is out of range; expected 1 to 5

            """)
    }

    @Test func explainPrintsTheOrderAfterOk() {
        let result = touchgest("check --explain \(packageRoot)/examples/sway.toml")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("ok\n"))
        #expect(result.stdout.contains("launcher         tap, 3 fingers, 1 tap, touchpad; waits for float (more taps), terminal-paste (its window is more specific) to fail"))
    }

    @Test func explainShowsThatTheRuleForAnApplicationGoesFirst() {
        let result = touchgest("check --explain \(packageRoot)/examples/sway.toml")
        #expect(result.stdout.contains("""
            workspace-next   swipe, 3 fingers, left, touchpad; waits for browser-forward (its window is more specific) to fail
            """))
        #expect(result.stdout.contains("""
            browser-forward  swipe, 3 fingers, left, touchpad, application "firefox*"|"chromium"|"google-chrome"|"brave-browser"
            """))
    }

    @Test func explainShowsTheSwipesThatWaitForAStroke() {
        let result = touchgest("check --explain \(packageRoot)/examples/rules.toml")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("""
            workspaces        swipe, 3 fingers, right,left, touchpad; waits for lock (a stroke goes first) to fail
            """), "\(result.stdout)")
        #expect(result.stdout.contains("lock              stroke, 3 fingers, 1 template, touchpad, touchpad fingers\n"))
        #expect(result.stdout.contains("confirm           stroke, 1 finger, 2 templates, touchscreen"))
    }

    @Test func withoutAPathItChecksTheXdgRuleFile() {
        let config = temporaryFolder()
        mkdir("\(config)/touchgest", 0o700)
        writeText("\(config)/touchgest/rules.toml", "[rule.a]\ngesture = \"tap\"\ncommand = \"x\"\n")
        let result = touchgest("check", environment: ["XDG_CONFIG_HOME": config])
        #expect(result.status == 0)
        #expect(result.stdout == "ok\n")
    }

    @Test func warningsArePrintedButDoNotFail() {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", """
            [rule.a]
            gesture = "pinch"
            command = "x"

            [rule.b]
            gesture = "pinch"
            command = "y"
            """)
        let result = touchgest("check \(folder)/rules.toml")
        #expect(result.status == 0)
        #expect(result.stdout == "ok\n")
        #expect(result.stderr == "\(folder)/rules.toml:5:1: warning: rules 'a' and 'b' match the same gesture (pinch, 2 fingers, any) and can never be told apart; only one of them will run\n")
    }
}

@Suite struct InputErrorTests {
    @Test func aDeviceTouchgestMayNotReadIsExplained() {
        // A file only root may read stands in for /dev/input/event*: as root, drop to
        // nobody; as anyone else, /etc/shadow is such a file already.
        var path = "/etc/shadow"
        var prefix = ""
        if getuid() == 0 {
            let folder = temporaryFolder()
            chmod(folder, 0o755)
            path = "\(folder)/event9"
            writeText(path, "", mode: 0o600)
            prefix = "setpriv --reuid=65534 --regid=65534 --clear-groups "
        }
        let result = touchgest("list-devices --device \(path)", prefix: prefix)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("touchgest: error: no permission to read \(path). touchgest reads input devices directly. Either install touchgest's udev rule"))
    }

    @Test func aMissingDeviceSaysSo() {
        let result = touchgest("list-devices --device /dev/input/event999")
        #expect(result.status == 1)
        #expect(result.stderr == "touchgest: error: cannot open /dev/input/event999: No such file or directory\n")
    }

    /// An action the desktop lacks is a warning at its value, naming the desktop; one it
    /// has is not; where the desktop cannot be told, nothing is said of actions.
    @Test func anActionTheDesktopLacksIsAWarningAtItsValue() {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", """
            [rule.next]
            gesture = "swipe"
            fingers = 3
            direction = "left"
            action = "workspace-next"

            [rule.grid]
            gesture = "long-press"
            fingers = 3
            on-end = { action = "show-desktop" }
            """)
        // Only the variables given: none of the machine's own session.
        func check(_ variables: String) -> Result { touchgest("check \(folder)/rules.toml", prefix: "env -i \(variables) ") }
        let sway = check("SWAYSOCK=\(folder)/sway.sock")
        #expect(sway.status == 0)
        #expect(sway.stdout == "ok\n")
        #expect(sway.stderr == "\(folder)/rules.toml:10:21: warning: sway has no show-desktop: rule 'grid' does nothing here\n")
        let gnome = check("XDG_CURRENT_DESKTOP=ubuntu:GNOME WAYLAND_DISPLAY=wayland-0")
        #expect(gnome.stderr == "\(folder)/rules.toml:10:21: warning: GNOME Shell has no show-desktop: rule 'grid' does nothing here\n")
        let x11 = check("DISPLAY=:5")
        #expect(x11.stderr == "")
        let unknown = check("")
        #expect(unknown.stderr == "")
    }

    /// A rule that wants modifiers held is refused, with why, where nothing can tell them:
    /// it would never fire.
    @Test func aRuleThatWantsHeldModifiersIsRefusedWithWhy() {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", """
            [rule.move]
            gesture = "swipe"
            fingers = 3
            direction = "left"
            modifiers = "super"
            command = "true"
            """)
        let result = touchgest("check \(folder)/rules.toml", prefix: "env -i ")
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.split(separator: "\n").map(String.init) == [
            "\(folder)/rules.toml:5:13: error: rule 'move' wants modifiers held, but no desktop is known here to tell which keys are held "
                + "(DISPLAY, or a Wayland desktop's variables, are not set): it would never fire; remove modifiers, give the rule another gesture, "
                + "or read them from the keyboards with modifier-source = \"keyboards\" in [settings] (touchgest doctor says what that needs)",
        ])
    }

    /// `buttons` where a gesture can begin with the pad held down: the touchpad's fingers
    /// (the finger reader follows those that land while it is held) and libinput's swipes,
    /// pinches and holds (made while a thumb in the pad's bottom edge holds it;
    /// HeldButtonTests). `buttons = "none"` asks for nothing held, which is always met.
    @Test func buttonsOnTheFingersAndOnLibinputsSwipesCheckOk() {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", """
            [rule.drag]
            gesture = "swipe"
            fingers = 3
            direction = "left"
            source = "contacts"
            buttons = "left"
            command = "true"

            [rule.thumb-swipe]
            gesture = "swipe"
            fingers = 3
            direction = "up"
            buttons = ["left", "right"]
            command = "true"

            [rule.thumb-hold]
            gesture = "long-press"
            fingers = 2
            device = "touchpad"
            buttons = "middle"
            on-begin = "true"

            [rule.free]
            gesture = "tap"
            device = "touchscreen"
            buttons = "none"
            command = "true"
            """)
        let result = touchgest("check \(folder)/rules.toml", prefix: "env -i ")
        #expect(result.stderr == "")
        #expect(result.status == 0)
        #expect(result.stdout == "ok\n")
    }

    /// Where no gesture can begin with a button held, `buttons` is refused at its value,
    /// with why and what to do; where only some pads can (libinput's taps), a warning.
    @Test func buttonsWhereNoButtonCanBeHeldAreRefusedWithWhy() {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", """
            [rule.screen]
            gesture = "tap"
            fingers = 3
            device = "touchscreen"
            buttons = "left"
            command = "true"

            [rule.edge]
            gesture = "edge-pan"
            edges = "left"
            buttons = "right"
            on-begin = "true"

            [rule.pad-tap]
            gesture = "tap"
            fingers = 2
            source = "libinput"
            buttons = "left"
            command = "true"

            [rule.auto-tap]
            gesture = "tap"
            buttons = "left"
            command = "true"

            [rule.drag]
            gesture = "pan"
            fingers = 1
            device = "touchpad"
            source = "contacts"
            buttons = "left"
            on-begin = "true"
            """)
        let result = touchgest("check \(folder)/rules.toml", prefix: "env -i ")
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.split(separator: "\n").map(String.init) == [
            "\(folder)/rules.toml:28:11: warning: one finger moving while a touchpad is held down drags: this pan fires on every such "
                + "drag, and the drag still happens; use 2 or more fingers unless that is what you want",
            "\(folder)/rules.toml:5:11: error: rule 'screen' wants buttons held, but touchscreens have no buttons: it would never fire; "
                + "remove buttons",
            "\(folder)/rules.toml:11:11: error: rule 'edge' wants buttons held, but it takes edge-pans from touchscreens only, "
                + "which have no buttons: it would never fire; remove buttons, or read a touchpad's fingers with "
                + "source = \"contacts\"",
            "\(folder)/rules.toml:18:11: warning: rule 'pad-tap' wants buttons held, but its taps come from libinput, which makes none "
                + "while a clickpad is held down: it fires only on touchpads with separate buttons; read the fingers instead with "
                + "source = \"contacts\"",
            "\(folder)/rules.toml:23:11: warning: rule 'auto-tap' wants buttons held, but its taps come from libinput, which makes none "
                + "while a clickpad is held down: it fires only on touchpads with separate buttons and on semi-MT ones; read the "
                + "fingers instead with source = \"contacts\"",
        ])
    }

    /// Which desktops tell the modifiers held: X11 does (XKB), so `check` takes the rule
    /// there; sway's IPC does not, so it is refused there with that reason.
    @Test func aModifierRuleIsTakenOnX11AndRefusedOnSwayWithWhy() {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", """
            [rule.move]
            gesture = "swipe"
            fingers = 3
            direction = "left"
            modifiers = ["super", "shift"]
            command = "true"
            """)
        let x11 = touchgest("check \(folder)/rules.toml", prefix: "env -i DISPLAY=:5 ")
        #expect(x11.status == 0, "\(x11.stderr)")
        #expect(x11.stdout == "ok\n")
        #expect(x11.stderr == "")
        let sway = touchgest("check \(folder)/rules.toml", prefix: "env -i SWAYSOCK=/nowhere WAYLAND_DISPLAY=wayland-1 ")
        #expect(sway.status == 1)
        #expect(sway.stderr == "\(folder)/rules.toml:5:13: error: rule 'move' wants modifiers held, but sway's IPC tells no client which keys "
            + "are held: it would never fire; remove modifiers, give the rule another gesture, "
                + "or read them from the keyboards with modifier-source = \"keyboards\" in [settings] (touchgest doctor says what that needs)\n")
    }

    /// GNOME Shell tells the modifiers held through touchgest's extension, so `check` takes
    /// the rule in a GNOME session on Wayland; KDE's, which no part of KWin tells, is refused.
    @Test func aModifierRuleIsTakenOnGnomeAndRefusedOnKDEWithWhy() {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", """
            [rule.move]
            gesture = "swipe"
            fingers = 3
            direction = "left"
            modifiers = "super"
            command = "true"
            """)
        let gnome = touchgest("check \(folder)/rules.toml", prefix: "env -i XDG_CURRENT_DESKTOP=GNOME WAYLAND_DISPLAY=wayland-0 ")
        #expect(gnome.status == 0, "\(gnome.stderr)")
        #expect(gnome.stdout == "ok\n")
        #expect(gnome.stderr == "")
        let kde = touchgest("check \(folder)/rules.toml", prefix: "env -i XDG_CURRENT_DESKTOP=KDE WAYLAND_DISPLAY=wayland-0 ")
        #expect(kde.status == 1)
        #expect(kde.stderr == "\(folder)/rules.toml:5:13: error: rule 'move' wants modifiers held, but KWin tells neither its scripts nor "
            + "D-Bus clients which keys are held: it would never fire; remove modifiers, give the rule another gesture, "
                + "or read them from the keyboards with modifier-source = \"keyboards\" in [settings] (touchgest doctor says what that needs)\n")
    }

    /// `modifier-source = "keyboards"` is the opt-in for desktops that do not tell the keys
    /// held: with it `check` takes a modifiers rule on sway, which it refuses without.
    @Test func theKeyboardsModifierSourceLetsSwayTakeAModifierRule() {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", """
            [settings]
            modifier-source = "keyboards"

            [rule.move]
            gesture = "swipe"
            fingers = 3
            direction = "left"
            modifiers = "super"
            command = "true"
            """)
        let sway = touchgest("check \(folder)/rules.toml", prefix: "env -i SWAYSOCK=/nowhere WAYLAND_DISPLAY=wayland-1 ")
        #expect(sway.status == 0, "\(sway.stderr)")
        #expect(sway.stdout == "ok\n")
        #expect(sway.stderr == "")
    }

    /// A modifier source that is neither is an error at its value, with the two allowed.
    @Test func anUnknownModifierSourceIsAnErrorAtItsValue() {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", """
            [settings]
            modifier-source = "keyboard"
            """)
        let result = touchgest("check \(folder)/rules.toml")
        #expect(result.status == 1)
        #expect(result.stderr == "\(folder)/rules.toml:2:19: error: unknown modifier source 'keyboard' (did you mean 'keyboards'?); "
            + "expected one of desktop, keyboards\n")
    }
}
