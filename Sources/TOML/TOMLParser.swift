/// Reads TOML 1.0 documents into tables that remember where everything was written.
///
/// Standard library only. Every problem of the input is a thrown ``TOMLError`` with
/// its line and column; nothing the input holds can trap, overflow the stack or run
/// for long: nesting, key length and document size are bounded by ``Limits``.
public struct TOMLParser: Sendable {
    /// Bounds on what a document may hold.
    public struct Limits: Sendable {
        /// Largest document in bytes. 4 MiB: rule files are a few kilobytes; the bound
        /// keeps memory and time small whatever file is named.
        public var maximumSize: Int
        /// Deepest nesting of tables and arrays, counting every level (a header's
        /// names, a dotted key's parts, arrays, inline tables). 100: far beyond any
        /// real document, far below what recursion on the stack can take.
        public var maximumDepth: Int

        /// Limits in bytes and levels; the defaults suit any configuration file.
        public init(maximumSize: Int = 4 << 20, maximumDepth: Int = 100) {
            self.maximumSize = maximumSize
            self.maximumDepth = maximumDepth
        }
    }

    /// The bounds this parser enforces.
    public var limits: Limits

    /// A parser with `limits`.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Parses `text` into its root table.
    public func parse(_ text: String) throws(TOMLError) -> TOMLTable {
        try parse(utf8: Array(text.utf8))
    }

    /// Parses UTF-8 bytes into the root table; bytes that are not UTF-8 are an error.
    public func parse(utf8 bytes: [UInt8]) throws(TOMLError) -> TOMLTable {
        guard bytes.count <= limits.maximumSize else {
            throw TOMLError("the document is \(bytes.count) bytes; the most allowed is \(limits.maximumSize)",
                            at: TOMLPosition(line: 1, column: 1))
        }
        if let bad = TOMLScanner.firstInvalidUTF8(bytes) {
            let hex = String(bytes[bad.offset], radix: 16, uppercase: true)
            throw TOMLError("invalid UTF-8 byte 0x\(hex.count < 2 ? "0" : "")\(hex); a TOML document is UTF-8 text", at: bad.position)
        }
        var reader = DocumentReader(bytes: bytes, limits: limits)
        return try reader.read()
    }
}

/// One key part as written: `b` in `a."b".c`, with where it stands.
struct KeyPart {
    var name: String
    var position: TOMLPosition
}

/// The state of one parse: the cursor, the tables so far and the table that
/// `key = value` lines go into.
struct DocumentReader {
    var scanner: TOMLScanner
    let limits: TOMLParser.Limits
    let root: TableNode
    var current: TableNode

    init(bytes: [UInt8], limits: TOMLParser.Limits) {
        scanner = TOMLScanner(bytes: bytes)
        self.limits = limits
        root = TableNode(origin: .root, position: TOMLPosition(line: 1, column: 1), depth: 0, path: [])
        current = root
    }

    mutating func read() throws(TOMLError) -> TOMLTable {
        while true {
            scanner.skipWhitespace()
            guard let byte = scanner.peek() else { break }
            switch byte {
            case UInt8(ascii: "#"):
                try skipComment()
                try endLine(after: "comment")
            case 0x0A, 0x0D:
                try endLine(after: "blank line")
            case UInt8(ascii: "["):
                try readHeader()
                try endLine(after: "table header")
            default:
                try readKeyValue(into: current)
                try endLine(after: "value")
            }
        }
        return root.frozen()
    }

    // MARK: Lines

    /// Whitespace, an optional comment, then a line end or the end of the file.
    mutating func endLine(after what: String) throws(TOMLError) {
        scanner.skipWhitespace()
        if scanner.peek() == UInt8(ascii: "#") { try skipComment() }
        if scanner.isAtEnd || scanner.consumeNewline() { return }
        throw lineEndError(after: what)
    }

    mutating func lineEndError(after what: String) -> TOMLError {
        if scanner.peek() == 0x0D {
            return scanner.error("a carriage return must be followed by a line feed", at: scanner.position())
        }
        return scanner.error("expected the end of the line after the \(what), found \(scanner.describeNext())", at: scanner.position())
    }

    /// From `#` to the end of the line (not included).
    mutating func skipComment() throws(TOMLError) {
        scanner.advance()
        while let byte = scanner.peek(), !scanner.atNewline {
            if TOMLScanner.isForbiddenControl(byte) {
                throw scanner.error("\(scanner.describeNext()) is not allowed in a comment", at: scanner.position())
            }
            scanner.advance()
        }
    }

    /// Whitespace, comments and line ends, as allowed between array elements.
    mutating func skipBlank() throws(TOMLError) {
        while true {
            scanner.skipWhitespace()
            if scanner.peek() == UInt8(ascii: "#") {
                try skipComment()
            } else if !scanner.consumeNewline() {
                return
            }
        }
    }

    // MARK: Keys

    /// `a`, `"a b"`, `'c'`, `a . b."c"`: the parts of a (dotted) key.
    mutating func readKey() throws(TOMLError) -> [KeyPart] {
        var parts: [KeyPart] = []
        while true {
            scanner.skipWhitespace()
            let position = scanner.position()
            let name: String
            switch scanner.peek() {
            case UInt8(ascii: "\""):
                if scanner.peek("\"\"\"") {
                    throw scanner.error("a key cannot be a multi-line string", at: position)
                }
                name = try readBasicString()
            case UInt8(ascii: "'"):
                if scanner.peek("'''") {
                    throw scanner.error("a key cannot be a multi-line string", at: position)
                }
                name = try readLiteralString()
            case let byte? where Self.isBareKeyByte(byte):
                let start = scanner.index
                scanner.advance(while: Self.isBareKeyByte)
                name = String(decoding: scanner.bytes[start..<scanner.index], as: UTF8.self)
            default:
                let after = parts.isEmpty ? "" : " after '\(Self.render(parts.map(\.name)))'"
                throw scanner.error("expected a key\(after), found \(scanner.describeNext()); bare keys use A-Z a-z 0-9 _ -, others need quotes", at: position)
            }
            parts.append(KeyPart(name: name, position: position))
            if parts.count > limits.maximumDepth {
                throw scanner.error("key has more than \(limits.maximumDepth) parts", at: position)
            }
            scanner.skipWhitespace()
            guard scanner.peek() == UInt8(ascii: ".") else { return parts }
            scanner.advance()
        }
    }

    static func isBareKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"): true
        default: false
        }
    }

    /// `a.b."c d"`: a key path as it could be written back.
    static func render(_ path: [String]) -> String {
        path.map { part in
            if !part.isEmpty && part.utf8.allSatisfy(isBareKeyByte) { return part }
            var quoted = "\""
            for scalar in part.unicodeScalars {
                switch scalar {
                case "\"": quoted += "\\\""
                case "\\": quoted += "\\\\"
                case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                    quoted += "\\u" + TOMLScanner.unicodeName(scalar.value).dropFirst(2)
                default: quoted.unicodeScalars.append(scalar)
                }
            }
            return quoted + "\""
        }.joined(separator: ".")
    }

    // MARK: Key = value

    /// `key = value` into `table`, making the tables of a dotted key on the way.
    mutating func readKeyValue(into table: TableNode) throws(TOMLError) {
        let key = try readKey()
        scanner.skipWhitespace()
        guard scanner.peek() == UInt8(ascii: "=") else {
            throw scanner.error("expected '=' after the key '\(Self.render(key.map(\.name)))', found \(scanner.describeNext())", at: scanner.position())
        }
        scanner.advance()
        scanner.skipWhitespace()
        let target = try parentTable(of: key, from: table, header: nil)
        let last = key[key.count - 1]
        if let existing = target.entry(last.name) {
            throw duplicate(key: key, existing: existing, table: table)
        }
        let value = try readValue(depth: target.depth, path: target.path + [last.name])
        target.add(last.name, at: last.position, .value(value))
    }

    /// The table a key's last part goes in, walking its other parts down from `table`:
    /// each missing one is made, implicit under the header `written` or dotted under a
    /// dotted key (`header` nil); an existing one is entered as that header or dotted key
    /// may (``enterByHeader(_:_:path:written:)``, ``enterByDottedKey(_:_:path:)``).
    mutating func parentTable(of key: [KeyPart], from table: TableNode, header written: String?) throws(TOMLError) -> TableNode {
        var node = table
        for (offset, part) in key.dropLast().enumerated() {
            guard let existing = node.entry(part.name) else {
                let child = try makeTable(written == nil ? .dotted : .implicit, named: part.name, at: part.position, in: node)
                node.add(part.name, at: part.position, .table(child))
                node = child
                continue
            }
            let path = Self.render(key[...offset].map(\.name))
            node = if let written {
                try enterByHeader(existing, part, path: path, written: written)
            } else {
                try enterByDottedKey(existing, part, path: path)
            }
        }
        return node
    }

    /// The table a dotted key goes on in at `existing`, the entry of the key's part `part`,
    /// whose path so far is `path`. Dotted keys may only enter tables other dotted keys
    /// made (TOML 1.0).
    private func enterByDottedKey(_ existing: TableNode.Entry, _ part: KeyPart, path: String) throws(TOMLError) -> TableNode {
        switch existing.slot {
        case let .table(child) where child.origin == .dotted:
            return child
        case let .table(child):
            throw scanner.error("cannot add to table '\(path)' with a dotted key: it was defined at line \(child.position.line) by a header; write the key under that header", at: part.position)
        case let .tableArray(array):
            throw scanner.error("cannot add to '\(path)' with a dotted key: it is an array of tables defined at line \(array.position.line)", at: part.position)
        case let .value(value) where value.table != nil:
            throw scanner.error("'\(path)' is an inline table (line \(value.position.line)); an inline table cannot be added to later", at: part.position)
        case let .value(value):
            throw scanner.error("'\(path)' is already \(value.describedType) (line \(value.position.line)), not a table", at: part.position)
        }
    }

    private mutating func duplicate(key: [KeyPart], existing: TableNode.Entry, table: TableNode) -> TOMLError {
        let first = existing.keyPosition
        let last = key[key.count - 1]
        return TOMLError("duplicate key '\(Self.render(key.map(\.name)))'; first defined at line \(first.line)",
                         at: last.position, reason: .duplicate(path: table.path + key.map(\.name), first: first))
    }

    /// A new table below `parent`, if the depth limit allows.
    mutating func makeTable(_ origin: TOMLTable.Origin, named name: String, at position: TOMLPosition,
                            in parent: TableNode) throws(TOMLError) -> TableNode {
        guard parent.depth < limits.maximumDepth else {
            throw scanner.error("tables nested more than \(limits.maximumDepth) deep", at: position)
        }
        return TableNode(origin: origin, position: position, depth: parent.depth + 1, path: parent.path + [name])
    }
}
