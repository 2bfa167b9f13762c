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
}
