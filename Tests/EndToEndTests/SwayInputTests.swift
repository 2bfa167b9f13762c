import Glibc
import TestSupport
import Testing

/// Keys and text from rules, pressed by touchgest itself through the virtual keyboard
/// protocol on a real sway 1.7 (headless, rig/headless-sway), and read back by a real
/// Wayland client: wev, in the focused window, writes every key event it gets.
@Suite(.serialized, .enabled(if: getuid() == 0, "sway runs as nobody, which only root can switch to"))
struct SwayInputTests {
    /// `press Control_L`, `release v`: the key events wev wrote, in order.
    func keys(in log: String) -> [String] {
        var events: [String] = []
        var pending: String?
        for line in log.split(separator: "\n") {
            if line.contains("] key: "), let state = line.firstRange(of: "state: ") {
                pending = line[state.upperBound...].hasPrefix("1") ? "press" : "release"
            } else if let kind = pending, let sym = line.firstRange(of: "sym: ") {
                events.append("\(kind) \(line[sym.upperBound...].prefix { !$0.isWhitespace })")
                pending = nil
            }
        }
        return events
    }

    @Test func aGesturesKeysAndTextReachTheFocusedWaylandWindow() throws {
        let sway = temporaryFolder()
        defer { _ = shellOutput("'\(headlessSway)' stop \(sway)") }
        let socket = try startDesktop("'\(headlessSway)' start \(sway) wev")
        let runtime = "\(sway)/runtime"
        let run = rig(devices: ["touchpad"], rules: InputRules.keysAndText, script: """
            device touchpad
            await input: connected to Wayland virtual keyboard at \(runtime)/wayland-1
            \(InputRules.taps)
            """, arguments: InputRules.arguments, extra: InputRules.extra,
            wrapper: "env -u DISPLAY WAYLAND_DISPLAY=wayland-1 XDG_RUNTIME_DIR=\(runtime) SWAYSOCK=\(socket)")
        #expect(run.status == 0, "\(run.lines.suffix(10))")
        #expect(keys(in: readText("\(runtime)/wev.log")) == InputRules.tapEvents, "\(run.lines.suffix(10))")
    }

    // A desktop action goes to sway's own command over its IPC socket, not as keys: a
    // 3-finger swipe up runs `workspace next`, read back from sway; an action sway does
    // not have is said, naming it, and nothing else happens.
    @Test func anActionRunsSwaysOwnCommandAndOneSwayLacksIsSaid() throws {
        let sway = temporaryFolder()
        defer { _ = shellOutput("'\(headlessSway)' stop \(sway)") }
        let socket = try startDesktop("'\(headlessSway)' start \(sway) foot-a")
        let runtime = "\(sway)/runtime"
        // The window on workspace 2, workspace 1 (empty) focused: `workspace next` goes to 2.
        _ = shellOutput("swaymsg -s \(socket) 'move container to workspace 2'")
        // Prints 1 while workspace 2 is the focused one (swaymsg writes JSON to a pipe).
        let focused = "\(sway)/focused-2"
        writeText(focused, """
            #!/bin/sh
            swaymsg -s \(socket) -t get_workspaces | /usr/bin/python3 -c 'import json, sys; print(sum(w["focused"] for w in json.load(sys.stdin) if w["name"] == "2"))'

            """, mode: 0o755)
        try #require(shellOutput(focused).hasPrefix("0"), "workspace 2 is focused before the swipe")
        let run = rig(devices: ["touchpad"], rules: InputRules.nextWorkspace + """

            [rule.overview]
            gesture = "tap"
            fingers = 3
            action = "overview"
            """, script: """
            device touchpad
            await input: connected to Wayland virtual keyboard at \(runtime)/wayland-1
            \(InputRules.swipe)
            shell timeout 30 sh -c 'until [ "$(\(focused))" = 1 ]; do sleep 0.05; done'
            tap 3 at 50,35
            await input: sway has no overview
            """, arguments: InputRules.arguments, extra: InputRules.extra,
            wrapper: "env -u DISPLAY WAYLAND_DISPLAY=wayland-1 XDG_RUNTIME_DIR=\(runtime) SWAYSOCK=\(socket)")
        #expect(run.status == 0, "\(run.lines.suffix(10))")
        #expect(shellOutput(focused).hasPrefix("1"), "\(run.lines.suffix(10))")
        #expect(run.lines.filter { $0.hasPrefix("touchgest: warning: input: ") } == ["touchgest: warning: input: sway has no overview"])
    }
}
