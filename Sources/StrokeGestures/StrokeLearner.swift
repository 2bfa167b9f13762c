import TouchGestures

/// Makes templates from examples of a shape a person drew, says how alike the examples
/// are, and whether the shape is too close to another to be told apart: what `touchgest
/// learn` does, with no rule file or device involved.
public enum StrokeLearner {
    /// Most points of a template made from an example: enough for a circle drawn twice
    /// round, few enough to read.
    public static let maximumTemplatePoints = 24
    /// How far, in the box, the template may stray from the example: 2% of the box, under
    /// the wobble of a finger that draws a 40 mm shape (about 1 mm), so the template keeps
    /// the shape and drops the noise.
    public static let simplification = 0.02

    /// The template an example makes: its path scaled into the box as the matcher scales
    /// strokes (both sides alike, the shorter centred), simplified (Douglas-Peucker) to the
    /// fewest points within ``simplification``, at most ``maximumTemplatePoints``, with
    /// two decimals. Nil for a path with no extent.
    public static func template(from path: [Point]) -> StrokeTemplate? {
        guard let first = path.first else { return nil }
        var low = first
        var high = first
        for point in path {
            low = Point(x: min(low.x, point.x), y: min(low.y, point.y))
            high = Point(x: max(high.x, point.x), y: max(high.y, point.y))
        }
        let longer = max(high.x - low.x, high.y - low.y)
        guard longer > 0, longer.isFinite else { return nil }
        let margin = Point(x: (1 - (high.x - low.x) / longer) / 2, y: (1 - (high.y - low.y) / longer) / 2)
        let boxed = path.map { ($0 - low) / longer + margin }
        var tolerance = simplification
        var kept = simplified(boxed, tolerance: tolerance)
        // A path that needs more points (a scribble) is simplified a quarter more coarsely
        // at a time until it fits.
        while kept.count > maximumTemplatePoints {
            tolerance *= 1.25
            kept = simplified(boxed, tolerance: tolerance)
        }
        let rounded = kept.map { Point(x: roundedToHundredths($0.x), y: roundedToHundredths($0.y)) }
        return try? StrokeTemplate(points: rounded)
    }

    private static func roundedToHundredths(_ value: Double) -> Double {
        min(1, max(0, (value * 100).rounded() / 100))
    }

    /// The Douglas-Peucker simplification of `points`: the first and last, and between
    /// them, recursively, the point farthest from the chord while it is farther than
    /// `tolerance`.
    static func simplified(_ points: [Point], tolerance: Double) -> [Point] {
        guard points.count > 2 else { return points }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var spans = [(0, points.count - 1)]
        while let (first, last) = spans.popLast() {
            guard last - first > 1 else { continue }
            var farthest = first
            var distance = 0.0
            for index in (first + 1)..<last {
                let gap = distanceFromSegment(points[index], points[first], points[last])
                if gap > distance {
                    distance = gap
                    farthest = index
                }
            }
            guard distance > tolerance else { continue }
            keep[farthest] = true
            spans.append((first, farthest))
            spans.append((farthest, last))
        }
        return points.indices.filter { keep[$0] }.map { points[$0] }
    }

    private static func distanceFromSegment(_ point: Point, _ start: Point, _ end: Point) -> Double {
        let along = end - start
        let squared = along.x * along.x + along.y * along.y
        guard squared > 0 else { return point.distance(to: start) }
        let t = min(1, max(0, ((point.x - start.x) * along.x + (point.y - start.y) * along.y) / squared))
        return point.distance(to: start + along * t)
    }

    /// What a set of examples teaches.
    public struct Lesson: Sendable {
        /// The examples the templates come from, by index from 0, in order: all of them,
        /// or the most typical when there are more than a rule may have templates.
        public var kept: [Int]
        /// One template per kept example that has a shape, in order.
        public var templates: [StrokeTemplate]
        /// For each kept example, how close it came to the templates of the other kept
        /// examples: the best score against them (nil with a single example, or one with
        /// no shape).
        public var scores: [Double?]
    }

    /// Templates from `examples` (paths in millimetres), at most `limit` of them, and how
    /// close each example kept comes to the templates of the others: an example that
    /// scores under the threshold there is unlike the rest, and a stroke drawn like it may
    /// not be recognized. With more than `limit` examples, the most typical are kept
    /// (``mostTypical(_:keeping:candidates:)``).
    public static func learn(_ examples: [[Point]], keeping limit: Int = StrokeDefaults.maximumTemplatesPerRule,
                             candidates: Int = StrokeDefaults.learnCandidates) -> Lesson {
        let kept = mostTypical(examples, keeping: limit, candidates: candidates)
        let templates = kept.map { template(from: examples[$0]) }
        let shapes = kept.map { StrokeShape(examples[$0]) }
        let scores = kept.indices.map { index -> Double? in
            guard let shape = shapes[index] else { return nil }
            let others = templates.indices.filter { $0 != index }.compactMap { templates[$0] }
            return StrokeMatcher.best(shape, among: others)?.score
        }
        return Lesson(kept: kept, templates: templates.compactMap { $0 }, scores: scores)
    }

    /// The indices, in order, of the `limit` examples that are most typical: those whose
    /// shapes lie closest on average to the others'. All of them when there are at most
    /// `limit`. Only `candidates` examples, evenly spread over them, are compared (each
    /// with each), so the cost does not grow with the number of examples.
    public static func mostTypical(_ examples: [[Point]], keeping limit: Int, candidates: Int) -> [Int] {
        guard examples.count > limit else { return Array(examples.indices) }
        let count = max(limit, min(candidates, examples.count))
        let spread = (0..<count).map { $0 * examples.count / count }
        let shaped = spread.compactMap { index in StrokeShape(examples[index]).map { (index: index, shape: $0) } }
        var total = [Double](repeating: 0, count: shaped.count)
        for one in shaped.indices {
            for other in shaped.indices where other > one {
                let distance = StrokeMatcher.distance(shaped[one].shape, shaped[other].shape,
                                                      tolerance: StrokeDefaults.rotationTolerance)
                total[one] += distance
                total[other] += distance
            }
        }
        let typical = shaped.indices.sorted { (total[$0], shaped[$0].index) < (total[$1], shaped[$1].index) }
        return typical.prefix(limit).map { shaped[$0].index }.sorted()
    }

    /// A drawing of one shape that would be taken for another.
    public struct Confusion: Sendable, Equatable {
        /// Whether the drawing is one of the new examples (else a template of the other rule).
        public var isExample: Bool
        /// The drawing's index from 0: among the examples kept, or the other rule's templates.
        public var drawing: Int
        /// Its best score against the other shape's templates.
        public var rival: Double
        /// Its best score against its own shape's templates, its own left out (against its
        /// own template when it is its shape's only drawing).
        public var own: Double
    }

    /// The drawings of each of two shapes that would be taken for the other, each drawing
    /// judged against its own shape's templates with its own left out (leave-one-out, the
    /// way a new drawing meets the templates): one whose best template is the other
    /// shape's, at that shape's threshold or above, would fire the other rule.
    /// `examples` are the drawings `templates` were made of, in order (nil for one with no
    /// shape); the other shape's drawings are its templates, its only record of them.
    /// Closeness alone says little: a circle and a triangle drawn by one hand come 0.8
    /// near each other, yet their drawings are each nearer their own.
    public static func confusions(examples: [StrokeShape?], templates: [StrokeTemplate], threshold: Double,
                                  other: [StrokeTemplate], otherThreshold: Double) -> [Confusion] {
        func judge(_ drawing: StrokeShape, index: Int, home: [StrokeTemplate], homeThreshold: Double,
                   away: [StrokeTemplate], awayThreshold: Double, isExample: Bool) -> Confusion? {
            guard let rival = StrokeMatcher.best(drawing, among: away)?.score, rival >= awayThreshold else { return nil }
            let others = home.count > 1 ? home.indices.filter { $0 != index }.map { home[$0] } : home
            let own = StrokeMatcher.best(drawing, among: others)?.score ?? 0
            return rival > own ? Confusion(isExample: isExample, drawing: index, rival: rival, own: own) : nil
        }
        var found: [Confusion] = []
        for (index, example) in examples.enumerated() {
            guard let example, index < templates.count else { continue }
            if let confusion = judge(example, index: index, home: templates, homeThreshold: threshold,
                                     away: other, awayThreshold: otherThreshold, isExample: true) { found.append(confusion) }
        }
        for (index, template) in other.enumerated() {
            if let confusion = judge(template.shape, index: index, home: other, homeThreshold: otherThreshold,
                                     away: templates, awayThreshold: threshold, isExample: false) { found.append(confusion) }
        }
        return found
    }

    /// How close two shapes come: the best score any template of one reaches against the
    /// other's, either way round (0 when either has none). A score at or above the lower
    /// of their thresholds means a stroke of one can be recognized as the other.
    public static func closeness(_ one: [StrokeTemplate], _ other: [StrokeTemplate]) -> Double {
        var best = 0.0
        for (shapes, templates) in [(one, other), (other, one)] {
            for template in shapes {
                if let match = StrokeMatcher.best(template.shape, among: templates) { best = max(best, match.score) }
            }
        }
        return best
    }
}
