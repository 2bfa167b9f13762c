import Glibc
import LibinputInput
import Rulebook
import TouchGestures

/// Prints what `touchgest debug` shows, as text or JSON lines.
final class DebugPrinter: SessionObserver {
    let json: Bool
    /// Replays prefix each line with the virtual time, in seconds from the recording's start.
    let clock: (() -> Timestamp)?
    let showInput: Bool
    /// Colour only on a terminal, and never when NO_COLOR is set (no-color.org).
    let colour = isatty(1) == 1 && getenv("NO_COLOR").map { String(cString: $0).isEmpty } ?? true

    init(json: Bool, clock: (() -> Timestamp)? = nil, showInput: Bool = true) {
        self.json = json
        self.clock = clock
        self.showInput = showInput
    }

    /// `text` with its control characters escaped, wrapped in an ANSI colour when colour
    /// is on: 2 dim, 32 green, 33 yellow, 36 cyan.
    private func paint(_ code: Int, _ text: String) -> String {
        let text = text.escapingControlCharacters
        return colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// `1.250s ` on a replay's virtual clock (which starts at 1 s), else nothing.
    private var stamp: String {
        guard let clock else { return "" }
        let micros = Int64(clock().microseconds) - 1_000_000
        return fixedDecimals(Double(micros) / 1_000_000, 3) + "s "
    }

    /// Writes a JSON line (JSONLine escapes every control character) or a line made
    /// by `paint`.
    private func emit(_ text: String) {
        writeLine(1, text.hasPrefix("{") ? text : stamp + text)
    }

    func adapter(_ event: AdapterEvent) {
        if case .input = event, !showInput { return }
        switch event {
        case let .deviceAdded(device):
            if json {
                var line = JSONLine("device-added")
                describe(device, into: &line)
                emit(line.text)
            } else {
                emit(paint(36, "device added: \(device)"))
                if let note = device.sizeNote { emit(paint(36, "  \(note)")) }
            }
        case let .deviceRemoved(device):
            if json {
                var line = JSONLine("device-removed")
                describe(device, into: &line)
                emit(line.text)
            } else {
                emit(paint(36, "device removed: \(device.node)"))
            }
        case let .input(.touches(frame)):
            for touch in frame.changedTouches {
                let phase = switch touch.phase {
                case .began: "down"
                case .moved, .stationary: "move"
                case .ended: "up"
                case .cancelled: "cancel"
                }
                if json {
                    var line = JSONLine("touch")
                    line.add("id", touch.id)
                    line.add("phase", phase)
                    line.add("x", touch.location.x)
                    line.add("y", touch.location.y)
                    line.add("time", Int(touch.timestamp.microseconds))
                    emit(line.text)
                } else {
                    emit(paint(2, "touch \(touch.id) \(phase) \(touch.location) mm"))
                }
            }
            if json {
                // The whole frame as recognizers get it: every touch down, with UIKit's phase.
                var line = JSONLine("frame")
                line.add("touches", frame.allTouches.map { "\($0.id) \(Self.phaseName($0.phase))" })
                line.add("time", Int(frame.timestamp.microseconds))
                emit(line.text)
            }
        case let .input(.touchpad(event)):
            if json {
                var line = JSONLine("touchpad")
                line.add("gesture", event.description.prefix { $0 != " " }.description)
                line.add("fingers", event.gesture.fingers)
                line.add("text", event.description)
                line.add("time", Int(event.timestamp.microseconds))
                if let down = event.fingersDown { line.add("fingers-down", Int(down.microseconds)) }
                emit(line.text)
            } else {
                emit(paint(2, "touchpad \(event)"))
            }
        }
    }

    func transition(_ record: TransitionRecord) {
        if json {
            var line = JSONLine("transition")
            line.add("recognizer", record.recognizer)
            line.add("from", record.fromName)
            line.add("to", record.toName)
            line.add("cause", record.cause.description)
            line.add("time", Int(record.timestamp.microseconds))
            emit(line.text)
        } else {
            let decided = record.to == .began || record.to == .ended
            emit(decided ? paint(32, record.description) : record.description.escapingControlCharacters)
        }
    }

    func command(_ request: CommandRequest, running: Bool) {
        if json {
            var line = JSONLine("command")
            line.add("rule", request.rule)
            line.add("phase", request.phase.rawValue)
            line.add("command", request.command)
            line.add("run", running)
            emit(line.text)
        } else {
            var what = [request.rule, request.phase.rawValue]
            if request.phase == .step, let step = request.environment["TOUCHGEST_STEP"] { what.append(step) }
            if let direction = request.environment["TOUCHGEST_DIRECTION"] { what.append(direction) }
            emit(paint(33, "  \(running ? "runs" : "would run") [\(what.joined(separator: " "))]: \(request.command)"))
        }
    }

    /// UIKit's name for a touch phase.
    static func phaseName(_ phase: TouchPhase) -> String {
        switch phase {
        case .began: "began"
        case .moved: "moved"
        case .stationary: "stationary"
        case .ended: "ended"
        case .cancelled: "cancelled"
        }
    }

    private func describe(_ device: InputDevice, into line: inout JSONLine) {
        line.add("node", device.node)
        line.add("kind", device.kind.rawValue)
        line.add("name", device.name)
        if let size = device.size {
            line.add("width", size.width)
            line.add("height", size.height)
        }
        if let source = device.sizeSource { line.add("size-source", source.rawValue) }
        if device.kind == .touchpad {
            line.add("gestures", device.hasGestures)
            line.add("tap-fingers", device.tapFingers)
        }
    }
}
