import Glibc
import InputActions
@testable import InputChannels
import PollLoop
import TestSupport
import Testing
import TouchGestures

/// What a compositor can do to the Wayland key channel (issue 41), against a stand-in
/// compositor speaking the Wayland wire (``StandInCompositor``): stop reading, list
/// globals without end, flood events, drop touchgest after each handshake. Each costs
/// its own connection, said once, never the loop's time or the daemon's memory.
@Suite struct HostileCompositorTests {
    /// A channel connected to a stand-in that has shaken hands.
    func connected() throws -> (StandInCompositor, ChannelRig, StandInCompositor.Client) {
        let compositor = StandInCompositor(path: "\(temporaryFolder())/wayland-0")
        let rig = ChannelRig(socket: compositor.path)
        let client = try #require(compositor.accept())
        client.shakeHands()
        rig.run { !rig.reports.isEmpty }
        try #require(rig.reports == [.connected("Wayland virtual keyboard at \(compositor.path)")])
        return (compositor, rig, client)
    }

    /// Five texts of 100,000 characters to a compositor that never reads: the requests
    /// waiting never pass what is encoded ahead and one piece (before, all five texts'
    /// requests were kept: 32 MB more), and after the write stall the connection is
    /// dropped, with what waited, and said once.
    @Test func aCompositorThatStopsReadingCostsItsConnectionNotMemory() throws {
        let (compositor, rig, client) = try connected()
        defer { withExtendedLifetime(client) {} }
        let text = InputAction.text(String(repeating: "Hi! ", count: 25_000))
        var most = 0
        for _ in 0..<5 {
            rig.channel.press(text)
            most = max(most, rig.channel.waitingBytes)
        }
        rig.run {
            most = max(most, rig.channel.waitingBytes)
            return rig.reports.count > 1
        }
        #expect(rig.reports == [
            .connected("Wayland virtual keyboard at \(compositor.path)"),
            .lost("the compositor at \(compositor.path) took no request for 2 s: it does not read its socket"),
        ])
        #expect(most > 0 && most <= 32 << 10, "bytes waiting at most: \(most)")
        #expect(rig.channel.waitingBytes == 0)
        #expect(rig.channel.nextDeadline != nil, "no retry planned")
    }

    /// A compositor that lists globals without end and never answers the sync: dropped
    /// after the most globals, without the table growing past them.
    @Test(.timeLimit(.minutes(1))) func aCompositorThatListsGlobalsWithoutEndIsDropped() throws {
        let compositor = StandInCompositor(path: "\(temporaryFolder())/wayland-0")
        let rig = ChannelRig(socket: compositor.path)
        let client = try #require(compositor.accept())
        let fd = client.fd
        let flood = try #require(BackgroundAttempt.start({
            var name: UInt32 = 1
            while true {
                let global = StandInCompositor.Client.global(name, "hostile_global_\(name)", version: 1)
                guard global.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) > 0 else { return }
                name += 1
            }
        }, dispose: { _ in }))
        rig.run { !rig.reports.isEmpty }
        #expect(rig.reports == [
            .lost("the compositor at \(compositor.path) listed more than 1024 globals without ending its handshake"),
        ])
        client.hangUp()
        while flood.isRunning { rig.loop.run(until: PollScheduler.now() + .milliseconds(5)) }
    }

    /// A compositor that takes the connection and never answers: dropped at the
    /// handshake's deadline.
    @Test func aCompositorThatNeverEndsItsHandshakeIsDroppedAtItsDeadline() throws {
        let compositor = StandInCompositor(path: "\(temporaryFolder())/wayland-0")
        let rig = ChannelRig(socket: compositor.path)
        let client = try #require(compositor.accept())
        client.send(StandInCompositor.Client.global(1, "wl_seat", version: 7))
        rig.run { !rig.reports.isEmpty }
        #expect(rig.reports == [.lost("the compositor at \(compositor.path) did not finish its handshake within 5 s")])
    }

    /// A compositor that sends events without pause: the loop keeps its other work going
    /// (a 10 ms timer: between two of its ticks the loop never works 100 ms, in its own
    /// CPU time), and past the flood bytes within the flood window the connection is
    /// dropped and said once.
    @Test(.timeLimit(.minutes(1))) func aCompositorThatFloodsEventsCostsItsConnectionNotTheLoop() throws {
        let (compositor, rig, client) = try connected()
        // wl_display.delete_id, which the channel reads and ignores.
        let events = Array((0..<1_024).map { StandInCompositor.Client.event(1, 1, WaylandChannel.bytes($0)) }.joined())
        let fd = client.fd
        let flood = try #require(BackgroundAttempt.start({
            while events.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) > 0 {}
        }, dispose: { _ in }))
        let scheduler = PollScheduler()
        rig.loop.add(scheduler)
        var ticks: [Duration] = []
        func tick(_ at: Timestamp) {
            var spent = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spent)
            ticks.append(.seconds(spent.tv_sec) + .nanoseconds(spent.tv_nsec))
            _ = scheduler.schedule(at: PollScheduler.now() + .milliseconds(10), tick)
        }
        tick(PollScheduler.now())
        rig.run(within: .seconds(30)) { rig.reports.count > 1 }
        #expect(rig.reports == [
            .connected("Wayland virtual keyboard at \(compositor.path)"),
            .lost("the compositor at \(compositor.path) sent more than 1 MiB within 1 s: it floods its socket"),
        ])
        let gaps = zip(ticks, ticks.dropFirst()).map { $1 - $0 }
        #expect(ticks.count > 2)
        #expect(gaps.allSatisfy { $0 < .milliseconds(100) }, "the loop worked \(gaps.max() ?? .zero) between two ticks (\(gaps.count) gaps)")
        client.hangUp()
        while flood.isRunning { rig.loop.run(until: PollScheduler.now() + .milliseconds(5)) }
    }

    /// A compositor that shakes hands and hangs up, again and again: the loss is said
    /// once, the waits between tries keep doubling across the short connections (before:
    /// 100 ms each, with a "connected" and a "lost" line per connection), and the end of
    /// the outage is said once a connection has lasted.
    @Test func aCompositorThatDropsTouchgestAfterEachHandshakeIsTriedLessAndLessAndSaidOnce() throws {
        let (compositor, rig, first) = try connected()
        var client: StandInCompositor.Client? = first
        var waits: [Duration] = []
        for round in 0..<4 {
            if round > 0 {
                let next = try #require(compositor.accept())
                next.shakeHands()
                client = next
                rig.run { rig.channel.isConnected }
                try #require(rig.channel.isConnected)
            }
            client?.hangUp()
            rig.run { !rig.channel.isConnected && rig.channel.nextDeadline != nil }
            let retry = try #require(rig.channel.nextDeadline)
            waits.append(retry - PollScheduler.now())
            rig.run(within: .seconds(10)) { PollScheduler.now() > retry }
        }
        // Each wait twice the one before: seen from here, at least one and a half times.
        for (earlier, later) in zip(waits, waits.dropFirst()) {
            #expect(later >= earlier * 3 / 2, "\(waits)")
        }
        let lost = InputChannelReport.lost("the compositor at \(compositor.path) closed the connection")
        let connected = InputChannelReport.connected("Wayland virtual keyboard at \(compositor.path)")
        #expect(rig.reports == [connected, lost])
        // One that stays: said once it has lasted.
        let staying = try #require(compositor.accept())
        staying.shakeHands()
        rig.run(within: .seconds(15)) { rig.reports.count > 2 }
        #expect(rig.reports == [connected, lost, connected])
    }
}
