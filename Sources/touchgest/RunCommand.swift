import ArgumentParser
import CommandRunner
import GestureStreams
import Glibc
import LibinputInput
import Logging
import PollLoop
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
            (also when its folder is replaced, or deleted and made again) and on SIGHUP. A reload
            that fails for any reason (a broken edit, a FIFO or device or a file over 1 MiB, a
            file or folder another user could change) logs why and keeps the last good rules.
            Saving an empty file keeps them too, with a warning; to turn every gesture off, leave
            only a comment in the file. The rule file must be owned by you or root and writable by
            no one else, and no folder above it may be group- or world-writable unless sticky.
            Each rule's stream command is started with the rules and kept running (restarted
            with backoff when it exits or stops reading); a reload closes the old ones cleanly,
            and so does stopping. The rules' gesture lines are served to touchgest events on
            --events-socket (default $XDG_RUNTIME_DIR/touchgest/events.sock, mode 0600).
            Logs go to standard error (journald-friendly). touchgest run exits 1 when the rule
            file cannot be loaded at start, and when the daemon itself fails (a poll or libinput
            error, logged with what failed), so that systemd's Restart=on-failure starts it again;
            journalctl --user -u touchgest shows why.
            """
    )

    @OptionGroup var rules: RulesOptions
    @OptionGroup var input: InputOptions
    @OptionGroup var focus: FocusOptions
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
        let path = rules.path
        let book: Rulebook
        do {
            book = try Rulebook.load(path: path)
        } catch {
            for diagnostic in error.diagnostics { logger.error("\(diagnostic)") }
            throw ExitCode(1)
        }
        let daemon = Daemon(logger: logger, path: path)
        let session: Session
        do {
            session = try Session(backend: input.backend, options: input.adapterOptions(with: book), runCommands: true, observer: daemon)
        } catch {
            logger.error("\(error)")
            throw ExitCode(1)
        }
        daemon.session = session
        session.loop.add(output)
        daemon.commandLineSizes = input.deviceSizes
        session.runner?.observer = { daemon.runner($0) }
        session.streams?.observer = { daemon.streams($0) }
        if let socket = events.path {
            do {
                try session.streams?.listen(at: socket)
                logger.info("serving gesture events at \(socket)")
            } catch {
                logger.warning("\(error); touchgest events cannot connect")
            }
        } else {
            logger.warning("XDG_RUNTIME_DIR is not set, so there is no private place for the events socket; touchgest events cannot connect (give --events-socket PATH)")
        }
        for problem in session.input.problems { logger.warning("\(problem)") }
        session.contactWarning = { logger.warning("\($0)") }
        daemon.arm(book, verb: "loaded")
        session.startFocus(focus.provider)
        if let watcher = RuleWatcher(path: path, changed: { [weak daemon] in daemon?.changed($0) }) {
            daemon.folder = watcher.folder
            session.loop.add(watcher)
        } else {
            logger.warning("cannot watch \(path) for changes; send SIGHUP to reload it")
        }
        session.loop.add(SignalSource([SIGHUP]) { [weak daemon] _ in daemon?.reload() })
        session.input.dispatch()
        if session.input.devices.isEmpty {
            logger.notice("no touchpad or touchscreen yet; waiting for one to be plugged in")
        }
        logger.info("ready")
        StartupPages.release()
        // Streams close as on a reload: their last lines go out, their stdin closes, and
        // the daemon waits (4 s at most) for them to exit.
        defer { session.streams?.shutdown() }
        if let failure = session.runUntilSignalled() {
            // Not the rule file's fault: exit non-zero so that systemd (Restart=on-failure)
            // starts touchgest again.
            logger.error("stopping: \(failure); exiting with status 1 (commands still running are left to finish)")
            throw ExitCode(1)
        }
        logger.info("stopping; commands still running are left to finish")
    }
}

/// What `touchgest run` logs, and its reloads.
final class Daemon: SessionObserver {
    let logger: Logger
    let path: String
    /// The watched folder of the rule file, for the log.
    var folder: String
    weak var session: Session?
    /// `--device-size` from the command line: they win over the rule file's.
    var commandLineSizes: [StatedDeviceSize] = []
    /// How many rules are armed now.
    private(set) var armed = 0

    init(logger: Logger, path: String) {
        self.logger = logger
        self.path = path
        folder = RuleWatcher.parent(of: RuleWatcher.absolute(path))
    }

    /// Puts `book` in force and says so, loudly when it arms no rule at all.
    func arm(_ book: Rulebook, verb: String) {
        for warning in book.warnings { logger.warning("\(warning)") }
        if let input = session?.input {
            let sizes = commandLineSizes + book.settings.deviceSizes
            if sizes != input.options.statedSizes {
                input.options.statedSizes = sizes
                if !input.devices.isEmpty {
                    logger.notice("device-size changed in \(path): it applies to devices added from now on; unplug and replug, or restart touchgest, for the others")
                }
            }
        }
        session?.load(book)
        armed = book.rules.count
        logger.info("\(verb) \(book.rules.count) rules from \(path)")
        if book.rules.isEmpty {
            let what = book.isBlank ? "the rule file is empty" : "the rule file has no rules"
            logger.warning("\(path): \(what): every gesture is off until you add a rule")
        }
    }

    /// Reloads the rule file; on any failure the rules in force stay and the log says why.
    ///
    /// An empty file (nothing but whitespace) also keeps the rules in force: it is far
    /// more often a save caught half-way or one that failed than a wish to turn every
    /// gesture off, which a file holding only a comment expresses instead.
    func reload() {
        let book: Rulebook
        do {
            book = try Rulebook.load(path: path)
        } catch {
            for diagnostic in error.diagnostics { logger.error("\(diagnostic)") }
            logger.error("kept the previous rules; fix \(path) and save it again")
            return
        }
        if book.isBlank && armed > 0 {
            logger.warning("\(path): the rule file is empty; kept the previous \(armed) rules. An empty file is most often a save that has not finished or that failed; to turn every gesture off, leave only a comment in it, such as '# no gestures'")
            return
        }
        arm(book, verb: "reloaded")
    }

    func changed(_ change: RuleWatcher.Change) {
        switch change {
        case .file:
            reload()
        case .folderReplaced:
            logger.notice("the rules folder \(folder) was replaced or made again; watching it and reloading")
            reload()
        case let .folderGone(watching):
            logger.warning("the rules folder \(folder) was moved or deleted; kept the previous \(armed) rules and watching \(watching) for it to come back")
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

    func command(_ request: CommandRequest) {}

    func streams(_ event: StreamHub.Event) {
        switch event {
        case let .started(rule, command, pid):
            logger.info("rule \(rule): stream started, pid \(pid): \(command)")
        case let .couldNotStart(rule, reason, retryIn):
            logger.error("rule \(rule): stream could not start: \(reason); trying again in \(seconds(retryIn))")
        case let .exited(rule, pid, status, retryIn):
            logger.warning("rule \(rule): stream pid \(pid) \(status); starting it again in \(seconds(retryIn))")
        case let .stuck(rule, pid, queued):
            logger.warning("rule \(rule): stream pid \(pid) stopped reading its input (\(queued) lines waiting); stopping it")
        case let .restarting(rule, pid, retryIn):
            logger.warning("rule \(rule): stream pid \(pid) stopped; starting it again in \(seconds(retryIn))")
        case let .closed(rule, pid, status):
            logger.info("rule \(rule): old stream pid \(pid) closed (\(status))")
        case let .subscriberJoined(count):
            logger.debug("events: a subscriber joined (\(count) now)")
        case let .subscriberLeft(count, reason):
            if let reason {
                logger.warning("events: dropped a subscriber: \(reason) (\(count) left)")
            } else {
                logger.debug("events: a subscriber left (\(count) now)")
            }
        case let .acceptFailed(reason, retryIn):
            logger.warning("events: cannot accept a subscriber: \(reason); trying again in \(seconds(retryIn))")
        }
    }

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

/// `0.25s`, `30s`: a delay as the log shows it.
func seconds(_ duration: Duration) -> String {
    let milliseconds = duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
    return milliseconds % 1_000 == 0 ? "\(milliseconds / 1_000)s" : "\(fixedDecimals(Double(milliseconds) / 1_000, 2))s"
}
