import ArgumentParser
import CommandRunner
import Glibc
import LibinputInput
import Logging
import Rulebook
import TouchGestures

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the rules' commands for the gestures you make (the daemon).",
        discussion: """
            Reads the rule file, opens the seat's touchpads and touchscreens (devices plugged in
            later are used at once) and runs commands until SIGINT or SIGTERM, which exit 0 and
            leave commands already running alone. The rules are reloaded when the file changes
            and on SIGHUP; a broken edit is reported with its positions and the last good rules
            stay in force. Logs go to standard error (journald-friendly).
            """
    )

    @OptionGroup var rules: RulesOptions
    @OptionGroup var input: InputOptions

    @Flag(name: .shortAndLong, help: "Log more: -v each command run, -vv every recognizer transition.")
    var verbose: Int

    @OptionGroup var root: RootOptions

    func validate() throws {
        try root.check(runsCommands: true)
    }

    func run() throws {
        let level: Logger.Level = verbose >= 2 ? .trace : verbose == 1 ? .debug : .info
        let logger = Logger(label: "touchgest") { _ in StderrLogHandler(level: level) }
        let path = rules.path
        let book: Rulebook
        do {
            book = try Rulebook.load(path: path)
        } catch {
            for diagnostic in error.diagnostics { logger.error("\(diagnostic)") }
            throw ExitCode(1)
        }
        for warning in book.warnings { logger.warning("\(warning)") }
        let daemon = Daemon(logger: logger)
        let session: Session
        do {
            session = try Session(backend: input.backend, runCommands: true, observer: daemon)
        } catch {
            logger.error("\(error)")
            throw ExitCode(1)
        }
        daemon.session = session
        session.runner?.observer = { daemon.runner($0) }
        for problem in session.input.problems { logger.warning("\(problem)") }
        session.load(book)
        logger.info("loaded \(book.rules.count) rules from \(path)")
        let reload: () -> Void = { [weak daemon] in daemon?.reload(path: path) }
        if let watcher = RuleWatcher(path: path, changed: reload) {
            session.loop.add(watcher)
        } else {
            logger.warning("cannot watch \(path) for changes; send SIGHUP to reload it")
        }
        session.loop.add(SignalSource([SIGHUP]) { _ in reload() })
        session.input.dispatch()
        if session.input.devices.isEmpty {
            logger.notice("no touchpad or touchscreen yet; waiting for one to be plugged in")
        }
        logger.info("ready")
        session.runUntilSignalled()
        logger.info("stopping; commands still running are left to finish")
    }
}

/// What `touchgest run` logs, and its reloads.
final class Daemon: SessionObserver {
    let logger: Logger
    weak var session: Session?

    init(logger: Logger) {
        self.logger = logger
    }

    func reload(path: String) {
        do {
            let book = try Rulebook.load(path: path)
            for warning in book.warnings { logger.warning("\(warning)") }
            session?.load(book)
            logger.info("reloaded \(book.rules.count) rules from \(path)")
        } catch {
            for diagnostic in error.diagnostics { logger.error("\(diagnostic)") }
            logger.error("kept the previous rules; fix \(path) and save it again")
        }
    }

    func adapter(_ event: AdapterEvent) {
        switch event {
        case let .deviceAdded(device): logger.info("device added: \(device)")
        case let .deviceRemoved(device): logger.info("device removed: \(device.node)")
        case .input: break
        }
    }

    func transition(_ record: TransitionRecord) {
        logger.trace("\(record)")
    }

    func command(_ request: CommandRequest, running: Bool) {}

    func runner(_ event: CommandRunner.Event) {
        switch event {
        case let .started(job, pid):
            logger.debug("rule \(job.key): started pid \(pid): \(job.command)")
        case let .skipped(job):
            logger.debug("rule \(job.key): skipped, its previous command is still running")
        case let .queued(job):
            logger.debug("rule \(job.key): queued behind its previous command")
        case let .finished(job, _, status, stderrTail):
            if status.succeeded {
                logger.debug("rule \(job.key): command \(status)")
            } else {
                let tail = stderrTail.isEmpty ? "" : "; its stderr ended with: \(stderrTail.split(separator: "\n").suffix(3).joined(separator: " | "))"
                logger.warning("rule \(job.key): command \(status)\(tail)")
            }
        }
    }
}
