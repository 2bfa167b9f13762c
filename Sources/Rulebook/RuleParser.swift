import InputActions
import TOML
import TextWire
import TouchGestures

/// Reads one rule file into rules and settings, collecting every problem it finds.
struct RuleParser {
    let file: String
    private(set) var diagnostics: [Diagnostic] = []
    /// Each rule's table and where its name is written, for checks made after parsing.
    private(set) var ruleTables: [String: (table: TOMLTable, header: TOMLPosition)] = [:]
    /// Where each desktop action is named, in file order.
    private(set) var actionPlaces: [ActionPlace] = []
    /// Where each rule's `modifiers` and `buttons` are given.
    private(set) var modifierPlaces: [RulePlace] = []
    private(set) var buttonPlaces: [RulePlace] = []

    init(file: String) {
        self.file = file
    }

    /// The rule being read, for ``note(_:of:at:)`` from the action tables.
    private var currentRule = ""

    /// Keeps where a desktop action is named, for the desktop's own check
    /// (``Rulebook/actionWarnings(_:)``).
    private mutating func note(_ action: InputAction, of rule: String, at position: TOMLPosition?) {
        guard case let .desktop(desktopAction) = action, let position else { return }
        actionPlaces.append(ActionPlace(rule: rule, action: desktopAction, line: position.line, column: position.column))
    }

    // MARK: Reporting

    mutating func error(_ message: String, at position: TOMLPosition?) {
        report(.error, message, at: position)
    }

    mutating func warning(_ message: String, at position: TOMLPosition?) {
        report(.warning, message, at: position)
    }

    private mutating func report(_ severity: Diagnostic.Severity, _ message: String, at position: TOMLPosition?) {
        diagnostics.append(Diagnostic(file: file, line: position?.line ?? 0, column: position?.column ?? 0,
                                      severity: severity, message: message))
    }

    /// Where `key` of rule `rule` is written (its value, or its name), else the rule's header.
    func place(rule: String, _ key: String, value: Bool = true) -> TOMLPosition? {
        guard let (table, header) = ruleTables[rule] else { return nil }
        return Self.place(table, key, value: value) ?? header
    }

    static func place(_ table: TOMLTable, _ key: String, value: Bool = true) -> TOMLPosition? {
        guard let entry = table.entry(key) else { return nil }
        return value ? entry.value.position : entry.keyPosition
    }

    /// Where a table entry is written: a `[header]`'s bracket, else the key naming it.
    private static func place(_ entry: TOMLEntry) -> TOMLPosition {
        if let table = entry.value.table, table.origin == .header { return table.position }
        return entry.keyPosition
    }

    // MARK: The file

    /// Parses the text; nil when it is not valid TOML (the error is recorded).
    mutating func parse(_ text: String) -> (rules: [Rule], settings: Settings)? {
        let root: TOMLTable
        do {
            root = try TOMLParser(limits: TOMLParser.Limits(maximumSize: 1 << 20, maximumDepth: 32)).parse(text)
        } catch {
            switch error.reason {
            case let .duplicate(path, first) where path.count == 2 && path[0] == "rule":
                self.error("duplicate rule name '\(path[1])'; first defined at line \(first.line)", at: error.position)
            case .duplicate:
                self.error(error.message, at: error.position)
            case .syntax:
                self.error("invalid TOML: \(error.message)", at: error.position)
            }
            return nil
        }
        for entry in root.entries where entry.key != "settings" && entry.key != "rule" {
            let hint = didYouMean(entry.key, among: ["settings", "rule"])
            error("unknown top-level key '\(entry.key)'\(hint); a rule file has [settings] and [rule.NAME] tables",
                  at: Self.place(entry))
        }
        var settings = Settings()
        if let entry = root.entry("settings") {
            if let table = entry.value.table { settings = parseSettings(table) } else {
                error("'settings' must be a table: write [settings]", at: entry.keyPosition)
            }
        }
        var rules: [Rule] = []
        if let entry = root.entry("rule") {
            guard let table = entry.value.table else {
                error("'rule' must hold tables: write [rule.NAME]", at: entry.keyPosition)
                return ([], settings)
            }
            for (offset, ruleEntry) in table.entries.enumerated() {
                if offset == Rulebook.maximumRules {
                    error("rule '\(ruleEntry.key)' is one too many: a file holds at most \(Rulebook.maximumRules) rules",
                          at: Self.place(ruleEntry))
                    break
                }
                guard let ruleTable = ruleEntry.value.table else {
                    error("rule '\(ruleEntry.key)' must be a table: write [rule.\(ruleEntry.key)] and its keys below it",
                          at: ruleEntry.keyPosition)
                    continue
                }
                let header = Self.place(ruleEntry)
                if let scalar = Rule.unprintable(in: ruleEntry.key) {
                    let kind = scalar.properties.generalCategory == .control ? "control" : "format"
                    error("rule name '\(ruleEntry.key)' holds the \(kind) character \(scalar.codePoint); a name is printed to logs and terminals, so it may hold no control or format (bidi) characters",
                          at: ruleEntry.keyPosition)
                }
                ruleTables[ruleEntry.key] = (ruleTable, header)
                if let rule = parseRule(name: ruleEntry.key, table: ruleTable, header: header, settings: settings) {
                    rules.append(rule)
                }
            }
        }
        return (rules, settings)
    }

    // MARK: Settings

    private mutating func parseSettings(_ table: TOMLTable) -> Settings {
        var settings = Settings()
        for entry in table.entries {
            let key = entry.key
            guard RuleKeys.settings.contains(key) else {
                unknownKey(entry, allowed: RuleKeys.settings, what: "[settings]")
                continue
            }
            let value = entry.value
            switch key {
            case "device": if let device = choice(value, DeviceKind.self, "device", key) { settings.device = device }
            case "overlap": if let policy = choice(value, OverlapPolicy.self, "overlap policy", key) { settings.overlap = policy }
            case "timeout": if let timeout = timeoutValue(value, key) { settings.timeout = timeout }
            case "device-size": settings.deviceSizes = deviceSizes(value, key)
            case "modifier-source":
                if let source = choice(value, ModifierSource.self, "modifier source", key) { settings.modifierSource = source }
            case "desktop-gestures":
                if let policy = choice(value, DesktopGestures.self, "desktop-gestures policy", key) { settings.desktopGestures = policy }
            case "feedback": if let feedback = choice(value, Feedback.self, "feedback", key) { settings.feedback = feedback }
            default:
                guard let (tunable, gesture) = TunableKey.setting(key) else { continue }
                var tunables = settings.tunables[gesture] ?? Tunables()
                setTunable(&tunables, tunable, entry, gesture: gesture)
                settings.tunables[gesture] = tunables
            }
        }
        return settings
    }

    // MARK: Rules

    private mutating func parseRule(name: String, table: TOMLTable, header: TOMLPosition, settings: Settings) -> Rule? {
        currentRule = name
        let errorsBefore = diagnostics.count
        // `[rule.a.b]` makes a table inside rule 'a'; a dotted rule name needs quotes.
        for entry in table.entries {
            guard let nested = entry.value.table, nested.origin == .header || nested.origin == .implicit else { continue }
            error("[rule.\(name).\(entry.key)] is a table inside rule '\(name)', but a rule holds only keys; to name a rule '\(name).\(entry.key)', quote it: [rule.\"\(name).\(entry.key)\"]",
                  at: nested.position)
        }
        if table.origin == .implicit { return nil }
        guard let gestureValue = table["gesture"] else {
            if diagnostics.count == errorsBefore {
                error("rule '\(name)' has no gesture; add gesture = one of \(listing(GestureKind.allCases.map(\.rawValue)))", at: header)
            }
            return nil
        }
        guard let gesture = choice(gestureValue, GestureKind.self, "gesture", "gesture") else { return nil }
        var rule = Rule(
            name: name, gesture: gesture, device: settings.device, deviceName: nil,
            fingers: FingerLimit.defaultCount(gesture), maxFingers: FingerLimit.defaultCount(gesture),
            taps: gesture == .tap ? 1 : 0, directions: .all, edges: .all, tunables: Tunables(), step: nil,
            commands: [:], timeout: settings.timeout, overlap: settings.overlap, requireToFail: [],
            line: header.line, column: header.column)
        var fingers: Int?
        var minFingers: Int?
        var maxFingers: Int?

        for entry in table.entries where entry.key != "gesture" {
            let key = entry.key
            if let nested = entry.value.table, nested.origin == .header || nested.origin == .implicit { continue }
            guard let spec = RuleKeys.spec(key) else {
                unknownKey(entry, allowed: RuleKeys.keys(for: gesture), what: "rule '\(name)' (\(gesture.rawValue))")
                continue
            }
            if let gestures = spec.gestures, !gestures.contains(gesture) {
                let hint = gesture.isContinuous || !key.hasPrefix("on-") ? "" : "; \(gesture.rawValue) is discrete: use command"
                error("key '\(key)' does not apply to gesture '\(gesture.rawValue)'\(hint); it applies to \(listing(GestureKind.allCases.filter { gestures.contains($0) }.map(\.rawValue)))",
                      at: entry.keyPosition)
                continue
            }
            let value = entry.value
            switch key {
            case "device": if let device = choice(value, DeviceKind.self, "device", key) { rule.device = device }
            case "device-name":
                rule.deviceName = string(value, key)
                if let pattern = rule.deviceName, pattern.count > maximumGlobLength {
                    error("device-name is \(pattern.count) characters long; a glob may have at most \(maximumGlobLength)", at: value.position)
                }
            case "source": if let source = choice(value, RuleSource.self, "source", key) { rule.source = source }
            case "fingers": fingers = integer(value, key, in: FingerLimit.written)
            case "min-fingers": minFingers = integer(value, key, in: FingerLimit.written)
            case "max-fingers": maxFingers = integer(value, key, in: FingerLimit.written)
            case "taps": if let count = integer(value, key, in: gesture == .tap ? 1...5 : 0...3) { rule.taps = count }
            case "direction":
                if let names = names(value, key, allowed: RuleKeys.directionNames, what: "direction") {
                    rule.directions = names.reduce(into: SwipeDirection()) { set, name in
                        set.formUnion(SwipeDirection.named.first { $0.name == name }?.direction ?? .all)
                    }
                }
            case "edges":
                if let names = names(value, key, allowed: RuleKeys.edgeNames, what: "edge") {
                    rule.edges = names.reduce(into: RectEdge()) { set, name in
                        set.formUnion(RectEdge.named.first { $0.name == name }?.edge ?? .all)
                    }
                }
            case "template": rule.templates = templates(value, key) ?? []
            case "step": rule.step = number(value, key, in: ValueRanges.step(gesture), gesture: gesture)
            case "command", "on-begin", "on-step", "on-end", "on-cancel":
                let phase = CommandKey(name: key) ?? .recognized
                // `{ keys = "ctrl+t" }`: an input action at that phase instead of a command.
                if let inline = value.table {
                    let directions = rule.stepDirections
                    if phase == .step, let first = inline.entries.first, directions.contains(first.key) {
                        rule.stepInputs = stepActions(in: inline, directions: directions)
                    } else if let action = inputAction(in: inline, key) {
                        rule.inputs[phase] = action
                    }
                    continue
                }
                guard let command = string(value, key) else { continue }
                if command.allSatisfy(\.isWhitespace) {
                    error("\(key) is empty; give the shell command to run", at: value.position)
                    continue
                }
                rule.commands[phase] = command
            case "keys", "text", "button", "shortcut", "action":
                guard let text = string(value, key) else { continue }
                do {
                    let action = try InputAction.parse(key: key, value: text)
                    note(action, of: rule.name, at: value.position)
                    rule.inputs[.recognized] = action
                } catch {
                    self.error("\(error)", at: value.position)
                }
            case "stream":
                guard let command = string(value, key) else { continue }
                if command.allSatisfy(\.isWhitespace) {
                    error("stream is empty; give the command that reads the gesture's JSON lines", at: value.position)
                    continue
                }
                rule.stream = command
            case "progress-distance":
                rule.progressDistance = number(value, key, in: ValueRanges.step(gesture), gesture: gesture)
            case "follow": rule.follow = choice(value, FollowTarget.self, "animation to follow", key)
            case "timeout": rule.timeout = timeoutValue(value, key) ?? rule.timeout
            case "overlap": if let policy = choice(value, OverlapPolicy.self, "overlap policy", key) { rule.overlap = policy }
            case "application", "title", "not-application", "not-title": setWindowKey(&rule.window, key, value)
            case "modifiers":
                modifierPlaces.append(RulePlace(rule: rule.name, line: value.position.line, column: value.position.column))
                guard let given = names(value, key, allowed: HeldCondition.modifierNames.map(\.name), what: "modifier") else { continue }
                rule.held.modifiers = given.reduce(KeyModifierFlags()) { held, name in
                    held.union(HeldCondition.modifierNames.first { $0.name == name }!.flags)
                }
            case "buttons":
                buttonPlaces.append(RulePlace(rule: rule.name, line: value.position.line, column: value.position.column))
                guard let given = names(value, key, allowed: HeldCondition.buttonNames.map(\.name), what: "button") else { continue }
                rule.held.buttons = given.reduce(EventButtonMask()) { held, name in
                    held.union(HeldCondition.buttonNames.first { $0.name == name }!.mask)
                }
            case "require-to-fail": rule.requireToFail = names(value, key, allowed: nil, what: "rule") ?? []
            case "when-locked": if let flag = boolean(value, key) { rule.whenLocked = flag }
            default:
                // RuleKeys.spec found it, so it is a tunable.
                if let tunable = TunableKey.named(key) { setTunable(&rule.tunables, tunable, entry, gesture: gesture) }
            }
        }
        setFingers(&rule, fingers: fingers, min: minFingers, max: maxFingers, table: table)
        rule.tunables = rule.tunables.merged(over: settings.tunables[gesture] ?? Tunables())
        checkCommands(rule, table: table, header: header)
        checkTouchpadLimits(rule, table: table, fingersGiven: fingers != nil || minFingers != nil)
        checkStroke(rule, table: table, header: header)
        return diagnostics[errorsBefore...].contains { $0.severity == .error } ? nil : rule
    }

    /// `fingers` is an exact count; a pan may give a range with `min-fingers` (up to 10
    /// when alone) and `max-fingers` (from 1 when alone), or take any count with none.
    private mutating func setFingers(_ rule: inout Rule, fingers: Int?, min: Int?, max: Int?, table: TOMLTable) {
        let lowest = min ?? fingers ?? (rule.gesture == .pan ? FingerLimit.written.lowerBound : FingerLimit.defaultCount(rule.gesture))
        let highest = max ?? fingers ?? (rule.gesture == .pan ? FingerLimit.written.upperBound : lowest)
        rule.fingers = lowest
        rule.maxFingers = highest
        guard highest < lowest else { return }
        if let max {
            error("max-fingers \(max) is less than the \(lowest) fingers the rule needs", at: Self.place(table, "max-fingers"))
        } else if let min, let fingers {
            error("min-fingers \(min) is more than fingers = \(fingers); for a range give min-fingers and max-fingers instead of fingers",
                  at: Self.place(table, "min-fingers"))
        }
    }

    private mutating func checkCommands(_ rule: Rule, table: TOMLTable, header: TOMLPosition) {
        func acts(_ phase: CommandKey) -> Bool { rule.commands[phase] != nil || rule.inputs[phase] != nil }
        // A key whose value was wrong has had its error; "runs nothing" would only repeat it.
        // A rule that only moves the desktop's animation (`follow`) acts: the animation is its action.
        let actionKeys = CommandKey.allCases.map(\.name) + ["stream", "follow"] + InputAction.keyNames
        if rule.commands.isEmpty && rule.inputs.isEmpty && !actionKeys.contains(where: { table[$0] != nil }) {
            let keys = [GestureKind.pan, .edgePan].contains(rule.gesture)
                ? "command, keys, text, button, on-begin, on-step, on-end, on-cancel, stream or follow"
                : rule.gesture.isContinuous ? "command, keys, text, button, on-begin, on-step, on-end, on-cancel or stream"
                : "command, keys, text, button or stream"
            error("rule '\(rule.name)' runs nothing; add \(keys)", at: header)
        }
        if acts(.recognized) && acts(.begin) {
            error("command and on-begin both run when '\(rule.name)' begins; keep one", at: Self.place(table, "on-begin", value: false))
        }
        if let key = InputAction.keyNames.first(where: { table[$0] != nil }), table["command"] != nil {
            error("\(key) and command both act when '\(rule.name)' is recognized; keep one, or give on-begin/on-end the other",
                  at: Self.place(table, key, value: false))
        }
        if rule.actsOnSteps && rule.step == nil && table["step"] == nil {
            error("on-step needs step = how far apart the steps are (\(Self.stepUnit(rule.gesture)))", at: Self.place(table, "on-step", value: false))
        }
        if table["step"] != nil && !rule.actsOnSteps {
            warning("step is set but rule '\(rule.name)' has no on-step command", at: Self.place(table, "step", value: false))
        }
    }

    /// `on-step = { out = "ctrl+plus", in = { text = "-" } }`: per step direction, keys
    /// (a string) or an action table.
    private mutating func stepActions(in inline: TOMLTable, directions: [String]) -> [String: InputAction] {
        var actions: [String: InputAction] = [:]
        for entry in inline.entries {
            guard directions.contains(entry.key) else {
                error("on-step = { \(entry.key) = ... }: a step goes \(listing(directions)), not \(entry.key)", at: entry.keyPosition)
                continue
            }
            if let table = entry.value.table {
                if let action = inputAction(in: table, "on-step.\(entry.key)") { actions[entry.key] = action }
                continue
            }
            guard let text = string(entry.value, "on-step.\(entry.key)") else { continue }
            do {
                actions[entry.key] = .keys(try KeyChord.sequence(text))
            } catch {
                self.error("\(error)", at: entry.value.position)
            }
        }
        return actions
    }

    /// `{ keys = "ctrl+t" }` as a command key's value: exactly one of keys, text or
    /// button, read as the top-level keys are.
    private mutating func inputAction(in inline: TOMLTable, _ key: String) -> InputAction? {
        let given = inline.entries.filter { InputAction.keyNames.contains($0.key) }
        if let stray = inline.entries.first(where: { !InputAction.keyNames.contains($0.key) }) {
            error("\(key) = { \(stray.key) = ... }: an action table holds keys, text, button, shortcut or action, not \(stray.key)", at: stray.keyPosition)
            return nil
        }
        guard given.count == 1, let entry = given.first else {
            error("\(key) = { ... } needs exactly one of keys, text, button, shortcut or action", at: inline.position)
            return nil
        }
        guard let text = string(entry.value, entry.key) else { return nil }
        do {
            let action = try InputAction.parse(key: entry.key, value: text)
            note(action, of: currentRule, at: entry.value.position)
            return action
        } catch {
            self.error("\(error)", at: entry.value.position)
            return nil
        }
    }

    private static func stepUnit(_ gesture: GestureKind) -> String {
        switch gesture {
        case .pinch: "scale, e.g. 0.15"
        case .rotation: "degrees, e.g. 15"
        case .pan, .edgePan, .tap, .longPress, .swipe, .stroke: "millimetres, e.g. 20"
        }
    }
}
