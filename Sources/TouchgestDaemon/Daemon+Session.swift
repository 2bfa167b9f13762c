import BusLoop
import SessionState
import TouchGestures

/// What `touchgest run` logs of the session's state: each change and each source followed
/// at info, a missing protection as a warning, once; with -v each gesture refused.
extension Daemon {
    public func session(_ report: SessionReport) {
        switch report {
        case let .following(text): logger.info("session: following \(text)")
        case let .missing(why): logger.warning("session: unavailable: \(why)")
        case let .changed(state): logger.info("session: \(state); \(state.condition.consequence)")
        case .changedQuietly: break
        case let .unsaid(count, state): logger.info("session: \(state.unsaid(count)); \(state.condition.consequence)")
        }
    }

    public func gestureWhileRestricted(_ state: SessionState, input: InputEvent) {
        logger.debug("session: \(state.condition.rawValue): \(input.began) began a gesture; \(state.condition.takingPart)")
    }
}

extension InputEvent {
    /// What began a gesture, for the log: `touchpad tap 2f`, `touchpad swipe-begin 3f`,
    /// `a touch`.
    public var began: String {
        switch self {
        case let .touchpad(event): "touchpad \(event)"
        case .touches: "a touch"
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
    /// What the state means for the rules, in the words `debug` and the log use.
    public var consequence: String {
        switch self {
        case .unlocked: "every rule acts"
        case .locked: "only rules with when-locked = true act"
        case .inactive, .sleeping: "no rule acts"
        }
    }

    /// Which rules take part in a gesture begun in this state.
    public var takingPart: String {
        switch self {
        case .unlocked: "every rule takes part"
        case .locked: "only rules with when-locked = true take part"
        case .inactive, .sleeping: "no rule takes part"
        }
    }
}
