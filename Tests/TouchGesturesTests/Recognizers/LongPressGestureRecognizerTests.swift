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
        let rig = Rig()
        rig.add(LongPressGestureRecognizer(), "press")
        rig.run([.down(1, at: (50, 50), t: 0), .move(1, to: (50, 53.99), t: 100), .wait(t: 500)])
        #expect(rig.log == ["500 press possible -> began", "500 action press began"])
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
        // libinput 1.22 wraps a quick tap in a short 1-finger hold.
        let rig = Rig()
        rig.add(LongPressGestureRecognizer(), "press")
        rig.run([.pad(.holdBegin(fingers: 1), t: 0), .pad(.holdEnd(fingers: 1, cancelled: true), t: 60)])
        #expect(rig.log == ["60 press possible -> failed"])
    }
}
