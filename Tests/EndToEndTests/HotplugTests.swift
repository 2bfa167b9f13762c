import TestSupport
import Testing

/// Devices coming and going while touchgest runs.
@Suite(.serialized) struct HotplugTests {
    @Test func aDeviceRemovedMidGestureCancelsItAndTouchgestCarriesOn() {
        let run = rig(devices: ["touchscreen", "touchpad"], rules: """
            [rule.drag]
            gesture = "pan"
            device = "touchscreen"
            on-begin = "true"
            on-cancel = "true"

            [rule.tap]
            gesture = "tap"
            fingers = 2
            device = "touchpad"
            command = "true"
            """, script: """
            device touchscreen
            touch 1 at 100,100 move 40,0 over 200ms lift no
            remove touchscreen
            wait 300ms
            device touchpad
            tap 2 at 50,35
            wait 600ms
            """) { $0.decisions == ["drag possible -> began", "drag changed -> cancelled", "tap possible -> recognized"] }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == ["drag possible -> began", "drag changed -> cancelled", "tap possible -> recognized"])
        #expect(run.lines.contains("device removed: /dev/input/event0"))
        // Begin and cancel carry the pan's net direction: it moved right.
        #expect(run.commands == ["drag begin right", "drag cancel right", "tap recognized"])
    }

    @Test func aDeviceAddedWhileRunningIsUsedAtOnce() {
        let run = rig(devices: ["touchpad", "touchscreen"], rules: """
            [rule.screen-tap]
            gesture = "tap"
            device = "touchscreen"
            command = "true"
            """, script: """
            wait 200ms
            add touchscreen
            device touchscreen
            tap 1 at 150,100
            wait 600ms
            """, extra: "--late touchscreen") { $0.decisions == ["screen-tap possible -> recognized"] }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.filter { $0.hasPrefix("device added") }.count == 2)
        #expect(run.decisions == ["screen-tap possible -> recognized"])
    }
}
