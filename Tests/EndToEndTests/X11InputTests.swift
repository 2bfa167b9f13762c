import Glibc
import TestSupport
import Testing

/// Keys, text and clicks from rules, pressed by touchgest itself through XTEST on a real
/// X server (Xvfb with openbox, rig/headless-x11), and read back by a real X client:
/// xev, in the focused window, writes every key and button event it gets.
@Suite(.serialized) struct X11InputTests {
    /// `press Control_L`, `release v`, `press button 2`: the events xev wrote, in order.
    func events(in log: String) -> [String] {
        var events: [String] = []
        var kind: String?
        for line in log.split(separator: "\n") {
            if line.hasPrefix("KeyPress") || line.hasPrefix("ButtonPress") { kind = "press" }
            if line.hasPrefix("KeyRelease") || line.hasPrefix("ButtonRelease") { kind = "release" }
            guard let current = kind else { continue }
            if let keysym = line.firstRange(of: "(keysym ") {
                // "(keysym 0xffe3, Control_L)"
                let rest = line[keysym.upperBound...]
                guard let comma = rest.firstIndex(of: ","), let close = rest.firstIndex(of: ")") else { continue }
                events.append("\(current) \(rest[rest.index(comma, offsetBy: 2)..<close])")
                kind = nil
            } else if let button = line.firstRange(of: "button ") {
                events.append("\(current) button \(line[button.upperBound...].prefix { $0.isNumber })")
                kind = nil
            }
        }
        return events
    }

    @Test func aGesturesKeysTextAndClickReachTheFocusedWindow() throws {
        let x11 = temporaryFolder()
        defer { _ = shellOutput("'\(headlessX11)' stop \(x11)") }
        let display = try startDesktop("'\(headlessX11)' start \(x11) Xev=keys")
        let run = rig(devices: ["touchpad"], rules: InputRules.keysAndText + InputRules.click, script: """
            device touchpad
            await input: connected to x11 XTEST at \(display)
            \(InputRules.taps)
            shell DISPLAY=\(display) xdotool search --onlyvisible --name '^keys$' mousemove --window %1 20 20
            \(InputRules.swipe)
            """, arguments: InputRules.arguments, extra: InputRules.extra, wrapper: "env DISPLAY=\(display) WAYLAND_DISPLAY=")
        #expect(run.status == 0, "\(run.lines.suffix(10))")
        #expect(events(in: readText("\(x11)/xev.log")) == InputRules.tapEvents + InputRules.clickEvents, "\(run.lines.suffix(10))")
    }

    /// A text far longer than one piece the channel encodes at a time, and than the
    /// socket's buffer: it reaches the window whole and in order, over several rounds.
    @Test func aLongTextReachesTheFocusedWindowWholeAndInOrder() throws {
        let x11 = temporaryFolder()
        defer { _ = shellOutput("'\(headlessX11)' stop \(x11)") }
        let display = try startDesktop("'\(headlessX11)' start \(x11) Xev=keys")
        let run = rig(devices: ["touchpad"], rules: """
            [rule.type]
            gesture = "tap"
            fingers = 2
            text = "\(String(repeating: "ab", count: 3_000))"
            """, script: """
            device touchpad
            await input: connected to x11 XTEST at \(display)
            tap 2 at 50,35
            shell for i in $(seq 100); do [ $(grep -c '^KeyRelease' \(x11)/xev.log) -ge 6000 ] && break; sleep 0.1; done
            """, arguments: InputRules.arguments, extra: InputRules.extra, wrapper: "env DISPLAY=\(display) WAYLAND_DISPLAY=")
        #expect(run.status == 0, "\(run.lines.suffix(10))")
        let expected = Array(repeating: ["press a", "release a", "press b", "release b"], count: 3_000).flatMap { $0 }
        let events = events(in: readText("\(x11)/xev.log"))
        #expect(events == expected, "\(events.count) events")
    }

    @Test func aKeyTheKeyboardMapLacksIsSaidOnceAndNothingIsPressed() throws {
        let x11 = temporaryFolder()
        defer { _ = shellOutput("'\(headlessX11)' stop \(x11)") }
        let display = try startDesktop("'\(headlessX11)' start \(x11) Xev=keys")
        let run = rig(devices: ["touchpad"], rules: """
            [rule.launch]
            gesture = "tap"
            fingers = 2
            keys = "ctrl+Thai_kokai"
            """, script: """
            device touchpad
            await input: connected to x11 XTEST at \(display)
            tap 2 at 50,35
            wait 400ms
            tap 2 at 50,35
            wait 400ms
            """, arguments: "run -v --allow-root --focus none", extra: "--merge-stderr --signal TERM --ready 'device added'",
            wrapper: "env DISPLAY=\(display) WAYLAND_DISPLAY=")
        #expect(run.status == 0, "\(run.lines.suffix(10))")
        #expect(run.lines.filter { $0.hasPrefix("touchgest: warning: input: ") } == [
            "touchgest: warning: input: no key of the X server's keyboard map gives Thai_kokai (in ctrl+Thai_kokai)",
        ])
        #expect(events(in: readText("\(x11)/xev.log")).isEmpty)
    }

    // Desktop actions go to the window manager as EWMH client messages, not as keys: a
    // 3-finger swipe up shows the next desktop and a 2-finger tap maximizes the active
    // window, each read back from the properties openbox sets; an action EWMH lacks is
    // said, naming it.
    @Test func actionsGoToTheWindowManagerAsEWMHMessagesAndOneItLacksIsSaid() throws {
        let x11 = temporaryFolder()
        defer { _ = shellOutput("'\(headlessX11)' stop \(x11)") }
        let display = try startDesktop("'\(headlessX11)' start \(x11) Term=Alpha")
        let desktopShown = "DISPLAY=\(display) xprop -root _NET_CURRENT_DESKTOP"
        let state = "DISPLAY=\(display) xprop -id $(DISPLAY=\(display) xdotool getactivewindow) _NET_WM_STATE"
        #expect(shellOutput(desktopShown) == "_NET_CURRENT_DESKTOP(CARDINAL) = 0\n")
        #expect(!shellOutput(state).contains("MAXIMIZED"))
        let run = rig(devices: ["touchpad"], rules: InputRules.nextWorkspace + """

            [rule.big]
            gesture = "tap"
            fingers = 2
            action = "maximize"

            [rule.overview]
            gesture = "tap"
            fingers = 3
            action = "overview"
            """, script: """
            device touchpad
            await input: connected to x11 XTEST at \(display)
            tap 2 at 50,35
            shell timeout 30 sh -c 'until \(state) | grep -q MAXIMIZED_HORZ; do sleep 0.05; done'
            \(InputRules.swipe)
            shell timeout 30 sh -c 'until \(desktopShown) | grep -q "= 1"; do sleep 0.05; done'
            tap 3 at 50,35
            await input: x11 has no overview
            """, arguments: InputRules.arguments, extra: InputRules.extra, wrapper: "env DISPLAY=\(display) WAYLAND_DISPLAY=")
        #expect(run.status == 0, "\(run.lines.suffix(10))")
        #expect(shellOutput(desktopShown) == "_NET_CURRENT_DESKTOP(CARDINAL) = 1\n", "\(run.lines.suffix(10))")
        #expect(run.lines.filter { $0.hasPrefix("touchgest: warning: input: ") } == ["touchgest: warning: input: x11 has no overview"])
    }
}
