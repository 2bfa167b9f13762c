import Glibc
import TouchGestures

/// The shapes the stroke corpus draws: what people bind to commands (a circle to lock, a
/// V for the volume, an S for a screenshot, a check mark to confirm), with the pairs that
/// differ only in direction (down-up and up-down, left-right and right-left, clockwise and
/// counterclockwise circles), which a matcher that ignores order cannot tell apart.
///
/// Each is its ideal path in a unit box, y growing downward, in drawing order; a tall,
/// narrow shape's box is drawn ``aspect`` times as wide as it is tall.
///
/// The shapes after the first fifteen (``everyday``) came with issue 40: curly braces, the
/// tall, narrow shapes that real drawings showed score almost as well against a line.
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
    case braceLeft = "brace-left"
    case braceRight = "brace-right"

    /// The first corpus's fifteen shapes, in its order: their drawings and rules stay as they
    /// were when shapes are added.
    public static let everyday = Array(allCases.prefix(15))

    /// The tall, narrow shapes.
    public static let tall: [DrawnShape] = [.braceLeft, .braceRight]

    /// The ideal box's width over its height: 1 but for tall, narrow shapes. Real curly
    /// braces (the $1 logs, 480 drawings) are 0.26-0.54 as wide as tall, median 0.39.
    public var aspect: Double {
        switch self {
        case .braceLeft, .braceRight: 0.39
        default: 1
        }
    }

    /// How the hand draws it: corners as separate reaches, or one smooth movement.
    public enum Path: Sendable {
        /// Straight strokes between corners, each a reach of its own.
        case corners([Point])
        /// One smooth curve, `point(u)` for u from 0 to 1 (and a little beyond, for a
        /// closed curve drawn past its start).
        case curve(@Sendable (Double) -> Point)
        /// Smooth curves one after another, each a movement of its own that stops where
        /// the next begins: a cusp, where a hand slows to a stop and turns back (the
        /// two-thirds power law: speed falls with curvature).
        case curves([@Sendable (Double) -> Point])
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
        // Down to the point in the middle, then on from it.
        case .braceLeft: return .curves([{ u in Self.brace(u / 2) }, { u in Self.brace(0.5 + u / 2) }])
        case .braceRight:
            @Sendable func mirrored(_ point: Point) -> Point { p(1 - point.x, point.y) }
            return .curves([{ u in mirrored(Self.brace(u / 2)) }, { u in mirrored(Self.brace(0.5 + u / 2)) }])
        }
    }

    /// A left curly brace from its top right to its bottom right: a quarter turn into the
    /// stem, down to the point at the middle and back, down, and a quarter turn out; six
    /// pieces of equal share of `u`. The turns are quarter ellipses half the box wide and
    /// 0.12 of it tall, about round in a box 0.39 as wide as tall.
    static func brace(_ u: Double) -> Point {
        let radius = (x: 0.5, y: 0.12)
        let piece = min(max(u, 0), 1) * 6
        let index = min(Int(piece), 5)
        let f = piece - Double(index)
        func turn(_ cx: Double, _ cy: Double, from a: Double, to b: Double) -> Point {
            let angle = (a + (b - a) * f) * .pi / 180
            return Point(x: cx + radius.x * cos(angle), y: cy + radius.y * sin(angle))
        }
        switch index {
        case 0: return turn(1, radius.y, from: -90, to: -180)
        case 1: return Point(x: 0.5, y: radius.y + (0.5 - 2 * radius.y) * f)
        case 2: return turn(0, 0.5 - radius.y, from: 0, to: 90)
        case 3: return turn(0, 0.5 + radius.y, from: -90, to: 0)
        case 4: return Point(x: 0.5, y: 0.5 + radius.y + (0.5 - 2 * radius.y) * f)
        default: return turn(1, 1 - radius.y, from: 180, to: 90)
        }
    }
}
