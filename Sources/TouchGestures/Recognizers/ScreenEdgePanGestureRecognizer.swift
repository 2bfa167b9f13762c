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
/// pan itself is ``PanGestureRecognizer``'s; this class decides only whether it started at
/// an edge and heads inward.
open class ScreenEdgePanGestureRecognizer: PanGestureRecognizer {
    /// Edges the pan may start from; none by default, as in UIKit, so set it.
    public var edges: RectEdge = []
    /// Millimetres from an edge where the first finger must land.
    public var edgeZoneWidth = GestureDefaults.edgeZoneWidth

    /// The edge the current or last pan started from.
    public private(set) var startEdge: RectEdge?

    private enum EdgePhase {
        /// No finger yet.
        case waiting
        /// The first finger landed in the zone of `edge` at `start`.
        case fromEdge(RectEdge, start: Point)
        /// Decided: the pan may go on (it headed inward) or has failed.
        case decided
    }

    private enum EdgeInput {
        case firstTouch(Touch)
        case moved(Point)
    }

    @exclusivity(unchecked) private var edgePhase = EdgePhase.waiting

    /// Makes an edge pan for one finger on touchscreens (and touchpad contacts, when
    /// ``GestureRecognizer/touchpadInput`` says so).
    public override init() {
        super.init()
        maximumNumberOfTouches = 1
    }

    open override var kindName: String { "edge-pan" }
    open override var acceptedTouchpadGestures: Set<TouchpadGestureKind> { [] }

    open override func touchesBegan(_ touches: [Touch], with event: TouchEvent) {
        if state == .possible, let touch = touches.first, !edgeStep(.firstTouch(touch)) { return }
        super.touchesBegan(touches, with: event)
    }

    open override func touchesMoved(_ touches: [Touch], with event: TouchEvent) {
        if state == .possible, let touch = touches.first, !edgeStep(.moved(touch.location)) { return }
        super.touchesMoved(touches, with: event)
    }

    open override func reset() {
        super.reset()
        edgePhase = .waiting
    }

    /// Returns false when the pan failed and the touches go no further.
    private func edgeStep(_ input: EdgeInput) -> Bool {
        switch (edgePhase, input) {
        case let (.waiting, .firstTouch(touch)):
            startEdge = edge(near: touch)
            guard let edge = startEdge else { return failEdge() }
            edgePhase = .fromEdge(edge, start: touch.location)
        case let (.fromEdge(edge, start), .moved(location)):
            let moved = location - start
            guard moved.length > slop else { return true }
            guard inward(moved, from: edge) > 0 else { return failEdge() }
            edgePhase = .decided
        case (.fromEdge, .firstTouch), (.decided, .firstTouch), (.decided, .moved):
            break
        case (.waiting, .moved):
            environment?.report("\(label): \(input) while \(edgePhase) cannot happen")
        }
        return true
    }

    private func failEdge() -> Bool {
        edgePhase = .decided
        transition(to: .failed)
        return false
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
