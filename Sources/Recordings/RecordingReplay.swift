import InputDevices
import TouchGestures

/// Feeds a recording into a gesture environment on virtual time, each event as it is
/// read: what `touchgest replay` does, and what its fuzz target checks.
public enum RecordingReplay {
    /// The most timers the replay fires once the recording has ended (a timer that
    /// keeps rescheduling itself cannot hang it).
    public static let maximumTimersAfterTheEnd = 10_000

    /// Reads `reader` to its end, or to its first bad line, which it throws. Each event
    /// goes to `deliver` on the recording's clock (``ManualScheduler/deliver(at:_:)``:
    /// the timers of `scheduler` due before it fire first); then every timer left fires.
    public static func run(
        _ reader: RecordingReader, scheduler: ManualScheduler, deliver: (AdapterEvent) -> Void
    ) throws(RecordingError) {
        while let (time, event) = try reader.next() {
            scheduler.deliver(at: time) { deliver(event) }
        }
        scheduler.runUntilIdle(limit: maximumTimersAfterTheEnd)
    }
}
