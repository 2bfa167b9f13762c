import Glibc
import Testing
@testable import CommandRunner
import CProcess
import PollLoop
import TestSupport
import TouchGestures

/// Collects the runner's events as short lines.
final class EventLog {
    var lines: [String] = []
    var finished: [(job: CommandRunner.Job, status: CommandRunner.Status, stderr: String)] = []
    func attach(_ runner: CommandRunner) {
        runner.observer = { [unowned self] event in
            switch event {
            case let .started(job, _): lines.append("started \(job.command)")
            case let .skipped(job): lines.append("skipped \(job.command)")
            case let .queued(job): lines.append("queued \(job.command)")
            case let .finished(job, _, status, stderr):
                lines.append("finished \(job.command)")
                finished.append((job, status, stderr))
            }
        }
    }
}

@Suite(.serialized) struct CommandRunnerTests {
    @Test func gestureValuesArriveAsEnvironmentVariablesAndAreNeverRunAsCode() throws {
        let directory = temporaryFolder()
        let runner = CommandRunner()
        runner.run(.init(key: "r", command: #"printf '%s|%s' "$TOUCHGEST_RULE" "$TOUCHGEST_DIRECTION" > "$OUT""#,
                         environment: ["TOUCHGEST_RULE": "r", "TOUCHGEST_DIRECTION": "left; touch \(directory)/pwned",
                                       "OUT": "\(directory)/out"]))
        #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        #expect(readFile("\(directory)/out") == "r|left; touch \(directory)/pwned")
        #expect(readFile("\(directory)/pwned") == nil)
    }

    @Test func standardInputIsDevNull() {
        let runner = CommandRunner()
        let log = EventLog()
        log.attach(runner)
        runner.run(.init(key: "r", command: #"[ "$(readlink /proc/$$/fd/0)" = /dev/null ]"#))
        #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        #expect(log.finished.first?.status == .exited(0))
    }

    /// What the daemon blocks or ignores is its own: a command starts with every signal at
    /// its default and none blocked (a blocked SIGTERM would make it unstoppable), leading
    /// a process group of its own, so that stopping it stops what it started.
    @Test func aCommandStartsWithNoSignalBlockedOrIgnoredInAProcessGroupOfItsOwn() throws {
        let folder = temporaryFolder()
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        sigaddset(&blocked, SIGUSR1)
        var before = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &before)
        defer { pthread_sigmask(SIG_SETMASK, &before, nil) }
        // The daemon ignores SIGPIPE (a log reader that goes away must not stop it); left
        // so, as the stream tests running beside this one need it.
        signal(SIGPIPE, SIG_IGN)
        let runner = CommandRunner()
        let log = EventLog()
        log.attach(runner)
        // grep reads its own status: the shell, had it forked, blocks every signal while it does.
        runner.run(.init(key: "r", command: #"exec grep -E '^(Pid|NSpgid|SigBlk|SigIgn):' /proc/self/status > "$OUT""#,
                         environment: ["OUT": "\(folder)/out"]))
        #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        #expect(log.finished.first?.status == .exited(0))
        var status: [String: String] = [:]
        for line in readText("\(folder)/out").split(separator: "\n") {
            let parts = line.split(separator: "\t")
            if parts.count == 2 { status[String(parts[0])] = String(parts[1]) }
        }
        #expect(status["SigBlk:"] == "0000000000000000" && status["SigIgn:"] == "0000000000000000", "\(status)")
        #expect(status["Pid:"] != nil && status["NSpgid:"] == status["Pid:"], "\(status)")
    }

    /// The child is made on the daemon's CPU (it would otherwise wait its turn on a busy
    /// one), and runs its program on every CPU the daemon may use, not on that one alone.
    @Test func aCommandMayRunOnEveryCPUTheDaemonMay() throws {
        let folder = temporaryFolder()
        let runner = CommandRunner()
        let log = EventLog()
        log.attach(runner)
        runner.run(.init(key: "r", command: #"exec grep '^Cpus_allowed_list:' /proc/self/status > "$OUT""#,
                         environment: ["OUT": "\(folder)/out"]))
        #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        #expect(log.finished.first?.status == .exited(0))
        let own = readText("/proc/self/status").split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }
        #expect(readText("\(folder)/out") == "\(try #require(own))\n")
    }

    @Test func aFailingCommandReportsItsStatusAndTheTailOfItsStderr() {
        let runner = CommandRunner()
        let log = EventLog()
        log.attach(runner)
        runner.run(.init(key: "r", command: "echo first >&2; echo oops >&2; exit 3"))
        #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        #expect(log.finished.first?.status == .exited(3))
        #expect(log.finished.first?.stderr == "first\noops\n")
    }

    @Test func onlyTheTailOfALongStderrIsKept() {
        let runner = CommandRunner()
        let log = EventLog()
        log.attach(runner)
        runner.run(.init(key: "r", command: "i=0; while [ $i -lt 2000 ]; do echo line$i >&2; i=$((i+1)); done; exit 1"))
        #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        let tail = log.finished.first?.stderr ?? ""
        #expect(tail.count == CommandRunner.stderrTailLimit)
        #expect(tail.hasSuffix("line1999\n"))
    }

    @Test func aCommandThatWritesNothingWakesTheLoopOnlyWhenItExits() {
        // Its pidfd says when it exits. Every command closes its stderr as it exits, a
        // moment before; this one closes it 50 ms before, so that a loop woken by the close
        // could not also see the exit in the same wake-up. The daemon holds the pipe's
        // write end too, so the close wakes nothing; and nothing else is in this loop.
        let runner = CommandRunner()
        let loop = EventLoop()
        loop.add(runner)
        var finished: [CommandRunner.Status] = []
        runner.observer = { event in
            if case let .finished(_, _, status, _) = event {
                finished.append(status)
                loop.stop()
            }
        }
        runner.run(.init(key: "r", command: "exec 2>&-; sleep 0.05"))
        loop.run(until: PollScheduler.now() + .seconds(10))
        #expect(finished == [.exited(0)])
        #expect(loop.wakeups == 1)
    }

    /// The daemon's loop waits on one epoll set while it has only steady descriptors, and
    /// falls back to poll(2) over everything at each wake-up otherwise. A running command's
    /// pidfd and pipe sit in the runner's own set, one steady descriptor for the loop.
    @Test func aRunningCommandAsksTheLoopForOneSteadyDescriptor() {
        let runner = CommandRunner()
        let log = EventLog()
        log.attach(runner)
        runner.run(.init(key: "r", command: "exec sleep 30"))
        #expect(runner.runningCount == 1)
        var interest = PollInterest()
        runner.collect(&interest)
        #expect(interest.steady.count == 1)
        #expect(interest.descriptors(for: Int16(POLLIN)) == interest.steady)
        runner.terminateAll()
        #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        #expect(log.finished.first?.status == .signalled(SIGTERM))
    }

    @Test func aCommandIsReportedWhenItExitsThoughWhatItLeftBehindHoldsItsStderr() throws {
        let directory = temporaryFolder()
        let runner = CommandRunner()
        let log = EventLog()
        log.attach(runner)
        runner.run(.init(key: "r", command: "sleep 30 & echo $! > \(directory)/background; echo wrote >&2; exit 2"))
        // The background sleep keeps the pipe open for 30 s: only the command's own exit
        // can end this wait in time.
        #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        #expect(log.finished.first?.status == .exited(2))
        #expect(log.finished.first?.stderr == "wrote\n")
        let background = try #require(readFile("\(directory)/background").flatMap { Int32($0.filter(\.isNumber)) })
        kill(background, SIGKILL)
    }

    /// `command = "firefox &"`: an application a command leaves running holds the command's
    /// stderr, and may write to it any time later. Its writes must not kill it (a closed
    /// pipe's SIGPIPE, at its default since the command started), though the command has
    /// long been reported. Here the background shell writes only once the test, after the
    /// report, lets it through a FIFO, then records that it lived on.
    @Test func whatACommandLeftRunningSurvivesWritingToStderrAfterTheCommandEnded() throws {
        let directory = temporaryFolder()
        let fifo = "\(directory)/go"
        #expect(mkfifo(fifo, 0o600) == 0)
        let runner = CommandRunner()
        let log = EventLog()
        log.attach(runner)
        runner.run(.init(key: "r", command: #"(read line < "$GO"; echo late >&2; echo lived > "$OUT") & echo $! > "$PID""#,
                         environment: ["GO": fifo, "OUT": "\(directory)/out", "PID": "\(directory)/pid"]))
        #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        #expect(log.finished.first?.status == .exited(0))
        // Its pipe is still held, so the runner reads on.
        #expect(runner.leftoverCount == 1)
        let background = try #require(readFile("\(directory)/pid").flatMap { Int32($0.filter(\.isNumber)) })
        let pidfd = cprocess_pidfd_open(background)
        try #require(pidfd >= 0, "pidfd_open: \(String(cString: strerror(errno)))")
        defer { close(pidfd) }
        let writer = open(fifo, O_WRONLY)
        #expect(write(writer, "go\n", 3) == 3)
        close(writer)
        var entry = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
        // The bound only turns a shell that never ends into a failure.
        #expect(poll(&entry, 1, 10_000) == 1, "the background shell did not end")
        #expect(readFile("\(directory)/out") == "lived\n")
        // With the last writer gone, the pipe reads to its end and is closed: the runner
        // waits on nothing of that command any more.
        var fds = runner.pollDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        #expect(poll(&fds, nfds_t(fds.count), 10_000) == 1)
        for ready in fds where ready.revents != 0 { runner.handleReadable(ready.fd) }
        #expect(runner.leftoverCount == 0)
        #expect(log.finished.map(\.stderr) == [""])
    }

    @Test func aCommandPastItsTimeoutIsStoppedWithEverythingItStarted() throws {
        let directory = temporaryFolder()
        let runner = CommandRunner()
        let log = EventLog()
        log.attach(runner)
        runner.run(.init(key: "r", command: "sleep 30 & echo $! > \(directory)/background; sleep 30", timeout: .milliseconds(200)))
        // Both sleeps last 30 s: the command can only finish this early by being stopped.
        #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        #expect(log.finished.first?.status == .timedOut)
        let background = try #require(readFile("\(directory)/background").flatMap { Int32($0.filter(\.isNumber)) })
        // The background sleep was in the command's process group: its SIGKILL lands
        // asynchronously, so wait for the process's exit itself (a pidfd becomes readable
        // then), not for a time. ESRCH: it is gone already.
        let pidfd = cprocess_pidfd_open(background)
        if pidfd < 0 {
            #expect(errno == ESRCH, "pidfd_open: \(String(cString: strerror(errno)))")
        } else {
            defer { close(pidfd) }
            var entry = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
            // The bound only turns a process that was never killed into a failure.
            #expect(poll(&entry, 1, 10_000) == 1, "the background sleep outlived its command")
        }
    }

    @Test func skipDropsARunWhileTheRulesCommandIsStillGoing() {
        let runner = CommandRunner()
        let log = EventLog()
        log.attach(runner)
        for _ in 0..<3 { runner.run(.init(key: "r", command: "sleep 0.3", overlap: .skip)) }
        #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        #expect(log.lines == ["started sleep 0.3", "skipped sleep 0.3", "skipped sleep 0.3", "finished sleep 0.3"])
    }

    @Test func queueKeepsOneRunForWhenTheCommandEnds() {
        let runner = CommandRunner()
        let log = EventLog()
        log.attach(runner)
        runner.run(.init(key: "r", command: "sleep 0.3", overlap: .queue))
        runner.run(.init(key: "r", command: "true", overlap: .queue))
        runner.run(.init(key: "r", command: "false", overlap: .queue))
        runner.run(.init(key: "other", command: "exit 0", overlap: .queue))
        #expect(runner.queuedCount == 1)
        #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        #expect(log.lines == ["started sleep 0.3", "queued true", "skipped false", "started exit 0", "finished exit 0",
                              "finished sleep 0.3", "started true", "finished true"])
    }

    @Test func parallelRunsEveryCommandAtOnce() {
        let runner = CommandRunner()
        let log = EventLog()
        log.attach(runner)
        for _ in 0..<3 { runner.run(.init(key: "r", command: "sleep 0.2", overlap: .parallel)) }
        #expect(runner.runningCount == 3)
        #expect(runner.waitUntilIdle(timeout: .seconds(10)))
        #expect(log.finished.count == 3)
    }

    @Test func aShellThatCannotStartIsReportedNotThrown() {
        let runner = CommandRunner(shell: "/nonexistent/sh")
        let log = EventLog()
        log.attach(runner)
        runner.run(.init(key: "r", command: "true"))
        #expect(runner.runningCount == 0)
        #expect(log.finished.first?.status == .couldNotStart("No such file or directory"))
    }

    @Test func aThousandRunsLeaveNoZombieAndNoDescriptorBehind() throws {
        // In a process of its own: other suites spawn and open descriptors meanwhile.
        let soak = builtExecutable("RunnerSoak")
        let output = temporaryFolder() + "/soak.out"
        let runner = CommandRunner()
        runner.run(.init(key: "soak", command: "'\(soak)' > '\(output)'", timeout: .seconds(120)))
        #expect(runner.waitUntilIdle(timeout: .seconds(150)))
        let words = try #require(readFile(output)).split(separator: " ").map(String.init)
        #expect(words.count == 7, "\(words)")
        guard words.count == 7 else { return }
        #expect(words[1] == "1000")
        #expect(words[3] == words[4], "descriptors before and after")
        #expect(words[6].hasPrefix("0"), "zombie children")
    }
}
