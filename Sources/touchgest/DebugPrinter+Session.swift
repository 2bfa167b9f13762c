import TextWire
import TouchGestures
import TouchgestDaemon

/// What `touchgest debug` shows of the session's state: each change as it comes, what
/// is followed, and which protection is missing.
extension DebugPrinter {
    func session(_ report: SessionReport) {
        if json {
            var line = JSONLine("session")
            switch report {
            case let .following(text):
                line.add("following", text)
            case let .missing(why):
                line.add("missing", why)
            case let .changed(state), let .changedQuietly(state):
                line.add("state", state.condition.rawValue)
                line.add("reasons", state.reasons)
            case let .unsaid(count, state):
                line.add("unsaid", count)
                line.add("state", state.condition.rawValue)
                line.add("reasons", state.reasons)
            }
            emit(line.text)
            return
        }
        guard let text = report.line else { return }
        if case .following = report { emit(paint(36, text)) } else { emit(paint(33, text)) }
    }

    func gestureWhileRestricted(_ state: SessionState, input: InputEvent) {
        if json {
            var line = JSONLine("session-gesture")
            line.add("state", state.condition.rawValue)
            line.add("input", input.began)
            emit(line.text)
        } else {
            emit(paint(33, state.refused(input)))
        }
    }
}

/// What `touchgest debug --overlay` says of the overlay: shown on a desktop, faded (its
/// surface gone), or why it cannot be shown.
extension DebugPrinter {
    func overlay(_ report: OverlayReport) {
        guard !json else {
            var line = JSONLine("overlay")
            switch report {
            case let .shown(place): line.add("shown", place)
            case .faded: line.add("faded", true)
            case let .problem(why): line.add("problem", why)
            }
            return emit(line.text)
        }
        if case .problem = report { emit(paint(33, report.description)) } else { emit(paint(36, report.description)) }
    }
}
