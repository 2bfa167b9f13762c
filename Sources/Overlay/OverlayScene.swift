import TouchGestures

/// What the panel shows: the fingers down, the gesture being decided with the rule that
/// would fire, a continuous gesture's progress to its threshold, a stroke's trail and,
/// at the lift, the shape it matched or came closest to.
public struct OverlayScene: Equatable, Sendable {
    /// Fingers down now (0 once every finger is up: the panel fades).
    public var fingers = 0
    /// The most fingers down at once in this gesture: what the panel names after the lift.
    public var mostFingers = 0
    /// The rule that fired or would fire, its gesture's kind and where it is
    /// (`began`, `changed`, `recognized`, `ended`, `cancelled`); nil while undecided.
    public var rule: String?
    public var gesture: String?
    public var moment: String?
    /// 0 to 1: how far a continuous gesture has gone to its rule's `progress-distance`.
    public var progress: Double?
    /// The fingers' centre, normalized 0..1 on the device, since the first finger came
    /// down (touch devices and read touchpad fingers only); at most
    /// ``OverlayDefaults/maximumTrailPoints``.
    public var trail: [Point] = []
    /// How a stroke matched at the lift: `v 0.91 fired`, `nothing fired; closest v 0.74`.
    public var verdict: String?

    public init() {}

    /// The first line: `3 fingers · pan`.
    public var headline: String {
        let count = max(fingers, mostFingers)
        var text = "\(count) finger\(count == 1 ? "" : "s")"
        if let gesture { text += " · \(gesture)" }
        return text
    }

    /// The second line: `rule pan-3: changed`, or `deciding...` while no rule has begun.
    public var decision: String {
        guard let rule else { return fingers > 0 ? "deciding..." : "no rule fired" }
        return "rule \(rule): \(moment ?? "")"
    }

    /// Adds the fingers' centre to the trail, halving it when it is full.
    mutating func follow(_ point: Point) {
        if trail.count >= OverlayDefaults.maximumTrailPoints {
            trail = trail.enumerated().compactMap { $0.offset % 2 == 0 ? $0.element : nil }
        }
        trail.append(point)
    }
}
