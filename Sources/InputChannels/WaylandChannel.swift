import CProcess
import Glibc
import InputActions
import PollLoop
import TextWire
import TouchGestures

/// What the Wayland channels share: a client connection to the compositor's socket,
/// spoken directly (a handful of requests, so no libwayland, and the socket is the
/// loop's like any other), its handshake, and its loss and reconnection with back-off.
///
/// At connect: `wl_display.get_registry` and a `sync`; once the sync's callback is done,
/// the subclass binds what it needs from the globals (``bind(_:on:)``) and the channel is
/// connected. Each subclass says whether it can press an action (``check(_:)``) and
/// encodes it (``encode(_:)``); presses wait in a ``ChannelOutbox`` and go out as the
/// socket takes them, never in a sleep. It takes the events of the objects it made
/// (``event(object:opcode:_:)``).
///
/// No compositor can hold the loop or grow the daemon (``InputChannelDefaults``): a
/// handshake has a deadline and a most number of globals; at most a read budget is read
/// per wake-up, and one that sends more than the flood bytes within the flood window is
/// dropped; one that takes nothing while requests wait is dropped after the write stall.
/// Each drop is said once per outage, and the waits between tries keep growing across
/// connections that do not last.
public class WaylandChannel: ConnectedChannel<Int32> {
    /// The objects every channel makes first, by the ids it gives them; a subclass
    /// numbers its own from ``firstFreeObject``.
    enum Object: UInt32 {
        case display = 1, registry, callback
    }

    static let firstFreeObject: UInt32 = 4

    typealias Globals = [String: (name: UInt32, version: UInt32)]

    public let socketPath: String
    public override var name: String { "Wayland at \(socketPath)" }
    /// The globals the compositor listed so far in the handshake, and how many it listed.
    private var globals: Globals = [:]
    private var listed = 0
    /// Bytes read and not yet parsed: less than one message.
    private var inbox: [UInt8] = []
    /// One wake-up's read, kept from one to the next.
    private var readBuffer = [UInt8](repeating: 0, count: InputChannelDefaults.readBudget)
    /// Bytes read since `floodWindowStart` (``InputChannelDefaults/floodBytes``).
    private var floodWindowStart = Timestamp(microseconds: 0)
    private var floodWindowBytes = 0

    /// `display` as WAYLAND_DISPLAY gives it: a name under `runtimeDirectory`, or a path.
    init(display: String, runtimeDirectory: String) {
        let socketPath = display.hasPrefix("/") ? display : "\(runtimeDirectory)/\(display)"
        self.socketPath = socketPath
        // Connected without blocking, its handshake read in the loop within
        // ``InputChannelDefaults/connectTimeout``.
        super.init(
            open: .handshake({ Self.open(socketPath) }), close: { close($0) }, socket: { $0 }, peer: "the compositor at \(socketPath)",
            waitsFor: "the compositor", readsFrom: "its socket",
            timedOut: "the compositor at \(socketPath) did not finish its handshake within \(shown(InputChannelDefaults.connectTimeout))")
    }

    /// Why the subclass cannot press `action`; nil when it can.
    func check(_ action: InputAction) -> String? { "\(name) cannot press \(action)" }

    override func check(_ action: InputAction, on link: Int32) -> String? { check(action) }

    /// The requests of `piece`: an action ``check(_:)`` allowed, or a piece of its text.
    func encode(_ piece: InputAction) -> [UInt8] { [] }

    override func encode(_ piece: InputAction, on link: Int32) -> [UInt8] { encode(piece) }

    /// Binds what the channel needs from `globals` on `fd`, and says why it cannot.
    func bind(_ globals: Globals, on fd: Int32) -> String? { "no channel" }

    /// An event for an object the subclass made.
    func event(object: UInt32, opcode: UInt16, _ body: [UInt8]) {}

    var isConnected: Bool { life.isConnected }

    // MARK: PollSource

    /// Reads at most ``InputChannelDefaults/readBudget`` a wake-up; what is left waits for
    /// the next round, after input and timers.
    public override func handleReadable(_ fd: Int32) {
        var taken = 0
        while taken < InputChannelDefaults.readBudget {
            let count = readBuffer.withUnsafeMutableBytes {
                recv(fd, $0.baseAddress, InputChannelDefaults.readBudget - taken, Int32(MSG_DONTWAIT))
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            guard count > 0 else { return lose("the compositor at \(socketPath) closed the connection") }
            taken += count
            inbox += readBuffer[0..<count]
            guard parseInbox() else { return }
        }
        let now = PollScheduler.now()
        if now - floodWindowStart >= InputChannelDefaults.floodWindow {
            floodWindowStart = now
            floodWindowBytes = 0
        }
        floodWindowBytes += taken
        if floodWindowBytes > InputChannelDefaults.floodBytes {
            lose("the compositor at \(socketPath) sent more than \(shownBytes(InputChannelDefaults.floodBytes)) within \(shown(InputChannelDefaults.floodWindow)): it floods its socket")
        }
    }

    /// Handles each whole message in the inbox; false once the connection is gone.
    private func parseInbox() -> Bool {
        var start = 0
        defer { inbox.removeFirst(min(start, inbox.count)) }
        // Each event: object id, then its size (bytes, header included) and opcode.
        while inbox.count - start >= 8 {
            let object = Self.word(inbox, start)
            let sizeAndOpcode = Self.word(inbox, start + 4)
            let size = Int(sizeAndOpcode >> 16)
            guard size >= 8, size <= 4_096 else {
                start = inbox.count
                lose("the compositor at \(socketPath) sent a message of \(size) bytes")
                return false
            }
            guard inbox.count - start >= size else { break }
            let body = Array(inbox[start + 8..<start + size])
            start += size
            received(object: object, opcode: UInt16(sizeAndOpcode & 0xFFFF), body)
            guard life.link != nil else {
                start = inbox.count
                return false
            }
        }
        return true
    }

    // MARK: Writing

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
            guard life.handshaking != nil else { return }
            guard listed < InputChannelDefaults.maximumGlobals else {
                return lose("the compositor at \(socketPath) listed more than \(InputChannelDefaults.maximumGlobals) globals without ending its handshake")
            }
            listed += 1
            if body.count >= 8, let (interface, after) = Self.readString(body, at: 4), body.count >= after + 4 {
                globals[interface] = (Self.word(body, 0), Self.word(body, after))
            }
        case (Object.callback.rawValue, 0):
            guard let fd = life.handshaking else { return }
            if let why = bind(globals, on: fd) { return lose(why) }
            globals = [:]
            life.established()
        case (Object.display.rawValue, _), (Object.registry.rawValue, _), (Object.callback.rawValue, _):
            // delete_id, global_remove and the like: nothing to do.
            break
        default:
            event(object: object, opcode: opcode, body)
        }
    }

    // MARK: Connecting

    /// Connects to the compositor's socket (at once or not at all: no wait in the loop)
    /// and asks for its globals.
    private static func open(_ socketPath: String) -> Result<Int32, ConnectFailure> {
        let hello = request(Object.display.rawValue, 1, [Object.registry.rawValue])
            + request(Object.display.rawValue, 0, [Object.callback.rawValue])
        return UnixSocket.connect(socketPath, hello: hello).mapError {
            ConnectFailure($0.sending ? "the compositor at \(socketPath) took no requests"
                : "cannot reach the compositor at \(socketPath): \($0)")
        }
    }

    /// What belonged to the connection, dropped with it: what it read and what waited for it.
    override func forget() {
        inbox.removeAll()
        globals = [:]
        listed = 0
        floodWindowStart = PollScheduler.now()
        floodWindowBytes = 0
    }
}
