import FocusProviders

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
            }
            emit(line.text)
            return
        }
        switch report {
        case let .connected(text): emit("focus: connected to \(printable(text))")
        case .focused(.noWindow): emit("focus: no window")
        case let .focused(.window(appID, title)): emit("focus: \(printable(appID)) \"\(printable(title))\"")
        case let .lost(why): emit("focus: unavailable: \(printable(why))")
        }
    }

    func focusNote(_ text: String, rule: String?) {
        if json {
            var line = JSONLine("focus-note")
            if let rule { line.add("rule", rule) }
            line.add("text", text)
            emit(line.text)
        } else {
            emit(rule.map { "\($0) sits out: \(printable(text))" } ?? "focus: \(printable(text))")
        }
    }
}
