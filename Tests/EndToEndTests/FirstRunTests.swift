import TestSupport
import Testing

/// What a new user runs first, on emulated devices through the real libinput.
@Suite(.serialized) struct FirstRunTests {
    /// The lines naming a gesture of the built-in catalogue: `swipe left, 3 fingers (touchpad)`.
    static func names(_ run: RigRun) -> [String] {
        run.lines.filter { ($0.hasSuffix(" (touchpad)") || $0.hasSuffix(" (touchscreen)")) && !$0.contains(" -> ") && !$0.hasPrefix("device") }
    }

    @Test func debugWithoutARuleFileNamesASwipeAPinchAHoldAndATap() {
        let expected = ["swipe left, 3 fingers (touchpad)", "pinch out, 2 fingers (touchpad)",
                        "long-press, 3 fingers (touchpad)", "tap, 2 fingers (touchpad)"]
        let run = rig(devices: ["touchpad"], rules: "", script: """
            device touchpad
            touch 3 at 70,35 move -35,0 over 200ms
            wait 300ms
            pinch 2 at 50,35 from 20 to 60 over 300ms
            wait 300ms
            hold 3 at 50,35 for 900ms
            wait 300ms
            tap 2 at 50,35
            wait 800ms
            """, passRules: false) { Self.names($0) == expected }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.names(run) == expected, "\(run)")
        #expect(run.stderr.contains("no rule file at \(run.folder)/config/touchgest/rules.toml; naming every gesture"))
        // Each name comes with its rule the first time.
        #expect(run.lines.contains("  [rule.swipe-left-3]"))
        #expect(run.lines.contains("  direction = \"left\""))
        #expect(run.lines.contains("  on-end = \"[ \\\"$TOUCHGEST_DIRECTION\\\" = out ] && notify-send 'pinch out, 2 fingers'\""))
    }

    @Test func debugWithoutARuleFileNamesTouchscreenSwipesInEightDirections() {
        let run = rig(devices: ["touchscreen"], rules: "", script: """
            device touchscreen
            touch 1 at 150,100 move 30,-30 over 150ms
            wait 300ms
            touch 2 at 150,100 move 0,40 over 150ms
            wait 300ms
            """, passRules: false) { Self.names($0).count == 2 }
        #expect(Self.names(run) == ["swipe up-right, 1 finger (touchscreen)", "swipe down, 2 fingers (touchscreen)"], "\(run)")
    }

    @Test func doctorSeesTheDevicesAndTheRules() {
        let run = rig(devices: ["touchpad", "touchscreen"], rules: """
            [rule.tap]
            gesture = "tap"
            command = "true"
            """, script: "wait 10ms\n", arguments: "doctor", extra: "--ready 'devices' --ready-count 1")
        #expect(run.lines.contains { $0.hasPrefix("ok    devices: /dev/input/event0 touchpad \"touchrig Clickpad\"") }, "\(run.lines) \(run.stderr)")
        #expect(run.lines.contains { $0.hasPrefix("ok    devices: /dev/input/event1 touchscreen \"touchrig Touchscreen\"") })
        #expect(run.lines.contains("ok    rules: \(run.folder)/rules.toml is valid: 1 rule"))
    }
}
