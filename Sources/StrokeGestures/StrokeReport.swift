import TouchGestures

/// How one stroke matched: every recognizer of a group that followed it, with its best
/// template's score and what it decided, best first. What `touchgest debug` and `replay`
/// print for every stroke, including one that fired nothing, so a threshold can be tuned.
public struct StrokeReport: Sendable {
    /// One recognizer's part.
    public struct Entry: Sendable, Equatable {
        /// The recognizer's label (a rule's name).
        public var rule: String
        /// Its best template (an index into its templates) and that template's score, on
        /// the longest path any of them followed; nil when it has no template.
        public var template: Int?
        public var score: Double?
        /// The score its best template had to reach.
        public var threshold: Double
        /// What it decided, or whom it lost to when the stroke rule that fired decided first
        /// and took the fingers; nil when another gesture (a swipe, a tap) stopped it.
        public var ending: StrokeEnding?
        /// Whether it was recognized.
        public var fired: Bool
    }

    /// The longest path any of them followed.
    public var path: StrokePath
    /// The fingers that drew it.
    public var fingers: Int
    /// Touchscreen (direct) or touchpad (indirect).
    public var touchType: TouchType?
    /// The device it was drawn on.
    public var device: DeviceID?
    /// Best score first.
    public var entries: [Entry]

    /// The entry that fired, if one did.
    public var fired: Entry? { entries.first(where: \.fired) }

    /// The verdict in a few words, for the overlay: `v 0.91 fired`, or `nothing fired;
    /// closest v 0.74 (needs 0.80)`, or `no template to compare`.
    public var verdict: String {
        guard let best = entries.first(where: { $0.score != nil }) else { return "no template to compare" }
        if let fired { return "\(fired.rule) \(fixedDecimals(fired.score ?? 0, 2)) fired" }
        return "nothing fired; closest \(best.rule) \(fixedDecimals(best.score ?? 0, 2)) (needs \(fixedDecimals(best.threshold, 2)))"
    }

    /// `stroke, 1 finger, 64 mm: v 0.91 (threshold 0.80) fired; caret 0.52, check 0.47`, or
    /// `...: nothing fired; best v 0.74 (threshold 0.80, below its threshold); caret 0.52`.
    /// At most `shown` entries are named.
    public func summary(shown: Int = 3) -> String {
        var text = "stroke, \(fingers) finger\(fingers == 1 ? "" : "s"), \(fixedDecimals(path.length, 0)) mm"
        let scored = entries.filter { $0.score != nil }
        guard let best = scored.first else { return text + ": no template to compare" }
        func named(_ entry: Entry) -> String { "\(entry.rule) \(fixedDecimals(entry.score ?? 0, 2))" }
        if let fired {
            text += ": \(named(fired)) (threshold \(fixedDecimals(fired.threshold, 2))) fired"
        } else {
            let why = best.ending.map { ", \($0)" } ?? ", stopped by another gesture"
            text += ": nothing fired; best \(named(best)) (threshold \(fixedDecimals(best.threshold, 2))\(why))"
        }
        let others = scored.filter { !$0.fired && ($0.rule != best.rule || fired != nil) }.prefix(shown - 1)
        if !others.isEmpty { text += "; then " + others.map(named).joined(separator: ", ") }
        return text
    }
}
