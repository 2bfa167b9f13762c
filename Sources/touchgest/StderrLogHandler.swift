import Glibc
import Logging
import TextWire
import TouchgestDaemon

/// Log lines on standard error: `touchgest: warning: ...`, or with a `<N>` priority
/// prefix that journald understands when stderr is the journal (JOURNAL_STREAM is set).
struct StderrLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    static let journald = getenv("JOURNAL_STREAM") != nil

    /// Where lines go: standard error, shared by every copy of the handler.
    let output: LogOutput

    init(level: Logger.Level, output: LogOutput) {
        logLevel = level
        self.output = output
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// One line a message, its control characters (a device's name, a command's stderr)
    /// escaped; never waited for (``LogOutput``).
    func log(event: LogEvent) {
        output.offer(Self.line(event.level, "\(event.message)").escapingControlCharacters)
    }

    /// `touchgest: warning: TEXT`, or `<4>TEXT` for journald.
    static func line(_ level: Logger.Level, _ text: String) -> String {
        journald ? "<\(priority(level))>\(text)"
            : "touchgest: \(level == .info || level == .notice ? "" : "\(level): ")\(text)"
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
