/// A handle to a scheduled timer, used to cancel it.
public struct TimerToken: Hashable, Sendable {
    /// Unique within the scheduler that issued it.
    public let rawValue: UInt64

    /// Wraps a scheduler's own number.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }
}

/// Runs code at a moment on the input clock.
///
/// Recognizers never read a clock: they ask for a deadline relative to an event's
/// timestamp. The daemon's scheduler turns the nearest deadline into its poll timeout;
/// tests use ``ManualScheduler`` and advance it by hand, so nothing sleeps.
public protocol Scheduler: AnyObject {
    /// Calls `fire` with the deadline once the clock reaches `deadline`.
    func schedule(at deadline: Timestamp, _ fire: @escaping (Timestamp) -> Void) -> TimerToken

    /// Cancels a timer that has not fired; cancelling a fired or unknown token does nothing.
    func cancel(_ token: TimerToken)

    /// Fires, in deadline order, every timer whose deadline is strictly before `time`.
    ///
    /// The environment calls this before it delivers an event stamped `time`, so a timer
    /// and an event arriving in the same wake-up are seen in the order they happened,
    /// and an event stamped exactly at a deadline still beats the timer.
    func fireTimers(before time: Timestamp)
}
