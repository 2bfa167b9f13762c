/// A problem found in a rule file, compiler-style: `rules.toml:12:11: error: ...`.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Hashable, Sendable {
        case error, warning
    }

    public var file: String
    /// 1-based line and column; 0 when the problem is the file as a whole.
    public var line: Int
    public var column: Int
    public var severity: Severity
    public var message: String

    public var description: String {
        let place = line > 0 ? "\(file):\(line):\(column)" : file
        return "\(place): \(severity.rawValue): \(message)"
    }
}

/// The diagnostics of a whole file, errors first kept in file order.
public struct RuleFileError: Error, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
