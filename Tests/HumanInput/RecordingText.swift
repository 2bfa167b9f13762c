import TouchGestures

/// A sample as a `.tgrec` recording, the text `touchgest record` writes and
/// `touchgest replay` reads (Sources/touchgest/Recording.swift): the header, one
/// `device` line per device, then one line per event, times in microseconds from the
/// sample's start.
public enum RecordingText {
    /// The recording of `samples`, one after another, `gap` seconds apart.
    public static func recording(_ samples: [Sample], gap: Double = 2) -> String {
        var lines = ["# touchgest recording 1",
                     "device \(TouchpadCorpus.device.rawValue) touchpad 100.000 70.000 corpus touchpad",
                     "device \(TouchscreenFrames.device.rawValue) touchscreen \(fixedDecimals(TouchscreenFrames.size.width, 3)) \(fixedDecimals(TouchscreenFrames.size.height, 3)) corpus touchscreen",
                     "device \(SemiMultitouchCorpus.device.rawValue) touchpad \(fixedDecimals(SemiMultitouchCorpus.size.width, 3)) \(fixedDecimals(SemiMultitouchCorpus.size.height, 3)) corpus semi-MT touchpad"]
        var offset: UInt64 = 0
        for sample in samples {
            lines.append("# \(sample.name)")
            var last: UInt64 = 0
            for event in sample.events {
                let time = event.timestamp.microseconds - Sample.start.microseconds
                last = max(last, time)
                lines.append("\(offset + time) \(line(event))")
            }
            offset += last + UInt64(gap * 1_000_000)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public static func line(_ event: InputEvent) -> String {
        func number(_ value: Double) -> String { fixedDecimals(value, 4) }
        switch event {
        case let .touchpad(event):
            let words: String = switch event.gesture {
            case let .swipeBegin(f): "swipe-begin \(f)"
            case let .swipeUpdate(f, d): "swipe-update \(f) \(number(d.x)) \(number(d.y))"
            case let .swipeEnd(f, c): "swipe-end \(f) \(c ? 1 : 0)"
            case let .pinchBegin(f): "pinch-begin \(f)"
            case let .pinchUpdate(f, d, s, a): "pinch-update \(f) \(number(d.x)) \(number(d.y)) \(number(s)) \(number(a))"
            case let .pinchEnd(f, c): "pinch-end \(f) \(c ? 1 : 0)"
            case let .holdBegin(f): "hold-begin \(f)"
            case let .holdEnd(f, c): "hold-end \(f) \(c ? 1 : 0)"
            case let .tap(f): "tap \(f)"
            }
            return "touchpad \(event.device.rawValue) \(words)"
        case let .touches(frame):
            let touches = frame.changedTouches.map { touch in
                return "\(touch.id):\(touch.phase.word):\(fixedDecimals(touch.location.x, 3)):\(fixedDecimals(touch.location.y, 3))"
            }
            return "touches \(frame.changedTouches.first?.device.rawValue ?? 0) \(touches.joined(separator: " "))"
        }
    }
}
