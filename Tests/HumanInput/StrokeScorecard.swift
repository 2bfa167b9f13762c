import Rulebook
import StrokeGestures
import TouchGestures

/// The stroke table: per family and shape, how many strokes fired their own rule once and
/// nothing else (top-1), fired another, fired nothing or more than one; and which shape
/// was taken for which.
public struct StrokeScorecard: Sendable {
    /// One row: a shape of a family, or a whole family (`shape` nil).
    public struct Row: Sendable {
        public var family: StrokeCorpus.Family
        public var shape: DrawnShape?
        public var strokes = 0
        public var right = 0
        public var wrong = 0
        public var missed = 0
        public var multiple = 0

        public var recall: Double { strokes == 0 ? 0 : Double(right) / Double(strokes) }
    }

    /// Per shape, the first corpus's (``StrokeCorpus/Family/drawn``) and then each new family's.
    public private(set) var rows: [Row]
    /// Per family.
    public private(set) var families: [Row]
    public private(set) var outcomes: [(stroke: StrokeCorpus.StrokeSample, outcome: Outcome)]
    /// How each stroke matched the stroke rules, by sample name (what `replay` prints).
    public var reports: [String: [StrokeReport]] = [:]

    /// Scores the outcomes of strokes.
    public init(_ outcomes: [(stroke: StrokeCorpus.StrokeSample, outcome: Outcome)]) {
        self.outcomes = outcomes
        func row(_ family: StrokeCorpus.Family, _ shape: DrawnShape?) -> Row {
            var row = Row(family: family, shape: shape)
            for (stroke, outcome) in outcomes where stroke.family == family && (shape == nil || stroke.shape == shape) {
                row.strokes += 1
                switch outcome.verdict {
                case .right, .quiet: row.right += 1
                case .wrong, .falsePositive: row.wrong += 1
                case .missed: row.missed += 1
                case .multiple: row.multiple += 1
                }
            }
            return row
        }
        let present = StrokeCorpus.Family.allCases.filter { family in outcomes.contains { $0.stroke.family == family } }
        rows = present.flatMap { family in family.shapes.map { row(family, $0) } }
        families = present.map { row($0, nil) }
    }

    /// The stroke corpus run through the gesture corpus's rules with the stroke rules added:
    /// each family's strokes with its own rule set (``StrokeCorpus/Family/rules``).
    public static func measure(_ strokes: [StrokeCorpus.StrokeSample] = StrokeCorpus.samples()) throws(RuleFileError) -> StrokeScorecard {
        var runs: [StrokeCorpus.Rules: CorpusRun] = [:]
        for rules in Set(strokes.map(\.family.rules)) {
            runs[rules] = try CorpusRun(rules: CorpusRules.text + rules.text, withPan: CorpusRules.withPan + rules.text)
        }
        var card = StrokeScorecard(strokes.map { ($0, runs[$0.family.rules]!.outcome(of: $0.sample)) })
        card.reports = Dictionary(grouping: runs.values.flatMap(\.strokeReports), by: \.sample).mapValues { $0.map(\.report) }
        return card
    }

    /// Strokes that fired their own rule once and nothing else, as a fraction of all.
    public var accuracy: Double {
        let total = families.map(\.strokes).reduce(0, +)
        return total == 0 ? 0 : Double(families.map(\.right).reduce(0, +)) / Double(total)
    }

    /// The row of `shape` in `family`.
    public func row(_ shape: DrawnShape, of family: StrokeCorpus.Family = .drawn) -> Row? {
        rows.first { $0.family == family && $0.shape == shape }
    }

    /// The row of `family` as a whole.
    public func row(of family: StrokeCorpus.Family) -> Row? { families.first { $0.family == family } }

    /// Every stroke that was not right: what was drawn, and what fired instead (`nothing`).
    public var confusions: [(drawn: String, fired: String, count: Int)] {
        var counts: [String: [String: Int]] = [:]
        for (stroke, outcome) in outcomes where outcome.verdict != .right {
            let fired = outcome.fired.isEmpty ? "nothing" : outcome.fired.joined(separator: " + ")
            let drawn = stroke.family == .drawn ? stroke.shape.rawValue : "\(stroke.shape.rawValue) (\(stroke.family))"
            counts[drawn, default: [:]][fired, default: 0] += 1
        }
        return counts.flatMap { drawn, fired in fired.map { (drawn, $0.key, $0.value) } }
            .sorted { ($0.drawn, $0.fired) < ($1.drawn, $1.fired) }
    }

    /// The first corpus's table as Markdown, per shape with its total, as it was before the
    /// new families.
    public var table: String { table(of: .drawn) }

    /// The table of one family as Markdown, per shape with its total.
    public func table(of family: StrokeCorpus.Family) -> String {
        var lines = ["| shape | strokes | fired its rule once (top-1) | fired another | fired nothing | fired more than once | recall |",
                     "|---|---:|---:|---:|---:|---:|---:|"]
        for row in rows where row.family == family { lines.append(Self.line(row.shape?.rawValue ?? "", row)) }
        if let all = row(of: family) { lines.append(Self.line("all", all)) }
        return lines.joined(separator: "\n")
    }

    /// Every family's total as Markdown, and all of them together.
    public var familyTable: String {
        var lines = ["| family | shapes | strokes | fired its rule once (top-1) | fired another | fired nothing | fired more than once | recall |",
                     "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for row in families { lines.append(Self.line("\(row.family) | \(row.family.shapes.count)", row)) }
        var all = Row(family: .drawn, shape: nil)
        for row in families {
            all.strokes += row.strokes
            all.right += row.right
            all.wrong += row.wrong
            all.missed += row.missed
            all.multiple += row.multiple
        }
        lines.append(Self.line("all | \(DrawnShape.allCases.count)", all))
        return lines.joined(separator: "\n")
    }

    private static func line(_ name: String, _ row: Row) -> String {
        "| \(name) | \(row.strokes) | \(row.right) | \(row.wrong) | \(row.missed) | \(row.multiple) | \(fixedDecimals(row.recall * 100, 1))% |"
    }
}
