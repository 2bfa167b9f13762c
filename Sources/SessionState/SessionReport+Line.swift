import TextWire

extension SessionReport {
    /// The one line the log of `touchgest run` and the text of `touchgest debug` give this
    /// report: `session: following logind session 3 (org.freedesktop.login1 on the system
    /// bus)`, `session: locked (logind's LockedHint is true); only rules with when-locked =
    /// true act`. Nil for ``changedQuietly(_:)``, which is acted on and not said.
    public var line: String? {
        switch self {
        case let .following(text): "session: following \(text)"
        case let .missing(why): "session: unavailable: \(why)"
        case let .changed(state): "session: \(state); \(state.condition.consequence)"
        case .changedQuietly: nil
        case let .unsaid(count, state): "session: \(state.unsaid(count)); \(state.condition.consequence)"
        }
    }
}

extension SessionState {
    /// The line for changes that went unsaid: `12 more changes in 10 s, not logged one by
    /// one; now locked (logind's LockedHint is true)`.
    public func unsaid(_ count: Int) -> String {
        "\(count) more \(count == 1 ? "change" : "changes") in \(shown(SessionDefaults.changeWindow)), not logged one by one; now \(self)"
    }
}

extension SessionState.Condition {
    /// What the state means for the rules, in the words `debug`, the log and `doctor` use:
    /// `only rules with when-locked = true act`.
    public var consequence: String { rules("acts", "act") }

    /// Which rules take part in a gesture begun in this state:
    /// `only rules with when-locked = true take part`.
    public var takingPart: String { rules("takes part", "take part") }

    /// Which rules do what `verb` says in this state, the one place that words it.
    private func rules(_ singular: String, _ plural: String) -> String {
        switch self {
        case .unlocked: "every rule \(singular)"
        case .locked: "only rules with when-locked = true \(plural)"
        case .inactive, .sleeping: "no rule \(singular)"
        }
    }
}
