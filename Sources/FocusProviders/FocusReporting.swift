import PollLoop
import TouchGestures

/// What every focus provider keeps besides its connection to the desktop: what it last
/// reported, so that a focus is reported when it changes and an outage once.
struct FocusReporting {
    var onReport: ((FocusReport) -> Void)?
    private var lastFocus: WindowFocus?
    private var lastLoss: String?

    /// Reached the desktop: the next loss is said again.
    mutating func connected(_ text: String) {
        lastLoss = nil
        onReport?(.connected(text))
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
    func due(at now: Timestamp) -> Duration? {
        at <= now ? min(delay * 2, FocusDefaults.maximumRetry) : nil
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
