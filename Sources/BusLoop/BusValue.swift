import CDBus
import Glibc
import TextWire

/// One argument of a D-Bus message, as far as touchgest needs to read it (the session state:
/// logind's properties come as variants inside `a{sv}` dictionaries, its session as an
/// object path, the user's display session as a `(so)` structure.
public indirect enum BusValue: Hashable, Sendable {
    case string(String)
    case objectPath(String)
    case boolean(Bool)
    case integer(Int64)
    case double(Double)
    case array([BusValue])
    /// A structure or a dictionary entry: its members in order.
    case structure([BusValue])
    case variant(BusValue)
    /// A type the session state never reads (a descriptor, a signature).
    case other

    /// The value inside any variants.
    public var unwrapped: BusValue {
        if case let .variant(inner) = self { return inner.unwrapped }
        return self
    }

    public var boolean: Bool? {
        if case let .boolean(flag) = unwrapped { return flag }
        return nil
    }

    /// A string or an object path.
    public var text: String? {
        switch unwrapped {
        case let .string(text), let .objectPath(text): text
        default: nil
        }
    }

    /// An `a{sv}` (or any array of two-member entries keyed by strings) as a dictionary.
    public var properties: [String: BusValue] {
        guard case let .array(entries) = unwrapped else { return [:] }
        var result: [String: BusValue] = [:]
        for entry in entries {
            if case let .structure(members) = entry, members.count == 2, let key = members[0].text {
                result[key] = members[1].unwrapped
            }
        }
        return result
    }

    /// An integer or a double: GNOME Shell sends the numbers of an extension's state as
    /// doubles, other programs as integers.
    public var number: Double? {
        switch unwrapped {
        case let .integer(value): Double(value)
        case let .double(value): value
        default: nil
        }
    }

    /// The value as one line of text: a string as it is, integers (and doubles without a
    /// fraction) in digits, booleans as `true`/`false`, anything else as nothing.
    public var shown: String {
        switch unwrapped {
        case let .string(text), let .objectPath(text): text
        case let .integer(value): String(value)
        case let .double(value): shownNumber(value)
        case let .boolean(flag): flag ? "true" : "false"
        default: ""
        }
    }

    /// A string array (`as`).
    public var strings: [String] {
        guard case let .array(items) = unwrapped else { return [] }
        return items.compactMap(\.text)
    }

    /// How much of a message touchgest reads: a peer decides how big its messages are,
    /// and a decoded value costs far more memory than its bytes on the wire.
    public struct Bounds: Sendable, CustomStringConvertible {
        /// Values in all, containers and their members counted alike.
        public var values: Int
        /// Containers inside containers.
        public var depth: Int
        /// Bytes of one string or object path.
        public var stringBytes: Int

        public init(values: Int, depth: Int, stringBytes: Int) {
            self.values = values
            self.depth = depth
            self.stringBytes = stringBytes
        }

        public var description: String { "\(values) values, \(depth) levels deep, strings of \(stringBytes) bytes" }
    }

    /// Every argument of `message`, or nil when it holds more than `bounds` allow: then
    /// nothing more of it is read.
    public static func arguments(of message: OpaquePointer, within bounds: Bounds) -> [BusValue]? {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(message, &iterator) != 0 else { return [] }
        var reader = Reader(bounds: bounds)
        return reader.read(&iterator, depth: 0)
    }

    /// Reads values, counting them against the bounds.
    private struct Reader {
        let bounds: Bounds
        var count = 0

        init(bounds: Bounds) {
            self.bounds = bounds
        }

        /// The values from `iterator` to the end of its container; nil past the bounds.
        mutating func read(_ iterator: inout DBusMessageIter, depth: Int) -> [BusValue]? {
            guard depth <= bounds.depth else { return nil }
            var values: [BusValue] = []
            while dbus_message_iter_get_arg_type(&iterator) != 0 {
                count += 1
                guard count <= bounds.values, let value = value(&iterator, depth: depth) else { return nil }
                values.append(value)
                guard dbus_message_iter_next(&iterator) != 0 else { break }
            }
            return values
        }

        private mutating func value(_ iterator: inout DBusMessageIter, depth: Int) -> BusValue? {
            switch dbus_message_iter_get_arg_type(&iterator) {
            case Int32(CDBUS_TYPE_STRING), Int32(CDBUS_TYPE_OBJECT_PATH):
                var pointer: UnsafePointer<CChar>?
                dbus_message_iter_get_basic(&iterator, &pointer)
                guard let pointer, strnlen(pointer, bounds.stringBytes + 1) <= bounds.stringBytes else { return nil }
                let text = String(cString: pointer)
                return dbus_message_iter_get_arg_type(&iterator) == Int32(CDBUS_TYPE_STRING) ? .string(text) : .objectPath(text)
            case Int32(CDBUS_TYPE_ARRAY), Int32(CDBUS_TYPE_STRUCT), Int32(CDBUS_TYPE_DICT_ENTRY), Int32(CDBUS_TYPE_VARIANT):
                let type = dbus_message_iter_get_arg_type(&iterator)
                var sub = DBusMessageIter()
                dbus_message_iter_recurse(&iterator, &sub)
                guard let members = read(&sub, depth: depth + 1) else { return nil }
                switch type {
                case Int32(CDBUS_TYPE_ARRAY): return .array(members)
                case Int32(CDBUS_TYPE_VARIANT): return .variant(members.first ?? .other)
                default: return .structure(members)
                }
            default:
                return BusValue.basic(&iterator)
            }
        }
    }

    /// A value of a basic type other than a string (and anything unknown, as `.other`).
    private static func basic(_ iterator: inout DBusMessageIter) -> BusValue {
        func integer<T: FixedWidthInteger>(_: T.Type) -> Int64 {
            var value: T = 0
            dbus_message_iter_get_basic(&iterator, &value)
            return Int64(truncatingIfNeeded: value)
        }
        switch dbus_message_iter_get_arg_type(&iterator) {
        case Int32(CDBUS_TYPE_BOOLEAN):
            return .boolean(integer(UInt32.self) != 0)
        case Int32(CDBUS_TYPE_BYTE):
            return .integer(integer(UInt8.self))
        case Int32(CDBUS_TYPE_INT16):
            return .integer(integer(Int16.self))
        case Int32(CDBUS_TYPE_UINT16):
            return .integer(integer(UInt16.self))
        case Int32(CDBUS_TYPE_INT32):
            return .integer(integer(Int32.self))
        case Int32(CDBUS_TYPE_UINT32):
            return .integer(integer(UInt32.self))
        case Int32(CDBUS_TYPE_INT64):
            return .integer(integer(Int64.self))
        case Int32(CDBUS_TYPE_UINT64):
            return .integer(integer(UInt64.self))
        case Int32(CDBUS_TYPE_DOUBLE):
            var value: Double = 0
            dbus_message_iter_get_basic(&iterator, &value)
            return .double(value)
        case Int32(CDBUS_TYPE_UNIX_FD):
            // libdbus hands over a duplicate of the descriptor: close it, nothing here
            // wants one.
            let fd = Int32(truncatingIfNeeded: integer(Int32.self))
            if fd >= 0 { close(fd) }
            return .other
        default:
            return .other
        }
    }
}

/// An argument touchgest sends in a call.
public enum BusArgument: Sendable {
    case string(String)
    case uint32(UInt32)
    case int32(Int32)
    case boolean(Bool)
    case double(Double)
    /// `au`: an array of unsigned numbers.
    case uint32s([UInt32])
    /// `ad`: an array of doubles.
    case doubles([Double])

    public static func append(_ arguments: [BusArgument], to message: OpaquePointer) {
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        for argument in arguments {
            switch argument {
            case let .string(text):
                text.withCString { pointer in
                    var value: UnsafePointer<CChar>? = pointer
                    _ = dbus_message_iter_append_basic(&iterator, Int32(CDBUS_TYPE_STRING), &value)
                }
            case let .uint32(number):
                var value = number
                _ = dbus_message_iter_append_basic(&iterator, Int32(CDBUS_TYPE_UINT32), &value)
            case let .int32(number):
                var value = number
                _ = dbus_message_iter_append_basic(&iterator, Int32(CDBUS_TYPE_INT32), &value)
            case let .boolean(flag):
                var value: UInt32 = flag ? 1 : 0
                _ = dbus_message_iter_append_basic(&iterator, Int32(CDBUS_TYPE_BOOLEAN), &value)
            case let .double(number):
                var value = number
                _ = dbus_message_iter_append_basic(&iterator, Int32(CDBUS_TYPE_DOUBLE), &value)
            case let .uint32s(numbers):
                var array = DBusMessageIter()
                _ = dbus_message_iter_open_container(&iterator, Int32(CDBUS_TYPE_ARRAY), "u", &array)
                for number in numbers {
                    var value = number
                    _ = dbus_message_iter_append_basic(&array, Int32(CDBUS_TYPE_UINT32), &value)
                }
                _ = dbus_message_iter_close_container(&iterator, &array)
            case let .doubles(numbers):
                var array = DBusMessageIter()
                _ = dbus_message_iter_open_container(&iterator, Int32(CDBUS_TYPE_ARRAY), "d", &array)
                for number in numbers {
                    var value = number
                    _ = dbus_message_iter_append_basic(&array, Int32(CDBUS_TYPE_DOUBLE), &value)
                }
                _ = dbus_message_iter_close_container(&iterator, &array)
            }
        }
    }
}
