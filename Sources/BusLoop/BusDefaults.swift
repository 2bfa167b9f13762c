import PollLoop

/// The tunables of a ``BusLink``, with their reasons.
public enum BusDefaults {
    /// How long a bus may take to accept touchgest and answer its Hello and match rules:
    /// a live one takes milliseconds, so one that takes this long is stuck.
    public static let connectTimeout: Duration = .seconds(5)
    /// First wait before connecting again to a bus that went away: dbus-daemon takes
    /// longer than this to come back, so trying sooner only wakes up.
    public static let firstRetry: Duration = .milliseconds(100)
    /// The longest wait between tries while a bus that was there is gone: how late, at
    /// worst, touchgest knows the state again once it is back; one wake-up per this during
    /// the outage, none while connected.
    public static let maximumRetry: Duration = .seconds(2)
    /// A connection that lasted this long worked: when it breaks, the first retry comes
    /// after ``firstRetry`` again. One that breaks sooner doubles the wait.
    public static let stableConnection: Duration = .seconds(10)
    /// How a link connects again: a bus never reached is not tried again (it is not
    /// coming, and trying would wake an idle daemon for ever); one that keeps dropping
    /// touchgest is tried at most every ``maximumRetry`` (the state it tells matters more
    /// than the wake-ups).
    public static let reconnect = ReconnectPolicy(firstRetry: firstRetry, maximumRetry: maximumRetry, stableConnection: stableConnection,
                                                  maximumFlappingRetry: maximumRetry, triesUnreached: false)
    /// Messages handled per wake-up: any program on the session bus may signal without
    /// pause, and must not hold the loop (input comes first).
    public static let messagesPerWake = 256
    /// How long a call waits for its answer: logind and the screensavers answer in
    /// milliseconds, so one that takes this long is hung, and is said to be.
    public static let callTimeout: Duration = .seconds(5)
    /// What touchgest reads of one message from a sender it trusts: logind's `GetAll` of a
    /// session is about 35 properties, under 200 values of short strings, so this is room
    /// for twenty times that;
    /// a message past it is a broken or hijacked service, not one to keep in memory.
    public static let messageBounds = BusValue.Bounds(values: 4_096, depth: 16, stringBytes: 4_096)
}
