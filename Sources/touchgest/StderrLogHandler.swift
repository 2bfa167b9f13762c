import Glibc
import Logging

/// Log lines on standard error: `touchgest: warning: ...`, or with a `<N>` priority
/// prefix that journald understands when stderr is the journal (JOURNAL_STREAM is set).
struct StderrLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    let journald = getenv("JOURNAL_STREAM") != nil

    init(level: Logger.Level) {
        logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// One line a message; its control characters (a device's name, a command's stderr)
    /// are escaped by `printError`.
    func log(event: LogEvent) {
        let text = "\(event.message)"
        if journald {
            printError("<\(Self.priority(event.level))>\(text)")
        } else {
            printError("touchgest: \(event.level == .info || event.level == .notice ? "" : "\(event.level): ")\(text)")
        }
    }

    /// sd-daemon(3) priorities.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
