import Testing
@testable import Rulebook
import TouchGestures

/// `when-locked` and what the session lets act: a locked screen admits only rules with
/// `when-locked = true`, a session not in front none, and a gesture under way when that
/// changes is cancelled. One transcript holds the commands and the stream lines in order.
@Suite struct RuleAdmissionTests {
    /// Commands (`RULE PHASE`) and stream lines (`RULE stream PHASE`) in the order they came.
    final class Transcript: CommandSink {
        var lines: [String] = []
        func run(_ request: CommandRequest) { lines.append("\(request.rule) \(request.phase.rawValue)") }
        func wantsSamples(of rule: String) -> Bool { true }
        func stream(_ sample: GestureSample) {
            if sample.phase != .changed { lines.append("\(sample.rule) stream \(sample.phase.rawValue)") }
        }
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

        [rule.tap]
        gesture = "tap"
        device = "touchpad"
        fingers = 2
        when-locked = true
        command = "play-pause"

        [rule.double-tap]
        gesture = "tap"
        device = "touchpad"
        fingers = 2
        taps = 2
        command = "next"
        """

    final class Rig {
        let scheduler = ManualScheduler()
        let environment: GestureEnvironment
        let transcript = Transcript()
        let compiled: CompiledRulebook

        init() throws {
            environment = GestureEnvironment(scheduler: scheduler)
            compiled = CompiledRulebook(try Rulebook.parse(RuleAdmissionTests.rules, file: "rules.toml"), sink: transcript)
            compiled.attach(to: environment)
        }

        func pad(_ gesture: TouchpadGesture, t: UInt64) {
            environment.handle(.touchpad(TouchpadEvent(gesture, timestamp: .milliseconds(t))))
        }

        func swipe(fingers: Int, dx: Double, dy: Double, at t: UInt64, lift: Bool = true) {
            pad(.swipeBegin(fingers: fingers), t: t)
            for step in 1...8 { pad(.swipeUpdate(fingers: fingers, delta: Point(x: dx, y: dy)), t: t + UInt64(step) * 10) }
            if lift { pad(.swipeEnd(fingers: fingers, cancelled: false), t: t + 90) }
        }

        func tap(at t: UInt64) {
            pad(.tap(fingers: 2), t: t)
        }

        func settle() { scheduler.runUntilIdle() }
    }

    @Test func theKeyIsABooleanAndDefaultsToFalse() throws {
        let book = try Rulebook.parse(Self.rules, file: "rules.toml")
        #expect(book.rules.map(\.whenLocked) == [false, true, true, false])
        #expect(diagnostics("""
            [rule.a]
            gesture = "tap"
            command = "x"
            when-locked = "yes"
            """) == ["rules.toml:4:15: error: when-locked must be true or false (without quotes), not the string \"yes\""])
        #expect(book.explain().split(separator: "\n")[1] == "volume      swipe, 4 fingers, up, touchpad, also while locked")
    }

    @Test func lockingCancelsTheGestureUnderWayAndOnlyWhenLockedRulesActUntilUnlocked() throws {
        let rig = try Rig()
        rig.swipe(fingers: 3, dx: 6, dy: 0, at: 0, lift: false)
        rig.compiled.admit(.whenLocked)
        rig.transcript.lines.append("-- locked")
        rig.pad(.swipeEnd(fingers: 3, cancelled: false), t: 100)
        rig.settle()
        // The drag again, and the volume swipe, while locked.
        rig.swipe(fingers: 3, dx: 6, dy: 0, at: 1_000)
        rig.swipe(fingers: 4, dx: 0, dy: -6, at: 2_000)
        rig.settle()
        rig.compiled.admit(.every)
        rig.transcript.lines.append("-- unlocked")
        rig.swipe(fingers: 3, dx: 6, dy: 0, at: 3_000)
        rig.settle()
        #expect(rig.transcript.lines == [
            "drag stream began", "drag begin",
            "drag stream cancelled", "drag cancel",
            "-- locked",
            "volume stream recognized", "volume recognized",
            "-- unlocked",
            "drag stream began", "drag begin", "drag stream ended", "drag end",
        ])
    }

    @Test func aSessionNotInFrontAdmitsNoRuleWhateverItSays() throws {
        let rig = try Rig()
        rig.compiled.onGestureWhileRestricted = { rig.transcript.lines.append("-- refused while \($0)") }
        rig.compiled.admit(.none)
        rig.swipe(fingers: 4, dx: 0, dy: -6, at: 0)
        rig.tap(at: 1_000)
        rig.settle()
        #expect(rig.transcript.lines == ["-- refused while none", "-- refused while none"])
        rig.transcript.lines.removeAll()
        rig.compiled.admit(.every)
        rig.swipe(fingers: 4, dx: 0, dy: -6, at: 2_000)
        rig.settle()
        #expect(rig.transcript.lines == ["volume stream recognized", "volume recognized"])
    }

    /// The single tap waits for the double tap to fail; while locked the double tap sits
    /// out, so the single tap acts at once instead of after the double-tap interval.
    @Test func aWhenLockedRuleDoesNotWaitForARuleThatCannotAct() throws {
        let rig = try Rig()
        rig.tap(at: 0)
        #expect(rig.transcript.lines.isEmpty)
        rig.settle()
        #expect(rig.transcript.lines == ["tap stream recognized", "tap recognized"])
        rig.transcript.lines.removeAll()
        rig.compiled.admit(.whenLocked)
        rig.tap(at: 2_000)
        #expect(rig.transcript.lines == ["tap stream recognized", "tap recognized"])
    }
}
