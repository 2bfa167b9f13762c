extension DocumentReader {
    /// `[a.b]` or `[[a.b]]`: finds or makes the table and makes it the current one.
    mutating func readHeader() throws(TOMLError) {
        let start = scanner.position()
        scanner.advance()
        let isArray = scanner.peek() == UInt8(ascii: "[")
        if isArray { scanner.advance() }
        let key = try readKey()
        let path = key.map(\.name)
        let written = isArray ? "[[\(Self.render(path))]]" : "[\(Self.render(path))]"
        scanner.skipWhitespace()
        let closing: StaticString = isArray ? "]]" : "]"
        guard scanner.peek(closing) else {
            throw scanner.error("expected '\(closing)' to close the table header \(written), found \(scanner.describeNext())", at: scanner.position())
        }
        scanner.advance(isArray ? 2 : 1)

        let node = try parentTable(of: key, from: root, header: written)
        let last = key[key.count - 1]
        current = isArray
            ? try appendTable(to: node, last, path: path, written: written, header: start)
            : try defineTable(in: node, last, path: path, written: written, header: start)
    }

    /// The table the header `written` goes on in at `existing`, the entry of the key's
    /// part `part`, whose path so far is `path`.
    func enterByHeader(_ existing: TableNode.Entry, _ part: KeyPart, path: String, written: String) throws(TOMLError) -> TableNode {
        switch existing.slot {
        case let .table(child):
            return child
        case let .tableArray(array):
            // `[a.b]` after `[[a]]` goes into the last table of `a`.
            guard let last = array.elements.last else {
                throw scanner.error("internal error: empty array of tables '\(path)'", at: part.position)
            }
            return last
        case let .value(value) where value.table != nil:
            throw scanner.error("cannot define \(written): '\(path)' is an inline table (line \(value.position.line)); an inline table cannot be added to later", at: part.position)
        case let .value(value):
            throw scanner.error("cannot define \(written): '\(path)' is already \(value.describedType) (line \(value.position.line)), not a table", at: part.position)
        }
    }

    /// `[path]`: a new table, or one only named before as a header's prefix.
    private mutating func defineTable(in parent: TableNode, _ part: KeyPart, path: [String],
                                      written: String, header: TOMLPosition) throws(TOMLError) -> TableNode {
        guard let existing = parent.entry(part.name) else {
            let table = try makeTable(.header, named: part.name, at: header, in: parent)
            parent.add(part.name, at: part.position, .table(table))
            return table
        }
        switch existing.slot {
        case let .table(table) where table.origin == .implicit:
            table.origin = .header
            table.position = header
            return table
        case let .table(table) where table.origin == .dotted:
            throw TOMLError("table \(written) was already defined by the dotted key at line \(table.position.line)",
                            at: header, reason: .duplicate(path: path, first: table.position))
        case let .table(table):
            throw TOMLError("duplicate table \(written); first defined at line \(table.position.line)",
                            at: header, reason: .duplicate(path: path, first: table.position))
        case let .tableArray(array):
            throw TOMLError("\(written) is already an array of tables (line \(array.position.line)); write [\(written)] to add a table to it",
                            at: header, reason: .duplicate(path: path, first: array.position))
        case let .value(value):
            throw TOMLError("\(written) is already \(value.describedType) (line \(value.position.line))",
                            at: header, reason: .duplicate(path: path, first: existing.keyPosition))
        }
    }

    /// `[[path]]`: one more table in the array of tables.
    private mutating func appendTable(to parent: TableNode, _ part: KeyPart, path: [String],
                                      written: String, header: TOMLPosition) throws(TOMLError) -> TableNode {
        let table = try makeTable(.header, named: part.name, at: header, in: parent)
        guard let existing = parent.entry(part.name) else {
            let array = TableArrayNode(position: header)
            array.elements.append(table)
            parent.add(part.name, at: part.position, .tableArray(array))
            return table
        }
        switch existing.slot {
        case let .tableArray(array):
            array.elements.append(table)
            return table
        case let .table(other):
            throw TOMLError("cannot make \(written) an array of tables: it is a table defined at line \(other.position.line)",
                            at: header, reason: .duplicate(path: path, first: other.position))
        case let .value(value):
            throw TOMLError("cannot make \(written) an array of tables: it is already \(value.describedType) (line \(value.position.line))",
                            at: header, reason: .duplicate(path: path, first: existing.keyPosition))
        }
    }
}
