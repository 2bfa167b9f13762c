import Testing
@testable import Rulebook
import TouchGestures

/// Numbers and durations outside their documented ranges are errors naming value and range.
@Suite struct ValueRangeTests {
    @Test func hugeDurationsAreOutOfRangeNotATrap() {
        #expect(diagnostics("""
            [settings]
            timeout = "10000000000000s"

            [rule.a]
            gesture = "tap"
            command = "x"
            timeout = "1e400s"
            max-interval = "0.5ms"
            """) == [
                "rules.toml:2:11: error: timeout '10000000000000s' is out of range; expected 1ms to 3600s",
                "rules.toml:7:11: error: timeout '1e400s' is not a duration; write a number with ms or s from 1ms to 3600s, like \"300ms\" or \"2s\"",
                "rules.toml:8:16: error: max-interval '0.5ms' is out of range; expected 10ms to 2s",
            ])
    }

    @Test func durationsAtTheirBoundsAreAccepted() throws {
        let book = try Rulebook.parse("""
            [rule.a]
            gesture = "long-press"
            duration = "60s"
            max-tap-duration = "10ms"
            timeout = "3600s"
            command = "x"
            """, file: "rules.toml")
        #expect(book.rules[0].tunables["duration"] == .duration(.seconds(60)))
        #expect(book.rules[0].tunables["max-tap-duration"] == .duration(.milliseconds(10)))
        #expect(book.rules[0].timeout == .seconds(3600))
    }

    @Test func eachGestureHasAMinimumStep() {
        #expect(diagnostics("""
            [rule.zoom]
            gesture = "pinch"
            step = 0.009
            on-step = "x"

            [rule.turn]
            gesture = "rotation"
            step = 0.5
            on-step = "x"

            [rule.drag]
            gesture = "pan"
            step = 0
            on-step = "x"

            [rule.edge]
            gesture = "edge-pan"
            step = inf
            on-step = "x"
            """) == [
                "rules.toml:3:8: error: step 0.009 is out of range for pinch; expected 0.01 to 10 in scale",
                "rules.toml:8:8: error: step 0.5 is out of range for rotation; expected 1 to 360 degrees",
                "rules.toml:13:8: error: step 0 is out of range for pan; expected 1 to 1000 millimetres",
                "rules.toml:18:8: error: step must be a number from 1 to 1000 millimetres, not the number inf",
            ])
    }

    @Test func everyOtherNumberHasARange() {
        #expect(diagnostics("""
            [settings]
            tap-slop = 51
            swipe-velocity = 10001
            edge-pan-width = 0.5

            [rule.a]
            gesture = "swipe"
            distance = 501
            command = "x"

            [rule.b]
            gesture = "rotation"
            threshold = 181
            command = "x"

            [rule.c]
            gesture = "tap"
            multi-tap-slop = 0
            command = "x"

            [rule.d]
            gesture = "pinch"
            threshold = 3
            command = "x"
            """) == [
                "rules.toml:2:12: error: tap-slop 51 is out of range; expected 0.1 to 50 millimetres",
                "rules.toml:3:18: error: swipe-velocity 10001 is out of range; expected 1 to 10000 millimetres per second",
                "rules.toml:4:18: error: edge-pan-width 0.5 is out of range; expected 1 to 100 millimetres",
                "rules.toml:8:12: error: distance 501 is out of range; expected 1 to 500 millimetres",
                "rules.toml:13:13: error: threshold 181 is out of range; expected 1 to 180 degrees",
                "rules.toml:18:18: error: multi-tap-slop 0 is out of range; expected 1 to 100 millimetres",
                "rules.toml:23:13: error: threshold 3 is out of range; expected 0.01 to 2 in scale",
            ])
    }

    @Test func aPanWithOnlyMinFingersPansWithThatManyOrMore() throws {
        let book = try Rulebook.parse("""
            [rule.a]
            gesture = "pan"
            min-fingers = 2
            command = "x"
            """, file: "rules.toml")
        #expect(book.rules[0].fingers == 2 && book.rules[0].maxFingers == 10)
        #expect(book.explain() == "a  pan, 2-10 fingers, any")
    }

    @Test func aFingerRangeThatIsEmptyBlamesTheKeyThatWasWritten() {
        #expect(diagnostics("""
            [rule.a]
            gesture = "pan"
            min-fingers = 4
            max-fingers = 3
            command = "x"

            [rule.b]
            gesture = "pan"
            fingers = 2
            min-fingers = 3
            command = "x"
            """) == [
                "rules.toml:4:15: error: max-fingers 3 is less than the 4 fingers the rule needs",
                "rules.toml:10:15: error: min-fingers 3 is more than fingers = 2; for a range give min-fingers and max-fingers instead of fingers",
            ])
    }
}

/// On-step commands stay bounded whatever scale or angle the device reports.
@Suite struct StepBoundTests {
    static let zoom = """
        [rule.zoom]
        gesture = "pinch"
        step = 0.01
        on-step = "step"
        """

    @Test func aHugeScaleRunsAtMostAHundredStepsPerUpdate() throws {
        let rig = try RuleRig(Self.zoom)
        rig.pad(.pinchBegin(fingers: 2), t: 0)
        rig.pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 1.06, angleDelta: 0), t: 5)
        rig.pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 1.5, angleDelta: 0), t: 10)
        #expect(rig.recorder.requests.count == 50)
        rig.pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 1e9, angleDelta: 0), t: 20)
        #expect(rig.recorder.requests.count == 150)
        #expect(rig.recorder.requests.last?.environment["TOUCHGEST_STEP"] == "150")
        rig.pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 1e300, angleDelta: 0), t: 30)
        #expect(rig.recorder.requests.count == 250)
    }

    @Test func aScaleThatIsNotFiniteIsNoStep() throws {
        let rig = try RuleRig(Self.zoom)
        rig.pad(.pinchBegin(fingers: 2), t: 0)
        rig.pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 1.06, angleDelta: 0), t: 5)
        rig.pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 1.02, angleDelta: 0), t: 10)
        #expect(rig.recorder.requests.count == 2)
        rig.pad(.pinchUpdate(fingers: 2, delta: .zero, scale: .infinity, angleDelta: 0), t: 20)
        rig.pad(.pinchUpdate(fingers: 2, delta: .zero, scale: .nan, angleDelta: 0), t: 30)
        #expect(rig.recorder.requests.count == 2)
        rig.pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 0.99, angleDelta: 0), t: 40)
        #expect(rig.recorder.requests.map { $0.environment["TOUCHGEST_STEP"] ?? "" } == ["1", "2", "1", "0", "-1"])
    }

    @Test func aHugeAngleRunsAtMostAHundredSteps() throws {
        let rig = try RuleRig("""
            [rule.turn]
            gesture = "rotation"
            step = 1
            on-step = "step"
            """)
        rig.pad(.pinchBegin(fingers: 2), t: 0)
        rig.pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 1, angleDelta: 10), t: 10)
        let before = rig.recorder.requests.count
        rig.pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 1, angleDelta: 1e300), t: 20)
        #expect(rig.recorder.requests.count - before == 100)
        rig.pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 1, angleDelta: .infinity), t: 30)
        #expect(rig.recorder.requests.count - before == 100)
    }
}

/// Rule files that are valid but large stay cheap to check. Each rule has its own
/// device-name, so no two rules match the same gesture.
@Suite struct RuleCountTests {
    static func pan(_ index: Int, waitsFor: [Int]) -> String {
        let names = waitsFor.map { "\"r\($0)\"" }.joined(separator: ", ")
        return "[rule.r\(index)]\ngesture = \"pan\"\ndevice-name = \"d\(index)\"\ncommand = \"x\"\nrequire-to-fail = [\(names)]\n"
    }

    @Test func aFileHoldsAtMost1024Rules() {
        let rules = (0...1024).map { "rule.r\($0) = { gesture = \"pan\", device-name = \"d\($0)\", command = \"x\" }" }
        #expect(diagnostics(rules.joined(separator: "\n")) == [
            "rules.toml:1025:6: error: rule 'r1024' is one too many: a file holds at most 1024 rules",
        ])
        #expect(diagnostics(rules.dropLast().joined(separator: "\n")) == [])
    }

    /// Rule i waits for i+1 and i+2: a search that follows every path takes 2^n steps.
    @Test func aLatticeOfRequirementsIsCheckedWithoutFollowingEveryPath() throws {
        let count = 200
        let lattice = (0..<count).map { Self.pan($0, waitsFor: [$0 + 1, $0 + 2].filter { $0 < count }) }.joined(separator: "\n")
        let book = try Rulebook.parse(lattice, file: "rules.toml")
        #expect(book.rules.count == count && book.requirements.count == 2 * count - 3)
        let cyclic = lattice.replacingFirst(Self.pan(count - 1, waitsFor: []), with: Self.pan(count - 1, waitsFor: [0]))
        let errors = diagnostics(cyclic)
        #expect(errors.count == 1)
        // One way round, from r0 to r199 and back; each step one the file wrote.
        let cycle = errors.first?.split(separator: ";").first ?? ""
        #expect(cycle.hasPrefix("rules.toml:5:19: error: require-to-fail cycle: r0 -> "))
        #expect(cycle.hasSuffix(" -> r199 -> r0"))
        let steps = cycle.split(separator: "cycle: ").last?.split(separator: " -> ").map { Int($0.dropFirst())! } ?? []
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $1 == $0 + 1 || $1 == $0 + 2 || ($0 == 199 && $1 == 0) })
    }

    @Test func aLongCycleIsReportedOnceFromTheRuleWritten() {
        let rules = (0..<50).map { Self.pan($0, waitsFor: [($0 + 1) % 50]) }.joined(separator: "\n")
        let result = diagnostics(rules)
        #expect(result.count == 1)
        #expect(result.first?.hasPrefix("rules.toml:5:19: error: require-to-fail cycle: r0 -> r1 -> r2 -> ") == true)
        #expect(result.first?.contains("r49 -> r0; each would wait for the other forever: r0 waits for r1 (require-to-fail)") == true)
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        return String(self[..<range.lowerBound]) + replacement + self[range.upperBound...]
    }
}

/// `[settings] device-size`: the command line's `GLOB=WIDTHxHEIGHT`, in the rule file.
@Suite struct DeviceSizeSettingTests {
    @Test func sizesAreReadInOrder() throws {
        let book = try Rulebook.parse("""
            [settings]
            device-size = ["ILITEK*=197x115", "Goodix*=155.5x87"]
            """, file: "rules.toml")
        #expect(book.settings.deviceSizes.map(\.description) == ["ILITEK*=197.0x115.0", "Goodix*=155.5x87.0"])
    }

    @Test func aBadSizeNamesItsPlaceAndTheForm() {
        do {
            _ = try Rulebook.parse("[settings]\ndevice-size = [\"ILITEK*=197x115\", \"Goodix*=155\"]\n", file: "rules.toml")
            Issue.record("parsed")
        } catch {
            #expect(error.diagnostics.map(\.description) == [
                "rules.toml:2:35: error: invalid device size 'Goodix*=155': '155' is not WIDTHxHEIGHT; expected NAME-GLOB=WIDTHxHEIGHT in millimetres, e.g. 'ILITEK*=197x115'",
            ])
        }
    }
}

/// Globs are matched in time proportional to the pattern times the text; a pattern far
/// longer than any name is refused where it stands (issue 24).
@Suite struct GlobLengthTests {
    @Test func aDeviceNameGlobOverTheBoundIsAnErrorAtItsValue() {
        let long = String(repeating: "*", count: 1_025)
        #expect(diagnostics("[rule.a]\ngesture = \"tap\"\ndevice-name = \"\(long)\"\ncommand = \"x\"\n") == [
            "rules.toml:3:15: error: device-name is 1025 characters long; a glob may have at most 1024",
        ])
        // At the bound it is taken.
        #expect(diagnostics("[rule.a]\ngesture = \"tap\"\ndevice-name = \"\(long.dropLast())\"\ncommand = \"x\"\n") == [])
    }

    @Test func aWindowGlobOverTheBoundIsAnError() {
        let long = String(repeating: "a*", count: 600)
        #expect(diagnostics("[rule.a]\ngesture = \"tap\"\ntitle = [\"ok\", \"\(long)\"]\ncommand = \"x\"\n") == [
            "rules.toml:3:9: error: title has a glob 1200 characters long; a glob may have at most 1024",
        ])
    }

    @Test func aDeviceSizePatternOverTheBoundIsAnError() {
        let long = String(repeating: "*", count: 300_000)
        #expect(diagnostics("[settings]\ndevice-size = \"\(long)=100x60\"\n") == [
            "rules.toml:2:15: error: invalid device size: the name pattern is 300000 characters long; a glob may have at most 1024",
        ])
    }
}
