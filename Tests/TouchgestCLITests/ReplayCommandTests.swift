import Glibc
import TestSupport
import Testing

@Suite struct ReplayCommandTests {
    static let tour = "replay \(packageRoot)/examples/tour.tgrec --rules \(packageRoot)/examples/tour.toml"

    @Test func theTourReplaysTheSameEveryTime() {
        let first = touchgest(Self.tour)
        let second = touchgest(Self.tour)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!first.stdout.isEmpty)
        #expect(first.stdout == second.stdout)
    }

    @Test func theTourTriggersEachRuleAsRecorded() {
        let result = touchgest(Self.tour)
        let commands = touchgest(Self.tour + " -v").stdout.split(separator: "\n").compactMap { line -> String? in
            guard let open = line.firstRange(of: "would run ["), let close = line.firstIndex(of: "]") else { return nil }
            return String(line[open.upperBound..<close])
        }
        #expect(result.stdout.split(separator: "\n").filter { $0.contains(" -> would run: ") }.count == commands.count)
        #expect(commands == [
            "next-workspace recognized left", "previous-workspace recognized right", "overview recognized up",
            "zoom step 1 out", "zoom step 2 out", "zoom step 3 out", "zoom step -1 in",
            "turn step 1 clockwise", "turn step 2 clockwise",
            "hold begin", "hold end",
            "two-finger-tap recognized", "two-finger-double-tap recognized",
            // The edge pan's end carries its net direction: inward from the left edge.
            "screen-tap recognized", "from-left-edge end right",
        ])
    }

    @Test func theDefaultViewShowsDecisionsWithTheirValuesOnOneScreen() {
        let lines = touchgest(Self.tour).stdout.split(separator: "\n").map { String($0.drop { $0 != " " }.dropFirst()) }
        #expect(lines.count <= 25)
        #expect(lines.contains("next-workspace recognized: swipe left, 3 fingers -> would run: echo next workspace"))
        #expect(lines.contains("zoom ended: pinch out, 2 fingers, scale 2.59"))
        #expect(lines.contains("zoom step -1: pinch in, 2 fingers, scale 0.49 -> would run: echo zoom $TOUCHGEST_DIRECTION"))
        #expect(lines.contains("hold began: long-press, 3 fingers -> would run: echo holding"))
        #expect(lines.contains("two-finger-double-tap recognized: double tap, 2 fingers -> would run: echo two-finger double tap"))
        #expect(!lines.contains { $0.contains("-> possible") || $0.contains("-> failed") })
    }

    @Test func theReadmeShowsTheTourAsItRuns() {
        let readme = readText("\(packageRoot)/README.md")
        let output = touchgest(Self.tour).stdout
        #expect(readme.contains("```\n\(output)```\n"))
    }

    @Test func withoutARuleFileTheCatalogueNamesEachGestureWithItsRule() {
        let folder = temporaryFolder()
        let result = touchgest("replay \(packageRoot)/examples/tour.tgrec", environment: ["XDG_CONFIG_HOME": folder])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("no rule file at \(folder)/touchgest/rules.toml; naming every gesture"))
        let names = result.stdout.split(separator: "\n").filter { !$0.contains("   ") && !$0.contains("device added") }
            .map { String($0.drop { $0 != " " }.dropFirst()) }
        #expect(names.first == "swipe left, 3 fingers (touchpad)")
        #expect(names.contains("pinch out, 2 fingers (touchpad)"))
        #expect(names.contains("pinch in, 2 fingers (touchpad)"))
        #expect(names.contains("rotation clockwise, 2 fingers (touchpad)"))
        #expect(names.contains("long-press, 3 fingers (touchpad)"))
        #expect(names.contains("double tap, 2 fingers (touchpad)"))
        #expect(names.contains("tap, 1 finger (touchscreen)"))
        #expect(names.last == "edge-pan from left, 1 finger (touchscreen)")
        // The rules shown under the names are rules check accepts.
        #expect(result.stdout.contains("  [rule.swipe-left-3]\n"))
        let snippets = result.stdout.split(separator: "\n").compactMap { line -> String? in
            line.firstRange(of: "s   ").map { String(line[$0.upperBound...]) }
        }
        #expect(snippets.count > 40)
        writeText("\(folder)/snippets.toml", snippets.joined(separator: "\n") + "\n")
        chmod("\(folder)/snippets.toml", 0o600)
        let check = touchgest("check \(folder)/snippets.toml")
        #expect(check.status == 0 && check.stdout == "ok\n", "\(check.stderr)")
    }

    @Test func jsonIsOneObjectPerLine() {
        let result = touchgest(Self.tour + " --json --input")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count > 100)
        #expect(lines.allSatisfy { $0.hasPrefix("{\"event\":\"") && $0.hasSuffix("}") })
        #expect(lines.contains { $0.contains("\"event\":\"command\",\"rule\":\"overview\"") })
    }

    @Test func jsonStatesAreRightForARuleNamedWithASpace() {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", "[rule.\"screen tap\"]\ngesture = \"tap\"\ndevice = \"touchscreen\"\ncommand = \"true\"\n")
        let result = touchgest("replay \(packageRoot)/examples/tour.tgrec --rules \(folder)/rules.toml --json -v")
        #expect(result.stdout.contains(#"{"event":"transition","recognizer":"screen tap","from":"possible","to":"recognized","#))
    }

    /// Without -v, JSON carries what text shows: devices, decisions, commands; no
    /// transition or phase move (printing them made --json 3.7 times as slow, issue 40).
    @Test func jsonWithoutVerboseHasTheDecisionsAndNoTransitions() {
        let quiet = touchgest(Self.tour + " --json")
        let verbose = touchgest(Self.tour + " --json -v")
        func events(_ output: String) -> [String: Int] {
            var counts: [String: Int] = [:]
            for line in output.split(separator: "\n") {
                guard let start = line.firstRange(of: #"{"event":""#) else { continue }
                counts[String(line[start.upperBound...].prefix { $0 != "\"" }), default: 0] += 1
            }
            return counts
        }
        let shown = events(quiet.stdout)
        let all = events(verbose.stdout)
        #expect(quiet.status == 0 && shown["transition"] == nil && shown["phase"] == nil, "\(shown)")
        #expect(all["transition", default: 0] > 0 && all["phase", default: 0] > 0, "\(all)")
        // Every decision and command the verbose output has, the quiet one has too.
        #expect(shown["decision"] == all["decision"] && shown["command"] == all["command"] && shown["decision", default: 0] > 0,
                "\(shown) against \(all)")
        let decisions = { (output: String) in output.split(separator: "\n").filter { $0.hasPrefix(#"{"event":"decision""#) } }
        #expect(decisions(quiet.stdout) == decisions(verbose.stdout))
    }

    @Test func aBrokenRecordingNamesTheLine() {
        let folder = temporaryFolder()
        writeText("\(folder)/bad.tgrec", "# touchgest recording 1\ndevice 1 touchpad 100 70 pad\n0 touchpad 1 swipe-sideways 3\n")
        let result = touchgest("replay \(folder)/bad.tgrec --rules \(packageRoot)/examples/tour.toml")
        #expect(result.status == 1)
        #expect(result.stderr == "\(folder)/bad.tgrec:3: error: unknown touchpad gesture 'swipe-sideways'; expected one of swipe-begin, swipe-update, swipe-end, pinch-begin, pinch-update, pinch-end, hold-begin, hold-end, tap\n")
    }
}

@Suite struct ShippedDocumentationTests {
    @Test func theReadmeShowsExactlyTheCommandsCIRuns() {
        let readme = readText("\(packageRoot)/README.md")
        let ci = readText("\(packageRoot)/.ci/run")
        let tryIt = "scripts/bootstrap && swift run touchgest replay examples/tour.tgrec --rules examples/tour.toml"
        #expect(readme.contains("\n\(tryIt)\n"))
        #expect(ci.contains("\n\(tryIt) |"))
        #expect(readme.contains("```sh\nscripts/test\n```"))
        #expect(ci.contains("\nscripts/test\n"))
    }

    /// The long options the manual lists under each subcommand: `.It Em NAME` opens a
    /// subcommand's list, and each `.It Fl ...` line in it names options (`.It Fl v , -verbose`).
    static func manualOptions() -> [String: Set<String>] {
        var options: [String: Set<String>] = [:]
        var subcommand: String?
        for line in readText("\(packageRoot)/man/touchgest.1").split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.starts(with: [".It", "Em"]), words.count == 3 {
                subcommand = String(words[2])
                options[String(words[2]), default: []] = []
            } else if let subcommand, words.starts(with: [".It", "Fl"]) {
                for word in words.dropFirst(2) where word.hasPrefix("-") { options[subcommand]!.insert("-" + word) }
            }
        }
        return options
    }

    @Test func theManualListsEverySubcommandWithExactlyItsOptions() {
        let manual = Self.manualOptions()
        let subcommands = ["run", "events", "debug", "check", "record", "replay", "learn", "list-devices", "init", "doctor"]
        // swift-argument-parser's own `help` subcommand is in the manual too.
        #expect(manual.keys.sorted() == (subcommands + ["help"]).sorted(), "run scripts/generate-manual")
        for subcommand in subcommands {
            let help = touchgest("\(subcommand) --help").stdout
            // Under OPTIONS, an option's line starts with its names: `  -v, --verbose   Log more`.
            var options: Set<String> = []
            let listed = help.split(separator: "\n").drop { $0 != "OPTIONS:" }.dropFirst()
            for line in listed where line.hasPrefix("  -") {
                let names = line.dropFirst(2).prefix { $0 != "<" }.split(separator: "  ").first ?? ""
                for word in names.split(whereSeparator: { $0 == " " || $0 == "," }) where word.hasPrefix("--") {
                    options.insert(String(word))
                }
            }
            #expect(options.contains("--help"), "\(subcommand) --help printed: \(help)")
            #expect(manual[subcommand] == options, "man/touchgest.1 and \(subcommand) --help differ; run scripts/generate-manual")
        }
    }
}

/// `replay --run` feeds each `stream` rule's command, so a user can try a stream script on
/// a recording: on virtual time nothing is late, so every line arrives, none coalesced.
@Suite struct ReplayStreamTests {
    static let asRoot = getuid() == 0 ? "" : "unshare -r "

    func rules(_ folder: String) -> String {
        writeText("\(folder)/rules.toml", """
            [rule.slide]
            gesture = "pan"
            fingers = 3
            progress-distance = 30
            stream = "echo \\"$TOUCHGEST_RULE\\" > '\(folder)/rule'; cat > '\(folder)/lines'"
            """)
        return "\(folder)/rules.toml"
    }

    @Test func replayWithRunFeedsAStreamEveryLineInOrder() {
        let folder = temporaryFolder()
        let result = touchgest("replay \(packageRoot)/examples/tour.tgrec --run --allow-root --rules \(rules(folder))",
                               prefix: Self.asRoot)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(readText("\(folder)/rule") == "slide\n")
        let lines = readText("\(folder)/lines").split(separator: "\n").map(String.init)
        func field(_ line: String, _ name: String) -> String? {
            guard let start = line.firstRange(of: "\"\(name)\":") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != "," && $0 != "}" })
        }
        // The tour has two 3-finger swipes, left then right: each a began, its changes, an ended.
        let phases = lines.map { field($0, "phase") ?? "?" }
        let gestures = phases.split(separator: "\"ended\"", omittingEmptySubsequences: true).map(Array.init)
        #expect(gestures.count == 2 && phases.last == "\"ended\"", "\(phases)")
        for gesture in gestures {
            #expect(gesture.first == "\"began\"")
            #expect(gesture.dropFirst().allSatisfy { $0 == "\"changed\"" } && gesture.count > 2, "\(gesture)")
        }
        #expect(lines.allSatisfy { $0.hasPrefix("{\"v\":1,\"rule\":\"slide\",\"gesture\":\"pan\"") })
        // What the stream read at each end is what replay printed for it.
        let ends = lines.filter { field($0, "phase") == "\"ended\"" }
        let printed = result.stdout.split(separator: "\n").filter { $0.contains("slide ended: pan") }
        #expect(ends.count == 2 && printed.count == 2)
        for (line, text) in zip(ends, printed) {
            // "slide ended: pan left, 3 fingers, moved -33.6,0.0 mm"
            let moved = text.firstRange(of: "moved ").map { text[$0.upperBound...].prefix { $0 != " " } } ?? ""
            let shown = moved.split(separator: ",").compactMap { Double($0) }
            let streamed = [field(line, "dx"), field(line, "dy")].compactMap { $0.flatMap(Double.init) }
            #expect(shown.count == 2 && streamed.count == 2 && zip(shown, streamed).allSatisfy { abs($0 - $1) < 0.051 },
                    "\(line) vs \(text)")
            // 33 mm against a progress-distance of 30: all the way.
            #expect(field(line, "progress") == "1")
        }
    }
    /// Text mode says which decisions go to a stream, as it says which run a command.
    @Test func theTextSaysWhatWouldBeStreamedAndWhatWasStreamed() {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", """
            [rule.slide]
            gesture = "pan"
            fingers = 3
            stream = "cat > /dev/null"

            [rule.zoom]
            gesture = "pinch"
            fingers = 2
            stream = "cat > /dev/null"
            on-end = "echo done"
            """)
        let dry = touchgest("replay \(packageRoot)/examples/tour.tgrec --rules \(folder)/rules.toml")
        #expect(dry.status == 0, "\(dry.stderr)")
        let lines = dry.stdout.split(separator: "\n").map { String($0.drop { $0 != " " }.dropFirst()) }
        #expect(lines.filter { $0.hasPrefix("slide ") } == [
            "slide began: pan left, 3 fingers, moved -4.2,0.0 mm -> would stream to: cat > /dev/null",
            "slide ended: pan left, 3 fingers, moved -33.6,0.0 mm -> would stream to: cat > /dev/null",
            "slide began: pan right, 3 fingers, moved 4.2,0.0 mm -> would stream to: cat > /dev/null",
            "slide ended: pan right, 3 fingers, moved 33.6,0.0 mm -> would stream to: cat > /dev/null",
        ])
        // A rule with a command and a stream: both are said, on the command's line.
        #expect(lines.contains("zoom ended: pinch out, 2 fingers, scale 2.59 -> would run: echo done; would stream to: cat > /dev/null"))
        #expect(lines.contains("zoom began: pinch out, 2 fingers, scale 1.07 -> would stream to: cat > /dev/null"))

        // JSON decisions name the stream too.
        let json = touchgest("replay \(packageRoot)/examples/tour.tgrec --json --rules \(folder)/rules.toml")
        let decisions = json.stdout.split(separator: "\n").filter { $0.contains("\"decision\"") && $0.contains("\"rule\":\"slide\"") }
        #expect(decisions.count == 4 && decisions.allSatisfy { $0.contains(",\"stream\":\"cat > /dev/null\",") }, "\(decisions)")

        let run = touchgest("replay \(packageRoot)/examples/tour.tgrec --run --allow-root --rules \(folder)/rules.toml", prefix: Self.asRoot)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(" slide began: pan left, 3 fingers, moved -4.2,0.0 mm -> streams to: cat > /dev/null\n"))
        #expect(run.stdout.contains(" zoom ended: pinch out, 2 fingers, scale 2.59 -> runs: echo done; streams to: cat > /dev/null\n"))
    }

    @Test func aStreamThatStopsReadingIsNamedAndTheReplayGoesOn() {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", """
            [rule.slide]
            gesture = "pan"
            fingers = 3
            stream = "head -n 1 > /dev/null; exit 3"

            [rule.two-finger-tap]
            gesture = "tap"
            fingers = 2
            command = "echo tapped"
            """)
        let result = touchgest("replay \(packageRoot)/examples/tour.tgrec --run --allow-root --rules \(folder)/rules.toml",
                               prefix: Self.asRoot)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("two-finger-tap recognized: tap, 2 fingers -> runs: echo tapped"))
        // The tour's pan lines (46, about 12 KiB) outgrow the stream's one-page pipe, so a write
        // meets the closed input; how many lines the pipe took first depends on timing.
        let complaint = result.stderr.split(separator: "\n").filter { $0.hasPrefix("touchgest: the stream of rule 'slide' closed its input after ") }
        #expect(complaint.count == 1 && complaint[0].hasSuffix(" lines were sent, and exited with status 3"), "\(result.stderr)")
    }
}

/// A recording has no desktop: `--focused-app` and `--focused-title` say which window
/// had the focus, so rules for an application can be tried on a recording too.
@Suite struct ReplayFocusTests {
    func rules() -> String {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", """
            [rule.next-workspace]
            gesture = "swipe"
            fingers = 3
            command = "echo workspace"

            [rule.browser-back]
            gesture = "swipe"
            fingers = 3
            application = "firefox"
            not-title = "*private*"
            command = "echo back"
            """)
        return "\(folder)/rules.toml"
    }

    func fired(_ options: String) -> [String] {
        let result = touchgest("replay \(packageRoot)/examples/tour.tgrec --rules \(rules()) \(options)")
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").compactMap { line in
            line.firstRange(of: " recognized: swipe").map { String(line[..<$0.lowerBound].drop { $0 != " " }.dropFirst()) }
        }
    }

    // The tour has two 3-finger swipes.
    @Test func theApplicationsRuleFiresInItsWindowAndTheGeneralOneElsewhere() {
        #expect(fired("--focused-app Firefox --focused-title 'Mozilla Firefox'") == ["browser-back", "browser-back"])
        #expect(fired("--focused-app foot") == ["next-workspace", "next-workspace"])
        #expect(fired("--focused-app firefox --focused-title 'Private Browsing'") == ["next-workspace", "next-workspace"])
    }

    @Test func withoutAFocusedAppTheApplicationsRuleSaysWhyItCannotFire() {
        let result = touchgest("replay \(packageRoot)/examples/tour.tgrec --rules \(rules())")
        #expect(fired("") == ["next-workspace", "next-workspace"])
        #expect(result.stdout.split(separator: "\n").filter { $0.contains("do not fire") }.map { $0.drop { $0 != " " }.dropFirst() }
                == ["focus: rules with an application or title condition do not fire: a recording has no focused window; give --focused-app to replay as if one had the focus"])
    }

    @Test func aTitleWithoutAnApplicationIsAnError() {
        let result = touchgest("replay \(packageRoot)/examples/tour.tgrec --rules \(rules()) --focused-title x")
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --focused-title needs --focused-app"), "\(result.stderr)")
    }

    /// A recording's `held` lines decide as the live run did: the swipe made with Super
    /// held fires the Super rule, with `TOUCHGEST_MODIFIERS` set, and the one after the
    /// release the plain rule.
    @Test func aRecordingsHeldLinesDecideTheSuperRuleAndItsVariable() {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", """
            [rule.plain]
            gesture = "swipe"
            fingers = 3
            direction = "left"
            command = "echo plain $TOUCHGEST_MODIFIERS"

            [rule.move]
            gesture = "swipe"
            fingers = 3
            direction = "left"
            modifiers = "super"
            command = "echo move $TOUCHGEST_MODIFIERS"
            """)
        let swipe = (0..<6).map { "\($0 * 10_000) touchpad 1 swipe-update 3 -20.0 0.0" }
        func at(_ offset: Int, _ lines: [String]) -> [String] {
            lines.map { line in
                let time = Int(line.prefix { $0 != " " })!
                return "\(time + offset)" + line.drop { $0 != " " }
            }
        }
        let gesture = ["0 touchpad 1 swipe-begin 3"] + swipe + ["60000 touchpad 1 swipe-end 3 0"]
        writeText("\(folder)/held.tgrec", (["# touchgest recording 1", "device 1 touchpad 100 70 pad", "0 held 1 super none"]
            + gesture + ["500000 held 1 none none"] + at(500_000, gesture)).joined(separator: "\n") + "\n")
        let result = touchgest("replay \(folder)/held.tgrec --rules \(folder)/rules.toml --run --allow-root", prefix: HostileInputTests.asRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map { String($0.drop { $0 != " " }.dropFirst()) }
        #expect(lines.contains("move recognized: swipe left, 3 fingers, with super -> runs: echo move $TOUCHGEST_MODIFIERS"), "\(lines)")
        #expect(lines.contains("plain recognized: swipe left, 3 fingers -> runs: echo plain $TOUCHGEST_MODIFIERS"), "\(lines)")
        // What the commands printed, the variable as each saw it (in either order: they run
        // side by side).
        #expect(result.stdout.split(separator: "\n").filter { $0.hasPrefix("move ") || $0.hasPrefix("plain ") }.sorted()
                == ["move super", "plain none"])
    }
}
