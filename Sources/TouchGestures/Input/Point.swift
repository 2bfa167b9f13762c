/// A point or displacement on a touch surface. Units depend on the coordinate space:
/// millimetres, or 0...1 of the surface's width and height. `y` grows downward.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    /// Makes a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin, or no displacement.
    public static let zero = Point(x: 0, y: 0)

    /// The length of the displacement from the origin.
    public var length: Double { (x * x + y * y).squareRoot() }

    /// The straight-line distance to `other`.
    public func distance(to other: Point) -> Double { (self - other).length }

    public static func + (lhs: Point, rhs: Point) -> Point { Point(x: lhs.x + rhs.x, y: lhs.y + rhs.y) }
    public static func - (lhs: Point, rhs: Point) -> Point { Point(x: lhs.x - rhs.x, y: lhs.y - rhs.y) }
    public static func * (lhs: Point, rhs: Double) -> Point { Point(x: lhs.x * rhs, y: lhs.y * rhs) }
    public static func / (lhs: Point, rhs: Double) -> Point { Point(x: lhs.x / rhs, y: lhs.y / rhs) }
    public static func += (lhs: inout Point, rhs: Point) { lhs = lhs + rhs }

    /// `x,y` with one decimal, e.g. `10.0,12.5`.
    public var description: String { "\(fixedDecimals(x, 1)),\(fixedDecimals(y, 1))" }
}

/// The size of a touch surface in millimetres.
public struct Size: Hashable, Sendable {
    public var width: Double
    public var height: Double

    /// Makes a size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// Where a location is measured.
public enum CoordinateSpace: Hashable, Sendable {
    /// Millimetres from the surface's top-left corner (touchpad gestures: from where the
    /// gesture began, since libinput reports only deltas for them).
    case millimetres
    /// Fractions 0...1 of the surface's width and height (touchscreens only; touchpad
    /// gestures have no absolute position and report millimetres here too).
    case normalized
}
