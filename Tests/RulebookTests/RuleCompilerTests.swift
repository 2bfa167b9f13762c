import Testing
@testable import Rulebook
import TextWire
import TouchGestures

/// Records every command request in order.
final class Recorder: CommandSink {
    var requests: [CommandRequest] = []
    var presses: [InputRequest] = []
    func run(_ request: CommandRequest) { requests.append(request) }
    func press(_ request: InputRequest) { presses.append(request) }
    var lines: [String] { requests.map { "\($0.rule) \($0.phase.rawValue)" } }
}

/// An environment with a compiled rulebook, driven by millisecond touch scripts.
final class RuleRig {
    let scheduler = ManualScheduler()
    let environment: GestureEnvironment
    let recorder = Recorder()
    let compiled: CompiledRulebook

    init(_ text: String) throws {
        environment = GestureEnvironment(scheduler: scheduler)
        compiled = CompiledRulebook(try Rulebook.parse(text, file: "rules.toml"), sink: recorder) { _ in "Test Touchpad" }
        compiled.attach(to: environment)
    }

    func touch(_ id: Int, _ phase: TouchPhase, _ x: Double, _ y: Double, t: UInt64, from: (Double, Double)? = nil) {
        let touch = Touch(id: id, phase: phase, location: Point(x: x, y: y),
                          previousLocation: from.map { Point(x: $0.0, y: $0.1) }, timestamp: .milliseconds(t))
        environment.handle(.touches(TouchEvent(timestamp: .milliseconds(t), allTouches: [touch], changedTouches: [touch])))
    }

    func tap(at t: UInt64) {
        touch(1, .began, 50, 50, t: t)
        touch(1, .ended, 50, 50, t: t + 50)
    }

    func pad(_ gesture: TouchpadGesture, t: UInt64) {
        environment.handle(.touchpad(TouchpadEvent(gesture, timestamp: .milliseconds(t))))
    }

    func settle() { scheduler.runUntilIdle() }
}

@Suite struct RuleCompilerTests {
    static let taps = """
        [rule.single]
        gesture = "tap"
        command = "echo single"

        [rule.double]
        gesture = "tap"
        taps = 2
        command = "echo double"
        """

    @Test func fewerTapsWaitForMoreTapsAutomatically() throws {
        let book = try Rulebook.parse(Self.taps, file: "rules.toml")
        #expect(book.requirements == [.init(waiter: "single", waitedOn: "double", reason: .moreTaps)])
        #expect(book.explain() == """
            single  tap, 1 finger, 1 tap, any; waits for double (more taps) to fail
            double  tap, 1 finger, 2 taps, any
            """)
    }

    @Test func aSingleTapRunsOnlyTheSingleCommandAndADoubleTapOnlyTheDouble() throws {
        let rig = try RuleRig(Self.taps)
        rig.tap(at: 0)
        rig.settle()
        #expect(rig.recorder.lines == ["single recognized"])
        rig.tap(at: 1000)
        rig.tap(at: 1200)
        rig.settle()
        #expect(rig.recorder.lines == ["single recognized", "double recognized"])
        rig.tap(at: 3000)
        rig.tap(at: 3200)
        rig.tap(at: 5000)
        rig.settle()
        #expect(rig.recorder.lines == ["single recognized", "double recognized", "double recognized", "single recognized"])
    }

    @Test func aTapWaitsForALongPressOnTheSameFingers() throws {
        let book = try Rulebook.parse("""
            [rule.tap]
            gesture = "tap"
            command = "a"

            [rule.press]
            gesture = "long-press"
            command = "b"

            [rule.two-finger-press]
            gesture = "long-press"
            fingers = 2
            command = "c"
            """, file: "rules.toml")
        #expect(book.requirements == [.init(waiter: "tap", waitedOn: "press", reason: .longPress)])
    }

    @Test func everyParameterReachesTheRecognizer() throws {
        let rig = try RuleRig("""
            [rule.t]
            gesture = "tap"
            fingers = 2
            taps = 3
            max-duration = "200ms"
            max-interval = "250ms"
            slop = 2.5
            multi-tap-slop = 12
            command = "x"

            [rule.s]
            gesture = "swipe"
            fingers = 4
            direction = ["up-left", "down"]
            distance = 30
            velocity = 150
            command = "x"

            [rule.e]
            gesture = "edge-pan"
            edges = ["left", "top"]
            edge-width = 3
            on-begin = "x"

            [rule.r]
            gesture = "rotation"
            threshold = 20
            on-end = "x"
            """)
        let recognizers = Dictionary(uniqueKeysWithValues: rig.compiled.recognizers.map { ($0.name!, $0) })
        let tap = try #require(recognizers["t"] as? TapGestureRecognizer)
        #expect(tap.numberOfTouchesRequired == 2 && tap.numberOfTapsRequired == 3)
        #expect(tap.maximumTapDuration == .milliseconds(200) && tap.maximumTapInterval == .milliseconds(250))
        #expect(tap.allowableMovement == 2.5 && tap.multiTapSlop == 12)
        let swipe = try #require(recognizers["s"] as? SwipeGestureRecognizer)
        #expect(swipe.numberOfTouchesRequired == 4 && swipe.direction == [.upLeft, .down])
        #expect(swipe.minimumDistance == 30 && swipe.minimumVelocity == 150)
        let edge = try #require(recognizers["e"] as? ScreenEdgePanGestureRecognizer)
        #expect(edge.edges == [.left, .top] && edge.edgeZoneWidth == 3 && edge.allowedTouchTypes == [.direct])
        // An edge pan on any device stays on touchscreens unless it sets source.
        let rotation = try #require(recognizers["r"] as? RotationGestureRecognizer)
        #expect(abs(rotation.threshold - 20 * .pi / 180) < 1e-12)
    }

    @Test func aSwipeCommandGetsItsValuesAsEnvironmentVariables() throws {
        let rig = try RuleRig("""
            [rule.next]
            gesture = "swipe"
            fingers = 3
            direction = ["left", "right"]
            device = "touchpad"
            command = "swaymsg workspace $TOUCHGEST_DIRECTION"
            """)
        rig.pad(.swipeBegin(fingers: 3), t: 0)
        for step in 1...5 { rig.pad(.swipeUpdate(fingers: 3, delta: Point(x: -5, y: 0)), t: UInt64(step) * 10) }
        rig.pad(.swipeEnd(fingers: 3, cancelled: false), t: 60)
        // Recognized at the first update: 5 mm in 10 ms is a flick.
        let request = try #require(rig.recorder.requests.first)
        #expect(rig.recorder.requests.count == 1)
        #expect(request.command == "swaymsg workspace $TOUCHGEST_DIRECTION")
        #expect(request.environment == [
            "TOUCHGEST_RULE": "next", "TOUCHGEST_GESTURE": "swipe", "TOUCHGEST_PHASE": "recognized",
            "TOUCHGEST_FINGERS": "3", "TOUCHGEST_DEVICE": "touchpad", "TOUCHGEST_DIRECTION": "left",
            "TOUCHGEST_X": "-5.0", "TOUCHGEST_Y": "0.0", "TOUCHGEST_MODIFIERS": "none", "TOUCHGEST_BUTTONS": "none",
        ])
    }

    /// The swipe made with Super held and the clickpad down says so to its command.
    @Test func aCommandGetsTheModifiersAndButtonsHeld() throws {
        let rig = try RuleRig("""
            [rule.next]
            gesture = "swipe"
            fingers = 3
            direction = "left"
            device = "touchpad"
            command = "true"
            """)
        func pad(_ gesture: TouchpadGesture, t: UInt64) {
            var event = TouchpadEvent(gesture, timestamp: .milliseconds(t))
            event.modifierFlags = [.command, .shift]
            event.buttonMask = .primary
            rig.environment.handle(event)
        }
        pad(.swipeBegin(fingers: 3), t: 0)
        for step in 1...5 { pad(.swipeUpdate(fingers: 3, delta: Point(x: -5, y: 0)), t: UInt64(step) * 10) }
        pad(.swipeEnd(fingers: 3, cancelled: false), t: 60)
        let request = try #require(rig.recorder.requests.first)
        #expect(request.environment["TOUCHGEST_MODIFIERS"] == "shift+super")
        #expect(request.environment["TOUCHGEST_BUTTONS"] == "left")
    }

    @Test func pinchStepsFireOncePerStepInBothDirections() throws {
        let rig = try RuleRig("""
            [rule.zoom]
            gesture = "pinch"
            step = 0.25
            on-begin = "begin"
            on-step = "step"
            on-end = "end"
            """)
        rig.pad(.pinchBegin(fingers: 2), t: 0)
        for (index, scale) in [1.1, 1.3, 1.8, 1.6, 0.7].enumerated() {
            rig.pad(.pinchUpdate(fingers: 2, delta: .zero, scale: scale, angleDelta: 0), t: UInt64(index + 1) * 10)
        }
        rig.pad(.pinchEnd(fingers: 2, cancelled: false), t: 100)
        #expect(rig.recorder.requests.map { "\($0.phase.rawValue) \($0.environment["TOUCHGEST_STEP"] ?? "") \($0.environment["TOUCHGEST_DIRECTION"] ?? "")" } == [
            // begin and end carry the net direction: out at 1.1, in at 0.7.
            "begin  out", "step 1 out", "step 2 out", "step 3 out", "step 2 in", "step 1 in", "step 0 in", "step -1 in", "end  in",
        ])
        #expect(rig.recorder.requests.last?.environment["TOUCHGEST_SCALE"] == "0.700")
    }

    @Test func aCancelledContinuousGestureRunsOnCancelNotOnEnd() throws {
        let rig = try RuleRig("""
            [rule.hold]
            gesture = "long-press"
            fingers = 3
            command = "start"
            on-end = "end"
            on-cancel = "cancel"
            """)
        rig.pad(.holdBegin(fingers: 3), t: 0)
        rig.scheduler.advance(to: .milliseconds(600))
        rig.pad(.holdEnd(fingers: 3, cancelled: true), t: 700)
        #expect(rig.recorder.lines == ["hold recognized", "hold cancel"])
    }

    @Test func aDeviceNameGlobLimitsTheRuleToMatchingDevices() throws {
        let rig = try RuleRig("""
            [rule.other]
            gesture = "tap"
            device-name = "*Wacom*"
            command = "x"

            [rule.mine]
            gesture = "tap"
            device-name = "Test*"
            command = "y"
            """)
        rig.pad(.tap(fingers: 1), t: 0)
        #expect(rig.recorder.lines == ["mine recognized"])
        #expect(globMatches("*Touch?ad", "DLL075B:01 06CB:76AF Touchpad"))
        #expect(!globMatches("*Wacom*", "DLL075B:01 06CB:76AF Touchpad"))
    }
}

@Suite struct SwipeSectorCompileTests {
    @Test func swipeRulesSharingFingersWithADiagonalRuleAllUseEightSectors() throws {
        let rig = try RuleRig("""
            [rule.up]
            gesture = "swipe"
            direction = "up"
            command = "x"

            [rule.up-right]
            gesture = "swipe"
            direction = "up-right"
            command = "y"

            [rule.three-up]
            gesture = "swipe"
            fingers = 3
            direction = "up"
            command = "z"
            """)
        let swipes = Dictionary(uniqueKeysWithValues: rig.compiled.recognizers.map { ($0.name!, $0 as! SwipeGestureRecognizer) })
        #expect(swipes["up"]?.sectors == .eight)
        #expect(swipes["up-right"]?.sectors == .eight)
        #expect(swipes["three-up"]?.sectors == .four)
    }
}

@Suite struct PinchAndRotationRuleTests {
    /// A turn whose gap swells 5% before it has gone 4 degrees, then turns on.
    static func swellingTurn(_ rig: RuleRig) {
        rig.pad(.pinchBegin(fingers: 2), t: 0)
        rig.pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 1.05, angleDelta: 4), t: 10)
        rig.pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 1.05, angleDelta: 26), t: 20)
        rig.pad(.pinchEnd(fingers: 2, cancelled: false), t: 30)
    }

    @Test func withBothRulesTheChangeThatDominatesDecides() throws {
        let rig = try RuleRig("""
            [rule.zoom]
            gesture = "pinch"
            device = "touchpad"
            on-begin = "true"

            [rule.turn]
            gesture = "rotation"
            device = "touchpad"
            on-begin = "true"
            """)
        Self.swellingTurn(rig)
        #expect(rig.recorder.lines == ["turn begin"])
    }

    @Test func aPinchRuleAloneTakesTheSwellAsBefore() throws {
        let rig = try RuleRig("""
            [rule.zoom]
            gesture = "pinch"
            device = "touchpad"
            on-begin = "true"
            """)
        Self.swellingTurn(rig)
        #expect(rig.recorder.lines == ["zoom begin"])
    }
}
