import InputActions
import Testing
@testable import Rulebook
import TouchGestures

/// Records what a `follow` rule hands the desktop, and nothing else.
final class FollowRecorder: CommandSink {
    var steps: [String] = []
    func run(_ request: CommandRequest) {}
    func follow(_ request: FollowRequest) { steps.append("\(request)@\(request.step.milliseconds)") }
}

/// `follow` (the desktop's animation moved under the fingers) and `desktop-gestures`
/// (the desktop's own swipes given up): what the rules hand the desktop.
@Suite struct DesktopGestureRuleTests {
    final class Rig {
        let environment = GestureEnvironment(scheduler: ManualScheduler())
        let recorder = FollowRecorder()
        let compiled: CompiledRulebook

        init(_ text: String) throws {
            compiled = CompiledRulebook(try Rulebook.parse(text, file: "rules.toml"), sink: recorder)
            compiled.attach(to: environment)
        }

        func pad(_ gesture: TouchpadGesture, t: UInt64) {
            environment.handle(TouchpadEvent(gesture, timestamp: .milliseconds(t)))
        }
    }

    // The animation is the action: a rule with `follow` alone runs nothing else, and is valid.
    @Test func aPanThatOnlyFollowsTheWorkspacesIsARule() throws {
        let book = try Rulebook.parse("""
            [rule.slide]
            gesture = "pan"
            fingers = 4
            device = "touchpad"
            follow = "workspaces"
            """, file: "rules.toml")
        #expect(book.rules.map(\.follow) == [.workspaces])
    }

    @Test func aPanWithNothingToDoNamesFollowAmongWhatItCouldDo() {
        #expect(diagnostics("[rule.slide]\ngesture = \"pan\"\n") == [
            "rules.toml:1:1: error: rule 'slide' runs nothing; add command, keys, text, button, on-begin, on-step, on-end, on-cancel, stream or follow",
        ])
    }

    // Fingers left slide towards the next workspace (the content follows them), in whole
    // workspaces of progress-distance mm, stamped with the events' milliseconds.
    @Test func aFollowingPanHandsTheDesktopSignedProgressFromBeginToEnd() throws {
        let rig = try Rig("""
            [rule.slide]
            gesture = "pan"
            fingers = 3
            device = "touchpad"
            progress-distance = 40
            follow = "workspaces"
            """)
        rig.pad(.swipeBegin(fingers: 3), t: 1_000)
        for step in 1...4 { rig.pad(.swipeUpdate(fingers: 3, delta: Point(x: -5, y: 1)), t: 1_000 + UInt64(step) * 10) }
        rig.pad(.swipeUpdate(fingers: 3, delta: Point(x: 30, y: 0)), t: 1_050)
        rig.pad(.swipeEnd(fingers: 3, cancelled: false), t: 1_060)
        #expect(rig.recorder.steps == [
            "slide follows: workspaces begin 0.125@1010",
            "slide follows: workspaces update 0.250@1020",
            "slide follows: workspaces update 0.375@1030",
            "slide follows: workspaces update 0.500@1040",
            "slide follows: workspaces update -0.250@1050",
            "slide follows: workspaces end -0.250@1060",
        ])
    }

    // The overview opens as the fingers go up; a cancelled gesture says so, and the
    // desktop takes its animation back.
    @Test func aFollowingPanUpOpensTheOverviewAndACancelIsHandedOn() throws {
        let rig = try Rig("""
            [rule.up]
            gesture = "pan"
            fingers = 4
            device = "touchpad"
            follow = "overview"
            """)
        rig.pad(.swipeBegin(fingers: 4), t: 0)
        rig.pad(.swipeUpdate(fingers: 4, delta: Point(x: 0, y: -10)), t: 10)
        rig.pad(.swipeUpdate(fingers: 4, delta: Point(x: 0, y: -15)), t: 20)
        rig.pad(.swipeEnd(fingers: 4, cancelled: true), t: 30)
        #expect(rig.recorder.steps == [
            "up follows: overview begin 0.200@10",
            "up follows: overview update 0.500@20",
            "up follows: overview cancel 0.500@30",
        ])
    }

    @Test func keepGivesUpOnlyTheFingersOfRulesThatFollowAndYieldThoseOfEveryTouchpadSwipeAndPan() throws {
        let rules = """
            [rule.swipe3]
            gesture = "swipe"
            fingers = 3
            device = "touchpad"
            command = "true"

            [rule.screen]
            gesture = "swipe"
            fingers = 3
            device = "touchscreen"
            command = "true"

            [rule.pan4to5]
            gesture = "pan"
            min-fingers = 4
            max-fingers = 5
            device = "touchpad"
            command = "true"

            [rule.pinch]
            gesture = "pinch"
            fingers = 2
            device = "touchpad"
            command = "true"

            [rule.follow]
            gesture = "pan"
            fingers = 6
            device = "touchpad"
            follow = "workspaces"
            """
        #expect(try Rulebook.parse(rules, file: "rules.toml").yieldedFingers == [6])
        #expect(try Rulebook.parse("[settings]\ndesktop-gestures = \"yield\"\n\n" + rules, file: "rules.toml").yieldedFingers == [3, 4, 5, 6])
    }

    @Test func anUnknownDesktopGesturesPolicyIsAnErrorNamingTheTwo() {
        #expect(diagnostics("[settings]\ndesktop-gestures = \"give\"\n") == [
            "rules.toml:2:20: error: unknown desktop-gestures policy 'give'; expected one of keep, yield",
        ])
    }
}
