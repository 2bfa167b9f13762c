import CProcess
import Glibc
import TouchGestures

/// The Unix socket `touchgest events` connects to: any number of subscribers that come
/// and go, each getting every line from when it joined, never blocking the loop.
///
/// A subscriber sends nothing (anything it sends is read and ignored); it leaves by
/// closing its end. One that takes no byte for ``StreamDefaults/stallTimeout`` while
/// lines wait, or lets ``StreamDefaults/maximumQueuedLines`` pile up, is dropped.
final class SubscriberServer {
    final class Subscriber {
        var fd: Int32
        var outbox = Outbox()
        var waitingSince: Timestamp?

        init(fd: Int32) {
            self.fd = fd
        }
    }

    let path: String
    private(set) var listener: Int32
    private(set) var subscribers: [Subscriber] = []
    private let report: (StreamHub.Event) -> Void

    /// Why the socket could not be served.
    struct ListenError: Error, CustomStringConvertible {
        var description: String
    }

    /// Listens at `path`, mode 0600; its folder is made (0700) if missing. A socket file
    /// left by a daemon that is gone is replaced; one a running daemon serves is not.
    init(path: String, report: @escaping (StreamHub.Event) -> Void) throws(ListenError) {
        self.path = path
        self.report = report
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !folder.isEmpty && mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw ListenError(description: "cannot make \(folder): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else {
                throw ListenError(description: "\(path) exists and is not a socket; remove it or choose another path")
            }
            // Without waiting: a live daemon that accepts nobody now (stopped, or its
            // backlog full) would hold a blocking connect, and the daemon's start with it.
            let probe = cprocess_unix_connect_nonblocking(path)
            let code = errno
            let live = ListenError(description: "another touchgest already serves events at \(path)")
            if probe >= 0 {
                Glibc.close(probe)
                throw live
            }
            switch code {
            case EAGAIN, EINPROGRESS:
                // Queued or refused for now, not refused for good: something listens.
                throw live
            case ECONNREFUSED, ENOENT:
                // Nobody listens: a daemon that is gone left it (or it went meanwhile).
                unlink(path)
            default:
                throw ListenError(description: "cannot tell whether another touchgest serves events at \(path): \(String(cString: strerror(code)))")
            }
        }
        listener = cprocess_unix_listen(path, StreamDefaults.listenBacklog)
        guard listener >= 0 else {
            throw ListenError(description: "cannot listen at \(path): \(String(cString: strerror(errno)))")
        }
    }

    var readDescriptors: [Int32] {
        (listener >= 0 ? [listener] : []) + subscribers.map(\.fd)
    }

    var writeDescriptors: [Int32] {
        subscribers.filter { !$0.outbox.isEmpty }.map(\.fd)
    }

    var nextDeadline: Timestamp? {
        subscribers.compactMap(\.waitingSince).min().map { $0 + StreamDefaults.stallTimeout }
    }

    func owns(_ fd: Int32) -> Bool {
        fd == listener || subscribers.contains { $0.fd == fd }
    }

    func handleReadable(_ fd: Int32) {
        if fd == listener {
            while true {
                let client = cprocess_accept(listener)
                guard client >= 0 else { return }
                var size = StreamDefaults.socketSendBytes
                setsockopt(client, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
                subscribers.append(Subscriber(fd: client))
                report(.subscriberJoined(count: subscribers.count))
            }
        }
        guard let subscriber = subscribers.first(where: { $0.fd == fd }) else { return }
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 { continue }
            if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
            return drop(subscriber, reason: nil)
        }
    }

    func handleWritable(_ fd: Int32, now: Timestamp) {
        guard let subscriber = subscribers.first(where: { $0.fd == fd }) else { return }
        flush(subscriber, now: now)
    }

    func handleDeadlines(now: Timestamp) {
        for subscriber in subscribers {
            if let since = subscriber.waitingSince, since + StreamDefaults.stallTimeout <= now {
                drop(subscriber, reason: "it read nothing for \(StreamDefaults.stallTimeout)")
            }
        }
    }

    func send(_ bytes: [UInt8], key: String, coalescible: Bool, now: Timestamp) {
        for subscriber in subscribers {
            subscriber.outbox.append(key: key, coalescible: coalescible, bytes: bytes)
            if subscriber.outbox.count > StreamDefaults.maximumQueuedLines {
                drop(subscriber, reason: "\(subscriber.outbox.count) lines waited for it")
            } else {
                flush(subscriber, now: now)
            }
        }
    }

    /// Stops listening, drops every subscriber and removes the socket file.
    func close() {
        for subscriber in subscribers { Glibc.close(subscriber.fd) }
        subscribers.removeAll()
        if listener >= 0 {
            Glibc.close(listener)
            listener = -1
            unlink(path)
        }
    }

    private func flush(_ subscriber: Subscriber, now: Timestamp) {
        let fd = subscriber.fd
        let (progressed, result) = subscriber.outbox.flush { buffer in
            Glibc.send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
        switch result {
        case .drained: subscriber.waitingSince = nil
        case .blocked: if progressed || subscriber.waitingSince == nil { subscriber.waitingSince = now }
        case .broken: drop(subscriber, reason: nil)
        }
    }

    private func drop(_ subscriber: Subscriber, reason: String?) {
        guard subscribers.contains(where: { $0 === subscriber }) else { return }
        Glibc.close(subscriber.fd)
        subscribers.removeAll { $0 === subscriber }
        report(.subscriberLeft(count: subscribers.count, reason: reason))
    }
}
