import TouchGestures

/// One recognizer's best template for a stroke.
public struct StrokeCandidate {
    /// The recognizer that has the template.
    public let recognizer: StrokeGestureRecognizer
    /// The index of its best template, and that template's score.
    public let template: Int
    public let score: Double

    /// Whether it ranks first though another rule's template scored higher: the second look
    /// (``StrokeDefaults/secondLookLead``) found the stroke nearer its shape where the two differ.
    public internal(set) var wonSecondLook = false

    init(_ recognizer: StrokeGestureRecognizer, _ match: (template: Int, score: Double)) {
        self.recognizer = recognizer
        template = match.template
        score = match.score
    }

    /// Why `loser` lost to this candidate, the first of `ranking`: by the second look if it
    /// was the rule this one passed there, else by the closer template.
    func beat(_ loser: StrokeGestureRecognizer, in ranking: [StrokeCandidate]) -> StrokeEnding {
        wonSecondLook && ranking.count > 1 && ranking[1].recognizer === loser
            ? .closerWhereTheyDiffer(recognizer.label) : .outscored(by: recognizer.label)
    }

    /// Whether this candidate beats `other`: a higher score, or the same score and a name
    /// that sorts first (the engine's own order), so that a tie has one winner.
    func outranks(_ other: StrokeCandidate) -> Bool {
        score != other.score ? score > other.score : recognizer.label < other.recognizer.label
    }
}

/// Stroke recognizers that compete for the same strokes, and one report of each stroke.
///
/// Each recognizer alone knows only whether its own templates match; when a stroke ends,
/// the group ranks every recognizer still following it, so that the one with the closest
/// template wins and a shape never fires a rule whose template is merely close enough.
/// When all of them have decided, the group tells ``onReport`` how the stroke matched,
/// whether it fired anything or not (`touchgest debug`, `replay` and `learn` show it).
///
/// Recognizers are held weakly; each holds its group.
public final class StrokeGroup {
    private struct Member {
        weak var recognizer: StrokeGestureRecognizer?
    }

    private var members: [Member] = []
    /// The ranking of the stroke being decided, kept for the others deciding in the same frame.
    private var ranked: (key: StrokeKey, ranking: [StrokeCandidate])?
    /// The last stroke reported, so that it is reported once.
    private var reported: StrokeKey?

    /// Called once per stroke, when every recognizer that followed it has decided, if the
    /// stroke spanned at least the smallest ``StrokeGestureRecognizer/minimumSize`` among them.
    public var onReport: ((StrokeReport) -> Void)?

    public init() {}

    /// Adds `recognizer` to the group (taking it from its group, if it had one). Add it
    /// after its other actions: a stroke is reported after the recognition's actions run.
    public func add(_ recognizer: StrokeGestureRecognizer) {
        recognizer.group?.members.removeAll { $0.recognizer === recognizer || $0.recognizer == nil }
        recognizer.group = self
        members.append(Member(recognizer: recognizer))
        // A failure has no actions: its state write tells. A recognition is reported from
        // an action, so that what it runs comes first.
        // Each closure belongs to this recognizer and is only ever called with it: it is
        // held weakly (it holds the closures), not asked back from the engine's type.
        recognizer.addStateObserver { [weak self, weak recognizer] _, _, to in
            guard to == .failed || to == .cancelled, let recognizer, recognizer.group === self else { return }
            self?.decided(recognizer)
        }
        recognizer.addAction { [weak self, weak recognizer] _ in
            guard let recognizer, recognizer.state == .recognized, recognizer.group === self else { return }
            self?.decided(recognizer)
        }
    }

    /// The recognizers of the group.
    public var recognizers: [StrokeGestureRecognizer] { members.compactMap(\.recognizer) }

    /// Identifies a stroke: the recognizers that follow the same one saw all its fingers
    /// down in the same frame of the same device.
    private struct StrokeKey: Equatable {
        var start: Timestamp
        var device: DeviceID?
        var fingers: Int

        init?(_ recognizer: StrokeGestureRecognizer) {
            guard let path = recognizer.path else { return nil }
            start = path.start
            device = recognizer.device
            fingers = recognizer.numberOfTouchesRequired
        }
    }

    /// The recognizers following the same stroke as `recognizer` (it too).
    private func followers(of key: StrokeKey) -> [StrokeGestureRecognizer] {
        recognizers.filter { StrokeKey($0) == key }
    }

    /// Every recognizer still deciding `recognizer`'s stroke, with its best template for
    /// `readings` of the stroke (the whole stroke first), best first: by score, and the first
    /// two by where their shapes differ when their scores are close
    /// (``StrokeDefaults/secondLookLead``).
    func ranking(for recognizer: StrokeGestureRecognizer, readings: [StrokeShape]) -> [StrokeCandidate] {
        guard let key = StrokeKey(recognizer) else { return [] }
        if let ranked, ranked.key == key, ranked.ranking.contains(where: { $0.recognizer === recognizer }) {
            return ranked.ranking
        }
        var ranking = followers(of: key)
            .filter { $0 === recognizer || $0.state == .possible }
            .compactMap { rival in rival.match(readings).map { StrokeCandidate(rival, $0) } }
            .sorted { $0.outranks($1) }
        // The second rule must be able to fire: else the first would fail and nothing would.
        if ranking.count > 1, let whole = readings.first, ranking[0].score - ranking[1].score < StrokeDefaults.secondLookLead,
           ranking[1].score >= ranking[1].recognizer.threshold {
            let first = ranking[0].recognizer.templates, second = ranking[1].recognizer.templates
            if min(first.count, second.count) >= StrokeDefaults.secondLookTemplates,
               StrokeMatcher.prefersSecond(whole, first: first, second: second) {
                ranking.swapAt(0, 1)
                ranking[0].wonSecondLook = true
            }
        }
        ranked = (key, ranking)
        return ranking
    }

    /// A recognizer of the group decided; once all that followed its stroke have, the
    /// stroke is reported.
    private func decided(_ recognizer: StrokeGestureRecognizer) {
        guard let key = StrokeKey(recognizer), key != reported else { return }
        let followers = followers(of: key)
        guard followers.allSatisfy({ $0.state.isTerminal }) else { return }
        reported = key
        let ranking = ranked?.key == key ? ranked?.ranking : nil
        if ranked?.key == key { ranked = nil }
        guard let onReport,
              let path = followers.compactMap(\.path).max(by: { $0.points.count < $1.points.count }),
              path.size >= followers.map(\.minimumSize).min() ?? 0 else { return }
        let readings = StrokeGestureRecognizer.readings(of: path.points)
        // A follower the engine failed because the winner, deciding first, took the
        // fingers never decided itself: it lost to the winner.
        let winner = followers.first { $0.state == .recognized }
        let entries = followers.map { follower in
            let match = follower.bestMatch ?? follower.match(readings)
            var ending = follower.ending
            if ending == nil, match != nil, let winner, follower !== winner {
                if let ranking, let first = ranking.first, first.recognizer === winner {
                    ending = first.beat(follower, in: ranking)
                } else {
                    ending = .outscored(by: winner.label)
                }
            }
            return StrokeReport.Entry(rule: follower.label, template: match?.template, score: match?.score,
                                      threshold: follower.threshold, ending: ending, fired: follower.state == .recognized)
        }
        onReport(StrokeReport(path: path, fingers: key.fingers, touchType: recognizer.touchType, device: key.device,
                              entries: entries.sorted { ($0.score ?? -1, $1.rule) > ($1.score ?? -1, $0.rule) }))
    }
}
