// Prints the recognition table: the generated human-like corpus (Tests/HumanInput) run
// through the corpus rule file on the current engine, the same path `touchgest replay`
// takes. Run it in release mode:
//
//     swift run -c release GestureCorpus            # the table
//     swift run -c release GestureCorpus --misses   # and every sample that was not right
//     swift run -c release GestureCorpus --strokes  # and drawn strokes: recall per shape,
//                                                   # confusions, scores, and the table again
//                                                   # with the stroke rules added (docs/strokes.md)
//     swift run -c release GestureCorpus --stroke-rules   # the stroke rules the corpus learned
//     swift run -c release GestureCorpus --fast-stroke-rules   # and those from one fast drawing each
//     swift run -c release GestureCorpus --fast-three-stroke-rules   # and from three fast drawings each
import Glibc
import HumanInput
import Rulebook
import StrokeGestures
import TouchGestures

let showMisses = CommandLine.arguments.contains("--misses")
let run: CorpusRun
do {
    run = try CorpusRun()
} catch {
    for diagnostic in error.diagnostics { print(diagnostic.description) }
    exit(1)
}
let samples = Corpus.samples()
let card = Scorecard.measure(samples, with: run)
print("\(samples.count) samples, seed \(Corpus.seed)\n")
print(card.table)
let named = card.outcomes.filter(\.sample.isNamedCase)
print("\nnamed cases (issue): \(named.filter { $0.verdict == .right }.count) of \(named.count) fired once and right")
for outcome in named where outcome.verdict != .right {
    print("  \(outcome.verdict.rawValue): \(outcome.sample.name) fired \(outcome.fired)")
}
if showMisses {
    print("\nnot right:")
    for outcome in card.outcomes where outcome.verdict != .right && outcome.verdict != .quiet {
        print("  \(outcome.verdict.rawValue): \(outcome.sample.name) fired \(outcome.fired)")
    }
}
if !run.diagnostics.isEmpty {
    print("\nengine diagnostics: \(run.diagnostics.count)")
    for line in run.diagnostics.prefix(10) { print("  \(line)") }
}
// --show TEXT: every event and command of the samples whose name contains TEXT.
if let index = CommandLine.arguments.firstIndex(of: "--show"), index + 1 < CommandLine.arguments.count {
    let text = CommandLine.arguments[index + 1]
    for outcome in card.outcomes where outcome.sample.name.contains(text) {
        print("\n\(outcome.sample.name): \(outcome.verdict.rawValue)")
        print(RecordingText.recording([outcome.sample]), terminator: "")
        for request in outcome.requests {
            let values = request.environment.filter { $0.key != "TOUCHGEST_RULE" }.sorted { $0.key < $1.key }
                .map { "\($0.key.dropFirst(10))=\($0.value)" }.joined(separator: " ")
            print("  -> \(request.rule) \(request.phase.rawValue) \(values)")
        }
    }
}

// --strokes: the stroke corpus's table and confusions, and the gesture corpus again with
// the stroke rules added: what was right must stay right, and no stroke may fire.
if CommandLine.arguments.contains("--strokes") {
    let strokes: StrokeScorecard
    let withStrokes: CorpusRun
    let withFastRules: [(String, CorpusRun)]
    do {
        strokes = try StrokeScorecard.measure()
        withStrokes = try CorpusRun(rules: CorpusRules.text + StrokeCorpus.rules, withPan: CorpusRules.withPan + StrokeCorpus.rules)
        var fast: [(String, CorpusRun)] = []
        for rules in StrokeCorpus.Rules.allCases where rules != .learned {
            fast.append(("\(rules)", try CorpusRun(rules: CorpusRules.text + rules.text, withPan: CorpusRules.withPan + rules.text)))
        }
        withFastRules = fast
    } catch {
        for diagnostic in error.diagnostics { print(diagnostic.description) }
        exit(1)
    }
    let first = strokes.row(of: .drawn)?.strokes ?? 0
    print("\nstrokes: \(first) drawings of \(DrawnShape.everyday.count) shapes, \(StrokeCorpus.examplesPerShape) templates per shape and hand, seed \(StrokeCorpus.seed)\n")
    print(strokes.table)
    print("\nfamilies: \(strokes.outcomes.count) drawings of \(DrawnShape.allCases.count) shapes (the fast families against rules learned from three fast drawings of each, and from one)\n")
    print(strokes.familyTable)
    for family in StrokeCorpus.Family.allCases where family != .drawn {
        print("\n\(family):\n")
        print(strokes.table(of: family))
    }
    print("\nconfusions (drawn -> fired):")
    if strokes.confusions.isEmpty { print("  none") }
    for confusion in strokes.confusions { print("  \(confusion.drawn) -> \(confusion.fired): \(confusion.count)") }
    if showMisses {
        for (stroke, outcome) in strokes.outcomes where outcome.verdict != .right {
            print("  \(outcome.verdict.rawValue): \(stroke.sample.name) fired \(outcome.fired)")
            for report in strokes.reports[stroke.sample.name] ?? [] {
                print("    \(report.summary())")
                print("    why: " + report.entries.prefix(3).map { "\($0.rule) \($0.ending?.description ?? "undecided")" }.joined(separator: "; "))
            }
        }
    }
    let strokeRules = Set(StrokeCorpus.hands.flatMap { hand in DrawnShape.allCases.map { StrokeCorpus.rule($0, hand.hand) } })
    // The gesture corpus through `run`: its table, the samples right without stroke rules
    // that are not right now, and the samples that fired a stroke rule.
    func withStrokeRules(_ run: CorpusRun) -> (table: String, changed: [String], falseStrokes: [String]) {
        let again = Scorecard.measure(samples, with: run)
        var changed: [String] = []
        var falseStrokes: [String] = []
        for (before, after) in zip(card.outcomes, again.outcomes) {
            if before.verdict == .right && after.verdict != .right { changed.append("\(after.verdict.rawValue): \(after.sample.name) fired \(after.fired)") }
            let strokesFired = after.fired.filter(strokeRules.contains)
            if !strokesFired.isEmpty { falseStrokes.append("\(after.sample.name) fired \(strokesFired)") }
        }
        return (again.table, changed, falseStrokes)
    }
    let again = withStrokeRules(withStrokes)
    // How the scores fall: a stroke's own rule's, and the best any stroke rule reached on
    // the gesture corpus, which must stay under the thresholds.
    func percentiles(_ values: [Double]) -> String {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return "none" }
        func at(_ p: Double) -> String { fixedDecimals(sorted[min(sorted.count - 1, Int(p * Double(sorted.count - 1)))], 3) }
        return "min \(at(0)), 5% \(at(0.05)), median \(at(0.5)), 95% \(at(0.95)), max \(at(1)) (\(sorted.count))"
    }
    let own = strokes.outcomes.compactMap { stroke, outcome in
        outcome.requests.first { $0.rule == stroke.sample.expected?.rule }?.environment["TOUCHGEST_SCORE"].flatMap(Double.init)
    }
    let rivals = withStrokes.strokeReports.compactMap { $0.report.entries.first?.score }
    print("\nscores: strokes' own rules when they fired: \(percentiles(own))")
    print("scores: best stroke rule on each stroke of the gesture corpus: \(percentiles(rivals))")
    print("\nthe gesture corpus with the stroke rules added:\n")
    print(again.table)
    print("\nright before, not right now: \(again.changed.count)")
    for line in again.changed { print("  \(line)") }
    print("false strokes: \(again.falseStrokes.count)")
    for line in again.falseStrokes { print("  \(line)") }
    // The rules learned from fast drawings take lower thresholds (the floor, with one
    // template): they too must leave the gesture corpus alone.
    for (name, run) in withFastRules {
        let fromFast = withStrokeRules(run)
        print("\nwith the rules learned from \(name) of each instead: right before, not right now: \(fromFast.changed.count)")
        for line in fromFast.changed { print("  \(line)") }
        print("false strokes: \(fromFast.falseStrokes.count)")
        for line in fromFast.falseStrokes { print("  \(line)") }
    }
}

// --stroke-rules: the stroke rules learned from the corpus's examples, as a rule file;
// --fast-stroke-rules: those learned from one fast drawing of each shape;
// --fast-three-stroke-rules: from three.
if CommandLine.arguments.contains("--fast-stroke-rules") { print(StrokeCorpus.fastRules) }
if CommandLine.arguments.contains("--fast-three-stroke-rules") { print(StrokeCorpus.fastThreeRules) }

if CommandLine.arguments.contains("--stroke-rules") { print(StrokeCorpus.rules) }
