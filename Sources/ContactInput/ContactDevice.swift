import CLibevdev
import Glibc
import InputDevices
import TouchGestures

/// One touchpad node read with libevdev beside libinput: its multitouch slots become
/// frames of indirect ``Touch``es in millimetres.
///
/// - Palms: a contact the pad marks `MT_TOOL_PALM`, or whose pressure or touch size
///   reaches ``ContactDefaults/palmPressure`` or ``ContactDefaults/palmSize``, is no
///   finger for the rest of its life; a finger that turns into a palm is cancelled.
/// - Semi-MT pads: `BTN_TOOL_*` gives the finger count, and the two slots are the corners
///   of a box around the fingers, so the touches are spread along the box's diagonal:
///   their count and the box's size are real, their positions are not.
/// - The pad's buttons (``PadPress``): a physical click cancels every touch, and the
///   fingers that pressed are no touch until they lift: a click is never a tap. Fingers
///   that land while the button is held are touches, and every frame carries the held
///   buttons (``TouchEvent/buttonMask``).
final class ContactDevice {
    let id: DeviceID
    let node: String
    let fd: Int32
    private let evdev: OpaquePointer
    private let axes: ContactGeometry
    private let isSemiMultitouch: Bool
    private let slotCount: Int
    private let makeID: () -> Int
    private var readFlag = LIBEVDEV_READ_FLAG_NORMAL.rawValue
    private var press = PadPress()
    /// Live touches by contact key: the tracking id (multitouch) or the finger's index (semi-MT).
    private var live: [Int: Touch] = [:]
    /// Tracking ids found to be palms; a palm stays one until it lifts.
    private var palms: Set<Int32> = []
    private var lastTime = Timestamp(microseconds: 0)

    /// Opens `node` read-only and never grabs it, so libinput and the desktop still get
    /// every event. `size` is the adapter's size of the pad, used when an axis reports no
    /// resolution.
    init(node: String, id: DeviceID, size: Size?, makeID: @escaping () -> Int) throws(ContactError) {
        let fd = Glibc.open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotOpen(path: node, errno: errno) }
        var handle: OpaquePointer?
        let result = libevdev_new_from_fd(fd, &handle)
        guard result == 0, let handle else {
            Glibc.close(fd)
            throw .notEvdev(path: node, errno: -result)
        }
        let xInfo = libevdev_get_abs_info(handle, UInt32(ABS_MT_POSITION_X)) ?? libevdev_get_abs_info(handle, UInt32(ABS_X))
        let yInfo = libevdev_get_abs_info(handle, UInt32(ABS_MT_POSITION_Y)) ?? libevdev_get_abs_info(handle, UInt32(ABS_Y))
        func axis(_ info: UnsafePointer<input_absinfo>?) -> ContactGeometry.Axis? {
            info.map { ContactGeometry.Axis(minimum: $0.pointee.minimum, maximum: $0.pointee.maximum, resolution: $0.pointee.resolution) }
        }
        let major = libevdev_get_abs_info(handle, UInt32(ABS_MT_TOUCH_MAJOR))
        guard let x = axis(xInfo), let y = axis(yInfo),
              let geometry = ContactGeometry(x: x, y: y, size: size, majorResolution: major?.pointee.resolution,
                                             hasMajor: libevdev_has_event_code(handle, UInt32(EV_ABS), UInt32(ABS_MT_TOUCH_MAJOR)) == 1,
                                             hasPressure: libevdev_has_event_code(handle, UInt32(EV_ABS), UInt32(ABS_MT_PRESSURE)) == 1)
        else {
            libevdev_free(handle)
            Glibc.close(fd)
            throw .noPosition(path: node)
        }
        axes = geometry
        self.fd = fd
        self.node = node
        self.id = id
        self.makeID = makeID
        evdev = handle
        isSemiMultitouch = libevdev_has_property(handle, UInt32(INPUT_PROP_SEMI_MT)) == 1
        slotCount = max(0, Int(libevdev_get_num_slots(handle)))
    }

    deinit {
        libevdev_free(evdev)
        Glibc.close(fd)
    }

    /// The pad's size in millimetres as the reader measures it.
    var size: Size { axes.size }

    // MARK: Reading

    /// Reads everything the node has; hands each frame that changed a touch to `emit`.
    /// Returns false when the node is gone (unplugged) or broken.
    func read(_ emit: (TouchEvent) -> Void) -> Bool {
        var event = input_event()
        while true {
            let result = libevdev_next_event(evdev, readFlag, &event)
            if result == LIBEVDEV_READ_STATUS_SYNC.rawValue {
                // SYN_DROPPED: the kernel's buffer overflowed. libevdev replays the state
                // it lost, ending in a SYN_REPORT; read those first.
                readFlag = LIBEVDEV_READ_FLAG_SYNC.rawValue
                step(event, emit)
            } else if result == LIBEVDEV_READ_STATUS_SUCCESS.rawValue {
                step(event, emit)
            } else if result == -EAGAIN {
                guard readFlag == LIBEVDEV_READ_FLAG_SYNC.rawValue else { return true }
                readFlag = LIBEVDEV_READ_FLAG_NORMAL.rawValue
            } else {
                return false
            }
        }
    }

    private func step(_ event: input_event, _ emit: (TouchEvent) -> Void) {
        guard event.type == UInt16(EV_SYN), event.code == UInt16(SYN_REPORT) else { return }
        let time = Timestamp(microseconds: UInt64(event.time.tv_sec) * 1_000_000 + UInt64(event.time.tv_usec))
        lastTime = max(lastTime, time)
        if let frame = frame(at: lastTime) { emit(frame) }
    }

    /// Cancels every live touch (the device went away); nil when none was down.
    func cancelAll(at time: Timestamp) -> TouchEvent? {
        let when = max(time, lastTime)
        let cancelled = live.values.sorted { $0.id < $1.id }.map { touch -> Touch in
            var touch = touch
            touch.phase = .cancelled
            touch.timestamp = when
            return touch
        }
        live.removeAll()
        guard !cancelled.isEmpty else { return nil }
        var event = TouchEvent(timestamp: when, allTouches: cancelled, changedTouches: cancelled)
        event.buttonMask = press.mask
        return event
    }

    // MARK: Frames

    /// The frame since the last SYN_REPORT, or nil when no touch changed.
    private func frame(at time: Timestamp) -> TouchEvent? {
        let contacts = fingers()
        switch press.step(buttons: buttons(), contacts: contacts.map(\.key)) {
        case .pressed:
            // The pad was pressed: whatever the fingers were doing was a click.
            return cancelAll(at: time)
        case let .follow(keys):
            return update(to: contacts.filter { keys.contains($0.key) }, at: time)
        }
    }

    /// The pad's buttons held now, as the engine numbers them. A clickpad has only
    /// BTN_LEFT, wherever it is pressed: its right and middle "buttons" are libinput's
    /// reading of where the finger was, which the kernel does not report.
    private func buttons() -> EventButtonMask {
        PadButtons.codes.reduce(into: EventButtonMask()) { mask, button in
            if value(EV_KEY, Int32(button.code)) == 1 { mask.insert(button.mask) }
        }
    }

    /// Moves the live touches to `contacts`: new keys begin, known ones move, missing ones end.
    private func update(to contacts: [(key: Int, x: Int32, y: Int32)], at time: Timestamp) -> TouchEvent? {
        var changed: [Touch] = []
        var seen: Set<Int> = []
        for contact in contacts {
            seen.insert(contact.key)
            let (location, normalized) = axes.location(contact.x, contact.y)
            if var touch = live[contact.key] {
                guard touch.location != location else { continue }
                touch.previousLocation = touch.location
                touch.location = location
                touch.normalizedLocation = normalized
                touch.timestamp = time
                touch.phase = .moved
                live[contact.key] = touch
                changed.append(touch)
            } else {
                let touch = Touch(id: makeID(), phase: .began, location: location, normalizedLocation: normalized,
                                  timestamp: time, type: .indirect, device: id, surfaceSize: axes.size)
                live[contact.key] = touch
                changed.append(touch)
            }
        }
        var gone: [Touch] = []
        for (key, touch) in live where !seen.contains(key) {
            var touch = touch
            touch.previousLocation = touch.location
            // A finger that turned into a palm did not lift: it was never meant as one.
            touch.phase = palms.contains(Int32(truncatingIfNeeded: key)) && !isSemiMultitouch ? .cancelled : .ended
            touch.timestamp = time
            live[key] = nil
            gone.append(touch)
        }
        guard !changed.isEmpty || !gone.isEmpty else { return nil }
        var event = TouchEvent(timestamp: time, down: live.values, changed: changed + gone.sorted { $0.id < $1.id })
        event.buttonMask = press.mask
        return event
    }

    /// The fingers on the pad now, without palms: (key, raw x, raw y).
    private func fingers() -> [(key: Int, x: Int32, y: Int32)] {
        if isSemiMultitouch || slotCount == 0 { return boxFingers() }
        var result: [(key: Int, x: Int32, y: Int32)] = []
        var present: Set<Int32> = []
        for slot in 0..<Int32(slotCount) {
            let tracking = slotValue(slot, ABS_MT_TRACKING_ID)
            guard tracking >= 0 else { continue }
            present.insert(tracking)
            if palms.contains(tracking) || isPalm(slot) {
                palms.insert(tracking)
                continue
            }
            result.append((Int(tracking), slotValue(slot, ABS_MT_POSITION_X), slotValue(slot, ABS_MT_POSITION_Y)))
        }
        palms.formIntersection(present)
        // A pad with fewer slots than fingers it counts (BTN_TOOL_*): the rest are where
        // the others are, as libinput's fake fingers.
        let counted = toolCount()
        if present.count == slotCount, counted > present.count, let last = result.last {
            for extra in 0..<(counted - present.count) { result.append((-1 - extra, last.x, last.y)) }
        }
        return result
    }

    /// Semi-MT (and single-touch) pads: `BTN_TOOL_*` fingers spread along the box the two slots span.
    private func boxFingers() -> [(key: Int, x: Int32, y: Int32)] {
        let count = toolCount()
        guard count > 0 else { return [] }
        var corners: [(x: Int32, y: Int32)] = []
        if slotCount == 0 {
            corners.append((value(EV_ABS, ABS_X), value(EV_ABS, ABS_Y)))
        } else {
            for slot in 0..<Int32(slotCount) where slotValue(slot, ABS_MT_TRACKING_ID) >= 0 {
                corners.append((slotValue(slot, ABS_MT_POSITION_X), slotValue(slot, ABS_MT_POSITION_Y)))
            }
        }
        guard let first = corners.first else { return [] }
        return ContactGeometry.spread(count, from: first, to: corners.count > 1 ? corners[1] : first)
    }

    /// Fingers the pad counts with BTN_TOOL_FINGER ... BTN_TOOL_QUINTTAP; 0 with none down.
    private func toolCount() -> Int {
        let tools: [(Int32, Int)] = [(BTN_TOOL_QUINTTAP, 5), (BTN_TOOL_QUADTAP, 4), (BTN_TOOL_TRIPLETAP, 3),
                                     (BTN_TOOL_DOUBLETAP, 2), (BTN_TOOL_FINGER, 1)]
        return tools.first { value(EV_KEY, $0.0) == 1 }?.1 ?? 0
    }

    private func isPalm(_ slot: Int32) -> Bool {
        if libevdev_has_event_code(evdev, UInt32(EV_ABS), UInt32(ABS_MT_TOOL_TYPE)) == 1,
           slotValue(slot, ABS_MT_TOOL_TYPE) == MT_TOOL_PALM {
            return true
        }
        if axes.hasPressure, slotValue(slot, ABS_MT_PRESSURE) >= ContactDefaults.palmPressure { return true }
        if let perUnit = axes.majorMillimetresPerUnit,
           Double(slotValue(slot, ABS_MT_TOUCH_MAJOR)) * perUnit >= ContactDefaults.palmSize {
            return true
        }
        return false
    }

    private func slotValue(_ slot: Int32, _ code: Int32) -> Int32 {
        libevdev_get_slot_value(evdev, UInt32(slot), UInt32(code))
    }

    private func value(_ type: Int32, _ code: Int32) -> Int32 {
        libevdev_get_event_value(evdev, UInt32(type), UInt32(code))
    }
}
