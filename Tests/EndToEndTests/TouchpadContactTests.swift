import TestSupport
import Testing

/// Touchpad fingers read beside the real libinput from the same emulated node (the rig
/// gives the second reader its own copy of every frame, as a real evdev node does).
@Suite(.serialized) struct TouchpadContactTests {
    static let taps = """
        [settings]
        device = "touchpad"

        [rule.four]
        gesture = "tap"
        fingers = 4
        command = "true"

        [rule.four-double]
        gesture = "tap"
        fingers = 4
        taps = 2
        command = "true"

        [rule.five]
        gesture = "tap"
        fingers = 5
        command = "true"

        [rule.five-double]
        gesture = "tap"
        fingers = 5
        taps = 2
        command = "true"
        """

    @Test func fourAndFiveFingerTapsAndDoubleTapsFireTheirRules() {
        let expected = ["four possible -> recognized", "five possible -> recognized",
                        "four-double possible -> recognized", "five-double possible -> recognized"]
        let run = rig(devices: ["touchpad"], rules: Self.taps, script: """
            device touchpad
            tap 4 at 50,35
            wait 700ms
            tap 5 at 50,35 spacing 10
            wait 700ms
            tap 4 at 50,35
            wait 120ms
            tap 4 at 50,35
            wait 700ms
            tap 5 at 50,35 spacing 10
            wait 120ms
            tap 5 at 50,35 spacing 10
            wait 700ms
            """) { $0.decisions == expected }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == expected)
        #expect(run.commands == ["four recognized", "five recognized", "four-double recognized", "five-double recognized"])
    }

    @Test func edgeSwipesFromEachEdgeOfThePad() {
        var rules = ""
        for edge in ["left", "right", "top", "bottom"] {
            rules += """
                [rule.from-\(edge)]
                gesture = "edge-pan"
                device = "touchpad"
                edges = "\(edge)"
                edge-width = 5
                on-end = "true"

                """
        }
        // The pad is 100x70 mm.
        let expected = ["left", "right", "top", "bottom"].flatMap { ["from-\($0) possible -> began", "from-\($0) changed -> ended"] }
        let run = rig(devices: ["touchpad"], rules: rules, script: """
            device touchpad
            touch 1 at 2,35 move 30,0 over 200ms
            wait 400ms
            touch 1 at 98,35 move -30,0 over 200ms
            wait 400ms
            touch 1 at 50,2 move 0,25 over 200ms
            wait 400ms
            touch 1 at 50,68 move 0,-25 over 200ms
            wait 400ms
            """) { $0.decisions == expected }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == expected)
        #expect(run.commands == ["from-left end right", "from-right end left", "from-top end down", "from-bottom end up"])
    }

    @Test func aSwipeThatStartsInsideThePadIsNoEdgeSwipe() {
        let run = rig(devices: ["touchpad"], rules: """
            [rule.from-left]
            gesture = "edge-pan"
            device = "touchpad"
            edges = "left"
            edge-width = 5
            on-end = "true"
            """, script: """
            device touchpad
            touch 1 at 20,35 move 30,0 over 200ms
            wait 400ms
            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions.isEmpty)
    }

    @Test func pinchAndRotationFromRealFingers() {
        let expected = ["zoom possible -> began", "zoom changed -> ended", "turn possible -> began", "turn changed -> ended"]
        let run = rig(devices: ["touchpad"], rules: """
            [settings]
            device = "touchpad"

            [rule.zoom]
            gesture = "pinch"
            fingers = 3
            source = "contacts"
            on-end = "true"

            [rule.turn]
            gesture = "rotation"
            fingers = 3
            source = "contacts"
            on-end = "true"
            """, script: """
            device touchpad
            pinch 3 at 50,35 from 20 to 50 over 300ms
            wait 400ms
            rotate 3 at 50,35 radius 15 by 90 over 400ms
            wait 400ms
            """) { $0.decisions == expected }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == expected)
        #expect(run.commands == ["zoom end out", "turn end clockwise"])
    }

    @Test func fiveFingerSwipesAndAFourFingerPressFromTheFingers() {
        let expected = ["five-left possible -> recognized", "five-right possible -> recognized",
                        "four-press possible -> began", "four-press began -> ended"]
        let run = rig(devices: ["touchpad"], rules: """
            [settings]
            device = "touchpad"

            [rule.five-left]
            gesture = "swipe"
            fingers = 5
            direction = "left"
            source = "contacts"
            command = "true"

            [rule.five-right]
            gesture = "swipe"
            fingers = 5
            direction = "right"
            source = "contacts"
            command = "true"

            [rule.four-press]
            gesture = "long-press"
            fingers = 4
            source = "contacts"
            on-end = "true"
            """, script: """
            device touchpad
            touch 5 at 65,35 spacing 10 move -30,0 over 200ms
            wait 400ms
            touch 5 at 35,35 spacing 10 move 30,0 over 200ms
            wait 400ms
            hold 4 at 50,35 for 800ms
            wait 400ms
            """) { $0.decisions == expected }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == expected)
    }

    @Test func aClickIsNotATapWhateverTheFingers() {
        let run = rig(devices: ["touchpad"], rules: Self.taps + """

            [rule.one]
            gesture = "tap"
            source = "contacts"
            command = "true"
            """, script: """
            device touchpad
            click 1 at 50,60
            wait 500ms
            click 4 at 50,35
            wait 700ms
            tap 4 at 50,35
            wait 700ms
            """) { $0.decisions == ["four possible -> recognized"] }
        #expect(run.status == 0, "\(run.stderr)")
        // The clicks fire nothing; a tap after them still does.
        #expect(run.decisions == ["four possible -> recognized"])
    }

    @Test func aPalmTheFingersRestBesideIsIgnored() {
        // The pad marks the fifth contact MT_TOOL_PALM: four fingers tap, not five.
        let run = rig(devices: ["palmpad"], rules: Self.taps, script: """
            device palmpad
            tap 4 at 45,25 palm 85,60
            wait 700ms
            """) { $0.decisions == ["four possible -> recognized"] }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == ["four possible -> recognized"])
    }

    @Test func aLongStretchOfOneFingerPointingFiresNothing() {
        let run = rig(devices: ["touchpad"], rules: Self.taps + """

            [rule.edge]
            gesture = "edge-pan"
            edges = "any"
            edge-width = 3
            on-begin = "true"

            [rule.zoom]
            gesture = "pinch"
            source = "contacts"
            on-begin = "true"

            [rule.three-drag]
            gesture = "pan"
            fingers = 3
            source = "contacts"
            on-begin = "true"
            """, script: """
            device touchpad
            touch 1 at 20,20 move 50,30 over 900ms
            wait 150ms
            touch 1 at 70,50 move -40,-10 over 700ms
            wait 150ms
            touch 1 at 40,40 move 10,-25 over 500ms
            wait 150ms
            touch 1 at 50,15 move 30,35 over 1200ms
            wait 150ms
            hold 1 at 60,40 for 800ms
            wait 600ms
            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions.isEmpty)
    }

    @Test func aTouchpadUnpluggedMidGestureCancelsIt() {
        let run = rig(devices: ["touchpad"], rules: """
            [rule.drag]
            gesture = "pan"
            device = "touchpad"
            fingers = 4
            source = "contacts"
            on-begin = "true"
            on-cancel = "true"
            """, script: """
            device touchpad
            touch 4 at 50,35 move 20,0 over 200ms lift no
            remove touchpad
            wait 300ms
            """) { $0.decisions == ["drag possible -> began", "drag changed -> cancelled"] }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == ["drag possible -> began", "drag changed -> cancelled"])
        #expect(run.commands == ["drag begin right", "drag cancel right"])
    }

    @Test func aSemiMultitouchPadTapsWithTwoAndThreeFingersFromItsBox() {
        let expected = ["two possible -> recognized", "three possible -> recognized"]
        let run = rig(devices: ["semimt"], rules: """
            [settings]
            device = "touchpad"

            [rule.two]
            gesture = "tap"
            fingers = 2
            source = "contacts"
            command = "true"

            [rule.three]
            gesture = "tap"
            fingers = 3
            source = "contacts"
            command = "true"
            """, script: """
            device semimt
            tap 2 at 33,18
            wait 700ms
            tap 3 at 33,18 spacing 10
            wait 700ms
            """) { $0.decisions == expected }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == expected)
        // The fingers come from the contact reader: the rules never saw libinput's taps.
        #expect(run.lines.contains { $0.hasPrefix("touch ") && $0.contains(" down ") })
    }
}

/// The real Dell XPS 13 recordings (Fixtures/recordings) through the real libinput and
/// the contact reader at once.
@Suite(.serialized) struct TouchpadContactRecordingTests {
    static func replay(_ name: String, rules: String) -> RigRun {
        rig(devices: ["recording:\(recordings)/\(name).txt"], rules: rules,
            script: "device recording\nreplay \(recordings)/\(name).txt\nwait 700ms\n")
    }

    @Test func theRecordedFourFingerTapFiresTheFourFingerTapRule() {
        // libinput has no 4-finger tap: only the fingers show it.
        let run = Self.replay("4finger-tap", rules: TouchpadContactTests.taps)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == ["four possible -> recognized"])
    }

    @Test func aPalmThenFourFingersIsAFourFingerTapNotAFiveFingerOne() {
        // The pad marks the first contact MT_TOOL_PALM; fusuma once counted it as a fifth finger.
        let run = Self.replay("4finger-tap-after-palm-detected-bug", rules: TouchpadContactTests.taps)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == ["four possible -> recognized"])
    }

    /// Tap rules on `source`; `libinput+contacts` is libinput's taps while a 4-finger tap
    /// rule reads the fingers, so the fingers reach the engine beside libinput's taps.
    static func tapRules(source: String) -> String {
        if source == "libinput+contacts" {
            return tapRules(source: "libinput") + "\n\n[rule.four]\ngesture = \"tap\"\nfingers = 4\ncommand = \"true\"\n"
        }
        return """
        [settings]
        device = "touchpad"

        [rule.tap]
        gesture = "tap"
        source = "\(source)"
        command = "true"

        [rule.double-tap]
        gesture = "tap"
        taps = 2
        source = "\(source)"
        command = "true"

        [rule.two-finger-tap]
        gesture = "tap"
        fingers = 2
        source = "\(source)"
        command = "true"

        [rule.three-finger-tap]
        gesture = "tap"
        fingers = 3
        source = "\(source)"
        command = "true"
        """
    }

    @Test(arguments: ["libinput", "libinput+contacts", "contacts"], [
        ("1finger-tap", "tap recognized"),
        ("1finger-double-tap", "double-tap recognized"),
        ("2finger-tap", "two-finger-tap recognized"),
        ("3finger-tap", "three-finger-tap recognized"),
    ])
    func oneToThreeFingerTapsFireExactlyOnceFromEitherSource(source: String, recording: (String, String)) {
        let run = Self.replay(recording.0, rules: Self.tapRules(source: source))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.commands == [recording.1])
    }
}
