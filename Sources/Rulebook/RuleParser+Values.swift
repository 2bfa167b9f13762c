import TOML
import TextWire
import TouchGestures

/// Reading one key's value: type, allowed names, range; each problem is an error at the value.
extension RuleParser {
    mutating func unknownKey(_ entry: TOMLEntry, allowed: [String], what: String) {
        let hint = didYouMean(entry.key, among: allowed)
        error("unknown key '\(entry.key)' in \(what)\(hint); allowed keys: \(allowed.joined(separator: ", "))",
              at: entry.keyPosition)
    }

    /// An engine tunable, by its rule key (`slop`) or `[settings]` suffix (`width`).
    /// Reads `tunable`'s value for `gesture` from `entry` into `tunables`, or says what is wrong.
    mutating func setTunable(_ tunables: inout Tunables, _ tunable: TunableKey, _ entry: TOMLEntry, gesture: GestureKind) {
        switch tunable.values {
        case let .number(range):
            if let value = number(entry.value, entry.key, in: range(gesture)) { tunables[tunable.name] = .number(value) }
        case let .duration(range):
            if let value = duration(entry.value, entry.key, in: range) { tunables[tunable.name] = .duration(value) }
        }
    }

    mutating func string(_ value: TOMLValue, _ key: String) -> String? {
        guard let text = value.string else {
            error("\(key) must be a string, not \(Self.describe(value))", at: value.position)
            return nil
        }
        return text
    }

    mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ value: TOMLValue, _ type: Choice.Type, _ what: String, _ key: String
    ) -> Choice? where Choice.RawValue == String {
        guard let text = string(value, key) else { return nil }
        if let result = Choice(rawValue: text) { return result }
        let allowed = Choice.allCases.map(\.rawValue)
        let hint = didYouMean(text, among: allowed)
        error("unknown \(what) '\(text)'\(hint); expected one of \(allowed.joined(separator: ", "))", at: value.position)
        return nil
    }

    /// `device-size`: one `GLOB=WIDTHxHEIGHT` or a list of them, each checked where it stands.
    mutating func deviceSizes(_ value: TOMLValue, _ key: String) -> [StatedDeviceSize] {
        let elements = value.array ?? [value]
        var sizes: [StatedDeviceSize] = []
        for element in elements {
            guard let text = element.string else {
                error("\(key) must be a string like \"ILITEK*=197x115\" or a list of them, not \(Self.describe(element))",
                      at: element.position)
                continue
            }
            do throws(StatedDeviceSizeError) {
                sizes.append(try StatedDeviceSize(parsing: text))
            } catch {
                self.error(error.description, at: element.position)
            }
        }
        return sizes
    }

    mutating func names(_ value: TOMLValue, _ key: String, allowed: [String]?, what: String) -> [String]? {
        var texts: [String] = []
        if let text = value.string {
            texts = [text]
        } else if let array = value.array {
            for element in array {
                guard let text = element.string else {
                    error("\(key) must list strings, not \(Self.describe(element))", at: element.position)
                    return nil
                }
                texts.append(text)
            }
        } else {
            error("\(key) must be a string or a list of strings, not \(Self.describe(value))", at: value.position)
            return nil
        }
        guard let allowed else { return texts }
        var ok = true
        for text in texts where !allowed.contains(text) {
            let hint = didYouMean(text, among: allowed)
            error("unknown \(what) '\(text)'\(hint); expected one of \(allowed.joined(separator: ", "))", at: value.position)
            ok = false
        }
        if texts.isEmpty {
            error("\(key) is empty; name at least one \(what)", at: value.position)
            ok = false
        }
        return ok ? texts : nil
    }

    mutating func boolean(_ value: TOMLValue, _ key: String) -> Bool? {
        guard let flag = value.boolean else {
            error("\(key) must be true or false (without quotes), not \(Self.describe(value))", at: value.position)
            return nil
        }
        return flag
    }

    mutating func integer(_ value: TOMLValue, _ key: String, in range: ClosedRange<Int>) -> Int? {
        guard let number = value.integer else {
            error("\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(Self.describe(value))", at: value.position)
            return nil
        }
        guard number >= Int64(range.lowerBound) && number <= Int64(range.upperBound) else {
            error("\(key) \(number) is out of range; expected \(range.lowerBound) to \(range.upperBound)", at: value.position)
            return nil
        }
        return Int(number)
    }

    /// An integer or float within `range`; `gesture` names the gesture when the range is its own.
    mutating func number(_ value: TOMLValue, _ key: String, in range: NumberRange, gesture: GestureKind? = nil) -> Double? {
        let number: Double? = value.integer.map(Double.init) ?? value.float
        guard let number, number.isFinite else {
            error("\(key) must be a number from \(range.description), not \(Self.describe(value))", at: value.position)
            return nil
        }
        guard range.contains(number) else {
            let whose = gesture.map { " for \($0.rawValue)" } ?? ""
            error("\(key) \(shownNumber(number)) is out of range\(whose); expected \(range.description)", at: value.position)
            return nil
        }
        return number
    }

    mutating func timeoutValue(_ value: TOMLValue, _ key: String) -> Duration?? {
        if value.string == "none" { return .some(nil) }
        return duration(value, key, in: ValueRanges.timeout).map { .some($0) }
    }

    mutating func duration(_ value: TOMLValue, _ key: String, in range: DurationRange) -> Duration? {
        guard let text = value.string else {
            error("\(key) must be a duration with a unit, like \"300ms\" or \"2s\", not \(Self.describe(value))", at: value.position)
            return nil
        }
        guard let (number, unit) = Self.parseDuration(text) else {
            error("\(key) '\(text)' is not a duration; write a number with ms or s from \(range.description), like \"300ms\" or \"2s\"", at: value.position)
            return nil
        }
        // Compared in microseconds as a Double, so no size of number can overflow.
        let microseconds = number * unit
        let lowest = Double(range.lowest.components.seconds) * 1e6 + Double(range.lowest.components.attoseconds) / 1e12
        let highest = Double(range.highest.components.seconds) * 1e6 + Double(range.highest.components.attoseconds) / 1e12
        guard microseconds >= lowest && microseconds <= highest else {
            error("\(key) '\(text)' is out of range; expected \(range.description)", at: value.position)
            return nil
        }
        return .microseconds(Int64(microseconds.rounded()))
    }

    /// `300ms`, `2s`, `1.5s`, `250 ms` -> (number, microseconds per unit). Plain
    /// decimal digits only: no sign, exponent, `inf` or `nan`.
    static func parseDuration(_ text: String) -> (Double, Double)? {
        let trimmed = text.filter { $0 != " " }
        let (digits, unit): (Substring, Double) = trimmed.hasSuffix("ms")
            ? (trimmed.dropLast(2), 1_000) : trimmed.hasSuffix("s") ? (trimmed.dropLast(1), 1_000_000) : ("", 0)
        guard unit > 0, !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) || $0 == "." }),
              let number = Double(digits), number.isFinite else { return nil }
        return (number, unit)
    }

    static func describe(_ value: TOMLValue) -> String {
        switch value.content {
        case let .string(text): "the string \"\(text)\""
        case let .integer(number): "the integer \(number)"
        case let .float(number): "the number \(shownNumber(number))"
        case let .boolean(flag): "\(flag)"
        case .array: "a list"
        case .table: "a table"
        case .dateTime: "a date or time"
        }
    }
}
