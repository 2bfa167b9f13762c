import Glibc
import PollLoop
import Testing
import TouchGestures

/// A source on a pipe's read end that does what each test needs when it is readable.
final class PipeSource: PollSource {
    let read: Int32
    let write: Int32
    var onReadable: (PipeSource) -> Void = { _ in }
    var failure: String?

    init() {
        var fds: [Int32] = [0, 0]
        pipe(&fds)
        read = fds[0]
        write = fds[1]
    }

    deinit {
        close(read)
        close(write)
    }

    func poke() {
        var byte: UInt8 = 1
        _ = Glibc.write(write, &byte, 1)
    }

    var pollDescriptors: [Int32] { [read] }
    func handleReadable(_ fd: Int32) { onReadable(self) }
    var nextDeadline: Timestamp? { nil }
    func handleDeadlines() {}
}

/// A source whose descriptor was closed under it.
final class NotOpenSource: PollSource {
    let fd: Int32
    init(fd: Int32) { self.fd = fd }
    var pollDescriptors: [Int32] { [fd] }
    func handleReadable(_ fd: Int32) {}
    var nextDeadline: Timestamp? { nil }
    func handleDeadlines() {}
}

@Suite struct EventLoopTests {
    @Test func aSourceThatBreaksStopsTheLoopWithWhatBroke() {
        let loop = EventLoop()
        let source = PipeSource()
        source.onReadable = { $0.failure = "libinput could not read its devices: Input/output error" }
        loop.add(source)
        source.poke()
        let failure = loop.run()
        #expect(failure?.description == "libinput could not read its devices: Input/output error")
        #expect(loop.failure == failure)
    }

    @Test func aDescriptorThatIsNotOpenStopsTheLoopInsteadOfSpinning() {
        // The highest descriptor number allowed: descriptors are handed out lowest first,
        // so nothing else in this process opens it while the test runs.
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        let unused = Int32(clamping: min(limit.rlim_cur, 65_536) - 1)
        #expect(fcntl(unused, F_GETFD) == -1)
        let loop = EventLoop()
        loop.add(NotOpenSource(fd: unused))
        #expect(loop.run()?.description == "descriptor \(unused) of the NotOpenSource is not open")
    }

    @Test func aLoopStoppedOnPurposeHasNoFailure() {
        let loop = EventLoop()
        let source = PipeSource()
        source.onReadable = { _ in loop.stop() }
        loop.add(source)
        source.poke()
        #expect(loop.run() == nil)
        #expect(loop.failure == nil)
    }
}
