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
        let commands = result.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let open = line.firstRange(of: "would run ["), let close = line.firstIndex(of: "]") else { return nil }
            return String(line[open.upperBound..<close])
        }
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
        let result = touchgest("replay \(packageRoot)/examples/tour.tgrec --rules \(folder)/rules.toml --json")
        #expect(result.stdout.contains(#"{"event":"transition","recognizer":"screen tap","from":"possible","to":"recognized","#))
    }

    @Test func aBrokenRecordingNamesTheLine() {
        let folder = temporaryFolder()
        writeText("\(folder)/bad.tgrec", "# touchgest recording 1\ndevice 1 touchpad 100 70 pad\n0 touchpad 1 swipe-sideways 3\n")
        let result = touchgest("replay \(folder)/bad.tgrec --rules \(packageRoot)/examples/tour.toml")
        #expect(result.status == 1)
        #expect(result.stderr == "\(folder)/bad.tgrec:3: error: bad touchpad event: '0 touchpad 1 swipe-sideways 3'\n")
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

    @Test func theManualListsEverySubcommandAndOption() {
        let manual = readText("\(packageRoot)/man/touchgest.1")
        for subcommand in ["run", "events", "debug", "check", "record", "replay", "list-devices"] {
            let help = touchgest("\(subcommand) --help").stdout
            #expect(!help.isEmpty, "\(subcommand)")
            #expect(manual.contains(subcommand), "\(subcommand)")
            for word in help.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," }) where word.hasPrefix("--") {
                let option = word.prefix { $0.isLetter || $0 == "-" }
                #expect(manual.contains(String(option.dropFirst(2))), "man/touchgest.1 lacks \(option) of \(subcommand); run scripts/generate-manual")
            }
        }
    }
}
