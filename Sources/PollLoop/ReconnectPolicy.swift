/// When a source connects again to a peer that failed or went away: the one back-off rule
/// of every connection (buses, desktops' sockets, X servers, compositors). The values are
/// each user's (``BusLink`` has BusDefaults', the focus providers FocusDefaults').
public struct ReconnectPolicy: Sendable {
    /// The first wait, after a connection that had lasted, or before the first new try.
    public var firstRetry: Duration
    /// The longest wait between tries while the peer is gone: how late, at worst, it is
    /// followed again once it is back.
    public var maximumRetry: Duration
    /// A connection that lasted this long worked: when it breaks, the waits start over.
    public var stableConnection: Duration
    /// The longest wait for a peer that takes the connection and drops it again and again
    /// (floods, sends garbage, fails its handshake): at most one try, and one log line, per
    /// this.
    public var maximumFlappingRetry: Duration
    /// Whether a peer never reached is tried again. A bus that is not there when touchgest
    /// starts is not coming (trying would wake an idle daemon for ever); a desktop may
    /// start after touchgest.
    public var triesUnreached: Bool

    public init(firstRetry: Duration, maximumRetry: Duration, stableConnection: Duration, maximumFlappingRetry: Duration,
                triesUnreached: Bool) {
        self.firstRetry = firstRetry
        self.maximumRetry = maximumRetry
        self.stableConnection = stableConnection
        self.maximumFlappingRetry = maximumFlappingRetry
        self.triesUnreached = triesUnreached
    }
}

/// The waits of one source under a ``ReconnectPolicy``: they double with each failure,
/// and start over only after a connection that lasted. A connection that is made and lost
/// at once (a handshake that succeeds, then a drop) does not start them over, so a peer
/// that fails that way is tried less and less often, and said once.
public struct Backoff: Sendable {
    public let policy: ReconnectPolicy
    /// The last wait handed out; nil before any.
    public private(set) var last: Duration?

    public init(_ policy: ReconnectPolicy) {
        self.policy = policy
    }

    /// The wait after a try that failed to connect: twice the last, up to the longest wait
    /// while gone; a longer one (a peer that kept dropping touchgest) is kept.
    public mutating func afterFailedTry() -> Duration {
        let next = last.map { max($0, min($0 * 2, policy.maximumRetry)) } ?? policy.firstRetry
        last = next
        return next
    }

    /// The wait after losing a connection that lasted `lasted` (nil: unknown, counted as
    /// not lasting): the first wait again after a stable one, else twice the last, up to the
    /// longest wait for a peer that keeps dropping touchgest.
    public mutating func afterLoss(_ lasted: Duration?) -> Duration {
        let next: Duration
        if let lasted, lasted >= policy.stableConnection {
            next = policy.firstRetry
        } else {
            next = last.map { min($0 * 2, policy.maximumFlappingRetry) } ?? policy.firstRetry
        }
        last = next
        return next
    }
}
