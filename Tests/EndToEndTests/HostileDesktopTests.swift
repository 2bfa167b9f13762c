import Glibc
import TestSupport
import Testing

/// What a desktop and the user's other programs can do to `touchgest run` (issue 23),
/// on the real libinput with a stand-in niri (rig/hostile-niri.py) that floods its
/// socket, names a window with a megabyte, or opens and closes thousands of windows, and
/// with hundreds of `events` subscribers that never read. Under each, every probe tap
/// runs its command before the next probe tap lands (the last one before the probes
/// end): the loop is never held by the attack; afterwards the daemon holds as many
/// descriptors as before and no more than 2 MB more memory, and SIGTERM stops it within
/// a second.
///
/// How soon a probe's command runs is a figure, not a bound: each run prints its lift to
/// command times (`swift test --skip-build --filter HostileDesktopTests`); an assertion
/// of 100 ms failed at 171 ms with two busy loops beside the test (issue 37).
@Suite(.serialized) struct HostileDesktopTests {
    static let probe = """
        [rule.probe]
        gesture = "tap"
        fingers = 2
        device = "touchpad"
        command = "echo $(date +%s.%N) ${#TOUCHGEST_TITLE} >> $FOLDER/probe"
        """
    static let rigOptions = "--merge-stderr --signal TERM --ready 'device added' --frame-log $FOLDER/frames"

    /// Five probe taps, 300 ms apart, then the time the probes ended (CLOCK_REALTIME, as
    /// the probe command's `date`), in `$FOLDER/probed`.
    static let probes = Array(repeating: "tap 2 at 50,35\nwait 300ms", count: 5).joined(separator: "\n")
        + "\nshell date +%s.%N > $FOLDER/probed"

    /// What one run under attack showed.
    struct Outcome {
        /// Per probe tap: its fingers lift, its command runs, the next probe tap's fingers
        /// land (after the last one: the probes end), in seconds on CLOCK_REALTIME.
        var probes: [(lift: Double, command: Double, next: Double)]
        /// `TOUCHGEST_TITLE`'s length in each probe's command.
        var titleLengths: [Int]
        /// The rig's `stats` lines: anonymous resident kB (the heap: the program's own
        /// pages grow as its code first runs, whatever the attack) and open descriptors.
        var stats: [(rss: Int, fds: Int)]
        /// Milliseconds from SIGTERM to the daemon's end.
        var stoppedIn: Int?
    }

    /// Reads what the rig and the probe command wrote. CLOCK_MONOTONIC (the frames) is
    /// put on CLOCK_REALTIME (`date` in the probe) by their offset now. The first
    /// `otherTaps` taps are not probes.
    func outcome(_ run: RigRun, otherTaps: Int = 0) -> Outcome {
        var realtime = timespec()
        var monotonic = timespec()
        clock_gettime(CLOCK_REALTIME, &realtime)
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        let offset = Double(realtime.tv_sec - monotonic.tv_sec) + Double(realtime.tv_nsec - monotonic.tv_nsec) / 1e9
        // Each tap is two frames: its fingers land, then lift.
        let frames = readText("\(run.folder)/frames").split(separator: "\n").compactMap { Double($0.split(separator: " ")[1]) }
        let stamps = frames.dropFirst(2 * otherTaps).map { $0 / 1e6 + offset }
        let lifts = stride(from: 1, to: stamps.count, by: 2).map { stamps[$0] }
        let ended = Double(readText("\(run.folder)/probed").split(separator: "\n").first ?? "") ?? 0
        let nexts = stride(from: 2, to: stamps.count, by: 2).map { stamps[$0] } + [ended]
        let probes = readText("\(run.folder)/probe").split(separator: "\n").map { $0.split(separator: " ") }
        let times = zip(zip(lifts, probes), nexts).map { pair, next in (lift: pair.0, command: Double(pair.1[0]) ?? 0, next: next) }
        let stats = run.lines.compactMap { line -> (rss: Int, fds: Int)? in
            let words = line.split(separator: " ")
            guard words.starts(with: ["touchrig:", "stats", "rss"]), let fds = words.firstIndex(of: "fds"),
                  let anon = words.firstIndex(of: "anon") else { return nil }
            return (Int(words[anon + 1]) ?? 0, Int(words[fds + 1]) ?? 0)
        }
        let stopped = run.stderr.split(separator: "\n").first { $0.hasPrefix("touchrig: PROGRAM ended ") }
        return Outcome(probes: times, titleLengths: probes.map { Int($0.last ?? "") ?? -1 }, stats: stats,
                       stoppedIn: stopped.flatMap { Int($0.split(separator: " ")[3]) })
    }

    /// Runs `touchgest run --focus niri` with the probe rule against hostile-niri.py in
    /// `mode`, playing `script`; the stand-in is stopped afterwards.
    func underAttack(_ mode: String, script: String) -> RigRun {
        let folder = temporaryFolder()
        let socket = "\(folder)/niri.sock"
        defer { _ = shellOutput("kill $(cat \(folder)/niri.pid) 2>/dev/null") }
        // The stand-in listens before touchgest starts: the wrapper waits for its socket.
        let wrapper = "sh -c 'setsid /usr/bin/python3 \(packageRoot)/rig/hostile-niri.py \(mode) \(socket) \(folder) "
            + "< /dev/null > \(folder)/niri.log 2>&1 & while [ ! -S \(socket) ]; do sleep 0.01; done; exec env NIRI_SOCKET=\(socket) \"$@\"' --"
        return rig(devices: ["touchpad"], rules: Self.probe, script: script.replacing("$NIRI", with: folder),
                   arguments: "run -v --allow-root --focus niri", extra: Self.rigOptions, wrapper: wrapper)
    }

    /// `inFlight`: descriptors a reconnect under way may hold besides, at most.
    func expectRecovered(_ outcome: Outcome, taps: Int, _ run: RigRun, inFlight: Int = 0) {
        #expect(outcome.probes.count == taps, "probe commands: \(readText("\(run.folder)/probe")) \(run.lines.suffix(8).map { $0.prefix(200) })")
        // The rig stamps each frame 2 ms ahead of writing it (rig/touchrig.py, write_frame's
        // lead): a daemon quicker than that runs the command before its lift's stamp.
        let lead = 0.002
        let late = outcome.probes.enumerated().filter { !($0.element.lift - lead <= $0.element.command && $0.element.command < $0.element.next) }
        #expect(late.isEmpty, "probes whose command ran outside their lift..next tap: \(late.map(\.offset)) of \(outcome.probes)")
        // The figure: how soon after its lift each probe's command ran.
        print("\(Test.current?.name ?? run.folder): lift to command, ms: \(outcome.probes.map { Int((($0.command - $0.lift) * 1000).rounded()) })")
        #expect(outcome.stats.count == 2, "\(run.lines.suffix(8).map { $0.prefix(200) })")
        if let idle = outcome.stats.first, let after = outcome.stats.last {
            #expect((0...inFlight).contains(after.fds - idle.fds), "descriptors: \(idle.fds) idle, \(after.fds) after")
            #expect(after.rss - idle.rss <= 2_048, "anonymous resident kB: \(idle.rss) idle, \(after.rss) after")
        }
        #expect(outcome.stoppedIn.map { $0 < 1_000 } == true, "\(run.stderr)")
    }

    @Test func aDesktopThatFloodsItsSocketNeverHoldsATap() {
        let run = underAttack("flood", script: """
            device touchpad
            await focus: foot "~"
            stats
            shell touch $NIRI/go
            wait 500ms
            \(Self.probes)
            shell touch $NIRI/stop
            await focus: foot "calm"
            wait 300ms
            stats
            """)
        #expect(run.status == 0, "\(run.stderr.suffix(2_000)) \(run.lines.suffix(8).map { $0.prefix(200) })")
        expectRecovered(outcome(run), taps: 5, run)
    }

    /// A title of a megabyte: the commands still start (Linux refuses any environment
    /// string over 128 KiB) and get the title cut to 4 KiB.
    @Test func aMegabyteTitleNeverStopsACommand() {
        let run = underAttack("title", script: """
            device touchpad
            await focus: foot "~"
            stats
            shell touch $NIRI/go
            await focus: foot "xxxx
            \(Self.probes)
            stats
            """)
        #expect(run.status == 0, "\(run.stderr.suffix(2_000)) \(run.lines.suffix(8).map { $0.prefix(200) })")
        let result = outcome(run)
        expectRecovered(result, taps: 5, run)
        #expect(result.titleLengths == Array(repeating: 4_096, count: 5))
    }

    @Test func thousandsOfWindowsCostMemoryOnlyWhileTheyAreOpen() {
        let run = underAttack("windows", script: """
            device touchpad
            await focus: foot "~"
            stats
            shell touch $NIRI/go
            \(Self.probes)
            await focus: foot "after"
            wait 300ms
            stats
            """)
        #expect(run.status == 0, "\(run.stderr.suffix(2_000)) \(run.lines.suffix(8).map { $0.prefix(200) })")
        expectRecovered(outcome(run), taps: 5, run)
    }

    /// 600 subscribers that connect and never read (polled for reading and writing apart,
    /// they once made poll() refuse more entries than RLIMIT_NOFILE, and the daemon
    /// stopped): past the cap of 256 they are refused,
    /// the taps go on, and when they leave the daemon is back where it was.
    @Test func subscribersThatNeverReadNeverStopTheDaemon() {
        let stall = """
            import os, socket, sys, time
            path, folder = sys.argv[1], sys.argv[2]
            held = []
            for _ in range(600):
                s = socket.socket(socket.AF_UNIX)
                s.connect(path)
                held.append(s)
            open(os.path.join(folder, "held"), "w").close()
            # Until told, or a minute at most: a test that failed early leaves nothing running.
            end = time.monotonic() + 60
            while not os.path.exists(os.path.join(folder, "release")) and time.monotonic() < end:
                time.sleep(0.01)
            for s in held:
                s.close()
            """
        let run = rig(devices: ["touchpad"], rules: Self.probe, script: """
            device touchpad
            stats
            shell /usr/bin/python3 $FOLDER/stall.py $FOLDER/run/events.sock $FOLDER > /dev/null 2>&1 &
            await events: refused a subscriber
            \(Self.probes)
            shell touch $FOLDER/release
            await a subscriber left (0 now)
            wait 300ms
            stats
            """, arguments: "run -v --allow-root --focus none --events-socket $FOLDER/run/events.sock",
            extra: Self.rigOptions, files: ["stall.py": stall, "run/.keep": ""])
        #expect(run.status == 0, "\(run.stderr.suffix(2_000)) \(run.lines.suffix(8).map { $0.prefix(200) })")
        expectRecovered(outcome(run), taps: 5, run)
        #expect(run.lines.filter { $0.contains("events: refused a subscriber") }.count == 1, "\(run.lines.suffix(8).map { $0.prefix(200) })")
    }
}
