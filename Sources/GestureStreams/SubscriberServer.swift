import CProcess
import PollLoop
import Glibc
import TouchGestures

/// The Unix socket `touchgest events` connects to: up to ``maximumSubscribers``
/// subscribers that come and go, each getting every line from when it joined, never
/// blocking the loop.
///
/// A subscriber sends nothing (anything it sends is read and ignored); it leaves by
/// closing its end. One that takes no byte for ``StreamDefaults/stallTimeout`` while
/// lines wait, or lets ``StreamDefaults/maximumQueuedLines`` pile up, is dropped.
///
/// The socket's phases: `accepting -> resting -> accepting` while accept fails for want
/// of a descriptor or memory; `closed` once ``close()`` ran.
final class SubscriberServer {
    final class Subscriber {
        var fd: Int32
        var outbox = Outbox()
        var waitingSince: Timestamp?

        init(fd: Int32) {
            self.fd = fd
        }
    }

    enum Listener {
        case accepting(Int32)
        /// accept failed for want of a resource: the connection it could not take keeps
        /// the socket readable, so it is not polled until `until`.
        case resting(Int32, until: Timestamp)
        case closed
    }

    let path: String
    // Read by the loop at every wake-up (collect, nextDeadline), on its one thread, and no
    // access to them overlaps another: no dynamic exclusivity check.
    @exclusivity(unchecked) private(set) var listener: Listener
    @exclusivity(unchecked) private(set) var subscribers: [Subscriber] = []
    private let report: (StreamHub.Event) -> Void

    /// Why the socket could not be served.
    struct ListenError: Error, CustomStringConvertible {
        var description: String
    }

    /// Listens at `path`, mode 0600; its folder is made (0700) if missing. A socket file
    /// left by a daemon that is gone is replaced; one a running daemon serves is not.
    /// The most subscribers served at once (``StreamDefaults/maximumSubscribers``).
    let maximumSubscribers: Int
    /// Whether a subscriber was refused since one last left: the log says it once.
    private var refusing = false
    /// The line every subscriber gets when it joins: the session's state while it is not
    /// unlocked (``announce(_:keep:now:)``).
    private var greeting: [UInt8]?

    init(path: String, maximumSubscribers: Int = StreamDefaults.maximumSubscribers,
         report: @escaping (StreamHub.Event) -> Void) throws(ListenError) {
        self.maximumSubscribers = maximumSubscribers
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
        let fd = cprocess_unix_listen(path, StreamDefaults.listenBacklog)
        guard fd >= 0 else {
            throw ListenError(description: "cannot listen at \(path): \(String(cString: strerror(errno)))")
        }
        listener = .accepting(fd)
    }

    /// The listening socket's descriptor, resting or not; -1 once closed.
    private var listenerFD: Int32 {
        switch listener {
        case let .accepting(fd), let .resting(fd, _): fd
        case .closed: -1
        }
    }

    /// The listening socket and every subscriber, to read; a subscriber with lines
    /// waiting, to write.
    func collect(_ interest: inout PollInterest) {
        if case let .accepting(fd) = listener { interest.readSteadily(fd) }
        // Asked at every wake-up, most often with no subscriber: nothing to loop over.
        guard !subscribers.isEmpty else { return }
        for subscriber in subscribers {
            interest.read(subscriber.fd)
            if !subscriber.outbox.isEmpty { interest.write(subscriber.fd) }
        }
    }

    var nextDeadline: Timestamp? {
        var next: Timestamp?
        if case let .resting(_, until) = listener { next = until }
        guard !subscribers.isEmpty else { return next }
        for subscriber in subscribers {
            next = earliest(next, subscriber.waitingSince.map { $0 + StreamDefaults.stallTimeout })
        }
        return next
    }

    func owns(_ fd: Int32) -> Bool {
        fd == listenerFD || subscribers.contains { $0.fd == fd }
    }

    func handleReadable(_ fd: Int32, now: Timestamp) {
        if case let .accepting(socket) = listener, fd == socket { return accept(socket, now: now) }
        guard let subscriber = subscribers.first(where: { $0.fd == fd }) else { return }
        var buffer = [UInt8](repeating: 0, count: 512)
        for _ in 0..<StreamDefaults.subscriberReadsPerWake {
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
        if case let .resting(socket, until) = listener, until <= now { listener = .accepting(socket) }
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

    /// Sends `line` to every subscriber; with `keep`, to each one that joins later too,
    /// until the next announcement.
    func announce(_ line: [UInt8], keep: Bool, now: Timestamp) {
        greeting = keep ? line : nil
        send(line, key: "", coalescible: false, now: now)
    }

    /// Stops listening, drops every subscriber and removes the socket file.
    func close() {
        for subscriber in subscribers { Glibc.close(subscriber.fd) }
        subscribers.removeAll()
        switch listener {
        case let .accepting(socket), let .resting(socket, _):
            Glibc.close(socket)
            listener = .closed
            unlink(path)
        case .closed:
            break
        }
    }

    /// Takes the connections waiting, at most ``StreamDefaults/acceptsPerWake`` a
    /// wake-up (a program that connects without pause must not hold the loop); rests
    /// the socket when accept fails for a reason that polling again at once would not cure.
    private func accept(_ socket: Int32, now: Timestamp) {
        for _ in 0..<StreamDefaults.acceptsPerWake {
            let client = cprocess_accept(socket)
            if client < 0 {
                switch errno {
                case EAGAIN: return
                // The call was interrupted, or that one connection gave up: the next may not.
                case EINTR, ECONNABORTED: continue
                default:
                    let reason = String(cString: strerror(errno))
                    listener = .resting(socket, until: now + StreamDefaults.acceptRetryDelay)
                    return report(.acceptFailed(reason: reason, retryIn: StreamDefaults.acceptRetryDelay))
                }
            }
            guard subscribers.count < maximumSubscribers else {
                refuse(client)
                continue
            }
            var size = StreamDefaults.socketSendBytes
            setsockopt(client, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            let subscriber = Subscriber(fd: client)
            subscribers.append(subscriber)
            report(.subscriberJoined(count: subscribers.count))
            if let greeting {
                subscriber.outbox.append(key: "", coalescible: false, bytes: greeting)
                flush(subscriber, now: now)
            }
        }
    }

    /// Tells a subscriber past the cap why it is refused, in a line `touchgest events`
    /// prints as an error, and closes it; said in the log once until one leaves.
    private func refuse(_ client: Int32) {
        let line = "{\"v\":1,\"error\":\"touchgest run serves at most \(maximumSubscribers) subscribers at once; this one is refused\"}\n"
        _ = Array(line.utf8).withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        Glibc.close(client)
        if !refusing {
            refusing = true
            report(.subscriberRefused(limit: maximumSubscribers))
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
        refusing = false
        // The last one gone: what they all held (their queues, up to hundreds of them)
        // goes back to the system, not only to the heap.
        if subscribers.isEmpty { trimHeap() }
        report(.subscriberLeft(count: subscribers.count, reason: reason))
    }
}
