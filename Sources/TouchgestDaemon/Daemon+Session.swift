import SessionState
import TouchGestures

/// What `touchgest run` logs of the session's state: each change and each source followed
/// at info, a missing protection as a warning, once; with -v each gesture refused. The
/// words are the reports' own (``SessionReport/line``), which `debug` prints too.
extension Daemon {
    public func session(_ report: SessionReport) {
        guard let line = report.line else { return }
        switch report {
        case .missing: logger.warning("\(line)")
        case .following, .changed, .changedQuietly, .unsaid: logger.info("\(line)")
        }
    }

    public func gestureWhileRestricted(_ state: SessionState, input: InputEvent) {
        logger.debug("\(state.refused(input))")
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
    /// The line the log and `debug` give a gesture begun while this state keeps rules out:
    /// `session: locked: touchpad tap 2f began a gesture; only rules with when-locked =
    /// true take part`.
    public func refused(_ input: InputEvent) -> String {
        "session: \(condition.rawValue): \(input.began) began a gesture; \(condition.takingPart)"
    }
}
