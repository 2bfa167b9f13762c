import PollLoop
import TextWire
import TouchGestures

/// What every focus provider keeps besides its connection to the desktop: what it last
/// reported, so that a focus is reported when it changes and an outage once, with its end
/// once. (How long to wait before trying again is the connection's: ``Reconnecting``.)
public final class FocusReporting {
    /// Receives every report (``FocusProvider/onReport``).
    public var onReport: ((FocusReport) -> Void)?
    private var lastFocus: WindowFocus?
    private var lastModifiers: KeyModifierFlags?
    /// Why the modifiers cannot be told, as last said: said again only for another reason,
    /// or after they were told.
    private var modifiersProblem: String?
    /// Said once, with its end once: a reach during one is said with its first focus, so
    /// that a desktop that takes the connection and sends nothing useful (or garbage) does
    /// not end it.
    private var outage = Outage()

    init() {}

    /// Reached the desktop and it answered as it should: the outage, if any, is over.
    func connected(_ text: String) {
        outage.over()
        onReport?(.connected(text))
    }

    /// Reached the desktop: said at once outside an outage, during one with the first
    /// focus the desktop reports.
    func reached(_ text: String) {
        if let text = outage.reached(text) { onReport?(.connected(text)) }
    }

    /// A try failed: said once per outage.
    func lostOnce(_ why: String) {
        if let why = outage.lost(why) { onReport?(.lost(why)) }
    }

    /// The desktop told a state (it left, it refused): each new cause is said once.
    func lost(_ why: String) {
        if let why = outage.lost(why, eachCause: true) { onReport?(.lost(why)) }
    }

    /// Reports `focus` if it differs from the last one reported; a title or application
    /// id longer than ``TouchGestures/maximumOutsideTextBytes`` is cut there, so that no
    /// log line or command carries what a window chose to call itself in full.
    func focused(_ focus: WindowFocus) {
        if let text = outage.confirmed() { onReport?(.connected(text)) }
        var focus = focus
        if case let .window(appID, title) = focus {
            focus = .window(appID: appID.prefix(utf8Bytes: maximumOutsideTextBytes), title: title.prefix(utf8Bytes: maximumOutsideTextBytes))
        }
        guard focus != lastFocus else { return }
        lastFocus = focus
        onReport?(.focused(focus))
    }

    /// Reports the modifiers held if they differ from the last ones reported.
    func held(_ modifiers: KeyModifierFlags) {
        guard modifiers != lastModifiers else { return }
        lastModifiers = modifiers
        modifiersProblem = nil
        onReport?(.modifiers(modifiers))
    }

    /// Says why the desktop does not tell the modifiers, once per reason.
    func modifiersUnknown(_ why: String) {
        guard why != modifiersProblem else { return }
        modifiersProblem = why
        lastModifiers = nil
        onReport?(.modifiersUnknown(why))
    }

    /// A new connection reports its first focus and modifiers whatever the last ones were.
    func forgetFocus() {
        lastFocus = nil
        lastModifiers = nil
    }
}

