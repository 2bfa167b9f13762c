import LibinputInput
import TouchGestures

/// Feeds a recording into a gesture environment on virtual time, each event as it is
/// read: what `touchgest replay` does, and what its fuzz target checks.
public enum RecordingReplay {
    /// The most timers the replay fires once the recording has ended (a timer that
    /// keeps rescheduling itself cannot hang it).
    public static let maximumTimersAfterTheEnd = 10_000

    /// Reads `reader` to its end, or to its first bad line, which it throws. Each event
    /// goes to `observe` and then, if it is input, to `deliver` (by default straight to
    /// `environment`; the rulebook's `handle` takes the focus first); the timers of
    /// `scheduler` fire on the recording's clock in between.
    public static func run(
        _ reader: RecordingReader, scheduler: ManualScheduler, environment: GestureEnvironment,
        deliver: ((InputEvent) -> Void)? = nil, observe: (AdapterEvent) -> Void = { _ in }
    ) throws(RecordingError) {
        while let (time, event) = try reader.next() {
            // Timers due before the event fire first; ones due at its time, after it.
            scheduler.advance(to: Timestamp(microseconds: time.microseconds - 1))
            observe(event)
            if case let .input(input) = event {
                if let deliver { deliver(input) } else { environment.handle(input) }
            }
            scheduler.advance(to: time)
        }
        scheduler.runUntilIdle(limit: maximumTimersAfterTheEnd)
    }
}
