import TouchGestures

/// What a key's value must be.
enum ValueKind: Sendable {
    case string, positiveInteger, positiveNumber, duration, stringOrStrings, strings, boolean
    /// A list of `[x, y]` points, or a list of such lists.
    case points
}

/// One key a rule may have: its value, the gestures it applies to, and what it does.
struct KeySpec: Sendable {
    var name: String
    var kind: ValueKind
    /// Nil: every gesture.
    var gestures: Set<GestureKind>?
    var help: String
}

enum RuleKeys {
    static let continuous: Set<GestureKind> = Set(GestureKind.allCases.filter(\.isContinuous))

    /// Every key of a rule, in the order the man page lists them; the engine tunables
    /// come from their own table.
    static let all: [KeySpec] = before + TunableKey.all.map(\.spec) + after

    private static let before: [KeySpec] = [
        KeySpec(name: "gesture", kind: .string, gestures: nil,
                help: "tap, long-press, swipe, pan, pinch, rotation, edge-pan or stroke (required)"),
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
        KeySpec(name: "template", kind: .points, gestures: [.stroke],
                help: "the shape as points [x, y] in a box from 0 to 1 (y down), in drawing order, or a list of such shapes"),
    ]

    private static let after: [KeySpec] = [
        KeySpec(name: "step", kind: .positiveNumber, gestures: continuous.subtracting([.longPress]),
                help: "scale (pinch), degrees (rotation) or mm (pan, edge-pan) between on-step runs"),
        KeySpec(name: "command", kind: .string, gestures: nil, help: "run when recognized (continuous: when it begins)"),
        KeySpec(name: "keys", kind: .string, gestures: nil,
                help: "press these keys when recognized, by xkb name: \"ctrl+shift+v\", \"super\", \"ctrl+c ctrl+v\""),
        KeySpec(name: "text", kind: .string, gestures: nil, help: "type this text when recognized"),
        KeySpec(name: "button", kind: .string, gestures: nil, help: "click this button when recognized: left, middle, right, back or forward"),
        KeySpec(name: "shortcut", kind: .string, gestures: nil,
                help: "invoke this KDE Plasma global shortcut when recognized, by name: \"Overview\", \"Switch to Next Desktop\""),
        KeySpec(name: "modifiers", kind: .string, gestures: nil,
                help: "only while exactly these keys are held when the gesture begins: \"super\", [\"ctrl\", \"shift\"], \"none\""),
        KeySpec(name: "buttons", kind: .string, gestures: nil,
                help: "only while exactly these buttons are held when the gesture begins: \"left\", \"right\", \"middle\", \"none\""),
        KeySpec(name: "action", kind: .string, gestures: nil,
                help: "do this desktop action when recognized, through the desktop's own interface: \"workspace-next\", \"overview\", \"maximize\""),
        KeySpec(name: "on-begin", kind: .string, gestures: continuous, help: "run when it begins"),
        KeySpec(name: "on-step", kind: .string, gestures: continuous.subtracting([.longPress]), help: "run at every step"),
        KeySpec(name: "on-end", kind: .string, gestures: continuous, help: "run when it ends"),
        KeySpec(name: "on-cancel", kind: .string, gestures: continuous, help: "run when it is cancelled"),
        KeySpec(name: "stream", kind: .string, gestures: nil,
                help: "a long-lived command that gets one JSON line per phase on its standard input"),
        KeySpec(name: "progress-distance", kind: .positiveNumber, gestures: continuous.subtracting([.longPress]),
                help: "mm (pan, edge-pan), scale change (pinch) or degrees (rotation) at which a stream's progress is 1"),
        KeySpec(name: "follow", kind: .string, gestures: [.pan, .edgePan],
                help: "move the desktop's own animation under the fingers: workspaces or overview"),
        KeySpec(name: "timeout", kind: .duration, gestures: nil, help: "stop the command after this long (\"none\": never)"),
        KeySpec(name: "overlap", kind: .string, gestures: nil, help: "skip, queue or parallel"),
        KeySpec(name: "require-to-fail", kind: .strings, gestures: nil, help: "rules that must fail first"),
        KeySpec(name: "application", kind: .stringOrStrings, gestures: nil,
                help: "glob(s) on the focused window's app id or WM_CLASS when the gesture begins"),
        KeySpec(name: "title", kind: .stringOrStrings, gestures: nil, help: "glob(s) on the focused window's title"),
        KeySpec(name: "not-application", kind: .stringOrStrings, gestures: nil, help: "app ids or classes the rule ignores"),
        KeySpec(name: "not-title", kind: .stringOrStrings, gestures: nil, help: "window titles the rule ignores"),
        KeySpec(name: "when-locked", kind: .boolean, gestures: nil,
                help: "true: the rule also acts while the screen is locked (never while the session is not in front)"),
    ]

    static func spec(_ name: String) -> KeySpec? { all.first { $0.name == name } }

    static func keys(for gesture: GestureKind) -> [String] {
        all.filter { $0.gestures?.contains(gesture) ?? true }.map(\.name)
    }

    /// Keys of `[settings]`: defaults for every rule, and each tunable by gesture
    /// (`tap-slop`), in the tunables' order.
    static let settings: [String] = ["device", "timeout", "overlap", "device-size", "modifier-source", "desktop-gestures", "feedback"]
        + GestureKind.allCases.flatMap { gesture in
            TunableKey.all.filter { $0.apply[gesture] != nil }.map { $0.settingsKey(gesture) }
        }

    static let directionNames = SwipeDirection.named.map(\.name) + ["any"]
    static let edgeNames = RectEdge.named.map(\.name) + ["any"]
}
