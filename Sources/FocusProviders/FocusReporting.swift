import PollLoop
import TextWire
import TouchGestures

/// What every focus provider keeps besides its connection to the desktop: what it last
/// reported, so that a focus is reported when it changes and an outage once, with its end
/// once. (How long to wait before trying again is the connection's: ``Reconnecting``.)
struct FocusReporting {
    var onReport: ((FocusReport) -> Void)?
    private var lastFocus: WindowFocus?
    private var lastLoss: String?
    /// Reached during an outage, not yet shown to work: said with its first focus.
    private var pendingConnected: String?

    /// Reached the desktop and it answered as it should: the outage, if any, is over.
    mutating func connected(_ text: String) {
        pendingConnected = nil
        lastLoss = nil
        onReport?(.connected(text))
    }

    /// Reached the desktop. Outside an outage that is said at once; during one,
    /// with the first focus the desktop reports, so that a desktop that takes the
    /// connection and sends nothing useful (or garbage) does not end the outage in the
    /// log only to start it again.
    mutating func reached(_ text: String) {
        if lastLoss == nil {
            connected(text)
        } else {
            pendingConnected = text
        }
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

