import Glibc
import PollLoop
import TestSupport
import Testing
import TouchGestures
@testable import FocusProviders

/// A unix socket server in the test's own thread, speaking whatever bytes a test writes:
/// the desktop's side of a protocol test. Connections wait in the listen backlog until
/// ``accept()``.
final class LocalServer {
    let path: String
    private(set) var listener: Int32 = -1

    init(path: String) {
        self.path = path
        listen()
    }

    deinit { stop() }

    func listen() {
        listener = listeningSocket(at: path)
    }

    /// Closes the listener and removes the socket: the desktop went away.
    func stop() {
        if listener >= 0 { close(listener) }
        listener = -1
        unlink(path)
    }

    /// The next connection, waiting at most a second for it.
    func accept() -> Peer? {
        var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 1_000) == 1 else { return nil }
        let fd = Glibc.accept(listener, nil, nil)
        return fd >= 0 ? Peer(fd: fd) : nil
    }
}

/// One accepted connection.
final class Peer {
    let fd: Int32
    init(fd: Int32) { self.fd = fd }
    deinit { close(fd) }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// Reads what the client sent, waiting up to a second for the first byte.
    func receive(atLeast count: Int) -> [UInt8] {
        receiveBytes(from: fd, atLeast: count)
    }

    func hangUp() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Bytes sent that the other end has not read yet (SIOCOUTQ, the same number as
    /// TIOCOUTQ: on a unix socket, what waits in the receiver's queue).
    var unread: Int {
        var count: Int32 = 0
        _ = ioctl(fd, UInt(TIOCOUTQ), &count)
        return Int(count)
    }
}

/// A provider in its own event loop, collecting its reports.
final class ProviderRig {
    let loop = EventLoop()
    let provider: FocusProvider
    var reports: [FocusReport] = []

    init(_ provider: FocusProvider) {
        self.provider = provider
        provider.onReport = { [unowned self] in reports.append($0) }
        loop.add(provider)
        provider.start()
    }

    /// Runs the loop until `time` has passed (the provider's own deadline, say).
    func run(until time: Timestamp) {
        while PollScheduler.now() <= time { loop.run(until: time + .milliseconds(1)) }
    }

    /// Runs the loop until `count` reports in all, or two seconds pass.
    @discardableResult
    func run(untilReports count: Int) -> [FocusReport] {
        let deadline = PollScheduler.now() + .seconds(2)
        while reports.count < count && PollScheduler.now() < deadline {
            loop.run(until: min(deadline, PollScheduler.now() + .milliseconds(20)))
        }
        return reports
    }
}

extension ProviderRig {
    /// Sends `bytes` `piece` bytes at a time through `peer`, running the loop after each
    /// until the provider has read it all: its socket is found empty between pieces, as
    /// when a desktop's long message pauses.
    func feed(_ bytes: ArraySlice<UInt8>, through peer: Peer, piece: Int) throws {
        for start in stride(from: bytes.startIndex, to: bytes.endIndex, by: piece) {
            peer.send(Array(bytes[start..<min(start + piece, bytes.endIndex)]))
            let deadline = PollScheduler.now() + .seconds(2)
            while peer.unread > 0 && PollScheduler.now() < deadline {
                loop.run(until: PollScheduler.now() + .milliseconds(5))
            }
            try #require(peer.unread == 0, "the provider stopped reading at byte \(start)")
        }
    }
}

/// A provider's heap trims, each as the number of reports made before it: the order of
/// trims and reports in one list.
final class TrimLog {
    private(set) var reportsAtTrim: [Int] = []
    weak var rig: ProviderRig?
    func trim() { reportsAtTrim.append(rig?.reports.count ?? 0) }
}

/// A listener in the abstract namespace (where XCB looks first for `:N`) that never
/// accepts: a server that hangs.
final class AbstractListener {
    let fd: Int32

    init?(name: String) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = [0] + Array(name.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        // An abstract name is as long as the address says, with no terminator.
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            close(fd)
            return nil
        }
    }

    deinit { close(fd) }

    /// How many connections wait in the backlog, taken (and closed) now.
    func waitingConnections() -> Int {
        waiting(on: fd)
    }
}

extension LocalServer {
    /// How many connections wait in the backlog, taken (and closed) now.
    func waitingConnections() -> Int {
        waiting(on: listener)
    }
}

private func waiting(on listener: Int32) -> Int {
    var count = 0
    while true {
        var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) == 1 else { return count }
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { return count }
        close(fd)
        count += 1
    }
}
