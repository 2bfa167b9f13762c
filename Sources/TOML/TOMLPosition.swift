/// A place in a TOML document: 1-based line and column.
///
/// Columns count characters (grapheme clusters) of the line as an editor shows them;
/// a leading byte-order mark and the carriage return of a CRLF line end are not counted.
public struct TOMLPosition: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// 1-based line.
    public var line: Int
    /// 1-based column, in characters.
    public var column: Int

    /// A position; both are 1-based.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// Earlier in the document.
    public static func < (a: TOMLPosition, b: TOMLPosition) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}

/// Why a document is not valid TOML 1.0: where, and what is wrong there.
///
/// Every problem of the input is one of these; the parser never traps on input.
public struct TOMLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem, for callers that phrase some of them their own way.
    public enum Reason: Hashable, Sendable {
        /// The text breaks TOML's grammar or one of the parser's limits.
        case syntax
        /// A table header, or a key, defines something defined before.
        /// `path` is the full dotted path, `first` where it was first defined.
        case duplicate(path: [String], first: TOMLPosition)
    }

    /// Where the problem is.
    public var position: TOMLPosition
    /// Lowercase, names the bad text, says what was expected.
    public var message: String
    /// What kind of problem.
    public var reason: Reason

    /// An error at `position`.
    public init(_ message: String, at position: TOMLPosition, reason: Reason = .syntax) {
        self.message = message
        self.position = position
        self.reason = reason
    }

    /// `line:column: message`.
    public var description: String { "\(position): \(message)" }
}
