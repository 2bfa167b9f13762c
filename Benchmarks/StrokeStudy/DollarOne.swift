import RealModule
import TouchGestures

/// The $1 unistroke recognizer as its paper describes it (Wobbrock, Wilson and Li,
/// "Gestures without libraries, toolkits or training", UIST 2007): the baseline of the
/// study. Resample to 64 points, turn so that the line from the centroid to the first
/// point is level, scale each side of the box to a 250-unit square, move the centroid to
/// the origin; compare by the average point distance at the best turn within 45 degrees
/// either way (golden-section search to 2 degrees). It always answers: the closest
/// template's shape.
struct DollarOne {
    static let points = 64
    static let square = 250.0
    private var templates: [(shape: String, points: [Point])] = []

    mutating func add(_ shape: String, _ path: [Point]) {
        if let prepared = Self.prepare(path) { templates.append((shape, prepared)) }
    }

    func recognize(_ path: [Point]) -> String? {
        guard let candidate = Self.prepare(path) else { return nil }
        var best: (shape: String, distance: Double)?
        for template in templates {
            let distance = Self.distanceAtBestAngle(candidate, template.points)
            if distance < best?.distance ?? .infinity { best = (template.shape, distance) }
        }
        return best?.shape
    }

    static func prepare(_ path: [Point]) -> [Point]? {
        var points = resample(path)
        guard points.count == Self.points else { return nil }
        let c = centroid(points)
        let angle = Double.atan2(y: c.y - points[0].y, x: c.x - points[0].x)
        points = rotate(points, by: -angle)
        let xs = points.map(\.x), ys = points.map(\.y)
        let width = xs.max()! - xs.min()!, height = ys.max()! - ys.min()!
        // The paper's step 3 scales each side to the square; a side of no extent (a
        // perfectly straight stroke) is left as it is rather than divided by zero.
        points = points.map { Point(x: width > 0 ? $0.x * square / width : $0.x, y: height > 0 ? $0.y * square / height : $0.y) }
        let moved = centroid(points)
        return points.map { $0 - moved }
    }

    static func resample(_ path: [Point]) -> [Point] {
        var length = 0.0
        for i in path.indices.dropFirst() { length += path[i - 1].distance(to: path[i]) }
        guard length > 0 else { return [] }
        let interval = length / Double(points - 1)
        var source = path
        var result = [source[0]]
        var travelled = 0.0
        var i = 1
        while i < source.count {
            let gap = source[i - 1].distance(to: source[i])
            if gap > 0, travelled + gap >= interval {
                let q = source[i - 1] + (source[i] - source[i - 1]) * ((interval - travelled) / gap)
                result.append(q)
                source.insert(q, at: i)
                travelled = 0
            } else {
                travelled += gap
            }
            i += 1
        }
        while result.count < points { result.append(path[path.count - 1]) }
        return Array(result.prefix(points))
    }

    static func centroid(_ points: [Point]) -> Point {
        var sum = Point.zero
        for point in points { sum += point }
        return sum / Double(points.count)
    }

    static func rotate(_ points: [Point], by angle: Double) -> [Point] {
        let c = centroid(points)
        let cosine = Double.cos(angle), sine = Double.sin(angle)
        return points.map { p in
            let d = p - c
            return Point(x: d.x * cosine - d.y * sine + c.x, y: d.x * sine + d.y * cosine + c.y)
        }
    }

    static func pathDistance(_ a: [Point], _ b: [Point]) -> Double {
        var total = 0.0
        for i in 0..<min(a.count, b.count) { total += a[i].distance(to: b[i]) }
        return total / Double(min(a.count, b.count))
    }

    static func distanceAtBestAngle(_ candidate: [Point], _ template: [Point]) -> Double {
        let phi = 0.5 * (5.0.squareRoot() - 1)
        var low = -Double.pi / 4, high = Double.pi / 4
        let precision = 2 * Double.pi / 180
        var x1 = phi * low + (1 - phi) * high
        var f1 = pathDistance(rotate(candidate, by: x1), template)
        var x2 = (1 - phi) * low + phi * high
        var f2 = pathDistance(rotate(candidate, by: x2), template)
        while abs(high - low) > precision {
            if f1 < f2 {
                high = x2; x2 = x1; f2 = f1
                x1 = phi * low + (1 - phi) * high
                f1 = pathDistance(rotate(candidate, by: x1), template)
            } else {
                low = x1; x1 = x2; f1 = f2
                x2 = (1 - phi) * low + phi * high
                f2 = pathDistance(rotate(candidate, by: x2), template)
            }
        }
        return min(f1, f2)
    }
}
