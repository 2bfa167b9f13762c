import Testing
@testable import TouchGestures

/// A recognizer that does what the test tells it and records every hook call.
private final class Scripted: GestureRecognizer {
    var continuous = false
    var calls: [String] = []
    var onBegan: ((Scripted) -> Void)?
    var onMoved: ((Scripted) -> Void)?
    var onEnded: ((Scripted) -> Void)?
    var prevents = true
    var preventable = true
    var requiresFailureOf: GestureRecognizer?
    var requiredToFailBy: GestureRecognizer?

    override var isContinuous: Bool { continuous }
    override var kindName: String { "scripted" }
    override var acceptedTouchpadGestures: Set<TouchpadGestureKind> { [.swipe] }
    override func touchesBegan(_ touches: [Touch], with event: TouchEvent) {
        calls.append("began \(touches.map(\.id))")
        onBegan?(self)
    }
    override func touchesMoved(_ touches: [Touch], with event: TouchEvent) {
        calls.append("moved \(touches.map(\.id))")
        onMoved?(self)
    }
    override func touchesEnded(_ touches: [Touch], with event: TouchEvent) {
        calls.append("ended \(touches.map(\.id))")
        onEnded?(self)
    }
    override func touchesCancelled(_ touches: [Touch], with event: TouchEvent) { calls.append("cancelled \(touches.map(\.id))") }
    override func touchpadGesture(_ event: TouchpadEvent) { calls.append("touchpad \(event)") }
    override func reset() {
        super.reset()
        calls.append("reset")
    }
    override func canPrevent(_ other: GestureRecognizer) -> Bool { prevents }
    override func canBePrevented(by other: GestureRecognizer) -> Bool { preventable }
    override func shouldRequireFailure(of other: GestureRecognizer) -> Bool { other === requiresFailureOf }
    override func shouldBeRequiredToFail(by other: GestureRecognizer) -> Bool { other === requiredToFailBy }
}

private final class Target {
    var calls: [String] = []
    func first(_ recognizer: GestureRecognizer) { calls.append("first \(recognizer.state)") }
    func second(_ recognizer: GestureRecognizer) { calls.append("second \(recognizer.state)") }
}

private final class Delegate: GestureRecognizerDelegate {
    var shouldBegin = true
    var receives: (Touch) -> Bool = { _ in true }
    var requireFailureOf: GestureRecognizer?
    var requiredToFailBy: GestureRecognizer?
    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { shouldBegin }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool { receives(touch) }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool {
        other === requireFailureOf
    }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool {
        other === requiredToFailBy
    }
}

private struct Oops: Error {}

@Suite struct GestureRecognizerContractTests {
    @Test func recognizedIsEnded() {
        #expect(GestureRecognizerState.recognized == .ended)
    }

    @Test func anIllegalTransitionIsReportedAndIgnored() {
        let rig = Rig()
        let discrete = rig.add(Scripted(), "d")
        discrete.onBegan = { $0.transition(to: .began) }
        let continuous = rig.add(Scripted(), "c")
        continuous.continuous = true
        continuous.onBegan = { $0.transition(to: .changed) }
        rig.run([.down(1, at: (10, 10), t: 0)])
        #expect(discrete.state == .possible)
        #expect(continuous.state == .possible)
        #expect(rig.diagnostics == [
            "bug: c asked for possible -> changed, which is not a legal transition",
            "bug: d asked for possible -> began, which is not a legal transition",
        ])
    }

    @Test func continuousRecognizersGoThroughBeganChangedEnded() {
        let rig = Rig()
        let r = rig.add(Scripted(), "c")
        r.continuous = true
        r.onBegan = { $0.transition(to: .began) }
        r.onMoved = { $0.transition(to: .changed) }
        r.onEnded = { $0.transition(to: .ended) }
        rig.run([.down(1, at: (10, 10), t: 0), .move(1, to: (20, 10), t: 10), .up(1, t: 20)])
        #expect(rig.log == ["0 c possible -> began", "0 action c began", "10 c began -> changed", "10 action c changed",
                            "20 c changed -> ended", "20 action c ended"])
    }

    @Test func duplicateTargetActionPairsAreIgnoredAndNilRemovesAll() {
        let rig = Rig()
        let r = rig.add(Scripted(), "d")
        r.onEnded = { $0.transition(to: .recognized) }
        let target = Target()
        r.addTarget(target, action: "first", Target.first)
        r.addTarget(target, action: "first", Target.first)
        r.addTarget(target, action: "second", Target.second)
        rig.run(tap([1], at: (10, 10), t: 0))
        #expect(target.calls == ["first ended", "second ended"])

        r.removeTarget(target, action: "first")
        rig.run(tap([2], at: (10, 10), t: 100))
        #expect(target.calls == ["first ended", "second ended", "second ended"])

        r.addTarget(target, action: "first", Target.first)
        r.removeTarget(nil, action: nil)
        rig.run(tap([3], at: (10, 10), t: 200))
        #expect(target.calls.count == 3)
    }

    @Test func removeTargetWithANilTargetMatchesEveryTargetOfThatAction() {
        let r = Scripted()
        let a = Target()
        let b = Target()
        r.addTarget(a, action: "first", Target.first)
        r.addTarget(b, action: "first", Target.first)
        r.addTarget(b, action: "second", Target.second)
        r.removeTarget(nil, action: "first")
        r.transition(to: .recognized)
        #expect(a.calls.isEmpty)
        #expect(b.calls == ["second ended"])
    }

    @Test func targetsAreHeldWeakly() {
        let r = Scripted()
        weak var gone: Target?
        do {
            let target = Target()
            gone = target
            r.addTarget(target, action: "first", Target.first)
        }
        #expect(gone == nil)
        r.transition(to: .recognized)
    }

    @Test func closureActionsCanBeRemoved() {
        let r = Scripted()
        var calls = 0
        let token = r.addAction { _ in calls += 1 }
        r.removeAction(token)
        r.transition(to: .recognized)
        #expect(calls == 0)
    }

    @Test func anActionThatThrowsIsReportedAndTheOthersStillRun() {
        let rig = Rig()
        let r = rig.add(Scripted(), "d")
        r.onEnded = { $0.transition(to: .recognized) }
        r.addAction { _ in throw Oops() }
        var after = false
        r.addAction { _ in after = true }
        rig.run(tap([1], at: (10, 10), t: 0))
        #expect(after)
        #expect(rig.diagnostics == ["bug: d: action threw Oops()"])
        #expect(r.state == .possible)
    }

    @Test func stateObserversSeeEveryWriteIncludingChangedAgainAndTheReset() {
        let rig = Rig()
        let r = rig.add(Scripted(), "c")
        r.continuous = true
        r.onBegan = { $0.transition(to: .began) }
        r.onMoved = { $0.transition(to: .changed) }
        r.onEnded = { $0.transition(to: .ended) }
        var writes: [String] = []
        r.addStateObserver { _, from, to in writes.append("\(from)->\(to)") }
        rig.run([.down(1, at: (10, 10), t: 0), .move(1, to: (20, 10), t: 10), .move(1, to: (30, 10), t: 20), .up(1, t: 30)])
        #expect(writes == ["possible->began", "began->changed", "changed->changed", "changed->ended", "ended->possible"])
    }

    @Test func turningIsEnabledOffMidGestureCancelsAndStopsInput() {
        let rig = Rig()
        let r = rig.add(Scripted(), "c")
        r.continuous = true
        r.onBegan = { $0.transition(to: .began) }
        r.onMoved = { $0.transition(to: .changed) }
        rig.run([.down(1, at: (10, 10), t: 0)])
        r.isEnabled = false
        rig.run([.move(1, to: (20, 10), t: 10), .up(1, t: 20), .down(2, at: (10, 10), t: 30)])
        #expect(rig.log == ["0 c possible -> began", "0 action c began", "0 c began -> cancelled", "0 action c cancelled"])
        #expect(r.calls == ["began [1]", "reset"])
    }

    @Test func theLabelIsTheNameOrTheKindAndNumber() {
        let environment = GestureEnvironment(scheduler: ManualScheduler())
        let unnamed = TapGestureRecognizer()
        environment.attach(PanGestureRecognizer())
        environment.attach(unnamed)
        #expect(unnamed.label == "tap#2")
        unnamed.name = "single"
        #expect(unnamed.label == "single")
    }

    @Test func theDelegateCanStopARecognizerFromBeginning() {
        let rig = Rig()
        let r = rig.add(Scripted(), "d")
        r.onEnded = { $0.transition(to: .recognized) }
        let delegate = Delegate()
        delegate.shouldBegin = false
        r.delegate = delegate
        rig.showCauses = true
        rig.run(tap([1], at: (10, 10), t: 0))
        #expect(rig.log == ["50 d possible -> failed (delegate refused)"])
    }

    @Test func theDelegateCanHideTouches() {
        let rig = Rig()
        let r = rig.add(Scripted(), "d")
        let delegate = Delegate()
        delegate.receives = { $0.id != 2 }
        r.delegate = delegate
        rig.run([.down(1, at: (10, 10), t: 0), .down(2, at: (50, 10), t: 0), .move(2, to: (60, 10), t: 10)])
        #expect(r.calls == ["began [1]"])
        #expect(r.numberOfTouches == 1)
    }

    /// A scripted recognizer that recognizes on lift, waiting for a double tap by `how`.
    private func waiterAndDoubleTap(_ rig: Rig, how: String) -> [String] {
        let waiter = rig.add(Scripted(), "waiter")
        waiter.onEnded = { $0.transition(to: .recognized) }
        let double = rig.add(TapGestureRecognizer(), "double")
        double.numberOfTapsRequired = 2
        let delegate = Delegate()
        switch how {
        case "delegate requires": delegate.requireFailureOf = double; waiter.delegate = delegate
        case "delegate required by": delegate.requiredToFailBy = waiter; double.delegate = delegate
        case "subclass requires": waiter.requiresFailureOf = double
        default: return []
        }
        rig.showCauses = true
        rig.run(tap([1], at: (10, 10), t: 0))
        rig.settle()
        return rig.log
    }

    @Test(arguments: ["delegate requires", "delegate required by", "subclass requires"])
    func failureCanBeRequiredDynamically(how: String) {
        #expect(waiterAndDoubleTap(Rig(), how: how) == [
            "450 double possible -> failed (timer tap-interval)",
            "450 waiter possible -> recognized (double failed)", "450 action waiter recognized",
        ])
    }

    @Test func aSubclassCanAskToBeRequiredToFail() {
        let rig = Rig()
        let waiter = rig.add(Scripted(), "waiter")
        waiter.onEnded = { $0.transition(to: .recognized) }
        let blocker = rig.add(Scripted(), "blocker")
        blocker.requiredToFailBy = waiter
        blocker.onMoved = { $0.transition(to: .failed) }
        rig.run([.down(1, at: (10, 10), t: 0), .down(2, at: (100, 100), t: 0), .up(1, t: 50),
                 .move(2, to: (101, 100), t: 70), .up(2, t: 80)])
        #expect(rig.log.prefix(3) == ["70 blocker possible -> failed", "70 waiter possible -> recognized",
                                      "70 action waiter recognized"])
    }

    @Test func aRecognizerThatNeverDecidesIsFailedAtTheEndOfTheSequenceAndReported() {
        let rig = Rig()
        let waiter = rig.add(Scripted(), "waiter")
        waiter.onEnded = { $0.transition(to: .recognized) }
        let stuck = rig.add(Scripted(), "stuck")
        try! waiter.require(toFail: stuck)
        rig.run(tap([1], at: (10, 10), t: 0))
        #expect(rig.log == ["50 stuck possible -> failed", "50 waiter possible -> recognized", "50 action waiter recognized"])
        #expect(rig.diagnostics == ["bug: stuck was still possible with no input and no timer; failing it"])
        #expect(waiter.state == .possible && stuck.state == .possible)
    }

    @Test func canPreventAndCanBePreventedDecideExclusivity() {
        for (prevents, preventable, bothWin) in [(true, true, false), (false, true, true), (true, false, true)] {
            let rig = Rig()
            let first = rig.add(Scripted(), "a")
            first.onBegan = { $0.transition(to: .recognized) }
            first.prevents = prevents
            let second = rig.add(Scripted(), "b")
            second.onEnded = { $0.transition(to: .recognized) }
            second.preventable = preventable
            rig.run(tap([1], at: (10, 10), t: 0))
            #expect(rig.log.contains("50 b possible -> recognized") == bothWin)
        }
    }

    @Test func ignoredTouchesAreNoLongerDelivered() {
        let rig = Rig()
        let r = rig.add(Scripted(), "d")
        r.onBegan = { recognizer in
            if let touch = recognizer.touches.first(where: { $0.id == 2 }) {
                recognizer.ignore(touch, for: TouchEvent(timestamp: touch.timestamp, allTouches: [], changedTouches: []))
            }
        }
        rig.run([.down(1, at: (10, 10), t: 0), .down(2, at: (50, 10), t: 5), .move(2, to: (60, 10), t: 10), .up(2, t: 20)])
        #expect(r.calls == ["began [1]", "began [2]"])
    }

    @Test func locationIsTheCentroidAndEachTouchCanBeAskedFor() {
        let rig = Rig()
        let r = rig.add(Scripted(), "d")
        rig.run([.down(1, at: (10, 20), t: 0), .down(2, at: (30, 40), t: 0)])
        #expect(r.numberOfTouches == 2)
        #expect(r.location() == Point(x: 20, y: 30))
        #expect(r.location(in: .normalized).distance(to: Point(x: 20.0 / 300, y: 30.0 / 200)) < 1e-12)
        #expect(r.location(ofTouch: 1) == Point(x: 30, y: 40))
    }

    @Test func touchpadGesturesReportTheirFingersAndOffset() {
        let rig = Rig()
        let r = rig.add(Scripted(), "d")
        var seen: [(Int, Point)] = []
        r.addStateObserver { recognizer, _, _ in seen.append((recognizer.numberOfTouches, recognizer.location())) }
        rig.run([.pad(.swipeBegin(fingers: 3), t: 0), .pad(.swipeUpdate(fingers: 3, delta: Point(x: 4, y: 1)), t: 10)])
        #expect(r.numberOfTouches == 3)
        #expect(r.location() == Point(x: 4, y: 1))
        #expect(r.calls == ["touchpad swipe-begin 3f", "touchpad swipe-update 3f 4.0,1.0"])
    }

    @Test func allowedTouchTypesFilterTouches() {
        let rig = Rig()
        let r = rig.add(Scripted(), "d")
        r.allowedTouchTypes = [.indirect]
        rig.run([.down(1, at: (10, 20), t: 0)])
        #expect(r.calls.isEmpty)
        rig.run([.pad(.swipeBegin(fingers: 3), t: 100)])
        #expect(r.calls == ["touchpad swipe-begin 3f"])
    }

    @Test func aRecognizerTakesTouchpadGesturesOrTouchpadFingersNeverBoth() {
        let rig = Rig()
        rig.touchType = .indirect
        let gestures = rig.add(Scripted(), "g")
        let fingers = rig.add(Scripted(), "f")
        fingers.touchpadInput = .contacts
        // One movement of the fingers: libinput's swipe and the fingers themselves.
        rig.run([.down(1, at: (10, 20), t: 0), .pad(.swipeBegin(fingers: 3), t: 5), .move(1, to: (14, 20), t: 10)])
        #expect(gestures.calls == ["touchpad swipe-begin 3f"])
        #expect(fingers.calls == ["began [1]", "moved [1]"])
    }

    @Test func aTerminalRecognizerIsResetWhenTheSequenceEndsAndTakesNoMoreTouchesUntilThen() {
        let rig = Rig()
        let r = rig.add(Scripted(), "d")
        r.onBegan = { $0.transition(to: .failed) }
        rig.run([.down(1, at: (10, 10), t: 0), .down(2, at: (20, 10), t: 10), .up(1, t: 20), .up(2, t: 30),
                 .down(3, at: (10, 10), t: 40)])
        #expect(r.calls == ["began [1]", "reset", "began [3]"])
    }

    @Test func theTransitionLogNamesTheInputThatCausedIt() {
        let rig = Rig()
        rig.showCauses = true
        rig.showResets = true
        let single = rig.add(TapGestureRecognizer(), "single")
        let double = rig.add(TapGestureRecognizer(), "double")
        double.numberOfTapsRequired = 2
        try! single.require(toFail: double)
        rig.run(tap([1], at: (50, 50), t: 0))
        rig.settle()
        #expect(rig.log == [
            "450 double possible -> failed (timer tap-interval)",
            "450 single possible -> recognized (double failed)", "450 action single recognized",
            "450 double failed -> possible (reset)",
            "450 single recognized -> possible (reset)",
        ])
    }

    @Test func aRecognizerRecognizedByATouchpadEventNamesIt() {
        let rig = Rig()
        rig.showCauses = true
        rig.add(TapGestureRecognizer(), "tap")
        rig.run([.pad(.tap(fingers: 1), t: 5)])
        #expect(rig.log.first == "5 tap possible -> recognized (tap 1f)")
    }

    @Test func aRecognizerFollowsOneKindOfDeviceForAWholeSequence() {
        let rig = Rig()
        let press = rig.add(LongPressGestureRecognizer(), "press")
        press.numberOfTapsRequired = 1
        // A screen tap, then a touchpad hold while the press waits for its screen press.
        rig.run(tap([1], at: (50, 50), t: 0) + [.pad(.holdBegin(fingers: 1), t: 100), .wait(t: 1000)])
        #expect(rig.diagnostics.isEmpty)
        #expect(rig.log == ["400 press possible -> failed"])
    }

    @Test func aRecognizerWaitingToDeliverItsEndTakesNoMoreInput() {
        let rig = Rig()
        let double = rig.add(TapGestureRecognizer(), "double")
        double.numberOfTapsRequired = 2
        double.allowableMovement = 100
        let pan = rig.add(PanGestureRecognizer(), "pan")
        try! pan.require(toFail: double)
        // The pan drags and ends while the double tap is still undecided, so it waits with
        // began and ended queued. The second tap must not reach it as a new pan.
        rig.run([.down(1, at: (50, 50), t: 0), .move(1, to: (56, 50), t: 10), .up(1, t: 20),
                 .down(2, at: (50, 52), t: 30), .move(2, to: (56, 52), t: 40), .up(2, t: 50)])
        #expect(rig.diagnostics.isEmpty)
        #expect(rig.log == ["50 double possible -> recognized", "50 action double recognized", "50 pan possible -> failed"])
    }
}
