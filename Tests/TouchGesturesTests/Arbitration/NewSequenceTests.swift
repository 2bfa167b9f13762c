import Testing
@testable import TouchGestures

/// A touch that lands after every finger has lifted starts a new gesture, even while a
/// recognizer's timer (a double tap waiting for its second tap) still holds the last one open.
@Suite struct NewSequenceTests {
    private func singleAndDouble(_ rig: Rig) -> (TapGestureRecognizer, TapGestureRecognizer) {
        let single = rig.add(TapGestureRecognizer(), "single")
        let double = rig.add(TapGestureRecognizer(), "double")
        double.numberOfTapsRequired = 2
        try! single.require(toFail: double)
        return (single, double)
    }

    @Test func aSecondTapTooFarForADoubleTapIsATapOfItsOwn() {
        let rig = Rig()
        _ = singleAndDouble(rig)
        rig.run(tap([1], at: (50, 50), t: 0) + tap([2], at: (75, 50), t: 150))
        rig.settle()
        #expect(rig.log == [
            "150 double possible -> failed",
            "150 single possible -> recognized", "150 action single recognized",
            "600 double possible -> failed",
            "600 single possible -> recognized", "600 action single recognized",
        ])
    }

    @Test func threeQuickTaps25mmApartAreThreeTaps() {
        let rig = Rig()
        _ = singleAndDouble(rig)
        rig.run(tap([1], at: (50, 50), t: 0) + tap([2], at: (75, 50), t: 150) + tap([3], at: (100, 50), t: 300))
        rig.settle()
        #expect(rig.log.filter { $0.contains("action") } == [
            "150 action single recognized", "300 action single recognized", "750 action single recognized",
        ])
    }

    @Test func aFarTapThenANearOneIsATapThenADoubleTap() {
        let rig = Rig()
        _ = singleAndDouble(rig)
        rig.run(tap([1], at: (50, 50), t: 0) + tap([2], at: (75, 50), t: 150) + tap([3], at: (76, 50), t: 300))
        rig.settle()
        #expect(rig.log.filter { $0.contains("action") } == [
            "150 action single recognized", "350 action double recognized",
        ])
    }

    @Test func aSwipeThatStartsWhileADoubleTapWaitsIsRecognized() {
        let rig = Rig()
        _ = singleAndDouble(rig)
        let swipe = rig.add(SwipeGestureRecognizer(), "swipe")
        swipe.direction = .all
        // A tap, then 100 ms later a fast 30 mm swipe elsewhere.
        rig.run(tap([1], at: (50, 50), t: 0) + drag([2], from: (150, 100), by: (30, 0), t: 150, duration: 100))
        rig.settle()
        #expect(rig.log.filter { $0.contains("action") } == [
            "150 action single recognized", "170 action swipe recognized",
        ])
        #expect(swipe.recognizedDirection == .right)
    }

    @Test func aLongPressThatStartsWhileADoubleTapWaitsBeginsOnTime() {
        let rig = Rig()
        _ = singleAndDouble(rig)
        rig.add(LongPressGestureRecognizer(), "press")
        rig.run(tap([1], at: (50, 50), t: 0) + [.down(2, at: (150, 100), t: 150), .wait(t: 700), .up(2, t: 800)])
        rig.settle()
        #expect(rig.log.filter { $0.contains("action") } == [
            "150 action single recognized", "650 action press began", "800 action press ended",
        ])
    }

    @Test func aDelayedTapCarriesItsOwnLocationAndFingers() {
        let rig = Rig()
        let (single, double) = singleAndDouble(rig)
        single.numberOfTouchesRequired = 2
        double.numberOfTouchesRequired = 2
        var seen: [String] = []
        single.addAction { r in
            let at = r.location()
            seen.append("\(r.numberOfTouches) fingers at \(fixedDecimals(at.x, 1)),\(fixedDecimals(at.y, 1))")
        }
        // Two fingers 15 mm apart around x = 57.5; the second lifts 20 ms after the first.
        rig.run([.down(1, at: (50, 40), t: 0), .down(2, at: (65, 40), t: 0), .up(1, t: 60), .up(2, t: 80)])
        rig.settle()
        #expect(seen == ["2 fingers at 57.5,40.0"])
    }

    @Test func aDelayedTouchpadTapCarriesItsFingers() {
        let rig = Rig()
        let (single, double) = singleAndDouble(rig)
        single.numberOfTouchesRequired = 3
        double.numberOfTouchesRequired = 3
        var fingers: [Int] = []
        single.addAction { fingers.append($0.numberOfTouches) }
        rig.run([.pad(.tap(fingers: 3), t: 0)])
        rig.settle()
        #expect(fingers == [3])
    }
}

/// Names order delivery, never outcomes: a touchpad tap is taken up by every recognizer
/// before any decides on it.
@Suite struct TouchpadDeliveryOrderTests {
    @Test(arguments: [("a", "b"), ("b", "a")])
    func aTouchpadSingleTapWaitsForTheDoubleTapWhateverTheirNames(single singleName: String, double doubleName: String) {
        let rig = Rig()
        let single = rig.add(TapGestureRecognizer(), singleName)
        single.numberOfTouchesRequired = 2
        let double = rig.add(TapGestureRecognizer(), doubleName)
        double.numberOfTouchesRequired = 2
        double.numberOfTapsRequired = 2
        try! single.require(toFail: double)
        rig.run([.pad(.tap(fingers: 2), t: 0)])
        rig.settle()
        #expect(rig.log.filter { $0.contains("action") } == ["580 action \(singleName) recognized"])
    }
}
