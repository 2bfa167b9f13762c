import CProcess
import Glibc
import TouchGestures

/// Why the event loop could not go on: `poll` itself failed, a descriptor was closed
/// under it, or a source reported that it broke.
public struct EventLoopFailure: Error, Equatable, CustomStringConvertible {
    /// What failed, for the log: `poll failed on 5 descriptors: Invalid argument`.
    public var description: String
}

/// One thread, one wait: every source's descriptors (to read, and to write while a
/// source has bytes waiting), with the nearest deadline of any source as the timeout.
/// Descriptors that stay open under their number (``PollInterest/readSteadily(_:serial:)``) sit
/// in an epoll set registered once; while nothing else is collected the loop waits on that
/// set alone, otherwise poll(2) waits on the others and the set together. With no input
/// and no deadline it sleeps until input comes.
public final class EventLoop {
    private var sources: [PollSource] = []
    private var stopped = false
    /// The epoll set of the steady descriptors (-1 until there is one); the steady
    /// descriptors as last collected, with their sources' indices and their serials (to
    /// see a change at a glance); and what the set holds, by number.
    private var steadySet: Int32 = -1
    private var watched: [PollInterest.SteadyEntry] = []
    private var registered: [Int32: Registration] = [:]

    /// Whom a number in the set is registered for.
    private struct Registration: Equatable {
        var owner: Int
        var serial: UInt64
    }

    /// Why the last ``run(until:)`` ended other than by ``stop()`` or its deadline; nil
    /// when it did not fail. A daemon exits non-zero on it, so a service manager restarts it.
    public private(set) var failure: EventLoopFailure?

    /// How many times the wait returned: the wake-ups, for measuring an idle daemon.
    public private(set) var wakeups = 0

    public init() {}

    deinit {
        if steadySet >= 0 { close(steadySet) }
    }

    public func add(_ source: PollSource) {
        sources.append(source)
    }

    /// Makes ``run(until:)`` return after the current round.
    public func stop() {
        stopped = true
    }

    /// Runs until ``stop()`` or until `deadline` (CLOCK_MONOTONIC) passes.
    /// Returns ``failure`` when the loop ended because something broke (then it does not
    /// spin on a broken descriptor), nil when it was stopped or the deadline passed.
    @discardableResult
    public func run(until deadline: Timestamp? = nil) -> EventLoopFailure? {
        stopped = false
        failure = nil
        // This wake-up's poll entries and their sources, and each source's deadline as
        // asked before the wait: one question per source per wake-up, answered into
        // buffers kept from one wake-up to the next, so the loop allocates nothing while
        // it runs. Locals, not properties, so no access to them is checked at run time.
        var interest = PollInterest()
        var deadlines: [Timestamp?] = []
        var ready = SteadyEvents()
        while !stopped {
            interest.reset()
            // One reference for the round, not one per source asked; a source added while
            // the round runs is asked from the next one. Each source's deadline is written
            // over the last round's: the list only grows, with the sources.
            let sources = self.sources
            if deadlines.count < sources.count { deadlines += repeatElement(nil, count: sources.count - deadlines.count) }
            var next = deadline
            // The deadlines are written with no uniqueness check per source.
            sources.withUnsafeBufferPointer { sources in
                deadlines.withUnsafeMutableBufferPointer { deadlines in
                    for index in sources.indices {
                        let source = sources[index]
                        interest.begin(source: index)
                        source.collect(&interest)
                        let due = source.nextDeadline
                        deadlines[index] = due
                        if let due, next.map({ due < $0 }) ?? true { next = due }
                    }
                }
            }
            if interest.steadyEntries != watched {
                if let reason = watch(interest) { return fail(reason) }
            }
            var timeout: Int32 = -1
            if let next {
                let now = PollScheduler.now()
                let micros = next > now ? (next - now).wholeMicroseconds : 0
                timeout = Int32(clamping: (micros + 999) / 1_000)
            }
            if interest.entries.isEmpty && !watched.isEmpty {
                // The common case between gestures and during one: only steady descriptors.
                let count = ready.wait(steadySet, milliseconds: timeout)
                wakeups += 1
                if count < 0 && errno != EINTR {
                    return fail("epoll_wait failed on \(watched.count) descriptors: \(String(cString: strerror(errno)))")
                }
                if let reason = dispatch(&ready, count) { return fail(reason) }
            } else {
                if !watched.isEmpty { interest.readSteadySet(steadySet) }
                let count = interest.entries.count
                let polled = interest.wait(milliseconds: timeout)
                wakeups += 1
                if polled < 0 && errno != EINTR {
                    return fail("poll failed on \(count) descriptors: \(String(cString: strerror(errno)))")
                }
                if polled > 0, let reason = dispatch(interest, &ready) { return fail(reason) }
            }
            // A source whose deadline was due is asked again, since what it read may have
            // moved it. A deadline set for now while another source was handled is met
            // on the next round, whose wait then does not sleep. The answer is compared
            // with the clock read after it: a source with work left over asks for the
            // moment it is asked, later than any moment read before.
            let now = PollScheduler.now()
            for index in sources.indices {
                guard let due = deadlines[index], due <= now else { continue }
                let source = sources[index]
                if let still = source.nextDeadline, still <= PollScheduler.now() {
                    source.handleDeadlines()
                    if let reason = source.failure { return fail(reason) }
                }
            }
            if let deadline, now >= deadline { return nil }
        }
        return nil
    }

    /// Hands each ready poll entry to its source; the steady set's entry, to the sources
    /// of its ready descriptors. Returns why the loop must stop, if it must.
    private func dispatch(_ interest: PollInterest, _ ready: inout SteadyEvents) -> String? {
        for index in interest.entries.indices where interest.entries[index].revents != 0 {
            let entry = interest.entries[index]
            if interest.owners[index] == PollInterest.steadySetOwner {
                let count = ready.wait(steadySet, milliseconds: 0)
                if let reason = dispatch(&ready, count) { return reason }
                continue
            }
            let owner = sources[interest.owners[index]]
            // POLLNVAL: the descriptor was closed under the loop; handing it to its
            // source would only make poll return at once, forever.
            if entry.revents & Int16(POLLNVAL) != 0 {
                return "descriptor \(entry.fd) of the \(Self.name(owner)) is not open"
            }
            // An error or hang-up is news for whichever way the source waits.
            let news = entry.revents & Int16(POLLERR | POLLHUP)
            if entry.events & Int16(POLLIN) != 0, entry.revents & Int16(POLLIN) != 0 || news != 0 {
                owner.handleReadable(entry.fd)
                if let reason = owner.failure { return reason }
            }
            // The read may have closed it: write only to a descriptor still wanted.
            if entry.events & Int16(POLLOUT) != 0, entry.revents & Int16(POLLOUT) != 0 || news != 0,
               entry.events == Int16(POLLOUT) || owner.writeDescriptors.contains(entry.fd) {
                owner.handleWritable(entry.fd)
                if let reason = owner.failure { return reason }
            }
        }
        return nil
    }

    /// Hands each of the `count` ready steady descriptors to its source.
    private func dispatch(_ ready: inout SteadyEvents, _ count: Int32) -> String? {
        guard count > 0 else { return nil }
        for index in 0..<Int(count) {
            let (owner, fd) = SteadyEvents.split(ready.keys[index])
            let source = sources[owner]
            source.handleReadable(fd)
            if let reason = source.failure { return reason }
        }
        return nil
    }

    /// Brings the epoll set in line with the steady descriptors collected this round:
    /// numbers no longer collected leave it; a number collected anew, or for another
    /// source or serial, is registered for it. Returns why it could not.
    private func watch(_ interest: PollInterest) -> String? {
        if steadySet < 0 {
            steadySet = cprocess_epoll_create()
            if steadySet < 0 { return "epoll_create failed: \(String(cString: strerror(errno)))" }
        }
        // The set holds one registration per number. Two sources collect one number in a
        // round only when one's descriptor was closed under it and the other's took the
        // number: serials come from one count, so the higher is the open one.
        var wanted: [Int32: Registration] = [:]
        for steady in interest.steadyEntries {
            let entry = Registration(owner: steady.owner, serial: steady.serial)
            if let other = wanted[steady.fd], other.serial >= entry.serial { continue }
            wanted[steady.fd] = entry
        }
        for fd in registered.keys.filter({ wanted[$0] == nil }) {
            // Fails harmlessly (EBADF, ENOENT) for one already closed: it left on its own.
            _ = cprocess_epoll_remove(steadySet, fd)
            registered[fd] = nil
        }
        for (fd, entry) in wanted where registered[fd] != entry {
            registered[fd] = nil
            guard register(fd, entry.owner) else {
                return errno == EBADF ? "descriptor \(fd) of the \(Self.name(sources[entry.owner])) is not open"
                    : "could not watch descriptor \(fd) of the \(Self.name(sources[entry.owner])): \(String(cString: strerror(errno)))"
            }
            registered[fd] = entry
        }
        watched = interest.steadyEntries
        return nil
    }

    /// Adds `fd` to the set for `owner`; whether it is in. The same file still in the set
    /// under that number (its serial changed, or another source now collects it) is
    /// taken out and added again, with its new owner.
    private func register(_ fd: Int32, _ owner: Int) -> Bool {
        let key = SteadyEvents.key(owner, fd)
        if cprocess_epoll_add(steadySet, fd, key) == 0 { return true }
        guard errno == EEXIST else { return false }
        _ = cprocess_epoll_remove(steadySet, fd)
        return cprocess_epoll_add(steadySet, fd, key) == 0
    }

    private func fail(_ reason: String) -> EventLoopFailure {
        let failure = EventLoopFailure(description: reason)
        self.failure = failure
        return failure
    }

    /// `LibinputContext`: the source's type, for naming it in a failure.
    private static func name(_ source: PollSource) -> String {
        "\(type(of: source))"
    }
}

/// What one epoll_wait on the steady set said: each ready descriptor's key (its source's
/// index and the descriptor), in a buffer kept across wake-ups. Whatever the events (input,
/// an error, a hang-up), a ready steady descriptor is news for its source's read.
struct SteadyEvents {
    static let capacity: Int32 = 32
    var keys = [UInt64](repeating: 0, count: Int(capacity))

    static func key(_ owner: Int, _ fd: Int32) -> UInt64 {
        UInt64(owner) << 32 | UInt64(UInt32(bitPattern: fd))
    }

    static func split(_ key: UInt64) -> (owner: Int, fd: Int32) {
        (Int(key >> 32), Int32(bitPattern: UInt32(truncatingIfNeeded: key)))
    }

    /// Waits up to `timeout` ms (-1: for ever; 0: not at all); the count, or -1 and errno.
    mutating func wait(_ set: Int32, milliseconds timeout: Int32) -> Int32 {
        keys.withUnsafeMutableBufferPointer { keys in
            cprocess_epoll_wait(set, keys.baseAddress, Self.capacity, timeout)
        }
    }
}

/// The open-file limit, raised as far as the process may.
public enum OpenFileLimit {
    /// Raises the soft RLIMIT_NOFILE to the hard one, so that the loop (one poll entry a
    /// descriptor: poll refuses more entries than the soft limit) and its subscribers may
    /// use what the system allows; systemd's default soft limit is 1,024. Returns the
    /// limit in force, or nil when it cannot be read.
    @discardableResult
    public static func raise() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }
}

/// Gives the memory the heap has freed back to the system. glibc keeps it otherwise, so a
/// burst (a huge message parsed, thousands of windows) would leave the daemon at its peak
/// for good. Costs about a millisecond: call it after a burst, not per event.
public func trimHeap() {
    cprocess_trim_heap()
}

/// Makes every block of ``LoopDefaults/largeBlock`` or more a mapping of its own, given back
/// to the system as soon as it is freed. glibc otherwise raises that threshold to the size
/// of the largest such block freed (up to 32 MiB), so after one big message from a peer
/// (libdbus reads each whole; another user decides how big) the next ones come from the heap
/// and stay there: ten forged 8 MB signals left the daemon 9 MB bigger for good, and none
/// with this. Call once, at start.
public func mapLargeBlocks() {
    cprocess_map_large_blocks(Int32(LoopDefaults.largeBlock))
}
