/// Follows two fingers spreading or closing, as UIKit's `UIPinchGestureRecognizer`.
///
/// Continuous. Accepts two touchscreen fingers and touchpad pinches (libinput's
/// GESTURE_PINCH, whose absolute scale it uses as given).
open class PinchGestureRecognizer: TwoFingerGestureRecognizer {
    /// Millimetres the distance between two touchscreen fingers must change to begin.
    public var slop = GestureDefaults.pinchSlop
    /// Relative scale change a touchpad pinch needs to begin.
    public var touchpadThreshold = GestureDefaults.touchpadPinchThreshold

    private var scaleBase = 1.0
    private var spanBase = 1.0
    private var velocityTracker = VelocityTracker()

    open override var kindName: String { "pinch" }

    /// The distance between the fingers relative to when they landed (above 1: spread
    /// apart). Settable: set it to 1 to measure increments between actions.
    public var scale: Double {
        get { spanBase > 0 ? scaleBase * currentSpan / spanBase : 1 }
        set {
            scaleBase = newValue
            spanBase = currentSpan
        }
    }

    /// How fast the scale changes, per second, over the last ~100 ms.
    public var velocity: Double { velocityTracker.velocity.x }

    open override func hasPassedThreshold(touchpad: Bool) -> Bool {
        touchpad ? abs(currentSpan - startSpan) >= touchpadThreshold : abs(currentSpan - startSpan) > slop
    }

    open override func trackingStarted(at time: Timestamp) {
        scaleBase = 1
        spanBase = startSpan
        velocityTracker.removeAll()
        velocityTracker.add(Point(x: 1, y: 0), at: time)
    }

    open override func measured(at time: Timestamp) {
        velocityTracker.add(Point(x: scale, y: 0), at: time)
    }

    open override func reset() {
        super.reset()
        scaleBase = 1
        spanBase = 1
        velocityTracker.removeAll()
    }
}
