import Glibc
import TouchGestures

/// One thread, one poll: every source's descriptors, with the nearest deadline of any
/// source as the timeout. With no input and no deadline it sleeps until input comes.
public final class EventLoop {
    private var sources: [PollSource] = []
    private var stopped = false

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
    public func run(until deadline: Timestamp? = nil) {
        stopped = false
        while !stopped {
            var owners: [PollSource] = []
            var fds: [pollfd] = []
            for source in sources {
                for fd in source.pollDescriptors {
                    fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
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
            if ready < 0 && errno != EINTR { return }
            if ready > 0 {
                for (index, entry) in fds.enumerated() where entry.revents != 0 {
                    owners[index].handleReadable(entry.fd)
                }
            }
            let now = PollScheduler.now()
            for source in sources {
                if let due = source.nextDeadline, due <= now { source.handleDeadlines() }
            }
            if let deadline, now >= deadline { return }
        }
    }
}
