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
        while !stopped {
            var owners: [PollSource] = []
            var fds: [pollfd] = []
            for source in sources {
                for fd in source.pollDescriptors {
                    fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
                    owners.append(source)
                }
                for fd in source.writeDescriptors {
                    fds.append(pollfd(fd: fd, events: Int16(POLLOUT), revents: 0))
                    owners.append(source)
                }
            }
            let next = (sources.compactMap(\.nextDeadline) + [deadline].compactMap { $0 }).min()
            var timeout: Int32 = -1
            if let next {
                let now = PollScheduler.now()
                let micros = next > now ? (next - now).wholeMicroseconds : 0
                timeout = Int32(clamping: (micros + 999) / 1_000)
            }
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            wakeups += 1
            if ready < 0 && errno != EINTR {
                return fail("poll failed on \(fds.count) descriptors: \(String(cString: strerror(errno)))")
            }
            if ready > 0 {
                for (index, entry) in fds.enumerated() where entry.revents != 0 {
                    let owner = owners[index]
                    // POLLNVAL: the descriptor was closed under the loop; handing it to its
                    // source would only make poll return at once, forever.
                    if entry.revents & Int16(POLLNVAL) != 0 {
                        return fail("descriptor \(entry.fd) of the \(Self.name(owner)) is not open")
                    }
                    if entry.events == Int16(POLLOUT) {
                        owner.handleWritable(entry.fd)
                    } else {
                        owner.handleReadable(entry.fd)
                    }
                    if let reason = owner.failure { return fail(reason) }
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
