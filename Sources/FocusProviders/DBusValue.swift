import CDBus

/// A value read from a D-Bus message: the basic types, with arrays, structs and
/// dictionaries as containers and variants unwrapped to what they hold.
public enum DBusValue: Hashable, Sendable {
    /// A string, object path or signature.
    case string(String)
    /// Any integer or double: GNOME Shell sends the numbers of an extension's state as
    /// doubles, other programs as integers.
    case number(Double)
    case boolean(Bool)
    /// An array of anything but dictionary entries, or a struct.
    case array([DBusValue])
    /// An array of dictionary entries (`a{sv}`), keys as text.
    case dictionary([String: DBusValue])
    /// A type touchgest does not read (a file descriptor).
    case unreadable

    /// The value as one line of text: integers without a fraction, booleans as
    /// `true`/`false`, containers as nothing.
    public var text: String {
        switch self {
        case let .string(text): text
        case let .number(value): value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case let .boolean(value): value ? "true" : "false"
        case .array, .dictionary, .unreadable: ""
        }
    }

    /// A dictionary's value for `key`.
    public subscript(key: String) -> DBusValue? {
        if case let .dictionary(entries) = self { return entries[key] }
        return nil
    }

    /// The number, if this is one.
    public var number: Double? {
        if case let .number(value) = self { return value }
        return nil
    }

    /// The strings of an array of strings (`as`), else empty.
    public var strings: [String] {
        if case let .array(values) = self {
            return values.compactMap { if case let .string(text) = $0 { text } else { nil } }
        }
        return []
    }

    /// Every argument of `message`.
    static func arguments(of message: OpaquePointer) -> [DBusValue] {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(message, &iterator) != 0 else { return [] }
        return values(&iterator)
    }

    /// The values from `iterator` to the end of its container.
    private static func values(_ iterator: inout DBusMessageIter) -> [DBusValue] {
        var result: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iterator) != Int32(CDBUS_TYPE_INVALID) {
            result.append(value(&iterator))
            guard dbus_message_iter_next(&iterator) != 0 else { break }
        }
        return result
    }

    private static func value(_ iterator: inout DBusMessageIter) -> DBusValue {
        func basic<T: BitwiseCopyable>(_ zero: T) -> T {
            var value = zero
            dbus_message_iter_get_basic(&iterator, &value)
            return value
        }
        switch dbus_message_iter_get_arg_type(&iterator) {
        case Int32(CDBUS_TYPE_STRING), Int32(CDBUS_TYPE_OBJECT_PATH), Int32(CDBUS_TYPE_SIGNATURE):
            let pointer: UnsafePointer<CChar>? = basic(nil)
            return .string(pointer.map { String(cString: $0) } ?? "")
        case Int32(CDBUS_TYPE_BOOLEAN): return .boolean(basic(UInt32(0)) != 0)
        case Int32(CDBUS_TYPE_BYTE): return .number(Double(basic(UInt8(0))))
        case Int32(CDBUS_TYPE_INT16): return .number(Double(basic(Int16(0))))
        case Int32(CDBUS_TYPE_UINT16): return .number(Double(basic(UInt16(0))))
        case Int32(CDBUS_TYPE_INT32): return .number(Double(basic(Int32(0))))
        case Int32(CDBUS_TYPE_UINT32): return .number(Double(basic(UInt32(0))))
        case Int32(CDBUS_TYPE_INT64): return .number(Double(basic(Int64(0))))
        case Int32(CDBUS_TYPE_UINT64): return .number(Double(basic(UInt64(0))))
        case Int32(CDBUS_TYPE_DOUBLE): return .number(basic(Double(0)))
        case Int32(CDBUS_TYPE_VARIANT):
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return values(&inner).first ?? .unreadable
        case Int32(CDBUS_TYPE_STRUCT), Int32(CDBUS_TYPE_DICT_ENTRY):
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return .array(values(&inner))
        case Int32(CDBUS_TYPE_ARRAY):
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            if dbus_message_iter_get_element_type(&iterator) == Int32(CDBUS_TYPE_DICT_ENTRY) {
                var entries: [String: DBusValue] = [:]
                for case let .array(pair) in values(&inner) where pair.count == 2 {
                    entries[pair[0].text] = pair[1]
                }
                return .dictionary(entries)
            }
            return .array(values(&inner))
        default:
            return .unreadable
        }
    }
}
