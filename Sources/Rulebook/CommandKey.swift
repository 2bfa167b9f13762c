/// A rule's command keys, the moments it can run a command or press keys at: `command`,
/// `on-begin`, `on-step`, `on-end`, `on-cancel`. The raw value is the command's
/// `TOUCHGEST_PHASE`.
public enum CommandKey: String, Sendable, CaseIterable {
    /// A discrete gesture was recognized, or a continuous one began (`command`).
    case recognized
    case begin, step, end, cancel

    /// The key as a rule file writes it: `command`, `on-begin`.
    public var name: String {
        self == .recognized ? "command" : "on-\(rawValue)"
    }

    /// The key a rule file's `name` is, nil for one that is no command key.
    public init?(name: String) {
        guard let key = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = key
    }

    /// The moment this key runs at, for a continuous gesture or not.
    public func moment(continuous: Bool) -> GestureMoment {
        switch self {
        case .recognized: continuous ? .began : .recognized
        case .begin: .began
        case .step: .step
        case .end: .ended
        case .cancel: .cancelled
        }
    }
}
