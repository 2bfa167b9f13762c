// How tidy people's rectangles are at each speed, beside the generator's at each pace
// (`--corners`, 200 generated from `--seed`): what `StrokeDrawing.Pace` is fitted to.
// Each drawing is measured as drawn and upright: turned, within 45 degrees in half
// degrees, so that its bounding box is smallest. As drawn, a turned rectangle's corners
// lie off its box's corners, and the turn reads as rounding. The measures, blind to size:
// - rounding: how far the path passes from its bounding box's corners, the third
//   nearest of the four (a shape may close short of the first), over the box's diagonal;
// - unequal sides: the drawn corners (the path's points nearest the box's) make four
//   sides, and opposite sides differ by this share of their mean, averaged over the
//   two pairs (upright);
// - turn: how far it lies turned from upright, in degrees.
import Glibc
import HumanInput
import TouchGestures

enum Corners {
    /// `path` turned upright (by the turn, within 45 degrees either way in half degrees,
    /// whose bounding box is smallest), and how far it lay turned from upright, in degrees.
    static func upright(_ path: [Point]) -> (path: [Point], turn: Double) {
        func turned(_ degrees: Double) -> [Point] {
            let angle = degrees * .pi / 180, c = cos(angle), s = sin(angle)
            return path.map { Point(x: $0.x * c - $0.y * s, y: $0.x * s + $0.y * c) }
        }
        func area(_ points: [Point]) -> Double {
            let xs = points.map(\.x), ys = points.map(\.y)
            return (xs.max()! - xs.min()!) * (ys.max()! - ys.min()!)
        }
        guard !path.isEmpty else { return (path, 0) }
        let best = stride(from: -45.0, through: 45.0, by: 0.5).min { area(turned($0)) < area(turned($1)) }!
        return (turned(best), -best)
    }

    /// The two measures of `path` against its bounding box as it lies; nil for a path with
    /// no extent.
    static func measure(_ path: [Point]) -> (rounding: Double, unequalSides: Double)? {
        guard let minX = path.map(\.x).min(), let maxX = path.map(\.x).max(),
              let minY = path.map(\.y).min(), let maxY = path.map(\.y).max() else { return nil }
        let diagonal = Point(x: minX, y: minY).distance(to: Point(x: maxX, y: maxY))
        guard diagonal > 0 else { return nil }
        // Ten points a segment, so that a corner is not missed between two samples.
        var dense: [Point] = []
        for index in path.indices.dropFirst() {
            for step in 0..<10 { dense.append(path[index - 1] + (path[index] - path[index - 1]) * (Double(step) / 10)) }
        }
        dense.append(path[path.count - 1])
        let boxCorners = [Point(x: minX, y: minY), Point(x: maxX, y: minY), Point(x: maxX, y: maxY), Point(x: minX, y: maxY)]
        let rounding = boxCorners.map { corner in dense.map { $0.distance(to: corner) }.min()! }.sorted()[2] / diagonal
        let drawn = boxCorners.map { corner in path.min { $0.distance(to: corner) < $1.distance(to: corner) }! }
        let sides = (0..<4).map { drawn[$0].distance(to: drawn[($0 + 1) % 4]) }
        func unequal(_ a: Double, _ b: Double) -> Double { a + b > 0 ? abs(a - b) / ((a + b) / 2) : 0 }
        return (rounding, (unequal(sides[0], sides[2]) + unequal(sides[1], sides[3])) / 2)
    }

    /// Median and 90th percentile of each measure, as a table row.
    static func row(_ label: String, _ paths: [[Point]]) -> String {
        let asDrawn = paths.compactMap(measure)
        let uprights = paths.map(upright)
        let measured = uprights.compactMap { measure($0.path) }
        func cells(_ values: [Double]) -> String {
            let sorted = values.sorted()
            return fixedDecimals(sorted[sorted.count / 2], 3) + " | " + fixedDecimals(sorted[sorted.count * 9 / 10], 3)
        }
        return "| \(label) | \(measured.count) | \(cells(asDrawn.map(\.rounding))) | \(cells(measured.map(\.rounding))) | \(cells(measured.map(\.unequalSides))) | \(cells(uprights.map { abs($0.turn) })) |"
    }

    /// The table: the logs' rectangles at each speed, then 200 generated at each pace.
    static func table(_ logs: [GestureLog], seed: UInt64) -> String {
        var lines = ["| rectangles | drawings | rounding as drawn, median | 90% | rounding upright, median | 90% | unequal sides, median | 90% | turn, median | 90% |",
                     "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for speed in ["slow", "medium", "fast"] {
            let paths = logs.filter { $0.shape == "rectangle" && $0.speed == speed }.map { $0.points.map { Point(x: $0.x, y: $0.y) } }
            lines.append(row("people, \(speed)", paths))
        }
        for (label, pace) in [("generated, ordinary", StrokeDrawing.Pace.ordinary), ("generated, fast", .fast)] {
            var random = SeededRandom(seed: seed)
            let paths = (0..<200).map { _ -> [Point] in
                let drawing = StrokeDrawing.human(.rectangle, size: 50, centre: Point(x: 100, y: 100), pace: pace, random: &random)
                return stride(from: 0.0, through: drawing.duration, by: 0.01).map { drawing.position($0) }
            }
            lines.append(row(label, paths))
        }
        return lines.joined(separator: "\n")
    }
}
