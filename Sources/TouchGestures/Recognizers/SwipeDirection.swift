import RealModule

/// The directions a swipe may go: the four of UIKit and the four diagonals.
public struct SwipeDirection: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let right = SwipeDirection(rawValue: 1 << 0)
    public static let left = SwipeDirection(rawValue: 1 << 1)
    public static let up = SwipeDirection(rawValue: 1 << 2)
    public static let down = SwipeDirection(rawValue: 1 << 3)
    public static let upRight = SwipeDirection(rawValue: 1 << 4)
    public static let upLeft = SwipeDirection(rawValue: 1 << 5)
    public static let downRight = SwipeDirection(rawValue: 1 << 6)
    public static let downLeft = SwipeDirection(rawValue: 1 << 7)

    /// Up, down, left and right.
    public static let cardinal: SwipeDirection = [.right, .left, .up, .down]
    /// The four diagonals.
    public static let diagonal: SwipeDirection = [.upRight, .upLeft, .downRight, .downLeft]
    /// All eight.
    public static let all: SwipeDirection = [.cardinal, .diagonal]

    /// The single directions with their names, counter-clockwise from right.
    public static let named: [(name: String, direction: SwipeDirection)] = [
        ("right", .right), ("up-right", .upRight), ("up", .up), ("up-left", .upLeft),
        ("left", .left), ("down-left", .downLeft), ("down", .down), ("down-right", .downRight),
    ]

    /// The direction of a displacement (`y` grows downward). With `diagonals`, each of
    /// the eight directions owns 45 degrees (22.5 either side); without, each of the
    /// four owns 90 degrees.
    public static func of(_ displacement: Point, diagonals: Bool) -> SwipeDirection {
        let degrees = Double.atan2(y: -displacement.y, x: displacement.x) * 180 / .pi
        if diagonals {
            let sector = (Int((degrees / 45).rounded()) + 8) % 8
            return named[sector].direction
        }
        let sector = (Int((degrees / 90).rounded()) + 4) % 4
        return [SwipeDirection.right, .up, .left, .down][sector]
    }

    /// Degrees each direction owns: 90 of the four, 45 of the eight.
    static func sectorDegrees(diagonals: Bool) -> Double {
        diagonals ? 360.0 / 8 : 360.0 / 4
    }

    /// Whether `displacement` points within `margin` degrees of a boundary between two
    /// directions: 45 degrees and its quarter turns without diagonals, 22.5 degrees and its
    /// eighths with them.
    static func isNearBoundary(_ displacement: Point, diagonals: Bool, margin: Double) -> Bool {
        let width = sectorDegrees(diagonals: diagonals)
        let degrees = Double.atan2(y: -displacement.y, x: displacement.x) * 180 / .pi
        let fromCentre = abs(degrees - (degrees / width).rounded() * width)
        return fromCentre >= width / 2 - margin
    }

    /// Degrees between the directions of two displacements, 0...180.
    static func degrees(between a: Point, and b: Point) -> Double {
        var turn = abs(Double.atan2(y: a.y, x: a.x) - Double.atan2(y: b.y, x: b.x)) * 180 / .pi
        if turn > 180 { turn = 360 - turn }
        return turn
    }

    /// Names joined by `,`, e.g. `left,up-right`.
    public var description: String {
        Self.named.filter { contains($0.direction) }.map(\.name).joined(separator: ",")
    }
}
