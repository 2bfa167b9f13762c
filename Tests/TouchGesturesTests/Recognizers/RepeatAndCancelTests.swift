import Testing
@testable import TouchGestures

/// Every recognizer, its happy path, and a cancelled version of it.
struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let make: @Sendable () -> GestureRecognizer
    /// The gesture starting at `t` ms with touch ids from `id`.
    let gesture: @Sendable (_ t: UInt64, _ id: Int) -> [Step]
    /// The actions one gesture calls.
    let actions: [String]
    var testDescription: String { name }
}

let cases: [Case] = [
    Case(name: "tap", make: { TapGestureRecognizer() }, gesture: { tap([$1], at: (50, 50), t: $0) },
         actions: ["recognized"]),
    Case(name: "long-press", make: { LongPressGestureRecognizer() },
         gesture: { [.down($1, at: (50, 50), t: $0), .wait(t: $0 + 600), .up($1, t: $0 + 700)] },
         actions: ["began", "ended"]),
    Case(name: "swipe", make: { SwipeGestureRecognizer() },
         gesture: { drag([$1], from: (50, 50), by: (40, 0), t: $0, duration: 100) }, actions: ["recognized"]),
    Case(name: "pan", make: { PanGestureRecognizer() },
         gesture: { drag([$1], from: (50, 50), by: (40, 0), t: $0, duration: 40, frames: 4) },
         actions: ["began", "changed", "changed", "changed", "ended"]),
    Case(name: "pinch", make: { PinchGestureRecognizer() },
         gesture: { [.down($1, at: (50, 50), t: $0), .down($1 + 1, at: (90, 50), t: $0),
                     .move($1 + 1, to: (100, 50), t: $0 + 10), .move($1 + 1, to: (110, 50), t: $0 + 20),
                     .up($1, t: $0 + 30), .up($1 + 1, t: $0 + 30)] },
         actions: ["began", "changed", "ended"]),
    Case(name: "rotation", make: { RotationGestureRecognizer() },
         gesture: { [.down($1, at: (50, 50), t: $0), .down($1 + 1, at: (90, 50), t: $0),
                     .move($1 + 1, to: (90, 60), t: $0 + 10), .move($1 + 1, to: (90, 70), t: $0 + 20),
                     .up($1, t: $0 + 30), .up($1 + 1, t: $0 + 30)] },
         actions: ["began", "changed", "ended"]),
    Case(name: "edge-pan", make: {
            let edge = ScreenEdgePanGestureRecognizer()
            edge.edges = .left
            return edge
         },
         gesture: { drag([$1], from: (2, 50), by: (40, 0), t: $0, duration: 40, frames: 4) },
         actions: ["began", "changed", "changed", "changed", "ended"]),
]

@Suite struct RepeatAndCancelTests {
    @Test(arguments: cases)
    func repeatingTheGestureCallsEachActionOncePerGesture(_ testCase: Case) {
        let rig = Rig()
        let recognizer = rig.add(testCase.make(), "r")
        rig.run(testCase.gesture(0, 1) + [.wait(t: 2000)] + testCase.gesture(3000, 10) + [.wait(t: 5000)])
        let actions = rig.log.filter { $0.contains(" action ") }.map { String($0.split(separator: " ").last!) }
        #expect(actions == testCase.actions + testCase.actions)
        #expect(recognizer.state == .possible)
        #expect(rig.environment.isIdle)
    }

    @Test(arguments: cases)
    func cancellingEveryTouchMidGestureLeavesNothingOpen(_ testCase: Case) {
        let rig = Rig()
        rig.add(testCase.make(), "r")
        // Keep the gesture up to its last frame, then cancel its touches instead of lifting.
        let steps = testCase.gesture(0, 1)
        let lastTime = steps.last!.time
        var cancelled: [Step] = steps.filter { $0.time < lastTime }
        if case .wait = steps[steps.count - 2] { cancelled = Array(steps.dropLast()) }
        let down = Set(cancelled.compactMap { if case let .down(id, _, _) = $0 { id } else { nil } })
            .subtracting(cancelled.compactMap { if case let .up(id, _) = $0 { id } else { nil } })
        rig.run(cancelled + down.sorted().map { .cancel($0, t: lastTime) })
        rig.settle()
        let last = rig.log.last ?? ""
        #expect(last.hasSuffix("cancelled") || last.hasSuffix("failed") || last.hasSuffix("recognized"), "\(rig.log)")
        #expect(!rig.log.contains { $0.hasSuffix("action r ended") })
        #expect(rig.environment.isIdle)
    }
}
