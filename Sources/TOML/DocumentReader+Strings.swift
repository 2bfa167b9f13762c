extension DocumentReader {
    /// `"..."` with escapes, on one line.
    mutating func readBasicString() throws(TOMLError) -> String {
        let open = scanner.position()
        scanner.advance()
        var buffer: [UInt8] = []
        while true {
            guard let byte = scanner.peek(), !scanner.atNewline else {
                throw scanner.error("the string opened at \(open) has no closing '\"' on its line", at: scanner.position())
            }
            if byte == UInt8(ascii: "\"") {
                scanner.advance()
                return String(decoding: buffer, as: UTF8.self)
            }
            try readCharacter(byte, basic: true, into: &buffer)
        }
    }

    /// `'...'`, taken as written, on one line.
    mutating func readLiteralString() throws(TOMLError) -> String {
        let open = scanner.position()
        scanner.advance()
        let start = scanner.index
        while true {
            guard let byte = scanner.peek(), !scanner.atNewline else {
                throw scanner.error("the string opened at \(open) has no closing \"'\" on its line", at: scanner.position())
            }
            if byte == UInt8(ascii: "'") { break }
            if TOMLScanner.isForbiddenControl(byte) { throw controlCharacterError(in: "a literal string") }
            scanner.advance()
        }
        let text = String(decoding: scanner.bytes[start..<scanner.index], as: UTF8.self)
        scanner.advance()
        return text
    }

    /// `"""..."""` (basic, with escapes) or `'''...'''` (literal, taken as written), opened
    /// by three of `quote`: line ends become LF and a first line end right after the quotes
    /// is dropped; in a basic one, so is a backslash at a line's end (with what follows up
    /// to the next text).
    mutating func readMultilineString(quote: UInt8) throws(TOMLError) -> String {
        let basic = quote == UInt8(ascii: "\"")
        let open = scanner.position()
        scanner.advance(3)
        _ = scanner.consumeNewline()
        var buffer: [UInt8] = []
        while true {
            if scanner.consumeNewline() {
                buffer.append(0x0A)
                continue
            }
            guard let byte = scanner.peek() else {
                let closing = basic ? "'\"\"\"'" : "\"'''\""
                throw scanner.error("the string opened at \(open) has no closing \(closing)", at: scanner.position())
            }
            if byte == quote {
                if try closeMultiline(quote: byte, into: &buffer) { return String(decoding: buffer, as: UTF8.self) }
            } else if basic && byte == UInt8(ascii: "\\") && skipLineEndingBackslash() {
                continue
            } else {
                try readCharacter(byte, basic: basic, into: &buffer)
            }
        }
    }

    /// At a backslash in a multi-line basic string: when only blanks follow it on its line,
    /// skips it and every blank and line end up to the next text. True when skipped.
    private mutating func skipLineEndingBackslash() -> Bool {
        var ahead = 1
        while scanner.peek(ahead) == 0x20 || scanner.peek(ahead) == 0x09 { ahead += 1 }
        guard scanner.peek(ahead) == 0x0A || (scanner.peek(ahead) == 0x0D && scanner.peek(ahead + 1) == 0x0A) else { return false }
        scanner.advance(ahead)
        while scanner.consumeNewline() || scanner.peek() == 0x20 || scanner.peek() == 0x09 {
            if scanner.peek() == 0x20 || scanner.peek() == 0x09 { scanner.advance() }
        }
        return true
    }

    /// One character of a string's text at `byte` (not its closing quote): in a basic
    /// string a backslash begins an escape; a control character TOML forbids is an error.
    private mutating func readCharacter(_ byte: UInt8, basic: Bool, into buffer: inout [UInt8]) throws(TOMLError) {
        if basic && byte == UInt8(ascii: "\\") {
            try readEscape(into: &buffer)
        } else if TOMLScanner.isForbiddenControl(byte) {
            throw controlCharacterError(in: basic ? "a string" : "a literal string")
        } else {
            buffer.append(byte)
            scanner.advance()
        }
    }

    /// At a run of quotes in a multi-line string: three or more close it (up to two
    /// before them belong to the text); fewer are text. True when closed.
    private mutating func closeMultiline(quote: UInt8, into buffer: inout [UInt8]) throws(TOMLError) -> Bool {
        var count = 0
        while scanner.peek(count) == quote { count += 1 }
        if count < 3 {
            buffer.append(contentsOf: repeatElement(quote, count: count))
            scanner.advance(count)
            return false
        }
        if count > 5 {
            throw scanner.error("too many quotes: a multi-line string ends with at most five", at: scanner.position(at: scanner.index + 5))
        }
        buffer.append(contentsOf: repeatElement(quote, count: count - 3))
        scanner.advance(count)
        return true
    }

    /// `\n`, `\u00E9`, ...: appends the character as UTF-8.
    private mutating func readEscape(into buffer: inout [UInt8]) throws(TOMLError) {
        let position = scanner.position()
        let letter = scanner.peek(1)
        let simple: UInt8? = switch letter {
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "t"): 0x09
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "\""): 0x22
        case UInt8(ascii: "\\"): 0x5C
        default: nil
        }
        if let simple {
            buffer.append(simple)
            scanner.advance(2)
            return
        }
        let digits = letter == UInt8(ascii: "u") ? 4 : letter == UInt8(ascii: "U") ? 8 : 0
        guard digits > 0 else {
            scanner.advance()
            let found = scanner.isAtEnd || scanner.atNewline ? "a backslash at the end of the line" : "'\\\(scanner.describeNext().dropFirst().dropLast())'"
            throw scanner.error("unknown escape \(found); expected one of \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX", at: position)
        }
        var value: UInt32 = 0
        for offset in 0..<digits {
            guard let byte = scanner.peek(2 + offset), let digit = Self.hexValue(byte) else {
                throw scanner.error("\\\(letter == UInt8(ascii: "u") ? "u" : "U") needs \(digits) hexadecimal digits", at: position)
            }
            value = value << 4 | UInt32(digit)
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw scanner.error("\(TOMLScanner.unicodeName(value)) is not a Unicode scalar value (surrogates and values above U+10FFFF are not)", at: position)
        }
        buffer.append(contentsOf: String(Character(scalar)).utf8)
        scanner.advance(2 + digits)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private mutating func controlCharacterError(in what: String) -> TOMLError {
        if scanner.peek() == 0x0D {
            return scanner.error("a carriage return must be followed by a line feed", at: scanner.position())
        }
        let hex = TOMLScanner.unicodeName(UInt32(scanner.peek() ?? 0))
        return scanner.error("\(scanner.describeNext()) is not allowed in \(what); write it as \\u\(hex.dropFirst(2)) in a basic string", at: scanner.position())
    }
}
