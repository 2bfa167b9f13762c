import Glibc
import HumanInput
import TestSupport
import Testing

/// `touchgest learn --from`: drawings in a recording become a stroke rule, printed or
/// appended, with what the user needs to know about them.
@Suite struct LearnCommandTests {
    static let hand = StrokeCorpus.Hand(touchpad: false, fingers: 1)

    /// A recording of `shapes` drawn one after another, written in a new folder.
    static func recording(_ shapes: [DrawnShape], stream: Int = 3) -> (folder: String, file: String) {
        let folder = temporaryFolder()
        let samples = shapes.enumerated().flatMap { index, shape in
            StrokeCorpus.drawings(of: shape, by: hand, count: 1, stream: stream * 100 + index)
        }
        writeText("\(folder)/drawings.tgrec", RecordingText.recording(samples))
        return (folder, "\(folder)/drawings.tgrec")
    }

    static func templates(_ rule: String) -> Int {
        rule.split(separator: "\n").filter { $0.hasPrefix("    [[") }.count
    }

    @Test func drawingsInARecordingBecomeARuleWithATemplateEach() {
        let (folder, file) = Self.recording([.v, .v, .v])
        let result = touchgest("learn volume --from \(file) --rules \(folder)/rules.toml --command 'pactl set-sink-volume @DEFAULT_SINK@ +5%'")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("[rule.volume]\ngesture = \"stroke\"\ndevice = \"touchscreen\"\nfingers = 1\ntemplate = [\n"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("]\ncommand = \"pactl set-sink-volume @DEFAULT_SINK@ +5%\"\n"), "\(result.stdout)")
        #expect(Self.templates(result.stdout) == 3)
        let scores = result.stderr.split(separator: "\n").filter { $0.hasPrefix("example ") && $0.contains(" scores ") }
        #expect(scores.count == 3, "\(result.stderr)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        #expect(access("\(folder)/rules.toml", F_OK) != 0, "printing writes nothing")
    }

    @Test func appendAddsTheRuleAtTheEndAndNeverChangesWhatWasThere() {
        let (folder, file) = Self.recording([.circleClockwise, .circleClockwise, .circleClockwise])
        let before = "# mine\n[rule.tap]\ngesture = \"tap\"\ncommand = \"true\"\n"
        writeText("\(folder)/rules.toml", before)
        let first = touchgest("learn circle --from \(file) --rules \(folder)/rules.toml --append")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.isEmpty)
        #expect(first.stderr.contains("touchgest: added rule 'circle' to \(folder)/rules.toml"))
        let after = readText("\(folder)/rules.toml")
        #expect(after.hasPrefix(before + "\n[rule.circle]\ngesture = \"stroke\"\n"), "\(after)")
        #expect(touchgest("check --rules \(folder)/rules.toml").stdout == "ok\n")

        let again = touchgest("learn circle --from \(file) --rules \(folder)/rules.toml --append")
        #expect(again.status == 1)
        #expect(again.stderr.contains("touchgest: error: \(folder)/rules.toml has a rule named 'circle' already; choose another name, or edit that rule"))
        #expect(readText("\(folder)/rules.toml") == after)
    }

    @Test func aNewFileIsMadePrivateAndABrokenOneIsLeftAlone() {
        let (folder, file) = Self.recording([.z, .z])
        let made = touchgest("learn z --from \(file) --rules \(folder)/config/touchgest/rules.toml --append")
        #expect(made.status == 0, "\(made.stderr)")
        var status = stat()
        #expect(stat("\(folder)/config/touchgest/rules.toml", &status) == 0 && status.st_mode & 0o777 == 0o600)
        writeText("\(folder)/broken.toml", "[rule.x]\ngesture = \"tapp\"\ncommand = \"x\"\n")
        let broken = touchgest("learn z --from \(file) --rules \(folder)/broken.toml --append")
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("has errors; fix them before adding to it"), "\(broken.stderr)")
        #expect(readText("\(folder)/broken.toml") == "[rule.x]\ngesture = \"tapp\"\ncommand = \"x\"\n")
    }

    @Test func aShapeTooAlikeToAStrokeRuleOfTheFileIsWarnedAbout() {
        let (folder, file) = Self.recording([.v, .v, .v])
        #expect(touchgest("learn v --from \(file) --rules \(folder)/rules.toml --append").status == 0)
        let (_, more) = Self.recording([.v, .v, .v], stream: 4)
        let alike = touchgest("learn volume --from \(more) --rules \(folder)/rules.toml")
        #expect(alike.status == 0)
        #expect(alike.stderr.contains("touchgest: warning: 'volume' is too alike to rule 'v' to be told apart: they score "), "\(alike.stderr)")
        let (_, carets) = Self.recording([.caret, .caret, .caret], stream: 5)
        let apart = touchgest("learn caret --from \(carets) --rules \(folder)/rules.toml")
        #expect(!apart.stderr.contains("too alike"), "\(apart.stderr)")
        #expect(apart.stderr.contains("the closest stroke rule on 1 finger is 'v', at "), "\(apart.stderr)")
    }

    @Test func aDrawingUnlikeTheOthersIsNamed() {
        let (folder, file) = Self.recording([.v, .v, .caret])
        let result = touchgest("learn v --from \(file) --rules \(folder)/rules.toml")
        #expect(result.status == 0)
        #expect(result.stderr.contains("touchgest: warning: example 3 is unlike the others"), "\(result.stderr)")
        #expect(!result.stderr.contains("example 1 is unlike"), "\(result.stderr)")
    }

    @Test func noStrokeWithTheFingersIsAnError() {
        let (folder, file) = Self.recording([.v])
        let result = touchgest("learn v --fingers 2 --from \(file) --rules \(folder)/rules.toml")
        #expect(result.status == 1)
        #expect(result.stderr.contains("touchgest: error: no stroke of 2 fingers was drawn"), "\(result.stderr)")
        #expect(touchgest("learn v --fingers 5 --from \(file)").stderr.contains("--fingers must be 1 to 4"))
    }
}
