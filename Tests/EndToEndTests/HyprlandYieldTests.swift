import Glibc
import TestSupport
import Testing

/// `desktop-gestures = "yield"` in `touchgest run` on the real libinput, against a stand-in
/// of Hyprland's request socket as its wiki documents it (rig/hyprland-standin.py; the real
/// Hyprland cannot run here): the swipe is read, turned off for the rules' 3 fingers,
/// turned back on when a reload leaves no swipe rule, off again when one comes back, and
/// on again at SIGTERM.
@Suite(.serialized) struct HyprlandYieldTests {
    static let swipeRules = """
        [settings]
        desktop-gestures = "yield"

        [rule.workspace-next]
        gesture = "swipe"
        device = "touchpad"
        fingers = 3
        direction = "left"
        command = "true"
        """
    static let tapRules = """
        [settings]
        desktop-gestures = "yield"

        [rule.t]
        gesture = "tap"
        fingers = 2
        command = "true"
        """

    /// Runs `touchgest run` with `rules` against the stand-in, playing `script`; the
    /// stand-in's folder (`$HYPR` in the script) holds what it was asked.
    func run(rules: String, script: String) -> (run: RigRun, folder: String) {
        let folder = temporaryFolder()
        chmod(folder, 0o700)
        defer { _ = shellOutput("kill $(cat \(folder)/hyprland.pid) 2>/dev/null") }
        let socket = "\(folder)/hypr/standin/.socket.sock"
        let wrapper = "sh -c 'setsid /usr/bin/python3 \(packageRoot)/rig/hyprland-standin.py \(folder) < /dev/null > \(folder)/hyprland.log 2>&1 & "
            + "while [ ! -S \(socket) ]; do sleep 0.01; done; exec env XDG_RUNTIME_DIR=\(folder) HYPRLAND_INSTANCE_SIGNATURE=standin \"$@\"' --"
        let run = rig(devices: ["touchpad"], rules: rules, script: script.replacing("$HYPR", with: folder),
                      arguments: "run --allow-root --focus none --session-state none", extra: "--merge-stderr --signal TERM --ready 'device added'",
                      files: ["swipes.toml": Self.swipeRules, "taps.toml": Self.tapRules], wrapper: wrapper)
        return (run, folder)
    }

    static let reads = ["j/getoption gestures:workspace_swipe", "j/getoption gestures:workspace_swipe_fingers",
                        "j/getoption gestures:workspace_swipe_min_fingers"]

    @Test func yieldTurnsTheSwipeOffAndAReloadWithoutSwipesAndSIGTERMTurnItBackOn() {
        let (run, folder) = self.run(rules: Self.swipeRules, script: """
            device touchpad
            await turned hyprland's own 3-finger workspace swipe off
            shell cp $FOLDER/taps.toml $FOLDER/rules.toml
            await turned hyprland's own workspace swipe back on
            shell cp $FOLDER/swipes.toml $FOLDER/rules.toml
            await turned hyprland's own 3-finger workspace swipe off
            """)
        #expect(run.status == 0, "\(run)")
        let requests = readText("\(folder)/requests").split(separator: "\n").map(String.init)
        #expect(requests == Self.reads + ["keyword gestures:workspace_swipe false", "keyword gestures:workspace_swipe true"]
                    + Self.reads + ["keyword gestures:workspace_swipe false", "keyword gestures:workspace_swipe true"], "\(run)")
        let options = readText("\(folder)/options").split(separator: "\n").last.map(String.init)
        #expect(options == #"{"gestures:workspace_swipe": 1, "gestures:workspace_swipe_fingers": 3, "gestures:workspace_swipe_min_fingers": 0}"#)
        #expect(run.lines.contains { $0.hasSuffix("desktop gestures: turned hyprland's own 3-finger workspace swipe off ('keyword gestures:workspace_swipe false') while rules bind 3-finger swipes; touchgest turns it back on when it stops or its rules no longer bind them; if touchgest dies first, 'hyprctl reload' does") }, "\(run)")
    }

    @Test func keepTouchesNothing() {
        let keep = Self.swipeRules.replacing("\"yield\"", with: "\"keep\"")
        let (run, folder) = self.run(rules: keep, script: "device touchpad\nwait 300ms")
        #expect(run.status == 0, "\(run)")
        #expect(readFile("\(folder)/requests") == nil, "\(run)")
    }
}
