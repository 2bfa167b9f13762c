import Testing

/// `buttons` on a touchpad, against the real libinput (the rig's emulated clickpad) and
/// touchgest's finger reader on the same node: where a gesture can begin with the pad held
/// down, and which rule it fires (docs/libinput-facts.md).
@Suite(.serialized) struct HeldButtonTests {
    /// A 3-finger swipe up, without and with the pad's left button held; `source` for the
    /// held one.
    static func swipes(heldSource: String) -> String {
        """
        [rule.plain]
        gesture = "swipe"
        fingers = 3
        direction = "up"
        command = "true"

        [rule.held]
        gesture = "swipe"
        fingers = 3
        direction = "up"
        buttons = "left"
        source = "\(heldSource)"
        command = "true"
        """
    }

    // libinput 1.22 makes no swipe while the clickpad is held down by a finger: three
    // fingers moving with the pad pressed are a click and drag of the pointer, not a
    // gesture. Only the swipe made after the release reaches the rules, as the plain rule's.
    @Test func libinputMakesNoSwipeWhileAFingerHoldsTheClickpadDown() {
        let run = rig(devices: ["touchpad"], rules: Self.swipes(heldSource: "libinput"), script: """
            device touchpad
            down 3 at 50,45
            wait 100ms
            press left
            wait 100ms
            touch 3 at 50,45 move 0,-30 over 250ms lift no
            release left
            wait 50ms
            up 3 at 50,15
            wait 500ms
            touch 3 at 50,45 move 0,-30 over 250ms
            wait 500ms
            """)
        #expect(run.decisions == ["plain possible -> recognized"], "\(run.lines) \(run.stderr)")
        #expect(run.lines.filter { $0.hasPrefix("touchpad swipe-begin") }.count == 1, "\(run.lines)")
    }

    // But it does while a thumb resting in the pad's bottom edge (its thumb zone, the lowest
    // 8%: below 64.4 mm of this 70 mm pad) holds it down: "don't allow gestures unless the
    // button is held down by a thumb". The button is libinput's by where the thumb presses
    // (button areas): bottom left is the left button, bottom middle the middle one.
    @Test func libinputSwipesWhileAThumbInTheBottomEdgeHoldsTheClickpadDown() {
        let run = rig(devices: ["touchpad"], rules: Self.swipes(heldSource: "libinput"), script: """
            device touchpad
            rest at 20,66
            wait 100ms
            press left
            wait 100ms
            touch 3 at 50,40 move 0,-30 over 250ms lift no
            up 3 at 50,10
            release left
            rest up
            wait 500ms
            rest at 50,66
            wait 100ms
            press left
            wait 100ms
            touch 3 at 50,40 move 0,-30 over 250ms lift no
            up 3 at 50,10
            release left
            rest up
            wait 500ms
            """)
        #expect(run.decisions == ["held possible -> recognized", "plain possible -> recognized"], "\(run.lines) \(run.stderr)")
        #expect(run.lines.filter { $0.hasPrefix("touchpad swipe-begin") }.count == 2, "\(run.lines)")
    }

    // Nor does it tap while a clickpad is held, by a thumb in the bottom edge or not: the
    // press kills its tap machine until every finger lifts. The tap after the release is one.
    @Test func libinputMakesNoTapWhileTheClickpadIsHeldDown() {
        let run = rig(devices: ["touchpad"], rules: """
            [rule.plain]
            gesture = "tap"
            command = "true"

            [rule.held]
            gesture = "tap"
            buttons = "left"
            command = "true"
            """, script: """
            device touchpad
            rest at 20,66
            wait 100ms
            press left
            wait 100ms
            tap 1 at 50,30
            wait 400ms
            release left
            rest up
            wait 300ms
            rest at 20,50
            wait 100ms
            press left
            wait 100ms
            tap 1 at 50,30
            wait 400ms
            release left
            rest up
            wait 300ms
            tap 1 at 50,30
            wait 500ms
            """) { $0.decisions == ["plain possible -> recognized"] }
        #expect(run.decisions == ["plain possible -> recognized"], "\(run.lines) \(run.stderr)")
    }

    // touchgest's finger reader follows the fingers that land while a finger holds the pad
    // down, which libinput does not: the held rule fires from them, and the plain one (from
    // libinput) once the pad is up, when the held rule takes no finger.
    @Test func aSwipeWhileAFingerHoldsTheClickpadDownFiresTheButtonsRuleFromTheFingers() {
        let run = rig(devices: ["touchpad"], rules: Self.swipes(heldSource: "contacts"), script: """
            device touchpad
            rest at 20,50
            wait 100ms
            press left
            wait 100ms
            touch 3 at 60,45 move 0,-30 over 250ms lift no
            up 3 at 60,15
            release left
            rest up
            wait 500ms
            touch 3 at 60,45 move 0,-30 over 250ms
            wait 500ms
            """) { $0.decisions == ["held possible -> recognized", "plain possible -> recognized"] }
        #expect(run.decisions == ["held possible -> recognized", "plain possible -> recognized"], "\(run.lines) \(run.stderr)")
        // libinput made the second swipe only.
        #expect(run.lines.filter { $0.hasPrefix("touchpad swipe-begin") }.count == 1, "\(run.lines)")
    }

    // "Hold the clickpad down and drag with another finger": the pan begins with the pad
    // held, so it is the held rule's to the end, though the pad comes up while the finger
    // still moves. The same finger moving with the pad up is pointing: nothing.
    @Test func aPanBegunWithTheClickpadHeldEndsWhenTheFingerLiftsAfterTheRelease() {
        let run = rig(devices: ["touchpad"], rules: """
            [rule.drag]
            gesture = "pan"
            fingers = 1
            source = "contacts"
            buttons = "left"
            on-begin = "true"
            on-end = "true"
            """, script: """
            device touchpad
            rest at 20,50
            wait 100ms
            press left
            wait 100ms
            touch 1 at 60,40 move 0,-10 over 120ms lift no
            release left
            touch 1 at 60,30 move 0,-10 over 120ms lift no
            up 1 at 60,20
            rest up
            wait 500ms
            touch 1 at 60,40 move 0,-20 over 240ms
            wait 500ms
            """) { $0.decisions == ["drag possible -> began", "drag changed -> ended"] }
        #expect(run.decisions == ["drag possible -> began", "drag changed -> ended"], "\(run.lines) \(run.stderr)")
    }
}
