/// Recognizes fingers moving in one of the allowed directions, as UIKit's
/// `UISwipeGestureRecognizer`.
///
/// Discrete, and recognized the moment the fingers' centroid has travelled
/// ``minimumDistance`` (``touchpadMinimumDistance`` on a touchpad) in an allowed direction:
/// while the fingers still move, not on lift. People start a swipe slowly and speed up,
/// so how long the fingers took does not matter unless ``minimumVelocity`` is set; then
/// the fingers' recent speed (over ``GestureDefaults/velocityWindow``) must reach it when
/// the distance is crossed, which tells a swipe from a drag that competes for the same
/// fingers. Accepts touchscreen touches and touchpad swipes.
open class SwipeGestureRecognizer: GestureRecognizer {
    /// Allowed directions; right by default, as in UIKit. Including any diagonal makes
    /// each direction 45 degrees wide instead of 90.
    public var direction: SwipeDirection = .right
    /// Fingers that must swipe together; 1 by default.
    public var numberOfTouchesRequired = 1
    /// Millimetres the centroid of touchscreen fingers must travel.
    public var minimumDistance = GestureDefaults.swipeMinimumDistance
    /// Millimetres a touchpad swipe must travel.
    public var touchpadMinimumDistance = GestureDefaults.touchpadSwipeMinimumDistance
    /// Recent speed in mm/s the fingers must have when they cross the distance, in the
    /// direction they went; 0 (the default) judges no speed.
    public var minimumVelocity = 0.0

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

    /// Where the fingers started and how fast they move.
    private struct Track {
        var origin: Point
        var isTouchpad: Bool
        var velocity = VelocityTracker()
    }

    private enum Phase {
        case idle
        /// Some of the fingers are down.
        case gathering
        case tracking(Track)
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

    private func step(_ input: Input) { stepPhase({ phase }, input, advance) }

    private func advance(_ input: Input) {
        switch (phase, input) {
        case let (.idle, .down(time)), let (.gathering, .down(time)):
            if numberOfTouches > numberOfTouchesRequired { return fail() }
            guard numberOfTouches == numberOfTouchesRequired else { phase = .gathering; return }
            var track = Track(origin: location(), isTouchpad: false)
            track.velocity.add(.zero, at: time)
            phase = .tracking(track)
        case (.tracking, .down):
            fail()
        case (.gathering, .move):
            break
        case (.tracking(var track), let .move(time)), (.tracking(var track), let .touchpadMove(time)):
            phase = .idle  // let go of the phase's copy so the track mutates in place
            let displacement = location() - track.origin
            track.velocity.add(displacement, at: time)
            phase = .tracking(track)
            check(displacement, track)
        case let (.idle, .touchpadBegin(fingers, time)):
            guard fingers == numberOfTouchesRequired else { return fail() }
            var track = Track(origin: .zero, isTouchpad: true)
            track.velocity.add(.zero, at: time)
            phase = .tracking(track)
        case (.gathering, .up), (.tracking, .up), (.gathering, .cancel), (.tracking, .cancel),
             (.tracking, .touchpadEnd):
            fail()
        case (.idle, .move), (.idle, .up), (.idle, .cancel), (.idle, .touchpadMove), (.idle, .touchpadEnd),
             (.gathering, .touchpadBegin), (.gathering, .touchpadMove), (.gathering, .touchpadEnd),
             (.tracking, .touchpadBegin):
            environment?.report("\(label): \(input) while \(phase) cannot happen")
        }
    }

    private func check(_ displacement: Point, _ track: Track) {
        guard displacement.length >= (track.isTouchpad ? touchpadMinimumDistance : minimumDistance) else { return }
        let diagonals = switch sectors {
        case .automatic: !direction.isDisjoint(with: .diagonal)
        case .four: false
        case .eight: true
        }
        let moved = SwipeDirection.of(displacement, diagonals: diagonals)
        guard direction.contains(moved) else { return fail() }
        if minimumVelocity > 0 {
            // Told from a drag: the fingers must be moving fast now, and that way. A hold that
            // wobbles before a quick move elsewhere has travelled far enough, but not in the
            // direction it is going.
            let velocity = track.velocity.velocity
            guard velocity.length >= minimumVelocity, SwipeDirection.of(velocity, diagonals: diagonals) == moved else {
                return fail()
            }
        }
        phase = .idle
        recognizedDirection = moved
        transition(to: .recognized)
    }

    private func fail() {
        phase = .idle
        transition(to: .failed)
    }
}
