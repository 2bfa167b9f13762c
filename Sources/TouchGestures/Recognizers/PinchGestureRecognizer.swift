/// Follows fingers spreading or closing, as UIKit's `UIPinchGestureRecognizer`.
///
/// Continuous. Accepts ``numberOfTouchesRequired`` touchscreen fingers (two by default)
/// and touchpad pinches (libinput's GESTURE_PINCH, whose absolute scale it uses as given).
open class PinchGestureRecognizer: TwoFingerGestureRecognizer {
    /// Millimetres the spread of touchscreen fingers must change to begin.
    public var slop = GestureDefaults.pinchSlop
    /// Relative scale change a touchpad pinch needs to begin.
    public var touchpadThreshold = GestureDefaults.touchpadPinchThreshold

    open override var kindName: String { "pinch" }

    /// The spread of the fingers relative to when they landed (above 1: spread apart).
    /// Settable: set it to 1 to measure increments between actions.
    public var scale: Double {
        get { spread?.scale ?? 1 }
        set {
            updateSpread { spread in
                spread.scaleBase = newValue
                spread.spanBase = spread.span
            }
        }
    }

    /// How fast the scale changes, per second, over the last ~100 ms.
    public var velocity: Double { spread?.scaleVelocity ?? 0 }

    open override func hasPassedThreshold(touchpad: Bool) -> Bool {
        guard let spread else { return false }
        let change = abs(spread.span - spread.startSpan)
        return touchpad ? change >= touchpadThreshold : change > slop
    }
}
