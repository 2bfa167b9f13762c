import BusLoop
import Glibc
import PollLoop
import TouchGestures

/// The names touchgest and its desktop helpers speak on the session bus.
public enum DBusFocusNames {
    /// The name touchgest owns for KWin's script to call (KDE only).
    public static let service = "org.touchgest.Focus"
    /// The object: touchgest's for KWin's script, the extension's in GNOME Shell.
    public static let path = "/org/touchgest/Focus"
    /// KDE: touchgest's method `WindowActivated(s class, s caption)`. GNOME: the
    /// extension's signal `FocusChanged(s wm_class, s title)` and method `GetFocus() -> (ss)`.
    /// An empty class is no window.
    public static let interface = "org.touchgest.Focus"
    /// The plugin name touchgest loads its KWin script under.
    public static let kwinScript = "touchgest-focus"
    /// The GNOME Shell extension's uuid.
    public static let gnomeExtension = "touchgest-focus@touchgest.org"
    /// GNOME Shell's interface for its extensions, on `/org/gnome/Shell`.
    public static let gnomeExtensions = "org.gnome.Shell.Extensions"
    /// The extension's object for touchgest's input, and the modifiers held: methods
    /// `WatchModifiers() -> (u mask)`, `UnwatchModifiers()`, and the signal
    /// `ModifiersChanged(u mask)` it sends to its watchers alone.
    public static let inputPath = "/org/touchgest/Input"
    public static let inputInterface = "org.touchgest.Input"
}

/// A desktop that tells the focus over D-Bus.
public enum DBusDesktop: Hashable, Sendable {
    /// KDE Plasma: touchgest loads `script` into KWin (`org.kde.KWin /Scripting`
    /// `loadScript`, `start`), and the script calls `WindowActivated` back.
    case kde(script: String)
    /// GNOME: the touchgest-focus shell extension signals the focus.
    case gnome

    var name: String {
        switch self {
        case .kde: "kde"
        case .gnome: "gnome"
        }
    }

    /// The name the desktop owns on the session bus.
    var busName: String {
        switch self {
        case .kde: "org.kde.KWin"
        case .gnome: "org.gnome.Shell"
        }
    }

    var shown: String {
        switch self {
        case .kde: "KWin"
        case .gnome: "GNOME Shell"
        }
    }
}

/// The focused window on KDE Plasma and GNOME, over the session bus (``BusLink``).
///
/// It waits only on the bus connection: while connected it has no deadline, and the bus
/// says when the desktop leaves or comes back (`NameOwnerChanged`), so no wake-up while
/// nothing changes. When the bus itself goes away the link connects again with a growing
/// wait (``FocusDefaults/reconnect``). Every call is asynchronous.
///
/// On GNOME, while rules want modifiers (``followModifiers(_:)``), it asks the extension to
/// tell it the modifier keys held (`WatchModifiers`), again each time the extension or the
/// shell comes back, and takes `ModifiersChanged` only from the shell's unique name and
/// only addressed to touchgest: the extension never broadcasts them.
public final class DBusFocusProvider: FocusProvider {
    /// What touchgest asks the desktop when a wait ends.
    private enum Ask {
        /// GNOME: the extension, for the focus.
        case focus
        /// KWin: to load the script (KWin was not ready for it).
        case script
        /// KWin: whether it still has the script, which has not called back.
        case scriptLoaded
    }

    public let which: DBusDesktop
    public var desktop: String { which.name }
    public let reporting = FocusReporting()
    /// The session bus address, `DBUS_SESSION_BUS_ADDRESS` (else `$XDG_RUNTIME_DIR/bus`).
    public let address: String
    let link: BusLink

    /// The desktop's unique name while it is on the bus.
    private var owner: String?
    /// The desktop answered: `.connected` was reported.
    private var isFollowing = false
    /// When to ask the desktop again, and what: GNOME Shell came onto the bus and its
    /// extensions may not be loaded yet (the extension is asked for the focus then, if it
    /// has not said it by itself); KWin is on the bus without its scripting object yet;
    /// KWin started the script, which has not called back yet.
    private var askAt: Timestamp?
    private var ask = Ask.focus
    /// The wait before KWin is asked again, doubling while it is not ready.
    private var askWaits = Backoff(FocusDefaults.reconnect)
    /// Counts connections and arrivals of the desktop: answers to an older one are dropped.
    private var round = 0
    /// Whether rules want the modifiers held (``followModifiers(_:)``; GNOME only).
    private var modifiersWanted = false

    /// touchgest's unique name on the session bus while connected (`:1.42`).
    var uniqueName: String? { link.uniqueName }

    public init(_ which: DBusDesktop, environment: [String: String], connectTimeout: Duration = FocusDefaults.connectTimeout) {
        self.which = which
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty {
            self.address = address
        } else if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            self.address = "unix:path=\(runtime)/bus"
        } else {
            self.address = ""
        }
        var rules = ["type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(which.busName)'"]
        var owned: String?
        switch which {
        case .gnome:
            rules.append("type='signal',sender='\(which.busName)',path='\(DBusFocusNames.path)',interface='\(DBusFocusNames.interface)',member='FocusChanged'")
            // The shell's word when the extension is enabled, disabled, refused or fails.
            rules.append("type='signal',sender='\(which.busName)',path='/org/gnome/Shell',interface='\(DBusFocusNames.gnomeExtensions)',"
                         + "member='ExtensionStateChanged',arg0='\(DBusFocusNames.gnomeExtension)'")
        case .kde:
            owned = DBusFocusNames.service
        }
        link = BusLink(name: "session bus", address: address, matchRules: rules, ownedName: owned, bounds: FocusDefaults.busBounds,
                       policy: FocusDefaults.reconnect, connectTimeout: connectTimeout)
        link.onConnected = { [unowned self] in connected() }
        // Only the desktop speaks for the desktop; the bus's NameOwnerChanged, which says
        // who that is, the link takes from the bus alone.
        link.trusts = { [unowned self] header in owner != nil && header.sender == owner }
        // The extension tells the modifiers to its watchers alone: a unicast signal.
        link.takesAddressed = { [which] header in
            which == .gnome && header.path == DBusFocusNames.inputPath && header.interface == DBusFocusNames.inputInterface
                && header.member == "ModifiersChanged"
        }
        link.onSignal = { [unowned self] in signal($0) }
        link.onMethodCall = { [unowned self] header, arguments in methodCall(header, arguments) }
        link.onLost = { [unowned self] why, _, broke in
            reset()
            reporting.lostOnce(broke ? why + "; trying again" : why)
        }
    }

    public func start() {
        guard !address.isEmpty else {
            reporting.lostOnce("no session bus: DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are not set")
            return
        }
        link.start()
    }

    // MARK: PollSource

    public func collect(_ interest: inout PollInterest) {
        link.collect(&interest)
    }

    public var nextDeadline: Timestamp? {
        earliest(link.deadline, askAt)
    }

    public func handleDeadlines() {
        link.handleDeadlines()
        guard link.isConnected, let due = askAt, due <= PollScheduler.now() else { return }
        askAt = nil
        switch ask {
        case .focus: askForFocus()
        case .script: loadScript()
        case .scriptLoaded: askIfScriptLoaded()
        }
    }

    public func handleReadable(_ fd: Int32) {
        if link.owns(fd) { link.handleReadable() }
    }

    // MARK: The desktop

    /// What belonged to a connection, forgotten with it.
    private func reset() {
        round += 1
        owner = nil
        isFollowing = false
        askAt = nil
        askWaits = Backoff(FocusDefaults.reconnect)
        reporting.forgetFocus()
    }

    /// The bus is reached: ask who owns the desktop's name, and follow it.
    private func connected() {
        reset()
        call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner", [which.busName]) { [unowned self] result in
            switch result {
            case let .failure(error):
                desktopGone("\(which.shown) is not on the session bus at \(address) (\(error)); waiting for it")
            case let .success(arguments):
                if let owner = arguments.first?.text { desktopArrived(owner) }
            }
        }
    }

    /// The desktop left the bus (`left`) or refused: nothing to do until the bus says it
    /// is back, or the extension signals.
    private func desktopGone(_ why: String, left: Bool = false) {
        if left {
            round += 1
            owner = nil
            askWaits = Backoff(FocusDefaults.reconnect)
        }
        isFollowing = false
        askAt = nil
        reporting.forgetFocus()
        // Each cause is said, once: these are states the bus told, not tries that fail.
        reporting.lost(why)
    }

    private func following() {
        guard !isFollowing else { return }
        isFollowing = true
        askAt = nil
        askWaits = Backoff(FocusDefaults.reconnect)
        var text = "\(desktop): \(which.shown) on the session bus at \(address)"
        if case let .kde(script) = which { text += ", running \(script)" }
        reporting.connected(text)
        // The extension answered: it is there (again: enabled anew, or in a new shell, it
        // has forgotten its watchers; GNOME Shell says its disabling first) to be asked for
        // the modifiers.
        watchModifiers()
    }

    /// The desktop is on the bus under `owner`; `starting` when the bus just said it came.
    private func desktopArrived(_ owner: String, starting: Bool = false) {
        round += 1
        self.owner = owner
        switch which {
        case .kde:
            loadScript()
        case .gnome where starting:
            // GNOME Shell takes its name before it loads its extensions: asked now, the
            // extension would be missing. Once loaded it says the focus itself
            // (FocusChanged, ExtensionStateChanged); if not, it is asked after a while.
            askAt = PollScheduler.now() + FocusDefaults.helperGrace
            ask = .focus
        case .gnome:
            askForFocus()
        }
    }

    // MARK: KWin

    private func loadScript() {
        guard case let .kde(script) = which else { return }
        // A script of the same name from an earlier touchgest is replaced; unloading one
        // that is not there is false, or an error on older KWins.
        call(which.busName, "/Scripting", "org.kde.kwin.Scripting", "unloadScript", [DBusFocusNames.kwinScript]) { [unowned self] _ in
            call(which.busName, "/Scripting", "org.kde.kwin.Scripting", "loadScript", [script, DBusFocusNames.kwinScript]) { [unowned self] in
                scriptLoaded(script, $0)
            }
        }
    }

    private func scriptLoaded(_ script: String, _ result: Result<[BusValue], BusError>) {
        switch result {
        case let .failure(error) where error.name == "org.freedesktop.DBus.Error.UnknownObject" || error.name == "org.freedesktop.DBus.Error.UnknownMethod":
            kwinNotReady("KWin on the session bus at \(address) cannot load scripts yet (\(error))")
        case let .failure(error):
            desktopGone("KWin did not load \(script): \(error)")
        case let .success(arguments):
            let id = arguments.first?.number.map { Int($0) }
            guard let id, id >= 0 else {
                desktopGone("KWin did not load \(script) (id \(arguments.first.map(\.shown) ?? "none")): is the file there and readable?")
                return
            }
            call(which.busName, "/Scripting", "org.kde.kwin.Scripting", "start", []) { [unowned self] result in
                if case let .failure(error) = result {
                    desktopGone("KWin did not start its scripts: \(error)")
                } else if !isFollowing {
                    // The script calls back as soon as it runs (following() then). KWin 5.27
                    // gives an id to a file it cannot read and drops it when it starts it,
                    // saying nothing: silence is asked about after a while.
                    askAt = PollScheduler.now() + FocusDefaults.helperGrace
                    ask = .scriptLoaded
                }
            }
        }
    }

    private func askIfScriptLoaded() {
        guard case let .kde(script) = which else { return }
        call(which.busName, "/Scripting", "org.kde.kwin.Scripting", "isScriptLoaded", [DBusFocusNames.kwinScript]) { [unowned self] result in
            if case let .success(arguments) = result, arguments.first?.boolean == true {
                desktopGone("KWin runs \(script), but the script has not called touchgest back")
            } else {
                desktopGone("KWin could not run \(script): is the file there, and can KWin read it? (KWin's log says why)")
            }
        }
    }

    /// KWin is on the bus but has not exported its scripting object yet (it takes its
    /// name first): asked again after a growing wait, and said once the wait is long.
    private func kwinNotReady(_ why: String) {
        let delay = askWaits.afterFailedTry()
        if delay >= FocusDefaults.reconnect.maximumRetry { desktopGone(why + "; trying again") }
        askAt = PollScheduler.now() + delay
        ask = .script
        isFollowing = false
    }

    // MARK: GNOME Shell

    private func askForFocus() {
        call(which.busName, DBusFocusNames.path, DBusFocusNames.interface, "GetFocus", []) { [unowned self] result in
            switch result {
            case let .success(arguments):
                focus(arguments)
            case let .failure(focusError):
                // The shell says why, if it can.
                call(which.busName, "/org/gnome/Shell", DBusFocusNames.gnomeExtensions, "GetExtensionInfo",
                     [DBusFocusNames.gnomeExtension]) { [unowned self] result in
                    if case let .success(arguments) = result, let info = arguments.first, let problem = GnomeExtension(info).problem {
                        desktopGone(problem)
                    } else {
                        desktopGone("GNOME Shell at \(address) does not answer for the focus (\(focusError.trimmed)): "
                                    + "enable the extension: \(GnomeExtension.enableCommand)")
                    }
                }
            }
        }
    }

    /// GNOME Shell says the extension changed state.
    private func extensionChanged(_ shellSays: GnomeExtension) {
        if shellSays.state == .enabled {
            askForFocus()
        } else if let problem = shellSays.problem {
            desktopGone(problem)
        }
    }

    // MARK: Modifiers (GNOME)

    public func followModifiers(_ wanted: Bool) {
        guard which == .gnome, wanted != modifiersWanted else { return }
        modifiersWanted = wanted
        if wanted {
            watchModifiers()
        } else if owner != nil {
            call(which.busName, DBusFocusNames.inputPath, DBusFocusNames.inputInterface, "UnwatchModifiers", []) { _ in }
        }
    }

    /// Asks the extension, once it has answered, to tell touchgest the modifiers held: the
    /// answer is their mask now, and `ModifiersChanged` follows each change.
    private func watchModifiers() {
        guard which == .gnome, modifiersWanted, isFollowing, owner != nil else { return }
        call(which.busName, DBusFocusNames.inputPath, DBusFocusNames.inputInterface, "WatchModifiers", []) { [unowned self] result in
            guard modifiersWanted else { return }
            switch result {
            case let .success(arguments):
                if let mask = arguments.first?.number.flatMap({ UInt32(exactly: $0) }) { reporting.held(GnomeExtension.modifiers(mask)) }
            case let .failure(error) where error.name == "org.freedesktop.DBus.Error.UnknownMethod"
                || error.name == "org.freedesktop.DBus.Error.UnknownObject":
                reporting.modifiersUnknown(GnomeExtension.tooOldForModifiers)
            case let .failure(error):
                reporting.modifiersUnknown("GNOME Shell's extension does not tell touchgest the modifier keys held (\(error.trimmed)), "
                                           + "so rules with modifiers do not fire")
            }
        }
    }

    // MARK: Messages

    private func signal(_ signal: BusSignal) {
        switch (signal.interface, signal.member) {
        case (BusLink.busName, "NameOwnerChanged"):
            guard signal.arguments.count == 3, signal.arguments[0].text == which.busName, let new = signal.arguments[2].text else { return }
            if new.isEmpty {
                desktopGone("\(which.shown) left the session bus at \(address); waiting for it", left: true)
            } else {
                desktopArrived(new, starting: true)
            }
        case (DBusFocusNames.interface, "FocusChanged") where which == .gnome:
            // The extension was enabled after touchgest asked, or the focus changed.
            focus(signal.arguments)
        case (DBusFocusNames.inputInterface, "ModifiersChanged") where which == .gnome:
            // Only the shell's unique name gets here (``BusLink/trusts``), addressed to touchgest.
            guard modifiersWanted, signal.path == DBusFocusNames.inputPath,
                  let mask = signal.arguments.first?.number.flatMap({ UInt32(exactly: $0) }) else { return }
            reporting.held(GnomeExtension.modifiers(mask))
        case (DBusFocusNames.gnomeExtensions, "ExtensionStateChanged") where which == .gnome:
            guard signal.arguments.count == 2, signal.arguments[0].text == DBusFocusNames.gnomeExtension else { return }
            extensionChanged(GnomeExtension(signal.arguments[1]))
        default:
            break
        }
    }

    /// KWin's script calls `WindowActivated(class, caption)`: taken from KWin only.
    private func methodCall(_ header: BusHeader, _ arguments: () -> [BusValue]?) -> Bool {
        guard case .kde = which, owner != nil, header.sender == owner, header.path == DBusFocusNames.path,
              header.interface == DBusFocusNames.interface, header.member == "WindowActivated", let values = arguments()
        else { return false }
        focus(values)
        return true
    }

    private func focus(_ arguments: [BusValue]) {
        guard arguments.count >= 2, let appID = arguments[0].text, let title = arguments[1].text else { return }
        following()
        reporting.focused(appID.isEmpty ? .noWindow : .window(appID: appID, title: title))
    }

    /// Calls `method` with string arguments; `reply` gets the answer only if nothing
    /// changed in between (no new connection, no new desktop).
    private func call(_ destination: String, _ path: String, _ interface: String, _ method: String, _ arguments: [String],
                      reply: @escaping (Result<[BusValue], BusError>) -> Void) {
        let round = round
        link.call(destination, path, interface, method, arguments.map { .string($0) }) { [weak self] result in
            guard let self, self.round == round else { return }
            reply(result)
        }
    }
}

extension BusError {
    /// The error without the spaces a peer left at its end, for the log.
    var trimmed: String {
        String(description.reversed().drop { $0.isWhitespace }.reversed())
    }
}
