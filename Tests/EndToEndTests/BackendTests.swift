import TestSupport
import Testing

/// The two ways to open input, and what happens when there is nothing to open yet.
@Suite(.serialized) struct BackendTests {
    @Test func namedDeviceNodesWorkWithoutASeat() {
        // Two emulated devices, but only the touchscreen's node is named.
        let run = rig(devices: ["touchpad", "touchscreen"], rules: """
            [rule.screen-tap]
            gesture = "tap"
            command = "true"

            [rule.pad-tap]
            gesture = "tap"
            fingers = 2
            command = "true"
            """, script: """
            device touchpad
            tap 2 at 50,35
            wait 500ms
            device touchscreen
            tap 1 at 150,100
            wait 600ms
            """, arguments: "debug --device /dev/input/event1", extra: "--ready 'device added' --ready-count 1") {
            $0.decisions == ["screen-tap possible -> recognized"]
        }
        // With one node named, touchgest opens one device: the rig waits for one line.
        #expect(run.lines.filter { $0.hasPrefix("device added") } == [
            "device added: /dev/input/event1 touchscreen \"touchrig Touchscreen\" 300x200mm, 10 slots",
        ])
        #expect(run.decisions == ["screen-tap possible -> recognized"])
    }

    @Test func theDaemonWaitsForAFirstDeviceAndUsesItWhenItComes() {
        let run = rig(devices: ["touchpad"], rules: """
            [rule.tap]
            gesture = "tap"
            fingers = 2
            command = "echo tapped >> $FOLDER/out"
            """, script: """
            wait 300ms
            add touchpad
            device touchpad
            tap 2 at 50,35
            wait 600ms
            """, arguments: "run --allow-root",
            extra: "--late touchpad --merge-stderr --signal TERM --ready 'device added'") {
            readText("\($0.folder)/out") == "tapped\n"
        }
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.contains("touchgest: no touchpad or touchscreen yet; waiting for one to be plugged in"))
        #expect(readText("\(run.folder)/out") == "tapped\n")
    }

    @Test func debugWithoutARuleFileStillShowsDevicesAndInputAndNamesTheGesture() {
        let run = rig(devices: ["touchpad"], rules: "", script: "device touchpad\ntap 2 at 50,35\nwait 300ms\n",
                      passRules: false) { $0.lines.contains("touchpad tap 2f") && $0.lines.contains("tap, 2 fingers (touchpad)") }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.contains("touchpad tap 2f"))
        // Only the built-in catalogue's rules decide, and nothing runs.
        #expect(run.decisions.allSatisfy { $0.hasPrefix("touchpad-") }, "\(run.decisions)")
        #expect(run.lines.contains("tap, 2 fingers (touchpad)"))
        #expect(run.commands.isEmpty)
    }
}
