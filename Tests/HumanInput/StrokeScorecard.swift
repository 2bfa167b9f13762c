import Rulebook
import StrokeGestures
import TouchGestures

/// The stroke table: per shape, how many strokes fired their own rule once and nothing
/// else (top-1), fired another, fired nothing or more than one; and which shape was taken
/// for which.
public struct StrokeScorecard: Sendable {
    /// One row.
    public struct Row: Sendable {
        public var shape: DrawnShape
        public var strokes = 0
        public var right = 0
        public var wrong = 0
        public var missed = 0
        public var multiple = 0

        public var recall: Double { strokes == 0 ? 0 : Double(right) / Double(strokes) }
    }

    public private(set) var rows: [Row]
    public private(set) var outcomes: [(stroke: StrokeCorpus.StrokeSample, outcome: Outcome)]
    /// How each stroke matched the stroke rules, by sample name (what `replay` prints).
    public var reports: [String: [StrokeReport]] = [:]

    /// Scores the outcomes of strokes.
    public init(_ outcomes: [(stroke: StrokeCorpus.StrokeSample, outcome: Outcome)]) {
        self.outcomes = outcomes
        rows = DrawnShape.allCases.map { shape in
            var row = Row(shape: shape)
            for (stroke, outcome) in outcomes where stroke.shape == shape {
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
    }

    /// The stroke corpus run through the gesture corpus's rules with the stroke rules added.
    public static func measure(_ strokes: [StrokeCorpus.StrokeSample] = StrokeCorpus.samples()) throws(RuleFileError) -> StrokeScorecard {
        let run = try CorpusRun(rules: CorpusRules.text + StrokeCorpus.rules, withPan: CorpusRules.withPan + StrokeCorpus.rules)
        var card = StrokeScorecard(strokes.map { ($0, run.outcome(of: $0.sample)) })
        card.reports = Dictionary(grouping: run.strokeReports, by: \.sample).mapValues { $0.map(\.report) }
        return card
    }

    /// Strokes that fired their own rule once and nothing else, as a fraction of all.
    public var accuracy: Double {
        let total = rows.map(\.strokes).reduce(0, +)
        return total == 0 ? 0 : Double(rows.map(\.right).reduce(0, +)) / Double(total)
    }

    /// Every stroke that was not right: what was drawn, and what fired instead (`nothing`).
    public var confusions: [(drawn: String, fired: String, count: Int)] {
        var counts: [String: [String: Int]] = [:]
        for (stroke, outcome) in outcomes where outcome.verdict != .right {
            let fired = outcome.fired.isEmpty ? "nothing" : outcome.fired.joined(separator: " + ")
            counts[stroke.shape.rawValue, default: [:]][fired, default: 0] += 1
        }
        return counts.flatMap { drawn, fired in fired.map { (drawn, $0.key, $0.value) } }
            .sorted { ($0.drawn, $0.fired) < ($1.drawn, $1.fired) }
    }

    /// The table as Markdown, with the total.
    public var table: String {
        var lines = ["| shape | strokes | fired its rule once (top-1) | fired another | fired nothing | fired more than once | recall |",
                     "|---|---:|---:|---:|---:|---:|---:|"]
        for row in rows {
            lines.append("| \(row.shape.rawValue) | \(row.strokes) | \(row.right) | \(row.wrong) | \(row.missed) | \(row.multiple) | \(fixedDecimals(row.recall * 100, 1))% |")
        }
        let total = rows.map(\.strokes).reduce(0, +)
        lines.append("| all | \(total) | \(rows.map(\.right).reduce(0, +)) | \(rows.map(\.wrong).reduce(0, +)) | \(rows.map(\.missed).reduce(0, +)) | \(rows.map(\.multiple).reduce(0, +)) | \(fixedDecimals(accuracy * 100, 1))% |")
        return lines.joined(separator: "\n")
    }
}
