/// What a recognizer has measured of its gesture so far, in the units people use: the
/// one way the rules, the streams and `touchgest debug` read a gesture's values, with no
/// knowledge of which recognizer measured them. A reading a gesture does not have is nil.
public struct GestureReadings: Sendable, Equatable {
    /// Pinch: the scale since the fingers landed (1 at the start).
    public var scale: Double?
    /// Pinch: the scale's rate of change, per second.
    public var scaleVelocity: Double?
    /// Rotation: degrees turned since the fingers landed, clockwise positive.
    public var rotation: Double?
    /// Rotation: degrees per second, clockwise positive.
    public var rotationVelocity: Double?
    /// Pan and edge pan: millimetres moved since the gesture began.
    public var translation: Point?
    /// Pan and edge pan: millimetres per second over the last ~100 ms.
    public var velocity: Point?
    /// The way the gesture has gone: a swipe's recognized direction; a pan's net
    /// direction (up, down, left, right); pinch `out` or `in`; rotation `clockwise` or
    /// `counterclockwise`. Nil before it has gone anywhere.
    public var direction: GestureDirection?
    /// Edge pan: the edge it started from.
    public var edge: RectEdge?
    /// How closely the gesture matched what it was compared with, 0 to 1 (1 is a perfect
    /// match): a drawn stroke's best template, once it has decided.
    public var score: Double?

    public init() {}

    /// `recognizer`'s readings; none for one that measures nothing (tap, long-press).
    public static func of(_ recognizer: GestureRecognizer) -> GestureReadings {
        (recognizer as? GestureReadable)?.readings ?? GestureReadings()
    }
}

/// A recognizer that measures its gesture.
public protocol GestureReadable: GestureRecognizer {
    /// What it has measured so far.
    var readings: GestureReadings { get }
}

/// Degrees in a radian: rotations are measured in radians and read in degrees.
let degreesPerRadian = 180 / Double.pi

extension SwipeGestureRecognizer: GestureReadable {
    public var readings: GestureReadings {
        var readings = GestureReadings()
        readings.direction = recognizedDirection.flatMap(GestureDirection.init)
        return readings
    }
}

extension PinchGestureRecognizer: GestureReadable {
    // Read at every update of a pinch rule with steps: the measurement is taken out of
    // the phase once (each `scale` or `velocity` copies it, its arrays retained).
    public var readings: GestureReadings {
        var readings = GestureReadings()
        let spread = spread
        let scale = spread?.scale ?? 1
        readings.scale = scale
        readings.scaleVelocity = spread?.scaleVelocity ?? 0
        readings.direction = scale == 1 ? nil : scale > 1 ? .out : .in
        return readings
    }
}

extension RotationGestureRecognizer: GestureReadable {
    public var readings: GestureReadings {
        var readings = GestureReadings()
        let spread = spread
        let rotation = spread?.rotation ?? 0
        readings.rotation = rotation * degreesPerRadian
        readings.rotationVelocity = (spread?.rotationVelocity ?? 0) * degreesPerRadian
        readings.direction = rotation == 0 ? nil : rotation > 0 ? .clockwise : .counterclockwise
        return readings
    }
}

extension PanGestureRecognizer: GestureReadable {
    public var readings: GestureReadings {
        var readings = GestureReadings()
        let moved = translation()
        readings.translation = moved
        readings.velocity = velocity()
        readings.direction = moved == .zero ? nil : GestureDirection(SwipeDirection.of(moved, diagonals: false))
        readings.edge = (self as? ScreenEdgePanGestureRecognizer)?.startEdge
        return readings
    }
}
