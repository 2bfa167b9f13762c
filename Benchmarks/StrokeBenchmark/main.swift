// Measures what a drawn stroke costs the daemon: matching one stroke against 50 templates
// (what a stroke rule does when the fingers lift), and the check of the path against every
// part of those templates that stroke rules make while the fingers move.
//
//   swift run -c release StrokeBenchmark [strokes]
//
// The templates are 50 shapes of 3 to 16 points, seeded so every run uses the same ones;
// the strokes are paths of 200 points (a 2 s stroke at 100 Hz), drawn after templates
// with a little noise. Times are the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so other
// programs on a busy machine do not count: median and 99th percentile of single matches.
import Glibc
import StrokeGestures
import TouchGestures

/// SplitMix64, so the shapes are the same on every run.
struct Seeded {
    var state: UInt64
    mutating func unit() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) * 0x1p-53
    }
}

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

var random = Seeded(state: 21)
let templates: [StrokeTemplate] = (0..<50).map { _ in
    let count = 3 + Int(random.unit() * 14)
    let points = (0..<count).map { _ in Point(x: random.unit(), y: random.unit()) }
    return try! StrokeTemplate(points: points)
}
let strokes = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 2_000
let paths: [[Point]] = (0..<64).map { index in
    let template = templates[index % templates.count]
    let dense = (0..<200).map { step -> Point in
        let along = Double(step) / 199 * Double(template.points.count - 1)
        let at = min(Int(along), template.points.count - 2)
        let point = template.points[at] + (template.points[at + 1] - template.points[at]) * (along - Double(at))
        return point * 60 + Point(x: random.unit() * 0.6, y: random.unit() * 0.6)
    }
    return dense
}

func percentiles(_ samples: [Double]) -> String {
    let sorted = samples.sorted()
    let median = sorted[sorted.count / 2] * 1e6
    let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)] * 1e6
    return "median \(fixedDecimals(median, 1)) us, 99th percentile \(fixedDecimals(p99, 1)) us"
}

var matched = 0
var prefixTotal = 0.0
var whole: [Double] = []
var prefixes: [Double] = []
for index in 0..<strokes {
    let path = paths[index % paths.count]
    let start = now()
    let best = StrokeShape(path).flatMap { StrokeMatcher.best($0, among: templates) }
    whole.append(now() - start)
    if best?.template == index % paths.count % templates.count { matched += 1 }
    let partial = Array(path.prefix(120))
    let checked = now()
    let prefix = StrokeShape(partial, count: StrokeDefaults.prefixPoints).map { StrokeMatcher.bestPrefixScore($0, among: templates) }
    prefixes.append(now() - checked)
    prefixTotal += prefix ?? 0
}
print("\(strokes) strokes of 200 points against \(templates.count) templates; \(matched) matched the template they were drawn after")
print("matching at the lift (resample, scale, turn by formula, warped once): \(percentiles(whole))")
print("checking the path so far against every part of every template: \(percentiles(prefixes)) (mean best score \(fixedDecimals(prefixTotal / Double(strokes), 2)))")
