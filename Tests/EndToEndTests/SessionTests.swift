import Glibc
import TestSupport
import Testing

/// The session's state in the real daemon on the real libinput: a locked screen, a session
/// not in front and sleep, told by python3-dbusmock's logind template on a private bus (a
/// stand-in for logind, rig/session-buses), with real commands, a real stream consumer and
/// a real `touchgest events` subscriber. The bus lives outside the rig's namespace, whose
/// /run is private; touchgest finds it through DBUS_SYSTEM_BUS_ADDRESS.
@Suite(.serialized) struct SessionTests {
    static let script = "\(packageRoot)/rig/session-buses"
    static let rigOptions = "--merge-stderr --signal TERM --ready 'device added' --await-timeout 30s"

    /// A logind stand-in on a private bus, with session c1 in front and unlocked.
    final class Logind {
        let folder = temporaryFolder()
        let address: String

        init(withLogind: Bool = true) {
            address = shellOutput("'\(SessionTests.script)' bus \(folder) system").split(separator: "\n").last.map(String.init) ?? ""
            if withLogind { _ = shellOutput("'\(SessionTests.script)' logind \(folder) c1") }
        }

        deinit { _ = shellOutput("'\(SessionTests.script)' stop-bus \(folder) system") }

        /// A rig step that runs `rig/session-buses ACTION FOLDER ARGUMENTS`.
        func step(_ action: String, _ arguments: String = "") -> String {
            "shell '\(SessionTests.script)' \(action) \(folder) \(arguments)"
        }

        /// touchgest's environment: this bus, no session bus, session c1.
        var wrapper: String {
            "env DBUS_SYSTEM_BUS_ADDRESS='\(address)' DBUS_SESSION_BUS_ADDRESS= XDG_SESSION_ID=c1"
        }
    }

    /// Appends `RULE PHASE` to $1 for each line it reads, and prints `consumer RULE PHASE`.
    static let consumer = """
        import json, sys
        out = open(sys.argv[1], "a")
        for line in sys.stdin:
            e = json.loads(line)
            out.write(f'{e["rule"]} {e["phase"]}\\n')
            out.flush()
            # One write, so that the line is never split by the daemon's own on the same pipe.
            sys.stdout.write(f'consumer {e["rule"]} {e["phase"]}\\n')
            sys.stdout.flush()
        """

    static let rules = """
        [settings]
        device = "touchpad"

        [rule.slide]
        gesture = "pan"
        fingers = 3
        on-begin = "echo slide begin >> $FOLDER/out"
        on-cancel = "echo slide cancel >> $FOLDER/out"
        on-end = "echo slide end >> $FOLDER/out"
        stream = "python3 $FOLDER/consumer.py $FOLDER/slide"

        [rule.volume]
        gesture = "swipe"
        fingers = 4
        direction = "up"
        when-locked = true
        command = "echo volume >> $FOLDER/out"

        [rule.tap]
        gesture = "tap"
        fingers = 2
        command = "echo tap >> $FOLDER/out"
        """

    static let files = ["consumer.py": consumer, "run/.keep": ""]
    static let arguments = "run --allow-root -v --events-socket $FOLDER/run/touchgest/events.sock"

    static func lines(_ run: RigRun, _ name: String) -> [String] {
        readText("\(run.folder)/\(name)").split(separator: "\n").map(String.init)
    }

    /// The subscriber's lines, shortened: `RULE PHASE` for a gesture's, `session STATE`.
    static func events(_ run: RigRun, _ name: String = "events") -> [String] {
        lines(run, name).compactMap { line in
            func field(_ name: String) -> String? {
                let parts = line.split(separator: "\"\(name)\":\"", maxSplits: 1, omittingEmptySubsequences: false)
                return parts.count == 2 ? String(parts[1].prefix { $0 != "\"" }) : nil
            }
            if let session = field("session") { return "session \(session)" }
            guard let rule = field("rule"), let phase = field("phase") else { return nil }
            return phase == "changed" ? nil : "\(rule) \(phase)"
        }
    }

    /// Active false (another user took the seat) with a swipe under way: it is cancelled,
    /// its stream gets `cancelled`; nothing acts, not even a when-locked rule, and the
    /// subscriber gets no gesture line, only the session's, until the session is back.
    @Test func aSessionNotInFrontCancelsTheGestureUnderWayAndRunsNothingUntilItIsBack() {
        let logind = Logind()
        let run = rig(devices: ["touchpad"], rules: Self.rules, script: """
            device touchpad
            shell XDG_RUNTIME_DIR=$FOLDER/run '\(touchgestBinary)' events > $FOLDER/events &
            await a subscriber joined
            touch 3 at 70,35 move -30,0 over 200ms lift no
            await consumer slide began
            \(logind.step("set", "Active false"))
            await session: inactive
            up 3 at 40,35
            touch 4 at 50,50 move 0,-30 over 150ms
            await touchpad swipe-begin 4f began a gesture; no rule takes part
            tap 2 at 50,35
            await touchpad tap 2f began a gesture; no rule takes part
            \(logind.step("set", "Active true"))
            await session: unlocked
            tap 2 at 50,35
            await rule tap: command exited with status 0
            """, arguments: Self.arguments, extra: Self.rigOptions, files: Self.files, wrapper: logind.wrapper)
        #expect(run.status == 0, "\(run.stderr)\n\(run.lines.suffix(25).joined(separator: "\n"))")
        #expect(Self.lines(run, "out") == ["slide begin", "slide cancel", "tap"], "\(run)")
        // The stream consumer read the swipe up to its cancellation, and nothing after.
        let slide = Self.lines(run, "slide").filter { !$0.hasSuffix("changed") }
        #expect(slide == ["slide began", "slide cancelled"], "\(slide)")
        #expect(Self.events(run) == ["slide began", "slide cancelled", "session inactive", "session unlocked", "tap recognized"],
                "\(Self.lines(run, "events"))")
        #expect(run.lines.contains("touchgest: session: inactive (logind says the session is not active); no rule acts"))
    }

    /// LockedHint true (the desktop locked): the next gesture is refused, a when-locked
    /// rule still runs, and a subscriber that joins while locked is told at once.
    @Test func aLockedScreenRefusesTheNextGestureAndAWhenLockedRuleStillRuns() {
        let logind = Logind()
        let run = rig(devices: ["touchpad"], rules: Self.rules, script: """
            device touchpad
            \(logind.step("set", "LockedHint true"))
            await session: locked (logind's LockedHint is true)
            shell XDG_RUNTIME_DIR=$FOLDER/run '\(touchgestBinary)' events > $FOLDER/events &
            await a subscriber joined
            shell XDG_RUNTIME_DIR=$FOLDER/run '\(touchgestBinary)' events tap > $FOLDER/tap-events &
            await a subscriber joined
            tap 2 at 50,35
            await touchpad tap 2f began a gesture; only rules with when-locked = true take part
            touch 3 at 70,35 move -30,0 over 200ms
            await touchpad swipe-begin 3f began a gesture
            touch 4 at 50,50 move 0,-30 over 150ms
            await rule volume: command exited with status 0
            \(logind.step("set", "LockedHint false"))
            await session: unlocked
            tap 2 at 50,35
            await rule tap: command exited with status 0
            """, arguments: Self.arguments, extra: Self.rigOptions, files: Self.files, wrapper: logind.wrapper)
        #expect(run.status == 0, "\(run.stderr)\n\(run.lines.suffix(25).joined(separator: "\n"))")
        #expect(Self.lines(run, "out") == ["volume", "tap"], "\(run)")
        #expect(Self.lines(run, "slide").isEmpty)
        #expect(Self.events(run) == ["session locked", "volume recognized", "session unlocked", "tap recognized"],
                "\(Self.lines(run, "events"))")
        // A subscriber of one rule gets the session's lines too.
        #expect(Self.events(run, "tap-events") == ["session locked", "session unlocked", "tap recognized"],
                "\(Self.lines(run, "tap-events"))")
    }

    /// PrepareForSleep(true) mid-swipe cancels it. Around the resume the touchpad goes away
    /// and comes back, as USB and I2C devices do: one device afterwards, no gesture left
    /// hanging, and the next swipe works.
    ///
    /// The end command's exit and the consumer's `ended` line come from two processes in
    /// either order (under load the exit came first, and an await for it after the
    /// consumer's line waited in vain): the script waits for the end command to start and
    /// exit (one command of a rule at a time), and the consumer has its last line before
    /// the daemon ends, as SIGTERM closes the streams and waits for them.
    @Test func sleepCancelsTheSwipeUnderWayAndAfterResumeTheReaddedTouchpadWorks() {
        let logind = Logind()
        let run = rig(devices: ["touchpad"], rules: Self.rules, script: """
            device touchpad
            touch 3 at 70,35 move -30,0 over 200ms lift no
            await consumer slide began
            \(logind.step("sleep", "true"))
            await session: sleeping (logind sent PrepareForSleep); no rule acts
            remove touchpad
            await device removed
            \(logind.step("sleep", "false"))
            await session: unlocked
            add touchpad
            device touchpad
            touch 3 at 70,35 move -30,0 over 200ms
            await echo slide end
            await rule slide: command exited
            """, arguments: Self.arguments, extra: Self.rigOptions, files: Self.files, wrapper: logind.wrapper)
        #expect(run.status == 0, "\(run.stderr)\n\(run.lines.suffix(25).joined(separator: "\n"))")
        #expect(Self.lines(run, "out").prefix(2) == ["slide begin", "slide cancel"], "\(run)")
        #expect(Self.lines(run, "out").suffix(2) == ["slide begin", "slide end"], "\(Self.lines(run, "out"))")
        let slide = Self.lines(run, "slide").filter { !$0.hasSuffix("changed") }
        #expect(slide == ["slide began", "slide cancelled", "slide began", "slide ended"], "\(slide)")
        let added = run.lines.filter { $0.hasPrefix("touchgest: device added:") }.count
        let removed = run.lines.filter { $0.hasPrefix("touchgest: device removed:") }.count
        #expect(added == 2 && removed == 1, "\(run)")
    }

    /// No logind on the bus (a system without systemd): touchgest runs, says once what it
    /// cannot tell, and every rule acts.
    @Test func withoutLogindTouchgestRunsAndSaysOnceWhatItCannotTell() {
        let logind = Logind(withLogind: false)
        let run = rig(devices: ["touchpad"], rules: Self.rules, script: """
            device touchpad
            tap 2 at 50,35
            await rule tap: command exited with status 0
            tap 2 at 50,35
            await rule tap: command exited with status 0
            """, arguments: Self.arguments, extra: Self.rigOptions, files: Self.files, wrapper: logind.wrapper)
        #expect(run.status == 0, "\(run.stderr)\n\(run.lines.suffix(25).joined(separator: "\n"))")
        #expect(Self.lines(run, "out") == ["tap", "tap"])
        let said = run.lines.filter { $0.hasPrefix("touchgest: warning: session: unavailable: logind is not on the system bus") }
        #expect(said.count == 1, "\(run)")
        #expect(said.first?.hasSuffix("waiting for it: touchgest cannot tell from logind that the screen is locked, that the session is not in front, or that the machine is going to sleep") == true)
    }
}
