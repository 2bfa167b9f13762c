import PollLoop
import TouchGestures

/// What every channel keeps besides its connection: whether an outage was said, so that
/// it is said once and its end once. It outlives the connections: only one that lasted
/// ``InputChannelDefaults/reconnect`` ends the outage. (How long to wait before
/// the next try is the connection's: ``Reconnecting``.)
struct ChannelReporting {
    var onReport: ((InputChannelReport) -> Void)?
    /// The loss said and not yet over; nil while none is.
    private var outage: String?
    /// Reached during an outage, not yet shown to last: said once it has.
    private var pendingConnected: String?
    /// When the current connection was made; nil while there is none.
    private var connectedAt: Timestamp?
    /// The last reason an action was not pressed, said once.
    private var lastProblem: String?

    /// Reached the desktop at `now`. Outside an outage that is said at once; during one,
    /// once the connection has lasted (``stableDeadline``), so that a desktop that shakes
    /// hands and drops touchgest does not end the outage in the log only to start it again.
    mutating func reached(_ text: String, at now: Timestamp) {
        connectedAt = now
        if outage == nil {
            onReport?(.connected(text))
        } else {
            pendingConnected = text
        }
    }

    /// When the connection reached during an outage will have lasted: the owner's deadline.
    var stableDeadline: Timestamp? {
        guard pendingConnected != nil, let connectedAt else { return nil }
        return connectedAt + InputChannelDefaults.reconnect.stableConnection
    }

    /// The connection reached during the outage has lasted by `now`: the outage is over,
    /// and said so; the waits start over.
    mutating func checkStable(at now: Timestamp) {
        guard let text = pendingConnected, let due = stableDeadline, due <= now else { return }
        pendingConnected = nil
        outage = nil
        onReport?(.connected(text))
    }

    /// The connection or the try broke at `now`, for `why`: said if no outage is. A
    /// connection that had lasted ended the outage, so its loss is said.
    mutating func lost(_ why: String, at now: Timestamp) {
        if let connectedAt, now - connectedAt >= InputChannelDefaults.reconnect.stableConnection {
            outage = nil
        }
        connectedAt = nil
        pendingConnected = nil
        if outage == nil {
            outage = why
            onReport?(.lost(why))
        }
    }

    /// Says once per cause why an action could not be pressed.
    mutating func problem(_ why: String) {
        guard why != lastProblem else { return }
        lastProblem = why
        onReport?(.cannotPress(why))
    }
}
