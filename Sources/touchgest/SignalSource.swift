import CProcess
import Glibc
import PollLoop
import TouchGestures

/// Delivers signals to the poll loop through a signalfd.
final class SignalSource: PollSource {
    private let fd: Int32
    private let handler: (Int32) -> Void

    init(_ signals: [Int32], handler: @escaping (Int32) -> Void) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        fd = cprocess_signalfd(&set)
        self.handler = handler
    }

    var pollDescriptors: [Int32] { fd >= 0 ? [fd] : [] }

    func handleReadable(_ fd: Int32) {
        while case let signal = cprocess_read_signal(fd), signal > 0 { handler(signal) }
    }

    var nextDeadline: Timestamp? { nil }
    func handleDeadlines() {}
}
