/// A deadline-ordered set of timers: the state every ``Scheduler`` needs.
///
/// It has no clock of its own; its owner says which deadlines have passed.
public struct TimerQueue {
    private struct Entry {
        var deadline: Timestamp
        var token: TimerToken
        var fire: (Timestamp) -> Void
    }

    // Few timers are ever pending at once (one per recognizer at most), so a sorted
    // array beats a heap here.
    private var entries: [Entry] = []
    private var nextToken: UInt64 = 1

    /// Makes an empty queue.
    public init() {}

    /// The earliest pending deadline, if any.
    public var nextDeadline: Timestamp? { entries.first?.deadline }

    /// How many timers are pending.
    public var count: Int { entries.count }

    /// Adds a timer; timers with equal deadlines fire in the order they were added.
    public mutating func add(at deadline: Timestamp, _ fire: @escaping (Timestamp) -> Void) -> TimerToken {
        let token = TimerToken(rawValue: nextToken)
        nextToken += 1
        let index = entries.firstIndex { $0.deadline > deadline } ?? entries.endIndex
        entries.insert(Entry(deadline: deadline, token: token, fire: fire), at: index)
        return token
    }

    /// Removes a pending timer.
    public mutating func remove(_ token: TimerToken) {
        if let index = entries.firstIndex(where: { $0.token == token }) {
            entries.remove(at: index)
        }
    }

    /// Takes the earliest timer if its deadline satisfies `isDue`.
    ///
    /// Callers fire one timer at a time because firing may add or cancel others.
    public mutating func popFirst(where isDue: (Timestamp) -> Bool) -> (deadline: Timestamp, fire: (Timestamp) -> Void)? {
        guard let first = entries.first, isDue(first.deadline) else { return nil }
        entries.removeFirst()
        return (first.deadline, first.fire)
    }
}
