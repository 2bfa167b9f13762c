import Glibc
import TestSupport
import Testing

/// `touchgest record` writes only a new private file of its own; it never writes
/// through a planted symbolic link. (These runs name a missing device, so record stops
/// once it has dealt with the file; the end-to-end RecordReplayTests record for real.)
@Suite struct RecordFileTests {
    @Test func aPlantedSymlinkIsRefusedAndWhatItPointsToIsUnchanged() {
        let folder = temporaryFolder()
        writeText("\(folder)/precious", "keep me\n")
        symlink("\(folder)/precious", "\(folder)/input.tgrec")
        let result = touchgest("record \(folder)/input.tgrec --device /dev/input/event999")
        #expect(result.status == 1)
        #expect(result.stderr == "\(folder)/input.tgrec: error: the file exists; pass --force to replace it\n")
        #expect(readText("\(folder)/precious") == "keep me\n")
    }

    @Test func withForceASymlinkIsReplacedNotWrittenThrough() {
        let folder = temporaryFolder()
        writeText("\(folder)/precious", "keep me\n")
        symlink("\(folder)/precious", "\(folder)/input.tgrec")
        let result = touchgest("record --force \(folder)/input.tgrec --device /dev/input/event999")
        #expect(result.status == 1)
        #expect(result.stderr == "touchgest: error: cannot open /dev/input/event999: No such file or directory\n")
        #expect(readText("\(folder)/precious") == "keep me\n")
        var status = stat()
        #expect(lstat("\(folder)/input.tgrec", &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFREG)
    }

    @Test func anExistingFileIsRefusedWithoutForce() {
        let folder = temporaryFolder()
        writeText("\(folder)/input.tgrec", "an older recording\n")
        let result = touchgest("record \(folder)/input.tgrec --device /dev/input/event999")
        #expect(result.stderr == "\(folder)/input.tgrec: error: the file exists; pass --force to replace it\n")
        #expect(readText("\(folder)/input.tgrec") == "an older recording\n")
    }

    @Test func theRecordingIsReadableByItsOwnerOnlyWhateverTheUmask() {
        let folder = temporaryFolder()
        _ = touchgest("record \(folder)/input.tgrec --device /dev/input/event999", prefix: "umask 000; ")
        var status = stat()
        #expect(stat("\(folder)/input.tgrec", &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(readText("\(folder)/input.tgrec") == "# touchgest recording 1\n")
    }
}

/// `replay --run` and `debug --run` run the rules' commands, so as root they refuse
/// as `run` does. As another user, `unshare -r` makes the test root in a namespace.
@Suite struct RootGuardTests {
    static let asRoot = getuid() == 0 ? "" : "unshare -r "
    static let refusal = "refusing to run as root: every command in the rule file would run as root."

    func rules() -> String {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", "[rule.screen-tap]\ngesture = \"tap\"\ndevice = \"touchscreen\"\ncommand = \"echo ran\"\n")
        return "\(folder)/rules.toml"
    }

    @Test(arguments: ["replay \(packageRoot)/examples/tour.tgrec --run", "debug --run --device /dev/input/event999", "run --device /dev/input/event999"])
    func commandsThatRunCommandsRefuseRoot(arguments: String) {
        let result = touchgest("\(arguments) --rules \(rules())", prefix: Self.asRoot)
        #expect(result.status == 64)
        #expect(result.stderr.contains(Self.refusal), "\(result.stderr)")
    }

    @Test func replayRunsCommandsAsRootWithAllowRoot() {
        let result = touchgest("replay \(packageRoot)/examples/tour.tgrec --run --allow-root --rules \(rules())", prefix: Self.asRoot)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("screen-tap recognized: tap, 1 finger -> runs: echo ran"))
    }

    @Test func debugGetsPastTheGuardWithAllowRoot() {
        let result = touchgest("debug --run --allow-root --device /dev/input/event999 --rules \(rules())", prefix: Self.asRoot)
        #expect(result.stderr == "touchgest: error: cannot open /dev/input/event999: No such file or directory\n")
    }

    @Test func replayWithoutRunNeedsNoGuard() {
        let result = touchgest("replay \(packageRoot)/examples/tour.tgrec --rules \(rules())", prefix: Self.asRoot)
        #expect(result.status == 0, "\(result.stderr)")
    }
}

/// Text from outside reaches the terminal with its control characters escaped.
@Suite struct TerminalEscapingTests {
    static let name = "evil \u{1B}]0;owned\u{07}\u{1B}[31mpad\u{9B}2J"

    func recording() -> String {
        let folder = temporaryFolder()
        writeText("\(folder)/evil.tgrec", "# touchgest recording 1\ndevice 1 touchpad 100 70 \(Self.name)\n0 touchpad 1 tap 2\n")
        return "\(folder)/evil.tgrec"
    }

    @Test func aDeviceNameWithEscapeSequencesIsShownEscaped() {
        let result = touchgest("replay \(recording()) --rules \(packageRoot)/examples/tour.toml --input")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#"0.000s device added: (recording) touchpad "evil \x1b]0;owned\x07\x1b[31mpad\u{9b}2J" 100x70mm"#))
        #expect(!result.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{9B}" })
    }

    @Test func aDeviceNameWithEscapeSequencesIsEscapedInJSON() {
        let result = touchgest("replay \(recording()) --rules \(packageRoot)/examples/tour.toml --input --json")
        #expect(result.stdout.contains(#""name":"evil \u001b]0;owned\u0007\u001b[31mpad\u009b2J""#))
    }

    /// A rule name may not hold an escape at all; the error quoting it is escaped.
    @Test func aRuleNameWithAnEscapeSequenceIsRefusedAndQuotedEscaped() {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", "[rule.\"screen\\u001b[2Jtap\"]\ngesture = \"tap\"\ndevice = \"touchscreen\"\ncommand = \"true\"\n")
        let result = touchgest("replay \(packageRoot)/examples/tour.tgrec --rules \(folder)/rules.toml")
        #expect(result.status == 1)
        #expect(result.stderr == "\(folder)/rules.toml:1:7: error: rule name 'screen\\x1b[2Jtap' holds the control character U+001B; a name is printed to logs and terminals, so it may hold no control or format (bidi) characters\n")
    }

    /// A bidi override in a device name would make the rest of the line read backwards:
    /// it is shown as an escape, as control characters are.
    @Test func aDeviceNameWithABidiOverrideIsShownEscaped() {
        let folder = temporaryFolder()
        writeText("\(folder)/rtl.tgrec", "# touchgest recording 1\ndevice 1 touchpad 100 70 pad\u{202E}evil\u{2066}\n0 touchpad 1 tap 2\n")
        let result = touchgest("replay \(folder)/rtl.tgrec --rules \(packageRoot)/examples/tour.toml --input")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#"0.000s device added: (recording) touchpad "pad\u{202e}evil\u{2066}" 100x70mm"#), "\(result.stdout)")
        #expect(!result.stdout.unicodeScalars.contains { $0.properties.isBidiControl })
    }

    /// The focused window's app id and title are the window's to choose: what `debug` and
    /// `replay -v` say of them has bidi controls escaped, and so has their JSON.
    @Test func aWindowTitleWithBidiControlsIsShownEscaped() {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", "[rule.t]\ngesture = \"tap\"\ndevice = \"touchscreen\"\napplication = \"firefox\"\ncommand = \"true\"\n")
        let focus = "--focused-app 'evil\u{202E}app' --focused-title 'ti\u{2067}tle\u{1B}[2J'"
        let result = touchgest("replay \(packageRoot)/examples/tour.tgrec --rules \(folder)/rules.toml -v \(focus)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").filter { $0.contains("sits out") }.first
            == #"7.332s t sits out: the focused window is evil\u{202e}app "ti\u{2067}tle\x1b[2J"; the rule wants application "firefox""#, "\(result.stdout)")
        let json = touchgest("replay \(packageRoot)/examples/tour.tgrec --rules \(folder)/rules.toml -v --json \(focus)")
        #expect(json.stdout.split(separator: "\n").first { $0.contains("focus-note") }
            == #"{"event":"focus-note","rule":"t","text":"the focused window is evil\u202eapp \"ti\u2067tle\u001b[2J\"; the rule wants application \"firefox\""}"#, "\(json.stdout)")
        #expect(!result.stdout.unicodeScalars.contains { $0.properties.isBidiControl || $0 == "\u{1B}" })
    }

    @Test func anErrorQuotingABadLineIsEscaped() {
        let folder = temporaryFolder()
        writeText("\(folder)/bad.tgrec", "# touchgest recording 1\ndevice 1 \u{1B}[2J 100 70 pad\n")
        let result = touchgest("replay \(folder)/bad.tgrec --rules \(packageRoot)/examples/tour.toml")
        #expect(result.status == 1)
        #expect(result.stderr == "\(folder)/bad.tgrec:2: error: unknown device kind '\\x1b[2J'; expected one of touchpad, touchscreen\n")
    }

    @Test func aFileNameWithAControlCharacterIsEscaped() {
        let folder = temporaryFolder()
        let result = touchgest("replay '\(folder)/a\u{1B}[2Jb.tgrec' --rules \(packageRoot)/examples/tour.toml")
        #expect(result.stderr == "\(folder)/a\\x1b[2Jb.tgrec: error: cannot read the recording: No such file or directory\n")
    }
}

/// A recording is read as it is replayed, however long it is.
@Suite struct BigRecordingTests {
    @Test func aRecordingOf200000EventsReplaysToTheEnd() {
        // The tour's events again and again, each round 10 s after the one before.
        let tour = readText("\(packageRoot)/examples/tour.tgrec").split(separator: "\n")
        let body = tour.dropFirst().filter { !$0.hasPrefix("#") && !$0.hasPrefix("device ") }
        let folder = temporaryFolder()
        let file = fopen("\(folder)/big.tgrec", "w")!
        fputs(tour.prefix { !$0.hasPrefix("0 ") }.joined(separator: "\n") + "\n", file)
        fputs("# " + String(repeating: "a long comment ", count: 10_000) + "\n", file)
        var written = 0
        var round: UInt64 = 0
        while written < 200_000 {
            for line in body {
                let space = line.firstIndex(of: " ")!
                fputs("\(UInt64(line[..<space])! + round * 10_000_000)\(line[space...])\n", file)
            }
            written += body.count
            round += 1
        }
        fclose(file)
        let result = touchgest("replay \(folder)/big.tgrec --rules \(packageRoot)/examples/tour.toml")
        #expect(result.status == 0, "\(result.stderr)")
        let last = result.stdout.split(separator: "\n").last { $0.contains("would run") }
        #expect(last?.hasPrefix("\(round - 1)8.350s ") == true, "\(String(describing: last))")
    }
}
