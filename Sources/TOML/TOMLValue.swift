/// A TOML value with the position where it starts.
public struct TOMLValue: Sendable {
    /// The decoded value.
    public enum Content: Sendable {
        /// Any of the four string forms, escapes decoded, line ends as LF.
        case string(String)
        /// TOML integers are 64-bit signed.
        case integer(Int64)
        /// Any IEEE 754 double, including infinities and NaN (`inf`, `nan`).
        case float(Double)
        /// `true` or `false`.
        case boolean(Bool)
        /// A date, time or date-time, validated and kept as written.
        case dateTime(TOMLDateTime)
        /// An inline array `[...]`, or the tables of `[[name]]` headers in order.
        case array([TOMLValue])
        /// A table from a header, dotted keys or `{...}`.
        case table(TOMLTable)
    }

    /// The decoded value.
    public var content: Content
    /// Where the value starts: its first character; for a table, see ``TOMLTable/position``.
    public var position: TOMLPosition

    /// A value that starts at `position`.
    public init(_ content: Content, at position: TOMLPosition) {
        self.content = content
        self.position = position
    }

    /// The string, or nil for any other type (so for the other accessors below).
    public var string: String? {
        if case let .string(value) = content { value } else { nil }
    }

    /// The integer; a float is not converted.
    public var integer: Int64? {
        if case let .integer(value) = content { value } else { nil }
    }

    /// The float; an integer is not converted.
    public var float: Double? {
        if case let .float(value) = content { value } else { nil }
    }

    /// The boolean.
    public var boolean: Bool? {
        if case let .boolean(value) = content { value } else { nil }
    }

    /// The date, time or date-time.
    public var dateTime: TOMLDateTime? {
        if case let .dateTime(value) = content { value } else { nil }
    }

    /// The elements of an inline array or of an array of tables.
    public var array: [TOMLValue]? {
        if case let .array(value) = content { value } else { nil }
    }

    /// The table, from a header, dotted keys or an inline table.
    public var table: TOMLTable? {
        if case let .table(value) = content { value } else { nil }
    }

    /// The type's name with its article, for messages: `an integer`, `a table`.
    public var describedType: String {
        let name = typeName
        return (["a", "e", "i", "o", "u"].contains(name.first.map(String.init) ?? "") ? "an " : "a ") + name
    }

    /// The TOML type's name, for messages: `string`, `integer`, `float`, `boolean`,
    /// `offset date-time`, `local date-time`, `local date`, `local time`, `array`, `table`.
    public var typeName: String {
        switch content {
        case .string: "string"
        case .integer: "integer"
        case .float: "float"
        case .boolean: "boolean"
        case let .dateTime(value): value.kind.rawValue
        case .array: "array"
        case .table: "table"
        }
    }
}

/// A date, time or date-time, validated and kept as written.
///
/// touchgest's rules use none; they are decoded so that valid files load and invalid
/// ones are rejected.
public struct TOMLDateTime: Hashable, Sendable {
    /// Which of TOML's four forms it is; the raw value names it for messages.
    public enum Kind: String, Sendable {
        case offsetDateTime = "offset date-time"
        case localDateTime = "local date-time"
        case localDate = "local date"
        case localTime = "local time"
    }

    /// Which form it is.
    public var kind: Kind
    /// The text as written, e.g. `1979-05-27 07:32:00Z`.
    public var text: String
}

/// One `key = value` of a table, or a sub-table, with the position of its key.
public struct TOMLEntry: Sendable {
    /// The key, unquoted and unescaped: the last part of a dotted key or header.
    public var key: String
    /// Where this part of the key is written (for `[a.b]`, the `b`).
    public var keyPosition: TOMLPosition
    /// The value; its own position says where the value starts.
    public var value: TOMLValue
}

/// A table: its entries in the order they were written, each with positions.
public struct TOMLTable: Sendable {
    /// How the table came to be, which decides what its ``position`` points at.
    public enum Origin: Hashable, Sendable {
        /// The document itself; position 1:1.
        case root
        /// A `[header]` or `[[header]]`; position: its opening bracket.
        case header
        /// Named only as a prefix of a header (`a` in `[a.b]`); position: that name.
        case implicit
        /// Made by a dotted key (`a` in `a.b = 1`); position: that part of the key.
        case dotted
        /// An inline table `{...}`; position: its opening brace.
        case inline
    }

    /// How the table came to be.
    public var origin: Origin
    /// Where it was defined; see ``Origin``.
    public var position: TOMLPosition
    /// The entries in the order they were written.
    public private(set) var entries: [TOMLEntry]
    private var indexByKey: [String: Int]

    init(origin: Origin, position: TOMLPosition, entries: [TOMLEntry]) {
        self.origin = origin
        self.position = position
        self.entries = entries
        var index: [String: Int] = [:]
        for (offset, entry) in entries.enumerated() { index[entry.key] = offset }
        indexByKey = index
    }

    /// The keys in written order.
    public var keys: [String] { entries.map(\.key) }

    /// The entry for `key`, with its position.
    public func entry(_ key: String) -> TOMLEntry? {
        indexByKey[key].map { entries[$0] }
    }

    /// The value of `key`, if the table has it.
    public subscript(key: String) -> TOMLValue? {
        entry(key)?.value
    }
}
