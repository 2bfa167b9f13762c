import Testing
import TouchGestures

/// `touchgest debug -v` shows each recognizer's private phase moves between its state
/// transitions, `old -> input -> new`, so a user can see why a tap still waits.
@Suite struct PhaseMoveTests {
    @Test func aDoubleTapShowsWhyItWaitsBetweenTheTaps() {
        let rig = Rig()
        rig.environment.phaseObserver = { [unowned rig] move in
            rig.log.append("\(move.timestamp.microseconds / 1000) \(move)")
        }
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        rig.add(double, "double")
        rig.run(tap([1], at: (50, 50), t: 0) + tap([1], at: (50, 50), t: 150))
        #expect(rig.log == [
            "0 double phase idle -> down -> touching",
            "50 double phase touching -> up -> awaitingNextTap",
            "150 double phase awaitingNextTap -> down -> touching",
            "200 double possible -> recognized",
            "200 action double recognized",
            "200 double phase touching -> up -> idle",
        ])
    }

    @Test func aTimeoutIsAnInputOfItsOwn() {
        let rig = Rig()
        var moves: [String] = []
        rig.environment.phaseObserver = { moves.append($0.description) }
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        rig.add(double, "double")
        rig.run(tap([1], at: (50, 50), t: 0))
        rig.settle()
        #expect(moves == [
            "double phase idle -> down -> touching",
            "double phase touching -> up -> awaitingNextTap",
            "double phase awaitingNextTap -> timeout -> idle",
        ])
        #expect(rig.log == ["450 double possible -> failed"])
    }
}

@Suite struct PhaseMoveNoiseTests {
    @Test func aSwipeShowsWhereItStartsAndStopsTrackingNotEveryUpdate() {
        let rig = Rig()
        var moves: [String] = []
        rig.environment.phaseObserver = { moves.append($0.description) }
        let swipe = SwipeGestureRecognizer()
        swipe.numberOfTouchesRequired = 3
        swipe.direction = .left
        rig.add(swipe, "swipe")
        rig.run([.pad(.swipeBegin(fingers: 3), t: 0)]
            + (1...5).map { .pad(.swipeUpdate(fingers: 3, delta: Point(x: -0.5, y: 0)), t: UInt64($0 * 8)) }
            + [.pad(.swipeEnd(fingers: 3, cancelled: true), t: 48)])
        #expect(moves == ["swipe phase idle -> touchpadBegin -> tracking", "swipe phase tracking -> touchpadEnd -> idle"])
    }
}
