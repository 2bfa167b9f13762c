/// Recognizes fingers moving in one of the allowed directions, as UIKit's
/// `UISwipeGestureRecognizer`.
///
/// Discrete, and recognized the moment the fingers' centroid has travelled
/// ``minimumDistance`` (``touchpadMinimumDistance`` on a touchpad) in an allowed direction:
/// while the fingers still move, not on lift. People start a swipe slowly and speed up,
/// so how long the fingers took does not matter unless ``minimumVelocity`` is set; then
/// the fingers' recent speed (over ``GestureDefaults/velocityWindow``) must reach it when
/// the distance is crossed, which tells a swipe from a drag that competes for the same
/// fingers. A quick flick counts sooner: ``flickMinimumDistance`` at
/// ``flickMinimumVelocity``, the way it went.
///
/// When the fingers point within ``directionMargin`` degrees of a boundary between two
/// directions, the swipe waits until they point clearly one way, or judges where they
/// ended when they lift: a curved swipe turns toward where it is going. Accepts
/// touchscreen touches and touchpad swipes.
open class SwipeGestureRecognizer: GestureRecognizer, PhaseMachine {
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
    /// Millimetres a quick swipe (a flick) must travel, on either shape of input.
    public var flickMinimumDistance = GestureDefaults.flickMinimumDistance
    /// Recent speed in mm/s, the way the fingers went, that makes a swipe of
    /// ``flickMinimumDistance`` a flick.
    public var flickMinimumVelocity = GestureDefaults.flickMinimumVelocity
    /// Degrees either side of a boundary between directions (half as many with diagonals)
    /// where the swipe waits to see which way it goes.
    public var directionMargin = GestureDefaults.swipeDirectionMargin

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
    struct Track {
        var origin: Point
        var isTouchpad: Bool
        var velocity: VelocityTracker
    }

    enum Phase {
        case idle
        /// Some of the fingers are down.
        case gathering
        /// Not far or quick enough yet.
        case tracking(Track)
        /// Far and quick enough, but pointing near a boundary between two directions.
        case aiming(Track)
    }

    /// What the fingers' movement says so far.
    private enum Verdict {
        case undecided
        case aiming
        case failed
        case recognized(SwipeDirection)
    }

    enum Input {
        case down(Timestamp)
        case move(Timestamp)
        case up
        case cancel
        case touchpadBegin(fingers: Int, Timestamp)
        case touchpadMove(Timestamp)
        case touchpadEnd
    }

    static var restingPhase: Phase { .idle }
    @exclusivity(unchecked) var phase = restingPhase

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
        phase = Self.restingPhase
    }

    func advance(_ input: Input) {
        switch (phase, input) {
        case let (.idle, .down(time)), let (.gathering, .down(time)):
            if numberOfTouches > numberOfTouchesRequired { return fail() }
            guard numberOfTouches == numberOfTouchesRequired else { phase = .gathering; return }
            phase = .tracking(Track(origin: location(), isTouchpad: false, velocity: VelocityTracker(at: time)))
        case (.tracking, .down), (.aiming, .down):
            fail()
        case (.gathering, .move):
            break
        case (.tracking(var track), let .move(time)), (.tracking(var track), let .touchpadMove(time)):
            phase = .idle  // let go of the phase's copy so the track mutates in place
            let displacement = location() - track.origin
            track.velocity.add(displacement, at: time)
            settle(judge(displacement, track, aiming: false), track)
        case (.aiming(var track), let .move(time)), (.aiming(var track), let .touchpadMove(time)):
            phase = .idle
            let displacement = location() - track.origin
            track.velocity.add(displacement, at: time)
            settle(judge(displacement, track, aiming: true), track)
        case let (.aiming(track), .up), let (.aiming(track), .touchpadEnd):
            // The fingers lift while pointing near a boundary: where they ended says it.
            let moved = SwipeDirection.of(location() - track.origin, diagonals: usesDiagonals)
            settle(direction.contains(moved) ? .recognized(moved) : .failed, track)
        case let (.idle, .touchpadBegin(fingers, time)):
            guard fingers == numberOfTouchesRequired else { return fail() }
            phase = .tracking(Track(origin: .zero, isTouchpad: true, velocity: VelocityTracker(at: time)))
        case (.gathering, .up), (.tracking, .up), (.gathering, .cancel), (.tracking, .cancel), (.aiming, .cancel),
             (.tracking, .touchpadEnd):
            fail()
        case (.idle, .move), (.idle, .up), (.idle, .cancel), (.idle, .touchpadMove), (.idle, .touchpadEnd),
             (.gathering, .touchpadBegin), (.gathering, .touchpadMove), (.gathering, .touchpadEnd),
             (.tracking, .touchpadBegin), (.aiming, .touchpadBegin):
            reportImpossible(input, in: phase)
        }
    }

    /// Whether directions are sorted into eight sectors rather than four.
    private var usesDiagonals: Bool {
        switch sectors {
        case .automatic: !direction.isDisjoint(with: .diagonal)
        case .four: false
        case .eight: true
        }
    }

    /// What the movement so far says; `aiming`: it was already far and quick enough.
    private func judge(_ displacement: Point, _ track: Track, aiming: Bool) -> Verdict {
        let distance = displacement.length
        let far = distance >= (track.isTouchpad ? touchpadMinimumDistance : minimumDistance)
        // Most frames of most gestures: not far enough for anything yet.
        if !aiming, !far, distance < flickMinimumDistance { return .undecided }
        let diagonals = usesDiagonals
        let velocity = track.velocity.velocity
        // Moving the way it went: its recent velocity within half a sector of where it went.
        let headingOn = velocity != .zero
            && SwipeDirection.degrees(between: velocity, and: displacement) <= SwipeDirection.sectorDegrees(diagonals: diagonals) / 2
        if !aiming {
            let flick = velocity.length >= flickMinimumVelocity && headingOn
            guard far || flick else { return .undecided }
            // Told from a drag: the fingers must be moving fast now, and that way. A hold that
            // wobbles before a quick move elsewhere has travelled far enough, but not in the
            // direction it is going.
            if minimumVelocity > 0, velocity.length < minimumVelocity || !headingOn { return .failed }
        }
        if SwipeDirection.isNearBoundary(displacement, diagonals: diagonals, margin: diagonals ? directionMargin / 2 : directionMargin) {
            return .aiming
        }
        let moved = SwipeDirection.of(displacement, diagonals: diagonals)
        return direction.contains(moved) ? .recognized(moved) : .failed
    }

    private func settle(_ verdict: Verdict, _ track: Track) {
        switch verdict {
        case .undecided: phase = .tracking(track)
        case .aiming: phase = .aiming(track)
        case .failed: fail()
        case let .recognized(moved):
            phase = .idle
            recognizedDirection = moved
            transition(to: .recognized)
        }
    }
}
