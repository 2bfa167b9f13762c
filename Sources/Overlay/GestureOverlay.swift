import Glibc
import PollLoop
import TouchGestures

/// What touchgest is deciding, on screen while fingers are down (`feedback = "on"`,
/// `touchgest debug --overlay`): the fingers, the gesture and the rule that would fire, a
/// continuous gesture's progress, a stroke's trail and verdict; it fades within a second
/// of the lift.
///
/// A source of the loop, fed by the pipeline after the engine has decided: feeding only
/// changes the ``scene``; frames are drawn at a deadline, at most one per
/// ``OverlayDefaults/frameInterval``, and only when the sink can take one, so a gesture's
/// decision and its action never wait for one. The sink (``OverlaySink``: a surface painted
/// here, or GNOME Shell, which draws the panel itself) is opened at a gesture's first finger
/// and closed, with its memory and connection, once the panel has faded: between gestures
/// there is nothing, no descriptor and no deadline.
public final class GestureOverlay: PollSource {
    /// What the overlay says as it goes: the lines of `debug` and the log.
    public enum Report: Equatable, Sendable, CustomStringConvertible {
        /// The panel's first frame of a gesture went to the desktop.
        case shown(String)
        /// The panel faded; its surface, memory and connection are gone.
        case faded
        /// The panel could not be shown, or went away: why.
        case problem(String)

        public var description: String {
            switch self {
            case let .shown(place): "overlay: shown on \(place)"
            case .faded: "overlay: faded"
            case let .problem(why): "overlay: \(why)"
            }
        }
    }

    private enum Phase: Equatable {
        /// No finger down and nothing on screen.
        case idle
        /// Fingers down; `shown` once its first frame went out.
        case showing(shown: Bool)
        /// Every finger up since `since`: the panel fades.
        case fading(since: Timestamp)
        /// The sink could not open or went away mid-gesture: nothing is shown (nor tried
        /// again) until every finger is up.
        case gone
    }

    public var onReport: ((Report) -> Void)?
    public private(set) var scene = OverlayScene()
    private let sink: OverlaySink
    private var phase = Phase.idle
    private var open = false
    /// The scene changed since the last frame.
    private var dirty = false
    private var lastFrame = Timestamp(microseconds: 0)
    /// The sink was told to fade (one that ``OverlaySink/fadesItself``), and nothing
    /// changed since.
    private var fadeSent = false
    /// The clock: the loop's own, or (tests) a manual one.
    private let now: () -> Timestamp
    /// The last problem said, so that one that repeats at every gesture is said once.
    private var lastProblem: String?

    public init(sink: OverlaySink, clock: @escaping () -> Timestamp = { PollScheduler.now() }) {
        self.sink = sink
        now = clock
    }

    /// The overlay painted into `surface`'s pixels.
    public convenience init(surface: OverlaySurface, clock: @escaping () -> Timestamp = { PollScheduler.now() }) {
        self.init(sink: PaintedSurface(surface), clock: clock)
    }

    /// The overlay of this desktop, chosen as the input channels are: on GNOME Shell
    /// (Wayland), which offers no layer shell, the panel touchgest's extension draws; the
    /// layer shell on other Wayland desktops; a window on X11; or why there is none.
    public static func choose(environment: [String: String]) -> Result<GestureOverlay, OverlayError> {
        func set(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let display = set("WAYLAND_DISPLAY") {
            let desktop = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.uppercased() }
            if desktop.contains("GNOME") {
                return .success(GestureOverlay(sink: GnomeShellPanel(sessionBus: set("DBUS_SESSION_BUS_ADDRESS") ?? "")))
            }
            return .success(GestureOverlay(surface: LayerShellSurface(display: display, runtimeDirectory: set("XDG_RUNTIME_DIR") ?? "")))
        }
        if let display = set("DISPLAY") { return .success(GestureOverlay(surface: X11OverlaySurface(display: display))) }
        return .failure(OverlayError("no desktop to show the overlay on (neither WAYLAND_DISPLAY nor DISPLAY is set): feedback is off"))
    }

    // MARK: Feeding: a count before the engine decides, the rest after

    /// Before the engine handles `event`: a gesture's first finger starts a fresh scene,
    /// so that what the engine decides on this very event lands in it. Only counts.
    public func prepare(_ event: InputEvent) {
        guard Self.fingersDown(event) > 0 else { return }
        switch phase {
        case .idle, .fading:
            scene = OverlayScene()
            phase = .showing(shown: false)
            fadeSent = false
        case .showing, .gone:
            break
        }
    }

    /// After the engine handled `event`: the surface at a gesture's first finger, the
    /// fingers down and the trail; the fade once every finger is up.
    public func input(_ event: InputEvent) {
        let count = Self.fingersDown(event)
        var over = count == 0
        // A tap is over as it is told: shown for its fade.
        if case let .touchpad(pad) = event, pad.gesture.isEnd { over = true }
        if case .gone = phase {
            if over { phase = .idle }
            return
        }
        guard case .showing = phase else { return }
        if !open {
            if let why = sink.open() {
                sink.close()
                phase = over ? .idle : .gone
                return problem(why)
            }
            open = true
        }
        scene.fingers = count
        scene.mostFingers = max(scene.mostFingers, count)
        if case let .touches(frame) = event {
            let down = frame.allTouches.filter { !$0.phase.isTerminal }
            if !down.isEmpty {
                let sum = down.reduce(Point(x: 0, y: 0)) { Point(x: $0.x + $1.normalizedLocation.x, y: $0.y + $1.normalizedLocation.y) }
                scene.follow(Point(x: sum.x / Double(down.count), y: sum.y / Double(down.count)))
            }
        }
        if over {
            scene.fingers = 0
            phase = .fading(since: now())
        }
        dirty = true
    }

    /// A rule's gesture moved: began, changed, recognized, ended, cancelled; with its
    /// progress where it is continuous.
    public func decided(rule: String, gesture: String, moment: String, progress: Double?) {
        guard phase != .idle, phase != .gone else { return }
        scene.rule = rule
        scene.gesture = gesture
        scene.moment = moment
        if let progress { scene.progress = progress }
        dirty = true
    }

    /// How a stroke matched at the lift.
    public func strokeMatched(_ verdict: String) {
        guard phase != .idle, phase != .gone else { return }
        scene.verdict = verdict
        dirty = true
    }

    /// The fingers down after `event`: a touchpad gesture's own count until it ends, and a
    /// tap's, which ends as it is told.
    private static func fingersDown(_ event: InputEvent) -> Int {
        switch event {
        case let .touches(frame):
            return frame.allTouches.reduce(0) { $0 + ($1.phase.isTerminal ? 0 : 1) }
        case let .touchpad(pad):
            if case let .tap(fingers) = pad.gesture { return fingers }
            return pad.gesture.isEnd ? 0 : pad.gesture.fingers
        }
    }

    // MARK: PollSource

    public func collect(_ interest: inout PollInterest) {
        if open { sink.collect(&interest) }
    }

    public func handleReadable(_ fd: Int32) {
        guard open else { return }
        if let why = sink.handleReadable(fd) { return lose(why) }
        noteShown()
    }

    /// The next frame while the scene changed (or the panel fades) and the sink can take
    /// one; the end of the fade; the sink's own deadline.
    public var nextDeadline: Timestamp? {
        let own = open ? sink.deadline : nil
        let frame: Timestamp?
        switch phase {
        case .idle, .gone:
            return nil
        case .showing:
            frame = dirty && open && sink.isReady ? lastFrame + OverlayDefaults.frameInterval : nil
        case let .fading(since):
            let end = since + OverlayDefaults.fadeDuration
            let wanted = !sink.fadesItself || dirty || !fadeSent
            frame = open && sink.isReady && wanted ? min(lastFrame + OverlayDefaults.frameInterval, end) : end
        }
        return [own, frame].compactMap { $0 }.min()
    }

    public func handleDeadlines() {
        if open, let why = sink.handleDeadlines() { return lose(why) }
        let time = now()
        var opacity = 1.0
        switch phase {
        case .idle, .gone:
            return
        case .showing:
            guard dirty else { return }
        case let .fading(since):
            let faded = time - since
            guard faded < OverlayDefaults.fadeDuration else { return fadeOut() }
            if sink.fadesItself {
                guard dirty || !fadeSent else { return }
            } else {
                opacity = 1 - Self.seconds(faded) / Self.seconds(OverlayDefaults.fadeDuration)
            }
        }
        guard open, sink.isReady, time >= lastFrame + OverlayDefaults.frameInterval else { return }
        if dirty || !sink.fadesItself, let why = sink.show(scene, opacity: opacity) { return lose(why) }
        lastFrame = time
        dirty = false
        if case let .fading(since) = phase, sink.fadesItself {
            // The shell fades what is left of the fade.
            let left = OverlayDefaults.fadeDuration - (time - since)
            if let why = sink.fade(over: left) { return lose(why) }
            fadeSent = true
        }
        noteShown()
    }

    /// Says the panel is shown once the desktop has shown its first scene of a gesture.
    private func noteShown() {
        guard case .showing(shown: false) = phase, sink.hasShown else { return }
        phase = .showing(shown: true)
        lastProblem = nil
        onReport?(.shown(sink.name))
    }

    /// The panel has faded: the sink's surface, memory and connection go.
    private func fadeOut() {
        sink.close()
        open = false
        phase = .idle
        scene = OverlayScene()
        dirty = false
        onReport?(.faded)
    }

    /// The sink went away mid-gesture: nothing more is shown until the next gesture.
    private func lose(_ why: String) {
        sink.close()
        open = false
        if case .fading = phase { phase = .idle } else { phase = .gone }
        scene = OverlayScene()
        problem(why)
    }

    private func problem(_ why: String) {
        guard why != lastProblem else { return }
        lastProblem = why
        onReport?(.problem(why))
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Closes what is open (the daemon stops, or feedback was turned off).
    public func stop() {
        if open { sink.close() }
        open = false
        phase = .idle
    }
}

/// Why there is no overlay on this desktop.
public struct OverlayError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
