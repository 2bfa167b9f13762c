/// Which rules may act, by what the session says: the daemon's session-state source
/// decides, ``CompiledRulebook/admit(_:)`` applies it.
public enum RuleAdmission: Sendable, Hashable {
    /// The session is in front and unlocked: every rule.
    case every
    /// The screen is locked: only rules with `when-locked = true` (volume, brightness,
    /// media keys).
    case whenLocked
    /// The session is not in front (another user has the seat), or the machine is about
    /// to sleep: no rule, whatever it says.
    case none

    /// Whether `rule` may act.
    public func admits(_ rule: Rule) -> Bool {
        switch self {
        case .every: true
        case .whenLocked: rule.whenLocked
        case .none: false
        }
    }
}
