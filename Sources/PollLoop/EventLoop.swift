import CProcess
import Glibc
import TouchGestures

/// Why the event loop could not go on: `poll` itself failed, a descriptor was closed
/// under it, or a source reported that it broke.
public struct EventLoopFailure: Error, Equatable, CustomStringConvertible {
    /// What failed, for the log: `poll failed on 5 descriptors: Invalid argument`.
    public var description: String
}

/// One thread, one poll: every source's descriptors (to read, and to write while a
/// source has bytes waiting), with the nearest deadline of any
/// source as the timeout. With no input and no deadline it sleeps until input comes.
public final class EventLoop {
    private var sources: [PollSource] = []
    /// This wake-up's poll entries and the index of each one's source, kept between wake-ups.
    private var entries: [pollfd] = []
    private var owners: [Int] = []
    private var stopped = false

    /// Why the last ``run(until:)`` ended other than by ``stop()`` or its deadline; nil
    /// when it did not fail. A daemon exits non-zero on it, so a service manager restarts it.
    public private(set) var failure: EventLoopFailure?

    /// How many times poll returned: the wake-ups, for measuring an idle daemon.
    public private(set) var wakeups = 0

    public init() {}

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
        while !stopped {
            // One entry per descriptor, its events combined: a subscriber's socket that is
            // read and written is one entry, not two (poll refuses more entries than
            // RLIMIT_NOFILE). The buffers are kept from one wake-up to the next.
            entries.removeAll(keepingCapacity: true)
            owners.removeAll(keepingCapacity: true)
            var next = deadline
            for (index, source) in sources.enumerated() {
                for fd in source.pollDescriptors { add(fd, Int16(POLLIN), owner: index) }
                for fd in source.writeDescriptors { add(fd, Int16(POLLOUT), owner: index) }
                if let due = source.nextDeadline, next.map({ due < $0 }) ?? true { next = due }
            }
            var timeout: Int32 = -1
            if let next {
                let now = PollScheduler.now()
                let micros = next > now ? (next - now).wholeMicroseconds : 0
                timeout = Int32(clamping: (micros + 999) / 1_000)
            }
            let ready = poll(&entries, nfds_t(entries.count), timeout)
            wakeups += 1
            if ready < 0 && errno != EINTR {
                return fail("poll failed on \(entries.count) descriptors: \(String(cString: strerror(errno)))")
            }
            if ready > 0 {
                for index in entries.indices where entries[index].revents != 0 {
                    let entry = entries[index]
                    let owner = sources[owners[index]]
                    // POLLNVAL: the descriptor was closed under the loop; handing it to its
                    // source would only make poll return at once, forever.
                    if entry.revents & Int16(POLLNVAL) != 0 {
                        return fail("descriptor \(entry.fd) of the \(Self.name(owner)) is not open")
                    }
                    // An error or hang-up is news for whichever way the source waits.
                    let news = entry.revents & Int16(POLLERR | POLLHUP)
                    if entry.events & Int16(POLLIN) != 0, entry.revents & Int16(POLLIN) != 0 || news != 0 {
                        owner.handleReadable(entry.fd)
                        if let reason = owner.failure { return fail(reason) }
                    }
                    // The read may have closed it: write only to a descriptor still wanted.
                    if entry.events & Int16(POLLOUT) != 0, entry.revents & Int16(POLLOUT) != 0 || news != 0,
                       entry.events == Int16(POLLOUT) || owner.writeDescriptors.contains(entry.fd) {
                        owner.handleWritable(entry.fd)
                        if let reason = owner.failure { return fail(reason) }
                    }
                }
            }
            let now = PollScheduler.now()
            for source in sources {
                if let due = source.nextDeadline, due <= now { source.handleDeadlines() }
                if let reason = source.failure { return fail(reason) }
            }
            if let deadline, now >= deadline { return nil }
        }
        return nil
    }

    /// Adds `events` for `fd` to this wake-up's entries, to its existing entry if it has one.
    private func add(_ fd: Int32, _ events: Int16, owner: Int) {
        if events == Int16(POLLOUT), let index = entries.lastIndex(where: { $0.fd == fd }), owners[index] == owner {
            entries[index].events |= events
            return
        }
        entries.append(pollfd(fd: fd, events: events, revents: 0))
        owners.append(owner)
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
