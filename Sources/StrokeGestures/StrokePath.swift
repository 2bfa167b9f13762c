import TouchGestures

/// The path of a stroke as drawn: where the centroid of its fingers went, in millimetres
/// on the surface, from the frame in which all of them were down.
public struct StrokePath: Sendable, Equatable {
    /// The centroid's positions, at least ``StrokeDefaults/pointSpacing`` apart.
    public private(set) var points: [Point] = []
    /// Millimetres along the path.
    public private(set) var length = 0.0
    /// When all the fingers were down and the path began.
    public private(set) var start: Timestamp
    /// The input's clock at the last point.
    public private(set) var end: Timestamp
    private var low = Point.zero
    private var high = Point.zero

    /// A path that begins at `point` at `time`.
    public init(at point: Point, time: Timestamp) {
        points = [point]
        start = time
        end = time
        low = point
        high = point
    }

    /// A path through `points`, as a recording or a generator gives one.
    public init(_ points: [Point], start: Timestamp = Timestamp(microseconds: 0)) {
        self.init(at: points.first ?? .zero, time: start)
        for point in points.dropFirst() { add(point, at: start) }
    }

    /// Millimetres the path's bounding box spans on its longer side.
    public var size: Double { max(high.x - low.x, high.y - low.y) }

    /// Adds the centroid's next position, unless it is within
    /// ``StrokeDefaults/pointSpacing`` of the last one kept.
    public mutating func add(_ point: Point, at time: Timestamp) {
        end = time
        let last = points[points.count - 1]
        let step = last.distance(to: point)
        guard step >= StrokeDefaults.pointSpacing, step.isFinite else { return }
        if points.count == StrokeDefaults.maximumPathPoints {
            // Every other point goes: the path keeps its shape at half the detail.
            points = points.enumerated().filter { $0.offset % 2 == 0 || $0.offset == points.count - 1 }.map(\.element)
        }
        points.append(point)
        length += step
        low = Point(x: min(low.x, point.x), y: min(low.y, point.y))
        high = Point(x: max(high.x, point.x), y: max(high.y, point.y))
    }
}
