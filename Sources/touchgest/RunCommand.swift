import ArgumentParser
import Glibc
import LibinputInput
import Logging
import PollLoop
import TouchgestDaemon

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
            Session: while the screen is locked only rules with when-locked = true act; while
            the session is not in front (another user has the seat, another virtual terminal
            is shown) or the machine is going to sleep, none does. A gesture under way then is
            cancelled (its stream gets cancelled, its on-cancel runs), and each touchgest events
            subscriber gets one line saying so. touchgest trusts logind on the system bus
            (DBUS_SYSTEM_BUS_ADDRESS, else /run/dbus/system_bus_socket) for the session named
            by XDG_SESSION_ID, else the session of its own process, else, as a systemd user
            service, your graphical session: its Active and LockedHint properties, its Lock and
            Unlock signals (a lock asked for with loginctl lock-session holds until Unlock or
            until the desktop clears LockedHint), and PrepareForSleep. It also trusts
            org.freedesktop.ScreenSaver, org.gnome.ScreenSaver and GNOME Shell's
            org.gnome.Shell.ScreenShield on the session bus, taking their ActiveChanged only
            from the name's owner. It trusts nothing else: a locker
            that tells neither (swaylock, hyprlock) goes unseen; touchgest doctor says what
            this desktop tells and how to make its locker tell logind. Without a system bus or
            logind, or without a session bus, touchgest still runs, and logs once which
            protection it lacks: it fails open, because a gesture daemon that refused to start
            would leave the user with no gestures at all on systems that cannot lock through
            logind (no systemd, a container, a test), while the lock screen itself, not
            touchgest, is what guards the session. A bus that goes away after touchgest
            reached it keeps the last state until it is back; one never reached is not tried
            again. --session-state none follows nothing.
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
