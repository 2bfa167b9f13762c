import Glibc
import TestSupport
import Testing

/// Drawn strokes through the real libinput: a shape taught with touchgest learn, live or
/// from a recording, and then recognized by run and replay.
@Suite(.serialized) struct StrokeTests {
    /// Three Vs drawn a little differently each time, 40 mm across, on the touchscreen.
    static let vs = """
        device touchscreen
        stroke 1 at 100,60 through 20,40 40,0 over 450ms
        wait 400ms
        stroke 1 at 80,50 through 24,46 46,4 over 550ms
        wait 400ms
        stroke 1 at 120,70 through 17,38 38,-3 over 400ms
        wait 600ms
        """

    static func templates(_ rules: String) -> Int {
        guard let start = rules.firstRange(of: "template = [\n"), let end = rules[start.upperBound...].firstRange(of: "\n]") else { return 0 }
        return rules[start.upperBound..<end.lowerBound].split(separator: "\n").count
    }

    @Test func aShapeLearnedLiveIsAppendedToTheRulesAndRunRecognizesIt() {
        let learned = rig(devices: ["touchscreen"], rules: "# my rules\n\n[rule.tap]\ngesture = \"tap\"\ncommand = \"true\"\n",
                          script: Self.vs, arguments: "learn v --append --command 'echo v $TOUCHGEST_SCORE >> $FOLDER/out'",
                          extra: "--merge-stderr") { readText("\($0.folder)/rules.toml").contains("[rule.v]") }
        #expect(learned.status == 0, "\(learned.lines)")
        let rules = readText("\(learned.folder)/rules.toml")
        #expect(rules.hasPrefix("# my rules\n\n[rule.tap]\ngesture = \"tap\"\ncommand = \"true\"\n\n[rule.v]\n"), "\(rules)")
        #expect(Self.templates(rules) == 3, "\(rules)")
        #expect(learned.lines.filter { $0.hasPrefix("example ") && $0.contains(" scores ") }.count == 3, "\(learned.lines)")

        // The same shape drawn again, larger, elsewhere; then a caret, which is no V.
        let run = rig(devices: ["touchscreen"], rules: rules, script: """
            device touchscreen
            stroke 1 at 150,80 through 30,55 60,2 over 600ms
            wait 500ms
            stroke 1 at 150,140 through 25,-50 50,0 over 500ms
            wait 500ms
            """, arguments: "run --allow-root", extra: "--merge-stderr --signal TERM --ready 'device added'") { _ in
            readText("\(learned.folder)/out").hasPrefix("v ")
        }
        #expect(run.status == 0, "\(run)")
        let fired = readText("\(learned.folder)/out").split(separator: "\n").map(String.init)
        #expect(fired.count == 1, "\(fired)")
        let score = fired.first.flatMap { Double($0.dropFirst(2)) } ?? 0
        #expect(score >= 0.8, "\(fired)")
    }

    @Test func debugShowsEveryStrokesClosestRuleAndScoreEvenOneThatFiredNothing() {
        let rules = """
            [rule.v]
            gesture = "stroke"
            device = "touchscreen"
            template = [[0, 0], [0.5, 1], [1, 0]]
            command = "true"
            """
        let run = rig(devices: ["touchscreen"], rules: rules, script: """
            device touchscreen
            stroke 1 at 100,60 through 20,40 40,0 over 450ms
            wait 400ms
            stroke 1 at 100,60 through 40,0 0,40 40,40 over 600ms
            wait 400ms
            """, arguments: "debug") { run in run.lines.contains { $0.contains("nothing fired") } }
        #expect(run.status == 0, "\(run.stderr)")
        let strokes = run.lines.filter { $0.hasPrefix("stroke, 1 finger, ") }
        #expect(strokes.count == 2, "\(run)")
        let fired = strokes.first ?? ""
        // One template and no `threshold`: the rule's threshold adapts to its templates'
        // spread, and a single template has none, so it takes the floor, 0.70 (docs/strokes.md).
        #expect(fired.contains(" mm: v ") && fired.hasSuffix("(threshold 0.70) fired"), "\(strokes)")
        #expect(strokes.last?.contains(": nothing fired; best v 0.") == true, "\(strokes)")
        // The line follows the decision it reports.
        let decided = run.lines.firstIndex { $0.hasPrefix("v possible -> recognized") } ?? .max
        #expect(decided < run.lines.firstIndex(of: fired) ?? -1, "\(run)")
        #expect(run.decisions == ["v possible -> recognized"])
    }

    @Test func aTouchpadRecordingWithItsFingersTeachesAStrokeThatReplayRecognizes() {
        // Three-finger circles, clockwise from the top, on the touchpad's fingers.
        let circle = (0...12).map { index -> String in
            let angle = -Double.pi / 2 + 2 * .pi * Double(index) / 12
            return "\(Int((12 * cos(angle)).rounded())),\(Int((12 + 12 * sin(angle)).rounded()))"
        }.dropFirst().joined(separator: " ")
        let script = "device touchpad\n" + (0..<3).map { _ in "stroke 3 at 50,23 through \(circle) over 700ms\nwait 500ms\n" }.joined()
        let recorded = rig(devices: ["touchpad"], rules: "", script: script, arguments: "record --fingers $FOLDER/circles.tgrec")
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let file = "\(recorded.folder)/circles.tgrec"
        #expect(readText(file).contains(" touches "), "the fingers are recorded")

        let learned = touchgestOutput("learn circle --fingers 3 --from \(file) --rules \(recorded.folder)/none.toml")
        #expect(learned.contains("[rule.circle]\ngesture = \"stroke\"\ndevice = \"touchpad\"\nfingers = 3\n"), "\(learned)")
        #expect(Self.templates(learned) == 3, "\(learned)")
        writeText("\(recorded.folder)/learned.toml", String(learned[learned.firstRange(of: "[rule.circle]")!.lowerBound...]))

        let replay = touchgestOutput("replay \(file) --rules \(recorded.folder)/learned.toml")
        let recognized = replay.split(separator: "\n").filter { $0.contains("circle recognized: stroke, 3 fingers") }
        #expect(recognized.count == 3, "\(replay)")
        #expect(replay.split(separator: "\n").filter { $0.contains("stroke, 3 fingers") && $0.contains("circle") && $0.contains("fired") }.count == 3,
                "every stroke has its line with its score: \(replay)")
    }
}
