import TouchGestures

/// What a rule's recognizer decided, in the words of a rule file: `swipe left, 3 fingers`,
/// `pinch out, 2 fingers`, `double tap, 2 fingers`; what `touchgest debug` and `replay`
/// show by default, and what the built-in catalogue names.
public struct GestureDecision: Sendable, Equatable {
    public var gesture: GestureKind
    /// recognized, began, step, ended or cancelled (a decision is never `changed`).
    public var moment: GestureMoment
    /// The device the gesture came from: touchpad or touchscreen (any only when unknown).
    public var device: DeviceKind
    public var fingers: Int
    /// Taps before it: a tap's count (1 or more), a long-press's taps before the press.
    public var taps: Int
    /// A swipe's direction, a step's, or a continuous gesture's net direction: `left`,
    /// `out`, `clockwise`; nil before it has gone anywhere.
    public var direction: GestureDirection?
    /// The edge an edge pan started from.
    public var edge: String?
    /// The gesture's measured values as text: `scale 1.72`, `rotation 45.0°`, `moved 10.2,-3.0 mm`,
    /// and what was held, when something was: `with super`, `with buttons left`.
    public var values: [String]
    /// The modifier keys and buttons held as it began: a snippet wants them too.
    public var held: HeldCondition

    /// `snapshot` as a decision; `taps` is the rule's.
    public init(_ snapshot: GestureSnapshot, taps: Int) {
        gesture = snapshot.gesture
        moment = snapshot.moment
        device = DeviceKind(snapshot.device)
        fingers = snapshot.fingers
        self.taps = taps
        direction = snapshot.direction
        let readings = snapshot.readings
        edge = readings.edge?.description
        values = []
        if let scale = readings.scale { values.append("scale \(fixedDecimals(scale, 2))") }
        if let degrees = readings.rotation { values.append("rotation \(fixedDecimals(degrees, 1))°") }
        if let moved = readings.translation { values.append("moved \(fixedDecimals(moved.x, 1)),\(fixedDecimals(moved.y, 1)) mm") }
        if let score = readings.score { values.append("score \(fixedDecimals(score, 2))") }
        // Caps Lock is a lock, not a key held for the gesture (as in rules: HeldCondition).
        let modifiers = snapshot.modifiers.subtracting(.alphaShift)
        held = HeldCondition(modifiers: modifiers.isEmpty ? nil : modifiers,
                             buttons: snapshot.buttons.isEmpty ? nil : snapshot.buttons)
        if let modifiers = held.modifiers { values.append("with \(modifiers)") }
        if let buttons = held.buttons { values.append("with buttons \(buttons.ruleName)") }
    }

    /// The decision `recognizer`, compiled from `rule`, made on reaching its current
    /// state at `moment`.
    public init(rule: Rule, recognizer: GestureRecognizer, moment: GestureMoment) {
        self.init(GestureSnapshot(rule: rule, recognizer: recognizer, moment: moment), taps: rule.taps)
    }

    /// `swipe left, 3 fingers`, `double tap, 2 fingers`, `long-press, 1 finger`,
    /// `edge-pan from left, 1 finger`: the gesture as a rule would name it.
    public var name: String {
        let what: String
        switch gesture {
        case .tap:
            what = taps == 1 ? "tap" : taps == 2 ? "double tap" : taps == 3 ? "triple tap" : "\(taps) taps"
        case .longPress:
            what = taps == 0 ? "long-press" : "long-press after \(taps) tap\(taps == 1 ? "" : "s")"
        case .edgePan:
            what = "edge-pan" + (edge.map { " from \($0)" } ?? "")
        case .swipe, .pan, .pinch, .rotation, .stroke:
            what = gesture.rawValue + (direction.map { " \($0)" } ?? "")
        }
        return "\(what), \(fingers) finger\(fingers == 1 ? "" : "s")"
    }

    /// The name, then its values: `pinch out, 2 fingers, scale 1.72`.
    public var summary: String {
        ([name] + values).joined(separator: ", ")
    }

    /// The rule that fires for this gesture and no other, as rule-file lines ready to
    /// paste; its command shows a desktop notification. A pinch or rotation rule fires
    /// whichever way the fingers go, so its command tests `TOUCHGEST_DIRECTION`.
    public var snippet: [String] {
        var lines = ["[rule.\(snippetName)]", "gesture = \"\(gesture.rawValue)\"", "device = \"\(device.rawValue)\""]
        if !(gesture == .edgePan && fingers == 1) { lines.append("fingers = \(fingers)") }
        if let modifiers = held.modifiers { lines.append("modifiers = \"\(modifiers)\"") }
        if let buttons = held.buttons { lines.append("buttons = \"\(buttons.ruleName)\"") }
        let notify = "notify-send '\(name)'"
        switch gesture {
        case .tap:
            if taps != 1 { lines.append("taps = \(taps)") }
            lines.append("command = \"\(notify)\"")
        case .longPress:
            if taps != 0 { lines.append("taps = \(taps)") }
            lines.append("on-begin = \"\(notify)\"")
        case .swipe:
            if let direction { lines.append("direction = \"\(direction)\"") }
            lines.append("command = \"\(notify)\"")
        case .stroke:
            lines.append("# the shape: touchgest learn \(snippetName) draws its templates")
            lines.append("command = \"\(notify)\"")
        case .edgePan:
            if let edge { lines.append("edges = \"\(edge)\"") }
            lines.append("on-end = \"\(notify)\"")
        case .pan, .pinch, .rotation:
            if let direction {
                lines.append("on-end = \"[ \\\"$TOUCHGEST_DIRECTION\\\" = \(direction) ] && \(notify)\"")
            } else {
                lines.append("on-end = \"\(notify)\"")
            }
        }
        return lines
    }

    /// `swipe-left-3`, `double-tap-2`, `edge-pan-left-1`: a rule name for the snippet.
    var snippetName: String {
        let words = name.split(separator: ",").first.map(String.init) ?? gesture.rawValue
        let base = words.replacing(" from ", with: " ").replacing(" ", with: "-")
        return (device == .touchscreen ? "screen-" : "") + "\(base)-\(fingers)"
    }
}
