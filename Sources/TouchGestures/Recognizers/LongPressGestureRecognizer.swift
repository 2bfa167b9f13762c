/// Recognizes fingers resting for a while, as UIKit's `UILongPressGestureRecognizer`.
///
/// Continuous: it begins when the fingers have rested for ``minimumPressDuration``
/// without moving more than ``allowableMovement``, changes as they move, and ends when
/// any of them lifts. Fingers that move steadily are not resting, even inside the
/// allowable movement: once they have drifted ``steadyDriftDistance`` and moved at
/// ``steadyDriftSpeed`` or more over the last ``GestureDefaults/steadyDriftWindow``, it
/// fails (a slow drag is not a press). Accepts touchscreen touches and touchpad holds (libinput's
/// GESTURE_HOLD; a hold that libinput cancels because the fingers started to swipe or
/// pinch cancels a long-press that began). libinput cancels a hold for 1 mm of motion,
/// sensor noise and tremor included: before the press begins, a hold it turns into a swipe
/// in the same frame goes on pressing on the swipe's motion, as touches would, within
/// ``allowableMovement``; a pinch fails it.
open class LongPressGestureRecognizer: GestureRecognizer, PhaseMachine {
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

    enum Phase {
        case idle
        case tapping(taps: Int, origin: Point)
        case betweenTaps(taps: Int)
        /// `drift` follows where the fingers have been since they pressed.
        case pressing(origin: Point, drift: PressDrift)
        case active
        /// libinput cancelled the touchpad hold that began at `since`, at `at`: a swipe of
        /// the same fingers in that frame carries the press on.
        case handedOver(since: Timestamp, at: Timestamp)
        /// A touchpad hold that libinput turned into a swipe, which has `moved` so far.
        case pressingOnSwipe(moved: Point, drift: PressDrift)
        case activeOnSwipe(moved: Point)
    }

    enum Input {
        case down(Timestamp)
        case move(Timestamp)
        case up(remaining: Int, Timestamp)
        case cancel
        case timeout
        case holdBegin(fingers: Int, Timestamp)
        case holdEnd(cancelled: Bool, Timestamp)
        case swipeBegin(fingers: Int, Timestamp)
        case swipeMove(Point, Timestamp)
        case swipeEnd(cancelled: Bool)
        case pinchBegin
    }

    static var restingPhase: Phase { .idle }
    @exclusivity(unchecked) var phase = restingPhase

    open override var isContinuous: Bool { true }
    open override var kindName: String { "long-press" }
    open override var acceptedTouchpadGestures: Set<TouchpadGestureKind> {
        switch phase {
        case .handedOver, .pressingOnSwipe, .activeOnSwipe: [.hold, .swipe, .pinch]
        case .idle, .tapping, .betweenTaps, .pressing, .active: [.hold]
        }
    }

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
        case let .holdEnd(_, cancelled): step(.holdEnd(cancelled: cancelled, event.timestamp))
        case let .swipeBegin(fingers): step(.swipeBegin(fingers: fingers, event.timestamp))
        case let .swipeUpdate(_, delta): step(.swipeMove(delta, event.timestamp))
        case let .swipeEnd(_, cancelled): step(.swipeEnd(cancelled: cancelled))
        case .pinchBegin: step(.pinchBegin)
        case .pinchUpdate, .pinchEnd, .tap: break
        }
    }

    open override func reset() {
        super.reset()
        phase = Self.restingPhase
    }

    func advance(_ input: Input) {
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
        case (.pressing(let origin, var drift), .move(let time)):
            let moved = location() - origin
            phase = .idle  // let go of the phase's copy so the tracker mutates in place
            guard stillPressing(moved: moved, drift: &drift, at: time) else { return fail() }
            phase = .pressing(origin: origin, drift: drift)
        case (.pressingOnSwipe(var moved, var drift), .swipeMove(let delta, let time)):
            moved += delta
            phase = .idle
            guard stillPressing(moved: moved, drift: &drift, at: time) else { return fail() }
            phase = .pressingOnSwipe(moved: moved, drift: drift)
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
        case let (.pressingOnSwipe(moved, _), .timeout):
            phase = .activeOnSwipe(moved: moved)
            transition(to: .began)
        case let (.idle, .holdBegin(fingers, time)):
            guard fingers == numberOfTouchesRequired, numberOfTapsRequired == 0 else { return fail() }
            phase = .pressing(origin: .zero, drift: PressDrift(at: time))
            setTimer(at: time + minimumPressDuration, named: "press-duration") { [weak self] _ in self?.step(.timeout) }
        case let (.pressing(_, drift), .holdEnd(true, time)):
            // Only a swipe that libinput begins in this same frame carries the press on.
            phase = .handedOver(since: drift.since, at: time)
            setTimer(at: time + GestureDefaults.holdHandoverWindow, named: "hold-handover") { [weak self] _ in self?.step(.timeout) }
        case let (.handedOver(since, at), .swipeBegin(fingers, time)):
            guard time == at, fingers == numberOfTouchesRequired else { return fail() }
            phase = .pressingOnSwipe(moved: .zero, drift: PressDrift(at: time))
            setTimer(at: since + minimumPressDuration, named: "press-duration") { [weak self] _ in self?.step(.timeout) }
        case let (.active, .holdEnd(cancelled, _)):
            phase = .idle
            transition(to: cancelled ? .cancelled : .ended)
        case let (.activeOnSwipe(moved), .swipeMove(delta, _)):
            // Fingers that travel end a press on a touchpad, as libinput ends its hold.
            let now = moved + delta
            phase = now.length > allowableMovement ? .idle : .activeOnSwipe(moved: now)
            transition(to: now.length > allowableMovement ? .cancelled : .changed)
        case let (.activeOnSwipe, .swipeEnd(cancelled)):
            phase = .idle
            transition(to: cancelled ? .cancelled : .ended)
        case (.active, .cancel):
            phase = .idle
            transition(to: .cancelled)
        case (.pressing, .up), (.pressing, .cancel), (.pressing, .holdEnd(false, _)),
             (.tapping, .cancel), (.tapping, .timeout), (.betweenTaps, .timeout), (.betweenTaps, .cancel),
             (.handedOver, .timeout), (.handedOver, .pinchBegin), (.pressingOnSwipe, .swipeEnd):
            fail()
        case (.active, .timeout), (.active, .holdBegin), (.pressing, .holdBegin), (.tapping, .holdBegin),
             (.betweenTaps, .holdBegin), (.tapping, .holdEnd), (.betweenTaps, .holdEnd),
             (.idle, .move), (.idle, .up), (.idle, .cancel), (.idle, .timeout), (.idle, .holdEnd),
             (.betweenTaps, .move), (.betweenTaps, .up),
             // Swipes and pinches reach it only after libinput turned its hold into one.
             (.idle, .swipeBegin), (.idle, .swipeMove), (.idle, .swipeEnd), (.idle, .pinchBegin),
             (.tapping, .swipeBegin), (.tapping, .swipeMove), (.tapping, .swipeEnd), (.tapping, .pinchBegin),
             (.betweenTaps, .swipeBegin), (.betweenTaps, .swipeMove), (.betweenTaps, .swipeEnd), (.betweenTaps, .pinchBegin),
             (.pressing, .swipeBegin), (.pressing, .swipeMove), (.pressing, .swipeEnd), (.pressing, .pinchBegin),
             (.active, .swipeBegin), (.active, .swipeMove), (.active, .swipeEnd), (.active, .pinchBegin),
             (.handedOver, .down), (.handedOver, .move), (.handedOver, .up), (.handedOver, .cancel),
             (.handedOver, .holdBegin), (.handedOver, .holdEnd), (.handedOver, .swipeMove), (.handedOver, .swipeEnd),
             (.pressingOnSwipe, .down), (.pressingOnSwipe, .move), (.pressingOnSwipe, .up), (.pressingOnSwipe, .cancel),
             (.pressingOnSwipe, .holdBegin), (.pressingOnSwipe, .holdEnd), (.pressingOnSwipe, .swipeBegin),
             (.pressingOnSwipe, .pinchBegin),
             (.activeOnSwipe, .down), (.activeOnSwipe, .move), (.activeOnSwipe, .up), (.activeOnSwipe, .cancel),
             (.activeOnSwipe, .timeout), (.activeOnSwipe, .holdBegin), (.activeOnSwipe, .holdEnd),
             (.activeOnSwipe, .swipeBegin), (.activeOnSwipe, .pinchBegin):
            reportImpossible(input, in: phase)
        }
    }

    /// Whether fingers that have `moved` from where they pressed still rest: inside the
    /// allowable movement, and not drifting on at a steady speed (``PressDrift``).
    private func stillPressing(moved: Point, drift: inout PressDrift, at time: Timestamp) -> Bool {
        moved.length <= allowableMovement && !drift.isDragging(moved, at: time, distance: steadyDriftDistance, speed: steadyDriftSpeed)
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
        phase = .pressing(origin: location(), drift: PressDrift(at: time))
        guard numberOfTouches == numberOfTouchesRequired else { return cancelTimer() }
        setTimer(at: time + minimumPressDuration, named: "press-duration") { [weak self] _ in self?.step(.timeout) }
    }
}

/// Where a press's fingers have drifted since they pressed at ``since``: a slow drag that
/// has not left the allowable movement yet, or fingers at rest.
///
/// Fingers are dragging once they have drifted the steady-drift distance from where they
/// had settled and moved at the steady-drift speed or more over a whole
/// ``GestureDefaults/steadyDriftWindow``: a tremor's quick excursion comes back, a drag
/// goes on. Where they settled is where they were ``GestureDefaults/landingSettleTime``
/// after they pressed: fingers on glass slide a couple of millimetres as they land, then
/// stay (issue 40).
struct PressDrift {
    let since: Timestamp
    private var recent: VelocityTracker
    /// Where the fingers were once they had settled; nil before.
    private var settled: Point?

    init(at time: Timestamp) {
        since = time
        recent = VelocityTracker(at: time, window: GestureDefaults.steadyDriftWindow)
    }

    /// Adds where the fingers are (`moved` from where they pressed) at `time`; whether
    /// they are dragging.
    mutating func isDragging(_ moved: Point, at time: Timestamp, distance: Double, speed: Double) -> Bool {
        recent.add(moved, at: time)
        if settled == nil, time - since >= GestureDefaults.landingSettleTime { settled = moved }
        guard let settled, time - since >= recent.window else { return false }
        return (moved - settled).length >= distance && recent.velocity.length >= speed
    }
}
