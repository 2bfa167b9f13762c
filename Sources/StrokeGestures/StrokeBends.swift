import RealModule
import TouchGestures

/// How a stroke's own path bends: what tells a straight swipe or drag from a tall, narrow
/// shape that scores almost as well against a straight line (a curly brace, a question
/// mark, a check mark drawn quickly).
///
/// Both are measured on the path simplified (Douglas-Peucker) to within
/// ``StrokeDefaults/bendTolerance`` of its longer side, so that a finger's tremor and a
/// sensor's noise, which turn every millimetre a little, do not add up to a turn.
public struct StrokeBends: Sendable, Equatable {
    /// Degrees the simplified path turns in all, each corner counted whichever way it turns:
    /// about 0 for a straight swipe, 90-110 for one that bows a quarter of its length
    /// sideways, 300 and more for a curly brace or a question mark.
    public let turning: Double
    /// How far the path strays from the straight line through its first and last points at
    /// most, as a fraction of that line's length: 0 for a straight stroke, up to 0.25 for
    /// a bowed swipe, 0.3-0.5 for a check mark; infinite for a stroke that ends where it began.
    public let deviation: Double
    /// Degrees the simplified path turns at its sharpest corner.
    public let sharpestCorner: Double

    /// The bends of `path` (millimetres); nil when it has no extent.
    public init?(_ path: [Point]) {
        guard let first = path.first, let last = path.last else { return nil }
        var low = first, high = first
        for point in path {
            low = Point(x: min(low.x, point.x), y: min(low.y, point.y))
            high = Point(x: max(high.x, point.x), y: max(high.y, point.y))
        }
        let extent = max(high.x - low.x, high.y - low.y)
        guard extent > 0, extent.isFinite else { return nil }
        let simple = StrokeLearner.simplified(path, tolerance: extent * StrokeDefaults.bendTolerance)
        var turning = 0.0
        var sharpest = 0.0
        for index in simple.indices.dropFirst().dropLast() {
            let a = simple[index] - simple[index - 1]
            let b = simple[index + 1] - simple[index]
            let turn = abs(Double.atan2(y: a.x * b.y - a.y * b.x, x: a.x * b.x + a.y * b.y))
            turning += turn
            sharpest = max(sharpest, turn)
        }
        self.turning = turning * 180 / .pi
        sharpestCorner = sharpest * 180 / .pi
        let chord = last - first
        let length = chord.length
        var farthest = 0.0
        for point in path {
            let offset = point - first
            farthest = max(farthest, length > 0 ? abs(chord.x * offset.y - chord.y * offset.x) / length : offset.length)
        }
        deviation = length > 0 ? farthest / length : .infinity
    }

    /// Whether a swipe or a drag could have drawn the path: it turns less than
    /// ``StrokeDefaults/straightTurning`` and strays less than
    /// ``StrokeDefaults/straightDeviation`` from its line. Only such a stroke must beat the
    /// straight line (``StrokeDefaults/straightMargin``) to be a shape.
    public var couldBeStraight: Bool {
        turning < StrokeDefaults.straightTurning && deviation < StrokeDefaults.straightDeviation
            && !(sharpestCorner >= StrokeDefaults.cornerTurn && deviation >= StrokeDefaults.cornerDeviation)
    }
}
