import StrokeGestures
import TouchGestures

/// A value a rule gives an engine tunable: a number in the key's unit, or a duration.
public enum TunedValue: Sendable, Equatable {
    case number(Double)
    case duration(Duration)

    public var number: Double? {
        if case let .number(value) = self { value } else { nil }
    }

    public var duration: Duration? {
        if case let .duration(value) = self { value } else { nil }
    }
}

/// One engine tunable a rule, or `[settings]` for every rule of a gesture, may set: its
/// key, the values it takes with their unit and the reason for the bounds, what it means,
/// and how it reaches each gesture's recognizer.
///
/// Adding a tunable is one entry in ``all`` plus the recognizer's own property: the
/// parser, `check`'s messages, the `[settings]` keys, the defaults and the compiler all
/// read this table, and `ManualPageTests` holds touchgest-rules(5) to it.
struct TunableKey: Sendable {
    /// What a key's value must be.
    enum Values: Sendable {
        /// A number within the range for the gesture.
        case number(@Sendable (GestureKind) -> NumberRange)
        case duration(DurationRange)
    }

    let name: String
    let values: Values
    /// What it means, for the key list (`check --explain`, the man page).
    let help: String
    /// How the value reaches the recognizer, per gesture the key tunes.
    let apply: [GestureKind: Apply]

    /// Gives a recognizer the value.
    typealias Apply = @Sendable (GestureRecognizer, TunedValue) -> Void

    /// The gestures it tunes.
    var gestures: Set<GestureKind> { Set(apply.keys) }

    /// The `[settings]` key that sets it for every rule of `gesture`: `tap-slop`,
    /// `long-press-duration`; `edge-width` is `edge-pan-width`.
    func settingsKey(_ gesture: GestureKind) -> String {
        gesture == .edgePan && name == "edge-width" ? "edge-pan-width" : "\(gesture.rawValue)-\(name)"
    }

    /// Sets `path` of a recognizer that is a `Root`: how an entry names a property. The
    /// one place a recognizer's type is looked at, and only to reach its own property.
    static func set<Root: GestureRecognizer, Value>(_ path: ReferenceWritableKeyPath<Root, Value>,
                                                    _ convert: @escaping @Sendable (TunedValue) -> Value?) -> Apply {
        // A key path is an immutable value; this Swift does not mark it Sendable yet.
        nonisolated(unsafe) let path = path
        return { recognizer, value in
            guard let recognizer = recognizer as? Root, let converted = convert(value) else { return }
            recognizer[keyPath: path] = converted
        }
    }

    static func value<Root: GestureRecognizer>(_ path: ReferenceWritableKeyPath<Root, Double>) -> Apply {
        set(path) { $0.number }
    }

    static func time<Root: GestureRecognizer>(_ path: ReferenceWritableKeyPath<Root, Duration>) -> Apply {
        set(path) { $0.duration }
    }

    // libinput reports a frame every 7-12 ms, so less cannot be told apart; a touch or
    // pause longer than 2 s is no longer part of a tap.
    static let tapTimes = DurationRange(lowest: .milliseconds(10), highest: .seconds(2))

    /// Every tunable, in the order the man page lists them.
    static let all: [TunableKey] = [
        TunableKey(name: "max-duration", values: .duration(tapTimes), help: "longest a tap may last",
                   apply: [.tap: time(\TapGestureRecognizer.maximumTapDuration)]),
        TunableKey(name: "max-interval", values: .duration(tapTimes), help: "longest pause between taps",
                   apply: [.tap: time(\TapGestureRecognizer.maximumTapInterval)]),
        // A fingertip is about 10 mm wide; 100 mm apart is another target.
        TunableKey(name: "multi-tap-slop", values: .number { _ in NumberRange(lowest: 1, highest: 100, unit: "millimetres") },
                   help: "mm between the taps of a multi-tap",
                   apply: [.tap: value(\TapGestureRecognizer.multiTapSlop)]),
        // Nobody holds still for a minute on purpose.
        TunableKey(name: "duration", values: .duration(DurationRange(lowest: .milliseconds(10), highest: .seconds(60))),
                   help: "how long to press",
                   apply: [.longPress: time(\LongPressGestureRecognizer.minimumPressDuration)]),
        TunableKey(name: "max-tap-duration", values: .duration(tapTimes), help: "longest tap before the press",
                   apply: [.longPress: time(\LongPressGestureRecognizer.maximumTapDuration)]),
        // A finger wobbles about 1 mm; past 50 mm a tap or press is a drag.
        TunableKey(name: "slop", values: .number { _ in NumberRange(lowest: 0.1, highest: 50, unit: "millimetres") },
                   help: "mm of movement allowed (tap, long-press) or needed (pan, pinch, edge-pan)",
                   apply: [
                       .tap: value(\TapGestureRecognizer.allowableMovement),
                       .longPress: value(\LongPressGestureRecognizer.allowableMovement),
                       .pan: value(\PanGestureRecognizer.slop),
                       .pinch: value(\PinchGestureRecognizer.slop),
                       .edgePan: value(\ScreenEdgePanGestureRecognizer.slop),
                   ]),
        // Larger than any touchpad, and most of a large touchscreen.
        TunableKey(name: "distance", values: .number { _ in NumberRange(lowest: 1, highest: 500, unit: "millimetres") },
                   help: "mm a swipe must travel",
                   apply: [.swipe: { recognizer, tuned in
                       // One distance for both shapes of input when the rule states it.
                       value(\SwipeGestureRecognizer.minimumDistance)(recognizer, tuned)
                       value(\SwipeGestureRecognizer.touchpadMinimumDistance)(recognizer, tuned)
                   }]),
        // From a slow drag to far beyond a flick (about 2,000 mm/s).
        TunableKey(name: "velocity", values: .number { _ in NumberRange(lowest: 1, highest: 10_000, unit: "millimetres per second") },
                   help: "mm/s a swipe must reach",
                   apply: [.swipe: value(\SwipeGestureRecognizer.minimumVelocity)]),
        TunableKey(name: "threshold",
                   values: .number { gesture in
                       // Half a turn; any more and the rotation never begins. A scale change of
                       // 2 is fingers three times as far apart. A stroke scoring under 0.5 is
                       // nearer another shape than its own; 1 is a perfect copy, which no
                       // hand draws.
                       switch gesture {
                       case .rotation: NumberRange(lowest: 1, highest: 180, unit: "degrees")
                       case .stroke: NumberRange(lowest: 0.5, highest: 0.99, unit: "in score")
                       default: NumberRange(lowest: 0.01, highest: 2, unit: "in scale")
                       }
                   },
                   help: "touchpad scale change (pinch) or degrees (rotation) before it begins; score a stroke's template must reach",
                   apply: [
                       .pinch: value(\PinchGestureRecognizer.touchpadThreshold),
                       .rotation: set(\RotationGestureRecognizer.threshold) { $0.number.map { $0 * .pi / 180 } },
                       .stroke: value(\StrokeGestureRecognizer.threshold),
                   ]),
        // The edge zone: a fingertip's width up to a tenth of a large screen.
        TunableKey(name: "edge-width", values: .number { _ in NumberRange(lowest: 1, highest: 100, unit: "millimetres") },
                   help: "mm from the edge where it must start",
                   apply: [.edgePan: value(\ScreenEdgePanGestureRecognizer.edgeZoneWidth)]),
    ]

    static func named(_ name: String) -> TunableKey? { all.first { $0.name == name } }

    /// The tunable a `[settings]` key sets, and for which gesture.
    static func setting(_ key: String) -> (TunableKey, GestureKind)? {
        for tunable in all {
            for gesture in GestureKind.allCases where tunable.apply[gesture] != nil && tunable.settingsKey(gesture) == key {
                return (tunable, gesture)
            }
        }
        return nil
    }

    /// The key list's entry: what `check` and the man page say of it.
    var spec: KeySpec {
        let kind: ValueKind = switch values {
        case .number: .positiveNumber
        case .duration: .duration
        }
        return KeySpec(name: name, kind: kind, gestures: gestures, help: help)
    }
}

/// The tunables a rule sets, by key; a key it does not set keeps the `[settings]` value,
/// else the engine's default.
public struct Tunables: Sendable, Equatable {
    public private(set) var values: [String: TunedValue] = [:]

    public init() {}

    public subscript(key: String) -> TunedValue? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// Values of `self`, with `defaults` where `self` has none.
    func merged(over defaults: Tunables) -> Tunables {
        var result = self
        result.values.merge(defaults.values) { mine, _ in mine }
        return result
    }
}
