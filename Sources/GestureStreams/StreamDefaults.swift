/// The tunables of streams and subscribers, each with its unit and why.
public enum StreamDefaults {
    /// Bytes of a stream command's stdin pipe (F_SETPIPE_SZ; one page, the least Linux
    /// allows). A small pipe holds few stale lines, so a slow reader soon gets coalesced
    /// `changed` lines, the latest state, instead of a backlog of old ones; a line is
    /// about 330 bytes, so 4 KiB still holds a dozen.
    public static let pipeBytes: Int32 = 4_096
    /// Bytes of a subscriber's socket send buffer (SO_SNDBUF; Linux doubles it), for the
    /// same reason.
    public static let socketSendBytes: Int32 = 4_096
    /// A reader that takes no byte for this long while lines wait is stuck: a stream
    /// command is stopped and restarted, a subscriber dropped. Far longer than any frame
    /// a widget draws, short enough that a hung script is noticed within a gesture or two.
    public static let stallTimeout: Duration = .seconds(2)
    /// A stream command just started is not judged stuck before this: an interpreter
    /// (Python, say) can take seconds to start on a busy machine before it reads a line.
    public static let startGrace: Duration = .seconds(5)
    /// Lines that may wait for one reader: past this it is stuck at once, whatever the
    /// time. Begins and ends of over 80 gestures: no reader that still works is so far behind.
    public static let maximumQueuedLines = 256
    /// The first wait before a stream command that exited or got stuck is started again;
    /// each restart in a row doubles it, up to ``maximumRestartDelay``.
    public static let firstRestartDelay: Duration = .milliseconds(250)
    /// The longest wait between restarts: a command that always fails costs one start
    /// every 30 s.
    public static let maximumRestartDelay: Duration = .seconds(30)
    /// A command that ran this long before it exited starts the backoff over: it worked.
    public static let stableRun: Duration = .seconds(10)
    /// On a reload, how long an old stream command has to write out its lines and exit
    /// after its stdin is closed, before it gets SIGTERM.
    public static let closeGrace: Duration = .seconds(2)
    /// Time between SIGTERM and SIGKILL for a stream command being stopped, and for what a
    /// command left in its process group once it is reaped.
    public static let killGrace: Duration = .seconds(1)
    /// Connections waiting to be accepted on the subscribers' socket.
    public static let listenBacklog: Int32 = 16
    /// How long the subscribers' socket goes unpolled after accept failed for want of a
    /// descriptor or memory (EMFILE, ENFILE, ENOBUFS, ENOMEM): the connection it could not
    /// take keeps the socket readable, so polling it at once would spin the loop at full
    /// CPU. A subscriber waits at most this long; the loop wakes once per try.
    public static let acceptRetryDelay: Duration = .seconds(1)
    /// Reads of one subscriber's socket per wake-up (what a subscriber sends is read and
    /// ignored), 512 bytes each: one that sends without end cannot hold the loop, and the
    /// rest is read at the next wake-up.
    public static let subscriberReadsPerWake = 4
    /// The longest line `touchgest events` takes from its socket: a line the daemon
    /// writes is about 330 bytes; one past this is not the daemon's, and ends the client
    /// instead of growing its buffer.
    public static let maximumEventLineBytes = 64 << 10
    /// The most `touchgest events` subscribers served at once: each takes a descriptor
    /// and a poll entry, and bars and widgets are a handful. 256 stays far below the
    /// 1,024 descriptors systemd's default soft limit allows, raised or not; one more is
    /// sent a line saying why and closed.
    public static let maximumSubscribers = 256
    /// Connections taken from the events socket per wake-up; the rest wait a round.
    public static let acceptsPerWake = 64
}
