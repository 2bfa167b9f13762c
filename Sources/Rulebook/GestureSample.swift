import TextWire
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
        var line = JSONLine()
        line.add("v", Self.formatVersion)
        line.add("rule", rule)
        line.add("gesture", gesture.rawValue)
        line.add("phase", phase.rawValue)
        line.add("time_us", timestamp.microseconds)
        line.add("fingers", fingers)
        line.add("device", device?.word)
        line.add("device_name", deviceName)
        line.add("direction", direction?.rawValue)
        line.add("x", rounded: location.x)
        line.add("y", rounded: location.y)
        line.add("dx", rounded: translation?.x)
        line.add("dy", rounded: translation?.y)
        line.add("vx", rounded: velocity?.x)
        line.add("vy", rounded: velocity?.y)
        line.add("scale", rounded: scale)
        line.add("angle", rounded: angle)
        line.add("progress", rounded: progress)
        return line.text
    }
}
