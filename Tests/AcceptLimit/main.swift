// Serves the events socket in a process of its own with RLIMIT_NOFILE lowered to its
// open descriptors, so that accepting a subscriber fails with EMFILE, and prints one line
// per step: what the hub polls, when it wants to wake, what it reported. A process of its
// own, because the limit is the whole process's and swift test runs every suite in one
// process: the others would fail to open files meanwhile. The clock is made up, so
// nothing waits. Used by SubscriberServerTests; argument: the socket's path.
import CProcess
import GestureStreams
import Glibc
import TouchGestures

final class Clock {
    let start = Timestamp(microseconds: 1_000_000_000)
    lazy var now = start
}

let clock = Clock()
let hub = StreamHub(baseEnvironment: [:], now: { clock.now })
hub.observer = { print("reported \($0)") }
let path = CommandLine.arguments[1]
do {
    try hub.listen(at: path)
} catch {
    print("cannot listen: \(error)")
    exit(1)
}
let socket = hub.pollDescriptors

@MainActor func step(_ what: String) {
    let polled = hub.pollDescriptors.contains(socket[0]) ? "polls the socket" : "leaves the socket"
    let wake = hub.nextDeadline.map { "at +\($0 - clock.start)" } ?? "never"
    print("\(what): \(polled), wakes \(wake), \(hub.subscriberCount) subscribers")
}

step("listening")
let subscriber = cprocess_unix_connect_nonblocking(path)
guard subscriber >= 0 else {
    print("cannot connect: \(String(cString: strerror(errno)))")
    exit(1)
}
// The lowest free descriptor becomes the limit: accept finds none left.
let lowestFree = open("/dev/null", O_RDONLY)
close(lowestFree)
var saved = rlimit()
getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &saved)
var lowered = saved
lowered.rlim_cur = rlim_t(lowestFree)
setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &lowered)
hub.handleReadable(socket[0])
step("accept with no descriptor left")
setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &saved)
clock.now = clock.start + (StreamDefaults.acceptRetryDelay - .microseconds(1))
hub.handleDeadlines()
step("just before the retry")
clock.now = clock.start + StreamDefaults.acceptRetryDelay
hub.handleDeadlines()
step("at the retry")
if hub.pollDescriptors.contains(socket[0]) { hub.handleReadable(socket[0]) }
step("socket readable")
close(subscriber)
hub.shutdown()
