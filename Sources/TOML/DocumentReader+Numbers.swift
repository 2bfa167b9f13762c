extension DocumentReader {
    /// An integer, float, date, time or date-time: one token, told apart by its shape.
    mutating func readNumberOrDateTime() throws(TOMLError) -> TOMLValue.Content {
        let position = scanner.position()
        let start = scanner.index
        scanner.advance(while: Self.isTokenByte)
        // A date-time may have a space between date and time: `1979-05-27 07:32:00`.
        if Self.isDate(scanner.bytes[start..<scanner.index]), scanner.peek() == 0x20,
           let hour = scanner.peek(1), Self.isDigit(hour), let hour2 = scanner.peek(2), Self.isDigit(hour2),
           scanner.peek(3) == UInt8(ascii: ":") {
            scanner.advance()
            scanner.advance(while: Self.isTokenByte)
        }
        let token = Array(scanner.bytes[start..<scanner.index])
        let text = String(decoding: token, as: UTF8.self)
        if token.count >= 5 && (token[2] == UInt8(ascii: ":") || token[4] == UInt8(ascii: "-"))
            && token.prefix(2).allSatisfy(Self.isDigit) {
            guard let kind = Self.dateTimeKind(token) else {
                throw scanner.error("invalid date or time '\(text)'; expected e.g. 1979-05-27, 07:32:00, 1979-05-27T07:32:00 or 1979-05-27T07:32:00Z with real values", at: position)
            }
            return .dateTime(TOMLDateTime(kind: kind, text: text))
        }
        return try number(token, text: text, at: position)
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        isBareKeyByte(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    // MARK: Numbers

    private func number(_ token: [UInt8], text: String, at position: TOMLPosition) throws(TOMLError) -> TOMLValue.Content {
        var body = token[...]
        var negative = false
        var signed = false
        if let first = body.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            negative = first == UInt8(ascii: "-")
            signed = true
            body = body.dropFirst()
        }
        if body.elementsEqual("inf".utf8) { return .float(negative ? -.infinity : .infinity) }
        if body.elementsEqual("nan".utf8) { return .float(negative ? -.nan : .nan) }
        let invalid = scanner.error("invalid number '\(text)'", at: position)
        if body.count > 2 && body.first == UInt8(ascii: "0"), let radix = Self.radix(body[body.startIndex + 1]) {
            guard !signed else {
                throw scanner.error("'\(text)': hexadecimal, octal and binary integers cannot have a sign", at: position)
            }
            guard let digits = Self.digits(body.dropFirst(2), radix: radix) else { throw invalid }
            return .integer(try integer(digits, radix: radix, negative: false, text: text, at: position))
        }
        if body.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            return .float(try float(body, negative: negative, text: text, at: position))
        }
        guard let digits = Self.digits(body, radix: 10) else { throw invalid }
        if digits.count > 1 && digits[0] == 0 {
            throw scanner.error("leading zeros are not allowed in '\(text)'", at: position)
        }
        return .integer(try integer(digits, radix: 10, negative: negative, text: text, at: position))
    }

    private static func radix(_ letter: UInt8) -> Int64? {
        switch letter {
        case UInt8(ascii: "x"): 16
        case UInt8(ascii: "o"): 8
        case UInt8(ascii: "b"): 2
        default: nil
        }
    }

    /// The digit values of `1_000`-style text: underscores only between digits.
    private static func digits(_ text: ArraySlice<UInt8>, radix: Int64) -> [UInt8]? {
        var result: [UInt8] = []
        var afterDigit = false
        for byte in text {
            if byte == UInt8(ascii: "_") {
                guard afterDigit else { return nil }
                afterDigit = false
                continue
            }
            guard let value = hexValue(byte), Int64(value) < radix else { return nil }
            result.append(value)
            afterDigit = true
        }
        return afterDigit ? result : nil
    }

    private func integer(_ digits: [UInt8], radix: Int64, negative: Bool, text: String, at position: TOMLPosition) throws(TOMLError) -> Int64 {
        var value: Int64 = 0
        for digit in digits {
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: radix)
            let (next, overflow2) = negative
                ? shifted.subtractingReportingOverflow(Int64(digit)) : shifted.addingReportingOverflow(Int64(digit))
            guard !overflow1 && !overflow2 else {
                throw scanner.error("integer '\(text)' does not fit in 64 bits; expected \(Int64.min) to \(Int64.max)", at: position)
            }
            value = next
        }
        return value
    }

    /// `3.14`, `1e6`, `6.626e-34`: checked against TOML's grammar, then read.
    private func float(_ body: ArraySlice<UInt8>, negative: Bool, text: String, at position: TOMLPosition) throws(TOMLError) -> Double {
        let invalid = scanner.error("invalid number '\(text)'; a float is digits with a fraction (1.5), an exponent (1e6) or both", at: position)
        let exponentStart = body.firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        let mantissa = body[..<(exponentStart ?? body.endIndex)]
        let dot = mantissa.firstIndex(of: UInt8(ascii: "."))
        guard let whole = Self.digits(mantissa[..<(dot ?? mantissa.endIndex)], radix: 10) else { throw invalid }
        if whole.count > 1 && whole[0] == 0 {
            throw scanner.error("leading zeros are not allowed in '\(text)'", at: position)
        }
        var clean = negative ? "-" : ""
        clean += whole.map(String.init).joined()
        if let dot {
            guard let fraction = Self.digits(mantissa[(dot + 1)...], radix: 10) else { throw invalid }
            clean += "." + fraction.map(String.init).joined()
        }
        if let exponentStart {
            var exponent = body[(exponentStart + 1)...]
            var sign = ""
            if let first = exponent.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
                sign = first == UInt8(ascii: "-") ? "-" : ""
                exponent = exponent.dropFirst()
            }
            guard let digits = Self.digits(exponent, radix: 10) else { throw invalid }
            clean += "e" + sign + digits.map(String.init).joined()
        }
        guard let value = Double(clean) else { throw invalid }
        guard value.isFinite else {
            throw scanner.error("float '\(text)' is out of range: larger than \(Double.greatestFiniteMagnitude)", at: position)
        }
        return value
    }

    // MARK: Dates and times

    private static func isDate(_ token: ArraySlice<UInt8>) -> Bool {
        let bytes = Array(token)
        return bytes.count == 10 && parseDate(bytes, at: 0) != nil
    }

    /// The kind of a date, time or date-time in RFC 3339's forms, or nil when the
    /// text is not one or names a day or time that does not exist.
    static func dateTimeKind(_ token: [UInt8]) -> TOMLDateTime.Kind? {
        if token.count > 2 && token[2] == UInt8(ascii: ":") {
            return parseTime(token, at: 0) == token.count ? .localTime : nil
        }
        guard parseDate(token, at: 0) != nil else { return nil }
        if token.count == 10 { return .localDate }
        guard [UInt8(ascii: "T"), UInt8(ascii: "t"), 0x20].contains(token[10]),
              var index = parseTime(token, at: 11) else { return nil }
        if index == token.count { return .localDateTime }
        if token[index] == UInt8(ascii: "Z") || token[index] == UInt8(ascii: "z") {
            return index + 1 == token.count ? .offsetDateTime : nil
        }
        guard token[index] == UInt8(ascii: "+") || token[index] == UInt8(ascii: "-") else { return nil }
        index += 1
        guard let hours = twoDigits(token, at: index), hours <= 23, token.count == index + 5,
              token[index + 2] == UInt8(ascii: ":"), let minutes = twoDigits(token, at: index + 3), minutes <= 59 else { return nil }
        return .offsetDateTime
    }

    /// `YYYY-MM-DD` at `index` with a real month and day; returns the index after it.
    private static func parseDate(_ token: [UInt8], at index: Int) -> Int? {
        guard token.count >= index + 10, token[index + 4] == UInt8(ascii: "-"), token[index + 7] == UInt8(ascii: "-"),
              let century = twoDigits(token, at: index), let yearOfCentury = twoDigits(token, at: index + 2),
              let month = twoDigits(token, at: index + 5), let day = twoDigits(token, at: index + 8) else { return nil }
        let year = century * 100 + yearOfCentury
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), (1...days[month - 1]).contains(day) else { return nil }
        return index + 10
    }

    /// `HH:MM:SS` with an optional fraction at `index`; returns the index after it.
    private static func parseTime(_ token: [UInt8], at index: Int) -> Int? {
        guard token.count >= index + 8, token[index + 2] == UInt8(ascii: ":"), token[index + 5] == UInt8(ascii: ":"),
              let hours = twoDigits(token, at: index), hours <= 23,
              let minutes = twoDigits(token, at: index + 3), minutes <= 59,
              let seconds = twoDigits(token, at: index + 6), seconds <= 60 else { return nil }
        var end = index + 8
        if end < token.count && token[end] == UInt8(ascii: ".") {
            end += 1
            let digitsStart = end
            while end < token.count && isDigit(token[end]) { end += 1 }
            guard end > digitsStart else { return nil }
        }
        return end
    }

    private static func twoDigits(_ token: [UInt8], at index: Int) -> Int? {
        guard index + 1 < token.count, isDigit(token[index]), isDigit(token[index + 1]) else { return nil }
        return Int(token[index] - UInt8(ascii: "0")) * 10 + Int(token[index + 1] - UInt8(ascii: "0"))
    }
}
