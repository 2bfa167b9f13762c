import Glibc
import TouchGestures

/// The shapes the stroke corpus draws: what people bind to commands (a circle to lock, a
/// V for the volume, an S for a screenshot, a check mark to confirm), with the pairs that
/// differ only in direction (down-up and up-down, left-right and right-left, clockwise and
/// counterclockwise circles), which a matcher that ignores order cannot tell apart.
///
/// Each is its ideal path in a unit box, y growing downward, in drawing order.
public enum DrawnShape: String, CaseIterable, Sendable {
    case circleClockwise = "circle-cw"
    case circleCounterclockwise = "circle-ccw"
    case downUp = "down-up"
    case upDown = "up-down"
    case leftRight = "left-right"
    case rightLeft = "right-left"
    case v
    case caret
    case check
    case z
    case s
    case l
    case w
    case triangle
    case rectangle

    /// How the hand draws it: corners as separate reaches, or one smooth movement.
    public enum Path: Sendable {
        /// Straight strokes between corners, each a reach of its own.
        case corners([Point])
        /// One smooth curve, `point(u)` for u from 0 to 1 (and a little beyond, for a
        /// closed curve drawn past its start).
        case curve(@Sendable (Double) -> Point)
    }

    /// Whether the path ends where it began: people close it loosely.
    public var isClosed: Bool {
        switch self {
        case .circleClockwise, .circleCounterclockwise, .triangle, .rectangle: true
        default: false
        }
    }

    /// The ideal path.
    public var path: Path {
        @Sendable func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }
        switch self {
        case .circleClockwise:
            // From the top, turning right first: on a surface whose y grows down, a growing
            // angle turns clockwise.
            return .curve { u in
                let angle = -Double.pi / 2 + 2 * .pi * u
                return p(0.5 + 0.5 * cos(angle), 0.5 + 0.5 * sin(angle))
            }
        case .circleCounterclockwise:
            return .curve { u in
                let angle = -Double.pi / 2 - 2 * .pi * u
                return p(0.5 + 0.5 * cos(angle), 0.5 + 0.5 * sin(angle))
            }
        case .downUp: return .corners([p(0.5, 0), p(0.5, 1), p(0.5, 0)])
        case .upDown: return .corners([p(0.5, 1), p(0.5, 0), p(0.5, 1)])
        case .leftRight: return .corners([p(1, 0.5), p(0, 0.5), p(1, 0.5)])
        case .rightLeft: return .corners([p(0, 0.5), p(1, 0.5), p(0, 0.5)])
        case .v: return .corners([p(0, 0), p(0.5, 1), p(1, 0)])
        case .caret: return .corners([p(0, 1), p(0.5, 0), p(1, 1)])
        case .check: return .corners([p(0, 0.55), p(0.3, 1), p(1, 0)])
        case .z: return .corners([p(0, 0), p(1, 0), p(0, 1), p(1, 1)])
        case .l: return .corners([p(0, 0), p(0, 1), p(0.7, 1)])
        case .w: return .corners([p(0, 0), p(0.25, 1), p(0.5, 0.25), p(0.75, 1), p(1, 0)])
        case .triangle: return .corners([p(0.5, 0), p(1, 1), p(0, 1), p(0.5, 0)])
        case .rectangle: return .corners([p(0, 0), p(1, 0), p(1, 1), p(0, 1), p(0, 0)])
        case .s:
            // From the top right: left round the upper bowl, then right round the lower one.
            return .curve { u in
                if u < 0.5 {
                    let angle = -Double.pi / 4 - (5 * Double.pi / 4) * (u / 0.5)
                    return p(0.5 + 0.45 * cos(angle), 0.25 + 0.25 * sin(angle))
                }
                let angle = -Double.pi / 2 + (5 * Double.pi / 4) * ((u - 0.5) / 0.5)
                return p(0.5 + 0.45 * cos(angle), 0.75 + 0.25 * sin(angle))
            }
        }
    }
}
