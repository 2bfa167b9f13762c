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
        for rule in rules {
            for other in rule.requireToFail {
                let at = parser.place(rule: rule.name, "require-to-fail")
                if !names.contains(other) {
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

    private func checkCycles(_ parser: inout RuleParser) {
        var reported: Set<String> = []
        for rule in rules {
            var path: [String] = []
            func visit(_ name: String) -> [String]? {
                if let index = path.firstIndex(of: name) { return Array(path[index...]) + [name] }
                path.append(name)
                defer { path.removeLast() }
                for requirement in requirements where requirement.waiter == name {
                    if let cycle = visit(requirement.waitedOn) { return cycle }
                }
                return nil
            }
            guard var cycle = visit(rule.name), cycle.first == rule.name else { continue }
            let key = Set(cycle).sorted().joined(separator: ",")
            guard reported.insert(key).inserted else { continue }
            // Start at a require-to-fail the user wrote: that is the edge they can change.
            let ring = Array(cycle.dropLast())
            if let start = ring.indices.first(where: { index in
                requirements.contains { $0.waiter == ring[index] && $0.waitedOn == ring[(index + 1) % ring.count] && $0.reason == .explicit }
            }) {
                cycle = Array(ring[start...] + ring[..<start]) + [ring[start]]
            }
            let via = zip(cycle, cycle.dropFirst()).compactMap { waiter, waited in
                requirements.first { $0.waiter == waiter && $0.waitedOn == waited }.map { "\(waiter) waits for \(waited) (\($0.reason.rawValue))" }
            }
            parser.error("require-to-fail cycle: \(cycle.joined(separator: " -> ")); each would wait for the other forever: \(via.joined(separator: ", "))",
                         at: parser.place(rule: cycle[0], "require-to-fail"))
        }
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
