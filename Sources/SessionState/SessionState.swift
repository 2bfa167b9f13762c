/// Whether touchgest's session lets rules act, and why not.
public struct SessionState: Hashable, Sendable, CustomStringConvertible {
    public enum Condition: String, Hashable, Sendable {
        /// In front and unlocked (or nothing says otherwise): every rule acts.
        case unlocked
        /// The screen is locked: only rules with `when-locked = true` act.
        case locked
        /// Another session has the seat: no rule acts.
        case inactive
        /// The machine is going to sleep: no rule acts.
        case sleeping
    }

    public var condition: Condition
    /// What says so, e.g. `logind's LockedHint is true`; empty when nothing does.
    public var reasons: [String]

    public init(_ condition: Condition, reasons: [String] = []) {
        self.condition = condition
        self.reasons = reasons
    }

    /// `locked (logind's LockedHint is true)`.
    public var description: String {
        reasons.isEmpty ? condition.rawValue : "\(condition.rawValue) (\(reasons.joined(separator: "; ")))"
    }
}

/// What the session-state source tells the daemon, in order.
public enum SessionReport: Hashable, Sendable {
    /// A source is followed (again): which and where, for the log.
    case following(String)
    /// A protection is missing: why, and what touchgest cannot tell for want of it. Said
    /// once per outage.
    case missing(String)
    /// The state changed.
    case changed(SessionState)
    /// The state changed, past the rate at which changes are said
    /// (``SessionDefaults/changesSaid`` in ``SessionDefaults/changeWindow``): act on it,
    /// log nothing.
    case changedQuietly(SessionState)
    /// How many changes went unsaid in the window that just ended, and the state now.
    case unsaid(count: Int, now: SessionState)
}
