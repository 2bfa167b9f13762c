extension DocumentReader {
    /// One value. `depth` is the depth of the table it goes in; arrays and inline
    /// tables below it count against ``TOMLParser/Limits/maximumDepth``.
    mutating func readValue(depth: Int, path: [String] = []) throws(TOMLError) -> TOMLValue {
        let position = scanner.position()
        guard let byte = scanner.peek() else {
            throw scanner.error("expected a value, found the end of the file", at: position)
        }
        switch byte {
        case UInt8(ascii: "\""):
            let text = scanner.peek("\"\"\"") ? try readMultilineString(quote: byte) : try readBasicString()
            return TOMLValue(.string(text), at: position)
        case UInt8(ascii: "'"):
            let text = scanner.peek("'''") ? try readMultilineString(quote: byte) : try readLiteralString()
            return TOMLValue(.string(text), at: position)
        case UInt8(ascii: "["):
            return TOMLValue(.array(try readArray(depth: depth + 1, path: path)), at: position)
        case UInt8(ascii: "{"):
            return TOMLValue(.table(try readInlineTable(depth: depth + 1, path: path)), at: position)
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"),
             UInt8(ascii: "i"), UInt8(ascii: "n"):
            return TOMLValue(try readNumberOrDateTime(), at: position)
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            let start = scanner.index
            scanner.advance(while: Self.isBareKeyByte)
            let word = String(decoding: scanner.bytes[start..<scanner.index], as: UTF8.self)
            if word == "true" || word == "false" { return TOMLValue(.boolean(word == "true"), at: position) }
            throw scanner.error("expected a value, found '\(word)'; strings need quotes, booleans are true and false", at: position)
        default:
            if Self.isBareKeyByte(byte) {
                let start = scanner.index
                scanner.advance(while: Self.isBareKeyByte)
                let word = String(decoding: scanner.bytes[start..<scanner.index], as: UTF8.self)
                throw scanner.error("expected a value, found '\(word)'; strings need quotes", at: position)
            }
            throw scanner.error("expected a value, found \(scanner.describeNext())", at: position)
        }
    }

    private mutating func checkDepth(_ depth: Int, at position: TOMLPosition) throws(TOMLError) {
        if depth > limits.maximumDepth {
            throw scanner.error("arrays and tables nested more than \(limits.maximumDepth) deep", at: position)
        }
    }

    // MARK: Arrays and inline tables

    /// `[a, b, ...]`, over lines, with comments and a trailing comma allowed.
    private mutating func readArray(depth: Int, path: [String]) throws(TOMLError) -> [TOMLValue] {
        let open = scanner.position()
        try checkDepth(depth, at: open)
        scanner.advance()
        var elements: [TOMLValue] = []
        while true {
            try skipBlank()
            if scanner.peek() == UInt8(ascii: "]") {
                scanner.advance()
                return elements
            }
            if scanner.isAtEnd {
                throw scanner.error("the array opened at \(open) has no closing ']'", at: scanner.position())
            }
            elements.append(try readValue(depth: depth, path: path))
            try skipBlank()
            switch scanner.peek() {
            case UInt8(ascii: ","):
                scanner.advance()
            case UInt8(ascii: "]"):
                scanner.advance()
                return elements
            case nil:
                throw scanner.error("the array opened at \(open) has no closing ']'", at: scanner.position())
            default:
                throw scanner.error("expected ',' or ']' after an array element, found \(scanner.describeNext())", at: scanner.position())
            }
        }
    }

    /// `{ a = 1, b.c = 2 }` on one line, without a trailing comma (TOML 1.0).
    private mutating func readInlineTable(depth: Int, path: [String]) throws(TOMLError) -> TOMLTable {
        let open = scanner.position()
        try checkDepth(depth, at: open)
        scanner.advance()
        let table = TableNode(origin: .inline, position: open, depth: depth, path: path)
        scanner.skipWhitespace()
        if scanner.peek() == UInt8(ascii: "}") {
            scanner.advance()
            return table.frozen()
        }
        while true {
            scanner.skipWhitespace()
            if scanner.atNewline || scanner.isAtEnd {
                throw scanner.error("an inline table must end on the line it starts (TOML 1.0); expected a key, found \(scanner.describeNext())", at: scanner.position())
            }
            if scanner.peek() == UInt8(ascii: "}") {
                throw scanner.error("a trailing comma is not allowed in an inline table (TOML 1.0)", at: scanner.position())
            }
            try readKeyValue(into: table)
            scanner.skipWhitespace()
            switch scanner.peek() {
            case UInt8(ascii: ","):
                scanner.advance()
            case UInt8(ascii: "}"):
                scanner.advance()
                return table.frozen()
            default:
                let hint = scanner.atNewline || scanner.isAtEnd ? " (an inline table must end on the line it starts)" : ""
                throw scanner.error("expected ',' or '}' in the inline table opened at \(open), found \(scanner.describeNext())\(hint)", at: scanner.position())
            }
        }
    }
}
