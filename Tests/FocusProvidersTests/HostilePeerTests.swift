import Glibc
import PollLoop
import TestSupport
import Testing
import TextWire
import TouchGestures
@testable import FocusProviders

/// What a desktop that floods its socket, or takes touchgest's connection only to drop
/// it, can do to the provider (issue 23): it costs its own connection, never the loop.
@Suite struct HostilePeerTests {
    static let windows = #"{"Ok":"Handled"}"# + "\n" + #"{"WindowsChanged":{"windows":[{"id":1,"title":"~","app_id":"foot","is_focused":true}]}}"# + "\n"

    /// A niri that sends focus events without pause: the loop keeps its other work going
    /// (a 10 ms timer, as a probe tap's command would be: between two of its ticks the
    /// loop never works 100 ms, in its own CPU time), and once the socket has not
    /// been found empty for the flood limit the connection is dropped and said once.
    @Test(.timeLimit(.minutes(1))) func aFloodingDesktopCostsItsConnectionNotTheLoop() throws {
        let path = "\(temporaryFolder())/niri.sock"
        let server = LocalServer(path: path)
        let rig = ProviderRig(SocketFocusProvider(wire: NiriWire(environment: ["NIRI_SOCKET": path]), floodBytes: 4 << 20))
        let peer = try #require(server.accept())
        _ = peer.receive(atLeast: 14)
        peer.send(Self.windows)
        rig.run(untilReports: 2)
        // The flood, from a thread of its own, until the provider hangs up.
        let event = Array(String(repeating: #"{"WindowFocusChanged":{"id":1}}"# + "\n", count: 2_048).utf8)
        let fd = peer.fd
        let flood = try #require(BackgroundAttempt.start({
            while event.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) > 0 {}
        }, dispose: { _ in }))
        let scheduler = PollScheduler()
        rig.loop.add(scheduler)
        // The loop's own CPU time at each tick: the work it did between two ticks,
        // whatever else the machine runs meanwhile.
        var ticks: [Duration] = []
        func tick(_ at: Timestamp) {
            var spent = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spent)
            ticks.append(.seconds(spent.tv_sec) + .nanoseconds(spent.tv_nsec))
            _ = scheduler.schedule(at: PollScheduler.now() + .milliseconds(10), tick)
        }
        tick(PollScheduler.now())
        let deadline = PollScheduler.now() + .seconds(30)
        while rig.reports.count < 3 && PollScheduler.now() < deadline {
            rig.loop.run(until: PollScheduler.now() + .milliseconds(20))
        }
        #expect(rig.reports == [
            .connected("niri at \(path)"),
            .focused(.window(appID: "foot", title: "~")),
            .lost("niri sent more than 4 MiB without a pause: it floods its socket; trying again"),
        ])
        let gaps = zip(ticks, ticks.dropFirst()).map { $1 - $0 }
        #expect(ticks.count > 2)
        #expect(gaps.allSatisfy { $0 < .milliseconds(100) }, "the loop worked \(gaps.max() ?? .zero) between two ticks (\(gaps.count) gaps)")
        // The peer's writes fail once the provider has closed its end.
        while flood.isRunning { _ = peer.receive(atLeast: 1 << 20) }
    }

    /// A megabyte line that pauses mid-way: the heap is trimmed once the line has ended
    /// and been parsed, never only while it is half-read. Trimmed mid-way, the parse's
    /// memory came after the last trim and the daemon kept it (4 MB more than idle, in
    /// HostileDesktopTests, one run in three).
    @Test func aLongLineThatPausesIsTrimmedAfterItsParse() throws {
        let path = "\(temporaryFolder())/niri.sock"
        let server = LocalServer(path: path)
        let trims = TrimLog()
        let rig = ProviderRig(SocketFocusProvider(wire: NiriWire(environment: ["NIRI_SOCKET": path]), trim: trims.trim))
        trims.rig = rig
        let peer = try #require(server.accept())
        _ = peer.receive(atLeast: 14)
        peer.send(Self.windows)
        rig.run(untilReports: 2)
        let title = String(repeating: "x", count: 1 << 20)
        let line = Array((#"{"WindowOpenedOrChanged":{"window":{"id":2,"title":""# + title + #"","app_id":"foot","is_focused":true}}}"# + "\n").utf8)
        // All but the last few bytes, 100 kB at a time, each read to the end: the
        // provider finds its socket empty again and again in the middle of the line.
        let tail = line.count - 11
        try rig.feed(line[..<tail], through: peer, piece: 100_000)
        #expect(trims.reportsAtTrim == [], "trimmed while the line was half-read")
        peer.send(Array(line[tail...]))
        rig.run(untilReports: 3)
        // The title as kept: cut to what touchgest takes from outside.
        #expect(rig.reports.last == .focused(.window(appID: "foot", title: String(repeating: "x", count: maximumOutsideTextBytes))))
        #expect(trims.reportsAtTrim == [3], "trims, by the reports made before each")
    }

    /// A desktop that takes the connection and sends garbage, again and again: the
    /// outage is said once, the waits between tries keep doubling across the short
    /// connections, and the end of the outage is said once, with the first focus.
    @Test func aDesktopThatKeepsDroppingTouchgestIsTriedLessAndLessAndSaidOnce() throws {
        let path = "\(temporaryFolder())/niri.sock"
        let server = LocalServer(path: path)
        let rig = ProviderRig(SocketFocusProvider(wire: NiriWire(environment: ["NIRI_SOCKET": path])))
        var waits: [Duration] = []
        for _ in 0..<4 {
            let peer = try #require(server.accept())
            _ = peer.receive(atLeast: 14)
            peer.send("garbage\n")
            // Until the provider has hung up and waits to try again.
            let limit = PollScheduler.now() + .seconds(5)
            while rig.provider.nextDeadline == nil && PollScheduler.now() < limit {
                rig.loop.run(until: PollScheduler.now() + .milliseconds(5))
            }
            let retry = try #require(rig.provider.nextDeadline)
            waits.append(retry - PollScheduler.now())
            rig.run(until: retry)
        }
        // Each wait twice the one before: seen from here, at least one and a half times
        // (the loop may have taken a while to notice the garbage before the deadline was read).
        for (earlier, later) in zip(waits, waits.dropFirst()) {
            #expect(later >= earlier * 3 / 2, "\(waits)")
        }
        let peer = try #require(server.accept())
        _ = peer.receive(atLeast: 14)
        peer.send(Self.windows)
        rig.run(untilReports: 4)
        let lost = FocusReport.lost("niri sent what touchgest cannot read: invalid JSON at byte 0: unexpected character; trying again")
        #expect(rig.reports == [.connected("niri at \(path)"), lost, .connected("niri at \(path)"), .focused(.window(appID: "foot", title: "~"))])
    }
}
