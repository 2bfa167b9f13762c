import CDBus

/// A blocking session-bus client for one-shot questions (`touchgest doctor`); the daemon's
/// provider never blocks (``DBusFocusProvider``).
public final class DBusClient {
    private let bus: OpaquePointer
    /// The bus address it connected to.
    public let address: String

    /// Connects to the session bus at `address` (`DBUS_SESSION_BUS_ADDRESS`); throws the
    /// reason it could not.
    public init(address: String) throws(DBusCallError) {
        self.address = address
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let bus = dbus_connection_open_private(address, &error) else { throw DBusCallError(error) }
        dbus_connection_set_exit_on_disconnect(bus, 0)
        guard dbus_bus_register(bus, &error) != 0 else {
            dbus_connection_close(bus)
            dbus_connection_unref(bus)
            throw DBusCallError(error)
        }
        self.bus = bus
    }

    deinit {
        dbus_connection_close(bus)
        dbus_connection_unref(bus)
    }

    /// Calls `method` with string arguments and waits up to `timeout` milliseconds for
    /// its answer: the reply's arguments, or the error the bus or the peer gave.
    public func call(_ destination: String, _ path: String, _ interface: String, _ method: String,
                     _ arguments: [String] = [], timeout: Int32 = 3_000) -> Result<[DBusValue], DBusCallError> {
        guard let message = dbus_message_new_method_call(destination, path, interface, method) else {
            return .failure(DBusCallError(name: "org.freedesktop.DBus.Error.NoMemory", message: "cannot make a message"))
        }
        defer { dbus_message_unref(message) }
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        for argument in arguments {
            argument.withCString { pointer in
                var value: UnsafePointer<CChar>? = pointer
                _ = dbus_message_iter_append_basic(&iterator, Int32(CDBUS_TYPE_STRING), &value)
            }
        }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let reply = dbus_connection_send_with_reply_and_block(bus, message, timeout, &error) else {
            return .failure(DBusCallError(error))
        }
        defer { dbus_message_unref(reply) }
        return .success(DBusValue.arguments(of: reply))
    }

    /// Sends a method call and does not wait for its answer (it is asked for none): for a
    /// measurement that times what follows the call, not its reply. Strings are sent as
    /// `s`, numbers as `i` (int32), booleans as `b`.
    public func send(_ destination: String, _ path: String, _ interface: String, _ method: String, _ arguments: [DBusValue]) {
        guard let message = dbus_message_new_method_call(destination, path, interface, method) else { return }
        defer { dbus_message_unref(message) }
        dbus_message_set_no_reply(message, 1)
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        for argument in arguments {
            switch argument {
            case let .string(text):
                text.withCString { pointer in
                    var value: UnsafePointer<CChar>? = pointer
                    _ = dbus_message_iter_append_basic(&iterator, Int32(CDBUS_TYPE_STRING), &value)
                }
            case let .number(number):
                var value = Int32(number)
                _ = dbus_message_iter_append_basic(&iterator, Int32(CDBUS_TYPE_INT32), &value)
            case let .boolean(flag):
                var value: UInt32 = flag ? 1 : 0
                _ = dbus_message_iter_append_basic(&iterator, Int32(CDBUS_TYPE_BOOLEAN), &value)
            case .array, .dictionary, .unreadable:
                break
            }
        }
        dbus_connection_send(bus, message, nil)
        dbus_connection_flush(bus)
    }

    /// A property's value (`org.freedesktop.DBus.Properties.Get`).
    public func property(_ destination: String, _ path: String, _ interface: String, _ name: String) -> Result<DBusValue, DBusCallError> {
        call(destination, path, "org.freedesktop.DBus.Properties", "Get", [interface, name]).map { $0.first ?? .unreadable }
    }

    /// Whether some program owns `name` on the bus.
    public func hasOwner(_ name: String) -> Bool {
        dbus_bus_name_has_owner(bus, name, nil) != 0
    }
}

/// A D-Bus error: its name (`org.freedesktop.DBus.Error.ServiceUnknown`) and message.
public struct DBusCallError: Error, Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    init(_ error: DBusError) {
        name = error.name.map { String(cString: $0) } ?? ""
        message = error.message.map { String(cString: $0) } ?? ""
    }

    public var description: String { name.isEmpty ? message : "\(name): \(message)" }
}
