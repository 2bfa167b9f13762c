/// A cursor over the document's UTF-8 bytes that knows its line and column.
///
/// Lines end at LF or CRLF; a lone CR is an error. Columns count characters from the
/// line's start, so a CRLF ending or a leading byte-order mark never shifts them.
struct TOMLScanner {
    let bytes: [UInt8]
    private(set) var index: Int
    private(set) var line = 1
    private(set) var lineStart: Int
    /// The last column worked out on this line, so columns cost O(line) in total.
    private var cachedOffset: Int
    private var cachedColumn = 1

    init(bytes: [UInt8]) {
        self.bytes = bytes
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        index = bytes.starts(with: bom) ? 3 : 0
        lineStart = index
        cachedOffset = index
    }

    var isAtEnd: Bool { index >= bytes.count }

    func peek(_ ahead: Int = 0) -> UInt8? {
        let at = index + ahead
        return at < bytes.count ? bytes[at] : nil
    }

    func peek(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return text.withUTF8Buffer { pattern in
            pattern.indices.allSatisfy { bytes[index + $0] == pattern[$0] }
        }
    }

    /// Moves over bytes that are not line ends.
    mutating func advance(_ count: Int = 1) {
        index = min(index + count, bytes.count)
    }

    mutating func advance(while predicate: (UInt8) -> Bool) {
        while index < bytes.count && predicate(bytes[index]) { index += 1 }
    }

    mutating func skipWhitespace() {
        advance { $0 == 0x20 || $0 == 0x09 }
    }

    /// Whether a line end (LF or CRLF) starts here.
    var atNewline: Bool {
        peek() == 0x0A || (peek() == 0x0D && peek(1) == 0x0A)
    }

    /// Consumes an LF or CRLF; false (and nothing consumed) when none is here.
    mutating func consumeNewline() -> Bool {
        if peek() == 0x0A {
            index += 1
        } else if peek() == 0x0D && peek(1) == 0x0A {
            index += 2
        } else {
            return false
        }
        line += 1
        lineStart = index
        cachedOffset = index
        cachedColumn = 1
        return true
    }

    /// The position of the current byte.
    mutating func position() -> TOMLPosition {
        position(at: index)
    }

    /// The position of `offset`, a byte on the current line.
    mutating func position(at offset: Int) -> TOMLPosition {
        let offset = max(lineStart, min(offset, bytes.count))
        if offset < cachedOffset {
            cachedOffset = lineStart
            cachedColumn = 1
        }
        cachedColumn += Self.characterCount(bytes[cachedOffset..<offset])
        cachedOffset = offset
        return TOMLPosition(line: line, column: cachedColumn)
    }

    static func characterCount(_ slice: ArraySlice<UInt8>) -> Int {
        if slice.allSatisfy({ $0 < 0x80 }) { return slice.count }
        return String(decoding: slice, as: UTF8.self).count
    }

    func error(_ message: String, at position: TOMLPosition) -> TOMLError {
        TOMLError(message, at: position)
    }

    /// What is at the cursor, for messages: `'x'`, `the end of the line`, ...
    func describeNext() -> String {
        guard let byte = peek() else { return "the end of the file" }
        if atNewline { return "the end of the line" }
        if byte < 0x20 || byte == 0x7F { return "control character \(Self.unicodeName(UInt32(byte)))" }
        let end = min(index + 4, bytes.count)
        let character = String(decoding: bytes[index..<end], as: UTF8.self).unicodeScalars.first.map(Character.init) ?? "?"
        return "'\(character)'"
    }

    /// `U+000D`.
    static func unicodeName(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Whether `byte` is a control character TOML forbids unescaped (all but tab).
    static func isForbiddenControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09) || byte == 0x7F
    }

    /// The first byte that is not UTF-8, if any, with its line and column.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> (offset: Int, position: TOMLPosition)? {
        var index = 0
        var line = 1
        var lineStart = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length = sequenceLength(bytes, at: index)
            if length == 0 {
                let column = characterCount(bytes[lineStart..<index]) + 1
                return (index, TOMLPosition(line: line, column: column))
            }
            if byte == 0x0A {
                line += 1
                lineStart = index + 1
            }
            index += length
        }
        return nil
    }

    /// The length of the well-formed UTF-8 sequence at `index`, or 0 (RFC 3629 table 3-7).
    private static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let first = bytes[index]
        let (length, secondRange): (Int, ClosedRange<UInt8>)
        switch first {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: (length, secondRange) = (2, 0x80...0xBF)
        case 0xE0: (length, secondRange) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, secondRange) = (3, 0x80...0xBF)
        case 0xED: (length, secondRange) = (3, 0x80...0x9F)
        case 0xF0: (length, secondRange) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, secondRange) = (4, 0x80...0xBF)
        case 0xF4: (length, secondRange) = (4, 0x80...0x8F)
        default: return 0
        }
        guard index + length <= bytes.count, secondRange.contains(bytes[index + 1]) else { return 0 }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) { return 0 }
        return length
    }
}
