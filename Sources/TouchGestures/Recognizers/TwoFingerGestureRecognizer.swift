/// What pinch and rotation share: fingers on a touchscreen, or a touchpad pinch, measured
/// by how far they spread and turn (``FingerSpread``), which must pass a threshold to begin.
///
/// The same fingers both spread and turn a little whatever they mean, so when a pinch and
/// a rotation compete for them, each begins only when its own change dominates the
/// other's, measured alike: how far each finger has moved toward or away from the others
/// against how far it has moved around them (``PinchGestureRecognizer/dominance``,
/// ``RotationGestureRecognizer/dominance``).
///
/// Continuous: it begins when ``hasPassedThreshold(touchpad:)`` says so, changes as the
/// fingers move, and ends when fewer than ``numberOfTouchesRequired`` fingers remain (or the
/// touchpad pinch ends).
open class TwoFingerGestureRecognizer: GestureRecognizer, PhaseMachine {
    /// Fingers that pinch or turn together, on a touchscreen or a touchpad; 2 by default.
    public var numberOfTouchesRequired = 2

    enum Phase {
        /// Fewer fingers than required are down.
        case gathering
        /// All fingers are down; measuring until the threshold is passed.
        case tracking(FingerSpread)
        case active(FingerSpread)
        /// Ended or cancelled; the last measurement stays readable until reset.
        case finished(FingerSpread)
    }

    enum Input {
        case down(Timestamp)
        case move(Timestamp)
        case up(remaining: Int)
        case cancel
        case touchpadBegin(fingers: Int, Timestamp)
        case touchpadUpdate(scale: Double, angleDelta: Double, moved: Point, Timestamp)
        case touchpadEnd(cancelled: Bool)
    }

    static var restingPhase: Phase { .gathering }
    @exclusivity(unchecked) var phase = restingPhase

    open override var isContinuous: Bool { true }
    open override var acceptedTouchpadGestures: Set<TouchpadGestureKind> { [.pinch] }

    /// The fingers' spread since they were all down, while tracking or after.
    var spread: FingerSpread? {
        switch phase {
        case .gathering: nil
        case let .tracking(spread), let .active(spread), let .finished(spread): spread
        }
    }

    /// Changes the measurement in place (a caller resetting scale or rotation).
    func updateSpread(_ change: (inout FingerSpread) -> Void) {
        switch phase {
        case .gathering: break
        case var .tracking(spread): phase = .gathering; change(&spread); phase = .tracking(spread)
        case var .active(spread): phase = .gathering; change(&spread); phase = .active(spread)
        case var .finished(spread): phase = .gathering; change(&spread); phase = .finished(spread)
        }
    }

    /// Whether the fingers have moved far enough for the gesture to begin.
    open func hasPassedThreshold(touchpad: Bool) -> Bool { false }

    open override func touchesBegan(_ touches: [Touch], with event: TouchEvent) { step(.down(event.timestamp)) }
    open override func touchesMoved(_ touches: [Touch], with event: TouchEvent) { step(.move(event.timestamp)) }
    open override func touchesEnded(_ touches: [Touch], with event: TouchEvent) {
        step(.up(remaining: numberOfTouches - touches.count))
    }
    open override func touchesCancelled(_ touches: [Touch], with event: TouchEvent) { step(.cancel) }

    open override func touchpadGesture(_ event: TouchpadEvent) {
        switch event.gesture {
        case let .pinchBegin(fingers): step(.touchpadBegin(fingers: fingers, event.timestamp))
        case let .pinchUpdate(_, delta, scale, angleDelta):
            step(.touchpadUpdate(scale: scale, angleDelta: angleDelta, moved: delta, event.timestamp))
        case let .pinchEnd(_, cancelled): step(.touchpadEnd(cancelled: cancelled))
        case .swipeBegin, .swipeUpdate, .swipeEnd, .holdBegin, .holdEnd, .tap: break
        }
    }

    open override func reset() {
        super.reset()
        phase = Self.restingPhase
    }

    func advance(_ input: Input) {
        switch (phase, input) {
        case let (.gathering, .down(time)):
            // Wait for every finger; a crowd larger than required is not this gesture.
            guard numberOfTouches >= numberOfTouchesRequired else { return }
            guard numberOfTouches == numberOfTouchesRequired else { return fail() }
            phase = .tracking(FingerSpread(touches, first: numberOfTouchesRequired, at: time))
        case (.tracking, .down):
            fail()
        case (.gathering, .move), (.active, .down), (.finished, .down), (.finished, .move):
            // Too few fingers to measure, or a finger added after the gesture began.
            break
        case (.tracking(var spread), let .move(time)):
            phase = .gathering  // let go of the phase's copy so the measurement mutates in place
            spread.measure(touches, first: numberOfTouchesRequired, at: time)
            phase = .tracking(spread)
            if hasPassedThreshold(touchpad: false) {
                phase = .active(spread)
                transition(to: .began)
            }
        case (.active(var spread), let .move(time)):
            phase = .gathering
            spread.measure(touches, first: numberOfTouchesRequired, at: time)
            phase = .active(spread)
            transition(to: .changed)
        case (.gathering, .up(let remaining)) where remaining > 0:
            break
        case (.active, .up(let remaining)) where remaining >= numberOfTouchesRequired:
            break
        case let (.active(spread), .up), let (.active(spread), .touchpadEnd(cancelled: false)):
            phase = .finished(spread)
            transition(to: .ended)
        case let (.active(spread), .cancel), let (.active(spread), .touchpadEnd(cancelled: true)):
            phase = .finished(spread)
            transition(to: .cancelled)
        case let (.gathering, .touchpadBegin(fingers, time)):
            guard fingers == numberOfTouchesRequired else { return fail() }
            phase = .tracking(FingerSpread(touchpadAt: time))
        case (.tracking(var spread), let .touchpadUpdate(scale, angleDelta, moved, time)):
            phase = .gathering
            spread.measure(scale: scale, angleDelta: angleDelta, moved: moved, at: time)
            phase = .tracking(spread)
            if hasPassedThreshold(touchpad: true) {
                phase = .active(spread)
                transition(to: .began)
            }
        case (.active(var spread), let .touchpadUpdate(scale, angleDelta, moved, time)):
            phase = .gathering
            spread.measure(scale: scale, angleDelta: angleDelta, moved: moved, at: time)
            phase = .active(spread)
            transition(to: .changed)
        case (.gathering, .up), (.gathering, .cancel), (.tracking, .up), (.tracking, .cancel), (.tracking, .touchpadEnd):
            fail()
        case (.gathering, .touchpadUpdate), (.gathering, .touchpadEnd), (.tracking, .touchpadBegin),
             (.active, .touchpadBegin), (.finished, .up), (.finished, .cancel), (.finished, .touchpadBegin),
             (.finished, .touchpadUpdate), (.finished, .touchpadEnd):
            reportImpossible(input, in: phase)
        }
    }
}
