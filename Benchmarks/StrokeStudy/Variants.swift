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

    /// Golden-section search of `f` over the turn within the tolerance.
    static func bestTurn(_ f: (Double) -> Double) -> Double {
        let phi = 0.5 * (5.0.squareRoot() - 1)
        var low = -tolerance, high = tolerance
        var x1 = phi * low + (1 - phi) * high, x2 = (1 - phi) * low + phi * high
        var f1 = f(x1), f2 = f(x2)
        while high - low > 2 * .pi / 180 {
            if f1 < f2 { high = x2; x2 = x1; f2 = f1; x1 = phi * low + (1 - phi) * high; f1 = f(x1) }
            else { low = x1; x1 = x2; f1 = f2; x2 = (1 - phi) * low + phi * high; f2 = f(x2) }
        }
        return min(f1, f2)
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

    static let all: [MatcherVariant] = rawVariants + neighbourVariants + [
        MatcherVariant(name: "64 points (the matcher)", prepare: { prepared($0, count: 64) },
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
