import TouchGestures

/// A JSON object written one key at a time, in order, into one string: every JSON line
/// touchgest writes (stream and events lines, `debug --json`, `replay --json`).
public struct JSONLine: Sendable {
    private var body = "{"

    /// An object whose first key is `event`.
    public init(_ event: String) {
        add("event", event)
    }

    /// An object with no key yet (a stream line, or one to nest in another line).
    public init() {}

    private mutating func key(_ key: String) {
        if body.utf8.count > 1 { body += "," }
        appendJSONString(key, to: &body)
        body += ":"
    }

    /// `"key":[{...},...]`.
    public mutating func add(_ key: String, objects: [JSONLine]) {
        self.key(key)
        body += "[" + objects.map(\.text).joined(separator: ",") + "]"
    }

    /// `"key":"value"`, the value escaped by ``appendJSONString(_:to:)``.
    public mutating func add(_ key: String, _ value: String) {
        self.key(key)
        appendJSONString(value, to: &body)
    }

    /// `"key":"value"`, or `null` for nil.
    public mutating func add(_ key: String, _ value: String?) {
        guard let value else { return addNull(key) }
        add(key, value)
    }

    /// `"key":12.5` as Swift writes the Double (`12.0`, `1e-05`); `null` when not finite.
    public mutating func add(_ key: String, _ value: Double) {
        self.key(key)
        body += value.isFinite ? String(value) : "null"
    }

    /// `"key":12.5` with at most `decimals` decimals and no trailing zeros
    /// (``jsonNumber(_:decimals:)``), `null` for nil or a value that is not finite.
    public mutating func add(_ key: String, rounded value: Double?, decimals: Int = 3) {
        self.key(key)
        body += jsonNumber(value, decimals: decimals)
    }

    public mutating func add(_ key: String, _ value: Int) {
        self.key(key)
        body += String(value)
    }

    public mutating func add(_ key: String, _ value: UInt64) {
        self.key(key)
        body += String(value)
    }

    public mutating func add(_ key: String, _ values: [String]) {
        self.key(key)
        body += "[" + values.map(Self.quote).joined(separator: ",") + "]"
    }

    public mutating func add(_ key: String, _ value: Bool) {
        self.key(key)
        body += value ? "true" : "false"
    }

    /// `"key":null`.
    public mutating func addNull(_ key: String) {
        self.key(key)
        body += "null"
    }

    /// The object, without a newline.
    public var text: String { body + "}" }

    /// `text` as a JSON string, quotes included.
    public static func quote(_ text: String) -> String {
        var result = ""
        appendJSONString(text, to: &result)
        return result
    }
}

/// `value` with at most `decimals` decimals and no trailing zeros (`12.5`, `-0.004`, `3`),
/// `-0` written `0`; `null` for nil or a value that is not finite (JSON has no NaN).
public func jsonNumber(_ value: Double?, decimals: Int = 3) -> String {
    guard let value, value.isFinite else { return "null" }
    var text = fixedDecimals(value, decimals)
    if text.contains(".") {
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
    }
    return text == "-0" ? "0" : text
}

/// Appends `text` as a JSON string: quotes, backslashes and every control character
/// (C0, DEL and C1) and bidi control escaped (``Unicode/Scalar/isUnsafeOnTerminal``), so a
/// terminal that shows the line cannot be steered. The one escaper of every JSON line
/// touchgest writes: streams, `debug --json`, `replay --json`.
public func appendJSONString(_ text: String, to line: inout String) {
    line += "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": line += "\\\""
        case "\\": line += "\\\\"
        case "\n": line += "\\n"
        case "\r": line += "\\r"
        case "\t": line += "\\t"
        case _ where scalar.isUnsafeOnTerminal:
            let hex = String(scalar.value, radix: 16)
            line += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: line.unicodeScalars.append(scalar)
        }
    }
    line += "\""
}
