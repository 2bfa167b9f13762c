import Glibc
import TouchGestures

/// What libinput 1.22 makes of fingers on a touchpad: hold, swipe and pinch events,
/// from its gesture state machine (src/evdev-mt-touchpad-gestures.c), rebuilt from the
/// facts listed in docs/recognition.md. Not libinput's code; its decisions.
///
/// - Fingers landing put the machine in an undecided state and start a hold timer
///   (180 ms for 3 and more fingers; 40 ms, a "quick hold", for 1 and 2). When it fires
///   undecided, a HOLD begins.
/// - It tracks two touches (the top-most and the bottom-most) from where they were when
///   the finger count last changed. It decides SWIPE once both moved at least 1.5 mm
///   plus 0.5 mm per finger over two, in neighbouring compass directions; or, 150 ms
///   after the fingers landed, once either moved 1 mm while the two lie within 40 mm
///   across and 7 mm down of each other. Different directions make a PINCH.
/// - A hold under way is cancelled (HOLD_END, cancelled) in the frame the swipe or pinch
///   is decided, and the swipe's BEGIN and first UPDATE come in that same frame, the
///   update carrying only that frame's motion: what moved before the decision is lost.
/// - A finger lifting while a gesture runs holds its events back; when the last lifts,
///   the gesture ends (not cancelled). A count that stays changed for 100 ms cancels it.
/// - Two fingers moving alike are scrolling: no gesture events at all.
public struct LibinputTouchpad {
    /// Seconds before resting fingers become a hold (3 and more fingers, tapping on).
    public static let holdTimeout = 0.180
    /// Seconds before one or two resting fingers become a hold.
    public static let quickHoldTimeout = 0.040
    /// Seconds after which fingers close together may swipe on 1 mm of motion.
    public static let swipeTimeout = 0.150
    /// Seconds in which a scroll may still turn out to be a pinch.
    public static let pinchTimeout = 0.300
    /// Seconds a changed finger count must last to cancel a gesture under way.
    public static let switchTimeout = 0.100

    private enum State { case none, unknown, pointer, hold, swipe, pinch, scroll }

    private struct Tracked {
        var first: Int
        var second: Int
        var firstStart: Point
        var secondStart: Point
    }

    private var state = State.none
    private var started = false
    private var fingerCount = 0
    private var pendingCount = 0
    private var pendingSince = 0.0
    private var holdDeadline: Double?
    private var initialTime = 0.0
    private var tracked: Tracked?
    private var initialDistance = 1.0
    private var angle = 0.0
    private var center = Point.zero
    private var events: [(Double, TouchpadGesture)] = []

    /// The gesture events libinput would deliver for `fingers`, in seconds from the start.
    public static func events(for fingers: [Finger], frames: [Double], random: inout SeededRandom) -> [(time: Double, gesture: TouchpadGesture)] {
        events(sensed: TouchscreenFrames.sensed(fingers, frames: frames, random: &random))
    }

    /// The gesture events libinput would deliver for fingers the pad senses at these
    /// places (finger index -> millimetres, per frame), in seconds from the start.
    public static func events(sensed frames: [(time: Double, positions: [Int: Point])]) -> [(time: Double, gesture: TouchpadGesture)] {
        var machine = LibinputTouchpad()
        var previous: [Int: Point] = [:]
        for (time, positions) in frames {
            machine.frame(at: time, positions: positions, previous: previous)
            previous = positions
        }
        return machine.events.map { (time: $0.0, gesture: $0.1) }
    }

    private mutating func emit(_ time: Double, _ gesture: TouchpadGesture) {
        events.append((time, gesture))
    }

    private mutating func frame(at time: Double, positions: [Int: Point], previous: [Int: Point]) {
        fireTimers(before: time)
        let count = positions.count
        if count != fingerCount {
            if count == 0 {
                end(at: time, cancelled: false)
                fingerCount = 0
                pendingCount = 0
                state = .none
                holdDeadline = nil
                return
            } else if !started {
                fingerCount = count
                pendingCount = 0
                state = .none
                holdDeadline = nil
            } else if count != pendingCount {
                pendingCount = count
                pendingSince = time
            }
        } else {
            pendingCount = 0
        }
        // libinput sends nothing while it is unsure how many fingers there are.
        if pendingCount != 0 || fingerCount > 4 { return }
        if state == .none { begin(at: time, positions: positions) }
        if state == .unknown || state == .hold || state == .pointer { detect(at: time, positions: positions) }
        if state == .scroll, time < initialTime + Self.pinchTimeout, isPinch(positions) {
            initPinch(positions)
            state = .pinch
        }
        if state == .swipe { swipe(at: time, positions: positions, previous: previous) }
        if state == .pinch { pinch(at: time, positions: positions) }
    }

    private mutating func fireTimers(before time: Double) {
        if let deadline = holdDeadline, deadline <= time {
            holdDeadline = nil
            if state == .unknown {
                state = .hold
                started = true
                emit(deadline, .holdBegin(fingers: fingerCount))
            }
        }
        if pendingCount != 0, pendingSince + Self.switchTimeout <= time {
            end(at: pendingSince + Self.switchTimeout, cancelled: true)
            fingerCount = pendingCount
            pendingCount = 0
            state = .none
        }
    }

    private mutating func begin(at time: Double, positions: [Int: Point]) {
        let ids = positions.keys.sorted()
        guard let firstID = ids.first else { return }
        var first = firstID
        var second = firstID
        // libinput's choice: the top-most and the bottom-most touch.
        for id in ids.dropFirst() {
            if positions[id]!.y < positions[first]!.y {
                first = id
            } else if positions[id]!.y >= positions[second]!.y {
                second = id
            }
        }
        if ids.count > 1, first == second { return }
        tracked = Tracked(first: first, second: second, firstStart: positions[first]!, secondStart: positions[second]!)
        initialTime = time
        state = .unknown
        holdDeadline = time + (fingerCount <= 2 ? Self.quickHoldTimeout : Self.holdTimeout)
    }

    private func moved(_ positions: [Int: Point]) -> (first: Point, second: Point)? {
        guard let tracked, let first = positions[tracked.first], let second = positions[tracked.second] else { return nil }
        return (first - tracked.firstStart, second - tracked.secondStart)
    }

    private mutating func detect(at time: Double, positions: [Int: Point]) {
        guard let tracked, let (firstMove, secondMove) = moved(positions) else { return }
        if fingerCount == 1 {
            if firstMove.length > 0 { state = .pointer }
            return
        }
        let minMove = 1.5 + 0.5 * Double(fingerCount - 2)
        let maxMove = 4.0 + 2.0 * Double(fingerCount - 2)
        let firstMM = firstMove.length
        let secondMM = secondMove.length
        if firstMM < 1, secondMM < 1 { return }
        let apart = positions[tracked.first]! - positions[tracked.second]!
        if abs(apart.x) < 40, abs(apart.y) < 7, time > initialTime + Self.swipeTimeout {
            return decide(fingerCount == 2 ? .scroll : .swipe, at: time, positions: positions)
        }
        if firstMM >= maxMove || secondMM >= maxMove {
            // The lower touch is the thumb; a still finger and a moving thumb on two
            // fingers is one-finger scrolling. (Thumb suppression needs pressure or
            // touch size, which the modelled pad does not report.)
            let fingerMM = positions[tracked.first]!.y > positions[tracked.second]!.y ? secondMM : firstMM
            if fingerMM < minMove, fingerCount == 2 { return decide(.scroll, at: time, positions: positions) }
        }
        if firstMM < minMove || secondMM < minMove { return }
        let alike = Self.sameDirections(Self.direction(firstMove), Self.direction(secondMove))
        decide(alike ? (fingerCount == 2 ? .scroll : .swipe) : .pinch, at: time, positions: positions)
    }

    private mutating func decide(_ next: State, at time: Double, positions: [Int: Point]) {
        holdDeadline = nil
        if next == .pinch { initPinch(positions) }
        if state == .hold { end(at: time, cancelled: true) }
        state = next
    }

    private mutating func end(at time: Double, cancelled: Bool) {
        guard started else { return }
        switch state {
        case .hold: emit(time, .holdEnd(fingers: fingerCount, cancelled: cancelled))
        case .swipe: emit(time, .swipeEnd(fingers: fingerCount, cancelled: cancelled))
        case .pinch: emit(time, .pinchEnd(fingers: fingerCount, cancelled: cancelled))
        case .none, .unknown, .pointer, .scroll: break
        }
        started = false
    }

    private mutating func swipe(at time: Double, positions: [Int: Point], previous: [Int: Point]) {
        var sum = Point.zero
        for (id, position) in positions {
            sum += position - (previous[id] ?? position)
        }
        let delta = sum / Double(positions.count)
        guard delta != .zero else { return }
        if !started {
            started = true
            emit(time, .swipeBegin(fingers: fingerCount))
        }
        emit(time, .swipeUpdate(fingers: fingerCount, delta: delta))
    }

    private func pinchInfo(_ positions: [Int: Point]) -> (distance: Double, angle: Double, center: Point) {
        let first = positions[tracked!.first]!
        let second = positions[tracked!.second]!
        let apart = first - second
        return (apart.length, atan2(apart.y, apart.x) * 180 / .pi, (first + second) / 2)
    }

    private mutating func initPinch(_ positions: [Int: Point]) {
        let info = pinchInfo(positions)
        initialDistance = info.distance
        angle = info.angle
        center = info.center
    }

    private mutating func pinch(at time: Double, positions: [Int: Point]) {
        guard let tracked, positions[tracked.first] != nil, positions[tracked.second] != nil else { return }
        let info = pinchInfo(positions)
        let scale = info.distance / initialDistance
        var angleDelta = info.angle - angle
        angle = info.angle
        if angleDelta > 180 { angleDelta -= 360 } else if angleDelta < -180 { angleDelta += 360 }
        let delta = info.center - center
        center = info.center
        if !started {
            guard delta != .zero || scale != 1 || angleDelta != 0 else { return }
            started = true
            emit(time, .pinchBegin(fingers: fingerCount))
        }
        emit(time, .pinchUpdate(fingers: fingerCount, delta: delta, scale: scale, angleDelta: angleDelta))
    }

    private func isPinch(_ positions: [Int: Point]) -> Bool {
        guard let (first, second) = moved(positions) else { return false }
        return !Self.sameDirections(Self.direction(first), Self.direction(second))
            && first.length >= 1.5 && second.length >= 1.5
    }

    /// libinput's compass: one bit per octant, N = bit 0, clockwise; a movement near a
    /// boundary sets both octants, and one under 2 mm on both axes sets three.
    static func direction(_ move: Point) -> UInt32 {
        let (n, ne, e, se, s, sw, w, nw): (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
            (1, 2, 4, 8, 16, 32, 64, 128)
        if abs(move.x) < 2, abs(move.y) < 2 {
            switch (move.x.sign, move.y.sign, move.x == 0, move.y == 0) {
            case (_, _, true, true): return 0xFF
            case (.plus, _, false, true): return ne | e | se
            case (.minus, _, false, true): return nw | w | sw
            case (_, .plus, true, false): return se | s | sw
            case (_, .minus, true, false): return ne | n | nw
            case (.plus, .plus, _, _): return s | se | e
            case (.plus, .minus, _, _): return n | ne | e
            case (.minus, .plus, _, _): return s | sw | w
            case (.minus, .minus, _, _): return n | nw | w
            }
        }
        // Octants from north, clockwise (y grows downward).
        var octant = (atan2(move.y, move.x) + 2.5 * .pi).truncatingRemainder(dividingBy: 2 * .pi) * 4 / .pi
        if octant < 0 { octant += 8 }
        let near = Int(octant + 0.9) % 8
        let far = Int(octant + 0.1) % 8
        return (1 << UInt32(near)) | (1 << UInt32(far))
    }

    /// Whether two compass masks share or neighbour an octant.
    static func sameDirections(_ a: UInt32, _ b: UInt32) -> Bool {
        ((a | (a >> 1)) & b) != 0 || ((b | (b >> 1)) & a) != 0
            || ((a & 0x80) != 0 && (b & 0x01) != 0) || ((b & 0x80) != 0 && (a & 0x01) != 0)
    }
}
