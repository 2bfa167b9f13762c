import TextWire
import TouchGestures

/// One phase of a rule's gesture with its values: what a `stream` command and
/// `touchgest events` get, one JSON line each (format version ``formatVersion``,
/// documented in touchgest-rules(5), STREAMS). The gesture is a ``GestureSnapshot``'s
/// (its members read through the sample: `sample.direction`); the line adds how far it went.
@dynamicMemberLookup
public struct GestureSample: Sendable, Equatable {
    /// The `v` of every line; it changes only when a field changes meaning or goes away
    /// (new fields may be added within a version).
    public static let formatVersion = 1

    /// The gesture at the moment of the line: began, changed, ended, cancelled, or
    /// recognized (never step: a stream has the values).
    public var snapshot: GestureSnapshot
    /// 0 to 1: how far the gesture has gone against the rule's `progress-distance`.
    public var progress: Double?

    public init(_ snapshot: GestureSnapshot, progress: Double?) {
        self.snapshot = snapshot
        self.progress = progress
    }

    /// `snapshot` as a line; `progressDistance` is the rule's `progress-distance`, or
    /// nil for the gesture's default.
    public init(_ snapshot: GestureSnapshot, progressDistance: Double?) {
        self.snapshot = snapshot
        let readings = snapshot.readings
        let distance = progressDistance ?? Self.defaultProgressDistance(snapshot.gesture)
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

    public subscript<Value>(dynamicMember member: KeyPath<GestureSnapshot, Value>) -> Value {
        snapshot[keyPath: member]
    }

    /// The line's `phase`.
    public var phase: GestureMoment { snapshot.moment }

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
        let readings = snapshot.readings
        var line = JSONLine()
        line.add("v", Self.formatVersion)
        line.add("rule", snapshot.rule)
        line.add("gesture", snapshot.gesture.rawValue)
        line.add("phase", snapshot.moment.rawValue)
        line.add("time_us", snapshot.timestamp.microseconds)
        line.add("fingers", snapshot.fingers)
        line.add("device", snapshot.device?.word)
        line.add("device_name", snapshot.deviceName)
        line.add("direction", snapshot.direction?.rawValue)
        line.add("x", rounded: snapshot.location.x)
        line.add("y", rounded: snapshot.location.y)
        line.add("dx", rounded: readings.translation?.x)
        line.add("dy", rounded: readings.translation?.y)
        line.add("vx", rounded: readings.velocity?.x)
        line.add("vy", rounded: readings.velocity?.y)
        line.add("scale", rounded: readings.scale)
        line.add("angle", rounded: readings.rotation)
        line.add("progress", rounded: progress)
        line.add("modifiers", snapshot.modifiers.description)
        line.add("buttons", snapshot.buttons.ruleName)
        return line.text
    }
}
