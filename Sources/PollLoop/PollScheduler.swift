import Glibc
import TouchGestures

/// The daemon's scheduler: timers on CLOCK_MONOTONIC (libinput's clock), fired by the
/// event loop, whose poll timeout is the nearest deadline. No timer, no wake-up.
public final class PollScheduler: Scheduler, PollSource {
    // Asked by the loop at every wake-up and by the engine at every event, on one thread;
    // a timer fires after it has left the queue, so no access overlaps another: no
    // dynamic exclusivity check.
    @exclusivity(unchecked) private var queue = TimerQueue()

    public init() {}

    /// CLOCK_MONOTONIC in microseconds, the base of libinput's timestamps.
    public static func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Timestamp(microseconds: UInt64(spec.tv_sec) * 1_000_000 + UInt64(spec.tv_nsec) / 1_000)
    }

    public func schedule(at deadline: Timestamp, _ fire: @escaping (Timestamp) -> Void) -> TimerToken {
        queue.add(at: deadline, fire)
    }

    public func cancel(_ token: TimerToken) {
        queue.remove(token)
    }

    public func fireTimers(before time: Timestamp) {
        while let timer = queue.popFirst(where: { $0 < time }) { timer.fire(timer.deadline) }
    }

    public func collect(_ interest: inout PollInterest) {}
    public func handleReadable(_ fd: Int32) {}
    public var nextDeadline: Timestamp? { queue.nextDeadline }

    public func handleDeadlines() {
        let time = Self.now()
        while let timer = queue.popFirst(where: { $0 <= time }) { timer.fire(timer.deadline) }
    }
}
