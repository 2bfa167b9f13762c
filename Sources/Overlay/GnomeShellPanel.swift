import BusLoop
import PollLoop
import TouchGestures

/// The panel on GNOME Shell, which offers clients no layer shell: touchgest's own extension
/// draws it inside the shell (St actors in the top chrome, taking no input), and touchgest
/// sends it the scene, not pixels:
///
///     /org/touchgest/Input  org.touchgest.Input
///       ShowFeedback(s headline, s decision, d progress, s verdict, ad trail)
///       HideFeedback(u milliseconds)   fades the panel out over that time, then removes it
///
/// on a session-bus connection made at a gesture's first finger and closed once the panel
/// has faded. A call goes without waiting for its answer; the next goes only once the shell
/// has answered (``isReady``), so at most one frame's calls (a scene and a fade) wait on
/// the shell. The extension takes them only from the touchgest its `trusted-programs` names,
/// never while the screen is locked, and fades the panel by itself when touchgest leaves
/// the bus without hiding it.
public final class GnomeShellPanel: OverlaySink {
    static let path = "/org/touchgest/Input"
    static let interface = "org.touchgest.Input"
    static let uuid = "touchgest-focus@touchgest.org"

    /// A scene as `ShowFeedback` carries it, within the bounds the extension takes.
    public struct Message: Equatable, Sendable {
        /// The panel's first line, `3 fingers · pan`.
        public var headline: String
        /// Its second, `rule pan-3: changed`.
        public var decision: String
        /// 0...1 how far a continuous gesture has gone, or -1 where it has no progress.
        public var progress: Double
        /// A stroke's verdict at the lift, or empty.
        public var verdict: String
        /// The trail's points, normalized 0...1, as x0, y0, x1, y1, ...: at most
        /// ``OverlayDefaults/maximumTrailPoints`` points.
        public var trail: [Double]

        public init(headline: String, decision: String, progress: Double, verdict: String, trail: [Double]) {
            self.headline = headline
            self.decision = decision
            self.progress = progress
            self.verdict = verdict
            self.trail = trail
        }

        /// `scene`'s lines cut to ``OverlayDefaults/maximumFeedbackText``, its progress and
        /// trail clamped to 0...1 (a point that is not a number dropped), its trail thinned
        /// evenly to at most ``OverlayDefaults/maximumTrailPoints`` points.
        public init(_ scene: OverlayScene) {
            headline = Self.line(scene.headline)
            decision = Self.line(scene.decision)
            verdict = Self.line(scene.verdict ?? "")
            progress = scene.progress.map { $0.isFinite ? min(1, max(0, $0)) : -1 } ?? -1
            var points = scene.trail.filter { $0.x.isFinite && $0.y.isFinite }
            let most = OverlayDefaults.maximumTrailPoints
            if points.count > most {
                // Evenly, keeping the first and the last.
                points = (0..<most).map { points[$0 * (points.count - 1) / (most - 1)] }
            }
            trail = points.flatMap { [min(1, max(0, $0.x)), min(1, max(0, $0.y))] }
        }

        /// The call's arguments, in its signature's order: `ssdsad`.
        public var arguments: [BusArgument] {
            [.string(headline), .string(decision), .double(progress), .string(verdict), .doubles(trail)]
        }

        /// One line of the panel: control characters (a rule named with a line break) as
        /// spaces, cut with an ellipsis to the length the extension takes, counted as
        /// JavaScript counts it (UTF-16 code units).
        static func line(_ text: String) -> String {
            var line = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
            let most = OverlayDefaults.maximumFeedbackText
            guard line.utf16.count > most else { return line }
            while line.utf16.count > most - 1 { line.removeLast() }
            return line + "…"
        }
    }

    public let sessionBus: String
    public var name: String { "GNOME Shell, through touchgest's extension" }
    private var bus: BusLink?
    /// Calls sent on ``bus`` and not answered yet.
    private var waiting = 0
    /// A scene went since the last fade: the panel is on screen.
    private var onScreen = false
    private var shown = false
    /// Why the panel is gone, said at the next read or deadline.
    private var gone: String?

    /// `sessionBus`: the session bus's address (`DBUS_SESSION_BUS_ADDRESS`).
    public init(sessionBus: String) {
        self.sessionBus = sessionBus
    }

    public func open() -> String? {
        guard !sessionBus.isEmpty else {
            return "no session bus to reach GNOME Shell on (DBUS_SESSION_BUS_ADDRESS is not set): feedback is off"
        }
        waiting = 0
        onScreen = false
        shown = false
        gone = nil
        let link = BusLink(name: "session bus", address: sessionBus, matchRules: [])
        link.onLost = { [unowned self] why, _, _ in
            waiting = 0
            gone = gone ?? "the session bus: \(why)"
        }
        bus = link
        link.start()
        // A bus whose socket is not there is said at once.
        if let gone {
            bus = nil
            return gone
        }
        return nil
    }

    public func collect(_ interest: inout PollInterest) { bus?.collect(&interest) }

    public func handleReadable(_ fd: Int32) -> String? {
        if let bus, bus.owns(fd) { bus.handleReadable() }
        return gone
    }

    public var deadline: Timestamp? { bus?.deadline }

    public func handleDeadlines() -> String? {
        bus?.handleDeadlines()
        return gone
    }

    public var isReady: Bool { bus?.isConnected == true && waiting == 0 && gone == nil }
    public var hasShown: Bool { shown }
    public var fadesItself: Bool { true }

    public func show(_ scene: OverlayScene, opacity: Double) -> String? {
        onScreen = true
        return call("ShowFeedback", Message(scene).arguments)
    }

    public func fade(over duration: Duration) -> String? {
        onScreen = false
        return call("HideFeedback", [.uint32(Self.milliseconds(duration))])
    }

    /// Hides a panel still on screen at once (the gesture ended without its fade: the
    /// daemon stops, the shell refused a scene), then closes the connection; the extension
    /// would fade it by itself once the connection's name leaves the bus.
    public func close() {
        if onScreen, let bus, bus.isConnected {
            bus.call("org.gnome.Shell", Self.path, Self.interface, "HideFeedback", [.uint32(0)]) { _ in }
        }
        onScreen = false
        bus = nil
    }

    private func call(_ member: String, _ arguments: [BusArgument]) -> String? {
        guard let bus, bus.isConnected else { return "the session bus is not connected" }
        waiting += 1
        bus.call("org.gnome.Shell", Self.path, Self.interface, member, arguments) { [weak self] result in
            guard let self else { return }
            waiting = max(0, waiting - 1)
            switch result {
            case .success:
                if member == "ShowFeedback" { shown = true }
            case let .failure(error):
                gone = gone ?? Self.refusal(error)
            }
        }
        return nil
    }

    /// Why the shell did not show the panel.
    static func refusal(_ error: BusError) -> String {
        if error.isAbsent {
            return "touchgest's GNOME Shell extension does not draw the overlay (\(error.name)): install or update it "
                + "(make install, or the touchgest package), enable it (gnome-extensions enable \(uuid)) and log in again; feedback is off until then"
        }
        return "GNOME Shell did not show the overlay: \(Message.line(error.message))"
    }

    private static func milliseconds(_ duration: Duration) -> UInt32 {
        let (seconds, attoseconds) = duration.components
        return UInt32(clamping: max(0, seconds * 1_000 + attoseconds / 1_000_000_000_000_000))
    }
}
