import CommandRunner
import GestureStreams
import Glibc
import InputChannels
import InputDevices
import LibinputInput
import Logging
import PollLoop
import Rulebook
import TextWire
import TouchGestures

/// `touchgest run`: a gesture pipeline on the rule file, reloaded when it changes, with every
/// decision worth knowing logged. The reload policy lives here: a failed or empty
/// reload keeps the rules in force, and `device-size` changes apply to new devices.
public final class Daemon: GesturePipelineObserver {
    /// What the daemon is started with.
    public struct Configuration {
        /// The rule file.
        public var rulesPath: String
        public var backend: LibinputContext.Backend
        /// `--device-size` from the command line: they win over the rule file's.
        public var commandLineSizes: [StatedDeviceSize]
        /// The focus provider's name: `auto`, `none` or one of `FocusProviders.names`.
        public var focusProvider: String
        /// Where the session's state comes from: `auto` (logind and the screensaver) or `none`.
        public var sessionState: String
        /// Where `touchgest events` subscribers connect; nil for nowhere.
        public var eventsSocket: String?

        public init(rulesPath: String, backend: LibinputContext.Backend, commandLineSizes: [StatedDeviceSize] = [],
                    focusProvider: String = "auto", sessionState: String = "auto", eventsSocket: String?) {
            self.rulesPath = rulesPath
            self.backend = backend
            self.commandLineSizes = commandLineSizes
            self.focusProvider = focusProvider
            self.sessionState = sessionState
            self.eventsSocket = eventsSocket
        }
    }

    /// Why the daemon stopped with a failure.
    public enum Failure: Error {
        /// The rule file could not be loaded at start (logged).
        case rules
        /// libinput could not be opened (logged).
        case input
        /// The loop failed (logged): systemd's Restart=on-failure starts touchgest again.
        case loop
    }

    let logger: Logger
    let path: String
    /// The watched folder of the rule file, for the log.
    var folder: String
    weak var pipeline: GesturePipeline?
    /// `--device-size` from the command line: they win over the rule file's.
    var commandLineSizes: [StatedDeviceSize] = []
    /// How many rules are armed now.
    private(set) var armed = 0

    init(logger: Logger, path: String) {
        self.logger = logger
        self.path = path
        folder = RuleFile.parent(of: RuleFile.absolute(path))
    }

    /// Runs the daemon until SIGINT or SIGTERM: loads the rules, opens the seat, serves
    /// the events socket, watches the rule file and reloads on change or SIGHUP. `output`
    /// is the log's writer, polled by the loop so that logging never blocks it.
    public static func run(_ configuration: Configuration, logger: Logger, output: LogOutput) throws(Failure) {
        let path = configuration.rulesPath
        OpenFileLimit.raise()
        let book: Rulebook
        do {
            book = try Rulebook.load(path: path)
        } catch {
            for diagnostic in error.diagnostics { logger.error("\(diagnostic)") }
            throw .rules
        }
        let daemon = Daemon(logger: logger, path: path)
        daemon.commandLineSizes = configuration.commandLineSizes
        let pipeline: GesturePipeline
        do {
            let options = LibinputContext.Options(statedSizes: configuration.commandLineSizes + book.settings.deviceSizes,
                                                  readsModifierKeys: book.settings.modifierSource == .keyboards)
            pipeline = try GesturePipeline(backend: configuration.backend, options: options, runCommands: true, observer: daemon)
        } catch {
            logger.error("\(error)")
            throw .input
        }
        daemon.pipeline = pipeline
        pipeline.loop.add(output)
        pipeline.runner?.observer = { daemon.runner($0) }
        pipeline.streams?.observer = { daemon.streams($0) }
        if let socket = configuration.eventsSocket {
            do {
                try pipeline.streams?.listen(at: socket)
                logger.info("serving gesture events at \(socket)")
            } catch {
                logger.warning("\(error); touchgest events cannot connect")
            }
        } else {
            logger.warning("XDG_RUNTIME_DIR is not set, so there is no private place for the events socket; touchgest events cannot connect (give --events-socket PATH)")
        }
        for problem in pipeline.input.problems { logger.warning("\(problem)") }
        daemon.arm(book, verb: "loaded")
        pipeline.startFocus(configuration.focusProvider)
        pipeline.startSessionState(configuration.sessionState)
        if let watcher = RuleWatcher(path: path, changed: { [weak daemon] in daemon?.changed($0) }) {
            daemon.folder = watcher.folder
            pipeline.loop.add(watcher)
        } else {
            logger.warning("cannot watch \(path) for changes; send SIGHUP to reload it")
        }
        pipeline.input.dispatch()
        if pipeline.input.devices.isEmpty {
            logger.notice("no touchpad or touchscreen yet; waiting for one to be plugged in")
        }
        daemon.sayModifierSource()
        logger.info("ready")
        StartupPages.release()
        // Streams close as on a reload: their last lines go out, their stdin closes, and
        // the daemon waits (4 s at most) for them to exit.
        defer { pipeline.streams?.shutdown() }
        // Before the streams' wait: the desktop's own swipes come back first.
        defer { pipeline.giveBackDesktopGestures() }
        if let failure = pipeline.runUntilSignalled(reload: { [weak daemon] in daemon?.reload() }) {
            // Not the rule file's fault: exit non-zero so that systemd (Restart=on-failure)
            // starts touchgest again.
            logger.error("stopping: \(failure); exiting with status 1 (commands still running are left to finish)")
            throw .loop
        }
        logger.info("stopping; commands still running are left to finish")
    }

    /// Puts `book` in force and says so, loudly when it arms no rule at all.
    func arm(_ book: Rulebook, verb: String) {
        for warning in book.warnings + book.desktopProblems() {
            logger.warning("\(warning)")
        }
        if let input = pipeline?.input {
            let sizes = commandLineSizes + book.settings.deviceSizes
            if (book.settings.modifierSource == .keyboards) != pipeline?.modifiersFromKeyboards {
                logger.notice("modifier-source changed in \(path): it applies when touchgest starts again")
            }
            if sizes != input.options.statedSizes {
                input.options.statedSizes = sizes
                if !input.devices.isEmpty {
                    logger.notice("device-size changed in \(path): it applies to devices added from now on; unplug and replug, or restart touchgest, for the others")
                }
            }
        }
        // Before the rules: the overlay hears of their strokes from the start.
        pipeline?.showFeedback(book.settings.feedback == .on)
        pipeline?.load(book)
        // Its failure is each modifiers rule's error, above.
        if case let .success(source)? = book.modifierSource() { logger.info("modifiers: from \(source)") }
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

    public func contacts(_ event: ContactEvent) {
        if case .problem = event { logger.warning("\(event)") } else { logger.info("\(event)") }
    }

    public func adapter(_ event: AdapterEvent) {
        if let line = event.line { logger.info("\(line)") }
    }

    /// Transitions are logged at trace level only.
    public var wantsTransitions: Bool { logger.logLevel <= .trace }

    public func transition(_ record: TransitionRecord) {
        logger.trace("\(record)")
    }

    public func command(_ request: CommandRequest) {}

    public func desktopGestures(_ report: HyprlandSwipeReport) {
        switch report {
        case .read: logger.debug("\(report)")
        case .yielded, .restored: logger.notice("\(report)")
        case .unsupported, .problem: logger.warning("\(report)")
        }
    }

    /// The overlay's coming and going at debug level (one each a gesture); why it cannot be
    /// shown, as a warning.
    public func overlay(_ report: OverlayReport) {
        if case .problem = report { logger.warning("\(report)") } else { logger.debug("\(report)") }
    }

    func streams(_ event: StreamHub.Event) {
        switch event {
        case let .started(rule, command, pid):
            logger.info("rule \(rule): stream started, pid \(pid): \(command)")
        case let .couldNotStart(rule, reason, retryIn):
            logger.error("rule \(rule): stream could not start: \(reason); trying again in \(shownInSeconds(retryIn))")
        case let .exited(rule, pid, status, retryIn):
            logger.warning("rule \(rule): stream pid \(pid) \(status); starting it again in \(shownInSeconds(retryIn))")
        case let .stuck(rule, pid, queued):
            logger.warning("rule \(rule): stream pid \(pid) stopped reading its input (\(queued) lines waiting); stopping it")
        case let .restarting(rule, pid, retryIn):
            logger.warning("rule \(rule): stream pid \(pid) stopped; starting it again in \(shownInSeconds(retryIn))")
        case let .closed(rule, pid, status):
            logger.info("rule \(rule): old stream pid \(pid) closed (\(status))")
        case let .leftBehind(rule, pid):
            logger.warning("rule \(rule): stream pid \(pid) left processes running in its group; stopping them (SIGKILL within \(shownInSeconds(StreamDefaults.killGrace)) for any that stays)")
        case let .subscriberJoined(count):
            logger.debug("events: a subscriber joined (\(count) now)")
        case let .subscriberLeft(count, reason):
            if let reason {
                logger.warning("events: dropped a subscriber: \(reason) (\(count) left)")
            } else {
                logger.debug("events: a subscriber left (\(count) now)")
            }
        case let .subscriberRefused(limit):
            logger.warning("events: refused a subscriber: at most \(limit) are served at once (the next refusals are not logged until one leaves)")
        case let .acceptFailed(reason, retryIn):
            logger.warning("events: cannot accept a subscriber: \(reason); trying again in \(shownInSeconds(retryIn))")
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

