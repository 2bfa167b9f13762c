// Matcher variants measured beside the matcher on the same splits (`--variants`): which
// shape each would rank first, so that a change to the matcher is judged on real
// drawings before it is made. Ranking only: no gates, no thresholds.
import RealModule
import StrokeGestures
import TouchGestures

struct MatcherVariant: Sendable {
    let name: String
    let prepare: @Sendable ([Point]) -> [Point]?
    let distance: @Sendable ([Point], [Point]) -> Double
    /// Whether it compares with the teaching drawings themselves rather than the learned templates.
    var raw = false
    /// How a rule's templates' distances (closest first) make the rule's: the closest alone
    /// by default.
    var combine: @Sendable ([Double]) -> Double = { $0.first ?? .infinity }
}

enum Variants {
    static let tolerance = 30.0 * .pi / 180

    static func prepared(_ path: [Point], count: Int) -> [Point]? { StrokeShape(path, count: count)?.points }

    /// Golden-section search of `f` over the turn within the tolerance: the least value.
    static func bestTurn(_ f: (Double) -> Double) -> Double { searchTurn(f).value }

    /// ... the turn that gives it, and the value.
    static func searchTurn(_ f: (Double) -> Double) -> (angle: Double, value: Double) {
        let phi = 0.5 * (5.0.squareRoot() - 1)
        var low = -tolerance, high = tolerance
        var x1 = phi * low + (1 - phi) * high, x2 = (1 - phi) * low + phi * high
        var f1 = f(x1), f2 = f(x2)
        while high - low > 2 * .pi / 180 {
            if f1 < f2 { high = x2; x2 = x1; f2 = f1; x1 = phi * low + (1 - phi) * high; f1 = f(x1) }
            else { low = x1; x1 = x2; f1 = f2; x2 = (1 - phi) * low + phi * high; f2 = f(x2) }
        }
        return f1 < f2 ? (x1, f1) : (x2, f2)
    }

    static func positional(_ a: [Point], _ b: [Point], _ angle: Double) -> Double {
        let c = Double.cos(angle), s = Double.sin(angle)
        var total = 0.0
        for i in 0..<min(a.count, b.count) {
            let dx = a[i].x * c - a[i].y * s - b[i].x, dy = a[i].x * s + a[i].y * c - b[i].y
            total += (dx * dx + dy * dy).squareRoot()
        }
        return total / Double(min(a.count, b.count))
    }

    /// Mean angle (radians / pi) between corresponding segments' directions, `a` turned by `angle`.
    static func directional(_ a: [Point], _ b: [Point], _ angle: Double) -> Double {
        var total = 0.0
        let n = min(a.count, b.count)
        for i in 1..<n {
            let u = a[i] - a[i - 1], v = b[i] - b[i - 1]
            var d = Double.atan2(y: u.x * v.y - u.y * v.x, x: u.x * v.x + u.y * v.y) - angle
            while d > .pi { d -= 2 * .pi }
            while d < -.pi { d += 2 * .pi }
            total += abs(d)
        }
        return total / Double(n - 1) / .pi
    }

    /// Protractor's cosine distance: the angle between the two point vectors at the best
    /// turn (closed form, clamped to the tolerance).
    static func cosine(_ a: [Point], _ b: [Point]) -> Double {
        var dot = 0.0, cross = 0.0, na = 0.0, nb = 0.0
        for i in 0..<min(a.count, b.count) {
            dot += a[i].x * b[i].x + a[i].y * b[i].y
            cross += a[i].x * b[i].y - a[i].y * b[i].x
            na += a[i].x * a[i].x + a[i].y * a[i].y
            nb += b[i].x * b[i].x + b[i].y * b[i].y
        }
        let angle = min(tolerance, max(-tolerance, Double.atan2(y: cross, x: dot)))
        let similarity = (dot * Double.cos(angle) + cross * Double.sin(angle)) / (na * nb).squareRoot()
        return Double.acos(min(1, max(-1, similarity)))
    }

    /// Unit direction vectors between consecutive points.
    static func unitSteps(_ a: [Point]) -> [Point] {
        (1..<a.count).map { i in
            let d = a[i] - a[i - 1]
            let length = (d.x * d.x + d.y * d.y).squareRoot()
            return length > 0 ? d / length : .zero
        }
    }

    /// Dynamic time warping of two sequences within a band of `band` steps, each pair's cost
    /// by `cost`: the whole table, slow and plain, a reference beside the matcher's two rows.
    static func warped<T>(_ a: [T], _ b: [T], band: Int, cost: (T, T) -> Double) -> Double {
        let n = a.count, m = b.count
        var table = Array(repeating: Array(repeating: Double.infinity, count: m + 1), count: n + 1)
        table[0][0] = 0
        for i in 1...n {
            for j in max(1, i - band)...min(m, i + band) {
                table[i][j] = cost(a[i - 1], b[j - 1]) + min(table[i - 1][j], table[i][j - 1], table[i - 1][j - 1])
            }
        }
        return table[n][m]
    }

    /// Jackknife's correction factors (Taranta et al. 2017): how alike the two strokes'
    /// absolute travel along x and y, and their boxes' extents, are (cosines; 1 alike).
    static func corrections(_ a: [Point], _ b: [Point]) -> Double {
        func travel(_ p: [Point]) -> Point {
            var t = Point.zero
            for i in 1..<p.count { let d = p[i] - p[i - 1]; t += Point(x: abs(d.x), y: abs(d.y)) }
            return t
        }
        func extent(_ p: [Point]) -> Point {
            Point(x: p.map(\.x).max()! - p.map(\.x).min()!, y: p.map(\.y).max()! - p.map(\.y).min()!)
        }
        func cosine(_ u: Point, _ v: Point) -> Double {
            let d = (u.x * u.x + u.y * u.y).squareRoot() * (v.x * v.x + v.y * v.y).squareRoot()
            return d > 0 ? max(0.01, (u.x * v.x + u.y * v.y) / d) : 1
        }
        return cosine(travel(a), travel(b)) * cosine(extent(a), extent(b))
    }

    static func jackknife(_ a: [Point], _ b: [Point], band: Int) -> Double {
        warped(unitSteps(a), unitSteps(b), band: band) { u, v in 1 - (u.x * v.x + u.y * v.y) }
    }

    static let jackknifeVariants: [MatcherVariant] = [
        MatcherVariant(name: "jackknife 16, band 2, corrected", prepare: { prepared($0, count: 16) },
                       distance: { a, b in jackknife(a, b, band: 2) / corrections(a, b) }),
        MatcherVariant(name: "jackknife 16, band 2", prepare: { prepared($0, count: 16) },
                       distance: { a, b in jackknife(a, b, band: 2) }),
        MatcherVariant(name: "jackknife 32, band 3, corrected", prepare: { prepared($0, count: 32) },
                       distance: { a, b in jackknife(a, b, band: 3) / corrections(a, b) }),
        MatcherVariant(name: "matcher, corrected", prepare: { prepared($0, count: 64) },
                       distance: { a, b in bestTurn { positional(a, b, $0) + 0.3 * directional(a, b, $0) } / corrections(a, b) }),
        MatcherVariant(name: "matcher, travel corrected squared", prepare: { prepared($0, count: 64) },
                       distance: { a, b in let c = corrections(a, b); return bestTurn { positional(a, b, $0) + 0.3 * directional(a, b, $0) } / (c * c) }),
        MatcherVariant(name: "matcher, dtw band 3", prepare: { prepared($0, count: 64) },
                       distance: { a, b in warped(a, b, band: 3) { u, v in ((u.x - v.x) * (u.x - v.x) + (u.y - v.y) * (u.y - v.y)).squareRoot() } / 64
                           + 0.3 * directional(a, b, 0) }),
    ]

    static func turned(_ a: [Point], _ angle: Double) -> [Point] {
        let c = Double.cos(angle), s = Double.sin(angle)
        return a.map { Point(x: $0.x * c - $0.y * s, y: $0.x * s + $0.y * c) }
    }

    static func dtwPositional(_ a: [Point], _ b: [Point], band: Int) -> Double {
        warped(a, b, band: band) { u, v in ((u.x - v.x) * (u.x - v.x) + (u.y - v.y) * (u.y - v.y)).squareRoot() } / Double(a.count)
    }

    /// Positions and step directions warped together: each pair's cost the points' distance
    /// plus `weight` times the angle between the steps into them (a fraction of a half turn).
    static func dtwJoint(_ a: [Point], _ b: [Point], band: Int, weight: Double) -> Double {
        func steps(_ p: [Point]) -> [(Point, Double)] {
            p.indices.map { i in
                let d = i == 0 ? p[1] - p[0] : p[i] - p[i - 1]
                return (p[i], Double.atan2(y: d.y, x: d.x))
            }
        }
        return warped(steps(a), steps(b), band: band) { u, v in
            var angle = abs(u.1 - v.1)
            if angle > .pi { angle = 2 * .pi - angle }
            return ((u.0.x - v.0.x) * (u.0.x - v.0.x) + (u.0.y - v.0.y) * (u.0.y - v.0.y)).squareRoot() + weight * angle / .pi
        } / Double(a.count)
    }

    static let dtwVariants: [MatcherVariant] = [1, 2, 3, 5, 8].map { band in
        MatcherVariant(name: "dtw band \(band) + 0.3 dir, unturned", prepare: { prepared($0, count: 64) },
                       distance: { a, b in dtwPositional(a, b, band: band) + 0.3 * directional(a, b, 0) })
    } + [2, 3, 5].map { band in
        MatcherVariant(name: "dtw band \(band) + 0.3 dir, turned", prepare: { prepared($0, count: 64) },
                       distance: { a, b in bestTurn { dtwPositional(turned(a, $0), b, band: band) + 0.3 * directional(a, b, $0) } })
    } + [2, 3, 5].map { band in
        MatcherVariant(name: "dtw joint band \(band), 0.3, turned", prepare: { prepared($0, count: 64) },
                       distance: { a, b in bestTurn { dtwJoint(turned(a, $0), b, band: band, weight: 0.3) } })
    }

    static let jointVariants: [MatcherVariant] = [(8, 0.3), (12, 0.3), (16, 0.3), (5, 0.2), (5, 0.5), (6, 0.5), (8, 0.5), (10, 0.5), (8, 0.7), (8, 1.0)].map { band, weight in
        MatcherVariant(name: "joint \(band) \(weight) turned", prepare: { prepared($0, count: 64) },
                       distance: { a, b in bestTurn { dtwJoint(turned(a, $0), b, band: band, weight: weight) } })
    } + [(8, 0.5)].map { band, weight in
        MatcherVariant(name: "joint \(band) \(weight) 32pts turned", prepare: { prepared($0, count: 32) },
                       distance: { a, b in bestTurn { dtwJoint(turned(a, $0), b, band: band / 2, weight: weight) } })
    }

    /// The turn found by the index-paired distance, then warped once at that turn: the
    /// matcher's way (`StrokeMatcher.distance`), written again here on bare points.
    static let cheapTurnVariants: [MatcherVariant] = [
        MatcherVariant(name: "joint 8 0.5 at the paired turn", prepare: { prepared($0, count: 64) },
                       distance: { a, b in
                           let angle = searchTurn { positional(a, b, $0) + 0.5 * directional(a, b, $0) }.angle
                           return dtwJoint(turned(a, angle), b, band: 8, weight: 0.5)
                       }),
    ]

    static let all: [MatcherVariant] = cheapTurnVariants + jointVariants + dtwVariants + jackknifeVariants + rawVariants + neighbourVariants + [
        MatcherVariant(name: "64 points, positions alone ($1 paired by index)", prepare: { prepared($0, count: 64) },
                       distance: { a, b in bestTurn { positional(a, b, $0) } }),
        MatcherVariant(name: "128 points", prepare: { prepared($0, count: 128) },
                       distance: { a, b in bestTurn { positional(a, b, $0) } }),
        MatcherVariant(name: "protractor cosine", prepare: { prepared($0, count: 64) },
                       distance: { a, b in cosine(a, b) }),
        MatcherVariant(name: "directions alone", prepare: { prepared($0, count: 64) },
                       distance: { a, b in bestTurn { directional(a, b, $0) } }),
    ] + [0.1, 0.2, 0.3, 0.5].map { w in
        MatcherVariant(name: "path + \(w) x directions", prepare: { prepared($0, count: 64) },
                       distance: { a, b in bestTurn { positional(a, b, $0) + w * directional(a, b, $0) } })
    } + [0.1, 0.2, 0.3].map { w in
        MatcherVariant(name: "path + \(w) x directions, 32 pts", prepare: { prepared($0, count: 32) },
                       distance: { a, b in bestTurn { positional(a, b, $0) + w * directional(a, b, $0) } })
    }

    /// The rule's distance from its closest templates together: a rule whose templates
    /// agree beats one with a single close template.
    static let neighbourVariants: [MatcherVariant] = [0.25, 0.5, 1.0].map { w in
        MatcherVariant(name: "0.3 x directions, best + \(w) x second template", prepare: { prepared($0, count: 64) },
                       distance: { a, b in bestTurn { positional(a, b, $0) + 0.3 * directional(a, b, $0) } },
                       combine: { d in d.count < 2 ? (d.first ?? .infinity) : (d[0] + w * d[1]) / (1 + w) })
    }

    static let rawVariants: [MatcherVariant] = [
        MatcherVariant(name: "raw drawings, 64 points", prepare: { prepared($0, count: 64) },
                       distance: { a, b in bestTurn { positional(a, b, $0) } }, raw: true),
        MatcherVariant(name: "raw drawings + 0.3 x directions", prepare: { prepared($0, count: 64) },
                       distance: { a, b in bestTurn { positional(a, b, $0) + 0.3 * directional(a, b, $0) } }, raw: true),
    ]

    /// Which rule each variant ranks first for `path`, among `rules` (name, template points).
    static func rank(_ path: [Point], rules: [(String, [[Point]])], variant: MatcherVariant) -> (best: String, margin: Double)? {
        guard let candidate = variant.prepare(path) else { return nil }
        var perRule: [(String, Double)] = []
        for (name, templates) in rules {
            perRule.append((name, variant.combine(templates.map { variant.distance(candidate, $0) }.sorted())))
        }
        perRule.sort { $0.1 < $1.1 }
        guard let first = perRule.first else { return nil }
        return (first.0, perRule.count > 1 ? perRule[1].1 - first.1 : .infinity)
    }
}
