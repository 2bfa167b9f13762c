import TestSupport
import Testing

/// What the adapter stamps and marks, checked in `touchgest debug --json` against the
/// frames the rig wrote.
@Suite(.serialized) struct AdapterTimingTests {
    /// The integer after `"KEY":` in a JSON line.
    func number(_ key: String, in line: String) -> Int? {
        guard let range = line.firstRange(of: "\"\(key)\":") else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }

    @Test func aTouchpadTapCarriesTheTimeTheFingerLandedAsLibinputStampsItsPressAndIsTimedAtTheLift() {
        let run = rig(devices: ["touchpad"], rules: "", script: """
            device touchpad
            tap 1 at 50,35 for 150ms
            wait 400ms
            """, arguments: "debug --json", extra: "--frame-log $FOLDER/frames", passRules: false) {
            $0.lines.contains { $0.contains("\"gesture\":\"tap\"") }
        }
        #expect(run.status == 0, "\(run.stderr)")
        let frames = readText("\(run.folder)/frames").split(separator: "\n").compactMap { Int($0.split(separator: " ")[1]) }
        let tap = run.lines.first { $0.contains("\"gesture\":\"tap\"") }
        #expect(frames.count == 2)
        // The finger landed in the first frame and lifted 150 ms later in the second.
        #expect(tap.flatMap { number("fingers-down", in: $0) } == frames.first)
        #expect(tap.flatMap { number("time", in: $0) } == frames.last)
    }

    @Test func twoTapsOf100msWith150msBetweenAreADoubleTap() {
        // libinput delivers a tap only at its lift. Were a tap timed when its finger
        // landed, the 300 ms interval would run from the first landing (0 ms) and end
        // before the second tap reaches touchgest (350 ms): measured, no double tap.
        let expected = ["double possible -> recognized"]
        let run = rig(devices: ["touchpad"], rules: """
            [rule.double]
            gesture = "tap"
            taps = 2
            device = "touchpad"
            command = "true"
            """, script: """
            device touchpad
            tap 1 at 50,35 for 100ms
            wait 150ms
            tap 1 at 50,35 for 100ms
            wait 600ms
            """) { $0.decisions == expected }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == expected)
    }

    @Test func inAFrameOnlyTouchesThatDidNotChangeAreStationary() {
        let run = rig(devices: ["touchscreen"], rules: "", script: """
            device touchscreen
            touch 2 at 100,100 move 30,0 over 48ms still 1
            wait 300ms
            """, arguments: "debug --json", passRules: false) {
            $0.lines.filter { $0.hasPrefix("{\"event\":\"frame\"") }.count == 8
        }
        #expect(run.status == 0, "\(run.stderr)")
        let frames = run.lines.filter { $0.hasPrefix("{\"event\":\"frame\"") }.map { $0.prefix { $0 != "]" } + "]" }
        // Both land; the first moves for 6 frames while the second rests; both lift.
        #expect(frames == ["{\"event\":\"frame\",\"touches\":[\"1 began\",\"2 began\"]"]
            + Array(repeating: "{\"event\":\"frame\",\"touches\":[\"1 moved\",\"2 stationary\"]", count: 6)
            + ["{\"event\":\"frame\",\"touches\":[\"1 ended\",\"2 ended\"]"])
    }
}
