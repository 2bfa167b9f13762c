import ArgumentParser
import Glibc
import Logging
import TouchgestDaemon

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Do what the rules say for the gestures you make: actions, keys, text, clicks, commands (the daemon).",
        discussion: """
            Reads the rule file, opens the seat's touchpads and touchscreens (and those plugged in
            later) and runs the rules' commands until SIGINT or SIGTERM. The rules are reloaded
            when the file changes and on SIGHUP; a reload that fails logs why and keeps the last
            good rules. The session's state (locked, not in front, going to sleep) decides which
            rules act. Logs go to standard error; exits 1 when the rules cannot be loaded at start
            or the daemon fails. touchgest(1) says the rest: the rule file's permissions, streams,
            the events socket, exit status, and what touchgest trusts to tell a locked screen.
            """
    )

    @OptionGroup var rules: RulesOptions
    @OptionGroup var input: InputOptions
    @OptionGroup var focus: FocusOptions
    @OptionGroup var sessionState: SessionOptions
    @OptionGroup var events: EventsSocketOptions

    @Flag(name: .shortAndLong, help: "Log more: -v each command run, -vv every recognizer transition.")
    var verbose: Int

    @OptionGroup var root: RootOptions

    func validate() throws {
        try root.check(runsCommands: true)
    }

    func run() throws {
        // A log reader that goes away (stderr a pipe whose reader exited) must not kill
        // the daemon: writes then fail with EPIPE, and LogOutput stops logging. Commands
        // still get the default SIGPIPE: the runner resets it in each child.
        signal(SIGPIPE, SIG_IGN)
        // Started with stdin, stdout or stderr closed (`2>&-`), the next open would take
        // its number: the log would land in a rule file's descriptor, say. /dev/null fills it.
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) < 0 {
            _ = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
        }
        let level: Logger.Level = verbose >= 2 ? .trace : verbose == 1 ? .debug : .info
        let output = LogOutput(descriptor: 2) { StderrLogHandler.line(.warning, $0) }
        let logger = Logger(label: "touchgest") { _ in StderrLogHandler(level: level, output: output) }
        // The last lines (stopping, streams closed) get a moment to reach a slow reader.
        defer { output.drain(within: LogOutput.exitDrainTime) }
        let configuration = Daemon.Configuration(rulesPath: rules.path, backend: input.backend, commandLineSizes: input.deviceSizes,
                                                  focusProvider: focus.provider, sessionState: sessionState.source,
                                                  eventsSocket: events.path)
        do {
            try Daemon.run(configuration, logger: logger, output: output)
        } catch {
            throw ExitCode(1)
        }
    }
}
