extension String {
    /// The text with every character that could drive a terminal written out as an
    /// escape: `\x1b` for ESC, `\x0a` for a newline, `\u{9b}` for the C1 CSI, `\u{202e}`
    /// for a bidi override (``Unicode/Scalar/isUnsafeOnTerminal``). What touchgest prints to
    /// a terminal or a log from outside (device names, window titles and app ids, recording
    /// contents, commands from rule files, file names, a command's stderr) cannot move the
    /// cursor, recolour or retitle the terminal, reorder what a line shows, or forge a line
    /// of output. Other text is unchanged. The one place such text is escaped: the CLI's
    /// `emit`, `printError`, log handler and debug printer all use it.
    public var escapingControlCharacters: String {
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

extension Unicode.Scalar {
    /// Whether printing the scalar as it is could drive a terminal or forge what a line
    /// shows: the controls (C0, DEL and C1, Unicode's Cc), the bidi controls that reorder
    /// what follows them (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069) and
    /// the line and paragraph separators (U+2028, U+2029). Text from outside is printed
    /// with these escaped, and JSON lines write them as `\u` escapes.
    public var isUnsafeOnTerminal: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || properties.isBidiControl || value == 0x2028 || value == 0x2029
    }
}
