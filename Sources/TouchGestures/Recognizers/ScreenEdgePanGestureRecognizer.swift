/// The edges of a touchscreen or a touchpad.
public struct RectEdge: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let top = RectEdge(rawValue: 1 << 0)
    public static let left = RectEdge(rawValue: 1 << 1)
    public static let bottom = RectEdge(rawValue: 1 << 2)
    public static let right = RectEdge(rawValue: 1 << 3)
    public static let all: RectEdge = [.top, .left, .bottom, .right]

    /// The single edges with their names.
    public static let named: [(name: String, edge: RectEdge)] = [
        ("top", .top), ("left", .left), ("bottom", .bottom), ("right", .right),
    ]

    public var description: String {
        Self.named.filter { contains($0.edge) }.map(\.name).joined(separator: ",")
    }
}

/// A pan that starts at an edge of a touchscreen and moves inward, as UIKit's
/// `UIScreenEdgePanGestureRecognizer`.
///
/// Continuous. Touchscreen touches, and touchpad contacts (``TouchpadInput/contacts``):
/// libinput's touchpad gestures carry no absolute position, so they never start one. The
/// pan, and its one phase machine, are ``PanGestureRecognizer``'s; this class answers the
/// two questions that machine asks: did the first touch land at an edge, and does the pan
/// head inward once past the slop.
open class ScreenEdgePanGestureRecognizer: PanGestureRecognizer {
    /// Edges the pan may start from; none by default, as in UIKit, so set it.
    public var edges: RectEdge = []
    /// Millimetres from an edge where the first finger must land.
    public var edgeZoneWidth = GestureDefaults.edgeZoneWidth

    /// The edge the current or last pan started from.
    public private(set) var startEdge: RectEdge?

    /// Makes an edge pan for one finger on touchscreens (and touchpad contacts, when
    /// ``GestureRecognizer/touchpadInput`` says so).
    public override init() {
        super.init()
        maximumNumberOfTouches = 1
    }

    open override var kindName: String { "edge-pan" }
    open override var acceptedTouchpadGestures: Set<TouchpadGestureKind> { [] }

    /// Follows a pan only from the zone of one of ``edges``, and remembers which.
    open override func shouldFollow(from touch: Touch) -> Bool {
        startEdge = edge(near: touch)
        return startEdge != nil
    }

    /// Begins only heading away from the start edge.
    open override func shouldBegin(after travelled: Point) -> Bool {
        guard let startEdge else { return false }
        return inward(travelled, from: startEdge) > 0
    }

    private func edge(near touch: Touch) -> RectEdge? {
        let size = touch.surfaceSize
        let distances: [(RectEdge, Double)] = [
            (.top, touch.location.y), (.left, touch.location.x),
            (.bottom, size.height - touch.location.y), (.right, size.width - touch.location.x),
        ]
        return distances.filter { edges.contains($0.0) && $0.1 <= edgeZoneWidth }.min { $0.1 < $1.1 }?.0
    }

    /// How much of `moved` points away from `edge`, minus how much runs along it.
    private func inward(_ moved: Point, from edge: RectEdge) -> Double {
        if edge == .left { return moved.x - abs(moved.y) }
        if edge == .right { return -moved.x - abs(moved.y) }
        if edge == .top { return moved.y - abs(moved.x) }
        return -moved.y - abs(moved.x)
    }
}
