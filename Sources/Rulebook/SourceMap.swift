/// Where each table and key of a TOML file is, by line and column.
///
/// TOMLKit parses TOML faithfully but keeps no positions, so this scanner reads the
/// same text line by line to find where `[table]` headers and `key =` lines start. It
/// understands comments, quoted keys, multi-line strings and multi-line arrays, enough
/// to place every key; TOMLKit remains the judge of whether the file is valid TOML.
struct SourceMap {
    struct Position: Hashable {
        var line: Int
        var column: Int
    }

    struct Entry {
        var key: Position
        var value: Position
    }

    /// Header position of each table, by dotted path (`rule.zoom`).
    private(set) var tables: [String: Position] = [:]
    /// Tables in the order their headers appear.
    private(set) var tableOrder: [String] = []
    /// Headers that appear twice: the path and both positions.
    private(set) var duplicateTables: [(path: String, first: Position, again: Position)] = []
    private var keys: [String: Entry] = [:]

    init(text: String) {
        var table = ""
        var openString: Substring?
        var arrayDepth = 0
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            if let delimiter = openString {
                if line.contains(delimiter) { openString = nil }
                continue
            }
            if arrayDepth > 0 {
                arrayDepth += Self.bracketBalance(line)
                continue
            }
            let indent = line.prefix { $0 == " " || $0 == "\t" }.count
            let body = line.dropFirst(indent)
            if body.isEmpty || body.hasPrefix("#") { continue }
            if body.hasPrefix("[") {
                let isArray = body.hasPrefix("[[")
                let inner = body.dropFirst(isArray ? 2 : 1).prefix { $0 != "]" }
                table = Self.normalizePath(inner)
                let position = Position(line: lineNumber, column: indent + 1)
                if let first = tables[table], !isArray {
                    duplicateTables.append((table, first, position))
                } else if tables[table] == nil {
                    tables[table] = position
                    tableOrder.append(table)
                }
                continue
            }
            guard let equals = Self.indexOfEquals(body) else { continue }
            let key = Self.normalizePath(body[..<equals])
            let afterEquals = body[body.index(after: equals)...]
            let valueIndent = afterEquals.prefix { $0 == " " || $0 == "\t" }.count
            let value = afterEquals.dropFirst(valueIndent)
            let valueColumn = indent + body.distance(from: body.startIndex, to: equals) + 2 + valueIndent
            let path = table.isEmpty ? key : "\(table).\(key)"
            keys[path] = Entry(key: Position(line: lineNumber, column: indent + 1),
                               value: Position(line: lineNumber, column: valueColumn))
            for delimiter in ["\"\"\"", "'''"] where value.hasPrefix(delimiter) {
                if !value.dropFirst(3).contains(delimiter) { openString = Substring(delimiter) }
            }
            if value.hasPrefix("[") { arrayDepth = Self.bracketBalance(value) }
        }
    }

    /// The position of `key` in table `table` (its name, or its value).
    func position(table: String, key: String, value: Bool = false) -> Position? {
        let entry = keys[table.isEmpty ? key : "\(table).\(key)"]
        return value ? entry?.value : entry?.key
    }

    func position(table: String) -> Position? { tables[table] }

    private static func indexOfEquals(_ text: Substring) -> Substring.Index? {
        var quote: Character?
        for index in text.indices {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "=" {
                return index
            } else if character == "#" {
                return nil
            }
        }
        return nil
    }

    /// `rule . "my zoom"` -> `rule.my zoom`.
    private static func normalizePath(_ text: Substring) -> String {
        var parts: [String] = []
        var current = ""
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "." {
                parts.append(current)
                current = ""
            } else if character != " " && character != "\t" {
                current.append(character)
            }
        }
        parts.append(current)
        return parts.joined(separator: ".")
    }

    /// Opening minus closing brackets outside strings and comments.
    private static func bracketBalance(_ text: Substring) -> Int {
        var balance = 0
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "#" {
                break
            } else if character == "[" {
                balance += 1
            } else if character == "]" {
                balance -= 1
            }
        }
        return balance
    }
}
