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
/// ``OverlayDefaults/frameInterval``, so a gesture's decision and its action never wait
/// for one. The surface (``OverlaySurface``) is made at a gesture's first finger and
/// destroyed, with its memory and connection, once the panel has faded: between gestures
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
    }

    public var onReport: ((Report) -> Void)?
    public private(set) var scene = OverlayScene()
    private let surface: OverlaySurface
    private var phase = Phase.idle
    private var open = false
    /// The scene changed since the last frame.
    private var dirty = false
    private var lastFrame = Timestamp(microseconds: 0)
    /// The clock: the loop's own, or (tests) a manual one.
    private let now: () -> Timestamp
    /// The last problem said, so that one that repeats at every gesture is said once.
    private var lastProblem: String?

    public init(surface: OverlaySurface, clock: @escaping () -> Timestamp = { PollScheduler.now() }) {
        self.surface = surface
        now = clock
    }

    /// The overlay of this desktop, chosen as the input channels are: the layer shell on
    /// Wayland (not GNOME Shell, which offers none), a window on X11; or why there is none.
    public static func choose(environment: [String: String]) -> Result<GestureOverlay, OverlayError> {
        func set(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let display = set("WAYLAND_DISPLAY") {
            let desktop = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.uppercased() }
            if desktop.contains("GNOME") {
                return .failure(OverlayError("GNOME Shell offers no layer shell, and touchgest's extension does not draw the overlay yet: feedback is off"))
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
        case .showing:
            break
        }
    }

    /// After the engine handled `event`: the surface at a gesture's first finger, the
    /// fingers down and the trail; the fade once every finger is up.
    public func input(_ event: InputEvent) {
        guard case .showing = phase else { return }
        if !open {
            if let why = surface.open() {
                surface.close()
                phase = .idle
                return problem(why)
            }
            open = true
        }
        let count = Self.fingersDown(event)
        scene.fingers = count
        scene.mostFingers = max(scene.mostFingers, count)
        if case let .touches(frame) = event {
            let down = frame.allTouches.filter { !$0.phase.isTerminal }
            if !down.isEmpty {
                let sum = down.reduce(Point(x: 0, y: 0)) { Point(x: $0.x + $1.normalizedLocation.x, y: $0.y + $1.normalizedLocation.y) }
                scene.follow(Point(x: sum.x / Double(down.count), y: sum.y / Double(down.count)))
            }
        }
        var over = count == 0
        // A tap is over as it is told: shown for its fade.
        if case let .touchpad(pad) = event, pad.gesture.isEnd { over = true }
        if over {
            scene.fingers = 0
            phase = .fading(since: now())
        }
        dirty = true
    }

    /// A rule's gesture moved: began, changed, recognized, ended, cancelled; with its
    /// progress where it is continuous.
    public func decided(rule: String, gesture: String, moment: String, progress: Double?) {
        guard phase != .idle else { return }
        scene.rule = rule
        scene.gesture = gesture
        scene.moment = moment
        if let progress { scene.progress = progress }
        dirty = true
    }

    /// How a stroke matched at the lift.
    public func strokeMatched(_ verdict: String) {
        guard phase != .idle else { return }
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
        if open, let fd = surface.descriptor { interest.read(fd) }
    }

    public func handleReadable(_ fd: Int32) {
        if let why = surface.handleReadable() { lose(why) }
    }

    /// The next frame while the scene changed (or the panel fades) and the surface can
    /// take one; the end of the fade.
    public var nextDeadline: Timestamp? {
        switch phase {
        case .idle:
            return nil
        case .showing:
            guard dirty, open, surface.frame() != nil else { return nil }
            return lastFrame + OverlayDefaults.frameInterval
        case let .fading(since):
            let end = since + OverlayDefaults.fadeDuration
            guard open, surface.frame() != nil else { return end }
            return min(lastFrame + OverlayDefaults.frameInterval, end)
        }
    }

    public func handleDeadlines() {
        let time = now()
        var opacity = 1.0
        switch phase {
        case .idle:
            return
        case .showing:
            break
        case let .fading(since):
            let faded = time - since
            guard faded < OverlayDefaults.fadeDuration else { return fadeOut() }
            opacity = 1 - Self.seconds(faded) / Self.seconds(OverlayDefaults.fadeDuration)
        }
        guard open, let frame = surface.frame() else { return }
        OverlayPainter.paint(scene, opacity: opacity, into: frame.pixels, stride: frame.stride)
        if let why = surface.present() { return lose(why) }
        lastFrame = time
        dirty = false
        if case .showing(shown: false) = phase {
            phase = .showing(shown: true)
            lastProblem = nil
            onReport?(.shown(surface.name))
        }
    }

    /// The panel has faded: its surface, memory and connection go.
    private func fadeOut() {
        surface.close()
        OverlayPainter.releaseCaches()
        open = false
        phase = .idle
        scene = OverlayScene()
        dirty = false
        onReport?(.faded)
    }

    /// The surface went away mid-gesture: nothing more is drawn until the next gesture.
    private func lose(_ why: String) {
        surface.close()
        open = false
        phase = .idle
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
        if open { surface.close() }
        open = false
        phase = .idle
    }
}

/// Why there is no overlay on this desktop.
public struct OverlayError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
