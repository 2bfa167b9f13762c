import RealModule

/// How far a group of fingers has spread and turned since it was first measured: what
/// pinch and rotation read. On a touchscreen it is measured from the fingers themselves;
/// on a touchpad it takes libinput's scale and angle.
struct FingerSpread {
    /// The spread when measuring started: millimetres on a touchscreen, scale 1 on a touchpad.
    private(set) var startSpan: Double
    /// The spread now, in the same unit. For two fingers, the distance between them; for
    /// more, twice their mean distance from their centroid (the same for two).
    private(set) var span: Double
    /// Radians the fingers have turned about their centroid since measuring started,
    /// clockwise positive (y grows downward): the mean of each finger's turn.
    private(set) var turned = 0.0
    /// Millimetres the fingers' centroid has gone from where it started, at the farthest.
    private(set) var travel = 0.0
    /// Where the centroid is, from where it started (touchpad: libinput's pinch deltas).
    private var centroidOffset = Point.zero
    private var startCentre: Point
    /// The values a caller set as the new origin of scale and rotation.
    private var scaleBase = 1.0
    private var spanBase: Double
    private var rotationBase = 0.0
    private var turnedBase = 0.0
    /// Each finger's last angle about the centroid, unwrapped so a turn past 180 degrees counts on.
    private var fingerAngles: [Double]
    private var velocityTracker: VelocityTracker

    /// Starts measuring the first `count` of `touches`.
    init(_ touches: [Touch], first count: Int, at time: Timestamp) {
        let points = touches.prefix(count).map(\.location)
        let (span, angles) = Self.geometry(points)
        startCentre = points.isEmpty ? .zero : points.reduce(Point.zero, +) / Double(points.count)
        startSpan = span
        self.span = span
        spanBase = span
        fingerAngles = angles
        velocityTracker = VelocityTracker(Point(x: span, y: 0), at: time)
    }

    /// Starts measuring a touchpad pinch, whose scale starts at 1.
    init(touchpadAt time: Timestamp) {
        startCentre = .zero
        startSpan = 1
        span = 1
        spanBase = 1
        fingerAngles = []
        velocityTracker = VelocityTracker(Point(x: 1, y: 0), at: time)
    }

    /// Measures the first `count` of `touches` again: the same fingers in the same order.
    mutating func measure(_ touches: [Touch], first count: Int, at time: Timestamp) {
        guard count == fingerAngles.count, count > 0, touches.count >= count else { return }
        var centre = Point.zero
        for index in 0..<count { centre += touches[index].location }
        centre = centre / Double(count)
        var distance = 0.0
        var turn = 0.0
        for index in 0..<count {
            let offset = touches[index].location - centre
            distance += offset.length
            var angle = Double.atan2(y: offset.y, x: offset.x)
            let previous = fingerAngles[index]
            while angle - previous > .pi { angle -= 2 * .pi }
            while angle - previous < -.pi { angle += 2 * .pi }
            turn += angle - previous
            fingerAngles[index] = angle
        }
        turned += turn / Double(count)
        span = 2 * distance / Double(count)
        centroidOffset = centre - startCentre
        travel = max(travel, centroidOffset.length)
        velocityTracker.add(Point(x: span, y: turned), at: time)
    }

    /// Takes a touchpad pinch update: libinput's absolute scale, its angle change in
    /// degrees, and the centroid's movement in millimetres.
    mutating func measure(scale: Double, angleDelta: Double, moved: Point, at time: Timestamp) {
        span = scale
        turned += angleDelta * .pi / 180
        centroidOffset += moved
        travel = max(travel, centroidOffset.length)
        velocityTracker.add(Point(x: span, y: turned), at: time)
    }

    /// How far each finger has moved toward or away from the others: half the change of
    /// the span, in its unit.
    var radialMovement: Double { abs(span - startSpan) / 2 }

    /// How far each finger has moved around the others: the arc of the turn at the
    /// current radius (half the span), in the span's unit. Comparable with
    /// ``radialMovement``: on a touchpad both are fractions of the starting distance.
    var arcMovement: Double { abs(turned) * span / 2 }

    /// Scale relative to the origin a caller set (1 at the start). Setting it makes the
    /// spread now read the new value, and scale on from there.
    var scale: Double {
        get { spanBase > 0 ? scaleBase * span / spanBase : 1 }
        set {
            scaleBase = newValue
            spanBase = span
        }
    }
    /// Rotation in radians relative to the origin a caller set (0 at the start). Setting
    /// it makes the turn so far read the new value, and turn on from there.
    var rotation: Double {
        get { rotationBase + turned - turnedBase }
        set {
            rotationBase = newValue
            turnedBase = turned
        }
    }
    /// How fast ``scale`` changes, per second.
    var scaleVelocity: Double { spanBase > 0 ? scaleBase * velocityTracker.velocity.x / spanBase : 0 }
    /// How fast the fingers turn, in radians per second.
    var rotationVelocity: Double { velocityTracker.velocity.y }

    private static func geometry(_ points: [Point]) -> (span: Double, angles: [Double]) {
        guard !points.isEmpty else { return (0, []) }
        var centre = Point.zero
        for point in points { centre += point }
        centre = centre / Double(points.count)
        var distance = 0.0
        var angles: [Double] = []
        angles.reserveCapacity(points.count)
        for point in points {
            let offset = point - centre
            distance += offset.length
            angles.append(Double.atan2(y: offset.y, x: offset.x))
        }
        return (2 * distance / Double(points.count), angles)
    }
}
