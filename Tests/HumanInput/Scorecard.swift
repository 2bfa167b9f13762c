import TouchGestures

/// The recognition table: per kind of sample, how many fired once and right, fired
/// wrong, were missed, fired more than once, and (negatives) fired at all.
public struct Scorecard: Sendable {
    /// One row.
    public struct Row: Sendable {
        public var kind: SampleKind
        public var samples = 0
        public var right = 0
        public var wrong = 0
        public var missed = 0
        public var multiple = 0
        public var falsePositives = 0

        /// Fired once and right, as a fraction of the samples (positives only).
        public var recall: Double { samples == 0 ? 0 : Double(right) / Double(samples) }
    }

    public private(set) var rows: [Row]
    public private(set) var outcomes: [Outcome]

    /// Scores `outcomes`.
    public init(_ outcomes: [Outcome]) {
        self.outcomes = outcomes
        rows = SampleKind.allCases.compactMap { kind in
            let mine = outcomes.filter { $0.sample.kind == kind }
            guard !mine.isEmpty else { return nil }
            var row = Row(kind: kind)
            for outcome in mine {
                row.samples += 1
                switch outcome.verdict {
                case .right, .quiet: row.right += 1
                case .wrong: row.wrong += 1
                case .missed: row.missed += 1
                case .multiple: row.multiple += 1
                case .falsePositive: row.falsePositives += 1
                }
            }
            return row
        }
    }

    /// Runs the whole corpus through `run`.
    public static func measure(_ samples: [Sample] = Corpus.samples(), with run: CorpusRun) -> Scorecard {
        Scorecard(samples.map(run.outcome))
    }

    /// The row for `kind`.
    public func row(_ kind: SampleKind) -> Row? { rows.first { $0.kind == kind } }

    /// Swipes of every device that fired once, right, as a fraction of all swipes.
    public var swipeRecall: Double {
        let swipes = rows.filter(\.kind.isSwipe)
        let total = swipes.map(\.samples).reduce(0, +)
        return total == 0 ? 0 : Double(swipes.map(\.right).reduce(0, +)) / Double(total)
    }

    /// The table as Markdown.
    public var table: String {
        var lines = ["| kind | samples | fired once, right | wrong rule or values | missed | fired more than once | false positives | recall |",
                     "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for row in rows {
            let recall = row.kind.isNegative ? "-" : "\(fixedDecimals(row.recall * 100, 1))%"
            let right = row.kind.isNegative ? "-" : "\(row.right)"
            lines.append("| \(row.kind.rawValue) | \(row.samples) | \(right) | \(row.wrong) | \(row.missed) | \(row.multiple) | \(row.falsePositives) | \(recall) |")
        }
        lines.append("| all swipes | \(rows.filter(\.kind.isSwipe).map(\.samples).reduce(0, +)) | | | | | | \(fixedDecimals(swipeRecall * 100, 1))% |")
        return lines.joined(separator: "\n")
    }
}
