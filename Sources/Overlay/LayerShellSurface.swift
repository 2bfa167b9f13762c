import CProcess
import Glibc
import PollLoop

/// The panel on wlroots compositors (sway, Hyprland, river, labwc, wayfire), niri and
/// KWin: a `zwlr_layer_shell_v1` surface on the overlay layer, anchored to the top right
/// corner, with an empty input region (clicks go to the window beneath, and it never takes
/// the keyboard), its two buffers in one shared-memory pool.
///
/// Spoken on the socket directly, as the input channels do (no libwayland): a connection
/// made when the panel opens, its globals read and bound once the registry's sync is done,
/// and closed with the panel. A compositor cannot hold the loop: every write is
/// non-blocking, and one that takes no request or sends a message too long loses the panel.
public final class LayerShellSurface: OverlaySurface {
    /// The ids the overlay gives its objects, in the order it makes them.
    private enum Object: UInt32 {
        case display = 1, registry, sync, compositor, shm, layerShell, surface, region, layerSurface, pool, firstBuffer, secondBuffer
    }

    public let socketPath: String
    public var name: String { "the layer shell at \(socketPath)" }
    private var fd: Int32 = -1
    private var globals: [String: UInt32] = [:]
    private var listed = 0
    private var inbox: [UInt8] = []
    private var configured = false
    private var bound = false
    /// The two buffers' memory, and which the compositor still reads.
    private var memory: UnsafeMutableRawPointer?
    private var busy = [false, false]
    private var drawing = 0

    private static let stride = OverlayDefaults.width * 4
    private static let bufferBytes = stride * OverlayDefaults.height

    /// `display` as WAYLAND_DISPLAY gives it: a name under `runtimeDirectory`, or a path.
    public init(display: String, runtimeDirectory: String) {
        socketPath = display.hasPrefix("/") ? display : "\(runtimeDirectory)/\(display)"
    }

    public var descriptor: Int32? { fd >= 0 ? fd : nil }

    public func open() -> String? {
        // wl_display.get_registry (opcode 1) then sync (opcode 0): the registry's globals
        // all come before the sync's done.
        let hello = Self.request(.display, 1, [Object.registry.rawValue]) + Self.request(.display, 0, [Object.sync.rawValue])
        switch UnixSocket.connect(socketPath, hello: hello) {
        case let .success(socket):
            fd = socket
            return nil
        case let .failure(why):
            return why.sending ? "the compositor at \(socketPath) took no requests" : "cannot reach the compositor at \(socketPath): \(why)"
        }
    }

    public func handleReadable() -> String? {
        var buffer = [UInt8](repeating: 0, count: OverlayDefaults.readBudget)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return nil }
        guard count > 0 else { return "the compositor at \(socketPath) closed the connection" }
        inbox += buffer[0..<count]
        var start = 0
        defer { inbox.removeFirst(min(start, inbox.count)) }
        while inbox.count - start >= 8 {
            let object = Self.word(inbox, start), sizeAndOpcode = Self.word(inbox, start + 4)
            let size = Int(sizeAndOpcode >> 16)
            guard size >= 8, size <= OverlayDefaults.maximumMessageBytes else {
                start = inbox.count
                return "the compositor at \(socketPath) sent a message of \(size) bytes"
            }
            guard inbox.count - start >= size else { break }
            let body = Array(inbox[start + 8..<start + size])
            start += size
            if let why = received(object, UInt16(sizeAndOpcode & 0xFFFF), body) {
                start = inbox.count
                return why
            }
        }
        return nil
    }

    public func frame() -> (pixels: UnsafeMutableRawPointer, stride: Int)? {
        guard configured, let memory, let free = busy.firstIndex(of: false) else { return nil }
        drawing = free
        return (memory + free * Self.bufferBytes, Self.stride)
    }

    public func present() -> String? {
        let buffer = drawing == 0 ? Object.firstBuffer : Object.secondBuffer
        busy[drawing] = true
        // wl_surface.attach (1: buffer, x, y), damage (2: x, y, width, height), commit (6).
        let requests = Self.request(.surface, 1, [buffer.rawValue, 0, 0])
            + Self.request(.surface, 2, [0, 0, UInt32(OverlayDefaults.width), UInt32(OverlayDefaults.height)])
            + Self.request(.surface, 6, [])
        return send(requests)
    }

    public func close() {
        if fd >= 0 {
            if bound {
                // zwlr_layer_surface_v1.destroy (7), wl_surface.destroy (0), wl_buffer.destroy (0):
                // the compositor takes the panel away at once, not when it notices the socket closed.
                _ = send(Self.request(.layerSurface, 7, []) + Self.request(.surface, 0, [])
                    + Self.request(.firstBuffer, 0, []) + Self.request(.secondBuffer, 0, []))
            }
            Glibc.close(fd)
        }
        if let memory { munmap(memory, 2 * Self.bufferBytes) }
        fd = -1
        memory = nil
        globals = [:]
        listed = 0
        inbox = []
        configured = false
        bound = false
        busy = [false, false]
    }

    // MARK: Events

    /// Handles one event; says why the panel cannot go on.
    private func received(_ object: UInt32, _ opcode: UInt16, _ body: [UInt8]) -> String? {
        switch (Object(rawValue: object), opcode) {
        case (.display?, 0):
            // wl_display.error: object, code, message.
            let message = body.count >= 8 ? Self.readString(body, at: 8)?.0 ?? "" : ""
            return "the compositor at \(socketPath) refused a request of the overlay: \(message)"
        case (.registry?, 0):
            guard !bound else { return nil }
            listed += 1
            guard listed <= OverlayDefaults.maximumGlobals else {
                return "the compositor at \(socketPath) listed more than \(OverlayDefaults.maximumGlobals) globals"
            }
            if body.count >= 8, let (interface, _) = Self.readString(body, at: 4) { globals[interface] = Self.word(body, 0) }
            return nil
        case (.sync?, 0):
            return bind()
        case (.layerSurface?, 0):
            // configure: serial, width, height; ack_configure (6) before the first buffer.
            guard body.count >= 4 else { return nil }
            configured = true
            return send(Self.request(.layerSurface, 6, [Self.word(body, 0)]))
        case (.layerSurface?, 1):
            return "the compositor at \(socketPath) closed the overlay's surface"
        case (.firstBuffer?, 0):
            busy[0] = false
            return nil
        case (.secondBuffer?, 0):
            busy[1] = false
            return nil
        default:
            // delete_id, global_remove, wl_shm.format: nothing to do.
            return nil
        }
    }

    /// Binds the globals, makes the surface, its empty input region, its layer role and
    /// its buffers; commits it without a buffer, so that the compositor configures it.
    private func bind() -> String? {
        guard let compositor = globals["wl_compositor"], let shm = globals["wl_shm"] else {
            return "the compositor at \(socketPath) offers no wl_compositor or wl_shm"
        }
        guard let layerShell = globals["zwlr_layer_shell_v1"] else {
            return "the compositor at \(socketPath) offers no zwlr_layer_shell_v1: it cannot show an overlay"
        }
        globals = [:]
        bound = true
        let width = UInt32(OverlayDefaults.width), height = UInt32(OverlayDefaults.height), margin = UInt32(OverlayDefaults.margin)
        var requests = Self.bind(compositor, "wl_compositor", to: .compositor) + Self.bind(shm, "wl_shm", to: .shm)
            + Self.bind(layerShell, "zwlr_layer_shell_v1", to: .layerShell)
        // wl_compositor.create_surface (0) and create_region (1); a region with nothing
        // added is empty: wl_surface.set_input_region (5) with it lets every click through.
        requests += Self.request(.compositor, 0, [Object.surface.rawValue]) + Self.request(.compositor, 1, [Object.region.rawValue])
        requests += Self.request(.surface, 5, [Object.region.rawValue]) + Self.request(.region, 0, [])
        // get_layer_surface (0): new id, surface, output (0: the compositor's choice), layer
        // (3: overlay, above full-screen windows), namespace.
        requests += Self.message(.layerShell, 0, Self.words([Object.layerSurface.rawValue, Object.surface.rawValue, 0, 3])
            + Self.string("touchgest-feedback"))
        // set_size (0), set_anchor (1: top 1 | right 8), set_margin (3: top, right, bottom,
        // left), set_keyboard_interactivity (4: none), then an empty commit.
        requests += Self.request(.layerSurface, 0, [width, height]) + Self.request(.layerSurface, 1, [1 | 8])
            + Self.request(.layerSurface, 3, [margin, margin, 0, 0]) + Self.request(.layerSurface, 4, [0])
            + Self.request(.surface, 6, [])
        if let why = send(requests) { return why }

        let file = cprocess_memfd("touchgest-overlay")
        guard file >= 0 else { return "cannot make the overlay's shared memory: \(String(cString: strerror(errno)))" }
        defer { Glibc.close(file) }
        let size = 2 * Self.bufferBytes
        guard ftruncate(file, off_t(size)) == 0, let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, file, 0),
              mapped != MAP_FAILED else {
            return "cannot map the overlay's shared memory: \(String(cString: strerror(errno)))"
        }
        memory = mapped
        // wl_shm.create_pool (0): new id, fd (beside the bytes), size.
        let pool = Self.request(.shm, 0, [Object.pool.rawValue, UInt32(size)])
        let sent = pool.withUnsafeBytes { cprocess_send_with_fd(fd, $0.baseAddress, UInt($0.count), file) }
        guard sent == pool.count else { return "the compositor at \(socketPath) took no requests" }
        // create_buffer (0): new id, offset, width, height, stride, format (0: ARGB8888);
        // then the pool is destroyed (1): the buffers keep the memory.
        let stride = UInt32(Self.stride), offset = UInt32(Self.bufferBytes)
        return send(Self.request(.pool, 0, [Object.firstBuffer.rawValue, 0, width, height, stride, 0])
            + Self.request(.pool, 0, [Object.secondBuffer.rawValue, offset, width, height, stride, 0])
            + Self.request(.pool, 1, []))
    }

    /// Writes `bytes` without waiting; a compositor that does not take them all loses the panel.
    private func send(_ bytes: [UInt8]) -> String? {
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        return sent == bytes.count ? nil : "the compositor at \(socketPath) took no requests of the overlay"
    }

    // MARK: The wire

    private static func bind(_ global: UInt32, _ interface: String, to object: Object) -> [UInt8] {
        // wl_registry.bind (0): name, then the new id as interface, version (1), id.
        message(.registry, 0, words([global]) + string(interface) + words([1, object.rawValue]))
    }

    private static func request(_ object: Object, _ opcode: UInt16, _ arguments: [UInt32]) -> [UInt8] {
        message(object, opcode, words(arguments))
    }

    private static func message(_ object: Object, _ opcode: UInt16, _ body: [UInt8]) -> [UInt8] {
        words([object.rawValue, UInt32(8 + body.count) << 16 | UInt32(opcode)]) + body
    }

    private static func words(_ values: [UInt32]) -> [UInt8] {
        values.flatMap { value in withUnsafeBytes(of: value) { Array($0) } }
    }

    /// A string argument: its length with the NUL, its bytes, padded to 32 bits.
    private static func string(_ text: String) -> [UInt8] {
        var body = Array(text.utf8) + [0]
        let length = UInt32(body.count)
        while body.count % 4 != 0 { body.append(0) }
        return words([length]) + body
    }

    private static func word(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    }

    private static func readString(_ body: [UInt8], at offset: Int) -> (String, Int)? {
        guard body.count >= offset + 4 else { return nil }
        let length = Int(word(body, offset))
        let end = offset + 4 + (length + 3) / 4 * 4
        guard length > 0, body.count >= end else { return nil }
        return (String(decoding: body[offset + 4..<offset + 4 + length - 1], as: UTF8.self), end)
    }
}
