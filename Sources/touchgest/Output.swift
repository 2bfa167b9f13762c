import Glibc
import Rulebook

/// Writes one line to standard output at once (no buffering: a pipe reader, such as the
/// test rig or journald, sees every line as it happens). Control characters in `text`,
/// a newline too, are escaped: see `escapingControlCharacters`.
func emit(_ text: String) {
    writeLine(1, text.escapingControlCharacters)
}

/// Writes one line to standard error, its control characters escaped as `emit` does.
func printError(_ text: String) {
    writeLine(2, text.escapingControlCharacters)
}

/// Writes `line` and a newline to `descriptor` as it is: the caller has escaped every
/// string from outside in it (DebugPrinter adds colours of its own this way).
func writeLine(_ descriptor: Int32, _ line: String) {
    var line = line + "\n"
    line.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}

extension String {
    /// The text with every character that could drive a terminal written out as an
    /// escape: `\x1b` for ESC, `\x0a` for a newline, `\u{9b}` for the C1 CSI, `\u{202e}`
    /// for a bidi override (``Unicode/Scalar/isUnsafeOnTerminal``). What touchgest prints to
    /// a terminal or a log from outside (device names, window titles and app ids, recording
    /// contents, commands from rule files, file names, a command's stderr) cannot move the
    /// cursor, recolour or retitle the terminal, reorder what a line shows, or forge a line
    /// of output. Other text is unchanged. The one place such text is escaped: `emit`,
    /// `printError`, the log handler and the debug printer all use it.
    var escapingControlCharacters: String {
        // Fast path: no byte below 0x20, no DEL, no 0xC2 (the lead byte of every C1), no
        // 0xD8 (U+061C) and no 0xE2 (the other bidi controls and separators).
        guard utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 }) else { return self }
        var result = ""
        for scalar in unicodeScalars {
            if scalar.isUnsafeOnTerminal {
                let hex = String(scalar.value, radix: 16)
                let padded = hex.count < 2 ? "0" + hex : hex
                result += scalar.value < 0x80 ? "\\x\(padded)" : "\\u{\(padded)}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// A JSON object written one key at a time, in order, without Foundation.
struct JSONLine {
    private var fields: [String] = []

    init(_ event: String) {
        add("event", event)
    }

    /// An object with no `event` key, to nest in another line.
    init() {}

    mutating func add(_ key: String, objects: [JSONLine]) {
        fields.append("\(Self.quote(key)):[" + objects.map(\.text).joined(separator: ",") + "]")
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
        var result = ""
        appendJSONString(text, to: &result)
        return result
    }
}
