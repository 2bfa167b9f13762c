import RealModule
import TouchGestures

/// Compares prepared strokes with templates: the $1 recognizer's path distance, with the
/// directions of the steps counted beside it and each point let pair with a near one of
/// the other path, searched over a small turn either way, and its score.
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
        adaptiveThreshold(lowestAgreement: lowestAgreement(of: templates), ceiling: ceiling)
    }

    /// ``adaptiveThreshold(for:ceiling:)`` from the lowest score of a template against the
    /// others (``lowestAgreement(of:)``), which a rule keeps once its templates are read.
    public static func adaptiveThreshold(lowestAgreement lowest: Double?, ceiling: Double = StrokeDefaults.threshold) -> Double {
        guard let lowest else { return min(ceiling, StrokeDefaults.adaptiveFloor) }
        return min(ceiling, StrokeDefaults.adaptiveCeiling, max(StrokeDefaults.adaptiveFloor, lowest - StrokeDefaults.adaptiveMargin))
    }

    /// The lowest score of any of `templates` against the others (leave-one-out); nil for
    /// fewer than two, which say nothing of how a person's drawings vary.
    public static func lowestAgreement(of templates: [StrokeTemplate]) -> Double? {
        guard templates.count > 1 else { return nil }
        var lowest = 1.0
        for index in templates.indices {
            let others = templates.indices.filter { $0 != index }.map { templates[$0] }
            lowest = min(lowest, best(templates[index].shape, among: others)?.score ?? 1)
        }
        return lowest
    }

    /// How close `shape`, made of `path`, comes to the straight line from the path's first
    /// point to its last: the score that line would have as a template, with points paired
    /// in order (``pairedScore(_:among:tolerance:)``; 0 when the two points coincide, as a
    /// closed shape's do).
    public static func straightness(of path: [Point], shape: StrokeShape,
                                    tolerance: Double = StrokeDefaults.rotationTolerance) -> Double {
        guard let first = path.first, let last = path.last, let line = StrokeShape([first, last]) else { return 0 }
        return score(distance: distance(shape, line, tolerance: tolerance, warped: false))
    }

    /// The best score of `templates` for `shape` with each point paired with the
    /// template's of the same index, not warped (0 with no template): what a rule is held
    /// to against the straight line. Warping lets a template bend to fit a bowed swipe,
    /// where a line, straight all along, gains nothing from it; on the gesture corpus,
    /// swipes bowed by 30% of their length came 0.052 nearer a curly brace than their
    /// line, warped (issue 40).
    public static func pairedScore(_ shape: StrokeShape, among templates: [StrokeTemplate],
                                   tolerance: Double = StrokeDefaults.rotationTolerance) -> Double {
        templates.map { score(distance: distance(shape, $0.shape, tolerance: tolerance, warped: false)) }.max() ?? 0
    }

    /// How far `candidate`, turned about the origin by the angle (within `tolerance`
    /// degrees either way) that brings it closest to `template`, lies from `template`
    /// (``warpedDistance(_:_:angle:band:)``), over ``StrokeDefaults/directionScale``.
    ///
    /// The turn is the one that brings the points, paired by index, closest in the
    /// least-squares sense (Protractor's closed form), kept within `tolerance`; the pairing
    /// is warped once, at that turn. The $1 recognizer's golden-section search for the turn
    /// cost ten comparisons a template, and warping at every step of it eight times as
    /// much, for 0.0-0.2 points of real drawings (`StrokeStudy`, issue 40). `warped` false
    /// leaves the pairing by index.
    public static func distance(_ candidate: StrokeShape, _ template: StrokeShape, tolerance: Double, warped: Bool = true) -> Double {
        let angle = bestTurn(candidate.points, template.points, tolerance: tolerance)
        let distance = warped ? warpedDistance(candidate, template, angle: angle) : pairedDistance(candidate, template, angle: angle)
        return distance / StrokeDefaults.directionScale
    }

    /// The turn, in radians and within `tolerance` degrees either way, that brings
    /// `candidate`'s points closest to `template`'s paired by index, in the least-squares
    /// sense: a formula, not a search.
    static func bestTurn(_ candidate: [Point], _ template: [Point], tolerance: Double) -> Double {
        let limit = tolerance * .pi / 180
        var dot = 0.0
        var cross = 0.0
        // Buffers, as in the distances: this runs for every part of every template at
        // every check while the fingers move (a zip of the arrays was half the stroke
        // corpus's time in a debug build).
        candidate.withUnsafeBufferPointer { a in
            template.withUnsafeBufferPointer { b in
                for index in 0..<min(a.count, b.count) {
                    dot += a[index].x * b[index].x + a[index].y * b[index].y
                    cross += a[index].x * b[index].y - a[index].y * b[index].x
                }
            }
        }
        return min(limit, max(-limit, Double.atan2(y: cross, x: dot)))
    }

    /// How far `candidate`, turned by `angle` radians, lies from `template` with each point
    /// paired with the template's of the same index: ``warpedDistance(_:_:angle:band:)``
    /// within no band. What finds the turn.
    static func pairedDistance(_ candidate: StrokeShape, _ template: StrokeShape, angle: Double) -> Double {
        warpedDistance(candidate, template, angle: angle, band: 0)
    }

    /// How far `candidate`, turned by `angle` radians, lies from `template` when each
    /// point may be paired with one up to `band` (``StrokeDefaults/warpBand``) places ahead or behind
    /// (dynamic time warping within a band): the least total, over a pairing that keeps
    /// both paths' order, of the distance between paired points plus
    /// ``StrokeDefaults/directionWeight`` times the angle between the steps into them (a
    /// fraction of a half turn), over the number of points. People draw a part of a shape
    /// a little longer or shorter each time (a check mark's first arm, a brace's point);
    /// paired by index alone, every point after that part is off by the difference.
    static func warpedDistance(_ candidate: StrokeShape, _ template: StrokeShape, angle: Double,
                               band: Int = StrokeDefaults.warpBand) -> Double {
        let count = min(candidate.points.count, template.points.count)
        guard count > 0 else { return 0 }
        let band = max(0, band)
        let weight = StrokeDefaults.directionWeight / .pi
        let cosine = Double.cos(angle)
        let sine = Double.sin(angle)
        // This runs for every template at every lift and, in `learn`, for every pair of
        // drawings and templates: buffers, not arrays, so that it allocates nothing.
        return candidate.points.withUnsafeBufferPointer { a in
            candidate.headings.withUnsafeBufferPointer { aHeadings in
                template.points.withUnsafeBufferPointer { b in
                    template.headings.withUnsafeBufferPointer { bHeadings in
                        // The cost of pairing the candidate's point i with the template's
                        // point j: the heading into each point, the first point's its step
                        // out (a shape has two points at least, so one step).
                        func cost(_ i: Int, _ j: Int) -> Double {
                            let point = a[i]
                            let dx = point.x * cosine - point.y * sine - b[j].x
                            let dy = point.x * sine + point.y * cosine - b[j].y
                            // Headings lie within half a turn of 0, the candidate's turned by the angle.
                            var difference = abs(aHeadings[max(0, i - 1)] + angle - bHeadings[max(0, j - 1)])
                            while difference > 2 * .pi { difference -= 2 * .pi }
                            if difference > .pi { difference = 2 * .pi - difference }
                            return (dx * dx + dy * dy).squareRoot() + weight * difference
                        }
                        if band == 0 {
                            var total = 0.0
                            for index in 0..<count { total += cost(index, index) }
                            return total / Double(count)
                        }
                        // Two rows of the table: the least total cost of pairing the first
                        // i points of the candidate with the first j of the template, by j.
                        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * (count + 1)) { rows in
                            var previous = UnsafeMutableBufferPointer(rebasing: rows[0...count])
                            var current = UnsafeMutableBufferPointer(rebasing: rows[(count + 1)...])
                            previous.initialize(repeating: .infinity)
                            current.initialize(repeating: .infinity)
                            previous[0] = 0
                            for i in 1...count {
                                let low = max(1, i - band)
                                let high = min(count, i + band)
                                current[low - 1] = .infinity
                                for j in low...high {
                                    current[j] = cost(i - 1, j - 1) + min(previous[j], current[j - 1], previous[j - 1])
                                }
                                if high < count { current[high + 1] = .infinity }
                                swap(&previous, &current)
                            }
                            return previous[count] / Double(count)
                        }
                    }
                }
            }
        }
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
        var best = 0.0
        for template in templates {
            for prefix in template.prefixes {
                let angle = bestTurn(partial.points, prefix.points, tolerance: tolerance)
                best = max(best, score(distance: turnedDistance(partial.points, prefix.points, angle: angle)))
            }
        }
        return best
    }
}
