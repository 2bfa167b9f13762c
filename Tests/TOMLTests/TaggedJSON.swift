import TOML

/// toml-test's tagged JSON: tables are objects, arrays are arrays, every other value is
/// `{"type": "integer", "value": "1"}`.
indirect enum TaggedJSON: CustomStringConvertible {
    case object([String: TaggedJSON])
    case array([TaggedJSON])
    case tagged(type: String, value: String)

    /// The decoder side: a parsed table in toml-test's form.
    init(_ table: TOMLTable) {
        var object: [String: TaggedJSON] = [:]
        for entry in table.entries { object[entry.key] = TaggedJSON(entry.value) }
        self = .object(object)
    }

    init(_ value: TOMLValue) {
        switch value.content {
        case let .string(text): self = .tagged(type: "string", value: text)
        case let .integer(number): self = .tagged(type: "integer", value: String(number))
        case let .float(number):
            self = .tagged(type: "float", value: number.isNaN ? "nan" : number.isInfinite ? (number < 0 ? "-inf" : "inf") : "\(number)")
        case let .boolean(flag): self = .tagged(type: "bool", value: String(flag))
        case let .dateTime(dateTime):
            let type = switch dateTime.kind {
            case .offsetDateTime: "datetime"
            case .localDateTime: "datetime-local"
            case .localDate: "date-local"
            case .localTime: "time-local"
            }
            self = .tagged(type: type, value: dateTime.text)
        case let .array(elements): self = .array(elements.map(TaggedJSON.init))
        case let .table(table): self = TaggedJSON(table)
        }
    }

    var description: String {
        switch self {
        case let .object(object): "{" + object.keys.sorted().map { "\($0): \(object[$0]!)" }.joined(separator: ", ") + "}"
        case let .array(array): "[" + array.map(\.description).joined(separator: ", ") + "]"
        case let .tagged(type, value): "\(type) \(value)"
        }
    }

    /// The first difference from `expected`, compared as toml-test does: numbers and
    /// date-times by value, not by spelling; nil when they agree.
    func difference(from expected: TaggedJSON, at path: String = "") -> String? {
        switch (self, expected) {
        case let (.object(mine), .object(theirs)):
            if Set(mine.keys) != Set(theirs.keys) {
                return "\(path): keys \(mine.keys.sorted()) != expected \(theirs.keys.sorted())"
            }
            for key in theirs.keys.sorted() {
                if let difference = mine[key]!.difference(from: theirs[key]!, at: "\(path).\(key)") { return difference }
            }
            return nil
        case let (.array(mine), .array(theirs)):
            guard mine.count == theirs.count else { return "\(path): \(mine.count) elements != expected \(theirs.count)" }
            for (index, (a, b)) in zip(mine, theirs).enumerated() {
                if let difference = a.difference(from: b, at: "\(path)[\(index)]") { return difference }
            }
            return nil
        case let (.tagged(type, value), .tagged(expectedType, expectedValue)):
            guard type == expectedType, Self.sameValue(type, value, expectedValue) else {
                return "\(path): \(type) \(value) != expected \(expectedType) \(expectedValue)"
            }
            return nil
        default:
            return "\(path): \(self) != expected \(expected)"
        }
    }

    private static func sameValue(_ type: String, _ a: String, _ b: String) -> Bool {
        switch type {
        case "integer": return Int64(a) != nil && Int64(a) == Int64(b)
        case "float":
            guard let x = Double(a), let y = Double(b) else { return false }
            return x == y || (x.isNaN && y.isNaN)
        case "datetime", "datetime-local", "date-local", "time-local":
            return normalizedDateTime(a) == normalizedDateTime(b)
        default: return a == b
        }
    }

    /// `1987-07-05 17:45:56.600z` -> `1987-07-05T17:45:56.6Z`; a zero offset is `Z`.
    private static func normalizedDateTime(_ text: String) -> String {
        var characters = Array(text.uppercased())
        if characters.count > 10 && characters[10] == " " { characters[10] = "T" }
        var result = String(characters)
        for zero in ["+00:00", "-00:00"] where result.hasSuffix(zero) { result = String(result.dropLast(6)) + "Z" }
        if let dot = result.firstIndex(of: ".") {
            let digitsEnd = result[result.index(after: dot)...].firstIndex { !$0.isNumber } ?? result.endIndex
            var digits = result[result.index(after: dot)..<digitsEnd]
            while digits.hasSuffix("0") { digits = digits.dropLast() }
            result = String(result[..<dot]) + (digits.isEmpty ? "" : "." + digits) + result[digitsEnd...]
        }
        return result
    }
}

/// Reads the JSON toml-test writes: objects, arrays and strings only.
struct JSONReader {
    private let bytes: [UInt8]
    private var index = 0

    struct Failure: Error { var message: String }

    static func parse(_ bytes: [UInt8]) throws -> TaggedJSON {
        var reader = JSONReader(bytes: bytes)
        let value = try reader.value()
        reader.skipSpace()
        guard reader.index == bytes.count else { throw Failure(message: "text after the JSON value at \(reader.index)") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func skipSpace() {
        while index < bytes.count && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func expect(_ byte: UInt8) throws {
        skipSpace()
        guard index < bytes.count && bytes[index] == byte else {
            throw Failure(message: "expected '\(Character(Unicode.Scalar(byte)))' at \(index)")
        }
        index += 1
    }

    private mutating func value() throws -> TaggedJSON {
        skipSpace()
        guard index < bytes.count else { throw Failure(message: "unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var object: [String: TaggedJSON] = [:]
            skipSpace()
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
            while true {
                skipSpace()
                let key = try string()
                try expect(UInt8(ascii: ":"))
                object[key] = try value()
                skipSpace()
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                try expect(UInt8(ascii: "}"))
                break
            }
            if case let .string(type)? = object["type"].map(Self.plain), case let .string(value)? = object["value"].map(Self.plain),
               object.count == 2 {
                return .tagged(type: type, value: value)
            }
            return .object(object)
        case UInt8(ascii: "["):
            index += 1
            var array: [TaggedJSON] = []
            skipSpace()
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(array) }
            while true {
                array.append(try value())
                skipSpace()
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                try expect(UInt8(ascii: "]"))
                return .array(array)
            }
        case UInt8(ascii: "\""):
            return .tagged(type: "json-string", value: try string())
        default:
            throw Failure(message: "unexpected byte at \(index)")
        }
    }

    private enum Plain { case string(String), other }

    private static func plain(_ value: TaggedJSON) -> Plain {
        if case let .tagged("json-string", text) = value { return .string(text) }
        return .other
    }

    private mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""))
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
            raw.removeAll()
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") {
                flush()
                return String(scalars)
            }
            guard byte == UInt8(ascii: "\\") else { raw.append(byte); continue }
            flush()
            let letter = bytes[index]
            index += 1
            switch letter {
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "u"):
                var value = try hex4()
                if (0xD800...0xDBFF).contains(value), bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    index += 2
                    let low = try hex4()
                    value = 0x10000 + (value - 0xD800) << 10 + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(value) else { throw Failure(message: "bad \\u escape") }
                scalars.append(scalar)
            default: scalars.append(Unicode.Scalar(letter))
            }
        }
        throw Failure(message: "unterminated string")
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
            throw Failure(message: "bad \\u escape")
        }
        index += 4
        return value
    }
}
