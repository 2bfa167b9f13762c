import Glibc
import HumanInput
import StrokeGestures
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

    @Test func aShapeWhoseDrawingsWouldBeTakenForAStrokeRuleOfTheFileIsWarnedAbout() throws {
        let (folder, file) = Self.recording([.v, .v, .v])
        #expect(touchgest("learn v --from \(file) --rules \(folder)/rules.toml --append").status == 0)
        let (_, more) = Self.recording([.v, .v, .v], stream: 4)
        let alike = touchgest("learn volume --from \(more) --rules \(folder)/rules.toml")
        #expect(alike.status == 0)
        // Two rules of one shape: each drawing has two others of its own rule and three of
        // the other's, so about three in five lie nearer the other rule's (which ones is the
        // matcher's to say): more than one odd drawing. The worst named comes as near the
        // other rule as drawings of one shape come to each other.
        let warnings = alike.stderr.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings.count == 1, "\(alike.stderr)")
        let warning = try #require(warnings.first.flatMap { line in
            line.wholeMatch(of: /touchgest: warning: 'volume' and rule 'v' would be confused: (\d) of their 6 drawings come closer to the other shape than to their own \((?:example \d scores (0\.\d\d) against 'v', 0\.\d\d against the other examples|template \d of 'v' scores (0\.\d\d) against 'volume', 0\.\d\d against its other templates)\); draw a more different shape/)
        }, "\(alike.stderr)")
        #expect(Int(warning.1)! >= 2)
        #expect(Double(warning.2 ?? warning.3 ?? "0")! >= 0.9)
        let (_, carets) = Self.recording([.caret, .caret, .caret], stream: 5)
        let apart = touchgest("learn caret --from \(carets) --rules \(folder)/rules.toml")
        #expect(!apart.stderr.contains("warning"), "\(apart.stderr)")
        #expect(apart.stderr.contains("the closest stroke rule on 1 finger is 'v', at "), "\(apart.stderr)")
    }

    /// Templates merely close are no warning: a circle and a triangle come near each other
    /// (at least the threshold), yet each drawing is nearer the others of its own shape.
    /// On real drawings (issue 40) the old warning flagged them in nearly every rule file.
    @Test func shapesCloseButToldApartAreNotWarnedAbout() throws {
        let (folder, circles) = Self.recording([.circleClockwise, .circleClockwise, .circleClockwise], stream: 7)
        #expect(touchgest("learn circle --from \(circles) --rules \(folder)/rules.toml --append").status == 0)
        let (_, triangles) = Self.recording([.triangle, .triangle, .triangle], stream: 8)
        let result = touchgest("learn triangle --from \(triangles) --rules \(folder)/rules.toml")
        #expect(result.status == 0)
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        // Close: over the threshold a rule adapts to at most (0.72), so a circle could fire a
        // triangle rule if it were alone.
        let closest = try #require(result.stderr.split(separator: "\n").last.flatMap { line in
            line.wholeMatch(of: /the closest stroke rule on 1 finger is 'circle', at (0\.\d\d)/)
        }, "\(result.stderr)")
        #expect(Double(closest.1)! >= StrokeDefaults.adaptiveCeiling)
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

    @Test func twoThousandDrawingsGiveARuleOfTheSixteenMostTypical() {
        let folder = temporaryFolder()
        writeText("\(folder)/drawings.tgrec", RecordingText.recording(StrokeCorpus.drawings(of: .v, by: Self.hand, count: 2000, stream: 6)))
        let result = touchgest("learn v --from \(folder)/drawings.tgrec --rules \(folder)/rules.toml --append")
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("example ") && $0.contains(" mm on the touchscreen, ") }.count == 2000)
        #expect(lines.contains("touchgest: kept 16 of the 2000 drawings, the most typical (closest on average to 128 drawings spread over them): a rule holds at most 16 templates"))
        #expect(lines.filter { $0.hasPrefix("example ") && $0.contains(" scores ") }.count == 16)
        #expect(Self.templates(readText("\(folder)/rules.toml")) == 16)
        #expect(touchgest("check --rules \(folder)/rules.toml").stdout == "ok\n")
    }

    @Test func aRuleTheFileCannotTakeIsRefusedWithCheckErrorAtItsLine() {
        let (folder, file) = Self.recording([.circleClockwise, .circleClockwise, .circleClockwise])
        // 16 rules of 16 templates: the most stroke templates a file may hold.
        var before = ""
        for rule in 1...16 {
            let templates = (1...16).map { "    [[0, 0], [0.5, \(Double($0) / 16)], [1, \(Double(rule) / 16)]]," }
            before += "[rule.s\(rule)]\ngesture = \"stroke\"\nfingers = 3\ntemplate = [\n\(templates.joined(separator: "\n"))\n]\ncommand = \"true\"\n\n"
        }
        writeText("\(folder)/rules.toml", before)
        #expect(touchgest("check --rules \(folder)/rules.toml").status == 0)
        // The file's 256 templates are compared pairwise (alike rules, thresholds) before
        // and after the rule is added: 18 s in a debug build with nothing beside it.
        let result = touchgest("learn circle --from \(file) --rules \(folder)/rules.toml --append", limit: .seconds(240))
        #expect(result.status == 1)
        let line = before.split(separator: "\n", omittingEmptySubsequences: false).count + 4
        #expect(result.stderr.hasSuffix("""
            touchgest: error: \(folder)/rules.toml would not be valid with the rule added, so it was left alone:
            \(folder)/rules.toml:\(line):12: error: rule 'circle' brings the file to 259 stroke templates; a file may hold at most 256

            """), "\(result.stderr)")
        #expect(readText("\(folder)/rules.toml") == before)
    }

    @Test func aSymlinkedRuleFileIsWrittenThroughAndStaysALinkEvenADanglingOne() {
        let (folder, file) = Self.recording([.z, .z])
        let before = "[rule.tap]\ngesture = \"tap\"\ncommand = \"true\"\n"
        mkdir("\(folder)/dotfiles", 0o700)
        writeText("\(folder)/dotfiles/rules.toml", before)
        symlink("dotfiles/rules.toml", "\(folder)/rules.toml")
        let linked = touchgest("learn z --from \(file) --rules \(folder)/rules.toml --append")
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(linked.stderr.hasSuffix("touchgest: added rule 'z' to \(folder)/rules.toml\n"), "\(linked.stderr)")
        var status = stat()
        #expect(lstat("\(folder)/rules.toml", &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
        #expect(readText("\(folder)/dotfiles/rules.toml").hasPrefix(before + "\n[rule.z]\ngesture = \"stroke\"\n"))
        #expect(touchgest("check --rules \(folder)/rules.toml").stdout == "ok\n")

        symlink("\(folder)/dotfiles/touchgest/other.toml", "\(folder)/other.toml")
        let dangling = touchgest("learn z --from \(file) --rules \(folder)/other.toml --append")
        #expect(dangling.status == 0, "\(dangling.stderr)")
        #expect(lstat("\(folder)/other.toml", &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
        #expect(stat("\(folder)/dotfiles/touchgest/other.toml", &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(readText("\(folder)/other.toml").hasPrefix("[rule.z]\ngesture = \"stroke\"\n"))
        #expect(touchgest("check --rules \(folder)/other.toml").stdout == "ok\n")
    }

    /// `unshare` with mounts of its own, as root in it.
    static let ownMounts = getuid() == 0 ? "unshare -m " : "unshare -rm "
    /// Whether a tmpfs of the test's own can be mounted here: as root, or as root of a user namespace.
    static let canMountTmpfs = run("/bin/sh", "-c 'mount -t tmpfs -o size=64k tmpfs \(temporaryFolder())'", prefix: ownMounts).status == 0

    @Test(.enabled(if: canMountTmpfs, "mounts a full tmpfs of its own: needs root, or unshare -rm (user namespaces)"))
    func aFullDiskLeavesTheRuleFileAsItWasAndMakesNoEmptyOne() {
        let (folder, file) = Self.recording([.circleClockwise, .circleClockwise, .circleClockwise])
        // The file ends 50 bytes short of its 4 KiB page, all the disk has left once it is
        // full: an append in place fits 50 bytes of the rule, then fails.
        let head = "# mine\n[rule.tap]\ngesture = \"tap\"\ncommand = \"true\"\n"
        let before = head + "#" + String(repeating: "x", count: 4_046 - head.utf8.count - 2) + "\n"
        writeText("\(folder)/rules.toml", before)
        mkdir("\(folder)/disk", 0o700)
        let disk = "\(folder)/disk"
        writeText("\(folder)/full.sh", """
            mount -t tmpfs -o size=64k tmpfs '\(disk)' || exit 97
            cp '\(folder)/rules.toml' '\(disk)/rules.toml'
            head -c 1048576 /dev/zero > '\(disk)/filler' 2> /dev/null
            '\(touchgestBinary)' learn circle --from '\(file)' --rules '\(disk)/rules.toml' --append 2> '\(folder)/append.err'
            echo $? > '\(folder)/append.status'
            '\(touchgestBinary)' learn circle --from '\(file)' --rules '\(disk)/new.toml' --append 2> '\(folder)/new.err'
            echo $? > '\(folder)/new.status'
            cp '\(disk)/rules.toml' '\(folder)/after.toml'
            ls -A '\(disk)' > '\(folder)/listing'

            """)
        #expect(run("/bin/sh", "\(folder)/full.sh", prefix: Self.ownMounts).status == 0)
        #expect(readText("\(folder)/append.status") == "1\n")
        #expect(readText("\(folder)/append.err").hasSuffix("touchgest: error: cannot write \(disk)/rules.toml: No space left on device; the file was left as it was\n"),
                "\(readText("\(folder)/append.err"))")
        #expect(readText("\(folder)/after.toml") == before)
        #expect(readText("\(folder)/new.status") == "1\n")
        #expect(readText("\(folder)/new.err").hasSuffix("touchgest: error: cannot write \(disk)/new.toml: No space left on device; no file was made\n"),
                "\(readText("\(folder)/new.err"))")
        #expect(readText("\(folder)/listing") == "filler\nrules.toml\n", "no file made, no temporary file left")
    }
}
