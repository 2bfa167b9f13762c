import CProcess
import Glibc
import TouchGestures

/// Delivers signals to the poll loop through a signalfd.
public final class SignalSource: PollSource {
    private let fd: Int32
    private let handler: (Int32) -> Void

    /// Blocks `signals` in the calling thread (as a signalfd needs) and calls `handler` with
    /// each one the loop reads.
    public init(_ signals: [Int32], handler: @escaping (Int32) -> Void) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        fd = cprocess_signalfd(&set)
        self.handler = handler
    }

    public func collect(_ interest: inout PollInterest) {
        if fd >= 0 { interest.readSteadily(fd) }
    }

    public func handleReadable(_ fd: Int32) {
        while case let signal = cprocess_read_signal(fd), signal > 0 { handler(signal) }
    }

    public var nextDeadline: Timestamp? { nil }
    public func handleDeadlines() {}
}
