/// A scheduler whose clock moves only when told to: for tests, replays and benchmarks.
public final class ManualScheduler: Scheduler {
    private var queue = TimerQueue()

    /// The time the scheduler has been advanced to.
    public private(set) var now: Timestamp

    /// Makes a scheduler whose clock starts at `start`.
    public init(start: Timestamp = Timestamp(microseconds: 0)) {
        now = start
    }

    /// The earliest pending deadline, if any.
    public var nextDeadline: Timestamp? { queue.nextDeadline }

    /// How many timers are pending.
    public var pendingCount: Int { queue.count }

    public func schedule(at deadline: Timestamp, _ fire: @escaping (Timestamp) -> Void) -> TimerToken {
        queue.add(at: deadline, fire)
    }

    public func cancel(_ token: TimerToken) {
        queue.remove(token)
    }

    public func fireTimers(before time: Timestamp) {
        while let timer = queue.popFirst(where: { $0 < time }) {
            now = max(now, timer.deadline)
            timer.fire(timer.deadline)
        }
        now = max(now, time)
    }

    /// Moves the clock to `time`, firing every timer whose deadline is at or before it.
    public func advance(to time: Timestamp) {
        while let timer = queue.popFirst(where: { $0 <= time }) {
            now = max(now, timer.deadline)
            timer.fire(timer.deadline)
        }
        now = max(now, time)
    }

    /// Delivers `event` at its own time through `deliver`, as a live loop would: timers
    /// due before the event fire first, ones due at its time after it. What replays, the
    /// corpus and the benchmarks all use, so virtual time runs one way.
    public func deliver(at time: Timestamp, _ deliver: () -> Void) {
        advance(to: Timestamp(microseconds: time.microseconds &- 1))
        deliver()
        advance(to: time)
    }

    /// Fires every pending timer, including ones that firing schedules, and returns
    /// the time reached. Stops after `limit` timers so a timer loop cannot hang a test.
    @discardableResult
    public func runUntilIdle(limit: Int = 10_000) -> Timestamp {
        var fired = 0
        while fired < limit, let timer = queue.popFirst(where: { _ in true }) {
            now = max(now, timer.deadline)
            timer.fire(timer.deadline)
            fired += 1
        }
        return now
    }
}
