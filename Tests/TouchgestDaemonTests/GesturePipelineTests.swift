import Rulebook
import Testing
import TouchGestures
@testable import TouchgestDaemon

/// What the pipeline does between its input and its actions, on no device: touchpad
/// events go in through its one way in (`handle`), on a manual scheduler, and one
/// transcript holds the commands it asks for and the session reports it passes on, in
/// the order they came.
@Suite struct GesturePipelineTests {
    /// The commands (`RULE PHASE: COMMAND`) and session reports (`-- CONDITION`) in order.
    final class Transcript: GesturePipelineObserver {
        var lines: [String] = []
        var wantsTransitions: Bool { false }
        func adapter(_ event: AdapterEvent) {}
        func transition(_ record: TransitionRecord) {}
        func command(_ request: CommandRequest) { lines.append("\(request)") }
        func session(_ report: SessionReport) {
            if case let .changed(state) = report { lines.append("-- \(state.condition.rawValue)") }
        }
        func overlay(_ report: OverlayReport) { lines.append("\(report)") }
    }

    static let rules = """
        [rule.drag]
        gesture = "pan"
        device = "touchpad"
        fingers = 3
        on-begin = "begin"
        on-cancel = "cancel"
        on-end = "end"

        [rule.volume]
        gesture = "swipe"
        device = "touchpad"
        fingers = 4
        direction = "up"
        command = "volume up"
        when-locked = true

        [rule.play]
        gesture = "tap"
        device = "touchpad"
        fingers = 2
        command = "play-pause"
        """

    final class Rig {
        let scheduler = ManualScheduler()
        let transcript = Transcript()
        let pipeline: GesturePipeline

        init(rules: String = GesturePipelineTests.rules) throws {
            // A libinput path context with no device: nothing comes from it.
            pipeline = try GesturePipeline(backend: .paths([]), scheduler: scheduler, runCommands: false, observer: transcript)
            pipeline.load(try Rulebook.parse(rules, file: "rules.toml"))
        }

        func pad(_ gesture: TouchpadGesture, t: UInt64) {
            scheduler.advance(to: .milliseconds(t))
            pipeline.handle(.input(.touchpad(TouchpadEvent(gesture, timestamp: .milliseconds(t)))))
        }

        func swipe(fingers: Int, dx: Double, dy: Double, at t: UInt64, lift: Bool = true) {
            pad(.swipeBegin(fingers: fingers), t: t)
            for step in 1...8 { pad(.swipeUpdate(fingers: fingers, delta: Point(x: dx, y: dy)), t: t + UInt64(step) * 10) }
            if lift { pad(.swipeEnd(fingers: fingers, cancelled: false), t: t + 90) }
        }

        func tap(at t: UInt64) { pad(.tap(fingers: 2), t: t) }

        func session(_ condition: SessionState.Condition) {
            pipeline.sessionReported(.changed(SessionState(condition)))
        }

        func settle() { scheduler.runUntilIdle() }
    }

    @Test func eachGestureRunsItsRulesCommandOnce() throws {
        let rig = try Rig()
        rig.tap(at: 0)
        rig.swipe(fingers: 4, dx: 0, dy: -6, at: 1_000)
        rig.tap(at: 2_000)
        rig.settle()
        #expect(rig.transcript.lines == ["play recognized: play-pause", "volume recognized: volume up", "play recognized: play-pause"])
    }

    // Feedback where there is no desktop is said once and changes no action; a compositor
    // that cannot be reached is said at the first gesture, once, after its command, and the
    // gestures' commands are those of feedback off, in the same order.
    @Test func feedbackThatCannotBeShownIsSaidOnceAndChangesNoAction() throws {
        let rig = try Rig()
        rig.pipeline.showFeedback(true, environment: [:])
        rig.pipeline.showFeedback(true, environment: [:])
        #expect(rig.pipeline.overlay == nil)
        let shown = try Rig()
        shown.pipeline.showFeedback(true, environment: ["WAYLAND_DISPLAY": "/nonexistent/wayland-0"])
        shown.pipeline.load(try Rulebook.parse(Self.rules, file: "rules.toml"))
        for each in [rig, shown] {
            each.tap(at: 0)
            each.swipe(fingers: 3, dx: 6, dy: 0, at: 1_000)
            each.tap(at: 2_000)
            each.settle()
        }
        #expect(rig.transcript.lines == [
            "overlay: no desktop to show the overlay on (neither WAYLAND_DISPLAY nor DISPLAY is set): feedback is off",
            "play recognized: play-pause", "drag begin: begin", "drag end: end", "play recognized: play-pause",
        ])
        // The tap's command goes out before the overlay tries to show it.
        #expect(shown.transcript.lines == [
            "play recognized: play-pause", "overlay: cannot reach the compositor at /nonexistent/wayland-0: No such file or directory",
            "drag begin: begin", "drag end: end", "play recognized: play-pause",
        ])
    }

    @Test func lockingCancelsTheGestureUnderWayAndOnlyWhenLockedRulesActUntilUnlocked() throws {
        let rig = try Rig()
        rig.swipe(fingers: 3, dx: 6, dy: 0, at: 0, lift: false)
        rig.session(.locked)
        rig.pad(.swipeEnd(fingers: 3, cancelled: false), t: 100)
        rig.tap(at: 1_000)
        rig.swipe(fingers: 3, dx: 6, dy: 0, at: 2_000)
        rig.swipe(fingers: 4, dx: 0, dy: -6, at: 3_000)
        rig.settle()
        rig.session(.unlocked)
        rig.tap(at: 4_000)
        rig.settle()
        #expect(rig.transcript.lines == [
            "drag begin: begin", "drag cancel: cancel", "-- locked",
            "volume recognized: volume up",
            "-- unlocked", "play recognized: play-pause",
        ])
    }

    /// The session's state is the pipeline's, not the rules': rules loaded while the
    /// screen is locked are kept out as the old ones were.
    @Test func rulesLoadedWhileLockedAreKeptOutToo() throws {
        let rig = try Rig()
        rig.session(.locked)
        rig.pipeline.load(try Rulebook.parse(Self.rules.replacing("volume up", with: "louder"), file: "rules.toml"))
        rig.tap(at: 1_000)
        rig.swipe(fingers: 4, dx: 0, dy: -6, at: 2_000)
        rig.settle()
        #expect(rig.transcript.lines == ["-- locked", "volume recognized: louder"])
    }

    @Test func aSessionNotInFrontKeepsEveryRuleOutEvenWhenLockedOnes() throws {
        let rig = try Rig()
        rig.session(.inactive)
        rig.tap(at: 1_000)
        rig.swipe(fingers: 4, dx: 0, dy: -6, at: 2_000)
        rig.settle()
        rig.session(.unlocked)
        rig.swipe(fingers: 4, dx: 0, dy: -6, at: 3_000)
        rig.settle()
        #expect(rig.transcript.lines == ["-- inactive", "-- unlocked", "volume recognized: volume up"])
    }

    /// A reload while a gesture is under way cancels it on the old rules: the new rules
    /// see only gestures that begin after them.
    @Test func aReloadCancelsTheGestureUnderWayAndTheNewRulesActFromTheNext() throws {
        let rig = try Rig()
        rig.swipe(fingers: 3, dx: 6, dy: 0, at: 0, lift: false)
        rig.pipeline.load(try Rulebook.parse(Self.rules.replacing("on-end = \"end\"", with: "on-end = \"stop\""), file: "rules.toml"))
        rig.pad(.swipeEnd(fingers: 3, cancelled: false), t: 100)
        rig.swipe(fingers: 3, dx: 6, dy: 0, at: 1_000)
        rig.settle()
        #expect(rig.transcript.lines == [
            "drag begin: begin", "drag cancel: cancel", "drag begin: begin", "drag end: stop",
        ])
    }
}
