import TouchGestures

/// What a key's value must be.
enum ValueKind {
    case string, positiveInteger, positiveNumber, duration, stringOrStrings, strings
}

/// One key a rule may have: its value, the gestures it applies to, and what it does.
struct KeySpec {
    var name: String
    var kind: ValueKind
    /// Nil: every gesture.
    var gestures: Set<GestureKind>?
    var help: String
}

enum RuleKeys {
    static let continuous: Set<GestureKind> = Set(GestureKind.allCases.filter(\.isContinuous))

    /// Every key of a rule, in the order the man page lists them.
    static let all: [KeySpec] = [
        KeySpec(name: "gesture", kind: .string, gestures: nil,
                help: "tap, long-press, swipe, pan, pinch, rotation or edge-pan (required)"),
        KeySpec(name: "device", kind: .string, gestures: nil, help: "touchpad, touchscreen or any"),
        KeySpec(name: "device-name", kind: .string, gestures: nil, help: "glob on the device name, e.g. \"*Touchpad*\""),
        KeySpec(name: "source", kind: .string, gestures: nil,
                help: "touchpad input: auto, libinput (its gestures) or contacts (the fingers)"),
        KeySpec(name: "fingers", kind: .positiveInteger, gestures: nil, help: "number of fingers"),
        KeySpec(name: "min-fingers", kind: .positiveInteger, gestures: [.pan], help: "fewest fingers that pan"),
        KeySpec(name: "max-fingers", kind: .positiveInteger, gestures: [.pan], help: "most fingers that pan"),
        KeySpec(name: "taps", kind: .positiveInteger, gestures: [.tap, .longPress], help: "taps in a row (long-press: taps before the press)"),
        KeySpec(name: "direction", kind: .stringOrStrings, gestures: [.swipe], help: "allowed directions"),
        KeySpec(name: "edges", kind: .stringOrStrings, gestures: [.edgePan], help: "top, left, bottom, right or any"),
        KeySpec(name: "max-duration", kind: .duration, gestures: [.tap], help: "longest a tap may last"),
        KeySpec(name: "max-interval", kind: .duration, gestures: [.tap], help: "longest pause between taps"),
        KeySpec(name: "multi-tap-slop", kind: .positiveNumber, gestures: [.tap], help: "mm between the taps of a multi-tap"),
        KeySpec(name: "duration", kind: .duration, gestures: [.longPress], help: "how long to press"),
        KeySpec(name: "max-tap-duration", kind: .duration, gestures: [.longPress], help: "longest tap before the press"),
        KeySpec(name: "slop", kind: .positiveNumber, gestures: [.tap, .longPress, .pan, .pinch, .edgePan],
                help: "mm of movement allowed (tap, long-press) or needed (pan, pinch, edge-pan)"),
        KeySpec(name: "distance", kind: .positiveNumber, gestures: [.swipe], help: "mm a swipe must travel"),
        KeySpec(name: "velocity", kind: .positiveNumber, gestures: [.swipe], help: "mm/s a swipe must reach"),
        KeySpec(name: "threshold", kind: .positiveNumber, gestures: [.pinch, .rotation],
                help: "touchpad scale change (pinch) or degrees (rotation) before it begins"),
        KeySpec(name: "edge-width", kind: .positiveNumber, gestures: [.edgePan], help: "mm from the edge where it must start"),
        KeySpec(name: "step", kind: .positiveNumber, gestures: continuous.subtracting([.longPress]),
                help: "scale (pinch), degrees (rotation) or mm (pan, edge-pan) between on-step runs"),
        KeySpec(name: "command", kind: .string, gestures: nil, help: "run when recognized (continuous: when it begins)"),
        KeySpec(name: "on-begin", kind: .string, gestures: continuous, help: "run when it begins"),
        KeySpec(name: "on-step", kind: .string, gestures: continuous.subtracting([.longPress]), help: "run at every step"),
        KeySpec(name: "on-end", kind: .string, gestures: continuous, help: "run when it ends"),
        KeySpec(name: "on-cancel", kind: .string, gestures: continuous, help: "run when it is cancelled"),
        KeySpec(name: "stream", kind: .string, gestures: nil,
                help: "a long-lived command that gets one JSON line per phase on its standard input"),
        KeySpec(name: "progress-distance", kind: .positiveNumber, gestures: continuous.subtracting([.longPress]),
                help: "mm (pan, edge-pan), scale change (pinch) or degrees (rotation) at which a stream's progress is 1"),
        KeySpec(name: "timeout", kind: .duration, gestures: nil, help: "stop the command after this long (\"none\": never)"),
        KeySpec(name: "overlap", kind: .string, gestures: nil, help: "skip, queue or parallel"),
        KeySpec(name: "require-to-fail", kind: .strings, gestures: nil, help: "rules that must fail first"),
        KeySpec(name: "application", kind: .stringOrStrings, gestures: nil,
                help: "glob(s) on the focused window's app id or WM_CLASS when the gesture begins"),
        KeySpec(name: "title", kind: .stringOrStrings, gestures: nil, help: "glob(s) on the focused window's title"),
        KeySpec(name: "not-application", kind: .stringOrStrings, gestures: nil, help: "app ids or classes the rule ignores"),
        KeySpec(name: "not-title", kind: .stringOrStrings, gestures: nil, help: "window titles the rule ignores"),
    ]

    static func spec(_ name: String) -> KeySpec? { all.first { $0.name == name } }

    static func keys(for gesture: GestureKind) -> [String] {
        all.filter { $0.gestures?.contains(gesture) ?? true }.map(\.name)
    }

    /// Keys of `[settings]`: defaults for every rule, and the engine tunables by gesture.
    static let settings: [String] = [
        "device", "timeout", "overlap", "device-size",
        "tap-max-duration", "tap-max-interval", "tap-slop", "tap-multi-tap-slop",
        "long-press-duration", "long-press-slop",
        "swipe-distance", "swipe-velocity",
        "pan-slop", "pinch-slop", "pinch-threshold", "rotation-threshold",
        "edge-pan-width", "edge-pan-slop",
    ]

    static let directionNames = SwipeDirection.named.map(\.name) + ["any"]
    static let edgeNames = RectEdge.named.map(\.name) + ["any"]
}
