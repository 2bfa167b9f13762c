import StrokeGestures
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
        /// A pan waits for a swipe its fingers could also make; the swipe is told from the
        /// drag by its speed.
        case swipe = "a swipe goes first"
        /// A rule for the same gesture with a more specific window condition (an
        /// application, a title) goes first; it sits out gestures begun in other windows.
        case window = "its window is more specific"
        /// A rule for the same gesture with held modifiers or buttons goes first; it sits
        /// out gestures begun without them.
        case held = "it wants modifiers or buttons held"
        /// A swipe or pan waits for a stroke its fingers could also draw: the stroke decides
        /// when the fingers lift, or as soon as the path can be none of its shapes.
        case stroke = "a stroke goes first"
    }

    /// `waiter` waits for `waitedOn` to fail before it may fire.
    public struct Requirement: Hashable, Sendable {
        public var waiter: String
        public var waitedOn: String
        public var reason: Reason
    }

    /// Most rules one file may hold. Every touch passes through every rule's
    /// recognizer, and ordering work grows with rules squared: 1,024 is far more than a
    /// desktop's gestures (the examples have about ten) and still checks in well under
    /// a second (`RulebookBenchmark`).
    public static let maximumRules = 1024

    /// Most stroke templates one file may hold. Each stroke is compared with every
    /// template of the rules on its fingers, and while the fingers move with every part of
    /// them: 256 (sixteen shapes drawn sixteen ways) keeps that within a few milliseconds
    /// a stroke (`swift run -c release StrokeBenchmark`: 50 templates take well under one).
    public static let maximumStrokeTemplates = 256

    public var file: String
    public var rules: [Rule]
    public var settings: Settings
    public var warnings: [Diagnostic]
    public var requirements: [Requirement]
    /// Where each rule names a desktop action (``actionWarnings(_:)``).
    public var actionPlaces: [ActionPlace] = []
    /// Where each rule's `modifiers` and `buttons` are given (``heldProblems(modifiers:)``).
    public var modifierPlaces: [RulePlace] = []
    public var buttonPlaces: [RulePlace] = []
    /// The file held nothing but whitespace: not even a comment or `[settings]`. The
    /// daemon keeps its rules over such a save (see `touchgest run`).
    public var isBlank = false

    /// Parses and validates rule-file text. Throws every error of the file at once;
    /// warnings come back in ``warnings``.
    public static func parse(_ text: String, file: String) throws(RuleFileError) -> Rulebook {
        var parser = RuleParser(file: file)
        guard let (rules, settings) = parser.parse(text) else {
            throw RuleFileError(diagnostics: parser.diagnostics)
        }
        var book = Rulebook(file: file, rules: rules, settings: settings, warnings: [], requirements: [])
        book.actionPlaces = parser.actionPlaces
        book.modifierPlaces = parser.modifierPlaces
        book.buttonPlaces = parser.buttonPlaces
        book.checkRequireToFail(&parser)
        book.checkStrokeTemplates(&parser)
        book.addAutomaticOrder()
        book.addWindowPrecedence()
        book.addHeldPrecedence()
        book.checkCycles(&parser)
        book.checkIndistinguishable(&parser)
        let errors = parser.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty else { throw RuleFileError(diagnostics: Self.sorted(parser.diagnostics)) }
        book.warnings = Self.sorted(parser.diagnostics)
        book.isBlank = text.allSatisfy(\.isWhitespace)
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
    /// tap count on the same fingers and device; a tap waits for a long-press on the same
    /// fingers; a pan waits for a swipe on fingers it also takes.
    private mutating func addAutomaticOrder() {
        var present = Set(requirements.map { Edge(waiter: $0.waiter, waitedOn: $0.waitedOn) })
        func add(_ requirement: Requirement) {
            if present.insert(Edge(waiter: requirement.waiter, waitedOn: requirement.waitedOn)).inserted {
                requirements.append(requirement)
            }
        }
        // Only rules on the same fingers and device name can wait for each other: comparing
        // within those groups keeps a file of many distinct rules from costing n² checks.
        let taps = Dictionary(grouping: rules.filter { $0.gesture == .tap }, by: InputKey.init)
        let presses = Dictionary(grouping: rules.filter { $0.gesture == .longPress }, by: InputKey.init)
        for rule in rules where rule.gesture == .tap {
            let larger = taps[InputKey(rule), default: []].filter { Self.sameInput($0, rule) && $0.taps > rule.taps }
            if let next = larger.map(\.taps).min() {
                for other in larger where other.taps == next {
                    add(Requirement(waiter: rule.name, waitedOn: other.name, reason: .moreTaps))
                }
            }
            for other in presses[InputKey(rule), default: []] where Self.sameInput(other, rule) {
                add(Requirement(waiter: rule.name, waitedOn: other.name, reason: .longPress))
            }
        }
        for pan in rules where pan.gesture == .pan {
            for swipe in rules where Self.drag(pan, competesWith: swipe)
                && !requirements.contains(where: { $0.waiter == swipe.name && $0.waitedOn == pan.name }) {
                add(Requirement(waiter: pan.name, waitedOn: swipe.name, reason: .swipe))
            }
        }
        // A swipe or pan would take a stroke's first straight part for itself: it waits
        // until the stroke has failed, at the lift or as soon as the path can be none of its
        // shapes. The stroke does not wait for them, or a swipe would steal every stroke.
        for stroke in rules where stroke.gesture == .stroke {
            for other in rules where Self.movement(other, competesWith: stroke)
                && !requirements.contains(where: { $0.waiter == stroke.name && $0.waitedOn == other.name }) {
                add(Requirement(waiter: other.name, waitedOn: stroke.name, reason: .stroke))
            }
        }
    }

    /// Whether a swipe or pan rule takes the fingers and devices that draw `stroke`.
    private static func movement(_ other: Rule, competesWith stroke: Rule) -> Bool {
        let fingers = other.gesture == .pan ? other.fingers...max(other.fingers, other.maxFingers) : other.fingers...other.fingers
        return (other.gesture == .swipe || other.gesture == .pan) && fingers.contains(stroke.fingers)
            && other.device.overlaps(stroke.device) && other.deviceName == stroke.deviceName
    }

    /// At most ``maximumStrokeTemplates`` in the file, reported at the rule that passes it.
    private func checkStrokeTemplates(_ parser: inout RuleParser) {
        var count = 0
        for rule in rules where rule.gesture == .stroke {
            count += rule.templates.count
            if count > Self.maximumStrokeTemplates {
                parser.error("rule '\(rule.name)' brings the file to \(count) stroke templates; a file may hold at most \(Self.maximumStrokeTemplates)",
                             at: parser.place(rule: rule.name, "template"))
                return
            }
        }
    }

    /// Whether a drag rule competes with `swipe` for its fingers, so that the swipe must
    /// be told from it by speed.
    func dragCompetes(with swipe: Rule) -> Bool {
        rules.contains { Self.drag($0, competesWith: swipe) }
    }

    private static func drag(_ pan: Rule, competesWith swipe: Rule) -> Bool {
        pan.gesture == .pan && swipe.gesture == .swipe
            && (pan.fingers...max(pan.fingers, pan.maxFingers)).contains(swipe.fingers)
            && pan.device.overlaps(swipe.device) && pan.deviceName == swipe.deviceName
    }

    /// Whether a rotation rule competes with a pinch rule, or a pinch rule with a rotation
    /// rule, for `rule`'s fingers: then each must be told from the other by which change
    /// dominates.
    func spreadAndTurnCompete(with rule: Rule) -> Bool {
        let other: GestureKind
        switch rule.gesture {
        case .pinch: other = .rotation
        case .rotation: other = .pinch
        case .tap, .longPress, .swipe, .pan, .edgePan, .stroke: return false
        }
        return rules.contains {
            $0.gesture == other && $0.fingers == rule.fingers && $0.device.overlaps(rule.device) && $0.deviceName == rule.deviceName
        }
    }

    /// One waits-for edge, whatever its reason.
    private struct Edge: Hashable {
        var waiter: String
        var waitedOn: String
    }

    /// What ``sameInput(_:_:)`` needs equal: fingers and device-name filter.
    private struct InputKey: Hashable {
        var fingers: Int
        var deviceName: String?

        init(_ rule: Rule) {
            fingers = rule.fingers
            deviceName = rule.deviceName
        }
    }

    /// Same fingers, overlapping devices, same device-name filter.
    private static func sameInput(_ a: Rule, _ b: Rule) -> Bool {
        a.fingers == b.fingers && a.device.overlaps(b.device) && a.deviceName == b.deviceName
    }

    /// Reports each cycle of rules waiting for each other, once, starting at the first of
    /// its rules in the file and then at a require-to-fail the user wrote.
    ///
    /// One depth-first search over the whole graph, marking each rule when its search
    /// ends, so every rule and edge is looked at once. (Searching again from each rule
    /// without marks took time that doubled every rule or two of a chain where each rule
    /// waits for the two before it: 30 rules took seconds, 36 minutes.)
    private func checkCycles(_ parser: inout RuleParser) {
        var edges: [String: [String]] = [:]
        var reasons: [Edge: Reason] = [:]
        for requirement in requirements {
            edges[requirement.waiter, default: []].append(requirement.waitedOn)
            reasons[Edge(waiter: requirement.waiter, waitedOn: requirement.waitedOn)] = requirement.reason
        }
        var order: [String: Int] = [:]
        for (index, rule) in rules.enumerated() where order[rule.name] == nil { order[rule.name] = index }
        enum Mark { case onPath, done }
        var marks: [String: Mark] = [:]
        var reported: Set<[String]> = []

        func report(_ ring: [String]) {
            guard reported.insert(ring.sorted()).inserted else { return }
            let first = ring.indices.min { order[ring[$0], default: .max] < order[ring[$1], default: .max] }!
            var ring = Array(ring[first...] + ring[..<first])
            // Start at a require-to-fail the user wrote: that is the edge they can change.
            if let start = ring.indices.first(where: { reasons[Edge(waiter: ring[$0], waitedOn: ring[($0 + 1) % ring.count])] == .explicit }) {
                ring = Array(ring[start...] + ring[..<start])
            }
            let cycle = ring + [ring[0]]
            let via = zip(cycle, cycle.dropFirst()).compactMap { waiter, waited in
                reasons[Edge(waiter: waiter, waitedOn: waited)].map { "\(waiter) waits for \(waited) (\($0.rawValue))" }
            }
            parser.error("require-to-fail cycle: \(cycle.joined(separator: " -> ")); each would wait for the other forever: \(via.joined(separator: ", "))",
                         at: parser.place(rule: cycle[0], "require-to-fail"))
        }

        for rule in rules where marks[rule.name] == nil {
            // The path from `rule`, and for each rule on it the next of its edges to follow.
            var path = [rule.name]
            var nextEdge = [0]
            marks[rule.name] = .onPath
            while let top = path.last {
                let out = edges[top] ?? []
                let index = nextEdge[nextEdge.count - 1]
                guard index < out.count else {
                    marks[top] = .done
                    path.removeLast()
                    nextEdge.removeLast()
                    continue
                }
                nextEdge[nextEdge.count - 1] += 1
                let target = out[index]
                switch marks[target] {
                case nil:
                    marks[target] = .onPath
                    path.append(target)
                    nextEdge.append(0)
                case .onPath:
                    report(Array(path[path.lastIndex(of: target)!...]))
                case .done:
                    break
                }
            }
        }
    }

    static func sameGesture(_ a: Rule, _ b: Rule) -> Bool {
        guard a.gesture == b.gesture, a.device.overlaps(b.device), a.deviceName == b.deviceName,
              a.fingers <= b.maxFingers, b.fingers <= a.maxFingers else { return false }
        switch a.gesture {
        case .tap, .longPress: return a.taps == b.taps
        case .swipe: return !a.directions.isDisjoint(with: b.directions)
        case .edgePan: return !a.edges.isDisjoint(with: b.edges)
        case .pan, .pinch, .rotation, .stroke: return true
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
        case .stroke: parts.append("\(rule.templates.count) template\(rule.templates.count == 1 ? "" : "s")")
        case .longPress, .pan, .pinch, .rotation: break
        }
        parts.append(rule.device.rawValue)
        if rule.touchpadInput == .contacts { parts.append("touchpad fingers") }
        if let name = rule.deviceName { parts.append("device \"\(name)\"") }
        if !rule.window.isEmpty { parts.append(rule.window.summary) }
        if rule.whenLocked { parts.append("also while locked") }
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
