import TouchGestures

/// A validated rule file: its rules, settings, warnings, and the order in which rules
/// wait for each other.
public struct Rulebook: Sendable {
    /// Why one rule waits for another to fail.
    public enum Reason: String, Sendable {
        /// `require-to-fail` in the file.
        case explicit = "require-to-fail"
        /// Fewer taps wait for more taps (same fingers and device).
        case moreTaps = "more taps"
        /// A tap waits for a long-press on the same fingers.
        case longPress = "long-press"
    }

    /// `waiter` waits for `waitedOn` to fail before it may fire.
    public struct Requirement: Hashable, Sendable {
        public var waiter: String
        public var waitedOn: String
        public var reason: Reason
    }

    /// Most rules one file may hold. Every touch passes through every rule's
    /// recognizer, and ordering work grows with rules squared: 256 is far more than a
    /// desktop's gestures (the examples have about ten) and keeps both small.
    public static let maximumRules = 256

    public var file: String
    public var rules: [Rule]
    public var settings: Settings
    public var warnings: [Diagnostic]
    public var requirements: [Requirement]

    /// Parses and validates rule-file text. Throws every error of the file at once;
    /// warnings come back in ``warnings``.
    public static func parse(_ text: String, file: String) throws(RuleFileError) -> Rulebook {
        var parser = RuleParser(file: file)
        guard let (rules, settings) = parser.parse(text) else {
            throw RuleFileError(diagnostics: parser.diagnostics)
        }
        var book = Rulebook(file: file, rules: rules, settings: settings, warnings: [], requirements: [])
        book.checkRequireToFail(&parser)
        book.addAutomaticOrder()
        book.checkCycles(&parser)
        book.checkIndistinguishable(&parser)
        let errors = parser.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty else { throw RuleFileError(diagnostics: Self.sorted(parser.diagnostics)) }
        book.warnings = Self.sorted(parser.diagnostics)
        return book
    }

    private static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
    }

    public func rule(named name: String) -> Rule? { rules.first { $0.name == name } }

    // MARK: Order

    private mutating func checkRequireToFail(_ parser: inout RuleParser) {
        let names = rules.map(\.name)
        let known = Set(names)
        for rule in rules {
            var seen: Set<String> = []
            for other in rule.requireToFail where seen.insert(other).inserted {
                let at = parser.place(rule: rule.name, "require-to-fail")
                if !known.contains(other) {
                    let hint = didYouMean(other, among: names)
                    parser.error("rule '\(rule.name)' requires unknown rule '\(other)' to fail\(hint); rules in this file: \(names.joined(separator: ", "))", at: at)
                } else {
                    requirements.append(Requirement(waiter: rule.name, waitedOn: other, reason: .explicit))
                }
            }
        }
    }

    /// The ordering users expect without writing it: N taps wait for the next larger
    /// tap count on the same fingers and device; a tap waits for a long-press on the same fingers.
    private mutating func addAutomaticOrder() {
        for rule in rules where rule.gesture == .tap {
            let larger = rules.filter { $0.gesture == .tap && Self.sameInput($0, rule) && $0.taps > rule.taps }
            if let next = larger.map(\.taps).min() {
                for other in larger where other.taps == next {
                    add(Requirement(waiter: rule.name, waitedOn: other.name, reason: .moreTaps))
                }
            }
            for other in rules where other.gesture == .longPress && Self.sameInput(other, rule) {
                add(Requirement(waiter: rule.name, waitedOn: other.name, reason: .longPress))
            }
        }
    }

    private mutating func add(_ requirement: Requirement) {
        if !requirements.contains(where: { $0.waiter == requirement.waiter && $0.waitedOn == requirement.waitedOn }) {
            requirements.append(requirement)
        }
    }

    /// Same fingers, overlapping devices, same device-name filter.
    private static func sameInput(_ a: Rule, _ b: Rule) -> Bool {
        a.fingers == b.fingers && a.device.overlaps(b.device) && a.deviceName == b.deviceName
    }

    /// Reports one cycle per group of rules that wait for each other (a strongly
    /// connected component), in time linear in rules and requirements: a search that
    /// follows every path can take exponential time on a lattice of requirements.
    private func checkCycles(_ parser: inout RuleParser) {
        let names = rules.map(\.name)
        let number = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var next = [[Int]](repeating: [], count: names.count)
        for requirement in requirements {
            if let waiter = number[requirement.waiter], let waitedOn = number[requirement.waitedOn] { next[waiter].append(waitedOn) }
        }
        for component in Self.stronglyConnectedComponents(next) {
            // Components come out whole; the cycle starts at the component's first rule.
            guard let start = component.min(), let ring = Self.shortestCycle(through: start, within: Set(component), next) else { continue }
            var cycle = ring.map { names[$0] } + [names[start]]
            // Start at a require-to-fail the user wrote: that is the edge they can change.
            let named = Array(cycle.dropLast())
            if let first = named.indices.first(where: { index in
                requirements.contains { $0.waiter == named[index] && $0.waitedOn == named[(index + 1) % named.count] && $0.reason == .explicit }
            }) {
                cycle = Array(named[first...] + named[..<first]) + [named[first]]
            }
            let via = zip(cycle, cycle.dropFirst()).compactMap { waiter, waited in
                requirements.first { $0.waiter == waiter && $0.waitedOn == waited }.map { "\(waiter) waits for \(waited) (\($0.reason.rawValue))" }
            }
            parser.error("require-to-fail cycle: \(cycle.joined(separator: " -> ")); each would wait for the other forever: \(via.joined(separator: ", "))",
                         at: parser.place(rule: cycle[0], "require-to-fail"))
        }
    }

    /// Tarjan's strongly connected components, with an explicit stack (no recursion).
    static func stronglyConnectedComponents(_ next: [[Int]]) -> [[Int]] {
        var index = [Int?](repeating: nil, count: next.count)
        var low = [Int](repeating: 0, count: next.count)
        var onStack = [Bool](repeating: false, count: next.count)
        var stack: [Int] = []
        var components: [[Int]] = []
        var counter = 0
        for root in next.indices where index[root] == nil {
            var work: [(node: Int, edge: Int)] = []
            func enter(_ node: Int) {
                index[node] = counter
                low[node] = counter
                counter += 1
                stack.append(node)
                onStack[node] = true
                work.append((node, 0))
            }
            enter(root)
            while let (node, edge) = work.last {
                if edge < next[node].count {
                    work[work.count - 1].edge += 1
                    let successor = next[node][edge]
                    if let seen = index[successor] {
                        if onStack[successor] { low[node] = min(low[node], seen) }
                    } else {
                        enter(successor)
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last { low[parent.node] = min(low[parent.node], low[node]) }
                guard low[node] == index[node] else { continue }
                var component: [Int] = []
                while let top = stack.popLast() {
                    onStack[top] = false
                    component.append(top)
                    if top == node { break }
                }
                let isCycle = component.count > 1 || next[node].contains(node)
                if isCycle { components.append(component) }
            }
        }
        return components
    }

    /// The rules of a shortest cycle from `start` back to it inside `members`, `start` first.
    static func shortestCycle(through start: Int, within members: Set<Int>, _ next: [[Int]]) -> [Int]? {
        var parent: [Int: Int] = [:]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for successor in next[node] where members.contains(successor) {
                if successor == start {
                    var ring = [node]
                    while let previous = parent[ring[ring.count - 1]] { ring.append(previous) }
                    return ring.reversed()
                }
                if parent[successor] == nil {
                    parent[successor] = node
                    queue.append(successor)
                }
            }
        }
        return nil
    }

    private func checkIndistinguishable(_ parser: inout RuleParser) {
        for (index, a) in rules.enumerated() {
            for b in rules[(index + 1)...] where Self.sameGesture(a, b) {
                parser.warning("rules '\(a.name)' and '\(b.name)' match the same gesture (\(Self.summary(a))) and can never be told apart; only one of them will run",
                               at: parser.ruleTables[b.name]?.header)
            }
        }
    }

    private static func sameGesture(_ a: Rule, _ b: Rule) -> Bool {
        guard a.gesture == b.gesture, a.device.overlaps(b.device), a.deviceName == b.deviceName,
              a.fingers <= b.maxFingers, b.fingers <= a.maxFingers else { return false }
        switch a.gesture {
        case .tap, .longPress: return a.taps == b.taps
        case .swipe: return !a.directions.isDisjoint(with: b.directions)
        case .edgePan: return !a.edges.isDisjoint(with: b.edges)
        case .pan, .pinch, .rotation: return true
        }
    }

    /// `swipe, 3 fingers, left, touchpad`.
    static func summary(_ rule: Rule) -> String {
        var parts = [rule.gesture.rawValue]
        let fingers = rule.gesture == .pan && rule.maxFingers != rule.fingers
            ? "\(rule.fingers)-\(rule.maxFingers) fingers" : "\(rule.fingers) finger\(rule.fingers == 1 ? "" : "s")"
        parts.append(fingers)
        switch rule.gesture {
        case .tap: parts.append("\(rule.taps) tap\(rule.taps == 1 ? "" : "s")")
        case .longPress where rule.taps > 0: parts.append("after \(rule.taps) tap\(rule.taps == 1 ? "" : "s")")
        case .swipe: parts.append(rule.directions == .all ? "any direction" : rule.directions.description)
        case .edgePan: parts.append(rule.edges == .all ? "any edge" : rule.edges.description)
        case .longPress, .pan, .pinch, .rotation: break
        }
        parts.append(rule.device.rawValue)
        if let name = rule.deviceName { parts.append("device \"\(name)\"") }
        return parts.joined(separator: ", ")
    }

    /// What `touchgest check --explain` prints: each rule and whom it waits for.
    public func explain() -> String {
        var lines: [String] = []
        let width = rules.map(\.name.count).max() ?? 0
        for rule in rules {
            let name = rule.name + String(repeating: " ", count: width - rule.name.count)
            var line = "\(name)  \(Self.summary(rule))"
            let waits = requirements.filter { $0.waiter == rule.name }
            if !waits.isEmpty {
                line += "; waits for " + waits.map { "\($0.waitedOn) (\($0.reason.rawValue))" }.joined(separator: ", ") + " to fail"
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
