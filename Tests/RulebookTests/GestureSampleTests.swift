import Testing
@testable import Rulebook
import TextWire
import TouchGestures

/// Records every stream sample, as the daemon's stream hub would get them.
final class SampleRecorder: CommandSink {
    var samples: [GestureSample] = []
    func run(_ request: CommandRequest) {}
    func wantsSamples(of rule: String) -> Bool { true }
    func stream(_ sample: GestureSample) { samples.append(sample) }
    var phases: [String] { samples.map { "\($0.rule) \($0.phase.rawValue)" } }
}

/// What a `stream` rule's command (and `touchgest events`) reads: one line per phase.
@Suite struct GestureSampleTests {
    final class Rig {
        let scheduler = ManualScheduler()
        let environment: GestureEnvironment
        let recorder = SampleRecorder()
        let compiled: CompiledRulebook

        init(_ text: String) throws {
            environment = GestureEnvironment(scheduler: scheduler)
            compiled = CompiledRulebook(try Rulebook.parse(text, file: "rules.toml"), sink: recorder) { _ in "Test \"Pad\"" }
            compiled.attach(to: environment)
        }

        func pad(_ gesture: TouchpadGesture, t: UInt64) {
            environment.handle(TouchpadEvent(gesture, timestamp: .milliseconds(t)))
        }
    }

    @Test func aPanStreamsBeganChangedAndEndedWithMillimetresVelocityAndProgress() throws {
        let rig = try Rig("""
            [rule.slide]
            gesture = "pan"
            fingers = 3
            device = "touchpad"
            progress-distance = 40
            stream = "cat"
            """)
        rig.pad(.swipeBegin(fingers: 3), t: 1_000)
        for step in 1...4 { rig.pad(.swipeUpdate(fingers: 3, delta: Point(x: -5, y: 0)), t: 1_000 + UInt64(step) * 10) }
        rig.pad(.swipeEnd(fingers: 3, cancelled: false), t: 1_050)
        #expect(rig.recorder.phases == ["slide began", "slide changed", "slide changed", "slide changed", "slide ended"])
        let first = try #require(rig.recorder.samples.first)
        // The pan begins past its 2 mm slop: on the first 5 mm update.
        #expect(first.readings.translation == Point(x: -5, y: 0))
        #expect(first.progress == 5.0 / 40)
        let last = try #require(rig.recorder.samples.last)
        #expect(last.jsonLine == """
            {"v":1,"rule":"slide","gesture":"pan","phase":"ended","time_us":1050000,"fingers":3,"device":"touchpad",\
            "device_name":"Test \\"Pad\\"","direction":"left","x":-20,"y":0,"dx":-20,"dy":0,"vx":-500,"vy":0,\
            "scale":null,"angle":null,"progress":0.5,"modifiers":"none","buttons":"none"}
            """)
    }

    @Test func aPinchStreamsItsScaleAndProgressAgainstTheDefaultScaleChangeOfOne() throws {
        let rig = try Rig("""
            [rule.zoom]
            gesture = "pinch"
            device = "touchpad"
            stream = "cat"
            """)
        rig.pad(.pinchBegin(fingers: 2), t: 0)
        for (step, scale) in [1.1, 1.3, 1.6].enumerated() {
            rig.pad(.pinchUpdate(fingers: 2, delta: .zero, scale: scale, angleDelta: 0), t: UInt64(step + 1) * 10)
        }
        rig.pad(.pinchEnd(fingers: 2, cancelled: true), t: 40)
        #expect(rig.recorder.phases == ["zoom began", "zoom changed", "zoom changed", "zoom cancelled"])
        #expect(rig.recorder.samples.map(\.direction) == [.out, .out, .out, .out])
        let last = try #require(rig.recorder.samples.last)
        #expect(last.readings.scale == 1.6)
        #expect(jsonNumber(last.progress) == "0.6")
        #expect(last.jsonLine.contains("\"dx\":null,\"dy\":null,\"vx\":null,\"vy\":null,\"scale\":1.6,\"angle\":null,\"progress\":0.6,\"modifiers\":\"none\",\"buttons\":\"none\"}"))
    }

    @Test func aHoldStreamsBeganAndEndedWithNoProgress() throws {
        let rig = try Rig("""
            [rule.hold]
            gesture = "long-press"
            fingers = 3
            device = "touchpad"
            stream = "cat"
            """)
        rig.pad(.holdBegin(fingers: 3), t: 0)
        rig.scheduler.advance(to: .milliseconds(600))
        rig.pad(.holdEnd(fingers: 3, cancelled: false), t: 900)
        #expect(rig.recorder.phases == ["hold began", "hold ended"])
        #expect(rig.recorder.samples.map(\.timestamp) == [.milliseconds(500), .milliseconds(900)])
        #expect(rig.recorder.samples.allSatisfy { $0.progress == nil && $0.fingers == 3 && $0.device == .indirect })
    }

    @Test func aSwipeIsOneRecognizedLineWithItsDirection() throws {
        let rig = try Rig("""
            [rule.flick]
            gesture = "swipe"
            fingers = 3
            device = "touchpad"
            stream = "cat"
            """)
        rig.pad(.swipeBegin(fingers: 3), t: 0)
        for step in 1...6 { rig.pad(.swipeUpdate(fingers: 3, delta: Point(x: 0, y: 6)), t: UInt64(step) * 10) }
        rig.pad(.swipeEnd(fingers: 3, cancelled: false), t: 70)
        #expect(rig.recorder.phases == ["flick recognized"])
        #expect(rig.recorder.samples.first?.direction == .down)
    }

    @Test func namesAreEscapedAndNumbersThatAreNotFiniteAreNull() {
        var snapshot = GestureSnapshot(rule: "a \"b\"\\\n\u{1}", gesture: .pinch, moment: .changed, timestamp: .milliseconds(1), fingers: 2)
        snapshot.readings.scale = .infinity
        let sample = GestureSample(snapshot, progress: .nan)
        #expect(sample.jsonLine.hasPrefix(#"{"v":1,"rule":"a \"b\"\\\n\u0001","gesture":"pinch","phase":"changed""#))
        #expect(sample.jsonLine.hasSuffix(#""scale":null,"angle":null,"progress":null,"modifiers":"none","buttons":"none"}"#))
        #expect(jsonNumber(-0.0001) == "0")
        #expect(jsonNumber(12.3456) == "12.346")
    }

    @Test func aRuleWithOnlyAStreamIsValidAndAnEmptyStreamOrAFarProgressIsAnError() throws {
        let book = try Rulebook.parse("[rule.s]\ngesture = \"rotation\"\nstream = \"my-slider\"\nprogress-distance = 45\n", file: "rules.toml")
        #expect(book.rules.first?.stream == "my-slider")
        #expect(book.rules.first?.progressDistance == 45)
        #expect(throws: RuleFileError.self) { try Rulebook.parse("[rule.s]\ngesture = \"pan\"\nstream = \" \"\n", file: "rules.toml") }
        do {
            _ = try Rulebook.parse("[rule.s]\ngesture = \"pan\"\nstream = \" \"\nprogress-distance = 2000\n", file: "rules.toml")
        } catch {
            #expect(error.diagnostics.map(\.description) == [
                "rules.toml:3:10: error: stream is empty; give the command that reads the gesture's JSON lines",
                "rules.toml:4:21: error: progress-distance 2000 is out of range for pan; expected 1 to 1000 millimetres",
            ])
        }
        do {
            _ = try Rulebook.parse("[rule.t]\ngesture = \"tap\"\nprogress-distance = 5\nstream = \"x\"\n", file: "rules.toml")
            Issue.record("progress-distance on a tap was accepted")
        } catch {
            #expect(error.diagnostics.map(\.message).first?.hasPrefix("key 'progress-distance' does not apply to gesture 'tap'") == true)
        }
    }
}
