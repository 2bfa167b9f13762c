import TOMLKit
import TouchGestures

/// Reads one rule file into rules and settings, collecting every problem it finds.
struct RuleParser {
    let file: String
    let map: SourceMap
    private(set) var diagnostics: [Diagnostic] = []

    init(file: String, text: String) {
        self.file = file
        map = SourceMap(text: text)
    }

    // MARK: Reporting

    mutating func error(_ message: String, at position: SourceMap.Position?) {
        report(.error, message, at: position)
    }

    mutating func warning(_ message: String, at position: SourceMap.Position?) {
        report(.warning, message, at: position)
    }

    private mutating func report(_ severity: Diagnostic.Severity, _ message: String, at position: SourceMap.Position?) {
        diagnostics.append(Diagnostic(file: file, line: position?.line ?? 0, column: position?.column ?? 0,
                                      severity: severity, message: message))
    }

    func place(_ table: String, _ key: String, value: Bool = true) -> SourceMap.Position? {
        map.position(table: table, key: key, value: value) ?? map.position(table: table)
    }

    // MARK: The file

    /// Parses the text; nil when it is not valid TOML (the error is recorded).
    mutating func parse(_ text: String) -> (rules: [Rule], settings: Settings)? {
        for duplicate in map.duplicateTables {
            let what = duplicate.path.hasPrefix("rule.")
                ? "duplicate rule name '\(duplicate.path.dropFirst(5))'" : "duplicate table [\(duplicate.path)]"
            error("\(what); first defined at line \(duplicate.first.line)", at: duplicate.again)
        }
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let parseError as TOMLParseError {
            let begin = parseError.source.begin
            if !map.duplicateTables.contains(where: { $0.again.line == begin.line }) {
                error("invalid TOML: \(parseError.description)",
                      at: SourceMap.Position(line: begin.line, column: begin.column))
            }
            return nil
        } catch {
            self.error("invalid TOML: \(error)", at: nil)
            return nil
        }
        for key in root.keys where key != "settings" && key != "rule" {
            let hint = didYouMean(key, among: ["settings", "rule"])
            error("unknown top-level key '\(key)'\(hint); a rule file has [settings] and [rule.NAME] tables",
                  at: map.position(table: key) ?? map.position(table: "", key: key))
        }
        var settings = Settings()
        if let value = root["settings"] {
            if let table = value.table { settings = parseSettings(table) } else {
                error("'settings' must be a table: write [settings]", at: map.position(table: "", key: "settings"))
            }
        }
        var rules: [Rule] = []
        if let value = root["rule"] {
            guard let table = value.table else {
                error("'rule' must hold tables: write [rule.NAME]", at: map.position(table: "", key: "rule"))
                return ([], settings)
            }
            let inFileOrder = map.tableOrder.filter { $0.hasPrefix("rule.") }.map { String($0.dropFirst(5)) }
            let names = inFileOrder.filter { table.keys.contains($0) } + table.keys.filter { !inFileOrder.contains($0) }
            for name in names {
                guard let ruleTable = table[name]?.table else {
                    error("rule '\(name)' must be a table: write [rule.\(name)] and its keys below it",
                          at: map.position(table: "rule", key: name, value: false))
                    continue
                }
                if let rule = parseRule(name: name, table: ruleTable, settings: settings) { rules.append(rule) }
            }
        }
        return (rules, settings)
    }

    // MARK: Settings

    private mutating func parseSettings(_ table: TOMLTable) -> Settings {
        var settings = Settings()
        let path = "settings"
        for key in table.keys {
            guard RuleKeys.settings.contains(key) else {
                unknownKey(key, in: path, allowed: RuleKeys.settings, what: "[settings]")
                continue
            }
            let value = table[key]!
            switch key {
            case "device": if let device = choice(value, DeviceKind.self, "device", path, key) { settings.device = device }
            case "overlap": if let policy = choice(value, OverlapPolicy.self, "overlap policy", path, key) { settings.overlap = policy }
            case "timeout": if let timeout = timeoutValue(value, path, key) { settings.timeout = timeout }
            default:
                let (gestureName, tunable) = Self.splitSettingsKey(key)
                guard let gesture = GestureKind(rawValue: gestureName) else { continue }
                var tunables = settings.tunables[gesture] ?? Tunables()
                setTunable(&tunables, tunable, value, path, key)
                settings.tunables[gesture] = tunables
            }
        }
        return settings
    }

    /// `long-press-duration` -> (`long-press`, `duration`); `edge-pan-width` -> (`edge-pan`, `edge-width`).
    private static func splitSettingsKey(_ key: String) -> (String, String) {
        for gesture in GestureKind.allCases where key.hasPrefix(gesture.rawValue + "-") {
            let rest = String(key.dropFirst(gesture.rawValue.count + 1))
            return (gesture.rawValue, gesture == .edgePan && rest == "width" ? "edge-width" : rest)
        }
        return ("", key)
    }

    // MARK: Rules

    private mutating func parseRule(name: String, table: TOMLTable, settings: Settings) -> Rule? {
        let path = "rule.\(name)"
        let header = map.position(table: path) ?? map.position(table: "rule", key: name, value: false)
        guard let gestureValue = table["gesture"] else {
            error("rule '\(name)' has no gesture; add gesture = one of \(listing(GestureKind.allCases.map(\.rawValue)))", at: header)
            return nil
        }
        guard let gesture = choice(gestureValue, GestureKind.self, "gesture", path, "gesture") else { return nil }
        let errorsBefore = diagnostics.count
        var rule = Rule(
            name: name, gesture: gesture, device: settings.device, deviceName: nil,
            fingers: Self.defaultFingers(gesture), maxFingers: Self.defaultFingers(gesture),
            taps: gesture == .tap ? 1 : 0, directions: .all, edges: .all, tunables: Tunables(), step: nil,
            commands: [:], timeout: settings.timeout, overlap: settings.overlap, requireToFail: [],
            line: header?.line ?? 0, column: header?.column ?? 0)
        var fingersGiven = false
        var maxFingersGiven = false

        for key in table.keys where key != "gesture" {
            guard let spec = RuleKeys.spec(key) else {
                unknownKey(key, in: path, allowed: RuleKeys.keys(for: gesture), what: "rule '\(name)' (\(gesture.rawValue))")
                continue
            }
            if let gestures = spec.gestures, !gestures.contains(gesture) {
                let hint = gesture.isContinuous || !key.hasPrefix("on-") ? "" : "; \(gesture.rawValue) is discrete: use command"
                error("key '\(key)' does not apply to gesture '\(gesture.rawValue)'\(hint); it applies to \(listing(GestureKind.allCases.filter { gestures.contains($0) }.map(\.rawValue)))",
                      at: place(path, key, value: false))
                continue
            }
            let value = table[key]!
            switch key {
            case "device": if let device = choice(value, DeviceKind.self, "device", path, key) { rule.device = device }
            case "device-name": rule.deviceName = string(value, path, key)
            case "fingers":
                if let count = integer(value, path, key, in: 1...10) {
                    rule.fingers = count
                    rule.maxFingers = count
                    fingersGiven = true
                }
            case "min-fingers": if let count = integer(value, path, key, in: 1...10) { rule.fingers = count; fingersGiven = true }
            case "max-fingers": if let count = integer(value, path, key, in: 1...10) { rule.maxFingers = count; maxFingersGiven = true }
            case "taps": if let count = integer(value, path, key, in: gesture == .tap ? 1...5 : 0...3) { rule.taps = count }
            case "direction":
                if let names = names(value, path, key, allowed: RuleKeys.directionNames, what: "direction") {
                    rule.directions = names.reduce(into: SwipeDirection()) { set, name in
                        set.formUnion(name == "any" ? .all : SwipeDirection.named.first { $0.name == name }!.direction)
                    }
                }
            case "edges":
                if let names = names(value, path, key, allowed: RuleKeys.edgeNames, what: "edge") {
                    rule.edges = names.reduce(into: RectEdge()) { set, name in
                        set.formUnion(name == "any" ? .all : RectEdge.named.first { $0.name == name }!.edge)
                    }
                }
            case "step": rule.step = number(value, path, key)
            case "command", "on-begin", "on-step", "on-end", "on-cancel":
                guard let command = string(value, path, key) else { continue }
                if command.allSatisfy(\.isWhitespace) {
                    error("\(key) is empty; give the shell command to run", at: place(path, key))
                    continue
                }
                let phase: RulePhase = switch key {
                case "on-begin": .begin
                case "on-step": .step
                case "on-end": .end
                case "on-cancel": .cancel
                default: .recognized
                }
                rule.commands[phase] = command
            case "timeout": rule.timeout = timeoutValue(value, path, key) ?? rule.timeout
            case "overlap": if let policy = choice(value, OverlapPolicy.self, "overlap policy", path, key) { rule.overlap = policy }
            case "require-to-fail": rule.requireToFail = names(value, path, key, allowed: nil, what: "rule") ?? []
            default: setTunable(&rule.tunables, key, value, path, key)
            }
        }
        if !maxFingersGiven && gesture == .pan && !fingersGiven { rule.maxFingers = 10 }
        if rule.maxFingers < rule.fingers {
            error("max-fingers \(rule.maxFingers) is less than the \(rule.fingers) fingers the rule needs", at: place(path, "max-fingers"))
        }
        rule.tunables = rule.tunables.merged(over: settings.tunables[gesture] ?? Tunables())
        checkCommands(rule, path: path, header: header)
        checkTouchpadLimits(rule, path: path, fingersGiven: fingersGiven)
        return diagnostics[errorsBefore...].contains { $0.severity == .error } ? nil : rule
    }

    private static func defaultFingers(_ gesture: GestureKind) -> Int {
        switch gesture {
        case .pinch, .rotation: 2
        case .tap, .longPress, .swipe, .pan, .edgePan: 1
        }
    }

    private mutating func checkCommands(_ rule: Rule, path: String, header: SourceMap.Position?) {
        if rule.commands.isEmpty {
            let keys = rule.gesture.isContinuous ? "command, on-begin, on-step, on-end or on-cancel" : "command"
            error("rule '\(rule.name)' runs nothing; add \(keys)", at: header)
        }
        if rule.commands[.recognized] != nil && rule.commands[.begin] != nil {
            error("command and on-begin both run when '\(rule.name)' begins; keep one", at: place(path, "on-begin", value: false))
        }
        if rule.commands[.step] != nil && rule.step == nil {
            error("on-step needs step = how far apart the steps are (\(Self.stepUnit(rule.gesture)))", at: place(path, "on-step", value: false))
        }
        if rule.step != nil && rule.commands[.step] == nil {
            warning("step is set but rule '\(rule.name)' has no on-step command", at: place(path, "step", value: false))
        }
    }

    private static func stepUnit(_ gesture: GestureKind) -> String {
        switch gesture {
        case .pinch: "scale, e.g. 0.15"
        case .rotation: "degrees, e.g. 15"
        case .pan, .edgePan, .tap, .longPress, .swipe: "millimetres, e.g. 20"
        }
    }

    /// libinput's own limits on touchpad gestures.
    private mutating func checkTouchpadLimits(_ rule: Rule, path: String, fingersGiven: Bool) {
        guard rule.device == .touchpad else { return }
        let at = place(path, fingersGiven ? "fingers" : "gesture")
        switch rule.gesture {
        case .tap where rule.fingers > 3:
            error("touchpads tap with 1, 2 or 3 fingers (libinput has no \(rule.fingers)-finger tap)", at: at)
        case .swipe where rule.fingers < 3, .pan where rule.fingers < 3:
            error("touchpad \(rule.gesture.rawValue)s need 3 or more fingers: libinput scrolls with 1 and 2", at: at)
        case .pinch where rule.fingers < 2, .rotation where rule.fingers < 2:
            error("touchpad \(rule.gesture.rawValue)s need 2 or more fingers", at: at)
        case .edgePan:
            error("edge-pan needs a touchscreen: touchpad gestures have no position", at: place(path, "device"))
        case .tap, .longPress, .swipe, .pan, .pinch, .rotation:
            break
        }
    }

    // MARK: Values

    private mutating func unknownKey(_ key: String, in path: String, allowed: [String], what: String) {
        let hint = didYouMean(key, among: allowed)
        error("unknown key '\(key)' in \(what)\(hint); allowed keys: \(allowed.joined(separator: ", "))",
              at: place(path, key, value: false))
    }

    private mutating func setTunable(_ tunables: inout Tunables, _ name: String, _ value: TOMLValueConvertible, _ path: String, _ key: String) {
        switch name {
        case "max-duration": tunables.maxDuration = duration(value, path, key)
        case "max-interval": tunables.maxInterval = duration(value, path, key)
        case "duration": tunables.pressDuration = duration(value, path, key)
        case "max-tap-duration": tunables.maxTapDuration = duration(value, path, key)
        case "slop": tunables.slop = number(value, path, key)
        case "multi-tap-slop": tunables.multiTapSlop = number(value, path, key)
        case "distance": tunables.distance = number(value, path, key)
        case "velocity": tunables.velocity = number(value, path, key)
        case "threshold": tunables.threshold = number(value, path, key)
        case "edge-width", "width": tunables.edgeWidth = number(value, path, key)
        default: error("unknown setting '\(key)'", at: place(path, key, value: false))
        }
    }

    private mutating func string(_ value: TOMLValueConvertible, _ path: String, _ key: String) -> String? {
        guard let text = value.string else {
            error("\(key) must be a string, not \(Self.describe(value))", at: place(path, key))
            return nil
        }
        return text
    }

    private mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ value: TOMLValueConvertible, _ type: Choice.Type, _ what: String, _ path: String, _ key: String
    ) -> Choice? where Choice.RawValue == String {
        guard let text = string(value, path, key) else { return nil }
        if let result = Choice(rawValue: text) { return result }
        let allowed = Choice.allCases.map(\.rawValue)
        let hint = didYouMean(text, among: allowed)
        error("unknown \(what) '\(text)'\(hint); expected one of \(allowed.joined(separator: ", "))", at: place(path, key))
        return nil
    }

    private mutating func names(_ value: TOMLValueConvertible, _ path: String, _ key: String, allowed: [String]?, what: String) -> [String]? {
        var texts: [String] = []
        if let text = value.string {
            texts = [text]
        } else if let array = value.array {
            for element in array {
                guard let text = element.string else {
                    error("\(key) must list strings, not \(Self.describe(element))", at: place(path, key))
                    return nil
                }
                texts.append(text)
            }
        } else {
            error("\(key) must be a string or a list of strings, not \(Self.describe(value))", at: place(path, key))
            return nil
        }
        guard let allowed else { return texts }
        var ok = true
        for text in texts where !allowed.contains(text) {
            let hint = didYouMean(text, among: allowed)
            error("unknown \(what) '\(text)'\(hint); expected one of \(allowed.joined(separator: ", "))", at: place(path, key))
            ok = false
        }
        if texts.isEmpty {
            error("\(key) is empty; name at least one \(what)", at: place(path, key))
            ok = false
        }
        return ok ? texts : nil
    }

    private mutating func integer(_ value: TOMLValueConvertible, _ path: String, _ key: String, in range: ClosedRange<Int>) -> Int? {
        guard value.type == .int, let number = value.int else {
            error("\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(Self.describe(value))", at: place(path, key))
            return nil
        }
        guard range.contains(number) else {
            error("\(key) \(number) is out of range; expected \(range.lowerBound) to \(range.upperBound)", at: place(path, key))
            return nil
        }
        return number
    }

    private mutating func number(_ value: TOMLValueConvertible, _ path: String, _ key: String) -> Double? {
        let number: Double? = value.type == .int ? value.int.map(Double.init) : value.type == .double ? value.double : nil
        guard let number, number.isFinite else {
            error("\(key) must be a number, not \(Self.describe(value))", at: place(path, key))
            return nil
        }
        guard number > 0 else {
            error("\(key) must be greater than 0, not \(Self.formatted(number))", at: place(path, key))
            return nil
        }
        return number
    }

    private mutating func timeoutValue(_ value: TOMLValueConvertible, _ path: String, _ key: String) -> Duration?? {
        if value.string == "none" { return .some(nil) }
        return duration(value, path, key).map { .some($0) }
    }

    private mutating func duration(_ value: TOMLValueConvertible, _ path: String, _ key: String) -> Duration? {
        guard let text = value.string else {
            error("\(key) must be a duration with a unit, like \"300ms\" or \"2s\", not \(Self.describe(value))", at: place(path, key))
            return nil
        }
        guard let parsed = Self.parseDuration(text), parsed > .zero else {
            error("\(key) '\(text)' is not a duration; write a positive number with ms or s, like \"300ms\" or \"2s\"", at: place(path, key))
            return nil
        }
        return parsed
    }

    /// `300ms`, `2s`, `1.5s`, `250 ms`.
    static func parseDuration(_ text: String) -> Duration? {
        let trimmed = text.filter { $0 != " " }
        let (digits, scale): (Substring, Double) = trimmed.hasSuffix("ms")
            ? (trimmed.dropLast(2), 1_000) : trimmed.hasSuffix("s") ? (trimmed.dropLast(1), 1_000_000) : ("", 0)
        guard scale > 0, !digits.isEmpty, digits.allSatisfy({ $0.isNumber || $0 == "." }), let number = Double(digits) else { return nil }
        return .microseconds(Int64((number * scale).rounded()))
    }

    private static func describe(_ value: TOMLValueConvertible) -> String {
        switch value.type {
        case .string: "the string \"\(value.string ?? "")\""
        case .int: "the integer \(value.int ?? 0)"
        case .double: "the number \(formatted(value.double ?? 0))"
        case .bool: "\(value.bool ?? false)"
        case .array: "a list"
        case .table: "a table"
        case .date, .time, .dateTime: "a date or time"
        }
    }

    private static func formatted(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
