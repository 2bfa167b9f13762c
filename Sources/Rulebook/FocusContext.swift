import TouchGestures

/// What the rules know about the focused window, shared by a compiled rulebook's rules.
///
/// The daemon sets ``current`` whenever its focus provider reports a change. When a
/// gesture begins (the first finger lands, or a touchpad gesture begins, while nothing
/// is down), the environment the rules are attached to calls ``gestureBegins()``
/// (`GestureEnvironment.gestureWillBegin`), which takes the focus of that moment, and that window decides
/// every rule's `application` and `title` conditions for the whole gesture, however
/// the focus moves while the fingers are down.
public final class FocusContext {
    /// What the focus provider knows.
    public enum State: Hashable, Sendable {
        /// No provider, or it lost its desktop: rules with a window condition do not fire.
        /// The text says why, for the log (`no focus provider: ...`).
        case unknown(String)
        /// Nothing has the focus (an empty workspace): application and title are empty.
        case noWindow
        case window(FocusedWindow)

        /// The window as conditions see it; nil when unknown.
        public var window: FocusedWindow? {
            switch self {
            case .unknown: nil
            case .noWindow: FocusedWindow(application: "", title: "")
            case let .window(window): window
            }
        }
    }

    /// The focus now, as the provider last reported it.
    public var current: State

    /// The focus when the current gesture began.
    public private(set) var atGestureStart: State

    /// Whether any rule has a window condition; the reason they cannot fire is only
    /// worth saying when one does.
    public internal(set) var hasWindowRules = false

    /// Told why rules with a window condition cannot fire: once when the first gesture
    /// meets an unknown focus, then again only after the focus was known in between.
    public var onUnavailable: ((String) -> Void)?

    /// Told, once per gesture and rule, that a rule sits this gesture out because the
    /// focused window does not meet its condition: (rule, why).
    public var onSitOut: ((String, String) -> Void)?

    private var saidUnavailable = false
    private var satOut: Set<String> = []

    public init(_ state: State = .unknown("no focus provider")) {
        current = state
        atGestureStart = state
    }

    /// A gesture begins: the focus now decides it.
    public func gestureBegins() {
        atGestureStart = current
        satOut.removeAll(keepingCapacity: true)
        switch current {
        case let .unknown(why):
            if hasWindowRules && !saidUnavailable {
                saidUnavailable = true
                onUnavailable?("rules with an application or title condition do not fire: \(why)")
            }
        case .noWindow, .window:
            saidUnavailable = false
        }
    }

    /// Whether a rule with `condition` may take part in the current gesture.
    func admits(_ rule: String, _ condition: WindowCondition) -> Bool {
        guard let window = atGestureStart.window else { return false }
        if condition.matches(window) { return true }
        if onSitOut != nil && satOut.insert(rule).inserted {
            let focused = window.application.isEmpty ? "no window is focused" : "the focused window is \(window)"
            onSitOut?(rule, "\(focused); the rule wants \(condition.summary)")
        }
        return false
    }

    /// `TOUCHGEST_APP` and `TOUCHGEST_TITLE` for a command: the window focused when the
    /// gesture began, empty when none was; not set when no provider knows.
    var environmentValues: [String: String] {
        guard let window = atGestureStart.window else { return [:] }
        return ["TOUCHGEST_APP": window.application, "TOUCHGEST_TITLE": window.title]
    }
}
