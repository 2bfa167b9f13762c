import BusLoop
import Glibc

/// What logind says of touchgest's session, as far as it is known.
struct LogindFacts: Hashable, Sendable {
    /// The session is in front on its seat (`Active`); nil until read.
    var active: Bool?
    /// The desktop said the screen is locked (`LockedHint`); nil until read.
    var lockedHint: Bool?
    /// logind asked the session to lock (`Lock`, e.g. `loginctl lock-session`, an idle
    /// or lid action) and neither `Unlock` nor the desktop's own unlock has followed.
    var lockRequested = false
    /// `PrepareForSleep(true)` came and `PrepareForSleep(false)` has not (or the
    /// manager's `PreparingForSleep` said so).
    var preparingForSleep = false
}

/// Where logind stands, for `doctor` and the log.
enum LogindStatus: Hashable, Sendable {
    /// The system bus is being reached, or logind asked.
    case connecting
    /// No system bus, or logind not on it, or no session of touchgest's: why.
    case missing(String)
    /// The session followed: how it was found and its object path.
    case following(session: String, path: String)
}

/// logind on the system bus: touchgest's session (`XDG_SESSION_ID`, else the session of
/// touchgest's process, else the user's graphical session), its `Active` and `LockedHint`
/// properties (`PropertiesChanged`), its `Lock` and `Unlock` signals, and the manager's
/// `PrepareForSleep`. Nothing is asked again while nothing changes: no timer, no polling.
final class LogindWatch {
    static let service = "org.freedesktop.login1"
    static let managerPath = "/org/freedesktop/login1"
    static let manager = "org.freedesktop.login1.Manager"
    static let session = "org.freedesktop.login1.Session"
    static let user = "org.freedesktop.login1.User"
    static let properties = "org.freedesktop.DBus.Properties"

    let link: BusLink
    /// `XDG_SESSION_ID`, when set.
    let sessionID: String?
    let processID: UInt32
    let userID: UInt32

    private(set) var facts = LogindFacts()
    private(set) var status = LogindStatus.connecting
    /// The facts changed.
    var onChange: (() -> Void)?
    /// The session is followed (again): what, for the log.
    var onFollowing: ((String) -> Void)?
    /// A protection is missing: why.
    var onMissing: ((String) -> Void)?

    /// logind's unique name while it is on the bus.
    private var owner: String?
    /// As a user service: the user's object, whose `Display` (the graphical session) is
    /// followed, so that a session started later, or another one, is followed too.
    private var userPath: String?
    /// The match rules of the session followed, removed when another is followed.
    private var sessionRules: [String] = []
    /// Counts connections and arrivals of logind: answers to an older one are dropped.
    private var round = 0

    init(address: String, sessionID: String?, processID: UInt32, userID: UInt32,
         connectTimeout: Duration = BusDefaults.connectTimeout, callTimeout: Duration = BusDefaults.callTimeout) {
        self.sessionID = sessionID.flatMap { $0.isEmpty ? nil : $0 }
        self.processID = processID
        self.userID = userID
        link = BusLink(name: "system bus", address: address, matchRules: [
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.service)'",
            "type='signal',sender='\(Self.service)',path='\(Self.managerPath)',interface='\(Self.manager)',member='PrepareForSleep'",
        ], connectTimeout: connectTimeout, callTimeout: callTimeout)
        link.onConnected = { [unowned self] in connected() }
        // Only logind's owner speaks for logind; the bus's own NameOwnerChanged, which says
        // who that is, the link takes from the bus alone.
        link.trusts = { [unowned self] header in owner != nil && header.sender == owner }
        link.onSignal = { [unowned self] in signal($0) }
        link.onLost = { [unowned self] why, retrying, _ in lost(why, retrying: retrying) }
    }

    func start() {
        link.start()
    }

    /// Whether logind's part is known: followed, or known to be missing, with no answer
    /// outstanding.
    var isSettled: Bool {
        switch status {
        case .connecting: false
        case .missing, .following: !link.isTrying && link.pendingCalls == 0
        }
    }

    /// The desktop said it unlocked (a screensaver went inactive): a lock logind asked
    /// for is over.
    func desktopUnlocked() {
        guard facts.lockRequested else { return }
        facts.lockRequested = false
        onChange?()
    }

    // MARK: Steps

    private func connected() {
        round += 1
        owner = nil
        // A new connection has none of the old one's match rules.
        userPath = nil
        sessionRules = []
        status = .connecting
        let round = round
        link.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner", [.string(Self.service)]) {
            [weak self] result in
            guard let self, self.round == round else { return }
            switch result {
            case let .success(arguments):
                if let owner = arguments.first?.text { arrived(owner) }
            case let .failure(error):
                missing("logind is not on the system bus at \(link.address) (\(error)); waiting for it")
            }
        }
    }

    /// logind is on the bus (again, perhaps restarted): find the session and read it.
    private func arrived(_ owner: String) {
        round += 1
        self.owner = owner
        status = .connecting
        if let sessionID {
            link.call(Self.service, Self.managerPath, Self.manager, "GetSession", [.string(sessionID)], reply: current { [unowned self] result in
                switch result {
                case let .success(arguments):
                    if let path = arguments.first?.text { follow(path, found: "session \(sessionID) (XDG_SESSION_ID)") }
                case let .failure(error) where error.isNoReply:
                    hung(error)
                case let .failure(error):
                    missing("logind has no session \(sessionID), the one XDG_SESSION_ID names (\(error))")
                }
            })
            return
        }
        link.call(Self.service, Self.managerPath, Self.manager, "GetSessionByPID", [.uint32(processID)], reply: current { [unowned self] result in
            switch result {
            case let .success(arguments):
                if let path = arguments.first?.text { follow(path, found: "the session of touchgest's process") }
            case let .failure(byProcess) where byProcess.isNoReply:
                hung(byProcess)
            case let .failure(byProcess):
                // A user service (systemd --user) runs outside any session: the user's
                // graphical session is the one whose screen matters.
                displaySession(after: byProcess)
            }
        })
    }

    private func displaySession(after byProcess: BusError) {
        let noSession = "logind knows no session for touchgest (pid \(processID): \(byProcess))"
        link.call(Self.service, Self.managerPath, Self.manager, "GetUser", [.uint32(userID)], reply: current { [unowned self] result in
            if case let .failure(error) = result, error.isNoReply { return hung(error) }
            guard case let .success(arguments) = result, let path = arguments.first?.text else {
                missing("\(noSession), nor a user \(userID)")
                return
            }
            if userPath != path {
                userPath = path
                link.addMatch("type='signal',sender='\(Self.service)',path='\(path)',interface='\(Self.properties)',member='PropertiesChanged',arg0='\(Self.user)'")
            }
            readDisplay(noSession)
        })
    }

    /// Follows the user's graphical session (`Display`), or says there is none; `why`
    /// begins the message.
    private func readDisplay(_ why: String) {
        guard let userPath else { return }
        link.call(Self.service, userPath, Self.properties, "Get", [.string(Self.user), .string("Display")], reply: current { [unowned self] result in
            guard case let .success(arguments) = result, case let .structure(members)? = arguments.first?.unwrapped,
                  members.count == 2, let id = members[0].text, let path = members[1].text, path != "/" else {
                missing("\(why), and user \(userID) has no graphical session; waiting for one")
                return
            }
            if case let .following(_, followed) = status, followed == path { return }
            follow(path, found: "user \(userID)'s graphical session \(id)")
        })
    }

    /// Follows the session at `path`: its signals first, then its properties, so that no
    /// change between the two is lost.
    private func follow(_ path: String, found: String) {
        let round = round
        for rule in sessionRules { link.removeMatch(rule) }
        sessionRules = [
            "type='signal',sender='\(Self.service)',path='\(path)',interface='\(Self.properties)',member='PropertiesChanged',arg0='\(Self.session)'",
            "type='signal',sender='\(Self.service)',path='\(path)',interface='\(Self.session)'",
        ]
        for rule in sessionRules { link.addMatch(rule) }
        // A lock logind asked for belonged to the session followed before.
        if case let .following(_, before) = status, before != path { facts.lockRequested = false }
        status = .following(session: found, path: path)
        var read = 0
        var failure: BusError?
        let done = { [weak self] in
            guard let self, self.round == round else { return }
            read += 1
            guard read == 2 else { return }
            if let failure, failure.isNoReply {
                hung(failure)
            } else if let failure {
                missing("logind did not tell the state of \(found), \(path) (\(failure))")
            } else {
                onFollowing?("logind: \(found), \(path), on the system bus at \(link.address)")
                onChange?()
            }
        }
        link.call(Self.service, path, Self.properties, "GetAll", [.string(Self.session)]) { [weak self] result in
            guard let self, self.round == round else { return }
            switch result {
            case let .success(arguments): apply(arguments.first?.properties ?? [:])
            case let .failure(error): failure = error
            }
            done()
        }
        link.call(Self.service, Self.managerPath, Self.properties, "Get", [.string(Self.manager), .string("PreparingForSleep")]) {
            [weak self] result in
            guard let self, self.round == round else { return }
            // An old logind without the property: only the signal tells.
            if case let .success(arguments) = result, let preparing = arguments.first?.boolean { facts.preparingForSleep = preparing }
            done()
        }
    }

    /// `body`, called only if no new connection or arrival of logind came in between.
    private func current(_ body: @escaping (Result<[BusValue], BusError>) -> Void) -> (Result<[BusValue], BusError>) -> Void {
        let round = round
        return { [weak self] result in if let self, self.round == round { body(result) } }
    }

    private func missing(_ why: String) {
        status = .missing(why)
        onMissing?(why)
    }

    /// logind owns its name and does not answer: hung, or busy beyond reason. Said, since
    /// until it answers nothing it says is known; it is asked again when it comes back on
    /// the bus (a restarted logind says so through `NameOwnerChanged`).
    private func hung(_ error: BusError) {
        missing("logind is on the system bus at \(link.address) but does not answer (\(error.message)); waiting for it to come back")
    }

    private func lost(_ why: String, retrying: Bool) {
        round += 1
        owner = nil
        if retrying {
            // The screen is most likely as it was: keep what was known until the bus is back.
            status = .missing(why)
            onMissing?("\(why); keeping the last state known until it is back")
        } else {
            missing(why)
        }
    }

    // MARK: Signals

    private func signal(_ signal: BusSignal) {
        switch (signal.interface, signal.member) {
        case ("org.freedesktop.DBus", "NameOwnerChanged"):
            guard signal.arguments.count == 3, signal.arguments[0].text == Self.service, let new = signal.arguments[2].text else { return }
            if new.isEmpty {
                round += 1
                owner = nil
                missing("logind left the system bus at \(link.address); keeping the last state known until it is back")
            } else {
                arrived(new)
            }
        case (Self.manager, "PrepareForSleep"):
            guard signal.sender == owner, let going = signal.arguments.first?.boolean else { return }
            facts.preparingForSleep = going
            onChange?()
        case (Self.properties, "PropertiesChanged") where signal.path == userPath && signal.sender == owner:
            // The user's graphical session changed: one started, or another took its place.
            guard signal.arguments.count >= 2, signal.arguments[0].text == Self.user else { return }
            let invalidated = signal.arguments.count > 2 ? signal.arguments[2].strings : []
            if signal.arguments[1].properties["Display"] != nil || invalidated.contains("Display") {
                readDisplay("logind knows no session for touchgest's process")
            }
        case (Self.properties, "PropertiesChanged"):
            guard signal.sender == owner, case let .following(_, path) = status, signal.path == path,
                  signal.arguments.count >= 2, signal.arguments[0].text == Self.session else { return }
            apply(signal.arguments[1].properties)
            let invalidated = signal.arguments.count > 2 ? signal.arguments[2].strings : []
            if invalidated.contains("Active") || invalidated.contains("LockedHint") { reread(path) }
            onChange?()
        case (Self.session, "Lock"), (Self.session, "Unlock"):
            guard signal.sender == owner, case let .following(_, path) = status, signal.path == path else { return }
            facts.lockRequested = signal.member == "Lock"
            onChange?()
        default:
            break
        }
    }

    /// logind said a property changed without its value: ask for it.
    private func reread(_ path: String) {
        let round = round
        link.call(Self.service, path, Self.properties, "GetAll", [.string(Self.session)]) { [weak self] result in
            guard let self, self.round == round, case let .success(arguments) = result, let properties = arguments.first?.properties
            else { return }
            apply(properties)
            onChange?()
        }
    }

    private func apply(_ properties: [String: BusValue]) {
        if let active = properties["Active"]?.boolean { facts.active = active }
        if let hint = properties["LockedHint"]?.boolean {
            // The desktop said it unlocked: a lock logind asked for is over too.
            if facts.lockedHint == true && !hint { facts.lockRequested = false }
            facts.lockedHint = hint
        }
    }
}
