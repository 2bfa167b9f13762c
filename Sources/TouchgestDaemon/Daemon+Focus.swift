import FocusProviders

/// What `touchgest run` logs of the focus provider: connections and losses at info and
/// warning (each once), focus changes with -v, rules sitting out and the modifiers held
/// with -vv, in the reports'
/// own words (``FocusReport/description``, which `debug` prints too). The log handler
/// escapes control characters in every line, a window's title too.
extension Daemon {
    public func focus(_ report: FocusReport) {
        switch report {
        case .connected: logger.info("\(report)")
        case .focused: logger.debug("\(report)")
        case .lost: logger.warning("\(report)")
        case .modifiers: logger.trace("\(report)")
        case .modifiersUnknown: logger.warning("\(report)")
        }
    }

    public func focusNote(_ text: String, rule: String?) {
        if rule != nil {
            logger.trace("\(focusNoteLine(text, rule: rule))")
        } else {
            logger.warning("\(focusNoteLine(text, rule: rule))")
        }
    }
}
