import TestSupport
import Testing

/// A cheap 1024x600 panel that reports no resolution (5.2 units/mm on the glass), through
/// the real libinput: libinput's "millimetres" on it are raw units, so touchgest must
/// size it itself or every slop shrinks five-fold.
@Suite(.serialized) struct NoResolutionScreenTests {
    @Test func twoRestingFingersAreATwoFingerLongPressNotAPinch() {
        // The wobble after it began is the press's `changed`.
        let expected = ["press possible -> began", "press changed -> ended"]
        let run = rig(devices: ["panel"], rules: """
            [rule.press]
            gesture = "long-press"
            fingers = 2
            command = "true"

            [rule.zoom]
            gesture = "pinch"
            command = "true"
            """, script: """
            device panel
            hold 2 at 100,60 for 900ms wobble 1.2
            wait 300ms
            """) { $0.decisions == expected }
        #expect(run.status == 0, "\(run.stderr)")
        // Taken as millimetres, 1.2 mm of wobble is 6 units: over the 4 mm slops.
        #expect(run.decisions == expected)
    }

    @Test func aQuickDoubleTapTwoMillimetresApartIsADoubleTap() {
        let expected = ["single possible -> recognized", "double possible -> recognized"]
        let run = rig(devices: ["panel"], rules: """
            [rule.single]
            gesture = "tap"
            command = "true"

            [rule.double]
            gesture = "tap"
            taps = 2
            command = "true"
            """, script: """
            device panel
            tap 1 at 100,60
            wait 600ms
            tap 1 at 100,60
            wait 100ms
            tap 1 at 102,61
            wait 600ms
            """) { $0.decisions == expected }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == expected)
    }

    @Test func edgePansFromTheLeftAndTheRightEdge() {
        // The glass is 196.7 mm wide; touchgest assumes 204.6. 3 mm from either edge is
        // inside the 8 mm edge zone both ways.
        let expected = ["from-left possible -> began", "from-left changed -> ended",
                        "from-right possible -> began", "from-right changed -> ended"]
        let run = rig(devices: ["panel"], rules: """
            [rule.from-left]
            gesture = "edge-pan"
            edges = "left"
            on-end = "true"

            [rule.from-right]
            gesture = "edge-pan"
            edges = "right"
            on-end = "true"
            """, script: """
            device panel
            touch 1 at 3,60 move 50,0 over 200ms
            wait 200ms
            touch 1 at 193.7,60 move -50,0 over 200ms
            wait 200ms
            """) { $0.decisions == expected }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == expected)
    }

    @Test func listDevicesSaysTheSizeIsAssumedAndHowToStateIt() {
        let run = rig(devices: ["panel"], rules: "", script: "wait 10ms\n", arguments: "list-devices",
                      extra: "--ready 'touchscreen' --ready-count 1", passRules: false)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines == [
            "/dev/input/event0 touchscreen \"touchrig Panel\" 205x120mm (assumed), 10 slots",
            "  size 205x120 mm assumed: the device reports no resolution, so touchgest assumes 5 units/mm; "
                + "measure the screen and state it with --device-size 'touchrig Panel=WIDTHxHEIGHT' (millimetres)",
        ])
    }

    @Test func aStatedSizeWinsAndScalesTheTouches() {
        let run = rig(devices: ["panel"], rules: "", script: "device panel\ntap 1 at 98.35,57.5\nwait 300ms\n",
                      arguments: "debug --device-size 'touchrig P*=196.7x115.2'", passRules: false) {
            $0.lines.contains { $0.hasPrefix("touch 1 up") }
        }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.contains("device added: /dev/input/event0 touchscreen \"touchrig Panel\" 197x115mm (stated), 10 slots"))
        // The middle of the glass, in the glass's own millimetres.
        #expect(run.lines.contains("touch 1 down 98.3,57.5 mm"))
    }

    @Test func aSizeStatedInTheRuleFileWinsToo() {
        let rules = """
            [settings]
            device-size = ["touchrig P*=196.7x115.2"]

            [rule.tap]
            gesture = "tap"
            command = "true"
            """
        let run = rig(devices: ["panel"], rules: rules, script: "device panel\ntap 1 at 98.35,57.5\nwait 500ms\n") {
            $0.lines.contains { $0.hasPrefix("touch 1 up") }
        }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.contains("device added: /dev/input/event0 touchscreen \"touchrig Panel\" 197x115mm (stated), 10 slots"))
        #expect(run.lines.contains("touch 1 down 98.3,57.5 mm"))
    }
}
