/// The numbers a number key accepts: bounds, unit, and why.
struct NumberRange {
    var lowest: Double
    var highest: Double
    /// The unit as messages and the man page name it.
    var unit: String

    func contains(_ value: Double) -> Bool { value >= lowest && value <= highest }

    /// `0.1 to 50 millimetres`.
    var description: String { "\(formatted(lowest)) to \(formatted(highest)) \(unit)" }
}

/// The durations a duration key accepts.
struct DurationRange {
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

/// Every bound on a rule's numbers and durations, in one place; the man page lists
/// the same. Bounds keep values a person could mean, and keep the engine's work per
/// event small whatever the file says.
enum ValueRanges {
    /// The range of a number key (`slop`, `step`, ...; `[settings]` keys by their rule
    /// key) for `gesture`.
    static func number(_ key: String, gesture: GestureKind) -> NumberRange {
        switch (key, gesture) {
        // A finger wobbles about 1 mm; past 50 mm a tap or press is a drag.
        case ("slop", _): NumberRange(lowest: 0.1, highest: 50, unit: "millimetres")
        // A fingertip is about 10 mm wide; 100 mm apart is another target.
        case ("multi-tap-slop", _): NumberRange(lowest: 1, highest: 100, unit: "millimetres")
        // Larger than any touchpad, and most of a large touchscreen.
        case ("distance", _): NumberRange(lowest: 1, highest: 500, unit: "millimetres")
        // From a slow drag to far beyond a flick (about 2,000 mm/s).
        case ("velocity", _): NumberRange(lowest: 1, highest: 10_000, unit: "millimetres per second")
        // Half a turn; any more and the rotation never begins.
        case ("threshold", .rotation): NumberRange(lowest: 1, highest: 180, unit: "degrees")
        // A scale change of 2 is fingers three times as far apart.
        case ("threshold", _): NumberRange(lowest: 0.01, highest: 2, unit: "in scale")
        // The edge zone: a fingertip's width up to a tenth of a large screen.
        case ("edge-width", _): NumberRange(lowest: 1, highest: 100, unit: "millimetres")
        // Steps: the smallest step bounds how many commands one gesture can start
        // (a pinch from 0.2 to 5 at 0.01 is 480 steps; a full turn at 1 degree is 360).
        case ("step", .pinch): NumberRange(lowest: 0.01, highest: 10, unit: "in scale")
        case ("step", .rotation): NumberRange(lowest: 1, highest: 360, unit: "degrees")
        case ("step", _): NumberRange(lowest: 1, highest: 1_000, unit: "millimetres")
        // Progress: from a small nudge to a whole large touchscreen, a tenfold zoom, a turn.
        case ("progress-distance", .pinch): NumberRange(lowest: 0.01, highest: 10, unit: "in scale")
        case ("progress-distance", .rotation): NumberRange(lowest: 1, highest: 360, unit: "degrees")
        case ("progress-distance", _): NumberRange(lowest: 1, highest: 1_000, unit: "millimetres")
        default: NumberRange(lowest: 0, highest: 0, unit: "")
        }
    }

    /// The range of a duration key (`timeout`, `max-duration`, ...).
    static func duration(_ key: String) -> DurationRange {
        switch key {
        // A command may run long; past an hour use "none" and say so.
        case "timeout": DurationRange(lowest: .milliseconds(1), highest: .seconds(3_600))
        // Nobody holds still for a minute on purpose.
        case "duration": DurationRange(lowest: .milliseconds(10), highest: .seconds(60))
        // libinput reports a frame every 7-12 ms, so less cannot be told apart; a touch
        // or pause longer than 2 s is no longer part of a tap.
        default: DurationRange(lowest: .milliseconds(10), highest: .seconds(2))
        }
    }
}

/// `0.1`, `50`, `10000`: a number as a user would write it.
func formatted(_ number: Double) -> String {
    number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
}
