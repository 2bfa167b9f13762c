import TouchGestures

/// One phase of a rule's gesture with its values: what a `stream` command and
/// `touchgest events` get, one JSON line each (format version ``formatVersion``,
/// documented in touchgest-rules(5), STREAMS).
public struct GestureSample: Sendable, Equatable {
    /// The `v` of every line; it changes only when a field changes meaning or goes away
    /// (new fields may be added within a version).
    public static let formatVersion = 1

    public var rule: String
    public var gesture: GestureKind
    /// began, changed, ended, cancelled, or recognized (never step: a stream has the values).
    public var phase: GestureMoment
    /// libinput's timestamp of the event that caused the phase: CLOCK_MONOTONIC, microseconds.
    public var timestamp: Timestamp
    public var fingers: Int
    /// touchpad or touchscreen; nil when unknown.
    public var device: TouchType?
    /// libinput's name of the device, when known.
    public var deviceName: String?
    /// The net direction so far (pan, edge-pan: up, down, left, right; pinch: in, out;
    /// rotation: clockwise, counterclockwise; swipe: the direction recognized).
    public var direction: GestureDirection?
    /// Where the fingers are, in millimetres (touchpad: from where the gesture began).
    public var location: Point
    /// Pan and edge-pan: millimetres moved since the gesture began.
    public var translation: Point?
    /// Pan and edge-pan: millimetres per second over the last ~100 ms.
    public var velocity: Point?
    /// Pinch: scale since the fingers landed (1 at the start).
    public var scale: Double?
    /// Rotation: degrees turned, clockwise positive.
    public var angle: Double?
    /// 0 to 1: how far the gesture has gone against the rule's `progress-distance`.
    public var progress: Double?

    public init(rule: String, gesture: GestureKind, phase: GestureMoment, timestamp: Timestamp, fingers: Int,
                device: TouchType? = nil, deviceName: String? = nil, direction: GestureDirection? = nil,
                location: Point = .zero, translation: Point? = nil, velocity: Point? = nil,
                scale: Double? = nil, angle: Double? = nil, progress: Double? = nil) {
        self.rule = rule
        self.gesture = gesture
        self.phase = phase
        self.timestamp = timestamp
        self.fingers = fingers
        self.device = device
        self.deviceName = deviceName
        self.direction = direction
        self.location = location
        self.translation = translation
        self.velocity = velocity
        self.scale = scale
        self.angle = angle
        self.progress = progress
    }

    /// `snapshot` as a line; `progressDistance` is the rule's `progress-distance`, or
    /// nil for the gesture's default.
    public init(_ snapshot: GestureSnapshot, progressDistance: Double?) {
        let readings = snapshot.readings
        self.init(rule: snapshot.rule, gesture: snapshot.gesture, phase: snapshot.moment, timestamp: snapshot.timestamp,
                  fingers: snapshot.fingers, device: snapshot.device, deviceName: snapshot.deviceName,
                  direction: snapshot.direction, location: snapshot.location, translation: readings.translation,
                  velocity: readings.velocity, scale: readings.scale, angle: readings.rotation)
        let distance = progressDistance ?? Self.defaultProgressDistance(gesture)
        func fraction(_ gone: Double) -> Double? {
            guard let distance, gone.isFinite else { return nil }
            return min(1, max(0, gone / distance))
        }
        if let scale = readings.scale {
            progress = fraction(abs(scale - 1))
        } else if let degrees = readings.rotation {
            progress = fraction(abs(degrees))
        } else if let translation = readings.translation {
            progress = fraction(translation.length)
        }
    }

    /// The default `progress-distance` of a gesture: where progress reaches 1 unless the
    /// rule names its own. Pan, edge-pan: 50 mm, about a 3-finger swipe across a laptop
    /// touchpad; pinch: a scale change of 1 (the fingers twice as far apart, or all the way
    /// in); rotation: a quarter turn, 90 degrees.
    public static func defaultProgressDistance(_ gesture: GestureKind) -> Double? {
        switch gesture {
        case .pan, .edgePan: 50
        case .pinch: 1
        case .rotation: 90
        case .tap, .longPress, .swipe, .stroke: nil
        }
    }

    /// The line without its newline: every field, in a fixed order, `null` where a value
    /// does not apply. Numbers have at most 3 decimals (mm, mm/s, degrees, scale).
    public var jsonLine: String {
        var line = "{\"v\":\(Self.formatVersion),\"rule\":"
        appendJSONString(rule, to: &line)
        line += ",\"gesture\":\"\(gesture.rawValue)\",\"phase\":\"\(phase.rawValue)\""
        line += ",\"time_us\":\(timestamp.microseconds),\"fingers\":\(fingers)"
        line += ",\"device\":" + (device.map { "\"\($0.word)\"" } ?? "null")
        line += ",\"device_name\":"
        if let deviceName { appendJSONString(deviceName, to: &line) } else { line += "null" }
        line += ",\"direction\":"
        line += direction.map { "\"\($0.rawValue)\"" } ?? "null"
        line += ",\"x\":\(Self.number(location.x)),\"y\":\(Self.number(location.y))"
        line += ",\"dx\":\(Self.number(translation?.x)),\"dy\":\(Self.number(translation?.y))"
        line += ",\"vx\":\(Self.number(velocity?.x)),\"vy\":\(Self.number(velocity?.y))"
        line += ",\"scale\":\(Self.number(scale)),\"angle\":\(Self.number(angle))"
        line += ",\"progress\":\(Self.number(progress))}"
        return line
    }

    /// `12.5`, `-0.004`, `null` for nil or a value that is not finite (JSON has no NaN).
    static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        var text = fixedDecimals(value, 3)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}

/// Appends `text` as a JSON string: quotes, backslashes and every control character
/// (C0, DEL and C1) and bidi control escaped (``Unicode/Scalar/isUnsafeOnTerminal``), so a
/// terminal that shows the line cannot be steered. The one
/// escaper of every JSON line touchgest writes: streams, `debug --json`, `replay --json`.
public func appendJSONString(_ text: String, to line: inout String) {
    line += "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": line += "\\\""
        case "\\": line += "\\\\"
        case "\n": line += "\\n"
        case "\r": line += "\\r"
        case "\t": line += "\\t"
        case _ where scalar.isUnsafeOnTerminal:
            let hex = String(scalar.value, radix: 16)
            line += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: line.unicodeScalars.append(scalar)
        }
    }
    line += "\""
}

extension Unicode.Scalar {
    /// Whether printing the scalar as it is could drive a terminal or forge what a line
    /// shows: the controls (C0, DEL and C1, Unicode's Cc), the bidi controls that reorder
    /// what follows them (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069) and
    /// the line and paragraph separators (U+2028, U+2029). Text from outside is printed
    /// with these escaped, and JSON lines write them as `\u` escapes.
    public var isUnsafeOnTerminal: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || properties.isBidiControl || value == 0x2028 || value == 0x2029
    }
}
