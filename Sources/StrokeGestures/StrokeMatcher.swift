import RealModule
import TouchGestures

/// Compares prepared strokes with templates: the $1 recognizer's path distance, with the
/// directions of the steps counted beside it, searched over a small turn either way, and
/// its score.
public enum StrokeMatcher {
    /// Half the diagonal of the unit box: the $1 recognizer's yardstick for its score.
    static let halfDiagonal = 0.5 * 2.0.squareRoot()

    /// The score of a path distance: 1 for a perfect match, 0 at half the box's diagonal
    /// apart on average, and never below 0. The $1 recognizer's score.
    public static func score(distance: Double) -> Double {
        max(0, 1 - distance / halfDiagonal)
    }

    /// The best match of `shape` among `templates`: the template's index and its score;
    /// nil when there is no template.
    public static func best(_ shape: StrokeShape, among templates: [StrokeTemplate],
                            tolerance: Double = StrokeDefaults.rotationTolerance) -> (template: Int, score: Double)? {
        var best: (template: Int, score: Double)?
        for (index, template) in templates.enumerated() {
            let score = score(distance: distance(shape, template.shape, tolerance: tolerance))
            if score > best?.score ?? -1 { best = (index, score) }
        }
        return best
    }

    /// The second look at two rules whose closest templates score alike
    /// (``StrokeDefaults/secondLookLead``): whether `shape` lies clearly nearer `second`'s
    /// templates than `first`'s where the two rules' shapes differ (under
    /// ``StrokeDefaults/secondLookRatio`` of the distance). Each point along the path counts by
    /// the squared distance between the two rules' mean shapes there (their templates'
    /// corresponding points averaged), so that the places both shapes share, and a
    /// drawing's wobble in them, weigh little; each rule is as near as its nearest template
    /// by that weighted sum of squared distances. The path is compared as drawn, not turned:
    /// turning it let it fit both.
    public static func prefersSecond(_ shape: StrokeShape, first: [StrokeTemplate], second: [StrokeTemplate]) -> Bool {
        secondLookRatio(shape, first: first, second: second) < StrokeDefaults.secondLookRatio
    }

    /// How far `shape` lies from `second`'s nearest template where the two rules differ,
    /// as a share of how far from `first`'s. Infinity (the first stays first) when either
    /// rule has no template, a shape has another number of points, or `shape` lies on a
    /// template of `first` where they differ (as when the two rules' mean shapes are the same).
    public static func secondLookRatio(_ shape: StrokeShape, first: [StrokeTemplate], second: [StrokeTemplate]) -> Double {
        let count = shape.points.count
        guard !first.isEmpty, !second.isEmpty,
              (first + second).allSatisfy({ $0.shape.points.count == count }) else { return .infinity }
        func mean(_ templates: [StrokeTemplate], _ index: Int) -> Point {
            templates.reduce(Point.zero) { $0 + $1.shape.points[index] } / Double(templates.count)
        }
        let weights = (0..<count).map { index -> Double in
            let gap = mean(first, index) - mean(second, index)
            return gap.x * gap.x + gap.y * gap.y
        }
        func nearest(_ templates: [StrokeTemplate]) -> Double {
            templates.map { template in
                var total = 0.0
                for index in 0..<count {
                    let d = shape.points[index] - template.shape.points[index]
                    total += weights[index] * (d.x * d.x + d.y * d.y)
                }
                return total
            }.min()!
        }
        let away = nearest(first)
        return away > 0 ? nearest(second) / away : .infinity
    }

    /// The threshold of a rule whose file gives none: what a new drawing of the shape can
    /// be expected to score, judged from how far apart the rule's own templates are. Each
    /// template is scored against the others (leave-one-out, as a new drawing meets them);
    /// the lowest of those, less ``StrokeDefaults/adaptiveMargin``, kept between
    /// ``StrokeDefaults/adaptiveFloor`` and `ceiling`. A single template says nothing of how
    /// a person's drawings vary: ``StrokeDefaults/adaptiveFloor``.
    public static func adaptiveThreshold(for templates: [StrokeTemplate], ceiling: Double = StrokeDefaults.threshold) -> Double {
        guard templates.count > 1 else { return min(ceiling, StrokeDefaults.adaptiveFloor) }
        var lowest = 1.0
        for index in templates.indices {
            let others = templates.indices.filter { $0 != index }.map { templates[$0] }
            lowest = min(lowest, best(templates[index].shape, among: others)?.score ?? 1)
        }
        return min(ceiling, StrokeDefaults.adaptiveCeiling, max(StrokeDefaults.adaptiveFloor, lowest - StrokeDefaults.adaptiveMargin))
    }

    /// How close `shape`, made of `path`, comes to the straight line from the path's first
    /// point to its last: the score that line would have as a template (0 when the two
    /// points coincide, as a closed shape's do).
    public static func straightness(of path: [Point], shape: StrokeShape,
                                    tolerance: Double = StrokeDefaults.rotationTolerance) -> Double {
        guard let first = path.first, let last = path.last, let line = StrokeShape([first, last]) else { return 0 }
        return score(distance: distance(shape, line, tolerance: tolerance))
    }

    /// How far `candidate`, turned about the origin by the angle (within `tolerance`
    /// degrees either way) that brings it closest to `template`, lies from `template`: the
    /// average distance between corresponding points, plus
    /// ``StrokeDefaults/directionWeight`` times the average angle between corresponding
    /// steps (a fraction of a half turn), over ``StrokeDefaults/directionScale``. The $1
    /// recognizer's golden-section search, over a narrower range and without turning to a
    /// common angle first.
    public static func distance(_ candidate: StrokeShape, _ template: StrokeShape, tolerance: Double) -> Double {
        let phi = 0.5 * (5.0.squareRoot() - 1)
        let precision = StrokeDefaults.rotationPrecision * .pi / 180
        func measure(_ angle: Double) -> Double {
            (turnedDistance(candidate.points, template.points, angle: angle)
                + StrokeDefaults.directionWeight * directionalDistance(candidate.headings, template.headings, angle: angle))
                / StrokeDefaults.directionScale
        }
        var low = -tolerance * .pi / 180
        var high = -low
        var left = phi * low + (1 - phi) * high
        var right = (1 - phi) * low + phi * high
        var leftDistance = measure(left)
        var rightDistance = measure(right)
        while high - low > precision {
            if leftDistance < rightDistance {
                high = right
                right = left
                rightDistance = leftDistance
                left = phi * low + (1 - phi) * high
                leftDistance = measure(left)
            } else {
                low = left
                left = right
                leftDistance = rightDistance
                right = (1 - phi) * low + phi * high
                rightDistance = measure(right)
            }
        }
        return min(leftDistance, rightDistance)
    }

    /// The mean angle between the steps of the candidate turned by `angle` radians
    /// (`candidate` its steps' headings) and the template's, as a fraction of a half turn.
    static func directionalDistance(_ candidate: [Double], _ template: [Double], angle: Double) -> Double {
        let count = min(candidate.count, template.count)
        guard count > 0 else { return 0 }
        var total = 0.0
        candidate.withUnsafeBufferPointer { a in
            template.withUnsafeBufferPointer { b in
                for index in 0..<count {
                    var difference = b[index] - a[index] - angle
                    while difference > .pi { difference -= 2 * .pi }
                    while difference < -.pi { difference += 2 * .pi }
                    total += abs(difference)
                }
            }
        }
        return total / Double(count) / .pi
    }

    /// The average point distance with `candidate` turned by `angle` radians.
    static func turnedDistance(_ candidate: [Point], _ template: [Point], angle: Double) -> Double {
        let cosine = Double.cos(angle)
        let sine = Double.sin(angle)
        var total = 0.0
        let count = min(candidate.count, template.count)
        candidate.withUnsafeBufferPointer { a in
            template.withUnsafeBufferPointer { b in
                for index in 0..<count {
                    let dx = a[index].x * cosine - a[index].y * sine - b[index].x
                    let dy = a[index].x * sine + a[index].y * cosine - b[index].y
                    total += (dx * dx + dy * dy).squareRoot()
                }
            }
        }
        return total / Double(count)
    }

    /// The best score the path so far (`partial`, prepared with
    /// ``StrokeDefaults/prefixPoints``) reaches against any part of any template that
    /// begins where the template begins: how well it could still become one of them.
    ///
    /// The turn is the one that brings the points closest in the least-squares sense,
    /// kept within `tolerance`: a formula, not a search, since this runs while the
    /// fingers move.
    public static func bestPrefixScore(_ partial: StrokeShape, among templates: [StrokeTemplate],
                                       tolerance: Double = StrokeDefaults.rotationTolerance) -> Double {
        let limit = tolerance * .pi / 180
        var best = 0.0
        for template in templates {
            for prefix in template.prefixes {
                var dot = 0.0
                var cross = 0.0
                for (a, b) in zip(partial.points, prefix.points) {
                    dot += a.x * b.x + a.y * b.y
                    cross += a.x * b.y - a.y * b.x
                }
                let angle = min(limit, max(-limit, Double.atan2(y: cross, x: dot)))
                best = max(best, score(distance: turnedDistance(partial.points, prefix.points, angle: angle)))
            }
        }
        return best
    }
}
