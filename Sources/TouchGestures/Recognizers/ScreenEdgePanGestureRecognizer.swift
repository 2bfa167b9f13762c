/// The edges of a touchscreen.
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
/// Continuous. Touchscreens only: touchpad gestures carry no absolute position.
open class ScreenEdgePanGestureRecognizer: PanGestureRecognizer {
    /// Edges the pan may start from; none by default, as in UIKit, so set it.
    public var edges: RectEdge = []
    /// Millimetres from an edge where the first finger must land.
    public var edgeZoneWidth = GestureDefaults.edgeZoneWidth

    /// The edge the current or last pan started from.
    public private(set) var startEdge: RectEdge?

    private var start = Point.zero
    private var startFound = false

    /// Makes an edge pan for one finger on touchscreens.
    public override init() {
        super.init()
        maximumNumberOfTouches = 1
        allowedTouchTypes = [.direct]
    }

    open override var kindName: String { "edge-pan" }
    open override var acceptedTouchpadGestures: Set<TouchpadGestureKind> { [] }

    open override func touchesBegan(_ touches: [Touch], with event: TouchEvent) {
        if state == .possible, !startFound, let touch = touches.first {
            startFound = true
            startEdge = edge(near: touch)
            start = touch.location
            guard startEdge != nil else { return transition(to: .failed) }
        }
        super.touchesBegan(touches, with: event)
    }

    open override func touchesMoved(_ touches: [Touch], with event: TouchEvent) {
        if state == .possible, let edge = startEdge, let touch = touches.first {
            let moved = touch.location - start
            if moved.length > slop && inward(moved, from: edge) <= 0 { return transition(to: .failed) }
        }
        super.touchesMoved(touches, with: event)
    }

    open override func reset() {
        super.reset()
        startFound = false
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
