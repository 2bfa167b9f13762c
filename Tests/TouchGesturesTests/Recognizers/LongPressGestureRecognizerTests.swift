import RealModule
import Testing
@testable import TouchGestures

@Suite struct LongPressGestureRecognizerTests {
    @Test func beginsAfterTheDurationChangesOnMoveAndEndsOnLift() {
        let rig = Rig()
        rig.add(LongPressGestureRecognizer(), "press")
        rig.run([.down(1, at: (50, 50), t: 0), .wait(t: 600), .move(1, to: (60, 50), t: 650), .up(1, t: 700)])
        #expect(rig.log == [
            "500 press possible -> began", "500 action press began",
            "650 press began -> changed", "650 action press changed",
            "700 press changed -> ended", "700 action press ended",
        ])
    }

    @Test func liftingOneMillisecondBeforeTheDurationFails() {
        let rig = Rig()
        rig.add(LongPressGestureRecognizer(), "press")
        rig.run([.down(1, at: (50, 50), t: 0), .up(1, t: 499)])
        #expect(rig.log == ["499 press possible -> failed"])
    }

    @Test func liftingExactlyAtTheDurationIsTooLateToFail() {
        // The timer's deadline is 500; an event stamped 500 is delivered first, so the
        // press fails on lift at exactly the deadline rather than beginning.
        let rig = Rig()
        rig.add(LongPressGestureRecognizer(), "press")
        rig.run([.down(1, at: (50, 50), t: 0), .up(1, t: 500)])
        #expect(rig.log == ["500 press possible -> failed"])
    }

    @Test func movementJustUnderTheAllowanceStillPresses() {
        // A roll of 1.49 mm, then a creep to 3.99 mm at 5.3 mm/s: under the drift speed.
        let rig = Rig()
        rig.add(LongPressGestureRecognizer(), "press")
        let creep = (1...10).map { (i: Int) -> Step in .move(1, to: (50, 51.49 + 0.25 * Double(i)), t: 5 + UInt64(i) * 47) }
        rig.run([.down(1, at: (50, 50), t: 0), .move(1, to: (50, 51.49), t: 5)] + creep + [.wait(t: 500)])
        #expect(rig.log == ["500 press possible -> began", "500 action press began"])
    }

    @Test func aFingerDriftingSteadilyIsNoPressThoughWithinTheAllowance() {
        // 10 mm/s from the start, on and on: 2 mm where it had settled (200 ms in), 1.5 mm
        // further at 350 ms, at 10 mm/s over the last 250 ms; under the 4 mm slop (3.5 mm).
        let rig = Rig()
        rig.add(LongPressGestureRecognizer(), "press")
        rig.run([.down(1, at: (50, 50), t: 0)] + drift(38, by: 0.1))
        #expect(rig.log == ["350 press possible -> failed"])
    }

    @Test func aDriftJustOverTheSteadySpeedFails() {
        // 6.4 mm/s: 1.28 mm at 200 ms, where it had settled; 1.54 mm further at 440 ms, at
        // 6.4 mm/s over the last 250 ms.
        let rig = Rig()
        rig.add(LongPressGestureRecognizer(), "press")
        rig.run([.down(1, at: (50, 50), t: 0)] + drift(45, by: 0.064))
        #expect(rig.log == ["440 press possible -> failed"])
    }

    @Test func fingersThatSettleAsTheyLandStillPress() {
        // A landing settle (issue 40): 3 mm at 10 mm/s in the first 300 ms, then still. Only
        // 1 mm of it comes after the fingers had settled (200 ms in).
        let rig = Rig()
        rig.add(LongPressGestureRecognizer(), "press")
        rig.run([.down(1, at: (50, 50), t: 0)] + drift(30, by: 0.1) + [.wait(t: 500)])
        #expect(rig.log == ["500 press possible -> began", "500 action press began"])
    }

    @Test func aDriftJustUnderTheSteadySpeedStillPresses() {
        // 5.6 mm/s: 2.8 mm at 500 ms, under the slop and under the drift speed.
        let rig = Rig()
        rig.add(LongPressGestureRecognizer(), "press")
        rig.run([.down(1, at: (50, 50), t: 0)] + drift(49, by: 0.056) + [.wait(t: 500)])
        #expect(rig.log == ["500 press possible -> began", "500 action press began"])
    }

    @Test func aTremorThatGoesBackAndForthIsStillAPress() {
        // 2 mm from where it landed and back, four times a second: far past 1.5 mm, fast,
        // but going nowhere over a quarter second.
        let rig = Rig()
        rig.add(LongPressGestureRecognizer(), "press")
        let tremor = (1...49).map { (i: Int) -> Step in
            let x: Double = 50 + 2 * Double.sin(Double(i) * 10 / 250 * 2 * .pi)
            return .move(1, to: (x, 50), t: UInt64(i) * 10)
        }
        rig.run([.down(1, at: (50, 50), t: 0)] + tremor + [.wait(t: 500)])
        #expect(rig.log == ["500 press possible -> began", "500 action press began"])
    }

    @Test func aDriftAfterThePressBeganChangesIt() {
        let rig = Rig()
        rig.add(LongPressGestureRecognizer(), "press")
        rig.run([.down(1, at: (50, 50), t: 0), .wait(t: 500), .move(1, to: (52, 50), t: 550), .move(1, to: (54, 50), t: 600)])
        #expect(rig.log == ["500 press possible -> began", "500 action press began",
                            "550 press began -> changed", "550 action press changed",
                            "600 press changed -> changed", "600 action press changed"])
    }

    @Test func movementJustOverTheAllowanceFails() {
        let rig = Rig()
        rig.add(LongPressGestureRecognizer(), "press")
        rig.run([.down(1, at: (50, 50), t: 0), .move(1, to: (50, 54.01), t: 100), .wait(t: 600)])
        #expect(rig.log == ["100 press possible -> failed"])
    }

    @Test func anExtraFingerBeforeItBeganFailsIt() {
        let rig = Rig()
        rig.add(LongPressGestureRecognizer(), "press")
        rig.run([.down(1, at: (50, 50), t: 0), .down(2, at: (80, 50), t: 100), .wait(t: 600)])
        #expect(rig.log == ["100 press possible -> failed"])
    }

    @Test func anExtraFingerAfterItBeganDoesNotEndIt() {
        let rig = Rig()
        rig.add(LongPressGestureRecognizer(), "press")
        rig.run([.down(1, at: (50, 50), t: 0), .wait(t: 500), .down(2, at: (80, 50), t: 550), .up(2, t: 600)])
        #expect(rig.log == ["500 press possible -> began", "500 action press began",
                            "600 press began -> ended", "600 action press ended"])
    }

    @Test func twoFingerPressWaitsForBothFingers() {
        let rig = Rig()
        let press = rig.add(LongPressGestureRecognizer(), "press")
        press.numberOfTouchesRequired = 2
        rig.run([.down(1, at: (50, 50), t: 0), .down(2, at: (70, 50), t: 100), .wait(t: 599), .wait(t: 600)])
        #expect(rig.log == ["600 press possible -> began", "600 action press began"])
    }

    @Test func aCancelledTouchCancelsAPressThatBegan() {
        let rig = Rig()
        rig.add(LongPressGestureRecognizer(), "press")
        rig.run([.down(1, at: (50, 50), t: 0), .wait(t: 500), .cancel(1, t: 550)])
        #expect(rig.log == ["500 press possible -> began", "500 action press began",
                            "550 press began -> cancelled", "550 action press cancelled"])
    }

    @Test func tapThenPressNeedsTheTapFirst() {
        let rig = Rig()
        let press = rig.add(LongPressGestureRecognizer(), "press")
        press.numberOfTapsRequired = 1
        rig.run(tap([1], at: (50, 50), t: 0) + [.down(2, at: (51, 50), t: 200), .wait(t: 700), .up(2, t: 800)])
        #expect(rig.log == ["700 press possible -> began", "700 action press began",
                            "800 press began -> ended", "800 action press ended"])
    }

    @Test func aTouchpadHoldBeginsAfterTheDurationAndEndsWithTheHold() {
        let rig = Rig()
        let press = rig.add(LongPressGestureRecognizer(), "press")
        press.numberOfTouchesRequired = 3
        rig.run([.pad(.holdBegin(fingers: 3), t: 0), .wait(t: 500), .pad(.holdEnd(fingers: 3, cancelled: false), t: 900)])
        #expect(rig.log == ["500 press possible -> began", "500 action press began",
                            "900 press began -> ended", "900 action press ended"])
    }

    @Test func aTouchpadHoldThatTurnsIntoASwipeCancelsThePress() {
        let rig = Rig()
        let press = rig.add(LongPressGestureRecognizer(), "press")
        press.numberOfTouchesRequired = 3
        rig.run([.pad(.holdBegin(fingers: 3), t: 0), .wait(t: 500), .pad(.holdEnd(fingers: 3, cancelled: true), t: 700)])
        #expect(rig.log == ["500 press possible -> began", "500 action press began",
                            "700 press began -> cancelled", "700 action press cancelled"])
    }

    @Test func aShortTouchpadHoldFails() {
        // libinput 1.22 wraps a quick tap in a short 1-finger hold. Nothing follows the
        // cancel in its frame: the press fails as that frame is over.
        let rig = Rig()
        rig.add(LongPressGestureRecognizer(), "press")
        rig.run([.pad(.holdBegin(fingers: 1), t: 0), .pad(.holdEnd(fingers: 1, cancelled: true), t: 60), .wait(t: 61)])
        #expect(rig.log == ["60 press possible -> failed"])
    }

    // libinput cancels a hold once a finger moved 1 mm, noise and tremor included, and
    // begins a swipe in the same frame: fingers that rest with a tremor are still a press.
    @Test func aTouchpadHoldThatLibinputTurnsIntoASwipeInPlaceStillBeginsAndEndsOnTheLift() {
        let rig = Rig()
        let press = rig.add(LongPressGestureRecognizer(), "press")
        press.numberOfTouchesRequired = 3
        rig.run([.pad(.holdBegin(fingers: 3), t: 0),
                 .pad(.holdEnd(fingers: 3, cancelled: true), t: 100), .pad(.swipeBegin(fingers: 3), t: 100),
                 .pad(.swipeUpdate(fingers: 3, delta: Point(x: 0.3, y: -0.2)), t: 100),
                 .pad(.swipeUpdate(fingers: 3, delta: Point(x: -0.4, y: 0.3)), t: 300),
                 .wait(t: 500),
                 .pad(.swipeUpdate(fingers: 3, delta: Point(x: 0.2, y: 0.1)), t: 600),
                 .pad(.swipeEnd(fingers: 3, cancelled: false), t: 900)])
        #expect(rig.log == ["500 press possible -> began", "500 action press began",
                            "600 press began -> changed", "600 action press changed",
                            "900 press changed -> ended", "900 action press ended"])
    }

    @Test func aHoldTurnedIntoASwipeFailsOnceItTravelsPastTheAllowableMovement() {
        let rig = Rig()
        let press = rig.add(LongPressGestureRecognizer(), "press")
        press.numberOfTouchesRequired = 3
        rig.run([.pad(.holdBegin(fingers: 3), t: 0),
                 .pad(.holdEnd(fingers: 3, cancelled: true), t: 100), .pad(.swipeBegin(fingers: 3), t: 100),
                 .pad(.swipeUpdate(fingers: 3, delta: Point(x: 0, y: -2)), t: 100),
                 .pad(.swipeUpdate(fingers: 3, delta: Point(x: 0, y: -2.5)), t: 110),
                 .wait(t: 500)])
        #expect(rig.log == ["110 press possible -> failed"])
    }

    @Test func aPressBegunOnASwipeIsCancelledWhenTheFingersTravel() {
        let rig = Rig()
        let press = rig.add(LongPressGestureRecognizer(), "press")
        press.numberOfTouchesRequired = 3
        rig.run([.pad(.holdBegin(fingers: 3), t: 0),
                 .pad(.holdEnd(fingers: 3, cancelled: true), t: 100), .pad(.swipeBegin(fingers: 3), t: 100),
                 .wait(t: 500),
                 .pad(.swipeUpdate(fingers: 3, delta: Point(x: 5, y: 0)), t: 600),
                 .pad(.swipeEnd(fingers: 3, cancelled: false), t: 700)])
        #expect(rig.log == ["500 press possible -> began", "500 action press began",
                            "600 press began -> cancelled", "600 action press cancelled"])
    }

    @Test func aHoldTurnedIntoAPinchOrASwipeOfOtherFingersFails() {
        for other: TouchpadGesture in [.pinchBegin(fingers: 3), .swipeBegin(fingers: 4)] {
            let rig = Rig()
            let press = rig.add(LongPressGestureRecognizer(), "press")
            press.numberOfTouchesRequired = 3
            rig.run([.pad(.holdBegin(fingers: 3), t: 0),
                     .pad(.holdEnd(fingers: 3, cancelled: true), t: 100), .pad(other, t: 100), .wait(t: 600)])
            #expect(rig.log == ["100 press possible -> failed"], "\(other)")
        }
    }

    @Test func aSwipeInALaterFrameDoesNotCarryThePressOn() {
        let rig = Rig()
        let press = rig.add(LongPressGestureRecognizer(), "press")
        press.numberOfTouchesRequired = 3
        rig.run([.pad(.holdBegin(fingers: 3), t: 0), .pad(.holdEnd(fingers: 3, cancelled: true), t: 100),
                 .pad(.swipeBegin(fingers: 3), t: 107), .wait(t: 600)])
        #expect(rig.log == ["100 press possible -> failed"])
    }

    @Test func aSwipeWithoutAHoldBeforeItIsNoPress() {
        let rig = Rig()
        let press = rig.add(LongPressGestureRecognizer(), "press")
        press.numberOfTouchesRequired = 3
        rig.run([.pad(.swipeBegin(fingers: 3), t: 0), .pad(.swipeUpdate(fingers: 3, delta: Point(x: 0.1, y: 0)), t: 10),
                 .wait(t: 700), .pad(.swipeEnd(fingers: 3, cancelled: false), t: 800)])
        #expect(rig.log == [])
    }
}

/// Finger 1, down at (50, 50), moving `step` mm right every 10 ms, `count` times.
private func drift(_ count: Int, by step: Double) -> [Step] {
    (1...count).map { (i: Int) -> Step in .move(1, to: (50 + step * Double(i), 50), t: UInt64(i) * 10) }
}
