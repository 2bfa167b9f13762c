import CProcess
import Glibc
import InputActions
import PollLoop
import TouchGestures

/// What the Wayland channels share: a client connection to the compositor's socket,
/// spoken directly (a handful of requests, so no libwayland, and the socket is the
/// loop's like any other), its handshake, and its loss and reconnection with back-off.
///
/// At connect: `wl_display.get_registry` and a `sync`; once the sync's callback is done,
/// the subclass binds what it needs from the globals (``bind(_:on:)``) and the channel is
/// connected. Requests are written at once; what the socket cannot take waits for
/// POLLOUT, never in a sleep. Each subclass presses actions its own way (``press(_:)``)
/// and takes the events of the objects it made (``event(object:opcode:_:)``).
public class WaylandChannel: InputChannel {
    /// The objects every channel makes first, by the ids it gives them; a subclass
    /// numbers its own from ``firstFreeObject``.
    enum Object: UInt32 {
        case display = 1, registry, callback
    }

    static let firstFreeObject: UInt32 = 4

    typealias Globals = [String: (name: UInt32, version: UInt32)]

    private enum Phase {
        case stopped
        /// Registry asked for; globals gathered until the sync's callback is done.
        case handshaking(fd: Int32, globals: Globals)
        case connected(fd: Int32)
        case waiting(until: Timestamp)
    }

    public let socketPath: String
    public var name: String { "Wayland at \(socketPath)" }
    public var onReport: ((InputChannelReport) -> Void)?
    private var phase = Phase.stopped
    private var inbox: [UInt8] = []
    private var outbox: [UInt8] = []
    private var retry: Duration = .milliseconds(100)
    private var saidLoss = false
    private var lastProblem: String?

    static let maximumRetry: Duration = .seconds(2)

    /// `display` as WAYLAND_DISPLAY gives it: a name under `runtimeDirectory`, or a path.
    init(display: String, runtimeDirectory: String) {
        socketPath = display.hasPrefix("/") ? display : "\(runtimeDirectory)/\(display)"
    }

    deinit { closeSocket() }

    public func start() { connect() }

    /// Presses `action` now, or reports why it cannot; the subclass's own.
    public func press(_ action: InputAction) {
        problem("\(name) cannot press \(action)")
    }

    /// Binds what the channel needs from `globals` on `fd`, and says why it cannot.
    func bind(_ globals: Globals, on fd: Int32) -> String? { "no channel" }

    /// An event for an object the subclass made.
    func event(object: UInt32, opcode: UInt16, _ body: [UInt8]) {}

    var isConnected: Bool {
        if case .connected = phase { return true }
        return false
    }

    // MARK: PollSource

    /// The serial of what is read now, new for each connection (``DescriptorSerial``): the
    /// loop then registers afresh a descriptor that took the number of another.
    private var descriptorSerial: UInt64 = 0

    /// The socket, to read (steadily: it stays open under its number while connected),
    /// and to write while requests wait.
    public func collect(_ interest: inout PollInterest) {
        switch phase {
        case let .handshaking(fd, _), let .connected(fd):
            interest.readSteadily(fd, serial: descriptorSerial)
            if !outbox.isEmpty { interest.write(fd) }
        case .stopped, .waiting: break
        }
    }

    public var nextDeadline: Timestamp? {
        if case let .waiting(until) = phase { return until }
        return nil
    }

    public func handleDeadlines() {
        if case let .waiting(until) = phase, until <= PollScheduler.now() { connect() }
    }

    public func handleWritable(_ fd: Int32) { flush() }

    public func handleReadable(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
        guard count > 0 else { return lose("the compositor at \(socketPath) closed the connection") }
        inbox += buffer[0..<count]
        // Each event: object id, then its size (bytes, header included) and opcode.
        while inbox.count >= 8 {
            let object = Self.word(inbox, 0)
            let sizeAndOpcode = Self.word(inbox, 4)
            let size = Int(sizeAndOpcode >> 16)
            guard size >= 8, size <= 4_096 else { return lose("the compositor at \(socketPath) sent a message of \(size) bytes") }
            guard inbox.count >= size else { break }
            let body = Array(inbox[8..<size])
            inbox.removeFirst(size)
            received(object: object, opcode: UInt16(sizeAndOpcode & 0xFFFF), body)
            switch phase {
            case .handshaking, .connected: continue
            case .stopped, .waiting: return
            }
        }
    }

    // MARK: Writing

    /// Queues `requests` and writes what the socket takes now.
    func send(_ requests: [UInt8]) {
        outbox += requests
        flush()
    }

    private func flush() {
        guard !outbox.isEmpty, case let .connected(fd) = phase else { return }
        let sent = outbox.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        if sent > 0 {
            outbox.removeFirst(sent)
        } else if sent < 0 && errno != EAGAIN && errno != EINTR {
            lose("the compositor at \(socketPath) closed the connection")
        }
    }

    /// Writes `bytes` during the handshake, all at once or not at all.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) } == bytes.count
    }

    // MARK: The wire

    /// A request: object, size and opcode, then 32-bit arguments.
    static func request(_ object: UInt32, _ opcode: UInt16, _ words: [UInt32]) -> [UInt8] {
        message(object, opcode, words.flatMap(bytes))
    }

    static func message(_ object: UInt32, _ opcode: UInt16, _ body: [UInt8]) -> [UInt8] {
        bytes(object) + bytes(UInt32(8 + body.count) << 16 | UInt32(opcode)) + body
    }

    /// `wl_registry.bind` of the global `global` as `interface` at `version`, to `id`.
    static func bindRequest(_ global: UInt32, _ interface: String, version: UInt32, to id: UInt32) -> [UInt8] {
        message(Object.registry.rawValue, 0, bytes(global) + string(interface) + bytes(version) + bytes(id))
    }

    /// A string argument: its length with the NUL, its bytes, padded to 32 bits.
    static func string(_ text: String) -> [UInt8] {
        var body = Array(text.utf8) + [0]
        let length = UInt32(body.count)
        while body.count % 4 != 0 { body.append(0) }
        return bytes(length) + body
    }

    static func bytes(_ word: UInt32) -> [UInt8] { withUnsafeBytes(of: word) { Array($0) } }

    static func word(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    }

    /// A string argument at `offset`; the offset after it.
    static func readString(_ body: [UInt8], at offset: Int) -> (String, Int)? {
        guard body.count >= offset + 4 else { return nil }
        let length = Int(word(body, offset))
        let end = offset + 4 + (length + 3) / 4 * 4
        guard length > 0, body.count >= end else { return nil }
        return (String(decoding: body[offset + 4..<offset + 4 + length - 1], as: UTF8.self), end)
    }

    private func received(object: UInt32, opcode: UInt16, _ body: [UInt8]) {
        switch (object, opcode) {
        case (Object.display.rawValue, 0):
            // wl_display.error: object, code, message.
            let message = body.count >= 8 ? Self.readString(body, at: 8)?.0 ?? "" : ""
            lose("the compositor at \(socketPath) refused a request: \(message)")
        case (Object.registry.rawValue, 0):
            guard case .handshaking(let fd, var globals) = phase, body.count >= 8,
                  let (interface, after) = Self.readString(body, at: 4), body.count >= after + 4 else { return }
            globals[interface] = (Self.word(body, 0), Self.word(body, after))
            phase = .handshaking(fd: fd, globals: globals)
        case (Object.callback.rawValue, 0):
            guard case let .handshaking(fd, globals) = phase else { return }
            if let why = bind(globals, on: fd) { return lose(why) }
            phase = .connected(fd: fd)
            retry = .milliseconds(100)
            saidLoss = false
            onReport?(.connected(name))
        case (Object.display.rawValue, _), (Object.registry.rawValue, _), (Object.callback.rawValue, _):
            // delete_id, global_remove and the like: nothing to do.
            break
        default:
            event(object: object, opcode: opcode, body)
        }
    }

    // MARK: Connecting

    private func connect() {
        closeSocket()
        inbox.removeAll()
        outbox.removeAll()
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return lose("cannot make a socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(socketPath.utf8)
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            return lose("the socket path \(socketPath) is too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.enumerated() { raw[index] = byte }
        }
        // A unix socket connects at once or not at all: no wait in the loop.
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            return lose("cannot reach the compositor at \(socketPath): \(why)")
        }
        phase = .handshaking(fd: fd, globals: [:])
        descriptorSerial = DescriptorSerial.next()
        let hello = Self.request(Object.display.rawValue, 1, [Object.registry.rawValue])
            + Self.request(Object.display.rawValue, 0, [Object.callback.rawValue])
        guard Self.sendAll(fd, hello) else { return lose("the compositor at \(socketPath) took no requests") }
    }

    private func closeSocket() {
        switch phase {
        case let .handshaking(fd, _), let .connected(fd): close(fd)
        case .stopped, .waiting: break
        }
        phase = .stopped
    }

    func lose(_ why: String) {
        closeSocket()
        phase = .waiting(until: PollScheduler.now() + retry)
        retry = min(retry * 2, Self.maximumRetry)
        if !saidLoss {
            saidLoss = true
            onReport?(.lost(why))
        }
    }

    /// Says once per cause why an action could not be pressed.
    func problem(_ why: String) {
        guard why != lastProblem else { return }
        lastProblem = why
        onReport?(.cannotPress(why))
    }
}
