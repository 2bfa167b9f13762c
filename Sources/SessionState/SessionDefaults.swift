/// The tunables of the session-state source, with their reasons.
public enum SessionDefaults {
    /// Where libdbus looks for the system bus when `DBUS_SYSTEM_BUS_ADDRESS` is not set.
    public static let systemBusAddress = "unix:path=/run/dbus/system_bus_socket"
}
