import Testing
@testable import TouchGestures

@Suite struct TapGestureRecognizerTests {
    @Test func aSingleTapIsRecognizedOnLift() {
        let rig = Rig()
        rig.add(TapGestureRecognizer(), "tap")
        rig.run(tap([1], at: (50, 50), t: 0, duration: 80))
        #expect(rig.log == ["80 tap possible -> recognized", "80 action tap recognized"])
    }

    @Test func movementJustUnderTheSlopStillTaps() {
        let rig = Rig()
        rig.add(TapGestureRecognizer(), "tap")
        rig.run([.down(1, at: (50, 50), t: 0), .move(1, to: (53.99, 50), t: 20), .up(1, t: 40)])
        #expect(rig.log == ["40 tap possible -> recognized", "40 action tap recognized"])
    }

    @Test func movementJustOverTheSlopFails() {
        let rig = Rig()
        rig.add(TapGestureRecognizer(), "tap")
        rig.run([.down(1, at: (50, 50), t: 0), .move(1, to: (54.01, 50), t: 20), .up(1, t: 40)])
        #expect(rig.log == ["20 tap possible -> failed"])
    }

    @Test func aTouchLastingExactlyTheMaximumDurationStillTaps() {
        let rig = Rig()
        rig.add(TapGestureRecognizer(), "tap")
        rig.run([.down(1, at: (50, 50), t: 0), .up(1, t: 350)])
        #expect(rig.log == ["350 tap possible -> recognized", "350 action tap recognized"])
    }

    @Test func aTouchOneMillisecondTooLongFailsWhenTheTimerFires() {
        let rig = Rig()
        rig.add(TapGestureRecognizer(), "tap")
        rig.run([.down(1, at: (50, 50), t: 0), .up(1, t: 351)])
        #expect(rig.log == ["350 tap possible -> failed"])
    }

    @Test func anExtraFingerFailsAOneFingerTap() {
        let rig = Rig()
        rig.add(TapGestureRecognizer(), "tap")
        rig.run([.down(1, at: (50, 50), t: 0), .down(2, at: (70, 50), t: 10), .up(1, t: 40), .up(2, t: 40)])
        #expect(rig.log == ["10 tap possible -> failed"])
    }

    @Test func twoFingersLandingAFewMillisecondsApartMakeATwoFingerTap() {
        let rig = Rig()
        let twoFinger = rig.add(TapGestureRecognizer(), "two")
        twoFinger.numberOfTouchesRequired = 2
        rig.run([.down(1, at: (50, 50), t: 0), .down(2, at: (70, 50), t: 12), .up(1, t: 60), .up(2, t: 66)])
        #expect(rig.log == ["66 two possible -> recognized", "66 action two recognized"])
    }

    @Test func oneFingerFailsATwoFingerTap() {
        let rig = Rig()
        let twoFinger = rig.add(TapGestureRecognizer(), "two")
        twoFinger.numberOfTouchesRequired = 2
        rig.run(tap([1], at: (50, 50), t: 0))
        #expect(rig.log == ["50 two possible -> failed"])
    }

    @Test func aCancelledTouchFailsTheTap() {
        let rig = Rig()
        rig.add(TapGestureRecognizer(), "tap")
        rig.run([.down(1, at: (50, 50), t: 0), .cancel(1, t: 30)])
        #expect(rig.log == ["30 tap possible -> failed"])
    }

    @Test func repeatedTapsEachActOnceAndTheRecognizerIsResetBetween() {
        let rig = Rig()
        rig.showResets = true
        rig.add(TapGestureRecognizer(), "tap")
        rig.run(tap([1], at: (50, 50), t: 0) + tap([1], at: (50, 50), t: 500))
        #expect(rig.log == [
            "50 tap possible -> recognized", "50 action tap recognized", "50 tap recognized -> possible",
            "550 tap possible -> recognized", "550 action tap recognized", "550 tap recognized -> possible",
        ])
    }

    @Test func aDoubleTapNeedsTheSecondTapWithinTheInterval() {
        let rig = Rig()
        let double = rig.add(TapGestureRecognizer(), "double")
        double.numberOfTapsRequired = 2
        // Lift at 50, next touch exactly 400 ms later: still in time.
        rig.run(tap([1], at: (50, 50), t: 0) + tap([2], at: (52, 50), t: 450))
        #expect(rig.log == ["500 double possible -> recognized", "500 action double recognized"])
    }

    @Test func aSecondTapOneMillisecondLateIsTooLate() {
        let rig = Rig()
        let double = rig.add(TapGestureRecognizer(), "double")
        double.numberOfTapsRequired = 2
        rig.run(tap([1], at: (50, 50), t: 0) + tap([2], at: (52, 50), t: 451))
        #expect(rig.log.prefix(1) == ["450 double possible -> failed"])
    }

    @Test func aSecondTapFarFromTheFirstIsNotADoubleTap() {
        let rig = Rig()
        let double = rig.add(TapGestureRecognizer(), "double")
        double.numberOfTapsRequired = 2
        rig.run(tap([1], at: (50, 50), t: 0) + tap([2], at: (70, 50), t: 200))
        #expect(rig.log == ["200 double possible -> failed"])
    }

    @Test func touchpadTapsCountWithTheirFingers() {
        let rig = Rig()
        let three = rig.add(TapGestureRecognizer(), "three")
        three.numberOfTouchesRequired = 3
        let one = rig.add(TapGestureRecognizer(), "one")
        rig.run([.pad(.tap(fingers: 3), t: 10)])
        #expect(rig.log == ["10 one possible -> failed", "10 three possible -> recognized", "10 action three recognized"])
        _ = one
    }

    @Test func aTouchpadDoubleTapIsTwoTapEventsWithinTheInterval() {
        let rig = Rig()
        let double = rig.add(TapGestureRecognizer(), "double")
        double.numberOfTapsRequired = 2
        rig.run([.pad(.tap(fingers: 1), t: 10), .pad(.tap(fingers: 1), t: 200)])
        #expect(rig.log == ["200 double possible -> recognized", "200 action double recognized"])
    }

    @Test func aTouchscreenOnlyTapIgnoresTheTouchpad() {
        let rig = Rig()
        let tapRecognizer = rig.add(TapGestureRecognizer(), "tap")
        tapRecognizer.allowedTouchTypes = [.direct]
        rig.run([.pad(.tap(fingers: 1), t: 10)])
        #expect(rig.log.isEmpty)
        #expect(tapRecognizer.state == .possible)
    }
}

/// libinput reports a touchpad tap when its fingers lift, stamped with when they landed.
@Suite struct TouchpadTapTimingTests {
    private func tap(_ rig: Rig, down: UInt64, up: UInt64) {
        rig.scheduler.advance(to: .milliseconds(up - 1))
        rig.environment.handle(TouchpadEvent(.tap(fingers: 1), timestamp: .milliseconds(up), device: DeviceID(0),
                                             fingersDown: .milliseconds(down)))
        rig.scheduler.advance(to: .milliseconds(up))
    }

    private func family(_ rig: Rig) {
        let single = rig.add(TapGestureRecognizer(), "single")
        let double = rig.add(TapGestureRecognizer(), "double")
        double.numberOfTapsRequired = 2
        try! single.require(toFail: double)
    }

    @Test func theIntervalRunsFromTheLiftToTheNextLanding() {
        // Lifted at 100; the next fingers land 280 ms later and lift at 500: a double tap,
        // though libinput delivers it 400 ms after the first lift.
        let rig = Rig()
        family(rig)
        tap(rig, down: 40, up: 100)
        tap(rig, down: 380, up: 500)
        rig.settle()
        #expect(rig.log.filter { $0.contains("action") } == ["500 action double recognized"])
    }

    @Test func aLandingPastTheIntervalIsANewTap() {
        let rig = Rig()
        family(rig)
        tap(rig, down: 40, up: 100)
        tap(rig, down: 520, up: 580)
        rig.settle()
        #expect(rig.log.filter { $0.contains("action") } == ["580 action single recognized", "1160 action single recognized"])
    }
}
