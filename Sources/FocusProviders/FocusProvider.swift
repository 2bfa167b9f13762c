import BusLoop
import PollLoop
import TextWire
import TouchGestures

/// What has the keyboard focus, as a desktop reports it.
public enum WindowFocus: Hashable, Sendable, CustomStringConvertible {
    /// Nothing: an empty workspace, or the desktop's own surface.
    case noWindow
    /// `appID` is the Wayland app id (Hyprland: the class) or the X11 WM_CLASS class.
    case window(appID: String, title: String)

    public var description: String {
        switch self {
        case .noWindow: "no window"
        case let .window(appID, title): "\(appID) \"\(title)\""
        }
    }
}

/// What a focus provider tells the daemon, in order.
public enum FocusReport: Hashable, Sendable {
    /// The provider reached its desktop; the text says which and where, for the log.
    case connected(String)
    /// The focus changed (and once just after connecting).
    case focused(WindowFocus)
    /// The desktop went away or never answered; the text says why. The provider tries
    /// again by itself (``FocusDefaults``) until it comes back.
    case lost(String)
    /// The modifier keys held now (and once just after connecting), while followed
    /// (``FocusProvider/followModifiers(_:)``): never which other key was pressed.
    case modifiers(KeyModifierFlags)
    /// The desktop could tell the modifier keys held but does not (an old GNOME Shell
    /// extension, a refusal): the text says why and what to update. Said once per cause;
    /// until they are told, no rule that wants a modifier held fires.
    case modifiersUnknown(String)
}

extension FocusReport: CustomStringConvertible {
    /// The one line the log of `touchgest run` and the text of `touchgest debug` give this
    /// report: `focus: connected to sway at /run/user/1000/sway-ipc.sock`, `focus: no
    /// window`, `focus: firefox "Mail"`, `focus: unavailable: WHY`. A window's title is
    /// the window's to choose: whoever prints the line escapes its control characters.
    public var description: String {
        switch self {
        case let .connected(text): "focus: connected to \(text)"
        case .focused(.noWindow): "focus: no window"
        case let .focused(.window(appID, title)): "focus: \(appID) \"\(title)\""
        case let .lost(why): "focus: unavailable: \(why)"
        case let .modifiers(held): "modifiers: \(held)"
        case let .modifiersUnknown(why): "modifiers: unavailable: \(why)"
        }
    }
}

/// One desktop's source of the focused window: a ``PollSource`` in the daemon's loop
/// that waits on the desktop's events and never polls while connected.
public protocol FocusProvider: PollSource {
    /// The desktop, e.g. `sway`, `hyprland`.
    var desktop: String { get }
    /// What it said last, and whom it tells.
    var reporting: FocusReporting { get }
    /// Connects now; on failure reports ``FocusReport/lost(_:)`` and tries again later.
    func start()
    /// Follows the modifier keys the desktop holds (``FocusReport/modifiers(_:)``) or stops:
    /// followed only while rules want them, so that a desktop tells touchgest nothing of
    /// the keyboard otherwise. Providers whose desktop does not tell ignore it
    /// (``FocusProviders/modifierSource(environment:)`` says which do).
    func followModifiers(_ wanted: Bool)
}

extension FocusProvider {
    public func followModifiers(_ wanted: Bool) {}
}

extension FocusProvider {
    /// Receives every report; set it before ``start()``.
    public var onReport: ((FocusReport) -> Void)? {
        get { reporting.onReport }
        set { reporting.onReport = newValue }
    }
}

/// The tunables of reconnecting, with their reasons.
public enum FocusDefaults {
    /// How a provider connects again (``ReconnectPolicy`` says what each wait means).
    /// First wait 100 ms: a compositor that restarts takes longer to make its socket.
    /// Longest wait while the desktop is gone 2 s: how late at worst the rules for
    /// applications work again after it comes back, one wake-up per this while it is gone
    /// and none while connected. Stable after 10 s: a shorter connection (the desktop
    /// takes it and drops it, sends garbage or floods) doubles the wait, up to 60 s with
    /// no log line. A desktop may start after touchgest, so one never reached is tried too.
    public static let reconnect = ReconnectPolicy(firstRetry: .milliseconds(100), maximumRetry: .seconds(2),
                                                  stableConnection: .seconds(10), maximumFlappingRetry: .seconds(60),
                                                  triesUnreached: true)
    /// What touchgest reads of one message on the session bus from the desktop: a focus is
    /// two strings, which may be long (a title is the window's to choose, and is cut to
    /// ``TouchGestures/maximumOutsideTextBytes`` after it is read); GNOME Shell's
    /// extension info is a dictionary of a few dozen entries.
    public static let busBounds = BusValue.Bounds(values: 4_096, depth: 16, stringBytes: maximumMessageBytes)
    /// How long a desktop may take to accept a connection and answer its first requests
    /// (X11's setup and atoms, the bus's Hello): a live one takes milliseconds, so one
    /// that takes this long is stuck, and is tried again later.
    public static let connectTimeout: Duration = .seconds(5)
    /// Largest message a desktop may send (sway's GET_TREE with hundreds of windows is a
    /// few MB); more is a broken peer, and the connection is dropped.
    public static let maximumMessageBytes = 16 << 20
    /// Most bytes a socket provider reads in one wake-up (one read): about 500 small
    /// events, parsed in well under a millisecond in a release build (about 25 ms in a
    /// debug build); then the loop goes round, input first. sway's tree of a few MB
    /// takes a few hundred rounds of a few microseconds each.
    public static let readBudget = 16 << 10
    /// Bytes read after which the heap is trimmed each time the socket is found empty:
    /// about 300 ordinary focus events, so a trim (well under a millisecond) is rare,
    /// and the last read of a burst is followed by one.
    public static let trimAfterBytes = 64 << 10
    /// Bytes a desktop may send without its socket ever being found empty before it
    /// counts as flooding and its connection is dropped: twice the largest message, so
    /// that no honest message, however large, is taken for a flood.
    public static let floodBytes = 2 * maximumMessageBytes
    /// How long touchgest waits for the desktop's helper to speak by itself: after GNOME
    /// Shell comes onto the bus, for its extension (the shell takes its name before it
    /// loads extensions: 1.2 s later on 43.9 headless); after KWin starts touchgest's
    /// script, for its first call. A helper that is missing or broken is said this late.
    public static let helperGrace: Duration = .seconds(3)
}

extension Duration {
    var microseconds: UInt64 {
        let (seconds, attoseconds) = components
        return UInt64(max(0, seconds)) * 1_000_000 + UInt64(max(0, attoseconds)) / 1_000_000_000_000
    }
}
