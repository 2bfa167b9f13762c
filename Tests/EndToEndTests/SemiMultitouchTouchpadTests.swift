import TestSupport
import Testing

/// A semi-MT PS/2 Synaptics touchpad through the real libinput: libinput gives it no
/// gesture capability (no swipe, pinch or hold), but its 1-, 2- and 3-finger taps work.
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

    @Test func listDevicesShowsATouchpadThatOnlyTaps() {
        let run = rig(devices: ["semimt"], rules: "", script: "wait 10ms\n", arguments: "list-devices",
                      extra: "--ready 'touchpad' --ready-count 1", passRules: false)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines == [
            "/dev/input/event0 touchpad \"touchrig SynPS/2 Synaptics TouchPad\" 67x36mm, "
                + "taps with 1-3 fingers; no swipe, pinch or hold: libinput gives this semi-MT pad no gestures",
        ])
    }
}
