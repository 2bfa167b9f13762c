import InputDevices
import CLibinput
import Glibc
import PollLoop
import TextWire
import TouchGestures

/// A libinput context of touchgest's own: a udev seat with hotplug, or named device
/// nodes. It turns libinput's events into the engine's input and device events.
///
/// Tapping is enabled on this context's touchpads so that taps reach touchgest; the
/// setting belongs to this context only and does not change the desktop's. Touchpads
/// libinput gives no gestures (semi-MT ones) are opened too, for their taps.
///
/// Every touchscreen location is in real millimetres, whatever the device reports
/// (see ``InputDevice/SizeSource``).
///
/// Keyboards are not opened at all (``keyboardNodeRefused(_:)``) unless the options ask for
/// their modifier keys (``Options/readsModifierKeys``); then only whether a modifier key
/// is down is kept (``ModifierKeys``), and every other key is dropped where it is read.
public final class LibinputContext: PollSource {
    /// Where input comes from.
    public enum Backend: Sendable {
        /// Every input device on a udev seat, with hotplug.
        case seat(String)
        /// Named device nodes (`/dev/input/eventN`).
        case paths([String])
    }

    /// How the adapter treats devices.
    public struct Options: Sendable {
        /// Sizes the user states, by device name; the first match wins over anything
        /// the device or the system says.
        public var statedSizes: [StatedDeviceSize]
        /// Whether keyboards are opened too, for their modifier keys only
        /// (`modifier-source = "keyboards"`); otherwise libinput is refused every keyboard.
        /// Chosen when the context is made: the udev seat opens its devices then.
        public var readsModifierKeys: Bool

        /// Options; by default no stated sizes and no keyboards.
        public init(statedSizes: [StatedDeviceSize] = [], readsModifierKeys: Bool = false) {
            self.statedSizes = statedSizes
            self.readsModifierKeys = readsModifierKeys
        }
    }

    /// What the context was opened with.
    /// The options; a change applies to devices added from then on.
    public var options: Options

    // libinput 1.22 reports unaccelerated touchpad gesture deltas normalized to its own
    // touchpad scale: measured 10.5 units per millimetre at 12 and at 20 units/mm
    // (docs/libinput-facts.md), not 1000 dpi.
    static let gestureUnitsPerMillimetre = 10.53

    /// Called with every translated event, in order.
    /// (Read at every event, on the loop's one thread: no dynamic exclusivity check.)
    @exclusivity(unchecked) public var handler: ((AdapterEvent) -> Void)?
    /// Called when a keyboard read for its modifier keys comes or goes, and when the
    /// modifier keys held change; never for any other key.
    public var keyboardHandler: ((KeyboardEvent) -> Void)?

    /// The keyboards read for their modifier keys (nodes), with ``Options/readsModifierKeys``.
    public var keyboards: [String] { keyboardStates.values.map(\.node).sorted() }
    /// The modifier keys held on those keyboards now.
    public var heldModifiers: KeyModifierFlags { modifierKeys.flags }
    /// Keyboard nodes libinput was refused because no rule file asked for keyboards: not
    /// a problem, and not in ``problems``.
    public internal(set) var refusedKeyboards: [String] = []

    /// The touch devices in use.
    public var devices: [InputDevice] { Array(deviceStates.values.map(\.device)).sorted { $0.id.rawValue < $1.id.rawValue } }

    /// The touch device with this id, while it is plugged in.
    public func device(_ id: DeviceID) -> InputDevice? {
        deviceStates.values.first { $0.device.id == id }?.device
    }

    private var context: OpaquePointer?
    /// For telling keyboards from touch devices by their udev properties before libinput
    /// opens them.
    var udev: OpaquePointer?
    var keyboardStates: [OpaquePointer: (number: Int, node: String)] = [:]
    var modifierKeys = ModifierKeys()
    private var deviceStates: [OpaquePointer: DeviceState] = [:]
    var nextDeviceNumber = 1
    private var nextTouchID = 1
    var openFailures: [(path: String, errno: Int32)] = []
    /// Nodes libinput opened through us, so the adapter can ask the kernel what libinput
    /// does not tell (axis ranges, INPUT_PROP_SEMI_MT) on the same descriptor.
    var openNodes: [(path: String, device: dev_t, fd: Int32)] = []
    /// A touchpad button press waiting to be told apart: tap or physical click.
    private var pendingPress: (state: DeviceState, button: UInt32, fingers: Int, time: Timestamp)?

    final class DeviceState {
        let device: InputDevice
        /// Millimetres per unit of libinput's touch coordinates, across and down: 1 when
        /// libinput knows the resolution and nobody restated the size; nil when libinput's
        /// extent is unknown, and its 0...1 is scaled to ``InputDevice/size`` instead.
        let millimetresPerUnit: Point?
        /// Live touches by libinput slot, and what changed since the last frame.
        var touches: [Int32: Touch] = [:]
        var changed: [Touch] = []
        var gesture: (kind: TouchpadGestureKind, fingers: Int)?
        var lastTime = Timestamp(microseconds: 0)
        /// The device's own buttons held down by a physical click (a clickpad pressed, a
        /// pointing stick's buttons), not taps: the ``EventButtonMask`` of its gestures.
        var buttons: EventButtonMask = []

        init(device: InputDevice, libinputExtent: Size?) {
            self.device = device
            if let size = device.size, let extent = libinputExtent {
                millimetresPerUnit = Point(x: size.width / extent.width, y: size.height / extent.height)
            } else {
                millimetresPerUnit = device.size == nil ? Point(x: 1, y: 1) : nil
            }
        }
    }

    /// Opens the backend. Throws when nothing can be read at all; devices that cannot be
    /// opened later (permissions) are reported through ``problems``.
    public init(_ backend: Backend, options: Options = Options()) throws(InputError) {
        self.options = options
        let userData = Unmanaged.passUnretained(self).toOpaque()
        switch backend {
        case let .seat(seat):
            guard let udev = udev_new() else { throw .noUdev }
            self.udev = udev
            guard let created = libinput_udev_create_context(Self.interface, userData, udev) else { throw .noContext }
            context = created
            guard libinput_udev_assign_seat(created, seat) == 0 else { throw .seat(seat) }
        case let .paths(paths):
            // libinput only logs "client bug: Invalid path" for a path it cannot use;
            // check first so the user learns what is wrong with it.
            for path in paths { try Self.checkNode(path) }
            udev = udev_new()
            guard let created = libinput_path_create_context(Self.interface, userData) else { throw .noContext }
            context = created
            for path in paths where libinput_path_add_device(created, path) == nil {
                if refusedKeyboards.contains(path) {
                    throw .cannotOpen(path: path, reason: "it is a keyboard, which touchgest reads only with modifier-source = \"keyboards\"")
                }
                if let failure = openFailures.last(where: { $0.path == path }), failure.errno == EACCES || failure.errno == EPERM {
                    throw .permission(path: path)
                }
                let reason = openFailures.last(where: { $0.path == path }).map { String(cString: strerror($0.errno)) }
                    ?? "libinput does not take it as an input device"
                throw .cannotOpen(path: path, reason: reason)
            }
        }
    }

    deinit {
        // libinput_unref removes every device from its seat and frees those nobody else
        // holds: the references taken in `added` go first, or their devices would outlive
        // the context, unfreed.
        for device in deviceStates.keys {
            libinput_device_set_user_data(device, nil)
            libinput_device_unref(device)
        }
        for device in keyboardStates.keys { libinput_device_unref(device) }
        if let context { libinput_unref(context) }
        if let udev { udev_unref(udev) }
    }

    /// Whether `path` is a device node this process may read.
    static func checkNode(_ path: String) throws(InputError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        guard access(path, R_OK) == 0 else {
            if errno == EACCES || errno == EPERM { throw .permission(path: path) }
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFCHR else {
            throw .cannotOpen(path: path, reason: "not a device node (input devices are /dev/input/eventN)")
        }
    }

    /// Problems opening devices, phrased for the user (e.g. missing permissions).
    public var problems: [InputError] {
        openFailures.map { failure in
            failure.errno == EACCES || failure.errno == EPERM
                ? .permission(path: failure.path)
                : .cannotOpen(path: failure.path, reason: String(cString: strerror(failure.errno)))
        }
    }

    // MARK: PollSource

    public func collect(_ interest: inout PollInterest) {
        if let context { interest.readSteadily(libinput_get_fd(context)) }
    }

    public func handleReadable(_ fd: Int32) { dispatch() }

    /// Why libinput could not read its devices any more (its last dispatch failed).
    /// (Asked by the loop after every read, on its one thread: no dynamic exclusivity check.)
    @exclusivity(unchecked) public private(set) var failure: String?

    public var nextDeadline: Timestamp? { nil }

    public func handleDeadlines() {}

    /// Reads everything libinput has and hands it to ``handler``.
    public func dispatch() {
        guard let context else { return }
        let result = libinput_dispatch(context)
        if result < 0 { failure = "libinput could not read its devices: \(String(cString: strerror(-result)))" }
        while let event = libinput_get_event(context) {
            translate(event)
            libinput_event_destroy(event)
        }
        // A press whose release did not come in the same batch is a physical click: the
        // button is held.
        if let press = pendingPress, let mask = PadButtons.mask(press.button) { press.state.buttons.insert(mask) }
        pendingPress = nil
    }

    // MARK: Opening devices

    nonisolated(unsafe) private static let interface: UnsafeMutablePointer<libinput_interface> = {
        let pointer = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
        pointer.initialize(to: libinput_interface(
            open_restricted: { path, flags, userData in
                guard let path else { return -EINVAL }
                if let userData {
                    let context = Unmanaged<LibinputContext>.fromOpaque(userData).takeUnretainedValue()
                    if context.keyboardNodeRefused(String(cString: path)) { return -EPERM }
                }
                let fd = open(path, flags | O_CLOEXEC)
                if fd < 0 {
                    let error = errno
                    if let userData {
                        let context = Unmanaged<LibinputContext>.fromOpaque(userData).takeUnretainedValue()
                        context.openFailures.append((String(cString: path), error))
                    }
                    return -error
                }
                if let userData {
                    let context = Unmanaged<LibinputContext>.fromOpaque(userData).takeUnretainedValue()
                    var info = stat()
                    let device = fstat(fd, &info) == 0 ? info.st_rdev : 0
                    context.openNodes.append((String(cString: path), device, fd))
                }
                return fd
            },
            close_restricted: { fd, userData in
                if let userData {
                    let context = Unmanaged<LibinputContext>.fromOpaque(userData).takeUnretainedValue()
                    context.openNodes.removeAll { $0.fd == fd }
                }
                close(fd)
            }))
        return pointer
    }()

    // MARK: Translation

    /// The state of a device touchgest follows, kept as the device's libinput user data
    /// (``deviceStates`` owns it), so each event finds it without hashing its device.
    private func state(of device: OpaquePointer) -> DeviceState? {
        libinput_device_get_user_data(device).map { Unmanaged<DeviceState>.fromOpaque($0).takeUnretainedValue() }
    }

    private func translate(_ event: OpaquePointer) {
        let type = libinput_event_get_type(event)
        let device = libinput_event_get_device(event)!
        switch type {
        case LIBINPUT_EVENT_DEVICE_ADDED:
            added(device)
        case LIBINPUT_EVENT_DEVICE_REMOVED:
            removed(device)
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION, LIBINPUT_EVENT_TOUCH_UP,
             LIBINPUT_EVENT_TOUCH_CANCEL, LIBINPUT_EVENT_TOUCH_FRAME:
            if let state = state(of: device) { touch(event, type, state) }
        case LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN, LIBINPUT_EVENT_GESTURE_SWIPE_UPDATE, LIBINPUT_EVENT_GESTURE_SWIPE_END,
             LIBINPUT_EVENT_GESTURE_PINCH_BEGIN, LIBINPUT_EVENT_GESTURE_PINCH_UPDATE, LIBINPUT_EVENT_GESTURE_PINCH_END,
             LIBINPUT_EVENT_GESTURE_HOLD_BEGIN, LIBINPUT_EVENT_GESTURE_HOLD_END:
            if let state = state(of: device) { gesture(event, type, state) }
        case LIBINPUT_EVENT_POINTER_BUTTON:
            if let state = state(of: device), state.device.kind == .touchpad { button(event, state) }
        case LIBINPUT_EVENT_KEYBOARD_KEY:
            if let keyboard = keyboardStates[device] { key(event, keyboard: keyboard.number) }
        default:
            // Pointer motion, scrolling, tablets, switches, keys of devices not read for
            // modifiers: not touchgest's.
            break
        }
    }

    private func added(_ device: OpaquePointer) {
        let kind: InputDevice.Kind
        let tapFingers = Int(libinput_device_config_tap_get_finger_count(device))
        let hasGestures = libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_GESTURE) != 0
        if hasGestures {
            kind = .touchpad
        } else if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TOUCH) != 0 {
            kind = .touchscreen
        } else if tapFingers > 0 && libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_POINTER) != 0 {
            // Only touchpads have tap-to-click. libinput gives semi-MT pads (older PS/2
            // Synaptics, ALPS, Cypress) no gesture capability, but they still tap.
            kind = .touchpad
        } else {
            if options.readsModifierKeys && libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_KEYBOARD) != 0 {
                keyboardAdded(device)
            }
            return
        }
        let fd = descriptor(of: device)
        let name = String(cString: libinput_device_get_name(device))
        let measured = measure(device, name: name, kind: kind, axes: fd.flatMap(Self.axes(fd:)))
        let semiMT = fd.map { touchgest_has_property($0, UInt32(INPUT_PROP_SEMI_MT)) == 1 } ?? false
        if tapFingers > 0 {
            // Our own context only: the desktop's libinput keeps its own setting.
            libinput_device_config_tap_set_enabled(device, LIBINPUT_CONFIG_TAP_ENABLED)
            // Tap-and-drag would hold back a tap's release waiting for a drag.
            libinput_device_config_tap_set_drag_enabled(device, LIBINPUT_CONFIG_DRAG_DISABLED)
        }
        let touchCount = kind == .touchscreen ? Int(libinput_device_touch_get_touch_count(device)) : 0
        let info = InputDevice(
            id: DeviceID(nextDeviceNumber), name: name,
            node: "/dev/input/" + String(cString: libinput_device_get_sysname(device)), kind: kind,
            size: measured.size, sizeSource: measured.source,
            slots: touchCount > 0 ? touchCount : nil, tapFingers: tapFingers,
            hasGestures: hasGestures, isSemiMultitouch: semiMT)
        nextDeviceNumber += 1
        libinput_device_ref(device)
        let state = DeviceState(device: info, libinputExtent: measured.libinputExtent)
        deviceStates[device] = state
        libinput_device_set_user_data(device, Unmanaged.passUnretained(state).toOpaque())
        handler?(.deviceAdded(info))
    }

    /// The descriptor libinput opened `device` with, through ``interface``.
    private func descriptor(of device: OpaquePointer) -> Int32? {
        guard let udevDevice = libinput_device_get_udev_device(device) else { return nil }
        defer { udev_device_unref(udevDevice) }
        let number = udev_device_get_devnum(udevDevice)
        if number != 0, let node = openNodes.last(where: { $0.device == number }) { return node.fd }
        let path = udev_device_get_devnode(udevDevice).map { String(cString: $0) }
        return openNodes.last { $0.path == path }?.fd
    }

    private func removed(_ device: OpaquePointer) {
        if let keyboard = keyboardStates.removeValue(forKey: device) {
            libinput_device_unref(device)
            keyboardHandler?(.removed(node: keyboard.node))
            if modifierKeys.remove(keyboard: keyboard.number) { keyboardHandler?(.modifiers(modifierKeys.flags)) }
            return
        }
        guard let state = deviceStates.removeValue(forKey: device) else { return }
        libinput_device_set_user_data(device, nil)
        // A device pulled mid-gesture: its touches and gesture end as cancelled, so no
        // recognizer waits for an end that will never come.
        let time = max(state.lastTime, PollScheduler.now())
        if !state.touches.isEmpty {
            let cancelled = state.touches.values.sorted { $0.id < $1.id }.map { touch -> Touch in
                var touch = touch
                touch.phase = .cancelled
                touch.timestamp = time
                return touch
            }
            handler?(.input(.touches(TouchEvent(timestamp: time, allTouches: cancelled, changedTouches: cancelled))))
        }
        if let (kind, fingers) = state.gesture {
            let end: TouchpadGesture = switch kind {
            case .swipe: .swipeEnd(fingers: fingers, cancelled: true)
            case .pinch: .pinchEnd(fingers: fingers, cancelled: true)
            case .hold, .tap: .holdEnd(fingers: fingers, cancelled: true)
            }
            handler?(.input(.touchpad(TouchpadEvent(end, timestamp: time, device: state.device.id))))
        }
        libinput_device_unref(device)
        handler?(.deviceRemoved(state.device))
    }

    private func touch(_ event: OpaquePointer, _ type: libinput_event_type, _ state: DeviceState) {
        let touchEvent = libinput_event_get_touch_event(event)!
        let time = Timestamp(microseconds: libinput_event_touch_get_time_usec(touchEvent))
        state.lastTime = time
        let surface = state.device.size ?? Size(width: 1, height: 1)
        switch type {
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION:
            let slot = libinput_event_touch_get_slot(touchEvent)
            let normalized = Point(x: libinput_event_touch_get_x_transformed(touchEvent, 1),
                                   y: libinput_event_touch_get_y_transformed(touchEvent, 1))
            // Without a resolution libinput's "millimetres" are raw units (its fake
            // resolution is 1 unit/mm): scale them to the size found.
            let location = state.millimetresPerUnit.map { scale in
                Point(x: libinput_event_touch_get_x(touchEvent) * scale.x, y: libinput_event_touch_get_y(touchEvent) * scale.y)
            } ?? Point(x: normalized.x * surface.width, y: normalized.y * surface.height)
            var touch: Touch
            if type == LIBINPUT_EVENT_TOUCH_DOWN || state.touches[slot] == nil {
                touch = Touch(id: nextTouchID, phase: .began, location: location, normalizedLocation: normalized,
                              timestamp: time, type: .direct, device: state.device.id, surfaceSize: surface)
                nextTouchID += 1
            } else {
                touch = state.touches[slot]!
                touch.previousLocation = touch.location
                touch.location = location
                touch.normalizedLocation = normalized
                touch.timestamp = time
                touch.phase = .moved
            }
            state.touches[slot] = touch
            record(touch, in: state)
        case LIBINPUT_EVENT_TOUCH_UP:
            let slot = libinput_event_touch_get_slot(touchEvent)
            guard var touch = state.touches.removeValue(forKey: slot) else { return }
            touch.previousLocation = touch.location
            touch.phase = .ended
            touch.timestamp = time
            record(touch, in: state)
        case LIBINPUT_EVENT_TOUCH_CANCEL:
            // One event per cancelled slot; libinput sends them for every live touch
            // before DEVICE_REMOVED when a touchscreen goes away.
            let slot = libinput_event_touch_get_slot(touchEvent)
            guard var touch = state.touches.removeValue(forKey: slot) else { return }
            touch.phase = .cancelled
            touch.timestamp = time
            record(touch, in: state)
        default:
            flushFrame(state, at: time)
        }
    }

    /// Adds a changed touch to the frame under construction (one entry per touch).
    private func record(_ touch: Touch, in state: DeviceState) {
        if let index = state.changed.firstIndex(where: { $0.id == touch.id }) {
            var merged = touch
            // A touch that began and moved in one frame still began in it.
            if state.changed[index].phase == .began && touch.phase == .moved { merged.phase = .began }
            state.changed[index] = merged
        } else {
            state.changed.append(touch)
        }
    }

    private func flushFrame(_ state: DeviceState, at time: Timestamp) {
        guard !state.changed.isEmpty else { return }
        let changed = state.changed
        state.changed.removeAll()
        handler?(.input(.touches(TouchEvent(timestamp: time, down: state.touches.values, changed: changed))))
    }

    private func gesture(_ event: OpaquePointer, _ type: libinput_event_type, _ state: DeviceState) {
        let gestureEvent = libinput_event_get_gesture_event(event)!
        let time = Timestamp(microseconds: libinput_event_gesture_get_time_usec(gestureEvent))
        state.lastTime = time
        let fingers = Int(libinput_event_gesture_get_finger_count(gestureEvent))
        // Each accessor only for the event types libinput defines it for; anything else
        // is logged by libinput as a client bug.
        func cancelled() -> Bool { libinput_event_gesture_get_cancelled(gestureEvent) != 0 }
        func delta() -> Point {
            Point(x: libinput_event_gesture_get_dx_unaccelerated(gestureEvent),
                  y: libinput_event_gesture_get_dy_unaccelerated(gestureEvent)) / Self.gestureUnitsPerMillimetre
        }
        let gesture: TouchpadGesture
        switch type {
        case LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN: gesture = .swipeBegin(fingers: fingers)
        case LIBINPUT_EVENT_GESTURE_SWIPE_UPDATE: gesture = .swipeUpdate(fingers: fingers, delta: delta())
        case LIBINPUT_EVENT_GESTURE_SWIPE_END: gesture = .swipeEnd(fingers: fingers, cancelled: cancelled())
        case LIBINPUT_EVENT_GESTURE_PINCH_BEGIN: gesture = .pinchBegin(fingers: fingers)
        case LIBINPUT_EVENT_GESTURE_PINCH_UPDATE:
            gesture = .pinchUpdate(fingers: fingers, delta: delta(), scale: libinput_event_gesture_get_scale(gestureEvent),
                                   angleDelta: libinput_event_gesture_get_angle_delta(gestureEvent))
        case LIBINPUT_EVENT_GESTURE_PINCH_END: gesture = .pinchEnd(fingers: fingers, cancelled: cancelled())
        case LIBINPUT_EVENT_GESTURE_HOLD_BEGIN: gesture = .holdBegin(fingers: fingers)
        default: gesture = .holdEnd(fingers: fingers, cancelled: cancelled())
        }
        state.gesture = gesture.isEnd ? nil : (gesture.kind, fingers)
        var touchpadEvent = TouchpadEvent(gesture, timestamp: time, device: state.device.id)
        touchpadEvent.buttonMask = state.buttons
        handler?(.input(.touchpad(touchpadEvent)))
    }

    /// Tap-to-click buttons become taps; physical clicks are the desktop's business, and
    /// the touchpad's held buttons (``DeviceState/buttons``).
    ///
    /// libinput marks neither. With tap-and-drag off, a tap's press and release are queued
    /// together once the fingers lift, so both arrive in one dispatch; a physical click's
    /// press arrives while the finger is still down and its release in a later dispatch
    /// (docs/libinput-facts.md). So a press waits for its release in the same batch.
    private func button(_ event: OpaquePointer, _ state: DeviceState) {
        let pointer = libinput_event_get_pointer_event(event)!
        let button = libinput_event_pointer_get_button(pointer)
        let time = Timestamp(microseconds: libinput_event_pointer_get_time_usec(pointer))
        guard libinput_event_pointer_get_button_state(pointer) == LIBINPUT_BUTTON_STATE_RELEASED else {
            let fingers: Int
            switch Int32(button) {
            case BTN_LEFT: fingers = 1
            case BTN_RIGHT: fingers = 2
            case BTN_MIDDLE: fingers = 3
            default: return
            }
            pendingPress = (state, button, fingers, time)
            return
        }
        guard let press = pendingPress, press.state === state, press.button == button else {
            // The release of a physical click.
            if let mask = PadButtons.mask(button) { state.buttons.remove(mask) }
            return
        }
        pendingPress = nil
        state.lastTime = time
        // libinput stamps a tap's press with the time the fingers landed, its release with
        // the lift. The tap keeps the lift as its time: it is delivered only then, and the
        // poll loop's timers run in real time, so an earlier stamp would let a double tap's
        // interval run out before its second tap arrives (docs/libinput-facts.md).
        handler?(.input(.touchpad(TouchpadEvent(.tap(fingers: press.fingers), timestamp: time,
                                                device: state.device.id, fingersDown: press.time))))
    }
}
