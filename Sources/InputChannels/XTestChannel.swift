import CXCB
import Glibc
import InputActions
import PollLoop
import TextWire
import TouchGestures

/// Keys, text and clicks on X11 through the XTEST extension, as if from the core
/// keyboard and pointer: FakeInput requests, written as the server takes them, no sleep
/// between events.
///
/// At connect it reads the server's keyboard map once (keysym to keycode, and whether
/// Shift gives it); a keysym the map lacks is reported, not pressed. The connect and
/// that read block in XCB, so they run on a thread of their own (``BackgroundAttempt``).
/// Then the channel takes the connection's writing side from XCB (`xcb_take_socket`):
/// XCB writes only by blocking until all is written (`xcb_flush`, and any request that
/// fills its 16 KiB buffer), so an X server that stops reading (stopped, or stuck) would
/// hold the loop. The channel writes the FakeInput requests itself, without blocking,
/// through a ``ChannelOutbox``: a long text goes out a piece at a time as the socket
/// takes it, and a server that takes nothing for ``InputChannelDefaults/writeStall`` is
/// dropped. XCB still reads the connection (in the loop's epoll set), to notice its end.
public final class XTestChannel: ConnectedChannel<XTestConnection> {
    typealias Place = KeyboardMap.Place
    typealias Connection = XTestConnection

    public let display: String
    public override var name: String { "x11 XTEST at \(display)" }

    public init(display: String) {
        self.display = display
        // Made on a thread of its own: a server that never answers holds that one thread,
        // not the loop.
        super.init(
            open: .background({ Self.open(display) }, dispose: { xcb_disconnect($0.xcb) }), close: { xcb_disconnect($0.xcb) },
            socket: \.fd, peer: "the X server at \(display)", waitsFor: "the X server", readsFrom: "its connection",
            timedOut: "the X server at \(display) did not answer within \(shown(InputChannelDefaults.connectTimeout))",
            noThread: "cannot start a thread to connect to the X server")
    }

    // MARK: PollSource

    public override func handleReadable(_ fd: Int32) {
        guard !life.handleReadable(), let xcb = life.connected?.xcb else { return }
        // Nothing is asked of the server; what comes is an error or the end.
        while let event = xcb_poll_for_event(xcb) { free(event) }
        if xcb_connection_has_error(xcb) != 0 { lose("the X server at \(display) closed the connection") }
    }

    // MARK: Pressing

    override func check(_ action: InputAction, on connection: Connection) -> String? {
        KeyboardMap.check(action, on: connection.places, named: Self.mapName)?.description
    }

    static let mapName = "the X server's keyboard map"

    /// The FakeInput requests of `piece` (an action ``press(_:)`` checked, or a piece of its
    /// text), in the X protocol's layout, in the client's byte order as XCB set it up.
    override func encode(_ piece: InputAction, on connection: Connection) -> [UInt8] {
        var events: [(type: UInt8, detail: UInt8)] = []
        switch piece {
        case let .button(button):
            // ButtonPress 4, ButtonRelease 5.
            events = [(4, button.x11), (5, button.x11)]
        case .keys, .text, .shortcut, .desktop:
            // KeyPress 2, KeyRelease 3.
            guard case let .success(strokes) = KeyboardMap.strokes(for: piece, on: connection.places, named: Self.mapName) else { return [] }
            events = strokes.map { ($0.pressed ? 2 : 3, UInt8(truncatingIfNeeded: $0.place.key)) }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(events.count * Self.fakeInputSize)
        for event in events {
            // xtest.h's xXTestFakeInputReq: major opcode, X_XTestFakeInput (2), length in
            // 4-byte units (9); type, detail, 2 pad; time (0: now); root (0: the pointer's
            // screen); 8 pad; rootX, rootY; 7 pad; deviceid (0: core).
            var request = [UInt8](repeating: 0, count: Self.fakeInputSize)
            request[0] = connection.opcode
            request[1] = 2
            withUnsafeBytes(of: UInt16(Self.fakeInputSize / 4)) { request[2] = $0[0]; request[3] = $0[1] }
            request[4] = event.type
            request[5] = event.detail
            bytes += request
        }
        return bytes
    }

    /// Bytes of one FakeInput request.
    static let fakeInputSize = 36

    // MARK: Connecting

    /// Connects, checks for XTEST, and reads the keyboard map: on the attempt's thread.
    private static func open(_ display: String) -> Result<Connection, ConnectFailure> {
        var screen: Int32 = 0
        guard let xcb = xcb_connect(display, &screen) else { return .failure(ConnectFailure("cannot reach the X server at \(display)")) }
        func fail(_ why: String) -> Result<Connection, ConnectFailure> {
            xcb_disconnect(xcb)
            return .failure(ConnectFailure(why))
        }
        guard xcb_connection_has_error(xcb) == 0 else { return fail("cannot reach the X server at \(display)") }
        guard let version = xcb_test_get_version_reply(xcb, xcb_test_get_version(xcb, 2, 2), nil) else {
            return fail("the X server at \(display) has no XTEST extension")
        }
        free(version)
        let setup = xcb_get_setup(xcb)!
        let first = setup.pointee.min_keycode
        let count = setup.pointee.max_keycode - first + 1
        guard let mapping = xcb_get_keyboard_mapping_reply(xcb, xcb_get_keyboard_mapping(xcb, first, count), nil) else {
            return fail("the X server at \(display) did not give its keyboard map")
        }
        defer { free(mapping) }
        let perKeycode = Int(mapping.pointee.keysyms_per_keycode)
        let keysyms = xcb_get_keyboard_mapping_keysyms(mapping)!
        var places: [UInt32: Place] = [:]
        // Unshifted levels first, so a keysym on both is pressed without Shift.
        for level in 0..<min(2, perKeycode) {
            for index in 0..<Int(count) {
                let keysym = keysyms[index * perKeycode + level]
                guard keysym != 0, places[keysym] == nil else { continue }
                places[keysym] = Place(key: UInt32(first) + UInt32(index), shifted: level == 1)
            }
        }
        guard let extensionData = xcb_get_extension_data(xcb, cxcb_test_extension()), extensionData.pointee.present != 0 else {
            return fail("the X server at \(display) has no XTEST extension")
        }
        // From here the channel writes the connection itself (see the type's comment);
        // XCB is never asked to write again, so its callback for taking it back is never
        // called, and its idea of the sequence numbers only serves to read errors.
        var sent: UInt64 = 0
        guard xcb_take_socket(xcb, { _ in }, nil, 0, &sent) != 0 else {
            return fail("the X server at \(display) closed the connection")
        }
        return .success(Connection(xcb: xcb, fd: xcb_get_file_descriptor(xcb), places: places,
                                   opcode: extensionData.pointee.major_opcode))
    }
}

/// An open connection to the X server, its descriptor, and what the channel read of it once.
public struct XTestConnection {
    var xcb: OpaquePointer
    var fd: Int32
    var places: [UInt32: KeyboardMap.Place]
    var opcode: UInt8
}
