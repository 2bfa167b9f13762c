import Glibc
import TestSupport
import Testing

/// `touchgest run` against the faults that used to kill, hang or silently disarm it: each
/// run breaks the rule file (or what is around it) while the daemon runs on an emulated
/// touchpad, then checks that it stayed up, said what happened, and still fires a gesture.
///
/// Every step waits for the daemon's own line (`await` in the rig script), so nothing
/// depends on how fast the machine is. A command prints `fired NAME` to the daemon's
/// standard output, which is the rig's, and appends NAME to `$FOLDER/out`.
@Suite(.serialized) struct RunCommandFaultTests {
    static let daemon = "run --allow-root"
    static let rigOptions = "--merge-stderr --signal TERM --ready 'device added'"

    /// A 2-finger tap on the touchpad that runs `fired NAME` (or `fingers` fingers).
    static func tapRule(_ name: String, fingers: Int = 2) -> String {
        "[rule.tap]\ngesture = \"tap\"\nfingers = \(fingers)\ndevice = \"touchpad\"\ncommand = \"echo fired \(name); echo \(name) >> $FOLDER/out\"\n"
    }

    static func out(_ run: RigRun) -> [String] {
        readText("\(run.folder)/out").split(separator: "\n").map(String.init)
    }

    /// The rig's own complaints too, for a failed expectation.
    static func show(_ run: RigRun) -> String {
        (run.lines + [run.stderr]).joined(separator: "\n")
    }

    static let kept = "touchgest: error: kept the previous rules; fix $FOLDER/rules.toml and save it again"

    @Test func aSymlinkToDevZeroRenamedOverTheRulesIsRefusedAndTheOldRulesStillFire() {
        let run = rig(devices: ["touchpad"], rules: Self.tapRule("v1"), script: """
            device touchpad
            shell ln -s /dev/zero $FOLDER/zero && mv $FOLDER/zero $FOLDER/rules.toml
            await kept the previous rules
            tap 2 at 50,35
            await fired v1
            """, arguments: Self.daemon, extra: Self.rigOptions)
        #expect(run.status == 0, "\(Self.show(run))")
        #expect(run.lines.contains("touchgest: error: \(run.folder)/rules.toml: error: refusing the rule file: it is a symlink to '/dev/zero', a character device, not a regular file; point touchgest at a regular file (a symlink to one is fine)"), "\(Self.show(run))")
        #expect(run.lines.contains(Self.kept.replacing("$FOLDER", with: run.folder)))
        #expect(Self.out(run) == ["v1"])
    }

    @Test func aFifoRenamedOverTheRulesIsRefusedAtOnceAndSigtermStillStopsTheDaemon() {
        let run = rig(devices: ["touchpad"], rules: Self.tapRule("v1"), script: """
            device touchpad
            shell mkfifo -m 600 $FOLDER/fifo && mv $FOLDER/fifo $FOLDER/rules.toml
            await kept the previous rules
            tap 2 at 50,35
            await fired v1
            """, arguments: Self.daemon, extra: Self.rigOptions)
        #expect(run.status == 0, "\(Self.show(run))")
        #expect(run.lines.contains("touchgest: error: \(run.folder)/rules.toml: error: refusing the rule file: it is a FIFO, not a regular file; point touchgest at a regular file (a symlink to one is fine)"), "\(Self.show(run))")
        #expect(run.lines.last == "touchgest: stopping; commands still running are left to finish")
        #expect(Self.out(run) == ["v1"])
    }

    @Test func aThirtySixRuleRequireToFailChainReloadsAtOnceAndStillFires() {
        // Rule i waits for rules i-1 and i-2: this took minutes to check before.
        let chain = (0..<36).map { index in
            let waits = [index - 1, index - 2].filter { $0 >= 0 }.map { "\"r\($0)\"" }.joined(separator: ", ")
            return "[rule.r\(index)]\ngesture = \"swipe\"\nfingers = 4\ndevice-name = \"pad \(index)\"\nrequire-to-fail = [\(waits)]\ncommand = \"true\"\n"
        }.joined(separator: "\n")
        let run = rig(devices: ["touchpad"], rules: Self.tapRule("v1"), script: """
            device touchpad
            shell cat $FOLDER/chain.toml > $FOLDER/rules.toml
            await reloaded 37 rules
            tap 2 at 50,35
            await fired v2
            """, arguments: Self.daemon, extra: Self.rigOptions,
            files: ["chain.toml": Self.tapRule("v2") + "\n" + chain])
        #expect(run.status == 0, "\(Self.show(run))")
        #expect(run.lines.contains("touchgest: reloaded 37 rules from \(run.folder)/rules.toml"))
        #expect(Self.out(run) == ["v2"])
    }

    @Test func anEmptySaveKeepsTheRulesAndACommentOnlySaveTurnsThemOffBothLoudly() {
        // (A `#` in a rig script starts a comment, so the comment-only file is written from off.toml.)
        // v2 is a 3-finger tap: if the 2-finger tap made while disarmed were handled late,
        // it still could not run v2, and if the rules had stayed it would run v1 again.
        let run = rig(devices: ["touchpad"], rules: Self.tapRule("v1"), script: """
            device touchpad
            shell : > $FOLDER/rules.toml
            await the rule file is empty; kept the previous 1 rules
            tap 2 at 50,35
            await fired v1
            shell cat $FOLDER/off.toml > $FOLDER/rules.toml
            await the rule file has no rules
            tap 2 at 50,35
            shell cat $FOLDER/v2.toml > $FOLDER/rules.toml
            await reloaded 1 rules
            tap 3 at 50,35
            await fired v2
            """, arguments: Self.daemon, extra: Self.rigOptions, files: ["v2.toml": Self.tapRule("v2", fingers: 3), "off.toml": "# no gestures for now\n"])
        #expect(run.status == 0, "\(Self.show(run))")
        let path = "\(run.folder)/rules.toml"
        #expect(run.lines.contains("touchgest: warning: \(path): the rule file is empty; kept the previous 1 rules. An empty file is most often a save that has not finished or that failed; to turn every gesture off, leave only a comment in it, such as '# no gestures'"), "\(Self.show(run))")
        #expect(run.lines.contains("touchgest: reloaded 0 rules from \(path)"))
        #expect(run.lines.contains("touchgest: warning: \(path): the rule file has no rules: every gesture is off until you add a rule"))
        #expect(Self.out(run) == ["v1", "v2"])
    }

    @Test func theRulesFolderMovedAwayAndMadeAgainIsWatchedAgainAndAGoodSaveFires() {
        let rules = "$FOLDER/config/touchgest/rules.toml"
        let run = rig(devices: ["touchpad"], rules: "", script: """
            device touchpad
            shell mv $FOLDER/config/touchgest $FOLDER/config/old
            await watching $FOLDER/config for it to come back
            shell mkdir -m 700 $FOLDER/config/touchgest
            await was replaced or made again
            await kept the previous rules
            tap 2 at 50,35
            await fired v1
            shell cp $FOLDER/v2.toml \(rules)
            await reloaded 1 rules
            tap 2 at 50,35
            await fired v2
            """, arguments: "\(Self.daemon) --rules \(rules)", extra: Self.rigOptions,
            files: ["config/touchgest/rules.toml": Self.tapRule("v1"), "v2.toml": Self.tapRule("v2")], passRules: false)
        #expect(run.status == 0, "\(Self.show(run))")
        let folder = "\(run.folder)/config/touchgest"
        #expect(run.lines.contains("touchgest: warning: the rules folder \(folder) was moved or deleted; kept the previous 1 rules and watching \(run.folder)/config for it to come back"), "\(Self.show(run))")
        #expect(run.lines.contains("touchgest: the rules folder \(folder) was replaced or made again; watching it and reloading"))
        #expect(run.lines.contains("touchgest: error: \(folder)/rules.toml: error: cannot read the rule file: No such file or directory"))
        #expect(Self.out(run) == ["v1", "v2"])
    }

    @Test func aRulesFolderSymlinkSwappedByADotfilesManagerIsFollowed() {
        let rules = "$FOLDER/config/touchgest/rules.toml"
        let run = rig(devices: ["touchpad"], rules: "", script: """
            device touchpad
            shell rm -r $FOLDER/config/touchgest && ln -s $FOLDER/dots/a $FOLDER/config/touchgest
            await was replaced or made again
            await reloaded 1 rules
            tap 2 at 50,35
            await fired v1
            shell ln -s $FOLDER/dots/b $FOLDER/config/new && mv -T $FOLDER/config/new $FOLDER/config/touchgest
            await was replaced or made again
            await reloaded 1 rules
            tap 2 at 50,35
            await fired v2
            shell cp $FOLDER/dots/v3.toml $FOLDER/dots/b/new.toml && mv $FOLDER/dots/b/new.toml $FOLDER/dots/b/rules.toml
            await reloaded 1 rules
            tap 2 at 50,35
            await fired v3
            """, arguments: "\(Self.daemon) --rules \(rules)", extra: Self.rigOptions,
            files: ["config/touchgest/rules.toml": Self.tapRule("v0"), "dots/a/rules.toml": Self.tapRule("v1"),
                    "dots/b/rules.toml": Self.tapRule("v2"), "dots/v3.toml": Self.tapRule("v3")],
            passRules: false)
        #expect(run.status == 0, "\(Self.show(run))")
        #expect(run.lines.contains("touchgest: the rules folder \(run.folder)/config/touchgest was replaced or made again; watching it and reloading"), "\(Self.show(run))")
        #expect(Self.out(run) == ["v1", "v2", "v3"])
    }

    @Test(.enabled(if: getuid() == 0, "only root can give a file to another user"))
    func aRuleFileOwnedByAnotherUserIsRefusedAndTheOldRulesStillFire() {
        let run = rig(devices: ["touchpad"], rules: Self.tapRule("v1"), script: """
            device touchpad
            shell cp $FOLDER/v2.toml $FOLDER/new.toml && chown nobody $FOLDER/new.toml && mv $FOLDER/new.toml $FOLDER/rules.toml
            await kept the previous rules
            tap 2 at 50,35
            await fired v1
            """, arguments: Self.daemon, extra: Self.rigOptions, files: ["v2.toml": Self.tapRule("v2")])
        #expect(run.status == 0, "\(Self.show(run))")
        #expect(run.lines.contains("touchgest: error: \(run.folder)/rules.toml: error: refusing a rule file owned by nobody (uid 65534): its owner can make touchgest run commands as you; it must be owned by you (root) or by root; fix it with: chown root '\(run.folder)/rules.toml'"), "\(Self.show(run))")
        #expect(Self.out(run) == ["v1"])
    }

    @Test func aGroupWritableRulesFolderIsRefusedAndFixingItReloads() {
        let run = rig(devices: ["touchpad"], rules: Self.tapRule("v1"), script: """
            device touchpad
            shell chmod 775 $FOLDER
            await kept the previous rules
            tap 2 at 50,35
            await fired v1
            shell chmod 700 $FOLDER
            await reloaded 1 rules
            """, arguments: Self.daemon, extra: Self.rigOptions)
        #expect(run.status == 0, "\(Self.show(run))")
        #expect(run.lines.contains("touchgest: error: \(run.folder)/rules.toml: error: refusing a rule file in '\(run.folder)', which its group can write (mode 775): they could replace the rule file and run commands as you; fix it with: chmod g-w '\(run.folder)'"), "\(Self.show(run))")
        #expect(Self.out(run) == ["v1"])
    }

    @Test func theDaemonOutlivesItsLogReaderAndKeepsFiring() {
        // touchgest's stderr goes to a sed that quits after the first 'device added'
        // line: every log line after it (-v logs each command) meets a closed pipe.
        let run = rig(devices: ["touchpad"], rules: Self.tapRule("v1"), script: """
            device touchpad
            tap 2 at 50,35
            await fired v1
            signal HUP
            tap 2 at 50,35
            await fired v1
            """, arguments: "\(Self.daemon) -v", extra: Self.rigOptions,
            wrapper: "bash -c 'exec \"$0\" \"$@\" 2> >(exec sed -u \"/device added/q\")'")
        #expect(run.status == 0, "\(Self.show(run))")
        #expect(run.lines.filter { $0.hasPrefix("touchgest: ") }.last?.hasPrefix("touchgest: device added") == true, "\(Self.show(run))")
        #expect(Self.out(run) == ["v1", "v1"])
    }

    @Test func aLogReaderThatStopsReadingCostsLogLinesNotGestures() {
        // stderr is a one-page pipe whose reader stops after 'device added'. With -v each
        // command is logged, cut to 4 KiB: this one's 5,000-character comment fills the
        // daemon's 64 KiB log backlog in 16 taps. A daemon that waited for its log would
        // run no tap after the first; one that never dropped a line would grow for ever.
        let rules = Self.tapRule("v1").replacing("out\"\n", with: "out # \(String(repeating: "x", count: 5_000))\"\n")
        let taps = Array(repeating: "tap 2 at 50,35\nawait fired v1", count: 24).joined(separator: "\n")
        // Then the reader reads again (SIGUSR1): the next log line says how many were lost.
        let resume = "shell kill -USR1 $TOUCHRIG_PID\nawait were lost: standard error was not being read\ntap 2 at 50,35\nawait fired v1"
        let run = rig(devices: ["touchpad"], rules: rules, script: "device touchpad\n\(taps)\n\(resume)",
                      arguments: "\(Self.daemon) -v", extra: "--signal TERM --ready 'device added'",
                      wrapper: "python3 '\(packageRoot)/rig/stalling-stderr.py' 'device added'")
        #expect(run.status == 0, "\(Self.show(run))")
        #expect(Self.out(run) == Array(repeating: "v1", count: 25), "\(Self.show(run))")
        let notices = run.lines.filter { $0.hasPrefix("touchgest: warning: ") && $0.hasSuffix(" log lines were lost: standard error was not being read") }
        #expect(notices.count == 1, "\(Self.show(run))")
        let notice = notices.first
        let lost = notice.flatMap { Int($0.dropFirst("touchgest: warning: ".count).prefix { $0 != " " }) } ?? 0
        // 24 taps log 2 lines each (started, exited); the backlog and the pipe kept some.
        #expect((1...47).contains(lost), "\(Self.show(run))")
        // The last line, written as the daemon stops, still reaches the reader.
        #expect(run.lines.last?.hasPrefix("touchgest: stopping") == true, "\(Self.show(run))")
    }

    @Test func aFailingPollExitsOneSayingWhatFailedWithoutBlamingTheRuleFile() {
        // With RLIMIT_NOFILE below the number of descriptors it polls, poll(2) fails
        // with EINVAL: a real poll failure in the real daemon. It polls two here: the
        // stream's pidfd, and the epoll set that holds libinput's descriptor, its
        // signals', the rule watcher's inotify and the command runner's set. (With only
        // such steady descriptors, say no stream running, it waits in epoll_wait on that
        // set alone, which has no such limit; a running command's descriptors are steady
        // too, in the runner's set.) The stream starts with the rules, before the device
        // the rig waits for; it reads until its input closes, so it ends with the daemon.
        let rules = """
            [rule.tap]
            gesture = "tap"
            fingers = 2
            device = "touchpad"
            stream = "exec cat > /dev/null"
            """
        let run = rig(devices: ["touchpad"], rules: rules, script: """
            device touchpad
            shell prlimit --pid $TOUCHRIG_PID --nofile=1:1
            touch 3 at 50,35 move 0,-20 over 150ms
            await stopping: poll failed
            """, arguments: Self.daemon, extra: Self.rigOptions)
        #expect(run.status == 1, "\(Self.show(run))")
        let failure = run.lines.first { $0.hasPrefix("touchgest: error: stopping: poll failed on ") }
        #expect(failure?.hasSuffix(" descriptors: Invalid argument; exiting with status 1 (commands still running are left to finish)") == true,
                "\(Self.show(run))")
        #expect(run.lines.filter { $0.contains("rules.toml") } == ["touchgest: loaded 1 rules from \(run.folder)/rules.toml"])
    }
}
