import CDBus
import Glibc

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

    /// A string array (`as`).
    public var strings: [String] {
        guard case let .array(items) = unwrapped else { return [] }
        return items.compactMap(\.text)
    }

    /// Every argument of `message`.
    public static func arguments(of message: OpaquePointer) -> [BusValue] {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(message, &iterator) != 0 else { return [] }
        return read(&iterator)
    }

    /// The values from `iterator` to the end of its container.
    private static func read(_ iterator: inout DBusMessageIter) -> [BusValue] {
        var values: [BusValue] = []
        while dbus_message_iter_get_arg_type(&iterator) != 0 {
            values.append(value(&iterator))
            guard dbus_message_iter_next(&iterator) != 0 else { break }
        }
        return values
    }

    private static func value(_ iterator: inout DBusMessageIter) -> BusValue {
        func integer<T: FixedWidthInteger>(_: T.Type) -> Int64 {
            var value: T = 0
            dbus_message_iter_get_basic(&iterator, &value)
            return Int64(truncatingIfNeeded: value)
        }
        func text() -> String {
            var value: UnsafePointer<CChar>?
            dbus_message_iter_get_basic(&iterator, &value)
            return value.map { String(cString: $0) } ?? ""
        }
        func inner() -> [BusValue] {
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &sub)
            return read(&sub)
        }
        switch dbus_message_iter_get_arg_type(&iterator) {
        case Int32(CDBUS_TYPE_STRING):
            return .string(text())
        case Int32(CDBUS_TYPE_OBJECT_PATH):
            return .objectPath(text())
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
        case Int32(CDBUS_TYPE_ARRAY):
            return .array(inner())
        case Int32(CDBUS_TYPE_STRUCT), Int32(CDBUS_TYPE_DICT_ENTRY):
            return .structure(inner())
        case Int32(CDBUS_TYPE_VARIANT):
            return .variant(inner().first ?? .other)
        default:
            return .other
        }
    }
}

/// An argument touchgest sends in a call.
public enum BusArgument: Sendable {
    case string(String)
    case uint32(UInt32)

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
            }
        }
    }
}
