/// Recognizes fingers resting for a while, as UIKit's `UILongPressGestureRecognizer`.
///
/// Continuous: it begins when the fingers have rested for ``minimumPressDuration``
/// without moving more than ``allowableMovement``, changes as they move, and ends when
/// any of them lifts. Fingers that move steadily are not resting, even inside the
/// allowable movement: once they have drifted ``steadyDriftDistance`` and moved at
/// ``steadyDriftSpeed`` or more over the last ``GestureDefaults/steadyDriftWindow``, it
/// fails (a slow drag is not a press). Accepts touchscreen touches and touchpad holds (libinput's
/// GESTURE_HOLD; a hold that libinput cancels because the fingers started to swipe or
/// pinch cancels a long-press that began, and fails one that had not).
open class LongPressGestureRecognizer: GestureRecognizer {
    /// How long the fingers must rest.
    public var minimumPressDuration = GestureDefaults.minimumPressDuration
    /// Fingers that must rest; 1 by default.
    public var numberOfTouchesRequired = 1
    /// Taps before the press (0 by default; 1 is "tap, then press"). Touchscreens only:
    /// on a touchpad libinput turns tap-then-hold into a drag.
    public var numberOfTapsRequired = 0
    /// Millimetres the fingers may move before the press begins.
    public var allowableMovement = GestureDefaults.allowableMovement
    /// Millimetres the fingers may drift steadily before the press begins.
    public var steadyDriftDistance = GestureDefaults.steadyDriftDistance
    /// Speed in mm/s, over ``GestureDefaults/steadyDriftWindow``, at which a drift of
    /// ``steadyDriftDistance`` is a drag.
    public var steadyDriftSpeed = GestureDefaults.steadyDriftSpeed
    /// Longest a preceding tap may last, and the longest pause after it.
    public var maximumTapDuration = GestureDefaults.maximumTapDuration

    private enum Phase {
        case idle
        case tapping(taps: Int, origin: Point)
        case betweenTaps(taps: Int)
        /// `drift` follows where the fingers have been lately, since they pressed at `since`.
        case pressing(origin: Point, drift: VelocityTracker, since: Timestamp)
        case active
    }

    private enum Input {
        case down(Timestamp)
        case move(Timestamp)
        case up(remaining: Int, Timestamp)
        case cancel
        case timeout
        case holdBegin(fingers: Int, Timestamp)
        case holdEnd(cancelled: Bool)
    }

    @exclusivity(unchecked) private var phase = Phase.idle

    open override var isContinuous: Bool { true }
    open override var kindName: String { "long-press" }
    open override var acceptedTouchpadGestures: Set<TouchpadGestureKind> { [.hold] }

    open override func touchesBegan(_ touches: [Touch], with event: TouchEvent) {
        step(.down(event.timestamp))
    }

    open override func touchesMoved(_ touches: [Touch], with event: TouchEvent) {
        step(.move(event.timestamp))
    }

    open override func touchesEnded(_ touches: [Touch], with event: TouchEvent) {
        step(.up(remaining: numberOfTouches - touches.count, event.timestamp))
    }

    open override func touchesCancelled(_ touches: [Touch], with event: TouchEvent) {
        step(.cancel)
    }

    open override func touchpadGesture(_ event: TouchpadEvent) {
        switch event.gesture {
        case let .holdBegin(fingers): step(.holdBegin(fingers: fingers, event.timestamp))
        case let .holdEnd(_, cancelled): step(.holdEnd(cancelled: cancelled))
        case .swipeBegin, .swipeUpdate, .swipeEnd, .pinchBegin, .pinchUpdate, .pinchEnd, .tap: break
        }
    }

    open override func reset() {
        super.reset()
        phase = .idle
    }

    private func step(_ input: Input) { stepPhase({ phase }, input, advance) }

    private func advance(_ input: Input) {
        switch (phase, input) {
        case let (.idle, .down(time)):
            touchDown(afterTaps: 0, at: time)
        case let (.betweenTaps(taps), .down(time)):
            touchDown(afterTaps: taps, at: time)
        case let (.pressing, .down(time)):
            // A finger that lands late joins the press; the wait starts when all are down.
            guard numberOfTouches <= numberOfTouchesRequired else { return fail() }
            startPress(at: time)
        case (.tapping, .down):
            if numberOfTouches > numberOfTouchesRequired { fail() }
        case (.active, .down):
            // As in UIKit, fingers added after the press began do not end it.
            break
        case (.pressing(let origin, var drift, let since), .move(let time)):
            let moved = location() - origin
            if moved.length > allowableMovement { return fail() }
            phase = .idle  // let go of the phase's copy so the tracker mutates in place
            drift.add(moved, at: time)
            phase = .pressing(origin: origin, drift: drift, since: since)
            // Moving on at a steady speed, over a whole window (a tremor's quick excursion
            // comes back): a drag that has not gone far yet.
            if time - since >= drift.window, moved.length >= steadyDriftDistance, drift.velocity.length >= steadyDriftSpeed { fail() }
        case let (.tapping(_, origin), .move):
            if location().distance(to: origin) > allowableMovement { fail() }
        case (.active, .move):
            transition(to: .changed)
        case (.tapping, .up(let remaining, _)) where remaining > 0:
            break
        case let (.tapping(taps, _), .up(_, time)):
            phase = .betweenTaps(taps: taps + 1)
            setTimer(at: time + maximumTapDuration, named: "tap-interval") { [weak self] _ in self?.step(.timeout) }
        case (.active, .up):
            // UIKit: the press ends when any of its fingers lifts.
            phase = .idle
            transition(to: .ended)
        case (.pressing, .timeout):
            phase = .active
            transition(to: .began)
        case let (.idle, .holdBegin(fingers, time)):
            guard fingers == numberOfTouchesRequired, numberOfTapsRequired == 0 else { return fail() }
            phase = .pressing(origin: .zero, drift: Self.driftTracker(at: time), since: time)
            setTimer(at: time + minimumPressDuration, named: "press-duration") { [weak self] _ in self?.step(.timeout) }
        case let (.active, .holdEnd(cancelled)):
            phase = .idle
            transition(to: cancelled ? .cancelled : .ended)
        case (.active, .cancel):
            phase = .idle
            transition(to: .cancelled)
        case (.pressing, .up), (.pressing, .cancel), (.pressing, .holdEnd),
             (.tapping, .cancel), (.tapping, .timeout), (.betweenTaps, .timeout), (.betweenTaps, .cancel):
            fail()
        case (.active, .timeout), (.active, .holdBegin), (.pressing, .holdBegin), (.tapping, .holdBegin),
             (.betweenTaps, .holdBegin), (.tapping, .holdEnd), (.betweenTaps, .holdEnd),
             (.idle, .move), (.idle, .up), (.idle, .cancel), (.idle, .timeout), (.idle, .holdEnd),
             (.betweenTaps, .move), (.betweenTaps, .up):
            environment?.report("\(label): \(input) while \(phase) cannot happen")
        }
    }

    private func touchDown(afterTaps taps: Int, at time: Timestamp) {
        guard numberOfTouches <= numberOfTouchesRequired else { return fail() }
        if taps < numberOfTapsRequired {
            phase = .tapping(taps: taps, origin: location())
            setTimer(at: time + maximumTapDuration, named: "tap-duration") { [weak self] _ in self?.step(.timeout) }
        } else {
            startPress(at: time)
        }
    }

    private func startPress(at time: Timestamp) {
        phase = .pressing(origin: location(), drift: Self.driftTracker(at: time), since: time)
        guard numberOfTouches == numberOfTouchesRequired else { return cancelTimer() }
        setTimer(at: time + minimumPressDuration, named: "press-duration") { [weak self] _ in self?.step(.timeout) }
    }

    /// A tracker of the fingers' drift from where they pressed, from `time`.
    private static func driftTracker(at time: Timestamp) -> VelocityTracker {
        var drift = VelocityTracker()
        drift.window = GestureDefaults.steadyDriftWindow
        drift.add(.zero, at: time)
        return drift
    }

    private func fail() {
        phase = .idle
        cancelTimer()
        transition(to: .failed)
    }
}
