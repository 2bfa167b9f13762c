import Glibc
import TestSupport
import Testing

/// Keys, text and clicks from rules, pressed by touchgest itself through KWin's
/// `org_kde_kwin_fake_input` on a real KWin 5.27.5 (rig/headless-kwin), and read back by
/// a real Wayland client: the focused GTK window (rig/window.js) writes every key and
/// button it gets. KWin offers the interface only to a program its desktop file names;
/// the rig writes that file for the touchgest under test.
@Suite(.serialized, .enabled(if: getuid() == 0, "KWin runs as nobody, which only root can switch to"),
       .desktop("headless-kwin"))
struct KWinInputTests {
    /// touchgest's environment on this desktop: what a Plasma session on Wayland sets.
    static func session(_ desktop: WaylandDesktop) -> String {
        "env -u DISPLAY XDG_CURRENT_DESKTOP=KDE WAYLAND_DISPLAY=kwin-0 XDG_RUNTIME_DIR=\(desktop.folder)/runtime "
            + "DBUS_SESSION_BUS_ADDRESS='\(desktop.address)'"
    }

    /// What the focused window (term-b) got, in order: `press Control_L`, `release button 2`.
    static func received(_ desktop: WaylandDesktop) -> [String] {
        readText("\(desktop.folder)/windows.log").split(separator: "\n")
            .filter { $0.hasPrefix("term-b press ") || $0.hasPrefix("term-b release ") }
            .map { String($0.dropFirst("term-b ".count)) }
    }

    @Test func aGesturesKeysTextAndClickReachTheFocusedWindow() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        let before = Self.received(desktop).count
        let run = rig(devices: ["touchpad"], rules: InputRules.keysAndText + InputRules.click, script: """
            device touchpad
            await input: connected to KWin fake input at \(desktop.folder)/runtime/kwin-0
            \(InputRules.taps)
            \(InputRules.swipe)
            """, arguments: InputRules.arguments, extra: InputRules.extra, wrapper: Self.session(desktop))
        #expect(run.status == 0, "\(run.lines.suffix(10))")
        // KWin runs the keys through its own keyboard state: GTK names a key by the level
        // the modifiers held select, as xev and wev do.
        #expect(Array(Self.received(desktop).dropFirst(before)) == InputRules.tapEvents + InputRules.clickEvents,
                "\(run.lines.suffix(10))")
    }

    // The feedback overlay on KWin's layer shell: it shows its first frame only once KWin
    // has configured the surface, and fades. (No screenshot: KWin lets no client take one.)
    @Test func theOverlayIsShownOnKWinsLayerShellAndFades() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        let run = rig(devices: ["touchpad"], rules: OverlayScreen.rules, script: """
            device touchpad
            touch 3 at 30,30 move 25,0 over 300ms lift no
            await overlay: shown on
            up 3 at 55,30
            await overlay: faded
            """, arguments: OverlayScreen.arguments, extra: InputRules.extra, wrapper: Self.session(desktop))
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.filter { $0.hasPrefix("overlay: ") }
            == ["overlay: shown on the layer shell at \(desktop.folder)/runtime/kwin-0", "overlay: faded"])
    }

    @Test func doctorSaysKeysGoThroughKWinsFakeInputAndWhichRulesPressThem() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        let output = desktop.doctor("""
            [rule.paste]
            gesture = "tap"
            fingers = 2
            keys = "ctrl+shift+v"

            [rule.note]
            gesture = "tap"
            fingers = 3
            command = "true"
            """, session: Self.session(desktop))
        #expect(output.filter { $0.contains(" input: ") } == [
            "ok    input: keys, text and buttons go through KWin fake input at \(desktop.folder)/runtime/kwin-0; rules that press keys, text or buttons: paste",
        ], "\(output)")
    }

    // A shortcut goes to KDE's global shortcuts by name; one KWin does not have is said
    // once, naming it, and nothing runs.
    @Test func aShortcutRunsKWinsGlobalShortcutByNameAndAnUnknownNameIsSaid() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        desktop.run("shortcut", "touchgest-test")
        let ran = { readText("\(desktop.folder)/kwin.log").split(separator: "\n").filter { $0 == "js: touchgest-rig shortcut touchgest-test" }.count }
        let before = ran()
        let run = rig(devices: ["touchpad"], rules: """
            [rule.known]
            gesture = "tap"
            fingers = 2
            shortcut = "touchgest-test"

            [rule.unknown]
            gesture = "tap"
            fingers = 3
            shortcut = "No Such Shortcut"
            """, script: """
            device touchpad
            await input: connected to KWin fake input at \(desktop.folder)/runtime/kwin-0
            tap 2 at 50,35
            wait 400ms
            tap 3 at 50,35
            await input: KWin has no global shortcut named
            tap 3 at 50,35
            wait 400ms
            """, arguments: InputRules.arguments, extra: InputRules.extra, wrapper: Self.session(desktop))
        #expect(run.status == 0, "\(run.lines.suffix(10))")
        #expect(ran() - before == 1, "\(run.lines.suffix(10))")
        #expect(run.lines.filter { $0.hasPrefix("touchgest: warning: input: ") } == [
            "touchgest: warning: input: KWin has no global shortcut named \"No Such Shortcut\" "
                + "(qdbus org.kde.kglobalaccel /component/kwin shortcutNames lists them)",
        ])
    }

    // A desktop action goes to KWin's own global shortcut for it, by the shortcut's
    // internal name, whatever keys the user bound to it: a 3-finger swipe up shows the
    // next virtual desktop, read back from KWin's own signal. One KWin lacks is said.
    @Test func anActionSwitchesKWinsDesktopThroughItsOwnShortcutAndOneItLacksIsSaid() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        desktop.run("desktop", "1")
        let log = "\(desktop.folder)/kwin.log"
        let shown = { readText(log).split(separator: "\n").filter { $0 == "js: touchgest-rig desktop 2" }.count }
        let before = shown()
        let run = rig(devices: ["touchpad"], rules: InputRules.nextWorkspace + """

            [rule.grid]
            gesture = "tap"
            fingers = 3
            action = "app-grid"
            """, script: """
            device touchpad
            await input: connected to KWin fake input at \(desktop.folder)/runtime/kwin-0
            \(InputRules.swipe)
            shell timeout 30 sh -c 'until [ "$(grep -cx "js: touchgest-rig desktop 2" \(log))" -gt \(before) ]; do sleep 0.05; done'
            tap 3 at 50,35
            await input: KDE Plasma has no app-grid
            """, arguments: InputRules.arguments, extra: InputRules.extra, wrapper: Self.session(desktop))
        #expect(run.status == 0, "\(run.lines.suffix(10))")
        #expect(shown() - before == 1, "\(run.lines.suffix(10))")
        #expect(run.lines.filter { $0.hasPrefix("touchgest: warning: input: ") } == [
            "touchgest: warning: input: KDE Plasma has no app-grid that touchgest can reach",
        ])
    }
}
