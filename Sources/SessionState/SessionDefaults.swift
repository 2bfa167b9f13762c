/// The tunables of the session-state source, with their reasons.
public enum SessionDefaults {
    /// How often a screensaver on the bus that does not answer `GetActive` in time (the
    /// link's call timeout, 5 s) is asked again: a shell busy as it starts on a loaded
    /// machine answers a later try (a CI run once saw GNOME Shell miss the first). Six tries
    /// are half a minute; after them, it is followed once it says `ActiveChanged`.
    public static let getActiveTries = 6
    /// Where libdbus looks for the system bus when `DBUS_SYSTEM_BUS_ADDRESS` is not set.
    public static let systemBusAddress = "unix:path=/run/dbus/system_bus_socket"
    /// State changes said one by one in one ``changeWindow``: a person locks and unlocks a
    /// few times a minute at most, so more is a desktop gone wrong, which must not fill the
    /// log (every change still takes effect at once).
    public static let changesSaid = 10
    /// The window over which ``changesSaid`` counts; the changes past it are said in one
    /// line when it ends.
    public static let changeWindow: Duration = .seconds(10)
}
