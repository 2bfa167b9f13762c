import PollLoop
import TouchGestures

/// What every channel keeps besides its connection: whether an outage was said, so that
/// it is said once and its end once. It outlives the connections: only one that lasted
/// ``InputChannelDefaults/reconnect`` ends the outage. (How long to wait before
/// the next try is the connection's: ``Reconnecting``.)
struct ChannelReporting {
    var onReport: ((InputChannelReport) -> Void)?
    /// Said once, with its end once: a reach during one is said once the connection has
    /// lasted (``stableDeadline``), so that a desktop that shakes hands and drops touchgest
    /// does not end it.
    private var outage = Outage()
    /// When the current connection was made; nil while there is none.
    private var connectedAt: Timestamp?
    /// The last reason an action was not pressed, said once.
    private var lastProblem: String?

    /// Reached the desktop at `now`: said at once outside an outage.
    mutating func reached(_ text: String, at now: Timestamp) {
        connectedAt = now
        if let text = outage.reached(text) { onReport?(.connected(text)) }
    }

    /// When the connection reached during an outage will have lasted: the owner's deadline.
    var stableDeadline: Timestamp? {
        guard outage.isHeld, let connectedAt else { return nil }
        return connectedAt + InputChannelDefaults.reconnect.stableConnection
    }

    /// The connection reached during the outage has lasted by `now`: the outage is over,
    /// and said so; the waits start over.
    mutating func checkStable(at now: Timestamp) {
        guard let due = stableDeadline, due <= now, let text = outage.confirmed() else { return }
        onReport?(.connected(text))
    }

    /// The connection or the try broke at `now`, for `why`: said if no outage is. A
    /// connection that had lasted ended the outage, so its loss is said.
    mutating func lost(_ why: String, at now: Timestamp) {
        if let connectedAt, now - connectedAt >= InputChannelDefaults.reconnect.stableConnection {
            outage.over()
        }
        connectedAt = nil
        if let why = outage.lost(why) { onReport?(.lost(why)) }
    }

    /// Says once per cause why an action could not be pressed.
    mutating func problem(_ why: String) {
        guard why != lastProblem else { return }
        lastProblem = why
        onReport?(.cannotPress(why))
    }
}
