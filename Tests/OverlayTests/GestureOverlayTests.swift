import Overlay
import PollLoop
import TouchGestures
import Testing

/// A surface that keeps no pixels: it writes what the overlay asks of it to the transcript,
/// and takes a frame whenever one is drawn.
private final class TranscriptSurface: OverlaySurface {
    var log: [String] = []
    var refusal: String?
    var isOpen = false
    var name: String { "the transcript" }
    var descriptor: Int32? { isOpen ? 42 : nil }
    private let memory = UnsafeMutableRawPointer.allocate(byteCount: OverlayDefaults.width * 4 * OverlayDefaults.height, alignment: 16)

    deinit { memory.deallocate() }

    func open() -> String? {
        log.append("open")
        if let refusal { return refusal }
        isOpen = true
        return nil
    }

    func handleReadable() -> String? { nil }

    func frame() -> (pixels: UnsafeMutableRawPointer, stride: Int)? {
        guard isOpen else { return nil }
        return (memory, OverlayDefaults.width * 4)
    }

    func present() -> String? {
        log.append("present")
        return nil
    }

    func close() {
        log.append("close")
        isOpen = false
    }
}

/// What an overlay under test draws on: it keeps a transcript of what it was asked.
private protocol Transcribing: AnyObject {
    var log: [String] { get set }
}

/// The overlay on a manual clock, with what it draws on's transcript and its reports in
/// one log: the harness of both suites.
private final class Harness<Output: Transcribing> {
    var time = Timestamp.milliseconds(1_000)
    let output: Output
    private var made: GestureOverlay!
    var overlay: GestureOverlay { made }

    init(_ output: Output, _ make: (Output, @escaping () -> Timestamp) -> GestureOverlay) {
        self.output = output
        made = make(output) { [unowned self] in time }
        made.onReport = { [unowned self] report in self.output.log.append("\(report)") }
    }

    /// The pipeline's order: a count before the engine, `decide` as the engine, the rest after.
    func feed(_ gesture: TouchpadGesture, decide: () -> Void = {}) {
        let event = InputEvent.touchpad(TouchpadEvent(gesture, timestamp: time))
        overlay.prepare(event)
        decide()
        overlay.input(event)
    }

    /// Runs the overlay's deadlines as the loop would, up to `until`: a frame or the fade's end at each.
    func run(until end: Timestamp) {
        while let due = overlay.nextDeadline, due <= end {
            time = max(time, due)
            overlay.handleDeadlines()
        }
        time = end
    }

    /// The desktop answers what was sent, as the loop hands it a readable descriptor.
    func answer() {
        overlay.handleReadable(43)
    }
}

extension TranscriptSurface: Transcribing {}
extension SceneSink: Transcribing {}

extension Harness where Output == TranscriptSurface {
    convenience init() { self.init(TranscriptSurface()) { GestureOverlay(surface: $0, clock: $1) } }
    var surface: TranscriptSurface { output }
}

extension Harness where Output == SceneSink {
    convenience init() { self.init(SceneSink()) { GestureOverlay(sink: $0, clock: $1) } }
    var sink: SceneSink { output }
}

struct GestureOverlayTests {
    // Nothing exists before the first finger; the surface is made at it; frames follow the
    // scene at most one per frame interval; the lift fades the panel, and once faded the
    // surface is closed and the overlay has no deadline and no descriptor: no wake-up.
    @Test func aSwipeOpensDrawsFadesAndClosesItsSurface() {
        let harness = Harness<TranscriptSurface>()
        let overlay = harness.overlay
        #expect(overlay.nextDeadline == nil)
        #expect(overlay.pollDescriptors.isEmpty)
        harness.feed(.swipeBegin(fingers: 3))
        harness.run(until: harness.time)
        harness.feed(.swipeUpdate(fingers: 3, delta: Point(x: 10, y: 0))) {
            overlay.decided(rule: "pan-3", gesture: "pan", moment: "began", progress: 0.2)
        }
        // Three updates within one frame interval make one frame.
        harness.feed(.swipeUpdate(fingers: 3, delta: Point(x: 10, y: 0))) {
            overlay.decided(rule: "pan-3", gesture: "pan", moment: "changed", progress: 0.4)
        }
        harness.feed(.swipeUpdate(fingers: 3, delta: Point(x: 10, y: 0))) {
            overlay.decided(rule: "pan-3", gesture: "pan", moment: "changed", progress: 0.5)
        }
        harness.run(until: harness.time + .milliseconds(33))
        #expect(overlay.scene.headline == "3 fingers · pan")
        #expect(overlay.scene.decision == "rule pan-3: changed")
        #expect(overlay.scene.progress == 0.5)
        #expect(overlay.nextDeadline == nil, "nothing changed: no frame is due")
        harness.feed(.swipeEnd(fingers: 3, cancelled: false)) {
            overlay.decided(rule: "pan-3", gesture: "pan", moment: "ended", progress: 0.5)
        }
        harness.run(until: harness.time + OverlayDefaults.fadeDuration)
        #expect(harness.surface.log.prefix(4) == ["open", "present", "overlay: shown on the transcript", "present"])
        #expect(harness.surface.log.suffix(2) == ["close", "overlay: faded"])
        // The fade draws about one frame per interval: 600 ms at 33 ms.
        let frames = harness.surface.log.filter { $0 == "present" }.count
        #expect((2 + 17)...(2 + 20) ~= frames, "\(harness.surface.log)")
        #expect(overlay.nextDeadline == nil)
        #expect(overlay.pollDescriptors.isEmpty)
    }

    // A touchpad tap begins and ends in one event, and the engine decides it on that very
    // event: the panel names the rule, then fades.
    @Test func aTapDecidedOnItsOwnEventIsNamed() {
        let harness = Harness<TranscriptSurface>()
        let overlay = harness.overlay
        harness.feed(.tap(fingers: 2)) {
            overlay.decided(rule: "right-click", gesture: "tap", moment: "recognized", progress: nil)
        }
        #expect(overlay.scene.headline == "2 fingers · tap")
        #expect(overlay.scene.decision == "rule right-click: recognized")
        harness.run(until: harness.time + .seconds(1))
        #expect(harness.surface.log.first == "open")
        #expect(harness.surface.log.suffix(2) == ["close", "overlay: faded"])
    }

    // A desktop that refuses the panel is said once, not at every gesture, and leaves the
    // overlay with nothing to wait on.
    @Test func aRefusedSurfaceIsSaidOnceAndLeavesNothingToWaitOn() {
        let harness = Harness<TranscriptSurface>()
        harness.surface.refusal = "the compositor offers no zwlr_layer_shell_v1: it cannot show an overlay"
        for _ in 0..<2 {
            harness.feed(.swipeBegin(fingers: 3))
            harness.feed(.swipeEnd(fingers: 3, cancelled: false))
            harness.run(until: harness.time + .seconds(1))
        }
        #expect(harness.surface.log == ["open", "close", "overlay: the compositor offers no zwlr_layer_shell_v1: it cannot show an overlay",
                                        "open", "close"])
        #expect(harness.overlay.nextDeadline == nil)
    }

    // A long stroke's trail stays bounded and keeps its ends.
    @Test func aLongTrailIsHalvedNotGrown() {
        let harness = Harness<TranscriptSurface>()
        let overlay = harness.overlay
        for step in 0..<1_000 {
            let touch = Touch(id: 1, phase: step == 0 ? .began : .moved, location: Point(x: Double(step), y: 0),
                              normalizedLocation: Point(x: Double(step) / 1_000, y: 0.5), timestamp: harness.time)
            let event = InputEvent.touches(TouchEvent(timestamp: harness.time, allTouches: [touch], changedTouches: [touch]))
            overlay.prepare(event)
            overlay.input(event)
        }
        #expect(overlay.scene.trail.count <= OverlayDefaults.maximumTrailPoints)
        #expect(overlay.scene.trail.first == Point(x: 0, y: 0.5))
        #expect(overlay.scene.trail.last == Point(x: 0.999, y: 0.5))
    }
}

/// A sink like GNOME Shell's: it takes scenes, not pixels, takes the next only once it has
/// answered the last (``answer()``), and fades the panel by itself.
private final class SceneSink: OverlaySink {
    var log: [String] = []
    var isOpen = false
    /// Calls sent and not answered.
    var unanswered = 0
    var answered = false
    /// Why the sink is gone at its next read.
    var goneAtRead: String?
    var name: String { "the scene sink" }

    func open() -> String? {
        log.append("open")
        isOpen = true
        answered = false
        unanswered = 0
        return nil
    }

    func collect(_ interest: inout PollInterest) { if isOpen { interest.read(43) } }

    func handleReadable(_ fd: Int32) -> String? {
        if let goneAtRead { return goneAtRead }
        answer()
        return nil
    }

    var deadline: Timestamp? { nil }
    func handleDeadlines() -> String? { nil }
    var isReady: Bool { isOpen && unanswered == 0 }
    var hasShown: Bool { answered }
    var fadesItself: Bool { true }

    func show(_ scene: OverlayScene, opacity: Double) -> String? {
        log.append("show \(scene.headline) | \(scene.decision) | \(scene.progress.map { "\($0)" } ?? "-") at \(opacity)")
        unanswered += 1
        return nil
    }

    func fade(over duration: Duration) -> String? {
        log.append("fade over \(duration)")
        unanswered += 1
        return nil
    }

    func answer() {
        if unanswered > 0 { answered = true }
        unanswered = 0
    }

    func close() {
        log.append("close")
        isOpen = false
    }
}

struct SceneSinkTests {
    // The scene goes when the shell can take it: one call waits at a time, and what changed
    // meanwhile goes as one newer scene once it has answered. At the lift the last scene
    // and the fade go together, once; the shell fades by itself (no frame per step of the
    // fade), and the sink is closed when the fade is over. "shown" is said once the shell
    // answered the first scene, not when it was sent.
    @Test func aSinkThatFadesItselfGetsScenesWhenReadyAndOneFade() {
        let harness = Harness<SceneSink>()
        let overlay = harness.overlay
        harness.feed(.swipeBegin(fingers: 3))
        harness.run(until: harness.time)
        harness.feed(.swipeUpdate(fingers: 3, delta: Point(x: 10, y: 0))) {
            overlay.decided(rule: "pan-3", gesture: "pan", moment: "began", progress: 0.25)
        }
        // Not answered: nothing more goes, however long.
        harness.run(until: harness.time + .milliseconds(200))
        harness.answer()
        harness.feed(.swipeUpdate(fingers: 3, delta: Point(x: 10, y: 0))) {
            overlay.decided(rule: "pan-3", gesture: "pan", moment: "changed", progress: 0.5)
        }
        harness.run(until: harness.time + .milliseconds(10))
        harness.answer()
        harness.feed(.swipeEnd(fingers: 3, cancelled: false)) {
            overlay.decided(rule: "pan-3", gesture: "pan", moment: "ended", progress: 0.5)
        }
        harness.run(until: harness.time + .milliseconds(33))
        harness.answer()
        harness.run(until: harness.time + OverlayDefaults.fadeDuration)
        #expect(harness.sink.log == [
            "open",
            "show 3 fingers | deciding... | - at 1.0",
            "overlay: shown on the scene sink",
            // The scene of 0.25 changed before the shell answered: only the newer went.
            "show 3 fingers · pan | rule pan-3: changed | 0.5 at 1.0",
            "show 3 fingers · pan | rule pan-3: ended | 0.5 at 1.0",
            // A frame after the lift: the shell fades what is left of the fade.
            "fade over 0.577 seconds",
            "close",
            "overlay: faded",
        ])
        #expect(overlay.nextDeadline == nil)
        #expect(overlay.pollDescriptors.isEmpty)
    }

    // A sink that goes away mid-gesture (the shell refused the scene) is not opened again
    // at the gesture's next event: nothing is tried until every finger is up, and the next
    // gesture opens it afresh. The refusal is said once.
    @Test func aSinkLostMidGestureIsNotOpenedAgainUntilTheLift() {
        let harness = Harness<SceneSink>()
        harness.sink.goneAtRead = "GNOME Shell did not show the overlay: the screen is locked"
        for _ in 0..<2 {
            harness.feed(.swipeBegin(fingers: 3))
            harness.run(until: harness.time)
            harness.answer()
            for _ in 0..<3 {
                harness.feed(.swipeUpdate(fingers: 3, delta: Point(x: 10, y: 0)))
                harness.run(until: harness.time + .milliseconds(40))
            }
            harness.feed(.swipeEnd(fingers: 3, cancelled: false))
            harness.run(until: harness.time + .seconds(1))
        }
        #expect(harness.sink.log == [
            "open", "show 3 fingers | deciding... | - at 1.0", "close", "overlay: GNOME Shell did not show the overlay: the screen is locked",
            "open", "show 3 fingers | deciding... | - at 1.0", "close",
        ])
        #expect(harness.overlay.nextDeadline == nil)
    }
}
