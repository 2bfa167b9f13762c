import Testing
@testable import TouchGestures

/// Pairs and chains of recognizers competing for the same touches.
@Suite struct CompetingRecognizerTests {
    /// single waits for double, double waits for triple.
    private func tapFamily(_ rig: Rig) {
        let single = rig.add(TapGestureRecognizer(), "single")
        let double = rig.add(TapGestureRecognizer(), "double")
        double.numberOfTapsRequired = 2
        let triple = rig.add(TapGestureRecognizer(), "triple")
        triple.numberOfTapsRequired = 3
        try! single.require(toFail: double)
        try! double.require(toFail: triple)
    }

    @Test func aSingleTapFiresOnlyAfterTheDoubleTapFailed() {
        let rig = Rig()
        tapFamily(rig)
        rig.run(tap([1], at: (50, 50), t: 0))
        rig.settle()
        #expect(rig.log == [
            "450 double possible -> failed",
            "450 single possible -> recognized", "450 action single recognized",
            "450 triple possible -> failed",
        ])
    }

    @Test func aDoubleTapFiresOnceAndTheSingleNever() {
        let rig = Rig()
        tapFamily(rig)
        rig.run(tap([1], at: (50, 50), t: 0) + tap([2], at: (51, 50), t: 150))
        rig.settle()
        #expect(rig.log == [
            "600 triple possible -> failed",
            "600 double possible -> recognized", "600 action double recognized",
            "600 single possible -> failed",
        ])
    }

    @Test func aTripleTapFiresOnceAndNeitherOtherDoes() {
        let rig = Rig()
        tapFamily(rig)
        rig.run(tap([1], at: (50, 50), t: 0) + tap([2], at: (51, 50), t: 150) + tap([3], at: (50, 51), t: 300))
        rig.settle()
        #expect(rig.log == [
            "350 triple possible -> recognized", "350 action triple recognized",
            "350 double possible -> failed",
            "350 single possible -> failed",
        ])
    }

    @Test func theTapFamilyWorksTheSameOnTheTouchpad() {
        let rig = Rig()
        tapFamily(rig)
        rig.run([.pad(.tap(fingers: 1), t: 0), .pad(.tap(fingers: 1), t: 200)])
        rig.settle()
        // The triple waits 400 ms plus the 180 ms libinput may take to report a tap.
        #expect(rig.log == [
            "780 triple possible -> failed",
            "780 double possible -> recognized", "780 action double recognized",
            "780 single possible -> failed",
        ])
    }

    // libinput reports a hold of the tapping fingers before the tap, and stamps the tap
    // with its landing time, earlier than the hold's end (examples/tour.tgrec).
    @Test func aTouchpadSingleTapWaitsForTheDoubleTapAfterAHoldWhateverTheirOrder() {
        for singleFirst in [true, false] {
            let rig = Rig()
            let single = TapGestureRecognizer()
            let double = TapGestureRecognizer()
            double.numberOfTapsRequired = 2
            single.numberOfTouchesRequired = 2
            double.numberOfTouchesRequired = 2
            if singleFirst {
                rig.add(single, "single")
                rig.add(double, "double")
            } else {
                rig.add(double, "double")
                rig.add(single, "single")
            }
            try! single.require(toFail: double)
            rig.run([.pad(.holdBegin(fingers: 2), t: 40), .pad(.holdEnd(fingers: 2, cancelled: false), t: 60), .pad(.tap(fingers: 2), t: 0)])
            rig.settle()
            #expect(rig.log == [
                "580 double possible -> failed",
                "580 single possible -> recognized", "580 action single recognized",
            ], "single first: \(singleFirst)")
        }
    }

    @Test func aQuickTouchIsATapAndTheLongPressFails() {
        let rig = Rig()
        rig.add(TapGestureRecognizer(), "tap")
        rig.add(LongPressGestureRecognizer(), "press")
        rig.run(tap([1], at: (50, 50), t: 0, duration: 100))
        #expect(rig.log == ["100 press possible -> failed", "100 tap possible -> recognized", "100 action tap recognized"])
    }

    @Test func aLongTouchIsAPressAndTheTapFails() {
        let rig = Rig()
        rig.add(TapGestureRecognizer(), "tap")
        rig.add(LongPressGestureRecognizer(), "press")
        rig.run([.down(1, at: (50, 50), t: 0), .wait(t: 600), .up(1, t: 700)])
        #expect(rig.log == [
            "350 tap possible -> failed",
            "500 press possible -> began", "500 action press began",
            "700 press began -> ended", "700 action press ended",
        ])
    }

    @Test func withoutARequirementThePanBeginsFirstAndTheSwipeLoses() {
        let rig = Rig()
        rig.add(SwipeGestureRecognizer(), "swipe")
        rig.add(PanGestureRecognizer(), "pan")
        rig.run(drag([1], from: (50, 50), by: (30, 0), t: 0, duration: 100))
        // 3 mm a frame: past the 3 mm slop on the second frame, long before the swipe's 15 mm.
        #expect(rig.log.prefix(3) == ["20 pan possible -> began", "20 action pan began", "20 swipe possible -> failed"])
    }

    @Test func aPanThatRequiresTheSwipeToFailLosesAFastFlick() {
        let rig = Rig()
        let swipe = rig.add(SwipeGestureRecognizer(), "swipe")
        let pan = rig.add(PanGestureRecognizer(), "pan")
        try! pan.require(toFail: swipe)
        rig.run(drag([1], from: (50, 50), by: (30, 0), t: 0, duration: 100))
        #expect(rig.log == [
            "20 swipe possible -> recognized", "20 action swipe recognized",
            "20 pan possible -> failed",
        ])
    }

    @Test func aPanThatRequiresTheSwipeToFailGetsItsDelayedBeganOnASlowDrag() {
        let rig = Rig()
        let swipe = rig.add(SwipeGestureRecognizer(), "swipe")
        swipe.minimumVelocity = GestureDefaults.swipeMinimumVelocity
        let pan = rig.add(PanGestureRecognizer(), "pan")
        try! pan.require(toFail: swipe)
        // 30 mm in 1 s: the swipe reaches its 9 mm at 300 ms moving at 30 mm/s, too slow.
        rig.run(drag([1], from: (50, 50), by: (30, 0), t: 0, duration: 1000))
        #expect(rig.log == [
            "300 swipe possible -> failed",
            "300 pan possible -> began", "300 action pan began",
            "400 pan began -> changed", "400 action pan changed",
            "500 pan changed -> changed", "500 action pan changed",
            "600 pan changed -> changed", "600 action pan changed",
            "700 pan changed -> changed", "700 action pan changed",
            "800 pan changed -> changed", "800 action pan changed",
            "900 pan changed -> changed", "900 action pan changed",
            "1000 pan changed -> changed", "1000 action pan changed",
            "1000 pan changed -> ended", "1000 action pan ended",
        ])
        #expect(pan.state == .possible)
    }

    private final class Simultaneous: GestureRecognizerDelegate {
        func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
            true
        }
    }

    private func pinchAndTurn(_ rig: Rig) {
        func at(_ degrees: Double, _ radius: Double) -> (Double, Double) {
            (100 + radius * Double.cos(degrees * .pi / 180), 100 + radius * Double.sin(degrees * .pi / 180))
        }
        // Spread from 40 to 60 mm while turning 40 degrees, both fingers about their centre
        // (which stays put, so no travel explains the spreading).
        rig.run([.down(1, at: at(180, 20), t: 0), .down(2, at: at(0, 20), t: 0)]
            + (1...4).flatMap { step -> [Step] in
                let turn = Double(step) * 10
                let radius = 20 + Double(step) * 2.5
                return [.move(1, to: at(180 + turn, radius), t: UInt64(step) * 10), .move(2, to: at(turn, radius), t: UInt64(step) * 10)]
            })
    }

    @Test func pinchAndRotationExcludeEachOtherByDefault() {
        let rig = Rig()
        rig.add(PinchGestureRecognizer(), "pinch")
        rig.add(RotationGestureRecognizer(), "rotate")
        pinchAndTurn(rig)
        #expect(rig.log.prefix(3) == ["10 pinch possible -> began", "10 action pinch began", "10 rotate possible -> failed"])
        #expect(!rig.log.contains { $0.contains("rotate possible -> began") })
    }

    @Test func pinchAndRotationRunTogetherWhenTheDelegateAllows() {
        let rig = Rig()
        let pinch = rig.add(PinchGestureRecognizer(), "pinch")
        rig.add(RotationGestureRecognizer(), "rotate")
        let delegate = Simultaneous()
        pinch.delegate = delegate
        pinchAndTurn(rig)
        #expect(rig.log == [
            "10 pinch possible -> began", "10 action pinch began",
            "10 rotate possible -> began", "10 action rotate began",
            "20 pinch began -> changed", "20 action pinch changed",
            "20 rotate began -> changed", "20 action rotate changed",
            "30 pinch changed -> changed", "30 action pinch changed",
            "30 rotate changed -> changed", "30 action rotate changed",
            "40 pinch changed -> changed", "40 action pinch changed",
            "40 rotate changed -> changed", "40 action rotate changed",
        ])
    }

    @Test func aCycleOfFailureRequirementsIsRejectedWhenItIsBuilt() throws {
        let a = TapGestureRecognizer()
        a.name = "a"
        let b = TapGestureRecognizer()
        b.name = "b"
        let c = TapGestureRecognizer()
        c.name = "c"
        try a.require(toFail: b)
        try b.require(toFail: c)
        #expect(throws: GestureError.failureRequirementCycle(["c", "a", "b", "c"])) { try c.require(toFail: a) }
        #expect(c.failureRequirements.isEmpty)
        #expect(throws: GestureError.failureRequirementCycle(["a", "a"])) { try a.require(toFail: a) }
    }

    @Test func theOrderRecognizersAreAttachedInChangesNothing() {
        func transcript(reversed: Bool) -> [String] {
            let rig = Rig()
            var recognizers: [(GestureRecognizer, String)] = []
            let single = TapGestureRecognizer()
            let double = TapGestureRecognizer()
            double.numberOfTapsRequired = 2
            try! single.require(toFail: double)
            recognizers = [(single, "single"), (double, "double"), (LongPressGestureRecognizer(), "press"),
                           (PanGestureRecognizer(), "pan"), (SwipeGestureRecognizer(), "swipe")]
            for (recognizer, name) in reversed ? recognizers.reversed() : recognizers { rig.add(recognizer, name) }
            rig.run(tap([1], at: (50, 50), t: 0) + tap([2], at: (50, 50), t: 1000) + tap([3], at: (50, 50), t: 1100)
                + drag([4], from: (50, 50), by: (40, 0), t: 3000, duration: 100))
            rig.settle()
            return rig.log
        }
        #expect(transcript(reversed: false) == transcript(reversed: true))
        #expect(transcript(reversed: false).filter { $0.contains("action") } == [
            "450 action single recognized", "1150 action double recognized",
            "3010 action pan began", "3020 action pan changed", "3030 action pan changed", "3040 action pan changed",
            "3050 action pan changed", "3060 action pan changed", "3070 action pan changed", "3080 action pan changed",
            "3090 action pan changed", "3100 action pan changed", "3100 action pan ended",
        ])
    }
}

import RealModule
