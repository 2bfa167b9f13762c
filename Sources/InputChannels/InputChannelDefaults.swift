import PollLoop

/// The tunables of the input channels' connections to their desktops, with their reasons.
/// A channel trusts no desktop: what it keeps for one and what one costs the loop is
/// bounded by these, whatever the desktop does.
public enum InputChannelDefaults {
    /// How a channel connects again (``ReconnectPolicy`` says what each wait means). First
    /// wait 100 ms: a desktop that restarts takes longer to make its socket. Longest wait
    /// while it is away 2 s: how late, at worst, keys work again once it is back. Stable
    /// after 10 s: a shorter connection (a desktop that shakes hands and drops touchgest,
    /// floods, stops reading) doubles the wait, up to 60 s, and its loss is not said
    /// again. A desktop may start after touchgest, so one never reached is tried too.
    public static let reconnect = ReconnectPolicy(firstRetry: .milliseconds(100), maximumRetry: .seconds(2),
                                                  stableConnection: .seconds(10), maximumFlappingRetry: .seconds(60),
                                                  triesUnreached: true)
    /// How long a desktop may take to accept touchgest and finish its handshake (X11's
    /// setup, XTEST and keyboard map; Wayland's registry and its sync): a live one takes
    /// milliseconds, so one that takes this long is stuck, and is tried again later.
    public static let connectTimeout: Duration = .seconds(5)
    /// Most globals a Wayland compositor may list before its handshake ends: sway and KWin
    /// list 40 to 80; one that lists more is not a compositor, and is dropped.
    public static let maximumGlobals = 1_024
    /// Most bytes read from a desktop in one wake-up: a handshake's globals fit several
    /// times over, and the loop then goes round, input first.
    public static let readBudget = 16 << 10
    /// Most bytes a desktop may send within one ``floodWindow``: an honest one sends its
    /// globals (a few kB) and a handful of events per connection, so more is a flood, and
    /// costs the desktop its connection instead of the loop's time.
    public static let floodBytes = 1 << 20
    /// The window ``floodBytes`` is counted over.
    public static let floodWindow: Duration = .seconds(1)
    /// Bytes of requests encoded ahead of what the desktop has taken: a long text is
    /// encoded a piece at a time as the socket takes it, so a text of any length costs
    /// this much, not its whole encoding (tens of MB for a 1 MB text).
    public static let encodedAhead = 16 << 10
    /// Characters of a text encoded as one piece: a few kB of requests.
    public static let textPiece = 64
    /// Most bytes written to a desktop in one wake-up: a long text then goes out over
    /// several rounds of the loop, with input and timers between them.
    public static let writeBudget = 64 << 10
    /// How long a desktop may leave requests waiting without taking a byte before it
    /// counts as not reading: its connection is dropped, with what waits for it.
    public static let writeStall: Duration = .seconds(2)
    /// Presses that may wait behind a long text: more are dropped (said once), so that a
    /// gesture repeated while a desktop is slow never queues without end.
    public static let maximumWaitingPresses = 64
    /// How long a desktop's IPC may take to answer a desktop action (sway, Hyprland and
    /// niri answer within milliseconds): one that takes longer is said, and the socket
    /// of that action is closed.
    public static let actionAnswerTimeout: Duration = .seconds(2)
    /// Actions that may wait for their answers at once: more are dropped (said once), so
    /// that a stuck desktop never gathers sockets without end.
    public static let maximumWaitingActions = 8
    /// Most bytes of one answer to an action: sway's is `[{"success":true}]`, an error
    /// a sentence; more is not an answer.
    public static let maximumAnswerBytes = 4_096
    /// How long touchgest waits, as it exits, for Hyprland to take back the workspace swipe
    /// it yielded (`desktop-gestures = "yield"`): a live one answers in milliseconds; a
    /// stuck one must not hold touchgest's exit (and systemd's stop) longer. Past it the
    /// swipe stays off until `hyprctl reload`, and the log says so.
    public static let restoreTimeout: Duration = .milliseconds(500)
}
