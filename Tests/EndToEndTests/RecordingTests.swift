import TestSupport
import Testing

/// Recordings of a real Dell XPS 13 touchpad (Fixtures/recordings, MIT), replayed with
/// their recorded timing through the real libinput.
@Suite(.serialized) struct RecordingTests {
    static let rules = """
        [settings]
        device = "touchpad"

        [rule.tap]
        gesture = "tap"
        command = "true"

        [rule.double-tap]
        gesture = "tap"
        taps = 2
        command = "true"

        [rule.two-finger-tap]
        gesture = "tap"
        fingers = 2
        command = "true"

        [rule.three-finger-tap]
        gesture = "tap"
        fingers = 3
        command = "true"

        [rule.three-finger-hold]
        gesture = "long-press"
        fingers = 3
        on-begin = "true"
        on-end = "true"
        on-cancel = "true"

        [rule.three-finger-drag]
        gesture = "pan"
        fingers = 3
        on-end = "true"

        [rule.three-finger-swipe]
        gesture = "swipe"
        fingers = 3
        command = "true"

        [rule.zoom]
        gesture = "pinch"
        on-end = "true"

        [rule.four-finger-hold]
        gesture = "long-press"
        fingers = 4
        on-end = "true"
        on-cancel = "true"

        [rule.four-finger-swipe]
        gesture = "swipe"
        fingers = 4
        command = "true"

        [rule.four-finger-drag]
        gesture = "pan"
        fingers = 4
        on-end = "true"
        """

    static func replay(_ name: String) -> RigRun {
        rig(devices: ["recording:\(recordings)/\(name).txt"], rules: rules,
            script: "device recording\nreplay \(recordings)/\(name).txt\nwait 700ms\n")
    }

    @Test(arguments: [
        ("1finger-tap", ["tap possible -> recognized"]),
        ("1finger-double-tap", ["double-tap possible -> recognized"]),
        ("2finger-tap", ["two-finger-tap possible -> recognized"]),
        ("3finger-tap", ["three-finger-tap possible -> recognized"]),
        ("3finger-hold", ["three-finger-hold possible -> began", "three-finger-hold began -> ended"]),
    ])
    func eachRecordingIsTheGestureItIsNamedFor(name: String, expected: [String]) {
        let run = Self.replay(name)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == expected)
    }

    @Test func theRecordedHoldThenDriftIsAHoldCancelledAndThenAPanNotASwipe() {
        // libinput cancels the hold when the fingers start to move and begins a swipe. The
        // fingers wobble right and down, then move left at about 80 mm/s for 150 ms: 7 mm
        // from the start they are heading down-left overall but moving left, not the way
        // they went, so with a drag rule on the same fingers it is the drag's.
        let run = Self.replay("3finger-hold-invalid")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == ["three-finger-hold possible -> began", "three-finger-hold began -> cancelled",
                                  "three-finger-drag possible -> began", "three-finger-drag changed -> ended"])
        // The drag's end carries its net direction: it went right before it came back.
        #expect(run.commands == ["three-finger-hold begin", "three-finger-hold cancel", "three-finger-drag end right"])
    }

    @Test func aPinchThatEndsInAHoldIsAPinchAndNoTap() {
        // In libinput 1.16 and older this recording gave fusuma a false 4-finger tap.
        let run = Self.replay("2finger-pinch-and-hold-bug")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == ["zoom possible -> began", "zoom changed -> ended"])
    }

    @Test func aFourFingerHoldThatMovesIsACancelledHoldThenASlowDrag() {
        let run = Self.replay("4finger-hold-invalid")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == ["four-finger-hold possible -> began", "four-finger-hold began -> cancelled",
                                  "four-finger-drag possible -> began", "four-finger-drag changed -> ended"])
    }
}
