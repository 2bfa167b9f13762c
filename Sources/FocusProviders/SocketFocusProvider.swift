import Glibc
import PollLoop
import TextWire
import TouchGestures

/// A focus provider over unix sockets: connects the wire's endpoints, feeds it what they
/// read, and reconnects with a growing wait (``FocusDefaults``) when the desktop goes.
///
/// While connected it only waits on its sockets: no deadline, so no wake-up unless the
/// desktop says something.
public final class SocketFocusProvider: FocusProvider {
    /// One open socket.
    private struct Connection {
        var fd: Int32
        var endpoint: Int
        /// Bytes read since the socket was last found empty: a desktop that never lets
        /// it go empty past ``FocusDefaults/floodBytes`` is flooding.
        var unbroken = 0
    }

    /// The sockets of one connect, and how the log names the desktop they reach.
    private struct Sockets {
        var connections: [Connection]
        var desktop: String
    }

    public let wire: FocusWire
    public var desktop: String { wire.desktop }
    public let reporting = FocusReporting()
    /// The sockets' life: made without blocking, made again under
    /// ``FocusDefaults/reconnect``.
    private let sockets: Reconnecting<Sockets>
    /// One read's bytes, kept from one read to the next.
    private var readBuffer = [UInt8](repeating: 0, count: FocusDefaults.readBudget)
    /// Bytes read since the heap was last trimmed.
    private var readSinceTrim = 0

    /// Bytes without a pause that count as a flood (``FocusDefaults/floodBytes``).
    let floodBytes: Int
    /// Gives the freed heap back to the system (``trimHeap()``; a test counts the calls).
    private let trim: () -> Void

    public init(wire: FocusWire, floodBytes: Int = FocusDefaults.floodBytes, trim: @escaping () -> Void = trimHeap) {
        self.wire = wire
        self.floodBytes = floodBytes
        self.trim = trim
        sockets = Reconnecting(
            policy: FocusDefaults.reconnect, connectTimeout: FocusDefaults.connectTimeout, open: .inline({ Self.open(wire) }),
            close: { sockets in for connection in sockets.connections { close(connection.fd) } },
            descriptors: { sockets, read in for connection in sockets.connections { read(connection.fd) } },
            timedOut: "")
        sockets.onConnected = { [unowned self] in
            reporting.forgetFocus()
            reporting.reached(currentDesktopText)
        }
        sockets.onLost = { [unowned self] why, _, broke in
            if broke {
                readSinceTrim = FocusDefaults.trimAfterBytes
                trimAfterBurst()
            }
            reporting.lostOnce(broke ? why + "; trying again" : why)
        }
    }

    public func start() {
        sockets.start()
    }

    // MARK: PollSource

    /// The connections, steadily: each stays open under its number until it is closed,
    /// and a connect makes them all anew under a new serial.
    public func collect(_ interest: inout PollInterest) {
        sockets.collect(&interest)
    }

    public var nextDeadline: Timestamp? { sockets.deadline }

    public func handleDeadlines() {
        sockets.handleDeadlines()
    }

    /// Reads what the desktop sent, at most ``FocusDefaults/readBudget`` a wake-up, so
    /// that a desktop that writes without pause never holds the loop: the rest waits for
    /// the next round, after the input and the timers. A desktop whose socket is not found
    /// empty for ``FocusDefaults/floodBytes`` is flooding: its connection is dropped.
    public func handleReadable(_ fd: Int32) {
        guard let connections = sockets.connected?.connections,
              let index = connections.firstIndex(where: { $0.fd == fd }) else { return }
        let connection = connections[index]
        var taken = 0
        var drained = false
        while taken < FocusDefaults.readBudget {
            let count = readBuffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, min($0.count, FocusDefaults.readBudget - taken)) }
            if count > 0 {
                taken += count
                do {
                    try apply(wire.receive(Array(readBuffer[0..<count]), from: connection.endpoint), on: fd)
                } catch {
                    lose("\(wire.desktop) sent what touchgest cannot read: \(error)")
                    return
                }
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && errno == EAGAIN {
                drained = true
                break
            }
            let why = count == 0 ? "closed the connection" : "connection failed: \(String(cString: strerror(errno)))"
            if connection.endpoint == 0 {
                lose("\(wire.desktop) \(why)")
                return
            }
            close(connection.fd)
            sockets.link?.connections.removeAll { $0.fd == fd }
            do {
                try apply(wire.finished(connection.endpoint), on: nil)
            } catch {
                lose("\(wire.desktop) sent what touchgest cannot read: \(error)")
                return
            }
            // The answer was parsed just now.
            readSinceTrim += taken
            if !wire.holdsPartialMessage { trimAfterBurst() }
            return
        }
        // What was applied may have changed the phase (a reply sent, a loss).
        guard var current = sockets.connected?.connections,
              let position = current.firstIndex(where: { $0.fd == fd }) else { return }
        current[position].unbroken = drained ? 0 : current[position].unbroken + taken
        readSinceTrim += taken
        if drained && !wire.holdsPartialMessage { trimAfterBurst() }
        if current[position].unbroken > floodBytes {
            lose("\(wire.desktop) sent more than \(shownBytes(floodBytes)) without a pause: it floods its socket")
            return
        }
        sockets.link?.connections = current
    }

    // MARK: Connecting

    private var currentDesktopText: String {
        sockets.link?.desktop ?? wire.desktop
    }

    /// Connects every endpoint of the wire, or none.
    private static func open(_ wire: FocusWire) -> Result<Sockets, ConnectFailure> {
        wire.reset()
        let endpoints: [FocusEndpoint]
        do {
            endpoints = try wire.endpoints()
        } catch {
            return .failure(ConnectFailure("\(error)"))
        }
        var connections: [Connection] = []
        for (index, endpoint) in endpoints.enumerated() {
            switch UnixSocket.connect(endpoint.path, hello: endpoint.hello) {
            case let .success(fd):
                connections.append(Connection(fd: fd, endpoint: index))
            case let .failure(why):
                for connection in connections { close(connection.fd) }
                return .failure(ConnectFailure("cannot reach \(wire.desktop) at \(endpoint.path): \(why)"))
            }
        }
        return .success(Sockets(connections: connections, desktop: "\(wire.desktop) at \(endpoints.first?.path ?? "?")"))
    }

    private func lose(_ why: String) {
        sockets.lose(why)
    }

    private func apply(_ output: FocusWireOutput, on fd: Int32?) throws(FocusWireError) {
        if !output.send.isEmpty, let fd, !UnixSocket.sendAll(fd, output.send) {
            throw FocusWireError("cannot send: \(String(cString: strerror(errno)))")
        }
        if let focus = output.focus { reporting.focused(focus) }
    }

    /// After a burst (a tree of many windows, a flood), gives the heap the parser used
    /// back to the system: glibc keeps freed memory otherwise, and the daemon would stay
    /// at its peak for good. Called only when no message is half-read: a long message
    /// that pauses mid-way is parsed when its last bytes come, and a trim before that
    /// would leave the parse's memory held (a megabyte title once kept 4 MB).
    private func trimAfterBurst() {
        guard readSinceTrim >= FocusDefaults.trimAfterBytes else { return }
        readSinceTrim = 0
        trim()
    }
}
