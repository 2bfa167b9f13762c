import FocusProviders
import TextWire
import TouchgestDaemon

/// What `touchgest debug` shows of the focused window.
extension DebugPrinter {
    func focus(_ report: FocusReport) {
        if json {
            var line = JSONLine("focus")
            switch report {
            case let .connected(text):
                line.add("connected", text)
            case .focused(.noWindow):
                line.add("application", "")
                line.add("title", "")
            case let .focused(.window(appID, title)):
                line.add("application", appID)
                line.add("title", title)
            case let .lost(why):
                line.add("lost", why)
            case let .modifiers(held):
                line = JSONLine("modifiers")
                line.add("held", held.description)
            case let .modifiersUnknown(why):
                line = JSONLine("modifiers")
                line.add("unavailable", why)
            }
            emit(line.text)
            return
        }
        // A window's title is the window's to choose: escaped, it cannot drive the terminal.
        emit(report.description.escapingControlCharacters)
    }

    /// What tells the rules the modifier keys held (`modifiers: from the X server (XKB
    /// state)`), or, as a warning, why nothing does: said once, at start.
    func modifierSource(_ source: Result<String, FocusWireError>) {
        switch source {
        case let .success(text):
            if json {
                var line = JSONLine("modifier-source")
                line.add("source", text)
                emit(line.text)
            } else {
                emit("modifiers: from \(text)")
            }
        case let .failure(why):
            printError("touchgest: warning: modifiers: rules that want them never fire: \(why)")
        }
    }

    func focusNote(_ text: String, rule: String?) {
        if json {
            var line = JSONLine("focus-note")
            if let rule { line.add("rule", rule) }
            line.add("text", text)
            emit(line.text)
        } else {
            emit(focusNoteLine(text, rule: rule).escapingControlCharacters)
        }
    }
}

/// What `touchgest debug` says of the touchpads' finger readers: problems always (on
/// standard error, as a warning), the readers opening and closing with -v.
extension DebugPrinter {
    func contacts(_ event: ContactEvent) {
        if case .problem = event { return printError("touchgest: warning: \(event)") }
        if verbose && !json { emit(paint(36, event.description)) }
    }
}
