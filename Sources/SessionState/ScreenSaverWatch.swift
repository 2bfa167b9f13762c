import BusLoop
/// One screensaver interface on the session bus and what is known of it.
struct ScreenSaver: Hashable, Sendable {
    /// The bus name: `org.freedesktop.ScreenSaver`, `org.gnome.ScreenSaver`,
    /// `org.gnome.Shell.ScreenShield`.
    let name: String
    let path: String
    /// The interface of `GetActive` and `ActiveChanged`.
    let interface: String
    /// Its owner's unique name while it is on the bus.
    var owner: String?
    /// It said it is active (the screen is locked or blanked by it).
    var active = false
    /// It is on the bus but did not answer `GetActive`: why. Some programs own the name
    /// only to offer `Inhibit`, and never say when the screen locks.
    var problem: String?

    init(name: String, path: String, interface: String? = nil) {
        self.name = name
        self.path = path
        self.interface = interface ?? name
    }

    /// Whether it is on the bus and answers.
    var tells: Bool { owner != nil && problem == nil }

    /// The interfaces desktops use: KDE Plasma (and others) the freedesktop one; GNOME
    /// Shell its own, under its own name, `org.gnome.Shell.ScreenShield`. Since GNOME 41
    /// the name `org.gnome.ScreenSaver` belongs to a small service started on demand that
    /// passes the shell's along; touchgest starts no service, so it follows the shell's.
    static let known = [
        ScreenSaver(name: "org.freedesktop.ScreenSaver", path: "/org/freedesktop/ScreenSaver"),
        ScreenSaver(name: "org.gnome.ScreenSaver", path: "/org/gnome/ScreenSaver"),
        ScreenSaver(name: "org.gnome.Shell.ScreenShield", path: "/org/gnome/ScreenSaver", interface: "org.gnome.ScreenSaver"),
    ]
}

/// `org.freedesktop.ScreenSaver`, `org.gnome.ScreenSaver` and GNOME Shell's
/// `org.gnome.Shell.ScreenShield` on the session bus: `GetActive` when one comes on the
/// bus, then its `ActiveChanged` signals, taken only from the name's owner. No timer, no
/// polling.
final class ScreenSaverWatch {
    let link: BusLink
    private(set) var savers = ScreenSaver.known
    /// Whether the bus was reached and every name asked about has been answered.
    private(set) var asked = false
    /// Why the session bus cannot be followed, while it cannot.
    private(set) var problem: String?

    /// A screensaver's state changed: the one that went from active to inactive, if any.
    var onChange: ((_ wentInactive: Bool) -> Void)?
    /// A screensaver is followed: which.
    var onFollowing: ((String) -> Void)?
    /// The session bus cannot be followed: why.
    var onMissing: ((String) -> Void)?
    private var round = 0
    /// `ActiveChanged` signals taken from each screensaver: a `GetActive` that fails after
    /// one came does not undo what it said.
    private var signals = [Int](repeating: 0, count: ScreenSaver.known.count)

    init(address: String, connectTimeout: Duration = BusDefaults.connectTimeout, callTimeout: Duration = BusDefaults.callTimeout) {
        var rules: [String] = []
        for saver in ScreenSaver.known {
            rules.append("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(saver.name)'")
            rules.append("type='signal',sender='\(saver.name)',interface='\(saver.interface)',member='ActiveChanged'")
        }
        link = BusLink(name: "session bus", address: address, matchRules: rules, connectTimeout: connectTimeout,
                       callTimeout: callTimeout)
        link.onConnected = { [unowned self] in connected() }
        // Only a screensaver's owner speaks for it.
        link.trusts = { [unowned self] header in savers.contains { $0.owner == header.sender } }
        link.onSignal = { [unowned self] in signal($0) }
        link.onLost = { [unowned self] why, retrying, _ in
            round += 1
            asked = false
            problem = why
            onMissing?(retrying ? "\(why); keeping the last state known until it is back" : why)
        }
    }

    func start() {
        link.start()
    }

    var isSettled: Bool {
        (asked || problem != nil) && !link.isTrying && link.pendingCalls == 0
    }

    var anyActive: Bool { savers.contains(where: \.active) }

    private func connected() {
        round += 1
        problem = nil
        let round = round
        var answered = 0
        for index in savers.indices {
            let name = savers[index].name
            link.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner", [.string(name)]) {
                [weak self] result in
                guard let self, self.round == round else { return }
                answered += 1
                if answered == savers.count { asked = true }
                if case let .success(arguments) = result, let owner = arguments.first?.text {
                    arrived(index, owner)
                } else {
                    changed(index) { $0.owner = nil; $0.active = false; $0.problem = nil }
                }
            }
        }
    }

    /// `try`: the how-manieth `GetActive` this owner is asked (``SessionDefaults/getActiveTries``).
    private func arrived(_ index: Int, _ owner: String, try attempt: Int = 1) {
        if attempt == 1 { changed(index) { $0.owner = owner; $0.problem = nil } }
        let saver = savers[index]
        let round = round
        let signalsBefore = signals[index]
        link.call(saver.name, saver.path, saver.interface, "GetActive") { [weak self] result in
            guard let self, self.round == round, savers[index].owner == owner else { return }
            switch result {
            case let .success(arguments):
                // The owner answers after the signals it sent before: the answer is newest.
                changed(index) { $0.active = arguments.first?.boolean ?? false; $0.problem = nil }
                onFollowing?("\(saver.name) on the session bus at \(link.address)")
            case .failure where signals[index] != signalsBefore:
                // It said by a signal meanwhile (the bus gave up on the call, say): it tells.
                break
            case let .failure(error) where error.isNoReply && attempt < SessionDefaults.getActiveTries:
                // Busy, not silent: asked again at once (one call per timeout at most).
                changed(index) { $0.active = false; $0.problem = "\(error)" }
                arrived(index, owner, try: attempt + 1)
            case let .failure(error):
                changed(index) { $0.active = false; $0.problem = "\(error)" }
            }
        }
    }

    private func changed(_ index: Int, _ body: (inout ScreenSaver) -> Void) {
        let before = savers[index]
        body(&savers[index])
        guard savers[index] != before else { return }
        onChange?(before.active && !savers[index].active)
    }

    private func signal(_ signal: BusSignal) {
        // The match rules ask the bus for the owner's signals only, and the link takes
        // NameOwnerChanged from the bus only and the rest from an owner only; the owner of
        // this very interface is checked here.
        if signal.interface == BusLink.busName && signal.member == "NameOwnerChanged" {
            guard signal.arguments.count == 3, let name = signal.arguments[0].text, let new = signal.arguments[2].text,
                  let index = savers.firstIndex(where: { $0.name == name }) else { return }
            if new.isEmpty {
                changed(index) { $0.owner = nil; $0.active = false; $0.problem = nil }
            } else {
                arrived(index, new)
            }
            return
        }
        guard signal.member == "ActiveChanged",
              let index = savers.firstIndex(where: { $0.interface == signal.interface && $0.owner == signal.sender }),
              let active = signal.arguments.first?.boolean else { return }
        // One that answered GetActive with an error (a shell too busy as it started, say)
        // but says when it changes does tell: followed from now on.
        signals[index] += 1
        let wasSilent = savers[index].problem != nil
        changed(index) { $0.active = active; $0.problem = nil }
        if wasSilent { onFollowing?("\(savers[index].name) on the session bus at \(link.address)") }
    }
}
