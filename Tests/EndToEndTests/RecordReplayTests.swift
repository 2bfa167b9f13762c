import Glibc
import TestSupport
import Testing

/// What touchgest record writes, touchgest replay decides the same way as the live engine.
@Suite(.serialized) struct RecordReplayTests {
    static let rules = """
        [rule.swipe]
        gesture = "swipe"
        fingers = 3
        direction = ["left", "right"]
        command = "true"

        [rule.zoom]
        gesture = "pinch"
        step = 0.5
        on-step = "true"

        [rule.screen-tap]
        gesture = "tap"
        device = "touchscreen"
        command = "true"

        [rule.screen-double-tap]
        gesture = "tap"
        taps = 2
        device = "touchscreen"
        command = "true"
        """
    static let script = """
        device touchpad
        touch 3 at 70,35 move -35,0 over 200ms
        wait 300ms
        pinch 2 at 50,35 from 20 to 60 over 300ms
        wait 300ms
        device touchscreen
        tap 1 at 150,100
        wait 600ms
        tap 1 at 150,100
        wait 100ms
        tap 1 at 150,100
        wait 600ms
        """

    @Test func aRecordingReplaysToTheDecisionsTheLiveRunMade() {
        let expected = ["swipe possible -> recognized", "zoom possible -> began", "zoom changed -> ended",
                        "screen-tap possible -> recognized", "screen-double-tap possible -> recognized"]
        let live = rig(devices: ["touchpad", "touchscreen"], rules: Self.rules, script: Self.script) { $0.decisions == expected }
        #expect(live.decisions == expected)
        let recorded = rig(devices: ["touchpad", "touchscreen"], rules: Self.rules, script: Self.script,
                           arguments: "record $FOLDER/input.tgrec")
        #expect(recorded.status == 0, "\(recorded.stderr)")
        var status = stat()
        #expect(stat("\(recorded.folder)/input.tgrec", &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600, "a recording can reveal typing: only its owner may read it")
        let replay = touchgestOutput("replay \(recorded.folder)/input.tgrec --rules \(recorded.folder)/rules.toml -v")
        let decisions = replay.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ").dropFirst()
            guard words.count >= 4, words[words.startIndex + 2] == "->",
                  ["began", "recognized", "ended", "cancelled"].contains(words[words.startIndex + 3]) else { return nil }
            return words.prefix(4).joined(separator: " ")
        }
        #expect(decisions == expected)
    }
}
