/// Follows two fingers turning, as UIKit's `UIRotationGestureRecognizer`.
///
/// Continuous. Accepts two touchscreen fingers and touchpad pinches (libinput reports
/// a pinch's rotation as an angle delta in degrees, clockwise positive).
open class RotationGestureRecognizer: TwoFingerGestureRecognizer {
    /// Radians the fingers must turn to begin.
    public var threshold = GestureDefaults.rotationThreshold

    private var rotationBase = 0.0
    private var angleBase = 0.0
    private var velocityTracker = VelocityTracker()

    open override var kindName: String { "rotation" }

    /// Radians turned since the fingers landed, clockwise positive (y grows downward).
    /// Settable: set it to 0 to measure increments between actions.
    public var rotation: Double {
        get { rotationBase + currentAngle - angleBase }
        set {
            rotationBase = newValue
            angleBase = currentAngle
        }
    }

    /// Radians per second over the last ~100 ms.
    public var velocity: Double { velocityTracker.velocity.x }

    open override func hasPassedThreshold(touchpad: Bool) -> Bool {
        abs(currentAngle - startAngle) > threshold
    }

    open override func trackingStarted(at time: Timestamp) {
        rotationBase = 0
        angleBase = startAngle
        velocityTracker.removeAll()
        velocityTracker.add(.zero, at: time)
    }

    open override func measured(at time: Timestamp) {
        velocityTracker.add(Point(x: rotation, y: 0), at: time)
    }

    open override func reset() {
        super.reset()
        rotationBase = 0
        angleBase = 0
        velocityTracker.removeAll()
    }
}
