/// Recognizes fingers moving quickly in one of the allowed directions, as UIKit's
/// `UISwipeGestureRecognizer`.
///
/// Discrete, and recognized the moment the fingers' centroid has travelled
/// ``minimumDistance`` at an average speed of at least ``minimumVelocity`` in an
/// allowed direction: while the fingers still move, not on lift. Accepts touchscreen
/// touches and touchpad swipes.
open class SwipeGestureRecognizer: GestureRecognizer {
    /// Allowed directions; right by default, as in UIKit. Including any diagonal makes
    /// each direction 45 degrees wide instead of 90.
    public var direction: SwipeDirection = .right
    /// Fingers that must swipe together; 1 by default.
    public var numberOfTouchesRequired = 1
    /// Millimetres the centroid must travel.
    public var minimumDistance = GestureDefaults.swipeMinimumDistance
    /// Average speed in mm/s, from when all fingers were down to the minimum distance.
    public var minimumVelocity = GestureDefaults.swipeMinimumVelocity

    /// How many sectors a movement's direction is sorted into.
    public enum Sectors: Sendable {
        /// Eight if ``direction`` has a diagonal, else four.
        case automatic
        /// Up, down, left, right: 90 degrees each.
        case four
        /// The four and the diagonals: 45 degrees each.
        case eight
    }

    /// How the direction of a movement is decided. Recognizers that compete for the same
    /// fingers should agree, or a cardinal one (90 degrees wide) takes a diagonal swipe
    /// before a diagonal one (45 degrees) sees it; the rulebook sees to that.
    public var sectors = Sectors.automatic

    /// The direction of the last recognized swipe: one of ``direction``'s members.
    public private(set) var recognizedDirection: SwipeDirection?

    private enum Phase {
        case idle
        case gathering
        case tracking(origin: Point, since: Timestamp)
    }

    private enum Input {
        case down(Timestamp)
        case move(Timestamp)
        case up
        case cancel
        case touchpadBegin(fingers: Int, Timestamp)
        case touchpadMove(Timestamp)
        case touchpadEnd
    }

    @exclusivity(unchecked) private var phase = Phase.idle

    open override var kindName: String { "swipe" }
    open override var acceptedTouchpadGestures: Set<TouchpadGestureKind> { [.swipe] }

    open override func touchesBegan(_ touches: [Touch], with event: TouchEvent) { step(.down(event.timestamp)) }
    open override func touchesMoved(_ touches: [Touch], with event: TouchEvent) { step(.move(event.timestamp)) }
    open override func touchesEnded(_ touches: [Touch], with event: TouchEvent) { step(.up) }
    open override func touchesCancelled(_ touches: [Touch], with event: TouchEvent) { step(.cancel) }

    open override func touchpadGesture(_ event: TouchpadEvent) {
        switch event.gesture {
        case let .swipeBegin(fingers): step(.touchpadBegin(fingers: fingers, event.timestamp))
        case .swipeUpdate: step(.touchpadMove(event.timestamp))
        case .swipeEnd: step(.touchpadEnd)
        case .pinchBegin, .pinchUpdate, .pinchEnd, .holdBegin, .holdEnd, .tap: break
        }
    }

    open override func reset() {
        super.reset()
        phase = .idle
    }

    private func step(_ input: Input) {
        switch (phase, input) {
        case let (.idle, .down(time)), let (.gathering, .down(time)):
            if numberOfTouches > numberOfTouchesRequired { return fail() }
            phase = numberOfTouches == numberOfTouchesRequired ? .tracking(origin: location(), since: time) : .gathering
        case (.tracking, .down):
            fail()
        case (.gathering, .move):
            break
        case let (.tracking(origin, since), .move(time)), let (.tracking(origin, since), .touchpadMove(time)):
            check(location() - origin, over: time - since)
        case let (.idle, .touchpadBegin(fingers, time)):
            guard fingers == numberOfTouchesRequired else { return fail() }
            phase = .tracking(origin: .zero, since: time)
        case (.gathering, .up), (.tracking, .up), (.gathering, .cancel), (.tracking, .cancel),
             (.tracking, .touchpadEnd):
            fail()
        case (.idle, .move), (.idle, .up), (.idle, .cancel), (.idle, .touchpadMove), (.idle, .touchpadEnd),
             (.gathering, .touchpadBegin), (.gathering, .touchpadMove), (.gathering, .touchpadEnd),
             (.tracking, .touchpadBegin):
            environment?.report("\(label): \(input) while \(phase) cannot happen")
        }
    }

    private func check(_ displacement: Point, over elapsed: Duration) {
        let distance = displacement.length
        guard distance >= minimumDistance else { return }
        let seconds = elapsed.seconds
        let speed = seconds > 0 ? distance / seconds : .infinity
        let diagonals = switch sectors {
        case .automatic: !direction.isDisjoint(with: .diagonal)
        case .four: false
        case .eight: true
        }
        let moved = SwipeDirection.of(displacement, diagonals: diagonals)
        guard speed >= minimumVelocity, direction.contains(moved) else { return fail() }
        phase = .idle
        recognizedDirection = moved
        transition(to: .recognized)
    }

    private func fail() {
        phase = .idle
        transition(to: .failed)
    }
}
