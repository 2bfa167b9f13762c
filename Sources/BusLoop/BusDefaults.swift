import PollLoop

/// The tunables of a ``BusLink``, with their reasons.
public enum BusDefaults {
    /// How long a bus may take to accept touchgest and answer its Hello and match rules:
    /// a live one takes milliseconds, so one that takes this long is stuck.
    public static let connectTimeout: Duration = .seconds(5)
    /// How a link connects again (``ReconnectPolicy`` says what each wait means). First
    /// wait 100 ms: dbus-daemon takes longer to come back. Longest wait while a bus that
    /// was there is gone 2 s: how late, at worst, touchgest knows the state again, one
    /// wake-up per this during the outage and none while connected. Stable after 10 s. One
    /// that keeps dropping touchgest is tried at most every 2 s too (the state it tells
    /// matters more than the wake-ups). A bus never reached is not tried again: it is not
    /// coming, and trying would wake an idle daemon for ever.
    public static let reconnect = ReconnectPolicy(firstRetry: .milliseconds(100), maximumRetry: .seconds(2),
                                                  stableConnection: .seconds(10), maximumFlappingRetry: .seconds(2),
                                                  triesUnreached: false)
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
