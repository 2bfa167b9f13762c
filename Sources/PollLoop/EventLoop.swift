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
        // This wake-up's poll entries and their sources, and each source's deadline as
        // asked before the wait: one question per source per wake-up, answered into
        // buffers kept from one wake-up to the next, so the loop allocates nothing while
        // it runs. Locals, not properties, so no access to them is checked at run time.
        var interest = PollInterest()
        var deadlines: [Timestamp?] = []
        while !stopped {
            interest.reset()
            deadlines.removeAll(keepingCapacity: true)
            var next = deadline
            for (index, source) in sources.enumerated() {
                interest.begin(source: index)
                source.collect(&interest)
                let due = source.nextDeadline
                deadlines.append(due)
                if let due, next.map({ due < $0 }) ?? true { next = due }
            }
            var timeout: Int32 = -1
            if let next {
                let now = PollScheduler.now()
                let micros = next > now ? (next - now).wholeMicroseconds : 0
                timeout = Int32(clamping: (micros + 999) / 1_000)
            }
            let count = interest.entries.count
            let ready = interest.wait(milliseconds: timeout)
            wakeups += 1
            if ready < 0 && errno != EINTR {
                return fail("poll failed on \(count) descriptors: \(String(cString: strerror(errno)))")
            }
            if ready > 0 {
                for index in interest.entries.indices where interest.entries[index].revents != 0 {
                    let entry = interest.entries[index]
                    let owner = sources[interest.owners[index]]
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
            // A source whose deadline was due is asked again, since what it read may have
            // moved it. A deadline set for now while another source was handled is met
            // on the next round, whose wait then does not sleep.
            let now = PollScheduler.now()
            for (index, due) in deadlines.enumerated() {
                guard let due, due <= now else { continue }
                let source = sources[index]
                if let still = source.nextDeadline, still <= now {
                    source.handleDeadlines()
                    if let reason = source.failure { return fail(reason) }
                }
            }
            if let deadline, now >= deadline { return nil }
        }
        return nil
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
