import Glibc
import LibinputInput
import PollLoop
import TouchGestures

/// touchgest's recording format: text, one event a line, times in microseconds from the
/// first event. What libinput handed over, normalized, so a replay sees what the live
/// engine saw.
///
///     # touchgest recording 1
///     device 1 touchpad 100.000 70.000 DLL075B:01 06CB:76AF Touchpad
///     0 touchpad 1 swipe-begin 3
///     8123 touchpad 1 swipe-update 3 -1.1234 0.0000
///     9000 touchpad 1 pinch-update 2 0.0000 0.0000 1.2500 -3.0000
///     20000 touches 2 5:down:150.000:100.000 6:move:120.500:80.000
///     30000 removed 1
enum Recording {
    static let header = "# touchgest recording 1"

    /// Writes a recording as events arrive.
    final class Writer {
        private let fd: Int32
        private var origin: Timestamp?

        init(path: String) throws(RecordingError) {
            fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw .cannotWrite(path, String(cString: strerror(errno))) }
            line(Recording.header)
        }

        deinit { close(fd) }

        func write(_ event: AdapterEvent) {
            switch event {
            case let .deviceAdded(device):
                let size = device.size ?? Size(width: 0, height: 0)
                line("device \(device.id.rawValue) \(device.kind.rawValue) \(fixedDecimals(size.width, 3)) \(fixedDecimals(size.height, 3)) \(device.name)")
            case let .deviceRemoved(device):
                line("\(offset(PollScheduler.now())) removed \(device.id.rawValue)")
            case let .input(.touchpad(event)):
                line("\(offset(event.timestamp)) touchpad \(event.device.rawValue) \(Recording.encode(event.gesture))")
            case let .input(.touches(frame)):
                guard let device = frame.changedTouches.first?.device else { return }
                let touches = frame.changedTouches.map { touch in
                    "\(touch.id):\(Recording.phaseName(touch.phase)):\(fixedDecimals(touch.location.x, 3)):\(fixedDecimals(touch.location.y, 3))"
                }
                line("\(offset(frame.timestamp)) touches \(device.rawValue) \(touches.joined(separator: " "))")
            }
        }

        private func offset(_ time: Timestamp) -> UInt64 {
            let start = origin ?? time
            origin = start
            return time > start ? time.microseconds - start.microseconds : 0
        }

        private func line(_ text: String) {
            var text = text + "\n"
            text.withUTF8 { _ = Glibc.write(fd, $0.baseAddress, $0.count) }
        }
    }

    static func encode(_ gesture: TouchpadGesture) -> String {
        func number(_ value: Double) -> String { fixedDecimals(value, 4) }
        switch gesture {
        case let .swipeBegin(f): return "swipe-begin \(f)"
        case let .swipeUpdate(f, d): return "swipe-update \(f) \(number(d.x)) \(number(d.y))"
        case let .swipeEnd(f, c): return "swipe-end \(f) \(c ? 1 : 0)"
        case let .pinchBegin(f): return "pinch-begin \(f)"
        case let .pinchUpdate(f, d, s, a): return "pinch-update \(f) \(number(d.x)) \(number(d.y)) \(number(s)) \(number(a))"
        case let .pinchEnd(f, c): return "pinch-end \(f) \(c ? 1 : 0)"
        case let .holdBegin(f): return "hold-begin \(f)"
        case let .holdEnd(f, c): return "hold-end \(f) \(c ? 1 : 0)"
        case let .tap(f): return "tap \(f)"
        }
    }

    static func phaseName(_ phase: TouchPhase) -> String {
        switch phase {
        case .began: "down"
        case .moved, .stationary: "move"
        case .ended: "up"
        case .cancelled: "cancel"
        }
    }

    /// A recording read back: devices and timed events.
    struct Contents {
        var devices: [InputDevice] = []
        var events: [(time: Timestamp, event: AdapterEvent)] = []
    }

    /// Reads a recording; errors name the line and the bad text.
    static func read(path: String) throws(RecordingError) -> Contents {
        guard let file = fopen(path, "r") else { throw .cannotRead(path, String(cString: strerror(errno))) }
        defer { fclose(file) }
        var contents = Contents()
        var live: [Int: Touch] = [:]
        var number = 0
        var buffer = [CChar](repeating: 0, count: 65_536)
        // Replays start one second in, so that no timestamp is near zero.
        let base: UInt64 = 1_000_000
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            number += 1
            let text = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }.trimmingTrailingNewline
            if number == 1 {
                guard text == header else { throw .format(path, 1, "expected '\(header)'") }
                continue
            }
            if text.isEmpty || text.hasPrefix("#") { continue }
            let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            func fail(_ why: String) -> RecordingError { .format(path, number, "\(why): '\(text)'") }
            if words[0] == "device" {
                guard words.count >= 5, let id = Int(words[1]), let kind = InputDevice.Kind(rawValue: words[2]),
                      let width = Double(words[3]), let height = Double(words[4]) else { throw fail("bad device line") }
                let device = InputDevice(id: DeviceID(id), name: words.dropFirst(5).joined(separator: " "),
                                         node: "(recording)", kind: kind,
                                         size: width > 0 ? Size(width: width, height: height) : nil, slots: nil, tapFingers: 0)
                contents.devices.append(device)
                contents.events.append((Timestamp(microseconds: base), .deviceAdded(device)))
                continue
            }
            guard words.count >= 3, let offset = UInt64(words[0]), let deviceNumber = Int(words[2]) else {
                throw fail("expected TIME KIND DEVICE ...")
            }
            let time = Timestamp(microseconds: base + offset)
            let device = DeviceID(deviceNumber)
            switch words[1] {
            case "removed":
                guard let info = contents.devices.first(where: { $0.id == device }) else { throw fail("unknown device") }
                contents.events.append((time, .deviceRemoved(info)))
            case "touchpad":
                guard let gesture = decode(Array(words.dropFirst(3))) else { throw fail("bad touchpad event") }
                contents.events.append((time, .input(.touchpad(TouchpadEvent(gesture, timestamp: time, device: device)))))
            case "touches":
                let size = contents.devices.first { $0.id == device }?.size ?? Size(width: 1, height: 1)
                var changed: [Touch] = []
                for field in words.dropFirst(3) {
                    let parts = field.split(separator: ":").map(String.init)
                    guard parts.count == 4, let id = Int(parts[0]), let x = Double(parts[2]), let y = Double(parts[3]) else {
                        throw fail("bad touch '\(field)'")
                    }
                    let phase: TouchPhase
                    switch parts[1] {
                    case "down": phase = .began
                    case "move": phase = .moved
                    case "up": phase = .ended
                    case "cancel": phase = .cancelled
                    default: throw fail("bad touch phase '\(parts[1])'")
                    }
                    let location = Point(x: x, y: y)
                    let touch = Touch(id: id, phase: phase, location: location, previousLocation: live[id]?.location ?? location,
                                      timestamp: time, type: .direct, device: device, surfaceSize: size)
                    changed.append(touch)
                    live[id] = phase.isTerminal ? nil : touch
                }
                var all = live.values.filter { $0.device == device }.sorted { $0.id < $1.id }.map { touch -> Touch in
                    var touch = touch
                    if !changed.contains(where: { $0.id == touch.id }) { touch.phase = .stationary }
                    return touch
                }
                all += changed.filter { $0.phase.isTerminal }
                contents.events.append((time, .input(.touches(TouchEvent(timestamp: time, allTouches: all, changedTouches: changed)))))
            default:
                throw fail("unknown event '\(words[1])'")
            }
        }
        return contents
    }

    static func decode(_ words: [String]) -> TouchpadGesture? {
        guard let name = words.first, words.count >= 2, let fingers = Int(words[1]) else { return nil }
        let numbers = words.dropFirst(2).compactMap(Double.init)
        switch (name, numbers.count) {
        case ("swipe-begin", 0): return .swipeBegin(fingers: fingers)
        case ("swipe-update", 2): return .swipeUpdate(fingers: fingers, delta: Point(x: numbers[0], y: numbers[1]))
        case ("swipe-end", 1): return .swipeEnd(fingers: fingers, cancelled: numbers[0] != 0)
        case ("pinch-begin", 0): return .pinchBegin(fingers: fingers)
        case ("pinch-update", 4):
            return .pinchUpdate(fingers: fingers, delta: Point(x: numbers[0], y: numbers[1]), scale: numbers[2], angleDelta: numbers[3])
        case ("pinch-end", 1): return .pinchEnd(fingers: fingers, cancelled: numbers[0] != 0)
        case ("hold-begin", 0): return .holdBegin(fingers: fingers)
        case ("hold-end", 1): return .holdEnd(fingers: fingers, cancelled: numbers[0] != 0)
        case ("tap", 0): return .tap(fingers: fingers)
        default: return nil
        }
    }
}

enum RecordingError: Error, CustomStringConvertible {
    case cannotWrite(String, String)
    case cannotRead(String, String)
    case format(String, Int, String)

    var description: String {
        switch self {
        case let .cannotWrite(path, why): "\(path): error: cannot write the recording: \(why)"
        case let .cannotRead(path, why): "\(path): error: cannot read the recording: \(why)"
        case let .format(path, line, why): "\(path):\(line): error: \(why)"
        }
    }
}

extension String {
    var trimmingTrailingNewline: String {
        var text = self
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        return text
    }
}
