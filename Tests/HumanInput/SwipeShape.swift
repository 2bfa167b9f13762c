import TouchGestures

/// The four directions the corpus swipes in, as unit vectors on a surface whose y grows
/// downward.
public enum Heading: String, CaseIterable, Sendable {
    case left, right, up, down

    /// The unit vector of the heading.
    public var vector: Point {
        switch self {
        case .left: Point(x: -1, y: 0)
        case .right: Point(x: 1, y: 0)
        case .up: Point(x: 0, y: -1)
        case .down: Point(x: 0, y: 1)
        }
    }

    /// The vector a quarter turn clockwise: the sideways direction of drift.
    public var sideways: Point { Point(x: -vector.y, y: vector.x) }
}

/// How one swipe moves: distance, duration and drift, the parts people vary.
public struct SwipeShape: Sendable {
    /// Millimetres along the heading.
    public var distance: Double
    /// Seconds from the start of motion to its end.
    public var duration: Double
    /// Sideways drift as a fraction of the distance: a slant and a bow (see ``Motion/drift``).
    public var slant: Double
    public var bow: Double
    /// A circular arc instead of the slant and bow: its sagitta (the arc's largest
    /// distance from its chord) as a signed fraction of the chord, positive to the
    /// heading's ``Heading/sideways``; 0 for none. At 0.3 the arc leaves its start 62
    /// degrees off the chord's direction.
    public var sagitta = 0.0

    /// A shape with a given distance and duration and random drift of at most 25% of the
    /// distance, straight, curved or both.
    public static func random(distance: Double, duration: Double, random: inout SeededRandom) -> SwipeShape {
        let limit = 0.25
        let slant: Double
        let bow: Double
        switch random.integer(0...2) {
        case 0:
            slant = random.uniform(-limit...limit)
            bow = 0
        case 1:
            slant = 0
            bow = random.uniform(-limit...limit)
        default:
            // The largest sideways offset of slant*p + bow*4p(1-p) stays within the limit.
            slant = random.uniform(-limit / 2...limit / 2)
            bow = (slant >= 0 ? 1 : -1) * random.uniform(0...(limit / 2))
        }
        return SwipeShape(distance: distance, duration: duration, slant: slant, bow: bow)
    }

    /// A swipe people make: 10-60 mm at an average speed between 40 and 400 mm/s
    /// (log-uniform), lasting 60-1,400 ms.
    public static func human(random: inout SeededRandom) -> SwipeShape {
        let distance = random.uniform(10...60)
        let speed = random.logUniform(40...400)
        let duration = min(max(distance / speed, 0.060), 1.400)
        return Self.random(distance: distance, duration: duration, random: &random)
    }

    /// A circular arc whose chord is `chord` mm along the heading and whose sagitta is
    /// `sagitta` of it, covered in `duration` seconds.
    public static func arc(chord: Double, sagitta: Double, duration: Double) -> SwipeShape {
        var shape = SwipeShape(distance: chord, duration: duration, slant: 0, bow: 0)
        shape.sagitta = sagitta
        return shape
    }

    /// The hand's displacement from where the motion starts, `seconds` into the motion.
    public func displacement(at seconds: Double, heading: Heading) -> Point {
        let progress = Motion.minimumJerk(seconds / duration)
        if sagitta != 0 {
            let (along, side) = Motion.arc(chord: distance, sagitta: sagitta, progress: progress)
            return heading.vector * along + heading.sideways * side
        }
        let along = distance * progress
        let side = distance * Motion.drift(slant: slant, bow: bow, progress: progress)
        return heading.vector * along + heading.sideways * side
    }

    /// `20mm/300ms`.
    public var label: String { "\(Int(distance.rounded()))mm/\(Int((duration * 1000).rounded()))ms" }
}
