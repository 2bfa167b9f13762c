import BusLoop
import Glibc
import PollLoop
import TouchGestures

/// Whether the screen is locked, the session is in front, or the machine is about to
/// sleep, from every signal the desktop gives: logind on the system bus (``LogindWatch``)
/// and the screensaver interfaces on the session bus (``ScreenSaverWatch``).
///
/// One ``PollSource`` over both buses: it wakes only when one of them writes, and asks
/// for no deadline while connected. Without a bus, or without logind, it says once what
/// it cannot tell and reports nothing else from that side: touchgest then acts as if the
/// session were unlocked and in front (it fails open; touchgest(1), SESSION, says why).
/// While a bus that was there is gone, the last state known is kept.
public final class SessionMonitor: PollSource {
    /// Receives every report; set it before ``start()``.
    public var onReport: ((SessionReport) -> Void)?
    /// The state now; unlocked until a source says otherwise.
    public private(set) var state = SessionState(.unlocked)

    let logind: LogindWatch
    let screensaver: ScreenSaverWatch
    /// The missing protection said last, by side, until the side is followed again.
    private var missingSaid: [String: String] = [:]
    /// The window over which changes said one by one are counted.
    let changeWindowLength: Duration
    /// When the window of changes said began, how many were said in it, and how many not.
    private var changeWindow: (start: Timestamp, said: Int, unsaid: Int)?

    /// - Parameters:
    ///   - environment: `DBUS_SYSTEM_BUS_ADDRESS`, `DBUS_SESSION_BUS_ADDRESS` (else
    ///     `$XDG_RUNTIME_DIR/bus`) and `XDG_SESSION_ID` come from it.
    public init(environment: [String: String], processID: UInt32 = UInt32(getpid()), userID: UInt32 = getuid(),
                connectTimeout: Duration = BusDefaults.connectTimeout, callTimeout: Duration = BusDefaults.callTimeout,
                changeWindow: Duration = SessionDefaults.changeWindow) {
        self.changeWindowLength = changeWindow
        let system = environment["DBUS_SYSTEM_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 } ?? SessionDefaults.systemBusAddress
        logind = LogindWatch(address: system, sessionID: environment["XDG_SESSION_ID"], processID: processID, userID: userID,
                             connectTimeout: connectTimeout, callTimeout: callTimeout)
        screensaver = ScreenSaverWatch(address: Self.sessionBusAddress(environment), connectTimeout: connectTimeout,
                                       callTimeout: callTimeout)
        logind.onChange = { [unowned self] in update() }
        logind.onFollowing = { [unowned self] in following("logind", $0) }
        logind.onMissing = { [unowned self] in missing("logind", $0) }
        screensaver.onChange = { [unowned self] wentInactive in
            if wentInactive { logind.desktopUnlocked() }
            update()
        }
        screensaver.onFollowing = { [unowned self] in following("screensaver", $0) }
        screensaver.onMissing = { [unowned self] in missing("screensaver", $0) }
    }

    /// The session bus's address: `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`
    /// when that socket exists; empty for none.
    static func sessionBusAddress(_ environment: [String: String]) -> String {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty, access("\(runtime)/bus", F_OK) == 0 {
            return "unix:path=\(runtime)/bus"
        }
        return ""
    }

    /// Connects to both buses, each on a thread of its own.
    public func start() {
        logind.start()
        screensaver.start()
    }

    /// Whether both sides are known (followed, or known to be missing) with no answer
    /// outstanding: what `doctor` waits for.
    public var isSettled: Bool {
        logind.isSettled && screensaver.isSettled
    }

    // MARK: What doctor shows

    /// How logind's side stands: the session followed, or why there is none.
    public var logindDescription: (following: Bool, text: String) {
        switch logind.status {
        case .connecting: (false, "logind has not answered yet")
        case let .missing(why): (false, why)
        case let .following(session, path): (true, "\(session), \(path)")
        }
    }

    /// Whether the desktop has said the screen is locked through `LockedHint` (now).
    public var lockedHint: Bool? { logind.facts.lockedHint }

    /// Each screensaver interface: whether it is on the session bus and answers, and what it
    /// says; nil when the session bus itself cannot be reached (with why).
    public var screensavers: Result<[(name: String, tells: Bool, text: String)], SessionBusProblem> {
        if let problem = screensaver.problem { return .failure(SessionBusProblem(description: problem)) }
        return .success(screensaver.savers.map { saver in
            let text = saver.owner == nil ? "not on the session bus"
                : saver.problem.map { "on the session bus, but does not answer GetActive (\($0))" }
                ?? "on the session bus; \(saver.active ? "active" : "not active")"
            return (saver.name, saver.tells, text)
        })
    }

    // MARK: PollSource

    private var links: [BusLink] { [logind.link, screensaver.link] }

    public func collect(_ interest: inout PollInterest) {
        logind.link.collect(&interest)
        screensaver.link.collect(&interest)
    }

    public func handleReadable(_ fd: Int32) {
        for link in links where link.owns(fd) {
            link.handleReadable()
            return
        }
    }

    public var nextDeadline: Timestamp? {
        // Asked at every wake-up: no array.
        earliest(earliest(logind.link.deadline, screensaver.link.deadline), unsaidDeadline)
    }

    public func handleDeadlines() {
        for link in links { link.handleDeadlines() }
        if let deadline = unsaidDeadline, deadline <= PollScheduler.now(), let window = changeWindow {
            changeWindow = nil
            onReport?(.unsaid(count: window.unsaid, now: state))
        }
    }

    /// When the changes that went unsaid are said: the end of their window.
    private var unsaidDeadline: Timestamp? {
        guard let window = changeWindow, window.unsaid > 0 else { return nil }
        return window.start + changeWindowLength
    }

    // MARK: The state

    private func following(_ side: String, _ text: String) {
        missingSaid[side] = nil
        onReport?(.following(text))
    }

    private func missing(_ side: String, _ why: String) {
        // A bus that went away is said once per outage: the tries that fail after it, often
        // in other words, are not. What the bus told (logind is not there, has no session
        // for touchgest, left) is said once per cause.
        let outage = why.hasSuffix("until it is back")
        if let said = missingSaid[side], said == why || outage && said.hasSuffix("until it is back") { return }
        missingSaid[side] = why
        let consequence = side == "logind"
            ? "touchgest cannot tell from logind that the screen is locked, that the session is not in front, or that the machine is going to sleep"
            : "touchgest cannot follow the screensaver (org.freedesktop.ScreenSaver, org.gnome.ScreenSaver, GNOME Shell's org.gnome.Shell.ScreenShield)"
        onReport?(.missing(why.hasSuffix("until it is back") ? why : "\(why): \(consequence)"))
    }

    private func update() {
        let facts = logind.facts
        var next: SessionState
        if facts.preparingForSleep {
            next = SessionState(.sleeping, reasons: ["logind sent PrepareForSleep"])
        } else if facts.active == false {
            next = SessionState(.inactive, reasons: ["logind says the session is not active"])
        } else {
            var reasons: [String] = []
            if facts.lockedHint == true { reasons.append("logind's LockedHint is true") }
            if facts.lockRequested { reasons.append("logind asked the session to lock (Lock) and nothing has said it unlocked") }
            for saver in screensaver.savers where saver.active { reasons.append("\(saver.name) is active") }
            next = SessionState(reasons.isEmpty ? .unlocked : .locked, reasons: reasons)
        }
        guard next != state else { return }
        state = next
        let now = PollScheduler.now()
        if var window = changeWindow, now - window.start < changeWindowLength {
            if window.said < SessionDefaults.changesSaid {
                window.said += 1
                onReport?(.changed(next))
            } else {
                window.unsaid += 1
                onReport?(.changedQuietly(next))
            }
            changeWindow = window
        } else {
            changeWindow = (now, 1, 0)
            onReport?(.changed(next))
        }
    }
}

/// Why the session bus cannot be followed.
public struct SessionBusProblem: Error, CustomStringConvertible {
    public var description: String
}
