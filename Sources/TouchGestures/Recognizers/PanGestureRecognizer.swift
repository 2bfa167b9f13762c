/// Follows fingers dragging, as UIKit's `UIPanGestureRecognizer`.
///
/// Continuous: it begins once the fingers have moved ``slop`` millimetres with between
/// ``minimumNumberOfTouches`` and ``maximumNumberOfTouches`` fingers down, changes as
/// they move, and ends when fewer than the minimum remain. Accepts touchscreen
/// touches and touchpad swipes (libinput's GESTURE_SWIPE is a multi-finger drag).
open class PanGestureRecognizer: GestureRecognizer {
    /// Fewest fingers that pan; 1 by default.
    public var minimumNumberOfTouches = 1
    /// Most fingers that pan; touches beyond it are ignored. Unlimited by default.
    public var maximumNumberOfTouches = Int.max
    /// Millimetres the fingers must move before the pan begins.
    public var slop = GestureDefaults.panSlop

    private enum Phase {
        case idle
        case tracking
        case active
    }

    private enum Input {
        case down([Touch], TouchEvent)
        case move(delta: Point, Timestamp)
        case up(remaining: Int)
        case cancel
        case touchpadBegin(fingers: Int, Timestamp)
        case touchpadEnd(cancelled: Bool)
    }

    @exclusivity(unchecked) private var phase = Phase.idle
    // The mean movement of the fingers, summed frame by frame, so the translation does
    // not jump when a finger lands or lifts (a centroid would).
    private var travelled = Point.zero
    private var translationOffset = Point.zero
    private var surfaceSize: Size?
    private var velocityTracker = VelocityTracker()

    open override var isContinuous: Bool { true }
    open override var kindName: String { "pan" }
    open override var acceptedTouchpadGestures: Set<TouchpadGestureKind> { [.swipe] }

    /// How far the fingers have moved since the first touch (or since the last
    /// ``setTranslation(_:in:)``). Touchpad swipes have no surface size and report
    /// millimetres in both spaces.
    public func translation(in space: CoordinateSpace = .millimetres) -> Point {
        convert(travelled - translationOffset, to: space)
    }

    /// Sets the translation, e.g. to zero to measure increments between actions.
    public func setTranslation(_ translation: Point, in space: CoordinateSpace = .millimetres) {
        let millimetres = space == .millimetres || surfaceSize == nil
            ? translation
            : Point(x: translation.x * surfaceSize!.width, y: translation.y * surfaceSize!.height)
        translationOffset = travelled - millimetres
    }

    /// The fingers' speed in mm/s (or surface sizes per second) over the last ~100 ms.
    public func velocity(in space: CoordinateSpace = .millimetres) -> Point {
        convert(velocityTracker.velocity, to: space)
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
        phase = .idle
        travelled = .zero
        translationOffset = .zero
        surfaceSize = nil
        velocityTracker.removeAll()
    }

    private func step(_ input: Input) {
        switch (phase, input) {
        case let (.idle, .down(touches, event)):
            surfaceSize = touches.first?.surfaceSize
            dropExtra(touches, event)
            phase = .tracking
            velocityTracker.add(.zero, at: event.timestamp)
        case let (.tracking, .down(touches, event)), let (.active, .down(touches, event)):
            dropExtra(touches, event)
        case let (.tracking, .move(delta, time)):
            travelled += delta
            velocityTracker.add(travelled, at: time)
            guard numberOfTouches >= minimumNumberOfTouches, travelled.length > slop else { return }
            phase = .active
            transition(to: .began)
        case let (.active, .move(delta, time)):
            travelled += delta
            velocityTracker.add(travelled, at: time)
            transition(to: .changed)
        case (.tracking, .up(let remaining)) where remaining > 0,
             (.active, .up(let remaining)) where remaining >= minimumNumberOfTouches:
            break
        case (.active, .up), (.active, .touchpadEnd(cancelled: false)):
            phase = .idle
            transition(to: .ended)
        case (.active, .cancel), (.active, .touchpadEnd(cancelled: true)):
            phase = .idle
            transition(to: .cancelled)
        case let (.idle, .touchpadBegin(fingers, time)):
            guard (minimumNumberOfTouches...maximumNumberOfTouches).contains(fingers) else { return fail() }
            phase = .tracking
            velocityTracker.add(.zero, at: time)
        case (.tracking, .up), (.tracking, .cancel), (.tracking, .touchpadEnd):
            fail()
        case (.idle, .move), (.idle, .up), (.idle, .cancel), (.idle, .touchpadEnd),
             (.tracking, .touchpadBegin), (.active, .touchpadBegin):
            environment?.report("\(label): \(input) while \(phase) cannot happen")
        }
    }

    private func dropExtra(_ touches: [Touch], _ event: TouchEvent) {
        for touch in touches.reversed() where numberOfTouches > maximumNumberOfTouches {
            ignore(touch, for: event)
        }
    }

    private func fail() {
        phase = .idle
        transition(to: .failed)
    }

    private func convert(_ millimetres: Point, to space: CoordinateSpace) -> Point {
        guard space == .normalized, let size = surfaceSize, size.width > 0, size.height > 0 else { return millimetres }
        return Point(x: millimetres.x / size.width, y: millimetres.y / size.height)
    }
}
