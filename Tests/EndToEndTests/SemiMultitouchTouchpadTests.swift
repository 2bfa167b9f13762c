import TestSupport
import Testing

/// Semi-MT PS/2 touchpads through the real libinput: libinput gives them no gesture
/// capability (no swipe, pinch or hold), and its taps lose a two-finger tap whose first
/// finger jumps as the second lands. With the default source touchgest reads their taps
/// from their fingers.
@Suite(.serialized) struct SemiMultitouchTouchpadTests {
    @Test func oneTwoAndThreeFingerTapsFireTheirRules() {
        let expected = ["one possible -> recognized", "two possible -> recognized", "three possible -> recognized"]
        let run = rig(devices: ["semimt"], rules: """
            [settings]
            device = "touchpad"

            [rule.one]
            gesture = "tap"
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
            device semimt
            tap 1 at 33,18
            wait 700ms
            tap 2 at 33,18
            wait 700ms
            tap 3 at 33,18 spacing 10
            wait 700ms
            """) { $0.decisions == expected }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == expected)
        #expect(run.lines.filter { $0.hasPrefix("touchpad ") } == ["touchpad tap 1f", "touchpad tap 2f", "touchpad tap 3f"])
    }

    /// Two fingers on a semi-MT pad with no resolution (an ALPS GlidePoint): the first
    /// lands alone; as the second lands 20 mm to its left the kernel's box moves the
    /// first's reported position there, and the fingers rest (a frame of pressure or
    /// position noise) until they lift.
    static let jumpingTap = """
        device alps
        down 1 at 40,20
        wait 16ms
        down 2 at 30,18 spacing 20
        wait 16ms
        down 2 at 30.2,18.1 spacing 20
        wait 16ms
        down 2 at 30.3,18.2 spacing 20
        wait 60ms
        up 2 at 30,18
        wait 700ms
        """

    static func twoFingerTap(source: String) -> String {
        """
        [rule.two]
        gesture = "tap"
        fingers = 2
        device = "touchpad"
        \(source)
        command = "true"
        """
    }

    @Test func aTwoFingerTapWhoseFirstFingerJumpsFiresWithTheDefaultSource() {
        let expected = ["two possible -> recognized"]
        let run = rig(devices: ["alps"], rules: Self.twoFingerTap(source: ""), script: Self.jumpingTap) { $0.decisions == expected }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == expected)
        // Read from the pad's fingers: libinput reported no tap.
        #expect(run.lines.contains { $0.hasPrefix("reading the fingers of /dev/input/event0: a tap rule reads this semi-MT pad's taps") }, "\(run)")
        #expect(!run.lines.contains { $0.hasPrefix("touchpad tap") }, "\(run)")
    }

    @Test func libinputLosesTheSameTap() {
        // What the default source did before semi-MT taps were read from the fingers.
        let run = rig(devices: ["alps"], rules: Self.twoFingerTap(source: "source = \"libinput\""), script: Self.jumpingTap)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions.isEmpty, "\(run)")
        #expect(!run.lines.contains { $0.hasPrefix("touchpad tap") }, "\(run)")
        #expect(!run.lines.contains { $0.contains("reading the fingers") }, "\(run)")
    }

    @Test func aClickPointingAndScrollingOnTheSemiMultitouchPadFireNothing() {
        let run = rig(devices: ["alps"], rules: """
            [settings]
            device = "touchpad"

            [rule.one]
            gesture = "tap"
            command = "true"

            [rule.two]
            gesture = "tap"
            fingers = 2
            command = "true"
            """, script: """
            device alps
            click 1 at 30,20
            wait 700ms
            touch 1 at 20,20 move 25,5 over 300ms
            wait 700ms
            touch 2 at 30,15 move 0,15 over 300ms spacing 20
            wait 700ms
            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.contains { $0.hasPrefix("reading the fingers of /dev/input/event0: a tap rule reads this semi-MT pad's taps") }, "\(run)")
        #expect(run.decisions.isEmpty, "\(run)")
    }

    @Test func listDevicesShowsATouchpadThatOnlyTaps() {
        let run = rig(devices: ["semimt"], rules: "", script: "wait 10ms\n", arguments: "list-devices",
                      extra: "--ready 'touchpad' --ready-count 1", passRules: false)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines == [
            "/dev/input/event0 touchpad \"touchrig SynPS/2 Synaptics TouchPad\" 67x36mm, "
                + "taps with 1-3 fingers, taps read from its fingers; no swipe, pinch or hold: libinput gives this semi-MT pad no gestures",
        ])
    }
}
