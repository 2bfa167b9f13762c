/// Recognizes one or more taps of one or more fingers, as UIKit's `UITapGestureRecognizer`.
///
/// Discrete. Accepts touchscreen touches, touchpad fingers, and touchpad taps (libinput's
/// tap-to-click, whose duration and movement libinput has already judged).
///
/// A touchpad finger's movement in the frame in which a finger lands or lifts does not
/// count: a semi-MT pad reports the corners of a box around the fingers, so the first
/// finger's position jumps to a corner when the second lands, and again when one lifts
/// (libinput skips those frames too). And while the fingers of a touchpad tap are still
/// landing (fewer than it needs are down, within ``GestureDefaults/fingerGatherWindow``
/// of the first), how far the first ones went does not count: a semi-MT pad's one estimate
/// slides toward a finger that is about to land; the tap is measured from where they are
/// when the next one lands.
open class TapGestureRecognizer: GestureRecognizer, PhaseMachine {
    /// Taps in a row needed to recognize; 1 by default.
    public var numberOfTapsRequired = 1
    /// Fingers per tap; 1 by default.
    public var numberOfTouchesRequired = 1
    /// Longest a tap's fingers may stay down.
    public var maximumTapDuration = GestureDefaults.maximumTapDuration
    /// Longest pause from the lift of one tap to the touch of the next.
    public var maximumTapInterval = GestureDefaults.maximumTapInterval
    /// Millimetres a finger may move during a tap.
    public var allowableMovement = GestureDefaults.tapSlop
    /// Millimetres between the first tap and a later one of the same multi-tap.
    public var multiTapSlop = GestureDefaults.multiTapSlop
    /// How long after a touchpad tap's first finger lands its movement is forgiven while
    /// the others land.
    public var fingerGatherWindow = GestureDefaults.fingerGatherWindow

    enum Phase {
        case idle
        /// `landed`: when the tap's first finger landed.
        case touching(taps: Int, origin: Point, mostFingers: Int, landed: Timestamp)
        /// `lifted` is when the last tap's fingers lifted.
        case awaitingNextTap(taps: Int, origin: Point, lifted: Timestamp)
    }

    enum Input {
        case down([Touch], Timestamp)
        /// `fingersChanged`: a finger landed or lifted in the same frame.
        case move([Touch], fingersChanged: Bool)
        case up(remaining: Int, Timestamp)
        case cancel
        case timeout
        /// A touchpad tap, delivered when its fingers lifted (`time`), with when they landed.
        case touchpadTap(fingers: Int, Timestamp, landed: Timestamp)
    }

    static var restingPhase: Phase { .idle }
    @exclusivity(unchecked) var phase = restingPhase
    private var starts: [(id: Int, location: Point)] = []

    open override var kindName: String { "tap" }
    open override var acceptedTouchpadGestures: Set<TouchpadGestureKind> { [.tap] }

    open override func touchesBegan(_ touches: [Touch], with event: TouchEvent) {
        step(.down(touches, event.timestamp))
    }

    open override func touchesMoved(_ touches: [Touch], with event: TouchEvent) {
        let changed = event.changedTouches.contains { $0.phase == .began || $0.phase.isTerminal }
        step(.move(touches, fingersChanged: changed))
    }

    open override func touchesEnded(_ touches: [Touch], with event: TouchEvent) {
        step(.up(remaining: numberOfTouches - touches.count, event.timestamp))
    }

    open override func touchesCancelled(_ touches: [Touch], with event: TouchEvent) {
        step(.cancel)
    }

    open override func touchpadGesture(_ event: TouchpadEvent) {
        if case let .tap(fingers) = event.gesture {
            step(.touchpadTap(fingers: fingers, event.timestamp, landed: event.fingersDown ?? event.timestamp))
        }
    }

    open override func reset() {
        super.reset()
        phase = Self.restingPhase
        starts.removeAll(keepingCapacity: true)
    }

    func advance(_ input: Input) {
        switch (phase, input) {
        case let (.idle, .down(touches, time)):
            startTap(taps: 0, origin: location(), touches: touches, at: time)
        case let (.awaitingNextTap(taps, origin, _), .down(touches, time)):
            guard location().distance(to: origin) <= multiTapSlop else { return fail() }
            startTap(taps: taps, origin: origin, touches: touches, at: time)
        case let (.touching(taps, origin, mostFingers, landed), .down(touches, time)):
            if touches.contains(where: { $0.type == .indirect }), let moved = farthestMove(before: time) {
                // The fingers down so far went beyond the slop while this one was landing:
                // forgiven while they gather, measured from here on.
                guard moved <= allowableMovement || time - landed <= fingerGatherWindow else { return fail() }
                rebaseStarts(before: time)
            }
            remember(touches)
            let fingers = max(mostFingers, numberOfTouches)
            guard fingers <= numberOfTouchesRequired else { return fail() }
            phase = .touching(taps: taps, origin: origin, mostFingers: fingers, landed: landed)
        case let (.touching(_, _, mostFingers, _), .move(touches, fingersChanged)):
            let gathering = mostFingers < numberOfTouchesRequired
            for touch in touches {
                guard let index = starts.firstIndex(where: { $0.id == touch.id }) else { continue }
                if fingersChanged, touch.type == .indirect {
                    // A box corner's jump, not the finger's motion: measure on from here.
                    starts[index].location += touch.location - touch.previousLocation
                } else if touch.location.distance(to: starts[index].location) > allowableMovement
                            && !(gathering && touch.type == .indirect) {
                    return fail()
                }
            }
        case (.touching, .up(remaining: let remaining, _)) where remaining > 0:
            break
        case let (.touching(taps, origin, mostFingers, _), .up(_, time)):
            guard mostFingers == numberOfTouchesRequired else { return fail() }
            tapCompleted(taps: taps + 1, origin: origin, at: time)
        case let (.idle, .touchpadTap(fingers, time, _)):
            guard fingers == numberOfTouchesRequired else { return fail() }
            tapCompleted(taps: 1, origin: .zero, at: time, touchpad: true)
        case let (.awaitingNextTap(taps, origin, lifted), .touchpadTap(fingers, time, landed)):
            // The pause runs from the last lift to when these fingers landed, not to when
            // libinput could tell it was a tap.
            guard fingers == numberOfTouchesRequired, landed - lifted <= maximumTapInterval else { return fail() }
            tapCompleted(taps: taps + 1, origin: origin, at: time, touchpad: true)
        case (.touching, .cancel), (.touching, .timeout), (.awaitingNextTap, .timeout),
             (.touching, .touchpadTap):
            fail()
        case (.idle, .move), (.idle, .up), (.idle, .cancel), (.idle, .timeout),
             (.awaitingNextTap, .move), (.awaitingNextTap, .up), (.awaitingNextTap, .cancel):
            reportImpossible(input, in: phase)
        }
    }

    private func startTap(taps: Int, origin: Point, touches: [Touch], at time: Timestamp) {
        starts.removeAll(keepingCapacity: true)
        remember(touches)
        guard numberOfTouches <= numberOfTouchesRequired else { return fail() }
        phase = .touching(taps: taps, origin: origin, mostFingers: numberOfTouches, landed: time)
        setTimer(at: time + maximumTapDuration, named: "tap-duration") { [weak self] _ in self?.step(.timeout) }
    }

    private func remember(_ touches: [Touch]) {
        for touch in touches { starts.append((touch.id, touch.location)) }
    }

    /// How far the farthest finger down had gone, before the frame at `time`, from where it
    /// is measured from; nil with none.
    private func farthestMove(before time: Timestamp) -> Double? {
        let held = touches
        return starts.compactMap { start in
            held.first { $0.id == start.id }.map { Self.place(of: $0, before: time).distance(to: start.location) }
        }.max()
    }

    /// Measures every finger down from where it was before the frame at `time`: its move
    /// in that frame, the box's jump as a finger lands, is the move handler's.
    private func rebaseStarts(before time: Timestamp) {
        let held = touches
        for index in starts.indices {
            if let touch = held.first(where: { $0.id == starts[index].id }) { starts[index].location = Self.place(of: touch, before: time) }
        }
    }

    /// Where `touch` was before the frame at `time`.
    private static func place(of touch: Touch, before time: Timestamp) -> Point {
        touch.timestamp == time && touch.phase == .moved ? touch.previousLocation : touch.location
    }

    private func tapCompleted(taps: Int, origin: Point, at time: Timestamp, touchpad: Bool = false) {
        if taps >= numberOfTapsRequired {
            phase = .idle
            cancelTimer()
            transition(to: .recognized)
        } else {
            phase = .awaitingNextTap(taps: taps, origin: origin, lifted: time)
            // A touchpad tap reaches us only when libinput has decided it, up to its tap
            // timeout after the fingers landed: wait that much longer for the next one.
            let wait = touchpad ? maximumTapInterval + GestureDefaults.touchpadTapDecisionDelay : maximumTapInterval
            setTimer(at: time + wait, named: "tap-interval") { [weak self] _ in self?.step(.timeout) }
        }
    }
}
