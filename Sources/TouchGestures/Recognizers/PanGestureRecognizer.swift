/// Follows fingers dragging, as UIKit's `UIPanGestureRecognizer`.
///
/// Continuous: it begins once the fingers have moved ``slop`` millimetres with between
/// ``minimumNumberOfTouches`` and ``maximumNumberOfTouches`` fingers down, changes as
/// they move, and ends when fewer than the minimum remain. Accepts touchscreen
/// touches and touchpad swipes (libinput's GESTURE_SWIPE is a multi-finger drag).
open class PanGestureRecognizer: GestureRecognizer, PhaseMachine {
    /// Fewest fingers that pan; 1 by default.
    public var minimumNumberOfTouches = 1
    /// Most fingers that pan; touches beyond it are ignored. Unlimited by default.
    public var maximumNumberOfTouches = Int.max
    /// Millimetres the fingers must move before the pan begins.
    public var slop = GestureDefaults.panSlop

    /// How far the fingers have gone, and how fast.
    struct Motion {
        /// The mean movement of the fingers, summed frame by frame, so the translation does
        /// not jump when a finger lands or lifts (a centroid would).
        var travelled = Point.zero
        var translationOffset = Point.zero
        /// The touchscreen's size; nil for a touchpad, whose gestures have no surface.
        var surfaceSize: Size?
        var velocityTracker: VelocityTracker

        init(surfaceSize: Size?, at time: Timestamp) {
            self.surfaceSize = surfaceSize
            velocityTracker = VelocityTracker(at: time)
        }

        mutating func add(_ delta: Point, at time: Timestamp) {
            travelled += delta
            velocityTracker.add(travelled, at: time)
        }
    }

    enum Phase {
        case idle
        case tracking(Motion)
        case active(Motion)
        /// Ended or cancelled; the last motion stays readable until reset.
        case finished(Motion)
    }

    enum Input {
        case down([Touch], TouchEvent)
        case move(delta: Point, Timestamp)
        case up(remaining: Int)
        case cancel
        case touchpadBegin(fingers: Int, Timestamp)
        case touchpadEnd(cancelled: Bool)
    }

    static var restingPhase: Phase { .idle }
    @exclusivity(unchecked) var phase = restingPhase

    open override var isContinuous: Bool { true }
    open override var kindName: String { "pan" }
    open override var acceptedTouchpadGestures: Set<TouchpadGestureKind> { [.swipe] }

    private var motion: Motion? {
        switch phase {
        case .idle: nil
        case let .tracking(motion), let .active(motion), let .finished(motion): motion
        }
    }

    /// How far the fingers have moved since the first touch (or since the last
    /// ``setTranslation(_:in:)``). Touchpad swipes have no surface size and report
    /// millimetres in both spaces.
    public func translation(in space: CoordinateSpace = .millimetres) -> Point {
        guard let motion else { return .zero }
        return convert(motion.travelled - motion.translationOffset, to: space)
    }

    /// Sets the translation, e.g. to zero to measure increments between actions.
    public func setTranslation(_ translation: Point, in space: CoordinateSpace = .millimetres) {
        func apply(_ motion: inout Motion) {
            let millimetres = if space == .normalized, let size = motion.surfaceSize {
                Point(x: translation.x * size.width, y: translation.y * size.height)
            } else {
                translation
            }
            motion.translationOffset = motion.travelled - millimetres
        }
        switch phase {
        case .idle: break
        case var .tracking(motion): apply(&motion); phase = .tracking(motion)
        case var .active(motion): apply(&motion); phase = .active(motion)
        case var .finished(motion): apply(&motion); phase = .finished(motion)
        }
    }

    /// The fingers' speed in mm/s (or surface sizes per second) over the last ~100 ms.
    public func velocity(in space: CoordinateSpace = .millimetres) -> Point {
        guard let motion else { return .zero }
        return convert(motion.velocityTracker.velocity, to: space)
    }

    open override func touchesBegan(_ touches: [Touch], with event: TouchEvent) { step(.down(touches, event)) }

    open override func touchesMoved(_ touches: [Touch], with event: TouchEvent) {
        var sum = Point.zero
        for touch in touches { sum += touch.location - touch.previousLocation }
        step(.move(delta: sum / Double(max(numberOfTouches, 1)), event.timestamp))
    }

    open override func touchesEnded(_ touches: [Touch], with event: TouchEvent) {
        step(.up(remaining: numberOfTouches - touches.count))
    }

    open override func touchesCancelled(_ touches: [Touch], with event: TouchEvent) { step(.cancel) }

    open override func touchpadGesture(_ event: TouchpadEvent) {
        switch event.gesture {
        case let .swipeBegin(fingers): step(.touchpadBegin(fingers: fingers, event.timestamp))
        case let .swipeUpdate(_, delta): step(.move(delta: delta, event.timestamp))
        case let .swipeEnd(_, cancelled): step(.touchpadEnd(cancelled: cancelled))
        case .pinchBegin, .pinchUpdate, .pinchEnd, .holdBegin, .holdEnd, .tap: break
        }
    }

    open override func reset() {
        super.reset()
        phase = Self.restingPhase
    }

    func advance(_ input: Input) {
        switch (phase, input) {
        case let (.idle, .down(touches, event)):
            if let first = touches.first, !shouldFollow(from: first) { return fail() }
            dropExtra(touches, event)
            phase = .tracking(Motion(surfaceSize: touches.first?.surfaceSize, at: event.timestamp))
        case let (.tracking, .down(touches, event)), let (.active, .down(touches, event)):
            dropExtra(touches, event)
        case (.tracking(var motion), let .move(delta, time)):
            phase = .idle  // let go of the phase's copy so the motion mutates in place
            motion.add(delta, at: time)
            phase = .tracking(motion)
            guard numberOfTouches >= minimumNumberOfTouches, motion.travelled.length > slop else { return }
            guard shouldBegin(after: motion.travelled) else { return fail() }
            phase = .active(motion)
            transition(to: .began)
        case (.active(var motion), let .move(delta, time)):
            phase = .idle
            motion.add(delta, at: time)
            phase = .active(motion)
            transition(to: .changed)
        case (.tracking, .up(let remaining)) where remaining > 0,
             (.active, .up(let remaining)) where remaining >= minimumNumberOfTouches:
            break
        case let (.active(motion), .up), let (.active(motion), .touchpadEnd(cancelled: false)):
            phase = .finished(motion)
            transition(to: .ended)
        case let (.active(motion), .cancel), let (.active(motion), .touchpadEnd(cancelled: true)):
            phase = .finished(motion)
            transition(to: .cancelled)
        case let (.idle, .touchpadBegin(fingers, time)):
            guard (minimumNumberOfTouches...maximumNumberOfTouches).contains(fingers) else { return fail() }
            phase = .tracking(Motion(surfaceSize: nil, at: time))
        case (.tracking, .up), (.tracking, .cancel), (.tracking, .touchpadEnd):
            fail()
        case (.finished, .down), (.finished, .move):
            // A finger still down after the pan ended (a third finger, say): nothing to follow.
            break
        case (.idle, .move), (.idle, .up), (.idle, .cancel), (.idle, .touchpadEnd),
             (.tracking, .touchpadBegin), (.active, .touchpadBegin), (.finished, .up), (.finished, .cancel),
             (.finished, .touchpadBegin), (.finished, .touchpadEnd):
            reportImpossible(input, in: phase)
        }
    }

    /// Whether a pan whose first touch is `touch` may be followed at all; true by
    /// default. A subclass that begins only from somewhere (an edge) says no elsewhere,
    /// and the pan fails at once.
    open func shouldFollow(from touch: Touch) -> Bool { true }

    /// Whether a pan that has moved `travelled` millimetres, past the slop, may begin;
    /// true by default. No: it fails.
    open func shouldBegin(after travelled: Point) -> Bool { true }

    private func dropExtra(_ touches: [Touch], _ event: TouchEvent) {
        for touch in touches.reversed() where numberOfTouches > maximumNumberOfTouches {
            ignore(touch, for: event)
        }
    }

    private func convert(_ millimetres: Point, to space: CoordinateSpace) -> Point {
        guard space == .normalized, let size = motion?.surfaceSize, size.width > 0, size.height > 0 else { return millimetres }
        return Point(x: millimetres.x / size.width, y: millimetres.y / size.height)
    }
}
