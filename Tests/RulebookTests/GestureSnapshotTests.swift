import Testing
@testable import Rulebook
import TouchGestures

/// A command's `TOUCHGEST_*` variables, a stream's line and `touchgest debug`'s decision
/// are renderings of one moment of a gesture: they agree on its fingers, device and way.
@Suite struct GestureSnapshotTests {
    /// Every command, stream line and decision of one rule, in the order they came.
    final class Renderings: CommandSink {
        var environments: [[String: String]] = []
        var samples: [GestureSample] = []
        /// What `touchgest debug` shows at each transition, made as it makes it.
        var decisions: [GestureDecision] = []
        /// And at each command, from the request.
        var commandDecisions: [GestureDecision] = []
        var taps = 0
        func run(_ request: CommandRequest) {
            environments.append(request.environment)
            if let snapshot = request.snapshot { commandDecisions.append(GestureDecision(snapshot, taps: taps)) }
        }
        func wantsSamples(of rule: String) -> Bool { true }
        func stream(_ sample: GestureSample) { samples.append(sample) }
    }

    final class Rig {
        let scheduler = ManualScheduler()
        let environment: GestureEnvironment
        let renderings = Renderings()
        let compiled: CompiledRulebook
        var down: [Touch] = []

        init(_ text: String) throws {
            environment = GestureEnvironment(scheduler: scheduler)
            compiled = CompiledRulebook(try Rulebook.parse(text, file: "rules.toml"), sink: renderings) { _ in "Test Screen" }
            compiled.attach(to: environment)
            let rule = compiled.rulebook.rules[0]
            renderings.taps = rule.taps
            compiled.recognizers[0].addAction { [renderings] recognizer in
                guard let moment = GestureMoment(recognizer.state, continuous: rule.gesture.isContinuous), moment != .changed else { return }
                renderings.decisions.append(GestureDecision(rule: rule, recognizer: recognizer, moment: moment))
            }
        }

        func touch(_ id: Int, _ phase: TouchPhase, _ x: Double, _ y: Double, t: UInt64) {
            let touch = Touch(id: id, phase: phase, location: Point(x: x, y: y),
                              previousLocation: down.first { $0.id == id }?.location, timestamp: .milliseconds(t))
            environment.handle(.touches(TouchEvent(timestamp: .milliseconds(t), down: down, changed: [touch])))
            down.removeAll { $0.id == id }
            if !phase.isTerminal { down.append(touch) }
        }
    }

    /// fingers, device, direction as each rendering says them.
    static func said(_ environment: [String: String]) -> String {
        "\(environment["TOUCHGEST_FINGERS"] ?? "-") \(environment["TOUCHGEST_DEVICE"] ?? "-") \(environment["TOUCHGEST_DIRECTION"] ?? "-")"
    }

    static func said(_ sample: GestureSample) -> String {
        // Its fields hold no commas here (the device's name is "Test Screen").
        let fields = sample.jsonLine.dropFirst().dropLast().split(separator: ",")
        func field(_ name: String) -> String {
            guard let found = fields.first(where: { $0.hasPrefix("\"\(name)\":") }) else { return "?" }
            let value = found.dropFirst(name.count + 3)
            return value == "null" ? "-" : String(value.replacing("\"", with: ""))
        }
        return "\(field("fingers")) \(field("device")) \(field("direction"))"
    }

    static func said(_ decision: GestureDecision) -> String {
        "\(decision.fingers) \(decision.device.rawValue) \(decision.direction.map { "\($0)" } ?? "-")"
    }

    @Test func aFingerThatJoinsAHeldPressIsCountedAlikeByTheCommandTheStreamAndDebug() throws {
        let rig = try Rig("""
            [rule.hold]
            gesture = "long-press"
            device = "touchscreen"
            on-begin = "b"
            on-end = "e"
            stream = "cat"
            """)
        rig.touch(1, .began, 50, 50, t: 0)
        rig.scheduler.advance(to: .milliseconds(600))
        // As in UIKit, a finger added after the press began joins it and does not end it.
        rig.touch(2, .began, 70, 50, t: 700)
        rig.touch(1, .ended, 50, 50, t: 800)
        rig.touch(2, .ended, 70, 50, t: 800)
        let r = rig.renderings
        #expect(r.environments.map(Self.said) == ["1 touchscreen -", "2 touchscreen -"])
        #expect(r.samples.map(\.phase) == [.began, .ended])
        #expect(r.samples.map(Self.said) == ["1 touchscreen -", "2 touchscreen -"])
        #expect(r.decisions.map(Self.said) == ["1 touchscreen -", "2 touchscreen -"])
        #expect(r.decisions.map(\.summary) == ["long-press, 1 finger", "long-press, 2 fingers"])
        #expect(r.commandDecisions.map(Self.said) == r.decisions.map(Self.said))
    }

    @Test func aPanOnAScreenSaysItsWayAlikeAndEachStepItsOwn() throws {
        let rig = try Rig("""
            [rule.drag]
            gesture = "pan"
            device = "touchscreen"
            step = 10
            on-step = "s"
            on-end = "e"
            stream = "cat"
            """)
        rig.touch(1, .began, 100, 100, t: 0)
        for (step, x) in [94.0, 88, 82, 76].enumerated() { rig.touch(1, .moved, x, 100, t: UInt64(step + 1) * 10) }
        rig.touch(1, .moved, 76, 110, t: 50)
        rig.touch(1, .ended, 76, 110, t: 60)
        let r = rig.renderings
        // A step each 10 mm from where it began: one left, then one down; the end, 24 mm
        // left and 10 down, is net left.
        #expect(r.environments.map(Self.said) == ["1 touchscreen left", "1 touchscreen down", "1 touchscreen left"])
        #expect(r.environments.map { $0["TOUCHGEST_STEP"] ?? "-" } == ["1", "2", "-"])
        #expect(r.commandDecisions.map(Self.said) == r.environments.map(Self.said))
        #expect(r.samples.last.map(Self.said) == "1 touchscreen left")
        #expect(r.decisions.last.map(Self.said) == "1 touchscreen left")
    }
}
