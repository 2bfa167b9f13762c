import TestSupport
import Testing

/// Touchpad gestures through the real libinput on an emulated 100x70 mm clickpad.
@Suite(.serialized) struct TouchpadTests {
    @Test func threeAndFourFingerSwipesInEachDirection() {
        var rules = ""
        var script = "device touchpad\n"
        var expected: [String] = []
        for fingers in [3, 4] {
            for (direction, move) in [("left", "-35,0"), ("right", "35,0"), ("up", "0,-30"), ("down", "0,30")] {
                rules += """
                    [rule.swipe-\(fingers)-\(direction)]
                    gesture = "swipe"
                    fingers = \(fingers)
                    direction = "\(direction)"
                    device = "touchpad"
                    command = "true"

                    """
                let start = move.hasPrefix("-") ? "70,35" : move.hasPrefix("0,-") ? "50,50" : move.hasPrefix("0,") ? "50,20" : "30,35"
                script += "touch \(fingers) at \(start) move \(move) over 200ms\nwait 250ms\n"
                expected.append("swipe-\(fingers)-\(direction) possible -> recognized")
            }
        }
        let run = rig(devices: ["touchpad"], rules: rules, script: script) { $0.decisions == expected }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == expected)
    }

    @Test func twoFingerPinchOutAndInStepsBothWays() {
        let run = rig(devices: ["touchpad"], rules: """
            [rule.zoom]
            gesture = "pinch"
            device = "touchpad"
            step = 0.5
            on-begin = "true"
            on-step = "true"
            on-end = "true"
            """, script: """
            device touchpad
            pinch 2 at 50,35 from 20 to 60 over 300ms
            wait 300ms
            pinch 2 at 50,35 from 60 to 20 over 300ms
            wait 300ms
            """) { $0.decisions.count == 4 }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == ["zoom possible -> began", "zoom changed -> ended",
                                  "zoom possible -> began", "zoom changed -> ended"])
        // libinput's scale counts from where it detected the pinch: 20 to 60 mm ends at
        // about 2.6, so three steps out; 60 to 20 mm ends at about 0.35, one step in.
        // Begin and end carry the net direction.
        #expect(run.commands == ["zoom begin out", "zoom step 1 out", "zoom step 2 out", "zoom step 3 out", "zoom end out",
                                 "zoom begin in", "zoom step -1 in", "zoom end in"])
    }

    @Test func twoFingersTurningAreARotationNotAPinch() {
        let run = rig(devices: ["touchpad"], rules: """
            [rule.zoom]
            gesture = "pinch"
            device = "touchpad"
            command = "true"

            [rule.turn]
            gesture = "rotation"
            device = "touchpad"
            command = "true"
            """, script: """
            device touchpad
            rotate 2 at 50,35 radius 15 by 90 over 400ms
            wait 300ms
            """) { $0.decisions == ["turn possible -> began", "turn changed -> ended"] }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == ["turn possible -> began", "turn changed -> ended"])
    }

    @Test func aThreeFingerHoldBeginsAfterTheDurationAndEndsOnLift() {
        let run = rig(devices: ["touchpad"], rules: """
            [rule.hold]
            gesture = "long-press"
            fingers = 3
            device = "touchpad"
            command = "true"
            """, script: """
            device touchpad
            hold 3 at 50,35 for 900ms
            wait 300ms
            """) { $0.decisions == ["hold possible -> began", "hold began -> ended"] }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == ["hold possible -> began", "hold began -> ended"])
    }

    // libinput cancels its hold and begins a swipe once a resting finger has moved 1 mm
    // (150 ms after landing): fingers that settle 1.5 mm are still a press, and no swipe.
    @Test func aHoldWhoseFingersSettleAMillimetreAndAHalfIsStillAHoldNotASwipe() {
        let run = rig(devices: ["touchpad"], rules: """
            [rule.hold]
            gesture = "long-press"
            fingers = 3
            device = "touchpad"
            command = "true"

            [rule.swipe]
            gesture = "swipe"
            fingers = 3
            device = "touchpad"
            command = "true"
            """, script: """
            device touchpad
            down 3 at 50,35
            wait 250ms
            touch 3 at 50,35 move 1.5,0 over 40ms lift no
            wait 700ms
            up 3 at 51.5,35
            wait 300ms
            """, arguments: "debug") { $0.decisions.contains("hold began -> ended") }
        #expect(run.status == 0, "\(run.stderr)")
        // What libinput made of it: a hold, cancelled for a swipe in the same frame.
        let libinput = run.lines.filter { $0.hasPrefix("touchpad ") && !$0.hasPrefix("touchpad swipe-update") }
        #expect(libinput == ["touchpad hold-begin 3f", "touchpad hold-end 3f cancelled", "touchpad swipe-begin 3f",
                             "touchpad swipe-end 3f"], "\(run)")
        #expect(run.decisions == ["hold possible -> began", "hold began -> ended"], "\(run)")
    }

    @Test func oneTwoAndThreeFingerTapsAndADoubleTap() {
        let expected = ["one possible -> recognized", "two possible -> recognized",
                        "three possible -> recognized", "double possible -> recognized"]
        let run = rig(devices: ["touchpad"], rules: """
            [settings]
            device = "touchpad"

            [rule.one]
            gesture = "tap"
            command = "true"

            [rule.double]
            gesture = "tap"
            taps = 2
            command = "true"

            [rule.two]
            gesture = "tap"
            fingers = 2
            command = "true"

            [rule.three]
            gesture = "tap"
            fingers = 3
            command = "true"
            """, script: """
            device touchpad
            tap 1 at 50,35
            wait 700ms
            tap 2 at 50,35
            wait 700ms
            tap 3 at 50,35
            wait 700ms
            tap 1 at 50,35
            wait 120ms
            tap 1 at 50,35
            wait 700ms
            """) { $0.decisions == expected }
        #expect(run.status == 0, "\(run.stderr)")
        // The single tap waits for the double tap to fail; the double tap never fires the single.
        #expect(run.decisions == expected)
    }

    @Test func physicalClicksOnTheClickpadAreNotTaps() {
        // A click in the bottom-middle button area is BTN_MIDDLE, the same button as a
        // 3-finger tap; only the timing of its release tells them apart.
        let expected = ["one possible -> recognized", "three possible -> recognized"]
        let run = rig(devices: ["touchpad"], rules: """
            [settings]
            device = "touchpad"

            [rule.one]
            gesture = "tap"
            command = "true"

            [rule.three]
            gesture = "tap"
            fingers = 3
            command = "true"
            """, script: """
            device touchpad
            click 1 at 50,60
            wait 500ms
            click 1 at 20,35
            wait 500ms
            tap 1 at 50,35
            wait 500ms
            tap 3 at 50,35
            wait 500ms
            """) { $0.decisions == expected }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == expected)
        #expect(run.lines.filter { $0.hasPrefix("touchpad tap") } == ["touchpad tap 1f", "touchpad tap 3f"])
    }
}
