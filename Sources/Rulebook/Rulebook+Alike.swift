import StrokeGestures
import TouchGestures

/// Warnings for rules that can never be told apart: one line per group of alike rules.
extension Rulebook {
    /// Most rule names a warning about alike rules lists before it counts the rest: enough
    /// to find them in the file, and one short line however many rules are alike (a file of
    /// 1,024 copies of one tap made 523,776 lines when each pair had its own).
    static let alikeNamesShown = 4

    /// Warns once per group of rules that can never be told apart. Two rules are alike when
    /// they match the same gesture in the same window (``sameGesture(_:_:)``), or, for
    /// strokes, when a template of one scores at least their threshold against the other's;
    /// a group is the rules joined by being alike two by two, reported at the first rule
    /// alike to an earlier one.
    ///
    /// Rules equal in everything that decides alikeness are one class, found by a key in
    /// one pass; only the first rule of each class is compared with the others', within
    /// its gesture, device name and window. So copies of one rule cost n steps, and what is
    /// kept is a few numbers a rule, never a list of pairs.
    func checkIndistinguishable(_ parser: inout RuleParser) {
        struct Bucket: Hashable {
            var gesture: GestureKind
            var deviceName: String?
            var window: WindowCondition
            /// Rules wanting other modifiers or buttons held are told apart by them.
            var held: HeldCondition
        }
        struct Likeness: Hashable {
            var bucket: Bucket
            var device: DeviceKind
            var fingers, maxFingers, taps: Int
            var directions: SwipeDirection
            var edges: RectEdge
            var templates: [[Point]]
            var threshold: Double
        }
        var classOf: [Likeness: Int] = [:]
        // Each class's first rule, and the classes of each bucket in file order.
        var firstOfClass: [Int] = []
        var classesOf: [Bucket: [Int]] = [:]
        var groups = AlikeGroups(count: rules.count)
        for (index, rule) in rules.enumerated() {
            let bucket = Bucket(gesture: rule.gesture, deviceName: rule.deviceName, window: rule.window, held: rule.held)
            let stroke = rule.gesture == .stroke
            let key = Likeness(bucket: bucket, device: rule.device, fingers: rule.fingers, maxFingers: rule.maxFingers,
                               taps: rule.taps, directions: rule.directions, edges: rule.edges,
                               templates: stroke ? rule.templates.map(\.points) : [],
                               threshold: stroke ? rule.strokeThreshold : 0)
            if let known = classOf[key] {
                groups.setClass(index, known)
                let first = firstOfClass[known]
                if let closeness = closeness(rules[first], rule) { groups.join(first, index, closeness) }
            } else {
                classOf[key] = firstOfClass.count
                groups.setClass(index, firstOfClass.count)
                classesOf[bucket, default: []].append(firstOfClass.count)
                firstOfClass.append(index)
            }
        }
        for classes in classesOf.values {
            for (offset, one) in classes.enumerated() {
                for other in classes[(offset + 1)...] {
                    let a = firstOfClass[one], b = firstOfClass[other]
                    if let closeness = closeness(rules[a], rules[b]) { groups.join(a, b, closeness) }
                }
            }
        }
        for group in groups.groups() {
            let first = rules[group.members[0]]
            let names = Self.alikeNames(group.members.prefix(Self.alikeNamesShown).map { rules[$0].name }, more: group.count - group.members.count)
            let message: String
            if first.gesture == .stroke, let closest = group.closest {
                let score = fixedDecimals(closest.score, 2), threshold = fixedDecimals(closest.threshold, 2)
                message = group.count == 2
                    ? "rules \(names) draw shapes too alike to be told apart: a template of one scores \(score) against the other's, at least the threshold \(threshold); draw them again with touchgest learn, or make them more different"
                    : "rules \(names) draw shapes too alike to be told apart, each like another of them: the closest, '\(rules[closest.a].name)' and '\(rules[closest.b].name)', score \(score) against each other, at least the threshold \(threshold); draw them again with touchgest learn, or make them more different"
            } else if group.count == 2 || !group.mixed {
                message = "rules \(names) match the same gesture (\(Self.summary(first))) and can never be told apart; only one of them will run"
            } else {
                message = "rules \(names) match gestures that overlap, each with another of them (the first: \(Self.summary(first))), and can never all be told apart; where they match the same gesture, only one of them will run"
            }
            parser.warning(message, at: parser.ruleTables[rules[group.reportAt].name]?.header)
        }
    }

    /// How alike two rules are, or nil when they are told apart: 1 for rules that match the
    /// same gesture, and for strokes the score of their closest templates.
    private func closeness(_ a: Rule, _ b: Rule) -> AlikeGroups.Closeness? {
        guard Self.sameGesture(a, b) && a.window == b.window else { return nil }
        guard a.gesture == .stroke else { return AlikeGroups.Closeness(score: 1, threshold: 0) }
        // Strokes are told apart by their shapes: alike is a matter of degree.
        let score = StrokeLearner.closeness(a.templates, b.templates)
        let threshold = min(a.strokeThreshold, b.strokeThreshold)
        return score >= threshold ? AlikeGroups.Closeness(score: score, threshold: threshold) : nil
    }

    /// `'a' and 'b'`, `'a', 'b' and 'c'`, `'a', 'b', 'c', 'd' and 12 more`.
    static func alikeNames(_ names: [String], more: Int) -> String {
        let quoted = names.map { "'\($0)'" }
        if more > 0 { return quoted.joined(separator: ", ") + " and \(more) more" }
        guard quoted.count > 1 else { return quoted.joined() }
        return quoted.dropLast().joined(separator: ", ") + " and " + quoted[quoted.count - 1]
    }
}

/// Rules joined into groups by being alike two by two (a union-find over rule indices),
/// keeping for each group only what its warning says.
struct AlikeGroups {
    struct Closeness {
        var score: Double
        var threshold: Double
    }

    /// The two rules of a group that score highest against each other.
    struct Closest {
        var score: Double
        var threshold: Double
        var a: Int
        var b: Int
    }

    /// One group of two or more rules, for its warning.
    struct Group {
        /// The first few rules, in file order.
        var members: [Int]
        var count: Int
        /// The first rule alike to an earlier one: where the warning is reported.
        var reportAt: Int
        /// Whether its rules are of more than one class (not all equal).
        var mixed: Bool
        var closest: Closest?
    }

    private var parent: [Int]
    private var size: [Int]
    private var reportAt: [Int]
    private var firstClass: [Int]
    private var mixed: [Bool]
    private var closest: [Closest?]

    init(count: Int) {
        parent = Array(0..<count)
        size = Array(repeating: 1, count: count)
        reportAt = Array(repeating: Int.max, count: count)
        firstClass = Array(repeating: 0, count: count)
        mixed = Array(repeating: false, count: count)
        closest = Array(repeating: nil, count: count)
    }

    mutating func setClass(_ rule: Int, _ id: Int) {
        firstClass[rule] = id
    }

    private mutating func root(_ rule: Int) -> Int {
        var rule = rule
        while parent[rule] != rule {
            parent[rule] = parent[parent[rule]]
            rule = parent[rule]
        }
        return rule
    }

    /// Rules `a` and `b` (`a` first in the file) are alike.
    mutating func join(_ a: Int, _ b: Int, _ closeness: Closeness) {
        var one = root(a), other = root(b)
        if one != other {
            if size[one] < size[other] { swap(&one, &other) }
            parent[other] = one
            size[one] += size[other]
            reportAt[one] = min(reportAt[one], reportAt[other])
            mixed[one] = mixed[one] || mixed[other] || firstClass[one] != firstClass[other]
            if let theirs = closest[other], theirs.score > closest[one]?.score ?? -1 { closest[one] = theirs }
        }
        reportAt[one] = min(reportAt[one], max(a, b))
        if closeness.score > closest[one]?.score ?? -1 {
            closest[one] = Closest(score: closeness.score, threshold: closeness.threshold, a: min(a, b), b: max(a, b))
        }
    }

    /// The groups of two or more rules, in the order of their first rules.
    mutating func groups() -> [Group] {
        var byRoot: [Int: Int] = [:]
        var result: [Group] = []
        for rule in parent.indices {
            let top = root(rule)
            guard size[top] > 1 else { continue }
            if let at = byRoot[top] {
                if result[at].members.count < Rulebook.alikeNamesShown { result[at].members.append(rule) }
            } else {
                byRoot[top] = result.count
                result.append(Group(members: [rule], count: size[top], reportAt: reportAt[top], mixed: mixed[top], closest: closest[top]))
            }
        }
        return result
    }
}
