import RealModule

/// What pinch and rotation share: two fingers on a touchscreen, or a touchpad pinch,
/// measured by one value (scale or angle) that must move past a threshold to begin.
///
/// Continuous: it begins when ``progress()`` passes its threshold, changes as the
/// fingers move, and ends when fewer than two fingers remain (or the touchpad pinch ends).
open class TwoFingerGestureRecognizer: GestureRecognizer {
    /// Fingers of a touchpad pinch; touchscreens always use two. 2 by default.
    public var numberOfTouchesRequired = 2

    private enum Phase {
        case idle
        case tracking
        case active
    }

    private enum Input {
        case down(Timestamp)
        case move(Timestamp)
        case up(remaining: Int)
        case cancel
        case touchpadBegin(fingers: Int, Timestamp)
        case touchpadUpdate(scale: Double, angleDelta: Double, Timestamp)
        case touchpadEnd(cancelled: Bool)
    }

    @exclusivity(unchecked) private var phase = Phase.idle
    /// Distance (mm) and angle (radians, clockwise) between the first two fingers when
    /// tracking started, or scale 1 and angle 0 for a touchpad pinch.
    private(set) var startSpan = 0.0
    private(set) var startAngle = 0.0
    /// The same now.
    private(set) var currentSpan = 0.0
    private(set) var currentAngle = 0.0

    open override var isContinuous: Bool { true }
    open override var acceptedTouchpadGestures: Set<TouchpadGestureKind> { [.pinch] }

    /// Whether the fingers have moved far enough for the gesture to begin.
    open func hasPassedThreshold(touchpad: Bool) -> Bool { false }

    /// Called at every measurement, before the state changes; `time` is the event's.
    open func measured(at time: Timestamp) {}

    /// Called when tracking starts; subclasses clear their values.
    open func trackingStarted(at time: Timestamp) {}

    open override func touchesBegan(_ touches: [Touch], with event: TouchEvent) { step(.down(event.timestamp)) }
    open override func touchesMoved(_ touches: [Touch], with event: TouchEvent) { step(.move(event.timestamp)) }
    open override func touchesEnded(_ touches: [Touch], with event: TouchEvent) {
        step(.up(remaining: numberOfTouches - touches.count))
    }
    open override func touchesCancelled(_ touches: [Touch], with event: TouchEvent) { step(.cancel) }

    open override func touchpadGesture(_ event: TouchpadEvent) {
        switch event.gesture {
        case let .pinchBegin(fingers): step(.touchpadBegin(fingers: fingers, event.timestamp))
        case let .pinchUpdate(_, _, scale, angleDelta):
            step(.touchpadUpdate(scale: scale, angleDelta: angleDelta, event.timestamp))
        case let .pinchEnd(_, cancelled): step(.touchpadEnd(cancelled: cancelled))
        case .swipeBegin, .swipeUpdate, .swipeEnd, .holdBegin, .holdEnd, .tap: break
        }
    }

    open override func reset() {
        super.reset()
        phase = .idle
    }

    private func step(_ input: Input) {
        switch (phase, input) {
        case let (.idle, .down(time)):
            // Wait for the second finger; a crowd of three or more is not a pinch.
            guard numberOfTouches >= 2 else { return }
            guard numberOfTouches == 2 else { return fail() }
            phase = .tracking
            measureTouches(start: true)
            trackingStarted(at: time)
        case (.tracking, .down):
            fail()
        case (.idle, .move), (.active, .down):
            // One finger alone, or a third finger after the gesture began: nothing to measure.
            break
        case let (.tracking, .move(time)):
            measureTouches(start: false)
            measured(at: time)
            if hasPassedThreshold(touchpad: false) {
                phase = .active
                transition(to: .began)
            }
        case let (.active, .move(time)):
            measureTouches(start: false)
            measured(at: time)
            transition(to: .changed)
        case (.idle, .up(let remaining)) where remaining > 0:
            break
        case (.active, .up(let remaining)) where remaining >= 2:
            break
        case (.active, .up), (.active, .touchpadEnd(cancelled: false)):
            phase = .idle
            transition(to: .ended)
        case (.active, .cancel), (.active, .touchpadEnd(cancelled: true)):
            phase = .idle
            transition(to: .cancelled)
        case let (.idle, .touchpadBegin(fingers, time)):
            guard fingers == numberOfTouchesRequired else { return fail() }
            phase = .tracking
            (startSpan, currentSpan, startAngle, currentAngle) = (1, 1, 0, 0)
            trackingStarted(at: time)
        case let (.tracking, .touchpadUpdate(scale, angleDelta, time)), let (.active, .touchpadUpdate(scale, angleDelta, time)):
            currentSpan = scale
            currentAngle += angleDelta * .pi / 180
            measured(at: time)
            if case .active = phase {
                transition(to: .changed)
            } else if hasPassedThreshold(touchpad: true) {
                phase = .active
                transition(to: .began)
            }
        case (.idle, .up), (.idle, .cancel), (.tracking, .up), (.tracking, .cancel), (.tracking, .touchpadEnd):
            fail()
        case (.idle, .touchpadUpdate), (.idle, .touchpadEnd), (.tracking, .touchpadBegin), (.active, .touchpadBegin):
            environment?.report("\(label): \(input) while \(phase) cannot happen")
        }
    }

    private func measureTouches(start: Bool) {
        let touches = self.touches
        guard touches.count >= 2 else { return }
        let between = touches[1].location - touches[0].location
        let span = between.length
        var angle = Double.atan2(y: between.y, x: between.x)
        if !start {
            // Unwrap so that turning past +-180 degrees keeps counting.
            while angle - currentAngle > .pi { angle -= 2 * .pi }
            while angle - currentAngle < -.pi { angle += 2 * .pi }
        }
        currentSpan = span
        currentAngle = angle
        if start {
            startSpan = span
            startAngle = angle
        }
    }

    private func fail() {
        phase = .idle
        transition(to: .failed)
    }
}
