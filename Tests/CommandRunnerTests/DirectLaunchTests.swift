import Glibc
import Testing
@testable import CommandRunner
import TestSupport

/// A plain command starts its own program (no `/bin/sh -c` before it) and behaves as it
/// did through the shell; everything else still goes through the shell.
@Suite(.serialized) struct DirectLaunchTests {
    let path = "/usr/local/bin:/usr/bin:/bin"

    @Test func aPlainCommandStartsItsOwnProgramFoundInPath() {
        let launch = CommandRunner().launch(for: "sleep 5", searchPath: path)
        #expect(launch.direct)
        #expect(launch.path.hasSuffix("/sleep"))
        #expect(launch.arguments == ["sleep", "5"])
    }

    @Test func shellSyntaxABuiltinOrAMissingProgramGoesThroughTheShell() {
        let runner = CommandRunner()
        for command in ["echo hi", "sleep 1; sleep 2", "no-such-program-for-touchgest x"] {
            #expect(runner.launch(for: command, searchPath: path)
                    == .init(path: "/bin/sh", arguments: ["/bin/sh", "-c", command], direct: false))
        }
        // Without PATH the shell's own default search applies.
        #expect(!runner.launch(for: "sleep 5", searchPath: nil).direct)
    }

    @Test func thePathOfTheCommandsEnvironmentIsSearchedInOrder() {
        let first = temporaryFolder(), second = temporaryFolder()
        for folder in [first, second] { writeText("\(folder)/tg-probe", "#!/bin/sh\n", mode: 0o755) }
        writeText("\(first)/tg-plain", "not executable")
        let runner = CommandRunner()
        #expect(runner.launch(for: "tg-probe", searchPath: "\(first):\(second)").path == "\(first)/tg-probe")
        #expect(runner.launch(for: "tg-plain", searchPath: "\(first):\(second)").direct == false)
    }

    @Test func quotedWordsArriveAsTheShellWouldPassThem() {
        let directory = temporaryFolder()
        let runner = CommandRunner()
        let command = #"sh -c 'printf "%s|" "$@" > "$OUT"' name 'two words' "it's" ''"#
        #expect(runner.launch(for: command, searchPath: path).direct)
        runner.run(.init(key: "r", command: command, environment: ["OUT": "\(directory)/out"]))
        #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        #expect(readFile("\(directory)/out") == "two words|it's||")
    }

    @Test func gestureValuesReachADirectCommandAsEnvironmentVariables() {
        let directory = temporaryFolder()
        let runner = CommandRunner()
        runner.run(.init(key: "s", command: "sh -c 'printf %s \"$TOUCHGEST_DIRECTION\" > \(directory)/out'",
                         environment: ["TOUCHGEST_DIRECTION": "left; rm -rf x"]))
        #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        #expect(readFile("\(directory)/out") == "left; rm -rf x")
    }

    @Test func aScriptWithoutAnInterpreterLineRunsThroughTheShellAsBefore() {
        let directory = temporaryFolder()
        writeText("\(directory)/script", "echo ran > \"$OUT\"\n", mode: 0o755)
        let runner = CommandRunner()
        let log = EventLog()
        log.attach(runner)
        runner.run(.init(key: "r", command: "\(directory)/script", environment: ["OUT": "\(directory)/out"]))
        #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        #expect(log.finished.first?.status == .exited(0))
        #expect(readFile("\(directory)/out") == "ran\n")
    }

    @Test func aMissingProgramFailsWithTheShellsStatusAndMessage() {
        let runner = CommandRunner()
        let log = EventLog()
        log.attach(runner)
        runner.run(.init(key: "r", command: "no-such-program-for-touchgest x"))
        #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        #expect(log.finished.first?.status == .exited(127))
        // dash's own words, naming the program: what the daemon's log then shows.
        #expect(log.finished.first?.stderr.hasSuffix(": no-such-program-for-touchgest: not found\n") == true,
                "\(log.finished.first?.stderr ?? "no command finished")")
    }

    @Test func aDirectCommandIsStoppedAtItsTimeoutLikeAnyOther() {
        let runner = CommandRunner()
        let log = EventLog()
        log.attach(runner)
        runner.run(.init(key: "r", command: "sleep 30", timeout: .milliseconds(100)))
        #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        #expect(log.finished.first?.status == .timedOut)
    }

    @Test func aRememberedProgramThatWentAwayIsFoundAgainWhereItIsNow() {
        let first = temporaryFolder(), second = temporaryFolder(), out = temporaryFolder()
        writeText("\(first)/tg-probe", "#!/bin/sh\necho first >> \"$OUT\"\n", mode: 0o755)
        let runner = CommandRunner(baseEnvironment: ["PATH": "\(first):\(second):/usr/bin:/bin", "OUT": "\(out)/out"])
        runner.run(.init(key: "a", command: "tg-probe"))
        #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        unlink("\(first)/tg-probe")
        writeText("\(second)/tg-probe", "#!/bin/sh\necho second >> \"$OUT\"\n", mode: 0o755)
        runner.run(.init(key: "b", command: "tg-probe"))
        #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        runner.run(.init(key: "c", command: "tg-probe"))
        #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        #expect(readFile("\(out)/out") == "first\nsecond\nsecond\n")
    }

    @Test func aCommandGetsTheBaseEnvironmentWithItsJobsValuesOverridingIt() {
        let out = temporaryFolder()
        let runner = CommandRunner(baseEnvironment: ["PATH": "/usr/bin:/bin", "KEPT": "base", "SET": "base"])
        for key in ["a", "b"] {
            runner.run(.init(key: key, command: "sh -c 'printf \"%s %s %s|\" \"$KEPT\" \"$SET\" \"$ADDED\" >> \(out)/out'",
                             environment: ["SET": "job-\(key)", "ADDED": key]))
            #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        }
        #expect(readFile("\(out)/out") == "base job-a a|base job-b b|")
    }
}
