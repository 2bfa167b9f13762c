import Testing
@testable import Rulebook
import TouchGestures

/// What continuous rules tell their commands, and how a swipe rule shares fingers with a pan rule.
@Suite struct ContinuousGestureTests {
    private func direction(_ request: CommandRequest?) -> String? {
        request?.environment["TOUCHGEST_DIRECTION"]
    }

    @Test(arguments: [(0.7, "in"), (1.4, "out")])
    func aPinchsEndSaysWhetherItWentInOrOut(scale: Double, expected: String) throws {
        let rig = try RuleRig("""
            [rule.zoom]
            gesture = "pinch"
            device = "touchpad"
            on-end = "end"
            """)
        rig.pad(.pinchBegin(fingers: 2), t: 0)
        for step in 1...5 {
            let s = 1 + (scale - 1) * Double(step) / 5
            rig.pad(.pinchUpdate(fingers: 2, delta: .zero, scale: s, angleDelta: 0), t: UInt64(step) * 10)
        }
        rig.pad(.pinchEnd(fingers: 2, cancelled: false), t: 60)
        let end = try #require(rig.recorder.requests.last)
        #expect(end.phase == .end)
        #expect(direction(end) == expected)
    }

    @Test func aRotationsEndSaysWhichWayItTurned() throws {
        let rig = try RuleRig("""
            [rule.turn]
            gesture = "rotation"
            device = "touchpad"
            on-end = "end"
            """)
        rig.pad(.pinchBegin(fingers: 2), t: 0)
        for step in 1...5 {
            rig.pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 1, angleDelta: -5), t: UInt64(step) * 10)
        }
        rig.pad(.pinchEnd(fingers: 2, cancelled: false), t: 60)
        #expect(direction(rig.recorder.requests.last) == "counterclockwise")
    }

    @Test func aPansEndSaysWhereItWentOverall() throws {
        let rig = try RuleRig("""
            [rule.drag]
            gesture = "pan"
            fingers = 3
            device = "touchpad"
            on-end = "end"
            """)
        rig.pad(.swipeBegin(fingers: 3), t: 0)
        // Up a little, then far to the left.
        rig.pad(.swipeUpdate(fingers: 3, delta: Point(x: 0, y: -5)), t: 10)
        for step in 2...6 { rig.pad(.swipeUpdate(fingers: 3, delta: Point(x: -6, y: 0)), t: UInt64(step) * 10) }
        rig.pad(.swipeEnd(fingers: 3, cancelled: false), t: 70)
        #expect(direction(rig.recorder.requests.last) == "left")
    }

    static let swipeAndPan = """
        [rule.flick]
        gesture = "swipe"
        fingers = 3
        direction = "any"
        device = "touchpad"
        command = "flick"

        [rule.drag]
        gesture = "pan"
        fingers = 3
        device = "touchpad"
        on-begin = "drag"
        """

    @Test func aPanRuleWaitsForASwipeRuleOnTheSameFingers() throws {
        let book = try Rulebook.parse(Self.swipeAndPan, file: "rules.toml")
        #expect(book.requirements == [Rulebook.Requirement(waiter: "drag", waitedOn: "flick", reason: .swipe)])
    }

    @Test func aQuickSwipeBeatsThePanAndASlowDragIsThePan() throws {
        let quick = try RuleRig(Self.swipeAndPan)
        quick.pad(.swipeBegin(fingers: 3), t: 0)
        // 3 mm every 8 ms: 375 mm/s.
        for step in 1...8 { quick.pad(.swipeUpdate(fingers: 3, delta: Point(x: 3, y: 0)), t: UInt64(step) * 8) }
        quick.pad(.swipeEnd(fingers: 3, cancelled: false), t: 72)
        #expect(quick.recorder.lines == ["flick recognized"])

        let slow = try RuleRig(Self.swipeAndPan)
        slow.pad(.swipeBegin(fingers: 3), t: 0)
        // 0.3 mm every 8 ms: 37.5 mm/s, a drag.
        for step in 1...60 { slow.pad(.swipeUpdate(fingers: 3, delta: Point(x: 0.3, y: 0)), t: UInt64(step) * 8) }
        slow.pad(.swipeEnd(fingers: 3, cancelled: false), t: 488)
        #expect(slow.recorder.lines == ["drag begin"])
    }

    @Test func aSwipeRuleAloneFiresHoweverSlowlyTheFingersStart() throws {
        let rig = try RuleRig("""
            [rule.flick]
            gesture = "swipe"
            fingers = 3
            direction = "any"
            device = "touchpad"
            command = "flick"
            """)
        rig.pad(.swipeBegin(fingers: 3), t: 0)
        for step in 1...60 { rig.pad(.swipeUpdate(fingers: 3, delta: Point(x: 0.3, y: 0)), t: UInt64(step) * 8) }
        rig.pad(.swipeEnd(fingers: 3, cancelled: false), t: 488)
        #expect(rig.recorder.lines == ["flick recognized"])
    }
}
