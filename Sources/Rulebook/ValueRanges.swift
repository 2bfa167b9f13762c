import TextWire
import TouchGestures

/// The numbers a number key accepts: bounds, unit, and why.
struct NumberRange: Sendable {
    var lowest: Double
    var highest: Double
    /// The unit as messages and the man page name it.
    var unit: String

    func contains(_ value: Double) -> Bool { value >= lowest && value <= highest }

    /// `0.1 to 50 millimetres`.
    var description: String { "\(shownNumber(lowest)) to \(shownNumber(highest)) \(unit)" }
}

/// The durations a duration key accepts.
struct DurationRange: Sendable {
    var lowest: Duration
    var highest: Duration

    func contains(_ value: Duration) -> Bool { value >= lowest && value <= highest }

    /// `10ms to 2s`.
    var description: String { "\(Self.text(lowest)) to \(Self.text(highest))" }

    static func text(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1_000 == 0 ? "\(milliseconds / 1_000)s" : "\(milliseconds)ms"
    }
}

/// The bounds on a rule's numbers and durations that are not engine tunables (those
/// are in ``TunableKey/all``, each with its own). Bounds keep values a person could
/// mean, and keep the engine's work per event small whatever the file says.
enum ValueRanges {
    /// `step` and `progress-distance` for `gesture`. The smallest step bounds how many
    /// commands one gesture can start (a pinch from 0.2 to 5 at 0.01 is 480 steps; a full
    /// turn at 1 degree is 360); progress runs from a small nudge to a whole large
    /// touchscreen, a tenfold zoom, a turn.
    static func step(_ gesture: GestureKind) -> NumberRange {
        switch gesture {
        case .pinch: NumberRange(lowest: 0.01, highest: 10, unit: "in scale")
        case .rotation: NumberRange(lowest: 1, highest: 360, unit: "degrees")
        case .tap, .longPress, .swipe, .pan, .edgePan, .stroke: NumberRange(lowest: 1, highest: 1_000, unit: "millimetres")
        }
    }

    /// `timeout`: a command may run long; past an hour use "none" and say so.
    static let timeout = DurationRange(lowest: .milliseconds(1), highest: .seconds(3_600))
}
