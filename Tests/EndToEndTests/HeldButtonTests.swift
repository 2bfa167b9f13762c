import Testing

/// `buttons` on a touchpad, against the real libinput (the rig's emulated clickpad): a
/// fact found here, and why `buttons` cannot fire on a touchpad yet (docs/libinput-facts.md).
@Suite struct HeldButtonTests {
    // libinput 1.22 makes no swipe while the clickpad is held down: three fingers moving
    // with the pad pressed are a click and drag of the pointer, not a gesture. Only the
    // swipe made after the release reaches the rules, as the plain rule's.
    @Test func libinputMakesNoSwipeWhileTheClickpadIsHeldDown() {
        let run = rig(devices: ["touchpad"], rules: """
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
            command = "true"
            """, script: """
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
}
