import Glibc
import TestSupport
import Testing

/// The feedback overlay (`debug --overlay`, as `feedback = "on"`) on real desktops, read
/// back from the screen: a 3-finger pan held part-way shows the panel in the top right
/// corner, with its progress bar begun and not full; once it has faded the screen is as it
/// was; and a click on the panel while it is shown reaches the window beneath.
///
/// The panel is 320x96 pixels, 16 from the top and right edges of a 1280x720 screen: its
/// origin is (944, 16). Its colours (Sources/Overlay/OverlayPainter.swift) are exact while
/// fingers are down: the panel 1e222a, the bar 4ca3ff, its track 3a404c.
enum OverlayScreen {
    static let rules = """
        [rule.pan-3]
        gesture = "pan"
        fingers = 3
        on-begin = "true"

        """
    /// The panel's corner, the bar's first and last pixels: the pan is held after 25 mm of
    /// its 50 mm. (Progress 0.47 on an idle machine; with two busy loops beside it libinput
    /// starts the swipe later and reports as little as 8 mm, so no fraction is pinned.)
    static let points = "948,20 956,77 1162,77"
    static let shown = ["1e222a", "4ca3ff", "3a404c"]
    static let screenPixel = "\(packageRoot)/rig/screen-pixel"
    static let arguments = "debug --overlay --allow-root --focus none"

    /// The script: a screenshot before; the pan held part-way until a screenshot shows
    /// the bar begun (frames follow the fingers; the loop waits on the screen, not a
    /// clock); `click` while it is held; the lift; a screenshot once the overlay says it faded.
    static func script(shoot: (String) -> String, click: String) -> String {
        """
        device touchpad
        shell \(shoot("$FOLDER/before"))
        touch 3 at 30,30 move 25,0 over 300ms lift no
        await overlay: shown on
        shell timeout 30 sh -c 'until \(shoot("$FOLDER/held")) && [ "$(\(screenPixel) $FOLDER/held 956,77)" = 4ca3ff ]; do :; done'
        shell \(click)
        up 3 at 55,30
        await overlay: faded
        shell \(shoot("$FOLDER/faded"))
        """
    }

    static func pixels(_ file: String) -> [String] {
        shellOutput("'\(screenPixel)' \(file) \(points)").split(separator: "\n").map(String.init)
    }
}

@Suite(.serialized) struct OverlayTests {
    @Test(.enabled(if: getuid() == 0, "sway runs as nobody, which only root can switch to"))
    func onSwayThePanelShowsFadesAndLetsClicksThrough() throws {
        let sway = temporaryFolder()
        defer { _ = shellOutput("'\(headlessSway)' stop \(sway)") }
        _ = try startDesktop("'\(headlessSway)' start \(sway) wev")
        let runtime = "\(sway)/runtime"
        let wayland = "env WAYLAND_DISPLAY=wayland-1 XDG_RUNTIME_DIR=\(runtime)"
        let run = rig(devices: ["touchpad"], rules: OverlayScreen.rules, script: OverlayScreen.script(
            shoot: { "\(wayland) grim -t ppm \($0)" },
            click: "\(wayland) \(packageRoot)/rig/wayland-click \(runtime)/wev.log 1000,50"
        ), arguments: OverlayScreen.arguments, extra: InputRules.extra, wrapper: "env -u DISPLAY \(wayland)")
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.filter { $0.hasPrefix("overlay: ") } == ["overlay: shown on the layer shell at \(runtime)/wayland-1", "overlay: faded"])
        let before = OverlayScreen.pixels("\(run.folder)/before")
        #expect(before.count == 3 && before != OverlayScreen.shown, "the screen shows no panel before the gesture")
        #expect(OverlayScreen.pixels("\(run.folder)/held") == OverlayScreen.shown)
        #expect(OverlayScreen.pixels("\(run.folder)/faded") == before)
        // wev, beneath the panel, got the press and the release.
        let buttons = readText("\(runtime)/wev.log").split(separator: "\n").filter { $0.contains("wl_pointer] button:") }
        #expect(buttons.map { $0.hasSuffix("state: 1 (pressed)") } == [true, false], "\(buttons)")
    }

    @Test func onX11ThePanelShowsFadesAndLetsClicksThrough() throws {
        let x11 = temporaryFolder()
        defer { _ = shellOutput("'\(headlessX11)' stop \(x11)") }
        let display = try startDesktop("'\(headlessX11)' start \(x11) Xev=under")
        // xev's window under the panel's place (openbox moves it when it gets to it).
        _ = shellOutput("""
            export DISPLAY=\(display); timeout 30 sh -c 'until xwininfo -name under | grep -q "Width: 380"; do \
            xdotool search --name "^under$" windowmove 900 0 windowsize 380 200; sleep 0.1; done'
            """)
        let run = rig(devices: ["touchpad"], rules: OverlayScreen.rules, script: OverlayScreen.script(
            shoot: { "DISPLAY=\(display) xwd -root -silent > \($0)" },
            click: "DISPLAY=\(display) xdotool mousemove 1000 50 click 1"
        ), arguments: OverlayScreen.arguments, extra: InputRules.extra, wrapper: "env -u WAYLAND_DISPLAY DISPLAY=\(display)")
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.filter { $0.hasPrefix("overlay: ") } == ["overlay: shown on the X server at \(display)", "overlay: faded"])
        let before = OverlayScreen.pixels("\(run.folder)/before")
        #expect(before == ["ffffff", "ffffff", "ffffff"], "xev's white window is under the panel's place")
        #expect(OverlayScreen.pixels("\(run.folder)/held") == OverlayScreen.shown)
        #expect(OverlayScreen.pixels("\(run.folder)/faded") == before)
        // xev, beneath the panel, got the click where it was made.
        // `ButtonPress event, ...`, then `root 0x..., (x,y), root:(1000,50),`, then `state 0x0, button 1, ...`.
        let lines = readText("\(x11)/xev.log").split(separator: "\n")
        let presses = lines.indices.filter { lines[$0].hasPrefix("ButtonPress") }.map { index in
            lines.dropFirst(index + 1).prefix(2).joined(separator: " ")
        }
        #expect(presses.count == 1 && presses[0].contains("root:(1000,50),") && presses[0].contains(" button 1,"), "\(lines)")
    }

    // A finger drawing on a touchscreen leaves its trail in the panel's trail box (230..310,
    // 8..88 in the panel): a straight stroke held is a line across the box's middle row,
    // in the trail's colour (ffc83c), gone once faded.
    @Test(.enabled(if: getuid() == 0, "sway runs as nobody, which only root can switch to"))
    func onSwayAStrokesTrailIsDrawnWhileTheFingerMoves() throws {
        let sway = temporaryFolder()
        defer { _ = shellOutput("'\(headlessSway)' stop \(sway)") }
        _ = try startDesktop("'\(headlessSway)' start \(sway) wev")
        let runtime = "\(sway)/runtime"
        let wayland = "env WAYLAND_DISPLAY=wayland-1 XDG_RUNTIME_DIR=\(runtime)"
        // The line's middle: the panel's origin (944, 16) + (270, 48).
        let middle = "1214,64"
        let run = rig(devices: ["touchscreen"], rules: """
            [rule.v]
            gesture = "stroke"
            device = "touchscreen"
            template = [[0, 0], [0.5, 1], [1, 0]]
            command = "true"

            """, script: """
            device touchscreen
            touch 1 at 100,100 move 80,0 over 300ms lift no
            await overlay: shown on
            shell timeout 30 sh -c 'until \(wayland) grim -t ppm $FOLDER/held && [ "$(\(OverlayScreen.screenPixel) $FOLDER/held \(middle))" = ffc83c ]; do :; done'
            up 1 at 180,100
            await overlay: faded
            shell \(wayland) grim -t ppm $FOLDER/faded
            """, arguments: OverlayScreen.arguments, extra: InputRules.extra, wrapper: "env -u DISPLAY \(wayland)")
        #expect(run.status == 0, "\(run)")
        func pixel(_ file: String) -> String { shellOutput("'\(OverlayScreen.screenPixel)' \(run.folder)/\(file) \(middle)") }
        #expect(pixel("held") == "ffc83c\n")
        #expect(pixel("faded") != "ffc83c\n" && pixel("faded") != "1e222a\n", "the panel is gone")
    }
}
