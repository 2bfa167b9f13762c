import CProcess
import Glibc
@testable import GestureStreams
import PollLoop
import TestSupport
import Testing
import TouchGestures

/// The stream hub with real processes on both ends: shell and Python consumers written
/// as a user would, and subscribers on the real socket.
@Suite(.serialized) struct StreamHubTests {
    /// A hub in a loop of its own, with every event it reported.
    final class Harness {
        let hub = StreamHub()
        let loop = EventLoop()
        let folder = temporaryFolder()
        var events: [StreamHub.Event] = []

        init() {
            loop.add(hub)
            hub.observer = { [unowned self] event in events.append(event) }
        }

        /// Stops every command, as the daemon does: one left running would hold the test
        /// runner's output open.
        deinit {
            hub.observer = nil
            hub.shutdown()
        }

        /// Runs the loop until `done` holds; false after `timeout`.
        @discardableResult
        func pump(timeout: Duration = .seconds(20), until done: () -> Bool) -> Bool {
            let end = PollScheduler.now() + timeout
            while !done() {
                guard PollScheduler.now() < end else { return false }
                loop.run(until: PollScheduler.now() + .milliseconds(10))
            }
            return true
        }

        func lines(_ name: String) -> [String] {
            readText("\(folder)/\(name)").split(separator: "\n").map(String.init)
        }

        func send(_ rule: String, _ phase: String, _ value: Int = 0) {
            hub.publish(rule: rule, line: "{\"rule\":\"\(rule)\",\"phase\":\"\(phase)\",\"value\":\(value)}",
                        coalescible: phase == "changed")
        }

        var exits: [String] {
            events.compactMap { event -> String? in
                if case let .exited(rule, _, status, retryIn) = event { return "\(rule) \(status) \(retryIn)" }
                return nil
            }
        }

        var starts: Int { events.filter { if case .started = $0 { true } else { false } }.count }
    }

    @Test func aFastConsumerGetsEveryLineInOrderAndAnIdleHubWantsNoWakeUp() {
        let h = Harness()
        h.hub.setStreams([(rule: "slide", command: "cat >> \(h.folder)/out")])
        h.send("slide", "began")
        for value in 1...3 { h.send("slide", "changed", value) }
        h.send("slide", "ended", 3)
        #expect(h.pump { h.lines("out").count == 5 })
        #expect(h.lines("out") == [
            #"{"rule":"slide","phase":"began","value":0}"#, #"{"rule":"slide","phase":"changed","value":1}"#,
            #"{"rule":"slide","phase":"changed","value":2}"#, #"{"rule":"slide","phase":"changed","value":3}"#,
            #"{"rule":"slide","phase":"ended","value":3}"#,
        ])
        #expect(h.hub.nextDeadline == nil)
        #expect(h.hub.writeDescriptors.isEmpty)
        #expect(h.hub.runningStreams.keys.sorted() == ["slide"])
    }

    @Test func aSlowConsumerGetsCoalescedChangedLinesTheLatestOfEachGestureAndEveryBeganAndEnded() {
        let h = Harness()
        // 20 ms a line: far slower than the 500 lines sent below.
        writeText("\(h.folder)/slow.py", """
            import json, sys, time
            for line in sys.stdin:
                time.sleep(0.02)
                event = json.loads(line)
                print(event["phase"], event["value"], flush=True)
            """)
        h.hub.setStreams([(rule: "slide", command: "python3 -u \(h.folder)/slow.py >> \(h.folder)/out")])
        for _ in 1...5 {
            h.send("slide", "began")
            for value in 1...98 { h.send("slide", "changed", value) }
            h.send("slide", "ended", 98)
        }
        #expect(h.pump { h.lines("out").filter { $0.hasPrefix("ended") }.count == 5 })
        let out = h.lines("out")
        #expect(out.filter { !$0.hasPrefix("changed") } == Array(repeating: ["began 0", "ended 98"], count: 5).flatMap { $0 })
        // Split into gestures at each began.
        var gestures: [[String]] = []
        for line in out {
            if line.hasPrefix("began") { gestures.append([]) }
            gestures[gestures.count - 1].append(line)
        }
        // The first gesture's first lines fit the one-page pipe (about 89 of these 46-byte
        // lines) and arrive as sent; the rest of it is the latest state. The changed values
        // only grow: coalescing drops old states, it never delivers one after a newer one.
        let first = gestures.first?.filter { $0.hasPrefix("changed") }.compactMap { Int($0.split(separator: " ")[1]) } ?? []
        #expect(first == first.sorted() && Set(first).count == first.count, "\(first)")
        #expect(first.last == 98)
        #expect(first.count < 98, "\(first.count) changed lines: none was coalesced")
        // The four later gestures were sent while the pipe was full: each reaches the slow
        // reader as its began, its latest state, its end.
        #expect(Array(gestures.dropFirst()) == Array(repeating: ["began 0", "changed 98", "ended 98"], count: 4))
    }

    @Test func aConsumerThatExitsIsRestartedWithBackoffAndTheNextGestureReachesIt() {
        let h = Harness()
        h.hub.setStreams([(rule: "once", command: "head -n 1 >> \(h.folder)/out")])
        h.send("once", "began", 1)
        #expect(h.pump { h.starts == 2 })
        h.send("once", "began", 2)
        #expect(h.pump { h.lines("out").count == 2 && h.exits.count == 2 })
        #expect(h.lines("out") == [#"{"rule":"once","phase":"began","value":1}"#, #"{"rule":"once","phase":"began","value":2}"#])
        // Each exit in a row waits twice as long as the one before.
        #expect(h.exits == ["once exited with status 0 0.25 seconds", "once exited with status 0 0.5 seconds"])
    }

    @Test func aConsumerThatNeverReadsIsStoppedAndRestartedAndDoesNotStallAnotherRule() {
        let h = Harness()
        h.hub.setStreams([(rule: "stuck", command: "exec sleep 600"), (rule: "live", command: "cat >> \(h.folder)/live")])
        // More lines than its small pipe and its queue of 256 hold, and meanwhile a
        // gesture of the other rule (which may start reading only after all were sent).
        h.send("live", "began")
        for value in 1...400 {
            h.send("stuck", "began", value)
            h.send("live", "changed", value)
        }
        h.send("live", "ended", 400)
        // The queue limit noticed it while the lines were sent, before the loop first ran:
        // the stall timeout, a deadline of the loop's, could not have.
        #expect(h.events.filter { if case .stuck = $0 { true } else { false } }.count == 1, "\(h.events)")
        #expect(h.pump { h.lines("live").last == #"{"rule":"live","phase":"ended","value":400}"# })
        #expect(h.lines("live").first == #"{"rule":"live","phase":"began","value":0}"#)
        #expect(h.pump { h.starts == 3 })
        let stuck = h.events.compactMap { event -> String? in
            switch event {
            case let .stuck(rule, _, queued): "\(rule) stuck with \(queued) lines"
            case let .restarting(rule, _, retryIn): "\(rule) restarting in \(retryIn)"
            default: nil
            }
        }
        #expect(stuck == ["stuck stuck with 257 lines", "stuck restarting in 0.25 seconds"])
        #expect(h.hub.runningStreams.keys.sorted() == ["live", "stuck"])
    }

    @Test func aReaderThatTakesEveryLineSlowlyIsNotStoppedAndOneThatTakesNothingIs() {
        let h = Harness()
        // A shell reads its input a byte at a time, so it takes each line out of the pipe
        // a little at a time, 0.25 s apart: a one-page pipe empties only every 3 s or so.
        h.hub.setStreams([
            (rule: "slow", command: "while read -r line; do printf '%s\\n' \"$line\" >> \(h.folder)/out; sleep 0.25; done"),
            (rule: "deaf", command: "exec sleep 600"),
        ])
        // 32 lines of 340 bytes: 12 fill the pipe, the rest wait in the hub.
        let lines = (1...32).map { value in
            #"{"rule":"slow","phase":"began","value":\#(value),"pad":""# + String(repeating: "x", count: 300) + #""}"#
        }
        for line in lines {
            h.hub.publish(rule: "slow", line: line, coalescible: false)
            h.hub.publish(rule: "deaf", line: line, coalescible: false)
        }
        var stuck: [String] {
            h.events.compactMap { if case let .stuck(rule, _, _) = $0 { rule } else { nil } }
        }
        #expect(h.pump(timeout: .seconds(60)) { (h.lines("out").count == lines.count || stuck.contains("slow")) && stuck.contains("deaf") })
        let out = h.lines("out")
        #expect(out.count == lines.count)
        #expect(out.filter { !lines.contains($0) }.isEmpty, "lines read that were not sent")
        #expect(out == lines.filter(out.contains), "lines read out of order")
        #expect(stuck == ["deaf"])
    }

    /// The processes (not zombies) whose process group is one of `groups`, from /proc.
    static func running(inGroups groups: Set<Int32>) -> [String] {
        listFolder("/proc").filter { Int32($0) != nil }.compactMap { pid -> String? in
            // pid (comm) state ppid pgrp ...: the name may hold spaces and parentheses.
            let stat = readText("/proc/\(pid)/stat")
            guard let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", let group = Int32(fields[2]), groups.contains(group) else { return nil }
            return "\(pid) in group \(group): \(readText("/proc/\(pid)/cmdline").split(separator: "\0").joined(separator: " "))"
        }
    }

    /// Pidfds of the processes `pids` that still run (one gone is left out).
    static func pidfds(_ pids: [Int32]) -> [Int32: Int32] {
        var pidfds: [Int32: Int32] = [:]
        for pid in pids {
            let fd = cprocess_pidfd_open(pid)
            if fd >= 0 { pidfds[pid] = fd }
        }
        return pidfds
    }

    /// The processes of `pidfds` that have not exited.
    static func alive(_ pidfds: [Int32: Int32]) -> [Int32] {
        pidfds.filter { _, fd in
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            return poll(&entry, 1, 0) == 0
        }.keys.sorted()
    }

    /// Kills and forgets the processes of `pidfds` still running, so that a test that
    /// failed leaves none behind.
    static func release(_ pidfds: [Int32: Int32]) {
        for pid in alive(pidfds) { kill(pid, SIGKILL) }
        for fd in pidfds.values { close(fd) }
    }

    /// `$$ $!` lines a command wrote: its group (its shell's pid), and the pid of what it
    /// started in the background.
    static func groupsAndChildren(_ lines: [String]) -> [(group: Int32, child: Int32)] {
        lines.compactMap { line in
            let words = line.split(separator: " ").compactMap { Int32($0) }
            return words.count == 2 ? (words[0], words[1]) : nil
        }
    }

    @Test func whatAStreamCommandLeftInTheBackgroundIsStoppedWhenTheCommandExits() {
        let h = Harness()
        // The shell starts sleep in the background, in its own process group, and exits
        // at once: it is started again and again, each time leaving a sleep behind. (Its
        // output goes nowhere: one left behind would hold the test runner's open.)
        h.hub.setStreams([(rule: "bg", command: "sleep 1000 <&0 >/dev/null 2>&1 & echo $$ $! >> \(h.folder)/children; exit 0")])
        #expect(h.pump { h.exits.count >= 2 })
        let exited = Set(h.events.compactMap { if case let .exited(_, pid, _, _) = $0 { pid } else { nil } })
        let children = Self.groupsAndChildren(h.lines("children")).filter { exited.contains($0.group) }.map(\.child)
        #expect(children.count == exited.count)
        let pidfds = Self.pidfds(children)
        defer { Self.release(pidfds) }
        // The loop runs meanwhile: whatever is due a second after the exits happens.
        h.pump(timeout: .seconds(10)) { Self.alive(pidfds).isEmpty }
        #expect(Self.alive(pidfds).isEmpty, "outlived their stream command: \(Self.running(inGroups: exited))")
        #expect(Self.running(inGroups: exited).isEmpty)
        // The log says why they went.
        let leftBehind = Set(h.events.compactMap { if case let .leftBehind(_, pid) = $0 { pid } else { nil } })
        #expect(exited.isSubset(of: leftBehind))
    }

    @Test func whatAStreamCommandLeftInTheBackgroundDoesNotOutliveShutdown() throws {
        let h = Harness()
        // cat reads until its input closes, as on shutdown, and exits; sleep would stay.
        h.hub.setStreams([(rule: "bg", command: "sleep 1000 <&0 >/dev/null 2>&1 & echo $$ $! >> \(h.folder)/children; exec cat >/dev/null")])
        #expect(h.pump { h.lines("children").count == 1 })
        let started = try #require(Self.groupsAndChildren(h.lines("children")).first)
        let pidfds = Self.pidfds([started.child])
        defer { Self.release(pidfds) }
        #expect(pidfds.count == 1, "sleep \(started.child) is not running")
        #expect(h.hub.shutdown())
        var entry = pollfd(fd: pidfds[started.child] ?? -1, events: Int16(POLLIN), revents: 0)
        #expect(poll(&entry, 1, 10_000) == 1, "sleep \(started.child) outlived the shutdown: \(Self.running(inGroups: [started.group]))")
        #expect(Self.running(inGroups: [started.group]).isEmpty)
        #expect(h.events.contains(.leftBehind(rule: "bg", pid: started.group)))
    }

    @Test func subscribersOnAnOwnerOnlySocketJoinAndLeaveMidGesture() throws {
        let h = Harness()
        let path = "\(h.folder)/run/events.sock"
        try h.hub.listen(at: path)
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        h.send("pan", "began")
        let first = cprocess_unix_connect(path)
        #expect(h.pump { h.hub.subscriberCount == 1 })
        h.send("pan", "changed", 1)
        let second = cprocess_unix_connect(path)
        #expect(h.pump { h.hub.subscriberCount == 2 })
        h.send("pan", "changed", 2)
        #expect(Self.received(first) == [#"{"rule":"pan","phase":"changed","value":1}"#, #"{"rule":"pan","phase":"changed","value":2}"#])
        close(first)
        #expect(h.pump { h.hub.subscriberCount == 1 })
        h.send("pan", "changed", 3)
        h.send("pan", "ended", 3)
        #expect(Self.received(second) == [#"{"rule":"pan","phase":"changed","value":2}"#, #"{"rule":"pan","phase":"changed","value":3}"#,
                                          #"{"rule":"pan","phase":"ended","value":3}"#])
        close(second)
        #expect(h.pump { h.hub.subscriberCount == 0 })
        // A second daemon does not take the socket over; the first removes it when it stops.
        #expect(throws: StreamError(description: "another touchgest already serves events at \(path)")) {
            try StreamHub().listen(at: path)
        }
        h.hub.shutdown()
        #expect(access(path, F_OK) != 0)
    }

    @Test func aReloadLetsTheOldStreamFinishItsLinesReadEOFAndExitThenStartsTheNewOne() {
        let h = Harness()
        h.hub.setStreams([(rule: "slide", command: "cat >> \(h.folder)/old; echo EOF >> \(h.folder)/old")])
        h.send("slide", "began")
        h.send("slide", "changed", 1)
        h.send("slide", "cancelled", 1)
        h.hub.setStreams([(rule: "slide", command: "cat >> \(h.folder)/new")])
        #expect(h.hub.closingCount == 1)
        h.send("slide", "began", 2)
        #expect(h.pump { h.hub.closingCount == 0 && h.lines("new").count == 1 })
        #expect(h.lines("old") == [#"{"rule":"slide","phase":"began","value":0}"#, #"{"rule":"slide","phase":"changed","value":1}"#,
                                   #"{"rule":"slide","phase":"cancelled","value":1}"#, "EOF"])
        #expect(h.events.contains { if case .closed(rule: "slide", _, status: .exited(0)) = $0 { true } else { false } })
        #expect(h.lines("new") == [#"{"rule":"slide","phase":"began","value":2}"#])
    }

    @Test func aHubDroppedWithoutShutdownClosesItsCommandsPidfds() throws {
        var pid: Int32 = 0
        var pidfd: Int32 = -1
        defer {
            // It leaves its commands running, as the daemon's exit does: this one is the test's to stop.
            if pid > 0 {
                kill(-pid, SIGKILL)
                while waitpid(pid, nil, 0) < 0 && errno == EINTR {}
            }
        }
        do {
            let hub = StreamHub()
            hub.setStreams([(rule: "r", command: "exec sleep 600")])
            pid = try #require(hub.runningStreams["r"])
            pidfd = try #require(hub.pollDescriptors.first)
            #expect(readText("/proc/self/fdinfo/\(pidfd)").contains("Pid:\t\(pid)\n"))
        }
        // The number may be another test's descriptor by now, but not this pid's.
        #expect(!readText("/proc/self/fdinfo/\(pidfd)").contains("Pid:\t\(pid)\n"), "the pidfd of \(pid) is left open")
    }

    /// The lines waiting on a subscriber's socket.
    static func received(_ fd: Int32) -> [String] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
