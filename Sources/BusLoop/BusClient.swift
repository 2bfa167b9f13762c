import CDBus

/// A blocking bus client for one-shot questions (`touchgest doctor`, benchmarks); the
/// daemon's ``BusLink`` never blocks.
public final class BusClient {
    private let bus: OpaquePointer
    /// The bus address it connected to.
    public let address: String

    /// Connects to the bus at `address` and says Hello; throws the reason it could not.
    public init(address: String) throws(BusError) {
        self.address = address
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let bus = dbus_connection_open_private(address, &error) else { throw BusError(error) }
        dbus_connection_set_exit_on_disconnect(bus, 0)
        guard dbus_bus_register(bus, &error) != 0 else {
            dbus_connection_close(bus)
            dbus_connection_unref(bus)
            throw BusError(error)
        }
        self.bus = bus
    }

    deinit {
        dbus_connection_close(bus)
        dbus_connection_unref(bus)
    }

    /// Calls `method` and waits up to `timeout` for its answer: the reply's arguments, read
    /// within ``BusDefaults/messageBounds``, or the error the bus or the peer gave.
    public func call(_ destination: String, _ path: String, _ interface: String, _ method: String,
                     _ arguments: [BusArgument] = [], timeout: Duration = .seconds(3)) -> Result<[BusValue], BusError> {
        guard let message = dbus_message_new_method_call(destination, path, interface, method) else {
            return .failure(BusError(name: "org.freedesktop.DBus.Error.NoMemory", message: "cannot make a message"))
        }
        defer { dbus_message_unref(message) }
        BusArgument.append(arguments, to: message)
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let milliseconds = Int32(clamping: timeout.components.seconds * 1_000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        guard let reply = dbus_connection_send_with_reply_and_block(bus, message, milliseconds, &error) else {
            return .failure(BusError(error))
        }
        defer { dbus_message_unref(reply) }
        guard let values = BusValue.arguments(of: reply, within: BusDefaults.messageBounds) else {
            return .failure(BusError(name: "org.freedesktop.DBus.Error.LimitsExceeded",
                                     message: "\(destination) answered \(method) with more than touchgest reads (\(BusDefaults.messageBounds))"))
        }
        return .success(values)
    }

    /// Sends a method call and does not wait for its answer (it is asked for none): for a
    /// measurement that times what follows the call, not its reply.
    public func send(_ destination: String, _ path: String, _ interface: String, _ method: String, _ arguments: [BusArgument]) {
        guard let message = dbus_message_new_method_call(destination, path, interface, method) else { return }
        defer { dbus_message_unref(message) }
        dbus_message_set_no_reply(message, 1)
        BusArgument.append(arguments, to: message)
        dbus_connection_send(bus, message, nil)
        dbus_connection_flush(bus)
    }

    /// A property's value (`org.freedesktop.DBus.Properties.Get`), out of its variant.
    public func property(_ destination: String, _ path: String, _ interface: String, _ name: String) -> Result<BusValue, BusError> {
        call(destination, path, "org.freedesktop.DBus.Properties", "Get", [.string(interface), .string(name)])
            .map { $0.first?.unwrapped ?? .other }
    }

    /// Whether some program owns `name` on the bus.
    public func hasOwner(_ name: String) -> Bool {
        dbus_bus_name_has_owner(bus, name, nil) != 0
    }
}

extension BusError {
    /// libdbus's error, as it names it.
    init(_ error: DBusError) {
        name = error.name.map { String(cString: $0) } ?? ""
        message = error.message.map { String(cString: $0) } ?? ""
    }
}
