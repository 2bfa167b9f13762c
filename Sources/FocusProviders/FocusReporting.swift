import PollLoop
import TouchGestures

/// What every focus provider keeps besides its connection to the desktop: what it last
/// reported, so that a focus is reported when it changes and an outage once, with its end
/// once; and how long to wait after losing a connection, so that a desktop that accepts
/// and then drops touchgest again and again is tried less and less often.
struct FocusReporting {
    var onReport: ((FocusReport) -> Void)?
    private var lastFocus: WindowFocus?
    private var lastLoss: String?
    /// Reached during an outage, not yet shown to work: said with its first focus.
    private var pendingConnected: String?
    /// When the current connection was made; nil while there is none.
    private var connectedAt: Timestamp?
    /// The wait after the last loss.
    private var backoff = FocusDefaults.firstRetry

    /// Reached the desktop and it answered as it should: the outage, if any, is over.
    mutating func connected(_ text: String) {
        pendingConnected = nil
        lastLoss = nil
        onReport?(.connected(text))
    }

    /// Reached the desktop at `now`. Outside an outage that is said at once; during one,
    /// with the first focus the desktop reports, so that a desktop that takes the
    /// connection and sends nothing useful (or garbage) does not end the outage in the
    /// log only to start it again.
    mutating func reached(_ text: String, at now: Timestamp) {
        connectedAt = now
        if lastLoss == nil {
            connected(text)
        } else {
            pendingConnected = text
        }
    }

    /// The connection made at ``reached(_:at:)`` (or a bus's) is open from `now`.
    mutating func opened(at now: Timestamp) {
        connectedAt = now
    }

    /// How long to wait before connecting again after losing the connection at `now`:
    /// the first retry after a connection that lasted ``FocusDefaults/stableConnection``,
    /// else twice the last wait, up to ``FocusDefaults/maximumFlappingRetry``.
    mutating func retryAfterLoss(at now: Timestamp) -> Duration {
        if let connectedAt, now - connectedAt >= FocusDefaults.stableConnection {
            backoff = FocusDefaults.firstRetry
        } else {
            backoff = min(backoff * 2, FocusDefaults.maximumFlappingRetry)
        }
        connectedAt = nil
        return backoff
    }

    /// A try failed: said once per outage, since the tries that follow fail for the same
    /// cause, often in other words (the socket closed, then it is not there).
    mutating func lostOnce(_ why: String) {
        guard lastLoss == nil else { return }
        lastLoss = why
        onReport?(.lost(why))
    }

    /// The desktop told a state (it left, it refused): each new cause is said once.
    mutating func lost(_ why: String) {
        guard lastLoss != why else { return }
        lastLoss = why
        onReport?(.lost(why))
    }

    /// Reports `focus` if it differs from the last one reported; a title or application
    /// id longer than ``TouchGestures/maximumOutsideTextBytes`` is cut there, so that no
    /// log line or command carries what a window chose to call itself in full.
    mutating func focused(_ focus: WindowFocus) {
        if let text = pendingConnected { connected(text) }
        var focus = focus
        if case let .window(appID, title) = focus {
            focus = .window(appID: appID.prefix(utf8Bytes: maximumOutsideTextBytes), title: title.prefix(utf8Bytes: maximumOutsideTextBytes))
        }
        guard focus != lastFocus else { return }
        lastFocus = focus
        onReport?(.focused(focus))
    }

    /// A new connection reports its first focus whatever the last one was.
    mutating func forgetFocus() {
        lastFocus = nil
        pendingConnected = nil
    }
}

/// When a provider tries its desktop again: after `delay`, doubling up to
/// ``FocusDefaults/maximumRetry`` while it stays away.
struct FocusRetry {
    let at: Timestamp
    let delay: Duration

    /// A try `delay` from now.
    static func after(_ delay: Duration) -> FocusRetry {
        FocusRetry(at: PollScheduler.now() + delay, delay: delay)
    }

    /// The wait to use if this try fails too, when the try is due at `now`; nil before.
    /// A wait already longer than ``FocusDefaults/maximumRetry`` (a desktop that kept
    /// dropping touchgest) is kept.
    func due(at now: Timestamp) -> Duration? {
        at <= now ? max(delay, min(delay * 2, FocusDefaults.maximumRetry)) : nil
    }
}

/// Why a connect made on its own thread failed, for the log.
struct ConnectFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A connect running on its own thread (``BackgroundAttempt``): a C library that
/// connects and shakes hands only by blocking (XCB, libdbus) holds that thread, never
/// the loop. The provider waits on the attempt's descriptor until `deadline`
/// (``FocusDefaults/connectTimeout``), and waits `delay` before the next try if it fails.
struct PendingConnect<Link> {
    let attempt: BackgroundAttempt<Result<Link, ConnectFailure>>
    let deadline: Timestamp
    let delay: Duration
}

/// A wait as the log says it: "5 s", "200 ms".
func shown(_ duration: Duration) -> String {
    let milliseconds = duration.microseconds / 1_000
    return milliseconds % 1_000 == 0 ? "\(milliseconds / 1_000) s" : "\(milliseconds) ms"
}
