import CXCB
import Glibc
import InputActions
import PollLoop
import TouchGestures

/// Keys, text and clicks on X11 through the XTEST extension, as if from the core
/// keyboard and pointer: `xcb_test_fake_input`, flushed at once, no sleep between events.
///
/// At connect it reads the server's keyboard map once (keysym to keycode, and whether
/// Shift gives it); a keysym the map lacks is reported, not pressed. The connect and
/// that read block in XCB, so they run on a thread of their own (``BackgroundAttempt``);
/// the connection is then only written to, and read (in the loop's epoll set) to notice
/// when it goes.
public final class XTestChannel: InputChannel {
    typealias Place = KeyboardMap.Place

    private struct Connection {
        var xcb: OpaquePointer
        var fd: Int32
        var places: [UInt32: Place]
    }

    private struct Opened: @unchecked Sendable {
        var xcb: OpaquePointer
        var places: [UInt32: Place]
    }

    private enum Phase {
        case stopped
        case connecting(BackgroundAttempt<Result<Opened, InputActionError>>, deadline: Timestamp)
        case connected(Connection)
        case waiting(until: Timestamp)
    }

    public let display: String
    public var name: String { "x11 XTEST at \(display)" }
    public var onReport: ((InputChannelReport) -> Void)?
    private var phase = Phase.stopped
    private var retry: Duration = .milliseconds(100)
    private var lastProblem: String?
    private var saidLoss = false

    /// How long connecting may take before it is tried again later.
    static let connectTimeout: Duration = .seconds(5)
    static let maximumRetry: Duration = .seconds(2)

    public init(display: String) {
        self.display = display
    }

    deinit {
        if case let .connected(connection) = phase { xcb_disconnect(connection.xcb) }
        if case let .connecting(attempt, _) = phase { attempt.abandon() }
    }

    public func start() {
        connect()
    }

    // MARK: PollSource

    /// The serial of what is read now, new for each attempt and each connection
    /// (``DescriptorSerial``): the loop then registers afresh a descriptor that took the
    /// number of another.
    private var descriptorSerial: UInt64 = 0

    public func collect(_ interest: inout PollInterest) {
        switch phase {
        case let .connected(connection): interest.readSteadily(connection.fd, serial: descriptorSerial)
        case let .connecting(attempt, _): interest.readSteadily(attempt.fd, serial: descriptorSerial)
        case .stopped, .waiting: break
        }
    }

    public var nextDeadline: Timestamp? {
        switch phase {
        case let .connecting(_, deadline): deadline
        case let .waiting(until): until
        case .stopped, .connected: nil
        }
    }

    public func handleDeadlines() {
        let now = PollScheduler.now()
        switch phase {
        case let .connecting(attempt, deadline) where deadline <= now:
            attempt.abandon()
            lose("the X server at \(display) did not answer within \(Self.connectTimeout)")
        case let .waiting(until) where until <= now:
            connect()
        default:
            break
        }
    }

    public func handleReadable(_ fd: Int32) {
        switch phase {
        case let .connecting(attempt, _):
            switch attempt.take() {
            case nil: break
            case let .failure(why)?: lose(why.description)
            case let .success(opened)?:
                phase = .connected(Connection(xcb: opened.xcb, fd: xcb_get_file_descriptor(opened.xcb), places: opened.places))
                descriptorSerial = DescriptorSerial.next()
                retry = .milliseconds(100)
                saidLoss = false
                onReport?(.connected(name))
            }
        case let .connected(connection):
            // Nothing is asked of the server; what comes is an error or the end.
            while let event = xcb_poll_for_event(connection.xcb) { free(event) }
            if xcb_connection_has_error(connection.xcb) != 0 { lose("the X server at \(display) closed the connection") }
        case .stopped, .waiting:
            break
        }
    }

    // MARK: Pressing

    public func press(_ action: InputAction) {
        guard case let .connected(connection) = phase else {
            problem("\(name) is not connected")
            return
        }
        var events: [(type: UInt8, detail: UInt8)] = []
        switch action {
        case let .button(button):
            events = [(4, button.x11), (5, button.x11)]
        case .keys, .text, .shortcut:
            // KeyPress 2, KeyRelease 3.
            switch KeyboardMap.strokes(for: action, on: connection.places, named: "the X server's keyboard map") {
            case let .success(strokes): events = strokes.map { ($0.pressed ? 2 : 3, UInt8(truncatingIfNeeded: $0.place.key)) }
            case let .failure(error): return problem(error.description)
            }
        }
        for event in events {
            xcb_test_fake_input(connection.xcb, event.type, event.detail, 0, 0, 0, 0, 0)
        }
        xcb_flush(connection.xcb)
        if xcb_connection_has_error(connection.xcb) != 0 { lose("the X server at \(display) closed the connection") }
    }

    // MARK: Connecting

    private func connect() {
        let display = display
        guard let attempt = BackgroundAttempt.start({ Self.open(display) }, dispose: { result in
            if case let .success(opened) = result { xcb_disconnect(opened.xcb) }
        }) else {
            lose("cannot start a thread to connect to the X server")
            return
        }
        phase = .connecting(attempt, deadline: PollScheduler.now() + Self.connectTimeout)
        descriptorSerial = DescriptorSerial.next()
    }

    private func lose(_ why: String) {
        if case let .connected(connection) = phase { xcb_disconnect(connection.xcb) }
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

    /// Connects, checks for XTEST, and reads the keyboard map: on the attempt's thread.
    private static func open(_ display: String) -> Result<Opened, InputActionError> {
        var screen: Int32 = 0
        guard let xcb = xcb_connect(display, &screen) else { return .failure(InputActionError("cannot reach the X server at \(display)")) }
        func fail(_ why: String) -> Result<Opened, InputActionError> {
            xcb_disconnect(xcb)
            return .failure(InputActionError(why))
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
        return .success(Opened(xcb: xcb, places: places))
    }
}
