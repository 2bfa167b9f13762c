import Testing
@testable import TouchGestures

@Suite struct PanGestureRecognizerTests {
    @Test func beginsPastTheSlopChangesAndEndsOnLift() {
        let rig = Rig()
        let pan = rig.add(PanGestureRecognizer(), "pan")
        var translations: [Point] = []
        pan.addAction { translations.append(($0 as! PanGestureRecognizer).translation()) }
        rig.run([.down(1, at: (50, 50), t: 0), .move(1, to: (52, 50), t: 10), .move(1, to: (55, 50), t: 20),
                 .move(1, to: (60, 52), t: 30), .up(1, t: 40)])
        #expect(rig.log == [
            "20 pan possible -> began", "20 action pan began",
            "30 pan began -> changed", "30 action pan changed",
            "40 pan changed -> ended", "40 action pan ended",
        ])
        #expect(translations == [Point(x: 5, y: 0), Point(x: 10, y: 2), Point(x: 10, y: 2)])
    }

    @Test func movementJustUnderTheSlopDoesNotBegin() {
        let rig = Rig()
        rig.add(PanGestureRecognizer(), "pan")
        rig.run([.down(1, at: (50, 50), t: 0), .move(1, to: (53, 50), t: 10), .up(1, t: 20)])
        #expect(rig.log == ["20 pan possible -> failed"])
    }

    @Test func movementJustOverTheSlopBegins() {
        let rig = Rig()
        rig.add(PanGestureRecognizer(), "pan")
        rig.run([.down(1, at: (50, 50), t: 0), .move(1, to: (53.01, 50), t: 10)])
        #expect(rig.log == ["10 pan possible -> began", "10 action pan began"])
    }

    @Test func aFingerLandingOrLiftingDoesNotMakeTheTranslationJump() {
        let rig = Rig()
        let pan = rig.add(PanGestureRecognizer(), "pan")
        rig.run([.down(1, at: (50, 50), t: 0), .move(1, to: (60, 50), t: 10),
                 .down(2, at: (150, 50), t: 20), .move(1, to: (70, 50), t: 30), .move(2, to: (160, 50), t: 30),
                 .up(1, t: 40)])
        #expect(pan.translation() == Point(x: 20, y: 0))
        #expect(pan.state == .changed)
    }

    @Test func setTranslationRebasesAndVelocityIsMillimetresPerSecond() {
        let rig = Rig()
        let pan = rig.add(PanGestureRecognizer(), "pan")
        rig.run([.down(1, at: (0, 50), t: 0), .move(1, to: (10, 50), t: 10), .move(1, to: (20, 50), t: 20)])
        pan.setTranslation(.zero)
        rig.run([.move(1, to: (30, 50), t: 30)])
        #expect(pan.translation() == Point(x: 10, y: 0))
        #expect(pan.velocity() == Point(x: 1000, y: 0))
        #expect(pan.translation(in: .normalized) == Point(x: 10.0 / 300, y: 0))
    }

    @Test func tooFewFingersNeverBegin() {
        let rig = Rig()
        let pan = rig.add(PanGestureRecognizer(), "pan")
        pan.minimumNumberOfTouches = 2
        rig.run(drag([1], from: (50, 50), by: (30, 0), t: 0, duration: 100))
        #expect(rig.log == ["100 pan possible -> failed"])
    }

    @Test func aCancelledTouchCancelsThePan() {
        let rig = Rig()
        rig.add(PanGestureRecognizer(), "pan")
        rig.run([.down(1, at: (50, 50), t: 0), .move(1, to: (60, 50), t: 10), .cancel(1, t: 20)])
        #expect(rig.log.suffix(2) == ["20 pan began -> cancelled", "20 action pan cancelled"])
    }

    @Test func aTouchpadSwipeIsAPan() {
        let rig = Rig()
        let pan = rig.add(PanGestureRecognizer(), "pan")
        pan.minimumNumberOfTouches = 3
        pan.maximumNumberOfTouches = 3
        rig.run([.pad(.swipeBegin(fingers: 3), t: 0), .pad(.swipeUpdate(fingers: 3, delta: Point(x: 2, y: 0)), t: 10),
                 .pad(.swipeUpdate(fingers: 3, delta: Point(x: 2, y: 0)), t: 20),
                 .pad(.swipeEnd(fingers: 3, cancelled: false), t: 30)])
        #expect(rig.log == ["20 pan possible -> began", "20 action pan began", "30 pan began -> ended", "30 action pan ended"])
        #expect(pan.numberOfTouches == 0)
    }

    @Test func aCancelledTouchpadSwipeCancelsThePan() {
        let rig = Rig()
        rig.add(PanGestureRecognizer(), "pan")
        rig.run([.pad(.swipeBegin(fingers: 3), t: 0), .pad(.swipeUpdate(fingers: 3, delta: Point(x: 5, y: 0)), t: 10),
                 .pad(.swipeEnd(fingers: 3, cancelled: true), t: 30)])
        #expect(rig.log.suffix(2) == ["30 pan began -> cancelled", "30 action pan cancelled"])
    }
}
