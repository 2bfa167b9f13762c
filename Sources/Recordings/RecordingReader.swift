import Glibc
import InputDevices
import TouchGestures

/// Reads a recording one line at a time and hands back its events as they are read,
/// with bounded memory whatever the file holds. Every value is checked against
/// `RecordingLimits` and the state so far (devices present, touches down, the last
/// time), and a bad line throws an error naming the file, the line and the value.
/// No input, UTF-8 or not, makes it trap.
public final class RecordingReader {
    /// One event and the time it happens on the replay's clock (which starts at
    /// `Recording.replayStart`).
    public typealias Event = (time: Timestamp, event: AdapterEvent)

    /// The file name errors give.
    public let path: String
    private var lines: LineReader
    private var descriptor: Int32 = -1
    private var lineNumber = 0
    private var devices: [DeviceID: (device: InputDevice, line: Int)] = [:]
    private var touchesDown: [DeviceID: [Int: Touch]] = [:]
    /// What each device's events hold, from its last `held` line.
    private var held: [DeviceID: Recording.Held] = [:]
    /// The latest time read so far.
    private var now = Recording.replayStart
    private var finished = false

    /// Opens the recording at `path`.
    public convenience init(path: String) throws(RecordingError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(path, String(cString: strerror(errno))) }
        self.init(path: path) { buffer in Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
        self.descriptor = descriptor
    }

    /// Reads a recording held in memory; `path` is the name errors give.
    public convenience init(bytes: [UInt8], path: String) {
        var offset = 0
        self.init(path: path) { buffer in
            let count = min(buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
            }
            offset += count
            return count
        }
    }

    private init(path: String, read: @escaping LineReader.Read) {
        self.path = path
        lines = LineReader(read: read)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The device a `device` line added and no `removed` line has removed yet.
    public func device(_ id: DeviceID) -> InputDevice? {
        devices[id]?.device
    }

    /// The next event, or nil at the end of the recording.
    public func next() throws(RecordingError) -> Event? {
        while !finished {
            guard let result = lines.next() else {
                finished = true
                if lineNumber == 0 { throw .format(path, 1, "the file is empty; expected '\(Recording.header)'") }
                return nil
            }
            lineNumber += 1
            let line: LineReader.Line
            switch result {
            case let .success(read): line = read
            case let .failure(error): throw .cannotRead(path, error.text)
            }
            if let event = try parse(line) { return event }
        }
        return nil
    }

    private func fail(_ why: String) -> RecordingError {
        .format(path, lineNumber, why)
    }

    private func parse(_ line: LineReader.Line) throws(RecordingError) -> Event? {
        let isComment = line.bytes.first == UInt8(ascii: "#")
        if lineNumber == 1 {
            let text = String(decoding: line.bytes, as: UTF8.self)
            guard !line.truncated, text == Recording.header else {
                throw fail("expected '\(Recording.header)' as the first line, found '\(text.prefix(80))'")
            }
            return nil
        }
        if isComment { return nil }
        guard !line.truncated else {
            throw fail("the line is longer than \(RecordingLimits.maximumLineLength) bytes, the longest a recording line may be")
        }
        let text = String(decoding: line.bytes, as: UTF8.self)
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let first = words.first else { return nil }
        if first == "device" { return try addDevice(text, words) }
        guard words.count >= 3 else {
            throw fail("expected TIME KIND DEVICE ... or device ID KIND WIDTH HEIGHT NAME, found '\(text)'")
        }
        let time = try parseTime(words[0])
        let id = try parseDeviceID(words[2])
        let arguments = Array(words.dropFirst(3))
        switch words[1] {
        case "removed":
            guard arguments.isEmpty else { throw fail("removed takes only a device id, found '\(text)'") }
            let device = try present(id)
            devices[id] = nil
            touchesDown[id] = nil
            held[id] = nil
            return (time, .deviceRemoved(device))
        case "touchpad":
            _ = try present(id)
            var event = TouchpadEvent(try parseGesture(arguments), timestamp: time, device: id)
            let holding = held[id, default: Recording.Held()]
            (event.modifierFlags, event.buttonMask) = (holding.modifiers, holding.buttons)
            return (time, .input(.touchpad(event)))
        case "touches":
            let device = try present(id)
            var frame = try parseFrame(arguments, device: device, time: time)
            let holding = held[id, default: Recording.Held()]
            (frame.modifierFlags, frame.buttonMask) = (holding.modifiers, holding.buttons)
            return (time, .input(.touches(frame)))
        case "held":
            _ = try present(id)
            guard arguments.count == 2 else { throw fail("held takes a device id, the modifiers and the buttons, found '\(text)'") }
            guard let modifiers = KeyModifierFlags(arguments[0]) else {
                throw fail("unknown modifiers '\(arguments[0])'; expected names from \(KeyModifierFlags.named.map(\.name).joined(separator: ", ")) joined by '+', or none")
            }
            guard let buttons = EventButtonMask(arguments[1]) else {
                throw fail("unknown buttons '\(arguments[1])'; expected button numbers from 1 to 32 joined by '+', or none")
            }
            held[id] = Recording.Held(modifiers: modifiers, buttons: buttons)
            return nil
        default:
            throw fail("unknown event '\(words[1])'; expected one of touchpad, touches, held, removed, device")
        }
    }

    private func addDevice(_ text: String, _ words: [Substring]) throws(RecordingError) -> Event {
        guard words.count >= 5 else { throw fail("expected device ID KIND WIDTH HEIGHT NAME, found '\(text)'") }
        let id = try parseDeviceID(words[1])
        if let earlier = devices[id] {
            throw fail("duplicate device id \(id.rawValue); line \(earlier.line) added device \(id.rawValue) already")
        }
        guard devices.count < RecordingLimits.maximumDevices else {
            throw fail("more than \(RecordingLimits.maximumDevices) devices present at once")
        }
        guard let kind = InputDevice.Kind(rawValue: String(words[2])) else {
            throw fail("unknown device kind '\(words[2])'; expected one of touchpad, touchscreen")
        }
        let width = try parseNumber(words[3], "device width", 0...RecordingLimits.maximumCoordinate)
        let height = try parseNumber(words[4], "device height", 0...RecordingLimits.maximumCoordinate)
        guard (width > 0) == (height > 0) else {
            throw fail("device size \(words[3]) x \(words[4]) has one side 0; give both sides, or 0 0 when the size is unknown")
        }
        var name = words.count > 5 ? text[words[5].startIndex...] : ""
        while let last = name.last, last == " " || last == "\t" { name.removeLast() }
        let device = InputDevice(id: id, name: String(name), node: "(recording)", kind: kind,
                                 size: width > 0 ? Size(width: width, height: height) : nil, slots: nil, tapFingers: 0)
        devices[id] = (device, lineNumber)
        return (now, .deviceAdded(device))
    }

    private func present(_ id: DeviceID) throws(RecordingError) -> InputDevice {
        guard let device = devices[id]?.device else {
            let known = devices.keys.map(\.rawValue).sorted().map(String.init)
            throw fail("unknown device \(id.rawValue); \(known.isEmpty ? "no device is present" : "devices present: \(known.joined(separator: ", "))")")
        }
        return device
    }

    private func parseTime(_ word: Substring) throws(RecordingError) -> Timestamp {
        guard let offset = UInt64(word), offset <= RecordingLimits.maximumTime else {
            throw fail("time '\(word)' is out of range; expected microseconds from 0 to \(RecordingLimits.maximumTime)")
        }
        let time = Timestamp(microseconds: Recording.replayStart.microseconds + offset)
        let latest = now.microseconds - Recording.replayStart.microseconds
        guard offset + RecordingLimits.maximumStepBack >= latest else {
            throw fail("time \(offset) is \(latest - offset) us before the latest event's \(latest); times may go back at most \(RecordingLimits.maximumStepBack) us")
        }
        now = max(now, time)
        return time
    }

    private func parseDeviceID(_ word: Substring) throws(RecordingError) -> DeviceID {
        guard let id = Int(word), id >= 0 else { throw fail("bad device id '\(word)'; expected a whole number from 0") }
        return DeviceID(id)
    }

    private func parseNumber(_ word: Substring, _ what: String, _ range: ClosedRange<Double>) throws(RecordingError) -> Double {
        guard let value = Double(word), value.isFinite, range.contains(value) else {
            throw fail("\(what) '\(word)' is out of range; expected a number from \(fixedDecimals(range.lowerBound, 0)) to \(fixedDecimals(range.upperBound, 0))")
        }
        return value
    }

    /// Each touchpad gesture's values, in order.
    private static let gestureShapes: KeyValuePairs<String, String> = [
        "swipe-begin": "FINGERS", "swipe-update": "FINGERS DX DY", "swipe-end": "FINGERS CANCELLED",
        "pinch-begin": "FINGERS", "pinch-update": "FINGERS DX DY SCALE ANGLE", "pinch-end": "FINGERS CANCELLED",
        "hold-begin": "FINGERS", "hold-end": "FINGERS CANCELLED", "tap": "FINGERS",
    ]

    private static let gestureNames = gestureShapes.map(\.key).joined(separator: ", ")

    private func parseGesture(_ words: [Substring]) throws(RecordingError) -> TouchpadGesture {
        let names = Self.gestureNames
        guard let name = words.first else { throw fail("touchpad event without a gesture; expected one of \(names)") }
        guard let shape = Self.gestureShapes.first(where: { $0.key == name })?.value else {
            throw fail("unknown touchpad gesture '\(name)'; expected one of \(names)")
        }
        let values = words.dropFirst()
        guard values.count == shape.utf8.count(where: { $0 == UInt8(ascii: " ") }) + 1 else {
            throw fail("\(name) takes \(shape), found '\(values.joined(separator: " "))'")
        }
        let fingers = try parseFingers(values[values.startIndex])
        func delta(_ index: Int) throws(RecordingError) -> Point {
            let limit = RecordingLimits.maximumDelta
            return Point(x: try parseNumber(values[values.startIndex + index], "delta", -limit...limit),
                         y: try parseNumber(values[values.startIndex + index + 1], "delta", -limit...limit))
        }
        func cancelled() throws(RecordingError) -> Bool {
            switch values[values.startIndex + 1] {
            case "0": return false
            case "1": return true
            case let word: throw fail("cancelled flag '\(word)' is not 0 or 1")
            }
        }
        switch name {
        case "swipe-begin": return .swipeBegin(fingers: fingers)
        case "swipe-update": return .swipeUpdate(fingers: fingers, delta: try delta(1))
        case "swipe-end": return .swipeEnd(fingers: fingers, cancelled: try cancelled())
        case "pinch-begin": return .pinchBegin(fingers: fingers)
        case "pinch-update":
            let scaleWord = values[values.startIndex + 3]
            guard let scale = Double(scaleWord), scale.isFinite, scale > 0, scale <= RecordingLimits.maximumScale else {
                throw fail("pinch scale '\(scaleWord)' is out of range; expected a number greater than 0 and at most \(fixedDecimals(RecordingLimits.maximumScale, 0))")
            }
            let angleLimit = RecordingLimits.maximumAngleDelta
            let angle = try parseNumber(values[values.startIndex + 4], "pinch angle delta", -angleLimit...angleLimit)
            return .pinchUpdate(fingers: fingers, delta: try delta(1), scale: scale, angleDelta: angle)
        case "pinch-end": return .pinchEnd(fingers: fingers, cancelled: try cancelled())
        case "hold-begin": return .holdBegin(fingers: fingers)
        case "hold-end": return .holdEnd(fingers: fingers, cancelled: try cancelled())
        default: return .tap(fingers: fingers)
        }
    }

    private func parseFingers(_ word: Substring) throws(RecordingError) -> Int {
        guard let fingers = Int(word), RecordingLimits.fingers.contains(fingers) else {
            throw fail("finger count '\(word)' is out of range; expected \(RecordingLimits.fingers.lowerBound) to \(RecordingLimits.fingers.upperBound)")
        }
        return fingers
    }

    /// One `touches` line: the touches that changed; every other touch down on the
    /// device is in `allTouches` as stationary, and only those.
    private func parseFrame(_ fields: [Substring], device: InputDevice, time: Timestamp) throws(RecordingError) -> TouchEvent {
        guard !fields.isEmpty else { throw fail("touches without a touch; expected ID:PHASE:X:Y ...") }
        let size = device.size ?? Size(width: 1, height: 1)
        var down = touchesDown[device.id] ?? [:]
        var changed: [Touch] = []
        let limit = RecordingLimits.maximumCoordinate
        for field in fields {
            let parts = field.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 4 else { throw fail("bad touch '\(field)'; expected ID:PHASE:X:Y, e.g. 5:down:150.000:100.000") }
            guard let id = Int(parts[0]), id >= 0 else { throw fail("bad touch id '\(parts[0])'; expected a whole number from 0") }
            guard !changed.contains(where: { $0.id == id }) else { throw fail("touch \(id) changes twice in one frame") }
            guard let phase = TouchPhase(word: String(parts[1])), phase != .stationary else {
                throw fail("unknown touch phase '\(parts[1])'; expected one of down, move, up, cancel")
            }
            let location = Point(x: try parseNumber(parts[2], "touch x", -limit...limit),
                                 y: try parseNumber(parts[3], "touch y", -limit...limit))
            let previous = down[id]
            if phase == .began {
                guard previous == nil else { throw fail("touch \(id) goes down but is down already") }
                guard down.count < RecordingLimits.maximumTouchesDown else {
                    throw fail("more than \(RecordingLimits.maximumTouchesDown) touches down at once on device \(device.id.rawValue)")
                }
            } else if previous == nil {
                throw fail("touch \(id) \(parts[1]) but it is not down")
            }
            let touch = Touch(id: id, phase: phase, location: location, previousLocation: previous?.location ?? location,
                              timestamp: time, type: device.kind == .touchpad ? .indirect : .direct, device: device.id,
                              surfaceSize: size)
            changed.append(touch)
            down[id] = phase.isTerminal ? nil : touch
        }
        touchesDown[device.id] = down
        return TouchEvent(timestamp: time, down: down.values, changed: changed)
    }
}
