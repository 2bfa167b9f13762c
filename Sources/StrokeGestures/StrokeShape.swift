import RealModule
import TouchGestures

/// A path made ready for comparison, as the $1 recognizer prepares it (Wobbrock, Wilson
/// and Li, UIST 2007): resampled to points evenly spaced along it, its centroid moved to
/// the origin, scaled. Unlike $1 it is not turned to a common angle, so it keeps its
/// direction, and it is scaled by its spread, not its box (see ``scaled(_:)``).
public struct StrokeShape: Sendable, Equatable {
    /// The prepared points, `count` of them, centred on the origin, ``radius`` from it on average.
    public let points: [Point]
    /// The direction of each step from one point to the next, in radians: what
    /// ``StrokeMatcher`` compares beside the points, worked out once.
    public let headings: [Double]

    /// Prepares `path` with `count` points; nil when the path has no length (fewer than two
    /// distinct points).
    public init?(_ path: [Point], count: Int = StrokeDefaults.resampledPoints) {
        guard count >= 2, let resampled = Self.resample(path, count: count) else { return nil }
        points = Self.scaled(Self.centred(resampled))
        // A step of no length (the end standing in for points rounding left short) keeps
        // the heading before it.
        var headings: [Double] = []
        headings.reserveCapacity(points.count - 1)
        for index in points.indices.dropFirst() {
            let step = points[index] - points[index - 1]
            headings.append(step == .zero ? headings.last ?? 0 : Double.atan2(y: step.y, x: step.x))
        }
        self.headings = headings
    }

    /// The length of the polyline through `points`.
    public static func length(_ points: [Point]) -> Double {
        var total = 0.0
        for index in points.indices.dropFirst() { total += points[index - 1].distance(to: points[index]) }
        return total
    }

    /// `count` points evenly spaced along the polyline, from its first point to its last;
    /// nil when it has no length. $1's step 1, walking the path without copying it.
    static func resample(_ path: [Point], count: Int) -> [Point]? {
        let total = length(path)
        guard total > 0, total.isFinite else { return nil }
        let interval = total / Double(count - 1)
        var result: [Point] = [path[0]]
        result.reserveCapacity(count)
        var travelled = 0.0
        var previous = path[0]
        var index = 1
        while index < path.count && result.count < count - 1 {
            let next = path[index]
            let gap = previous.distance(to: next)
            if gap > 0 && travelled + gap >= interval {
                let point = previous + (next - previous) * ((interval - travelled) / gap)
                result.append(point)
                previous = point
                travelled = 0
            } else {
                travelled += gap
                previous = next
                index += 1
            }
        }
        // Rounding can leave the last point or two short: the path's end stands in for them.
        while result.count < count { result.append(path[path.count - 1]) }
        return result
    }

    /// The average distance from the centroid of a shape scaled into the unit box: what
    /// every prepared stroke is scaled to, so that scores keep the meaning of $1's.
    static let radius = 0.4

    /// Scales the points, centred, both sides alike, so that their root-mean-square
    /// distance from the centroid is ``radius`` ($1's step 3, made uniform and blind to
    /// turning, as Protractor's). $1 scales each side of the box by its own extent; that
    /// blows a straight stroke's wobble up into a shape and turns a line drawn 12 degrees
    /// askew into one 30 degrees askew, which confused down-up with left-right on the
    /// corpus; and a box grows as its shape turns, so a turned stroke would be scaled
    /// unlike its template. A person's wider or narrower drawing of a shape is what
    /// several templates are for.
    static func scaled(_ points: [Point]) -> [Point] {
        var sum = 0.0
        for point in points { sum += point.x * point.x + point.y * point.y }
        let rms = (sum / Double(points.count)).squareRoot()
        guard rms > 0, rms.isFinite else { return points }
        return points.map { $0 * (radius / rms) }
    }

    /// The points moved so that their centroid is the origin ($1's step 4, done first here).
    static func centred(_ points: [Point]) -> [Point] {
        var sum = Point.zero
        for point in points { sum += point }
        let centroid = sum / Double(points.count)
        return points.map { $0 - centroid }
    }
}
