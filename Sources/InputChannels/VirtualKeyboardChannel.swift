import CProcess
import Glibc
import InputActions
import PollLoop
import TouchGestures

/// Keys and text on wlroots compositors (sway, Hyprland, river, labwc, wayfire) and niri,
/// through `zwp_virtual_keyboard_v1`, spoken on the compositor's Wayland socket directly:
/// a handful of requests, so no libwayland, and the socket is the loop's like any other.
///
/// At connect: `wl_display.get_registry` and a `sync`; from the globals, `wl_seat` and
/// `zwp_virtual_keyboard_manager_v1` are bound, a virtual keyboard is made and given a
/// keyboard map built with libxkbcommon from the system's defaults (``KeyboardMap``).
/// Then each action is its key events (and the modifier state they make), written at
/// once; what the socket cannot take waits for POLLOUT, never in a sleep. GNOME and KDE
/// offer no such global: the channel says so.
public final class VirtualKeyboardChannel: InputChannel {
    /// The objects this client makes, by the ids it gives them.
    enum Object: UInt32 {
        case display = 1, registry, callback, seat, manager, keyboard
    }

    private enum Phase {
        case stopped
        /// Registry asked for; globals gathered until the sync's callback is done.
        case handshaking(fd: Int32, globals: [String: (name: UInt32, version: UInt32)])
        case connected(fd: Int32, map: KeyboardMap)
        case waiting(until: Timestamp)
    }

    public let socketPath: String
    public var name: String { "Wayland virtual keyboard at \(socketPath)" }
    public var onReport: ((InputChannelReport) -> Void)?
    private var phase = Phase.stopped
    private var inbox: [UInt8] = []
    private var outbox: [UInt8] = []
    private var retry: Duration = .milliseconds(100)
    private var saidLoss = false
    private var lastProblem: String?

    static let maximumRetry: Duration = .seconds(2)
    static let managerInterface = "zwp_virtual_keyboard_manager_v1"

    /// `display` as WAYLAND_DISPLAY gives it: a name under `runtimeDirectory`, or a path.
    public init(display: String, runtimeDirectory: String) {
        socketPath = display.hasPrefix("/") ? display : "\(runtimeDirectory)/\(display)"
    }

    deinit { closeSocket() }

    public func start() { connect() }

    // MARK: PollSource

    public var pollDescriptors: [Int32] {
        switch phase {
        case let .handshaking(fd, _), let .connected(fd, _): [fd]
        case .stopped, .waiting: []
        }
    }

    public var writeDescriptors: [Int32] {
        guard !outbox.isEmpty else { return [] }
        return pollDescriptors
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
            event(object: object, opcode: UInt16(sizeAndOpcode & 0xFFFF), body)
            guard case .handshaking = phase else {
                if case .connected = phase { continue }
                return
            }
        }
    }

    // MARK: Pressing

    public func press(_ action: InputAction) {
        guard case let .connected(_, map) = phase else {
            return problem("\(name) is not connected")
        }
        var depressed: UInt32 = 0
        var requests: [UInt8] = []
        let time = UInt32(truncatingIfNeeded: PollScheduler.now().microseconds / 1_000)
        func key(_ place: KeyboardMap.Place, pressed: Bool) {
            requests += Self.request(.keyboard, 1, [time, place.key, pressed ? 1 : 0])
        }
        func modifiers(_ mask: UInt32) {
            depressed = mask
            requests += Self.request(.keyboard, 2, [mask, 0, 0, 0])
        }
        switch action {
        case let .keys(chords):
            for chord in chords {
                var places: [(keysym: UInt32, place: KeyboardMap.Place)] = []
                for keysym in chord.keysyms {
                    guard let place = map.places[keysym] else {
                        return problem("no key of the keyboard map gives \(Keysym.shown(keysym)) (in \(chord))")
                    }
                    places.append((keysym, place))
                }
                for (keysym, place) in places {
                    key(place, pressed: true)
                    if let mask = map.masks[keysym] { modifiers(depressed | mask) }
                }
                for (keysym, place) in places.reversed() {
                    key(place, pressed: false)
                    if let mask = map.masks[keysym] { modifiers(depressed & ~mask) }
                }
            }
        case let .text(text):
            let shift = map.places[Modifier.shift.keysym]
            let shiftMask = map.masks[Modifier.shift.keysym] ?? 0
            for scalar in text.unicodeScalars {
                let keysym = Keysym.typing(scalar)
                guard let place = map.places[keysym] else {
                    return problem("no key of the keyboard map types '\(scalar)' (U+\(String(scalar.value, radix: 16, uppercase: true)))")
                }
                if place.shifted, let shift {
                    key(shift, pressed: true)
                    modifiers(shiftMask)
                }
                key(place, pressed: true)
                key(place, pressed: false)
                if place.shifted, let shift {
                    key(shift, pressed: false)
                    modifiers(0)
                }
            }
        case .button:
            return problem("a virtual keyboard has no buttons: button needs another channel on this desktop")
        }
        outbox += requests
        flush()
    }

    // MARK: The wire

    /// A request: object, size and opcode, then 32-bit arguments.
    static func request(_ object: Object, _ opcode: UInt16, _ words: [UInt32]) -> [UInt8] {
        message(object.rawValue, opcode, words.flatMap(bytes))
    }

    static func message(_ object: UInt32, _ opcode: UInt16, _ body: [UInt8]) -> [UInt8] {
        bytes(object) + bytes(UInt32(8 + body.count) << 16 | UInt32(opcode)) + body
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

    private func event(object: UInt32, opcode: UInt16, _ body: [UInt8]) {
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
            finishHandshake(fd, globals)
        default:
            // The seat's capabilities, delete_id, and the like: nothing to do.
            break
        }
    }

    private func finishHandshake(_ fd: Int32, _ globals: [String: (name: UInt32, version: UInt32)]) {
        guard let manager = globals[Self.managerInterface] else {
            return lose("the compositor at \(socketPath) offers no \(Self.managerInterface) (sway, Hyprland, river, labwc, wayfire and niri do; GNOME and KDE do not)")
        }
        guard let seat = globals["wl_seat"] else { return lose("the compositor at \(socketPath) has no seat") }
        guard let map = KeyboardMap() else { return lose("libxkbcommon could not build a keyboard map (is xkb-data installed?)") }
        let keymapFD = cprocess_memfd("touchgest-keymap")
        guard keymapFD >= 0, map.text.withUnsafeBytes({ write(keymapFD, $0.baseAddress, $0.count) }) == map.text.count else {
            if keymapFD >= 0 { close(keymapFD) }
            return lose("cannot make the keyboard map's file: \(String(cString: strerror(errno)))")
        }
        defer { close(keymapFD) }
        var requests = Self.message(Object.registry.rawValue, 0, Self.bytes(seat.name) + Self.string("wl_seat") + Self.bytes(1) + Self.bytes(Object.seat.rawValue))
        requests += Self.message(Object.registry.rawValue, 0, Self.bytes(manager.name) + Self.string(Self.managerInterface) + Self.bytes(1)
                                 + Self.bytes(Object.manager.rawValue))
        requests += Self.request(.manager, 0, [Object.seat.rawValue, Object.keyboard.rawValue])
        guard Self.sendAll(fd, requests) else { return lose("the compositor at \(socketPath) took no requests") }
        // keymap(format xkb_v1 = 1, fd, size): the descriptor goes beside the bytes.
        let keymap = Self.request(.keyboard, 0, [1, UInt32(map.text.count)])
        let sent = keymap.withUnsafeBytes { cprocess_send_with_fd(fd, $0.baseAddress, UInt($0.count), keymapFD) }
        guard sent == keymap.count else { return lose("the compositor at \(socketPath) took no keyboard map") }
        phase = .connected(fd: fd, map: map)
        retry = .milliseconds(100)
        saidLoss = false
        onReport?(.connected(name))
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
        let hello = Self.request(.display, 1, [Object.registry.rawValue]) + Self.request(.display, 0, [Object.callback.rawValue])
        guard Self.sendAll(fd, hello) else { return lose("the compositor at \(socketPath) took no requests") }
    }

    private func flush() {
        guard !outbox.isEmpty, case let .connected(fd, _) = phase else { return }
        let sent = outbox.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        if sent > 0 {
            outbox.removeFirst(sent)
        } else if sent < 0 && errno != EAGAIN && errno != EINTR {
            lose("the compositor at \(socketPath) closed the connection")
        }
    }

    private static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) } == bytes.count
    }

    private func closeSocket() {
        switch phase {
        case let .handshaking(fd, _), let .connected(fd, _): close(fd)
        case .stopped, .waiting: break
        }
        phase = .stopped
    }

    private func lose(_ why: String) {
        closeSocket()
        phase = .waiting(until: PollScheduler.now() + retry)
        retry = min(retry * 2, Self.maximumRetry)
        if !saidLoss {
            saidLoss = true
            onReport?(.lost(why))
        }
    }

    private func problem(_ why: String) {
        guard why != lastProblem else { return }
        lastProblem = why
        onReport?(.cannotPress(why))
    }
}
