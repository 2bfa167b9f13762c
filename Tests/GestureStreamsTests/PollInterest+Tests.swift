import Glibc
import PollLoop

/// The descriptors a stream part asks the loop to poll for `events`.
func polled(for events: Int32, _ collect: (inout PollInterest) -> Void) -> [Int32] {
    var interest = PollInterest()
    collect(&interest)
    return interest.descriptors(for: Int16(events))
}
