import Glibc
import TestSupport
import Testing

let headlessX11 = "\(packageRoot)/rig/headless-x11"

/// Rules for the focused window on a real X server (Xvfb) with a real window manager
/// (openbox) and real xterms (rig/headless-x11), focus moved with xdotool through
/// openbox, and gestures from the real libinput on emulated devices.
@Suite(.serialized) struct X11FocusTests {
    @Test func theSameSwipeRunsADifferentCommandPerFocusedAppAndSurvivesTheXServerRestarting() throws {
        let x11 = temporaryFolder()
        defer { _ = shellOutput("'\(headlessX11)' stop \(x11)") }
        let display = try startDesktop("'\(headlessX11)' start \(x11) term-a term-b=Bee")
        #expect(display.hasPrefix(":"))
        let run = rig(devices: ["touchpad"], rules: FocusRules.rules, script: """
            device touchpad
            \(FocusRules.swipe)
            tap 2 at 50,35
            wait 400ms
            shell '\(headlessX11)' focus \(x11) term-a
            await focus: term-a "xterm"
            \(FocusRules.swipe)
            tap 2 at 50,35
            wait 400ms
            shell '\(headlessX11)' desktop \(x11) 1
            await focus: no window
            \(FocusRules.swipe)
            shell '\(headlessX11)' stop \(x11)
            await focus: unavailable: the X server at \(display) closed the connection
            \(FocusRules.swipe)
            shell '\(headlessX11)' start \(x11) term-a=Again > /dev/null
            await focus: term-a "Again"
            \(FocusRules.swipe)
            """, arguments: "run -v --allow-root --focus x11",
            // Ready once the touchpad is there and the provider told the focus, in either
            // order: the first swipe must not race the X connection, made on its own thread.
            extra: "--merge-stderr --signal TERM --ready 'device added|focus: term-b' --ready-count 2",
            wrapper: "env DISPLAY=\(display)")
        #expect(run.status == 0, "\(run)")
        #expect(readText("\(run.folder)/out").split(separator: "\n") == [
            "general term-b",
            "term-a-tab term-a xterm",
            "not-b term-a",
            "general ",
            // The X server is gone: the general rule still fires, without TOUCHGEST_APP.
            "general ",
            "term-a-tab term-a Again",
        ], "\(run)")
        // Why the rules for applications could not fire is said once, not per gesture.
        #expect(run.lines.filter { $0.contains("rules with an application or title condition do not fire") }.count == 1, "\(run)")
    }

    @Test func debugShowsTheFocusAsItChangesAcrossClassesAndTitles() throws {
        let x11 = temporaryFolder()
        defer { _ = shellOutput("'\(headlessX11)' stop \(x11)") }
        let display = try startDesktop("'\(headlessX11)' start \(x11) Xmessage=Note term-b=Bee")
        let run = rig(devices: ["touchpad"], rules: FocusRules.rules, script: """
            device touchpad
            \(FocusRules.swipe)
            shell '\(headlessX11)' focus \(x11) Xmessage
            await focus: Xmessage "Note"
            shell '\(headlessX11)' focus \(x11) term-b
            await focus: term-b "Bee"
            shell DISPLAY=\(display) xdotool search --class '^term-b$' set_window --name 'Bee 2'
            await focus: term-b "Bee 2"
            """, arguments: "debug --focus auto", extra: "--signal TERM --ready 'device added'",
            wrapper: "env -u SWAYSOCK -u I3SOCK -u HYPRLAND_INSTANCE_SIGNATURE -u NIRI_SOCKET -u WAYLAND_DISPLAY DISPLAY=\(display)")
        #expect(run.status == 0, "\(run)")
        // openbox sets _NET_ACTIVE_WINDOW to None before it names the next window: the
        // provider reports that moment as it is, and the test leaves it out.
        #expect(run.lines.filter { ($0.hasPrefix("focus:") && $0 != "focus: no window") || $0.contains("sits out") } == [
            "focus: connected to x11 at \(display) (Openbox)",
            "focus: term-b \"Bee\"",
            "terminal-a-tab sits out: the focused window is term-b \"Bee\"; the rule wants application \"term-a\"",
            "focus: Xmessage \"Note\"",
            "focus: term-b \"Bee\"",
            // The focused window's title changes: no focus change, but a new title.
            "focus: term-b \"Bee 2\"",
        ], "\(run)")
        #expect(run.decisions.contains("next-workspace possible -> recognized"), "\(run)")
    }
}

/// Protocol test of the command line with the KDE provider: `touchgest debug --focus kde`
/// against a private dbus-daemon with a stand-in for KWin (rig/dbus-desktop.py).
@Suite struct KDEFocusCommandLineTests {
    @Test func debugLoadsTheKWinScriptAndShowsTheActiveWindowAndAnApplicationRuleFires() throws {
        let bus = temporaryFolder()
        let desktop = "\(packageRoot)/rig/dbus-desktop"
        let address = shellOutput("'\(desktop)' bus \(bus)").split(separator: "\n").last.map(String.init) ?? ""
        defer { _ = shellOutput("'\(desktop)' stop-bus \(bus)") }
        _ = shellOutput("'\(desktop)' start \(bus) kwin")
        let script = "\(packageRoot)/data/kwin/touchgest-focus.js"
        let run = rig(devices: ["touchpad"], rules: FocusRules.rules, script: """
            device touchpad
            shell dbus-send --bus='\(address)' --print-reply --dest=org.kde.KWin /Test org.touchgest.Test.Activate string:term-a string:Konsole > /dev/null
            await focus: term-a "Konsole"
            \(FocusRules.swipe)
            """, arguments: "run -v --allow-root --focus auto", extra: "--merge-stderr --signal TERM --ready 'device added'",
            wrapper: "env -u SWAYSOCK -u I3SOCK -u HYPRLAND_INSTANCE_SIGNATURE -u NIRI_SOCKET WAYLAND_DISPLAY=wayland-0 XDG_CURRENT_DESKTOP=KDE "
                + "DBUS_SESSION_BUS_ADDRESS='\(address)' TOUCHGEST_KWIN_SCRIPT='\(script)'")
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.contains("touchgest: focus: connected to kde: KWin on the session bus at \(address), running \(script)"), "\(run)")
        #expect(readText("\(run.folder)/out").split(separator: "\n") == ["term-a-tab term-a Konsole"], "\(run)")
    }

    /// `modifiers = "super"` on a real X server: Super pressed through XTEST (xdotool), as
    /// a keyboard's would be, reaches touchgest through XKB; held, the Super rule fires
    /// and not the plain one; released, the plain one and not the Super rule.
    @Test func superHeldThroughXTestFiresTheSuperRuleAndReleasedThePlainOne() throws {
        let x11 = temporaryFolder()
        defer { _ = shellOutput("'\(headlessX11)' stop \(x11)") }
        let display = try startDesktop("'\(headlessX11)' start \(x11) term-a")
        let run = rig(devices: ["touchpad"], rules: InputRules.superSwipe, script: """
            device touchpad
            await modifiers: none
            shell DISPLAY=\(display) xdotool keydown super
            await modifiers: super
            \(InputRules.leftSwipe)
            shell DISPLAY=\(display) xdotool keyup super
            await modifiers: none
            \(InputRules.leftSwipe)
            """, arguments: "debug --focus x11", extra: "--signal TERM --ready 'device added'",
            wrapper: "env DISPLAY=\(display) WAYLAND_DISPLAY=")
        #expect(run.status == 0, "\(run)")
        #expect(run.decisions == InputRules.superDecisions, "\(run)")
        #expect(run.lines.filter { $0.hasPrefix("modifiers: from ") } == ["modifiers: from the X server (XKB state)"], "\(run)")
    }
}
