import Glibc
@testable import PollLoop
import Synchronization
import Testing
import TouchGestures

/// A clock the test moves by hand.
final class ManualClock {
    var now = Timestamp(microseconds: 1_000_000)
    func advance(_ duration: Duration) { now = now + duration }
}

/// What a ``Reconnecting`` said, in order: `connected`, or `lost why retrying broke`.
final class Transcript {
    var lines: [String] = []
    func follow<Link>(_ link: Reconnecting<Link>, _ name: String = "") {
        link.onConnected = { [unowned self] in lines.append("\(name)connected") }
        link.onLost = { [unowned self] why, retrying, broke in
            lines.append("\(name)lost \(why)" + (retrying ? ", retrying" : "") + (broke ? ", broke" : ""))
        }
    }
}

/// One end of a new socketpair as a link; the other end is the peer's, kept by the test.
final class Pairs {
    var peers: [Int32] = []
    /// Whether the next opens fail.
    var failing = false

    func open() -> Result<Int32, ConnectFailure> {
        if failing { return .failure(ConnectFailure("nobody there")) }
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            return .failure(ConnectFailure("no socketpair"))
        }
        peers.append(ends[1])
        return .success(ends[0])
    }

    deinit { for peer in peers { close(peer) } }
}

let testPolicy = ReconnectPolicy(firstRetry: .milliseconds(100), maximumRetry: .seconds(2), stableConnection: .seconds(10),
                                 maximumFlappingRetry: .seconds(1), triesUnreached: true)

func pairLink(_ pairs: Pairs, _ clock: ManualClock? = nil, policy: ReconnectPolicy = testPolicy) -> Reconnecting<Int32> {
    Reconnecting(policy: policy, connectTimeout: .seconds(1), open: .inline({ pairs.open() }), close: { close($0) },
                 descriptors: { fd, read in read(fd) }, timedOut: "no answer within 1 s",
                 clock: clock.map { clock in { clock.now } } ?? PollScheduler.now)
}

/// The wait a link in waiting took: its deadline less the clock.
func wait(_ link: Reconnecting<Int32>, _ clock: ManualClock) -> Duration? {
    link.deadline.map { $0 - clock.now }
}

@Suite struct ReconnectingTests {
    /// Tries that fail wait 100 ms, then twice as long each time, up to the longest wait.
    @Test func failedTriesWaitTwiceAsLongUpToTheLongestWait() {
        let clock = ManualClock()
        let pairs = Pairs()
        pairs.failing = true
        let link = pairLink(pairs, clock)
        let transcript = Transcript()
        transcript.follow(link)
        link.start()
        var waits: [Duration] = []
        for _ in 0..<7 {
            guard let due = wait(link, clock) else { break }
            waits.append(due)
            clock.advance(due)
            link.handleDeadlines()
        }
        #expect(waits == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1_600),
                          .seconds(2), .seconds(2)])
        #expect(transcript.lines == Array(repeating: "lost nobody there, retrying", count: 8))
        #expect(link.isTrying && !link.isConnected)
    }

    /// A connection that is made and dropped at once doubles the wait, up to the longest
    /// wait for a flapping peer; one that lasted starts the waits over.
    @Test func aFlappingPeerIsTriedLessOftenAndAStableConnectionStartsOver() {
        let clock = ManualClock()
        let pairs = Pairs()
        let link = pairLink(pairs, clock)
        let transcript = Transcript()
        transcript.follow(link)
        link.start()
        var waits: [Duration] = []
        for _ in 0..<6 {
            #expect(link.isConnected)
            link.lose("dropped")
            guard let due = wait(link, clock) else { break }
            waits.append(due)
            clock.advance(due)
            link.handleDeadlines()
        }
        #expect(waits == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1)])
        clock.advance(.seconds(10))
        link.lose("dropped after a while")
        #expect(wait(link, clock) == .milliseconds(100))
        #expect(transcript.lines.prefix(3) == ["connected", "lost dropped, retrying, broke", "connected"])
        #expect(transcript.lines.last == "lost dropped after a while, retrying, broke")
    }

    /// A peer never reached is not tried again when the policy says so; once reached, a
    /// failed try is.
    @Test func aPeerNeverReachedIsNotTriedAgainUnderAPolicyThatSaysSo() {
        let clock = ManualClock()
        let pairs = Pairs()
        pairs.failing = true
        var policy = testPolicy
        policy.triesUnreached = false
        let link = pairLink(pairs, clock, policy: policy)
        let transcript = Transcript()
        transcript.follow(link)
        link.start()
        #expect(link.deadline == nil && !link.isTrying)
        #expect(transcript.lines == ["lost nobody there"])

        let reached = pairLink(pairs, clock, policy: policy)
        transcript.follow(reached, "reached ")
        pairs.failing = false
        reached.start()
        reached.lose("dropped")
        pairs.failing = true
        clock.advance(.milliseconds(100))
        reached.handleDeadlines()
        #expect(wait(reached, clock) == .milliseconds(200))
        #expect(transcript.lines.dropFirst() == ["reached connected", "reached lost dropped, retrying, broke",
                                                 "reached lost nobody there, retrying"])
    }

    /// A handshake not done within the connect timeout is a failed try; one done is
    /// connected under the serial it was read with.
    @Test func aHandshakePastTheTimeoutFailsAndOneDoneKeepsItsSerial() {
        let clock = ManualClock()
        let pairs = Pairs()
        let link = Reconnecting<Int32>(policy: testPolicy, connectTimeout: .seconds(1), open: .handshake({ pairs.open() }),
                                       close: { close($0) }, descriptors: { fd, read in read(fd) },
                                       timedOut: "no handshake within 1 s", clock: { clock.now })
        let transcript = Transcript()
        transcript.follow(link)
        link.start()
        #expect(link.handshaking != nil && !link.isConnected)
        #expect(wait(link, clock) == .seconds(1))
        clock.advance(.seconds(1))
        link.handleDeadlines()
        #expect(wait(link, clock) == .milliseconds(100))
        clock.advance(.milliseconds(100))
        link.handleDeadlines()
        var before = PollInterest()
        link.collect(&before)
        link.established()
        var after = PollInterest()
        link.collect(&after)
        #expect(link.isConnected && link.deadline == nil)
        #expect(after.steady == before.steady && after.steadySerials == before.steadySerials)
        #expect(transcript.lines == ["lost no handshake within 1 s, retrying", "connected"])
    }

    /// A connect on its own thread past the timeout is given up on; while its thread has
    /// not returned, the next tries fail at once rather than start a second one; the link
    /// it makes late is closed; then a try starts a thread again, and connects.
    @Test func aConnectGivenUpOnHoldsItsOneThreadUntilItReturns() throws {
        let clock = ManualClock()
        var gate: [Int32] = [-1, -1]
        var disposed: [Int32] = [-1, -1]
        pipe(&gate)
        pipe(&disposed)
        defer { for fd in gate + disposed { close(fd) } }
        let started = Counter()
        let (gateRead, disposedWrite) = (gate[0], disposed[1])
        let link = Reconnecting<Int32>(
            policy: testPolicy, connectTimeout: .seconds(1),
            open: .background({
                started.value.add(1, ordering: .relaxed)
                var byte: UInt8 = 0
                _ = read(gateRead, &byte, 1)
                return .success(dup(gateRead))
            }, dispose: { fd in
                close(fd)
                var byte: UInt8 = 1
                _ = write(disposedWrite, &byte, 1)
            }),
            close: { close($0) }, descriptors: { fd, read in read(fd) }, timedOut: "no answer within 1 s", clock: { clock.now })
        let transcript = Transcript()
        transcript.follow(link)
        link.start()
        #expect(wait(link, clock) == .seconds(1))
        clock.advance(.seconds(1))
        link.handleDeadlines()
        clock.advance(.milliseconds(100))
        link.handleDeadlines()
        // Failed at once: waiting, not connecting for a second.
        #expect(wait(link, clock) == .milliseconds(200))
        #expect(transcript.lines == ["lost no answer within 1 s, retrying", "lost no answer within 1 s, retrying"])

        var byte: UInt8 = 1
        _ = write(gate[1], &byte, 1)
        #expect(waitReadable(disposed[0]))
        clock.advance(.milliseconds(200))
        link.handleDeadlines()
        #expect(wait(link, clock) == .seconds(1))
        _ = write(gate[1], &byte, 1)
        var interest = PollInterest()
        link.collect(&interest)
        let attempt = try #require(interest.steady.first)
        #expect(waitReadable(attempt))
        #expect(link.handleReadable())
        #expect(link.isConnected)
        #expect(started.value.load(ordering: .relaxed) == 2)
        #expect(transcript.lines.last == "connected")
    }

    /// One source with two links (a bus source's two buses): in one round one link loses
    /// its connection and the other connects, and its socket takes the number just freed.
    /// Closing took the number out of the loop's epoll set; the new connection's serial
    /// makes the loop register it afresh. With the number (and the source) alone, the
    /// loop would think it watched and sleep to the deadline.
    @Test func aLinkThatConnectsUnderTheNumberAnotherLinkClosedInTheSameRoundIsHeard() {
        let loop = EventLoop()
        let source = TwoLinks()
        loop.add(source)
        source.first.start()
        let number = source.first.connected!
        source.onRead = { link, fd in
            if link === source.first {
                // In this round: the first link is lost, the second connects.
                source.first.lose("dropped")
                source.second.start()
                #expect(source.second.connected == number)
                var byte: UInt8 = 2
                _ = write(source.pairs.peers.last!, &byte, 1)
            } else {
                source.heard = true
                loop.stop()
            }
        }
        var byte: UInt8 = 1
        _ = write(source.pairs.peers[0], &byte, 1)
        #expect(loop.run(until: PollScheduler.now() + .seconds(5)) == nil)
        #expect(source.heard)
    }
}

/// A source reading two links of socketpairs.
final class TwoLinks: PollSource {
    let pairs = Pairs()
    lazy var first = pairLink(pairs)
    lazy var second = pairLink(pairs)
    var onRead: (Reconnecting<Int32>, Int32) -> Void = { _, _ in }
    var heard = false

    func collect(_ interest: inout PollInterest) {
        first.collect(&interest)
        second.collect(&interest)
    }

    func handleReadable(_ fd: Int32) {
        let link = first.connected == fd ? first : second
        var byte: UInt8 = 0
        _ = read(fd, &byte, 1)
        onRead(link, fd)
    }

    var nextDeadline: Timestamp? { nil }
    func handleDeadlines() {}
}

final class Counter: Sendable {
    let value = Atomic<Int>(0)
}

/// Waits, at most 5 s, for `fd` to be readable.
func waitReadable(_ fd: Int32) -> Bool {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 5_000) == 1
}
