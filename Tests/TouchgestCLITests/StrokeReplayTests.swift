import HumanInput
import TestSupport
import Testing

/// `touchgest replay` and its stroke lines: every stroke, fired or not, with its closest
/// rules and their scores, so a user can tune a threshold.
@Suite struct StrokeReplayTests {
    static let rules = """
        [rule.v]
        gesture = "stroke"
        device = "touchscreen"
        template = [[0, 0], [0.5, 1], [1, 0]]
        command = "true"

        [rule.caret]
        gesture = "stroke"
        device = "touchscreen"
        template = [[0, 1], [0.5, 0], [1, 1]]
        command = "true"
        """

    static func replay(_ shapes: [DrawnShape], options: String = "") -> Result {
        let folder = temporaryFolder()
        let samples = shapes.enumerated().flatMap { index, shape in
            StrokeCorpus.drawings(of: shape, by: StrokeCorpus.Hand(touchpad: false, fingers: 1), count: 1, stream: 700 + index)
        }
        writeText("\(folder)/drawings.tgrec", RecordingText.recording(samples))
        writeText("\(folder)/rules.toml", rules)
        return touchgest("replay \(folder)/drawings.tgrec --rules \(folder)/rules.toml \(options)")
    }

    /// The lines without the replay's clock.
    static func lines(_ result: Result) -> [String] {
        result.stdout.split(separator: "\n").map { String($0.drop { $0 != " " }.dropFirst()) }
    }

    @Test func everyStrokeHasALineWithItsClosestRulesWhetherItFiredOrNot() {
        let result = Self.replay([.v, .z])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = Self.lines(result)
        #expect(lines.contains { $0.hasPrefix("v recognized: stroke, 1 finger, score 0.") }, "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("stroke, 1 finger, ") && $0.contains(" mm: v 0.") && $0.contains("(threshold 0.70) fired; then caret 0.") },
                "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("stroke, 1 finger, ") && $0.contains(": nothing fired; best ") && $0.contains("(threshold 0.70, ") },
                "\(result.stdout)")
        #expect(!lines.contains { $0.hasPrefix("caret recognized") })
    }

    @Test func asJSONEachStrokeListsEveryRuleWithItsScoreThresholdTemplateAndEnding() {
        let result = Self.replay([.v], options: "--json")
        let strokes = result.stdout.split(separator: "\n").filter { $0.hasPrefix("{\"event\":\"stroke\"") }
        #expect(strokes.count == 1, "\(result.stdout)")
        let line = String(strokes.first ?? "")
        #expect(line.hasPrefix("{\"event\":\"stroke\",\"fingers\":1,\"device\":\"touchscreen\",\"length\":"), "\(line)")
        #expect(line.contains(",\"fired\":\"v\",\"matches\":[{\"rule\":\"v\",\"score\":0."), "\(line)")
        // One template and no threshold in the rule: the adapted threshold's floor.
        #expect(line.contains("\"threshold\":0.7,\"template\":1,\"ending\":\"recognized\"}"), "\(line)")
        #expect(line.contains("{\"rule\":\"caret\",\"score\":"), "\(line)")
    }
}
