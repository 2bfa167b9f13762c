import Testing
import TouchGestures

/// The one way a frame is built from what is down and what changed, whichever source
/// reads the touches (libinput, the contact reader, a recording, the generators).
@Suite struct TouchEventFrameTests {
    func touch(_ id: Int, _ phase: TouchPhase, _ x: Double, from: Double? = nil) -> Touch {
        Touch(id: id, phase: phase, location: Point(x: x, y: 0), previousLocation: from.map { Point(x: $0, y: 0) },
              timestamp: .milliseconds(8))
    }

    func phases(_ touches: [Touch]) -> [String] { touches.map { "\($0.id) \($0.phase.rawValue)" } }

    @Test func aTouchThatDidNotChangeIsStationaryWhereItIs() {
        // Touch 1 moved in an earlier frame (from 5 to 10); in this one only touch 2 moves.
        let frame = TouchEvent(timestamp: .milliseconds(8), down: [touch(1, .moved, 10, from: 5), touch(2, .moved, 20, from: 18)],
                               changed: [touch(2, .moved, 25, from: 20)])
        #expect(phases(frame.allTouches) == ["1 stationary", "2 moved"])
        #expect(frame.allTouches[0].previousLocation == frame.allTouches[0].location)
        #expect(frame.allTouches[1].location == Point(x: 25, y: 0))
        #expect(phases(frame.changedTouches) == ["2 moved"])
    }

    @Test func touchesThatEndedComeLastAndOnce() {
        // Touch 1 lifts (the source may still hold it as down); touch 3 lands.
        let frame = TouchEvent(timestamp: .milliseconds(8), down: [touch(2, .moved, 20), touch(1, .moved, 10)],
                               changed: [touch(1, .ended, 10), touch(3, .began, 30)])
        #expect(phases(frame.allTouches) == ["2 stationary", "3 began", "1 ended"])
        #expect(phases(frame.changedTouches) == ["1 ended", "3 began"])
    }

    @Test(arguments: TouchPhase.allCases)
    func everyPhaseHasAWordThatReadsBack(phase: TouchPhase) {
        let back = TouchPhase(word: phase.word)
        #expect(back == (phase == .stationary ? .moved : phase))
    }
}
