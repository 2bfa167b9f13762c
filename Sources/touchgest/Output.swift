import Glibc

/// Writes a line to standard output at once (no buffering: a pipe reader, such as the
/// test rig or journald, sees every line as it happens).
func emit(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(1, bytes.baseAddress! + offset, bytes.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}

/// A JSON object written one key at a time, in order, without Foundation.
struct JSONLine {
    private var fields: [String] = []

    init(_ event: String) {
        add("event", event)
    }

    mutating func add(_ key: String, _ value: String) {
        fields.append("\(Self.quote(key)):\(Self.quote(value))")
    }

    mutating func add(_ key: String, _ value: Double) {
        fields.append("\(Self.quote(key)):\(value.isFinite ? String(value) : "null")")
    }

    mutating func add(_ key: String, _ value: Int) {
        fields.append("\(Self.quote(key)):\(value)")
    }

    mutating func add(_ key: String, _ values: [String]) {
        fields.append("\(Self.quote(key)):[" + values.map(Self.quote).joined(separator: ",") + "]")
    }

    mutating func add(_ key: String, _ value: Bool) {
        fields.append("\(Self.quote(key)):\(value)")
    }

    var text: String { "{" + fields.joined(separator: ",") + "}" }

    static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
