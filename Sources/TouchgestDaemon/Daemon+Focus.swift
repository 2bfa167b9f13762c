import FocusProviders

/// What `touchgest run` logs of the focus provider: connections and losses at info and
/// warning (each once), focus changes with -v, rules sitting out with -vv. The log
/// handler escapes control characters in every line, a window's title too.
extension Daemon {
    public func focus(_ report: FocusReport) {
        switch report {
        case let .connected(text): logger.info("focus: connected to \(text)")
        case .focused(.noWindow): logger.debug("focus: no window")
        case let .focused(.window(appID, title)): logger.debug("focus: \(appID) \"\(title)\"")
        case let .lost(why): logger.warning("focus: unavailable: \(why)")
        }
    }

    public func focusNote(_ text: String, rule: String?) {
        if let rule {
            logger.trace("rule \(rule) sits out: \(text)")
        } else {
            logger.warning("focus: \(text)")
        }
    }
}
