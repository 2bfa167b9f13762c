import Glibc
@testable import PollLoop
import Testing
import TouchGestures

/// A source on a pipe's read end that does what each test needs when it is readable.
final class PipeSource: PollSource {
    let read: Int32
    let write: Int32
    var onReadable: (PipeSource) -> Void = { _ in }
    var failure: String?

    init() {
        var fds: [Int32] = [0, 0]
        pipe(&fds)
        read = fds[0]
        write = fds[1]
    }

    deinit {
        close(read)
        close(write)
    }

    func poke() {
        var byte: UInt8 = 1
        _ = Glibc.write(write, &byte, 1)
    }

    func drain() {
        var byte: UInt8 = 0
        _ = Glibc.read(read, &byte, 1)
    }

    func collect(_ interest: inout PollInterest) { interest.read(read) }
    func handleReadable(_ fd: Int32) { onReadable(self) }
    var nextDeadline: Timestamp? { nil }
    func handleDeadlines() {}
}

/// A source whose descriptor was closed under it, collected for poll or steadily.
final class NotOpenSource: PollSource {
    let fd: Int32
    let steadily: Bool
    init(fd: Int32, steadily: Bool = false) {
        self.fd = fd
        self.steadily = steadily
    }
    func collect(_ interest: inout PollInterest) {
        if steadily { interest.readSteadily(fd) } else { interest.read(fd) }
    }
    func handleReadable(_ fd: Int32) {}
    var nextDeadline: Timestamp? { nil }
    func handleDeadlines() {}

    /// The highest descriptor number allowed: descriptors are handed out lowest first,
    /// so nothing else in this process opens it while a test runs.
    static func unusedDescriptor() -> Int32 {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        let unused = Int32(clamping: min(limit.rlim_cur, 65_536) - 1)
        #expect(fcntl(unused, F_GETFD) == -1)
        return unused
    }
}

@Suite struct EventLoopTests {
    @Test func aSourceThatBreaksStopsTheLoopWithWhatBroke() {
        let loop = EventLoop()
        let source = PipeSource()
        source.onReadable = { $0.failure = "libinput could not read its devices: Input/output error" }
        loop.add(source)
        source.poke()
        let failure = loop.run()
        #expect(failure?.description == "libinput could not read its devices: Input/output error")
        #expect(loop.failure == failure)
    }

    @Test func aSourceThatBreaksWhenItsDeadlineComesStopsTheLoopWithWhatBroke() {
        let loop = EventLoop()
        let source = DeadlineSource()
        source.deadline = PollScheduler.now()
        source.onDeadline = { source.failure = "the bus went away" }
        loop.add(source)
        // A loop that missed the failure would return nil at this deadline, a second on.
        #expect(loop.run(until: PollScheduler.now() + .seconds(1))?.description == "the bus went away")
        #expect(loop.wakeups == 1)
    }

    @Test func aDescriptorThatIsNotOpenStopsTheLoopInsteadOfSpinning() {
        let unused = NotOpenSource.unusedDescriptor()
        let loop = EventLoop()
        loop.add(NotOpenSource(fd: unused))
        #expect(loop.run()?.description == "descriptor \(unused) of the NotOpenSource is not open")
    }

    @Test func aLoopStoppedOnPurposeHasNoFailure() {
        let loop = EventLoop()
        let source = PipeSource()
        source.onReadable = { _ in loop.stop() }
        loop.add(source)
        source.poke()
        #expect(loop.run() == nil)
        #expect(loop.failure == nil)
    }

    /// Alone, the loop waits in epoll_wait on the set; beside a polled descriptor, poll
    /// waits on both and the set's ready descriptor is handled in the same wake-up.
    @Test(arguments: [false, true])
    func aSteadyDescriptorIsHandledInOneWakeUpAloneOrBesideAPolledOne(besidePolled: Bool) {
        let loop = EventLoop()
        let steady = SteadySource()
        let polled = PipeSource()
        steady.onReadable = { if !besidePolled { loop.stop() } }
        polled.onReadable = { source in
            source.drain()
            loop.stop()
        }
        loop.add(steady)
        steady.pipe.poke()
        if besidePolled {
            loop.add(polled)
            polled.poke()
        }
        #expect(loop.run(until: PollScheduler.now() + .seconds(600)) == nil)
        #expect(steady.readable == 1)
        #expect(loop.wakeups == 1)
    }

    @Test func aSteadyDescriptorNoLongerCollectedLeavesTheEpollSet() {
        let loop = EventLoop()
        let steady = SteadySource()
        let polled = PipeSource()
        var rounds = 0
        polled.onReadable = { source in
            source.drain()
            rounds += 1
            if rounds == 2 { loop.stop() }
        }
        steady.onReadable = {
            // Read once, then not collected: what comes next is not its to read.
            steady.collecting = false
            steady.pipe.poke()
            polled.poke()
        }
        loop.add(steady)
        loop.add(polled)
        steady.pipe.poke()
        polled.poke()
        #expect(loop.run(until: PollScheduler.now() + .seconds(600)) == nil)
        #expect(steady.readable == 1)
        #expect(rounds == 2)
    }

    /// A connection made again between two waits may get the number of the one it
    /// replaces. A closed descriptor leaves the epoll set on its own, so with the number
    /// alone the loop would think the new one watched and never hear from it (here it
    /// would sleep to the deadline, and the test fail there).
    @Test func aSteadyDescriptorReplacedUnderItsNumberIsWatchedWhenItComesWithANewSerial() {
        let loop = EventLoop()
        let source = ReplacingSource()
        let number = source.read
        source.onReadable = {
            if source.readable == 1 {
                source.replace()
                #expect(source.read == number)
                source.poke()
            } else {
                loop.stop()
            }
        }
        loop.add(source)
        source.poke()
        #expect(loop.run(until: PollScheduler.now() + .seconds(5)) == nil)
        #expect(source.readable == 2)
        #expect(loop.wakeups == 2)
    }

    /// libdbus closes a bus socket itself when a write fails, before its link notices. If
    /// the number is taken meanwhile by another source's descriptor, the link stopping
    /// must not take that one out of the set: the set is changed by number.
    @Test(arguments: [false, true])
    func aNumberOneSourceStopsReadingIsNotTakenFromTheSourceThatReadsItNow(newerAddedFirst: Bool) {
        let loop = EventLoop()
        let first = ReplacingSource()
        let number = first.read
        // `first` still reads `number`, closed under it; `second`'s pipe takes the number.
        let second = ReplacingSource()
        second.replace(into: number)
        first.ownsRead = false
        var rounds = 0
        let ticker = PipeSource()
        ticker.onReadable = { source in
            source.drain()
            rounds += 1
            if rounds == 1 {
                // `second` is in the set now; `first` lets go of the number, and `second`
                // gets input.
                first.collecting = false
                second.poke()
            }
        }
        second.onReadable = { loop.stop() }
        // Whichever the loop asks first, the newer descriptor is the one it hears.
        for source in newerAddedFirst ? [second, first] : [first, second] { loop.add(source) }
        loop.add(ticker)
        ticker.poke()
        #expect(loop.run(until: PollScheduler.now() + .seconds(5)) == nil)
        #expect(second.readable == 1)
    }

    @Test func aSteadyDescriptorThatIsNotOpenStopsTheLoopNamingItsSource() {
        let unused = NotOpenSource.unusedDescriptor()
        let loop = EventLoop()
        loop.add(NotOpenSource(fd: unused, steadily: true))
        #expect(loop.run()?.description == "descriptor \(unused) of the NotOpenSource is not open")
    }

    @Test func aDescriptorOneSourceReadsAndWritesIsOnePollEntryAndAnotherSourcesIsItsOwn() {
        var interest = PollInterest()
        interest.begin(source: 0)
        interest.read(7)
        interest.read(8)
        interest.write(7)
        interest.begin(source: 1)
        interest.write(7)
        #expect(interest.entries.map(\.fd) == [7, 8, 7])
        #expect(interest.entries.map(\.events) == [Int16(POLLIN | POLLOUT), Int16(POLLIN), Int16(POLLOUT)])
        #expect(interest.owners == [0, 0, 1])
        #expect(interest.descriptors(for: Int16(POLLOUT)) == [7, 7])
    }

    @Test func aDeadlineSetForNowWhileAnotherSourceReadsIsMetInTheNextRoundWithoutSleeping() {
        let loop = EventLoop()
        let input = PipeSource()
        let timer = DeadlineSource()
        input.onReadable = { source in
            source.drain()
            timer.deadline = PollScheduler.now()
        }
        timer.onDeadline = { loop.stop() }
        loop.add(input)
        loop.add(timer)
        input.poke()
        // Far enough that a loop sleeping until it would fail the test by the wake-up count.
        #expect(loop.run(until: PollScheduler.now() + .seconds(600)) == nil)
        #expect(timer.fired == 1)
        #expect(loop.wakeups == 2, "one wake-up for the input, one that did not sleep for the deadline")
    }

    /// X11's and D-Bus's sources, with events left in their library's queue, ask for the
    /// moment they are asked. The loop compared that with the time it had read before
    /// asking, which a busy machine had left behind by a microsecond or more: the source
    /// was never called, and the loop spun without sleeping (a focus change never came).
    @Test func aSourceWhoseDeadlineIsTheMomentItIsAskedIsCalledNotSpunOn() {
        let loop = EventLoop()
        let source = BacklogSource()
        source.onDeadline = { loop.stop() }
        loop.add(source)
        // With the fault the loop spins until this, and nothing was handled.
        #expect(loop.run(until: PollScheduler.now() + .seconds(2)) == nil)
        #expect(source.handled == 1)
        #expect(loop.wakeups == 1, "the first round handles it")
    }

    @Test func aDeadlineThatWasDueButWhatTheSourceReadMovedIsNotCalled() {
        let loop = EventLoop()
        let source = DeadlineSource()
        source.deadline = PollScheduler.now()
        source.onReadable = {
            source.deadline = PollScheduler.now() + .seconds(600)
            loop.stop()
        }
        loop.add(source)
        source.pipe.poke()
        #expect(loop.run() == nil)
        #expect(source.fired == 0)
    }
}

/// A source with work left over (a backlog) whose deadline is the moment it is asked,
/// after the clock has moved on from any moment read before.
final class BacklogSource: PollSource {
    var backlog = true
    var handled = 0
    var onDeadline: () -> Void = {}
    func collect(_ interest: inout PollInterest) {}
    func handleReadable(_ fd: Int32) {}
    var nextDeadline: Timestamp? {
        guard backlog else { return nil }
        let asked = PollScheduler.now()
        while PollScheduler.now() == asked {}
        return PollScheduler.now()
    }
    func handleDeadlines() {
        backlog = false
        handled += 1
        onDeadline()
    }
}

/// A source on a pipe's read end that it reads steadily while `collecting`.
final class SteadySource: PollSource {
    let pipe = PipeSource()
    var collecting = true
    var readable = 0
    var onReadable: () -> Void = {}
    func collect(_ interest: inout PollInterest) {
        if collecting { interest.readSteadily(pipe.read) }
    }
    func handleReadable(_ fd: Int32) {
        #expect(fd == pipe.read)
        pipe.drain()
        readable += 1
        onReadable()
    }
    var nextDeadline: Timestamp? { nil }
    func handleDeadlines() {}
}

/// A source that reads a pipe steadily and can replace it with a new pipe under the same
/// descriptor number, as a connection made again may be; each pipe has its own serial.
final class ReplacingSource: PollSource {
    private(set) var read: Int32 = -1
    private var write: Int32 = -1
    private var serial = DescriptorSerial.next()
    var collecting = true
    var readable = 0
    var onReadable: () -> Void = {}

    init() {
        var fds: [Int32] = [0, 0]
        pipe(&fds)
        (read, write) = (fds[0], fds[1])
    }

    /// Whether the read end is this source's to close: not once another took its number.
    var ownsRead = true

    deinit {
        if ownsRead { close(read) }
        close(write)
    }

    func poke() {
        var byte: UInt8 = 1
        _ = Glibc.write(write, &byte, 1)
    }

    /// A new pipe whose read end takes the old one's number (or `number`, closing this
    /// source's own read end): dup2 closes what was open under the number first, which
    /// takes it out of the loop's epoll set.
    func replace(into number: Int32? = nil) {
        var fds: [Int32] = [0, 0]
        pipe(&fds)
        let target = number ?? read
        if target != read { close(read) }
        #expect(dup2(fds[0], target) == target)
        close(fds[0])
        close(write)
        (read, write) = (target, fds[1])
        serial = DescriptorSerial.next()
    }

    func collect(_ interest: inout PollInterest) {
        if collecting { interest.readSteadily(read, serial: serial) }
    }
    func handleReadable(_ fd: Int32) {
        #expect(fd == read)
        var byte: UInt8 = 0
        _ = Glibc.read(read, &byte, 1)
        readable += 1
        onReadable()
    }
    var nextDeadline: Timestamp? { nil }
    func handleDeadlines() {}
}

/// A source with a deadline the test sets, and a pipe to make it readable.
final class DeadlineSource: PollSource {
    let pipe = PipeSource()
    var deadline: Timestamp?
    var fired = 0
    var failure: String?
    var onDeadline: () -> Void = {}
    var onReadable: () -> Void = {}
    func collect(_ interest: inout PollInterest) { interest.read(pipe.read) }
    func handleReadable(_ fd: Int32) {
        pipe.drain()
        onReadable()
    }
    var nextDeadline: Timestamp? { deadline }
    func handleDeadlines() {
        deadline = nil
        fired += 1
        onDeadline()
    }
}
