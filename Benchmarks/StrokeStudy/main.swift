// The stroke study: touchgest's stroke rules on real people's drawings (docs/strokes.md,
// "Real drawings"). For each subject and speed of the $1 gesture logs, K of that person's
// drawings of each shape are learned as `touchgest learn` learns them (StrokeLearning:
// its collector, templates and rule text), the 16 rules parsed as a rule file, and the
// other drawings replayed through the compiled rules as `touchgest replay` would (a
// GestureEnvironment on virtual time): right, wrong or none. Beside it, on the same
// splits, the $1 recognizer (DollarOne.swift) and touchgest's matcher without its gates.
//
//     swift run -c release StrokeStudy DATA_DIR [--splits N] [--seed N] [--mm-per-pixel X]
//                                      [--shapes] [--misses] [--pilot] [--k 1,3,5]
//                                      [--variants [--only TEXT]] [--policies] [--corners]
//
// `--seed` also seeds the generated rectangles `--corners` measures beside people's.
// DATA_DIR is the logs' xml_logs folder (SUBJECT/SPEED/SHAPENN.xml); the data is not in
// the repository (docs/strokes.md says where it comes from).
import Glibc
import HumanInput
import Rulebook
import StrokeGestures
import TouchGestures
import TouchgestDaemon

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let optionNames: Set<String> = ["--splits", "--seed", "--mm-per-pixel", "--k", "--only"]
let positional = arguments.enumerated().filter { index, text in
    !text.hasPrefix("--") && (index == 0 || !optionNames.contains(arguments[index - 1]))
}.map(\.element)
guard let folder = positional.first else {
    warn("usage: StrokeStudy DATA_DIR [--splits N] [--seed N] [--mm-per-pixel X] [--shapes] [--misses] [--pilot] [--k 1,3,5] [--variants [--only TEXT]] [--policies] [--corners]")
    exit(2)
}
let splits = option("--splits").flatMap { Int($0) } ?? 5
let seed = option("--seed").flatMap { UInt64($0) } ?? 40
// A stylus on a Pocket PC's 240x320 screen; a finger draws larger. 0.4 mm a pixel puts
// the median drawing at 45 mm across (5%: 33 mm), as the corpus's one-finger shapes.
let mmPerPixel = option("--mm-per-pixel").flatMap { Double($0) } ?? 0.4
let ks = option("--k").map { $0.split(separator: ",").compactMap { Int($0) } } ?? [1, 3, 5]
let showShapes = arguments.contains("--shapes")
let showMisses = arguments.contains("--misses")
// --variants [--only TEXT]: every matcher variant, or those whose name contains TEXT.
let variants = arguments.contains("--variants") ? Variants.all.filter { variant in option("--only").map { variant.name.contains($0) } ?? true } : []
var variantRight: [Key: [Int]] = [:]
// ... and the engine's outcome when it fires only what the variant ranks first too.
var variantAgreed: [Key: [(right: Int, wrong: Int)]] = [:]
// ... or where the matcher's first rule leads its second by at least each of these.
let agreeOrMargin = [0.01, 0.02, 0.03, 0.05]
var variantAgreedOrLed: [Key: [[(right: Int, wrong: Int)]]] = [:]
// --policies: the matcher's ranking with a threshold ceiling, floor and a margin over the
// second rule, gates left out: what each would fire.
let showPolicies = arguments.contains("--policies")
let policies: [(ceiling: Double, floor: Double, margin: Double)] = [0.80, 0.75, 0.70, 0.65].flatMap { c in
    [0.70, 0.65, 0.60].filter { $0 <= c }.flatMap { f in [0.0, 0.01, 0.02, 0.03, 0.05].map { (c, f, $0) } }
}
var policyTally: [Key: [(right: Int, wrong: Int)]] = [:]
// ... and the engine's outcome with a gate added that turns some strokes away (they fire
// nothing): a lead over the second rule asked only between rules that learn would warn of
// (leave-one-out among the teaching drawings), only of a low best score, or only of one
// low against what the rule's own templates score against each other.
struct Gate {
    /// The table the gate's row is printed in, and the row.
    let table: String
    let row: String
    /// Whether a stroke is turned away, given what is known of it and its rule file.
    let turnsAway: (GateContext) -> Bool
}
struct GateContext {
    /// Every rule's best score on the stroke, best first (two at least).
    var ranked: [(rule: String, score: Double)]
    /// Each rule's lowest leave-one-out score among its templates.
    var lowest: [String: Double]
    /// The pairs learn warns of (from the teaching drawings), and those the templates alone
    /// would show (the same test, each template its own drawing).
    var warned: Set<String>
    var templatesWarn: Set<String>
    /// The best score any template of one rule reaches against the other's, by pair.
    var closeness: [String: Double]
    var pair: String { [ranked[0].rule, ranked[1].rule].sorted().joined(separator: " ~ ") }
    var lead: Double { ranked[0].score - ranked[1].score }
    func low(under: Double) -> Bool { lowest[ranked[0].rule].map { ranked[0].score < $0 - under } ?? false }
}
let gates: [Gate] = [0.01, 0.02, 0.03, 0.05, 0.08].map { margin in
    Gate(table: "margin between rules learn warns of", row: "\(margin)") { c in c.warned.contains(c.pair) && c.lead < margin }
} + [0.78, 0.80, 0.82, 0.85, 0.87, 0.90].flatMap { score in
    [0.01, 0.02, 0.03, 0.05].map { lead in
        Gate(table: "lead asked under score", row: "\(lead) under \(score)") { c in c.ranked[0].score < score && c.lead < lead }
    }
} + [0.0, 0.03, 0.05, 0.08, 0.12].flatMap { under in
    [0.02, 0.03, 0.05].map { lead in
        Gate(table: "lead asked under the rule's own lowest, less", row: "\(lead) under own - \(under)") { c in c.low(under: under) && c.lead < lead }
    }
} + [0.0, 0.05, 0.08, 0.12].flatMap { under in
    [0.03, 0.05, 0.08].flatMap { lead in
        [Gate(table: "lead asked between rules learn warns of, under own lowest less", row: "\(lead) under own - \(under)") { c in
            c.warned.contains(c.pair) && c.low(under: under) && c.lead < lead
        },
        Gate(table: "lead asked between rules their templates show confused, under own lowest less", row: "\(lead) under own - \(under)") { c in
            c.templatesWarn.contains(c.pair) && c.low(under: under) && c.lead < lead
        }]
    }
} + [0.75, 0.80, 0.85, 0.90].flatMap { close in
    [0.02, 0.03, 0.05, 0.08].map { lead in
        Gate(table: "lead asked between rules whose templates come within", row: "\(lead) within \(close)") { c in
            (c.closeness[c.pair] ?? 0) >= close && c.lead < lead
        }
    }
} + [0.03, 0.05, 0.08].map { lead in
    Gate(table: "lead asked between rules their templates show confused", row: "\(lead)") { c in c.templatesWarn.contains(c.pair) && c.lead < lead }
}
var gateTally: [Key: [(right: Int, wrong: Int)]] = [:]

let logs = GestureLog.load(folder, pilot: arguments.contains("--pilot"))
guard !logs.isEmpty else {
    warn("stroke-study: no gesture logs under \(folder) (expected SUBJECT/SPEED/SHAPENN.xml)")
    exit(1)
}
// --corners: people's rectangles beside the generator's (what the fast pace is fitted to), and stop.
if arguments.contains("--corners") {
    print(Corners.table(logs, seed: seed))
    exit(0)
}

/// A drawing's path in millimetres, centred on the corpus's touchscreen, and its times in seconds.
func millimetres(_ log: GestureLog) -> [(time: Double, point: Point)] {
    let xs = log.points.map(\.x), ys = log.points.map(\.y)
    let centre = Point(x: (xs.min()! + xs.max()!) / 2, y: (ys.min()! + ys.max()!) / 2)
    let screen = TouchscreenFrames.size
    return log.points.map { p in
        (p.t / 1000, Point(x: (p.x - centre.x) * mmPerPixel + screen.width / 2, y: (p.y - centre.y) * mmPerPixel + screen.height / 2))
    }
}

/// Plays `drawings` one after another (2 s apart) on `environment` as touchscreen frames,
/// calling `each` after each with its index.
func play(_ drawings: [GestureLog], on environment: GestureEnvironment, scheduler: ManualScheduler, each: (Int) -> Void = { _ in }) {
    var start = (Double(scheduler.now.microseconds) - Double(Sample.start.microseconds)) / 1_000_000 + 1
    for (index, drawing) in drawings.enumerated() {
        let path = millimetres(drawing)
        var frames = path.map { (time: start + $0.time, positions: [0: $0.point]) }
        frames.append((time: start + path[path.count - 1].time + 0.008, positions: [:]))
        let events = TouchscreenFrames.events(frames, type: .direct, device: TouchscreenFrames.device, size: TouchscreenFrames.size)
        for event in events {
            scheduler.advance(to: Timestamp(microseconds: event.timestamp.microseconds - 1))
            environment.handle(event)
            scheduler.advance(to: event.timestamp)
        }
        scheduler.runUntilIdle()
        each(index)
        start += path[path.count - 1].time + 2
    }
}

final class Sink: CommandSink {
    var requests: [CommandRequest] = []
    func run(_ request: CommandRequest) { requests.append(request) }
}

func newEnvironment() -> (GestureEnvironment, ManualScheduler) {
    let scheduler = ManualScheduler(start: Timestamp(microseconds: Sample.start.microseconds - 1))
    return (GestureEnvironment(scheduler: scheduler), scheduler)
}

struct Tally {
    var tests = 0, right = 0, wrong = 0, none = 0, dollar = 0, matcher = 0
    mutating func add(_ other: Tally) {
        tests += other.tests; right += other.right; wrong += other.wrong; none += other.none
        dollar += other.dollar; matcher += other.matcher
    }
}
struct Key: Hashable { var speed: String; var k: Int }

var tallies: [Key: Tally] = [:]
var byShape: [Key: [String: Tally]] = [:]
var files = 0, warnedPairs = 0
var warned: [Key: Set<String>] = [:]
var confusedPairs: [Key: Set<String>] = [:]
var warnedAndConfused = 0
var misses: [String] = []
let clockStart = clock()

let groups = Dictionary(grouping: logs) { "\($0.subject)/\($0.speed)" }
for groupName in groups.keys.sorted() {
    let group = groups[groupName]!
    let shapes = Dictionary(grouping: group, by: \.shape).mapValues { $0.sorted { $0.number < $1.number } }
    let shapeNames = shapes.keys.sorted()
    let (subject, speed) = (group[0].subject, group[0].speed)
    for k in ks {
        let key = Key(speed: speed, k: k)
        for split in 0..<splits {
            var random = SeededRandom(seed: seed).fork(split + 1)
            // Each shape's drawings in a seeded order: the first K teach, the rest are tested.
            var train: [String: [GestureLog]] = [:], test: [(String, GestureLog)] = []
            for shape in shapeNames {
                var drawings = shapes[shape]!
                for i in stride(from: drawings.count - 1, to: 0, by: -1) { drawings.swapAt(i, random.integer(0...i)) }
                train[shape] = Array(drawings.prefix(k))
                test += drawings.dropFirst(k).map { (shape, $0) }
            }
            // Learn each shape as `touchgest learn --from` does: the collector takes the
            // drawings, the lesson makes the templates and the rule's text.
            var learnings: [String: StrokeLearning] = [:]
            var text = ""
            var dollar = DollarOne()
            for shape in shapeNames {
                let learning = StrokeLearning(fingers: 1)
                let (environment, scheduler) = newEnvironment()
                learning.collector.attach(to: environment)
                play(train[shape]!, on: environment, scheduler: scheduler)
                learnings[shape] = learning
                if let lesson = try? learning.lesson(name: shape, command: "true") { text += "\n" + lesson.rule }
                for drawing in train[shape]! { dollar.add(shape, drawing.points.map { Point(x: $0.x, y: $0.y) }) }
            }
            let book: Rulebook
            do {
                book = try Rulebook.parse(text, file: "study.toml")
            } catch {
                for diagnostic in error.diagnostics { print(diagnostic.description) }
                exit(1)
            }
            // learn's warnings, as each rule would be learned beside the other fifteen.
            files += 1
            var flagged: Set<String> = []
            for shape in shapeNames {
                guard let lesson = try? learnings[shape]!.lesson(name: shape, command: "true", rules: book) else { continue }
                for neighbour in lesson.neighbours where neighbour.isTooAlike {
                    flagged.insert([shape, neighbour.rule].sorted().joined(separator: " ~ "))
                }
            }
            warnedPairs += flagged.count
            warned[key, default: []].formUnion(flagged)

            let sink = Sink()
            let (environment, scheduler) = newEnvironment()
            let compiled = CompiledRulebook(book, sink: sink)
            compiled.attach(to: environment)
            var reports: [StrokeReport] = []
            compiled.strokeReports = { reports.append($0) }
            var tally = Tally()
            var confused: Set<String> = []
            let drawings = test.map(\.1)
            var fired: [[String]] = []
            play(drawings, on: environment, scheduler: scheduler) { _ in
                fired.append(sink.requests.filter { $0.phase == .recognized || $0.phase == .begin }.map(\.rule))
                sink.requests.removeAll()
            }
            _ = fired.count
            let variantRules = variants.map { variant in
                variant.raw
                    ? shapeNames.map { shape in (shape, train[shape]!.compactMap { variant.prepare(millimetres($0).map(\.point)) }) }
                    : book.rules.map { rule in (rule.name, rule.templates.compactMap { variant.prepare($0.points) }) }
            }
            // Each rule's lowest leave-one-out score among its templates (nil for one).
            let lowest: [String: Double] = showPolicies ? Dictionary(uniqueKeysWithValues: book.rules.compactMap { rule in
                guard rule.templates.count > 1 else { return nil }
                let value = rule.templates.indices.map { i in
                    StrokeMatcher.best(StrokeShape(rule.templates[i].points)!, among: rule.templates.indices.filter { $0 != i }.map { rule.templates[$0] })?.score ?? 1
                }.min()!
                return (rule.name, value)
            }) : [:]
            // The pairs of rules whose templates alone show them confused, and how close each pair comes.
            var templatesWarn: Set<String> = [], closeness: [String: Double] = [:]
            if showPolicies {
                for (i, a) in book.rules.enumerated() {
                    for b in book.rules[(i + 1)...] {
                        let pair = [a.name, b.name].sorted().joined(separator: " ~ ")
                        closeness[pair] = StrokeLearner.closeness(a.templates, b.templates)
                        let found = StrokeLearner.confusions(examples: a.templates.map { StrokeShape($0.points) }, templates: a.templates,
                                                             threshold: a.strokeThresholdInForce,
                                                             other: b.templates, otherThreshold: b.strokeThresholdInForce)
                        if !found.isEmpty { templatesWarn.insert(pair) }
                    }
                }
            }
            var reportIndex = 0
            for ((shape, drawing), rules) in zip(test, fired) {
                var one = Tally()
                one.tests = 1
                if rules == [shape] { one.right = 1 } else if rules.isEmpty { one.none = 1 } else {
                    one.wrong = 1
                    for rule in rules where rule != shape { confused.insert([shape, rule].sorted().joined(separator: " ~ ")) }
                }
                let path = millimetres(drawing).map(\.point)
                if dollar.recognize(drawing.points.map { Point(x: $0.x, y: $0.y) }) == shape { one.dollar = 1 }
                // Every rule's best score, best first: the matcher's ranking without its gates.
                let ranked: [(rule: String, score: Double)] = StrokeShape(path).map { prepared in
                    book.rules.compactMap { rule in StrokeMatcher.best(prepared, among: rule.templates).map { (rule.name, $0.score) } }
                        .sorted { $0.score > $1.score }
                } ?? []
                if ranked.first?.rule == shape { one.matcher = 1 }
                let lead = ranked.count > 1 ? ranked[0].score - ranked[1].score : 1
                if showPolicies && ranked.count > 1 {
                    var cells = policyTally[key] ?? Array(repeating: (0, 0), count: policies.count)
                    for (index, policy) in policies.enumerated() {
                        let threshold = min(policy.ceiling, max(policy.floor, (lowest[ranked[0].rule] ?? 0) - 0.05))
                        guard ranked[0].score >= threshold, lead >= policy.margin else { continue }
                        if ranked[0].rule == shape { cells[index].right += 1 } else { cells[index].wrong += 1 }
                    }
                    policyTally[key] = cells
                    var gateCells = gateTally[key] ?? Array(repeating: (0, 0), count: gates.count)
                    for (index, gate) in gates.enumerated() where rules.count == 1 {
                        if rules[0] == ranked[0].rule && gate.turnsAway(GateContext(ranked: ranked, lowest: lowest, warned: flagged, templatesWarn: templatesWarn, closeness: closeness)) { continue }
                        if rules[0] == shape { gateCells[index].right += 1 } else { gateCells[index].wrong += 1 }
                    }
                    gateTally[key] = gateCells
                }
                for (index, variant) in variants.enumerated() {
                    let best = Variants.rank(path, rules: variantRules[index], variant: variant)?.best
                    if rules.count == 1 {
                        var rows = variantAgreedOrLed[key] ?? Array(repeating: Array(repeating: (0, 0), count: agreeOrMargin.count), count: variants.count)
                        for (m, margin) in agreeOrMargin.enumerated() where best == rules[0] || lead >= margin {
                            if rules[0] == shape { rows[index][m].right += 1 } else { rows[index][m].wrong += 1 }
                        }
                        variantAgreedOrLed[key] = rows
                    }
                    if best == shape { variantRight[key, default: Array(repeating: 0, count: variants.count)][index] += 1 }
                    guard rules.count == 1, best == rules[0] else { continue }
                    var cells = variantAgreed[key] ?? Array(repeating: (0, 0), count: variants.count)
                    if rules[0] == shape { cells[index].right += 1 } else { cells[index].wrong += 1 }
                    variantAgreed[key] = cells
                }
                if showMisses && one.right == 0 {
                    let report = reportIndex < reports.count ? reports[reportIndex].summary(shown: 3) : "no stroke report"
                    let bends = StrokeBends(path).map { " [turns \(fixedDecimals($0.turning, 0)), strays \(fixedDecimals($0.deviation, 2))]" } ?? ""
                    misses.append("\(subject) \(speed) K=\(k) split \(split + 1) \(shape)\(drawing.number): \(one.none == 1 ? "none" : "wrong \(rules)"): \(report)\(bends)")
                }
                reportIndex += 1
                tally.add(one)
                byShape[key, default: [:]][shape, default: Tally()].add(one)
            }
            if reports.count != test.count { warn("stroke-study: \(groupName) K=\(k): \(reports.count) stroke reports for \(test.count) drawings") }
            confusedPairs[key, default: []].formUnion(confused)
            warnedAndConfused += flagged.intersection(confused).count
            tallies[key, default: Tally()].add(tally)
        }
    }
}

func percent(_ count: Int, _ total: Int) -> String { total == 0 ? "-" : fixedDecimals(100 * Double(count) / Double(total), 2) + "%" }

/// Prints a table of right and wrong, as shares of every test, at each speed and K: a row
/// for each label, its cells from `cell` (nil: not measured).
@MainActor func printRightWrong(_ heading: String, _ labels: [String], cell: (Key, Int) -> (right: Int, wrong: Int)?) {
    print("\n| \(heading) | " + ks.flatMap { k in ["slow", "medium", "fast"].map { "\($0) K=\(k) right/wrong" } }.joined(separator: " | ") + " |")
    for (index, label) in labels.enumerated() {
        let cells = ks.flatMap { k in ["slow", "medium", "fast"].map { speed in
            let key = Key(speed: speed, k: k)
            guard let cell = cell(key, index) else { return "-" }
            let tests = tallies[key]?.tests ?? 0
            return percent(cell.right, tests) + " / " + percent(cell.wrong, tests) + " (\(cell.right)/\(cell.wrong))"
        } }
        print("| \(label) | " + cells.joined(separator: " | ") + " |")
    }
}
let subjects = Set(logs.map(\.subject)).count
print("\(logs.count) drawings, \(subjects) subjects, \(Set(logs.map(\.shape)).count) shapes; \(splits) splits a subject, speed and K, seed \(seed); \(fixedDecimals(mmPerPixel, 2)) mm a pixel\n")
print("| speed | K | tests | right | wrong | none | $1 right | matcher alone right |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for speed in ["slow", "medium", "fast"] {
    for k in ks {
        guard let t = tallies[Key(speed: speed, k: k)] else { continue }
        print("| \(speed) | \(k) | \(t.tests) | \(percent(t.right, t.tests)) | \(percent(t.wrong, t.tests)) | \(percent(t.none, t.tests)) | \(percent(t.dollar, t.tests)) | \(percent(t.matcher, t.tests)) |")
    }
}
print("\nlearn's warnings: \(warnedPairs) pairs in \(files) rule files; pairs warned of that were confused in the same split's tests: \(warnedAndConfused)")
if !variants.isEmpty {
    print("\n| variant | " + ks.flatMap { k in ["slow", "medium", "fast"].map { "\($0) K=\(k)" } }.joined(separator: " | ") + " |")
    for (index, variant) in variants.enumerated() {
        let cells = ks.flatMap { k in ["slow", "medium", "fast"].map { speed in
            let key = Key(speed: speed, k: k)
            return percent(variantRight[key]?[index] ?? 0, tallies[key]?.tests ?? 0)
        } }
        print("| \(variant.name) | " + cells.joined(separator: " | ") + " |")
    }
    printRightWrong("fired where the variant agrees or the lead is at least",
                    variants.flatMap { variant in agreeOrMargin.map { "\(variant.name), \($0)" } }) { key, index in
        variantAgreedOrLed[key]?[index / agreeOrMargin.count][index % agreeOrMargin.count]
    }
    printRightWrong("fired only where the variant agrees", variants.map(\.name)) { variantAgreed[$0]?[$1] }
}
if showPolicies {
    printRightWrong("ceiling | floor | margin", policies.map { "\($0.ceiling) | \($0.floor) | \($0.margin)" }) { policyTally[$0]?[$1] }
    var tables: [String] = []
    for gate in gates where !tables.contains(gate.table) { tables.append(gate.table) }
    for table in tables {
        let indices = gates.indices.filter { gates[$0].table == table }
        printRightWrong(table, indices.map { gates[$0].row }) { gateTally[$0]?[indices[$1]] }
    }
}
if showShapes {
    for speed in ["slow", "medium", "fast"] {
        for k in ks {
            guard let shapes = byShape[Key(speed: speed, k: k)] else { continue }
            print("\n\(speed), K = \(k):\n\n| shape | right | wrong | none | $1 right |\n|---|---:|---:|---:|---:|")
            for (shape, t) in shapes.sorted(by: { $0.key < $1.key }) {
                print("| \(shape) | \(percent(t.right, t.tests)) | \(percent(t.wrong, t.tests)) | \(percent(t.none, t.tests)) | \(percent(t.dollar, t.tests)) |")
            }
        }
    }
}
if showMisses {
    print("\nnot right:")
    for line in misses { print("  \(line)") }
}
warn("stroke-study: \(fixedDecimals(Double(clock() - clockStart) / Double(CLOCKS_PER_SEC), 1)) s of CPU")
