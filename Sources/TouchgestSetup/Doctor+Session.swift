import PollLoop
import SessionState
import TouchGestures

/// What `touchgest doctor` says of the session's state: which signals this desktop gives
/// touchgest about a locked screen, a session not in front and sleep, and which it lacks,
/// with the remedy (docs/session.md).
extension Doctor {
    /// The logind call that tells logind the screen is locked (`true`) or not, for lockers
    /// that do not say so themselves.
    static let lockedHintCall = "busctl call org.freedesktop.login1 /org/freedesktop/login1/session/auto org.freedesktop.login1.Session SetLockedHint b"

    /// Follows logind and the screensaver for up to `timeout` (until both sides are
    /// known), then says what each tells.
    public mutating func checkSession(timeout: Duration = .seconds(3)) {
        let monitor = SessionMonitor(environment: environment)
        let loop = EventLoop()
        loop.add(monitor)
        monitor.start()
        let end = PollScheduler.now() + timeout
        while !monitor.isSettled && PollScheduler.now() < end {
            loop.run(until: min(end, PollScheduler.now() + .milliseconds(50)))
        }
        let logind = monitor.logindDescription
        if logind.following {
            add(.ok, "session", "logind follows \(logind.text): touchgest knows when the session is not in front (Active), when the machine goes to sleep (PrepareForSleep), and when logind is asked to lock it (loginctl lock-session: Lock, Unlock)")
        } else {
            add(.warn, "session", "\(logind.text); rules act whatever the screen shows",
                fix: "run touchgest in your graphical session (its systemd user service, or your desktop's autostart) on a system with logind (systemd or elogind)")
        }
        if monitor.state.condition != .unlocked {
            add(.note, "session", "now: \(monitor.state): \(SessionState.Condition.locked.consequence) while locked, none while not in front or going to sleep")
        }
        switch monitor.screensavers {
        case let .failure(problem):
            add(.note, "session", "\(problem.description): the screensaver's ActiveChanged cannot be followed")
        case let .success(savers):
            for saver in savers where saver.text != "not on the session bus" {
                add(saver.tells ? .ok : .note, "session", "\(saver.name) is \(saver.text)"
                    + (saver.tells ? ": touchgest follows its ActiveChanged" : ": it does not say when the screen locks"))
            }
            if !savers.contains(where: \.tells) {
                add(.note, "session", "no screensaver on the session bus says when the screen locks (org.freedesktop.ScreenSaver, org.gnome.ScreenSaver, org.gnome.Shell.ScreenShield): usual on sway, Hyprland and niri")
            }
        }
        checkLocker(logindFollowed: logind.following, lockedNow: monitor.lockedHint == true)
    }

    /// Whether this desktop's locker tells logind (LockedHint) when it locks.
    private mutating func checkLocker(logindFollowed: Bool, lockedNow: Bool) {
        guard logindFollowed else { return }
        let hint = "touchgest sees a lock only through logind's LockedHint or Lock"
        switch Desktop.detect(in: environment)?.desktop {
        case .gnome?:
            add(.ok, "session", "GNOME Shell sets logind's LockedHint when its screen locks, and says ActiveChanged as org.gnome.Shell.ScreenShield (and through org.gnome.ScreenSaver, a service started on demand)")
        case .kde?:
            add(.ok, "session", "KDE Plasma's screen locker sets logind's LockedHint, and says ActiveChanged on org.freedesktop.ScreenSaver")
        case .niri?:
            if (environment["XDG_SESSION_ID"] ?? "").isEmpty {
                add(.warn, "session", "niri (25.08 and later) sets logind's LockedHint while the screen is locked, but only when XDG_SESSION_ID is in its environment, and it is not in touchgest's",
                    fix: "start niri from a login session (a display manager, or niri-session), so that it and touchgest see XDG_SESSION_ID")
            } else {
                add(.ok, "session", "niri 25.08 and later sets logind's LockedHint while the screen is locked, whichever locker locks it (older niri does not: see the sway advice in docs/session.md)")
            }
        case .sway?:
            add(.warn, "session", "swaylock does not set logind's LockedHint and sway has no lock event: \(hint), so a swaylock started by a key binding or by swayidle's timeout goes unseen",
                fix: "lock through logind and tell it when swaylock ends; in ~/.config/sway/config: exec swayidle -w timeout 300 'loginctl lock-session' before-sleep 'loginctl lock-session' lock 'pidof swaylock || { swaylock; loginctl unlock-session; } &' and bindsym $mod+Escape exec loginctl lock-session")
        case .hyprland?:
            add(.warn, "session", "hyprlock does not set logind's LockedHint; Hyprland says when it locks only through its hyprland-lock-notify Wayland protocol: \(hint)",
                fix: "let hypridle (0.1.6 and later, Hyprland 0.47 and later) tell logind; in ~/.config/hypr/hypridle.conf, general: on_lock_cmd = \(Self.lockedHintCall) true, on_unlock_cmd = \(Self.lockedHintCall) false, lock_cmd = pidof hyprlock || hyprlock, before_sleep_cmd = loginctl lock-session")
        case .x11?:
            add(.note, "session", "X11 screen lockers (i3lock, slock, xsecurelock) do not set logind's LockedHint: \(hint)",
                fix: "lock through logind, and have the locker started on its Lock: xss-lock -- sh -c 'i3lock -n; loginctl unlock-session'")
        case nil:
            add(.note, "session", "cannot tell which desktop this is: if its locker does not set logind's LockedHint, \(hint)",
                fix: "have the locker tell logind: \(Self.lockedHintCall) true before it locks, and false after")
        }
        if lockedNow {
            add(.note, "session", "logind's LockedHint is true now: the desktop says the screen is locked")
        }
    }
}
