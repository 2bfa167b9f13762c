/// Follows fingers spreading or closing, as UIKit's `UIPinchGestureRecognizer`.
///
/// Continuous. Accepts ``numberOfTouchesRequired`` touchscreen fingers (two by default)
/// and touchpad pinches (libinput's GESTURE_PINCH, whose absolute scale it uses as given).
open class PinchGestureRecognizer: TwoFingerGestureRecognizer {
    /// Millimetres the spread of touchscreen fingers must change to begin.
    public var slop = GestureDefaults.pinchSlop
    /// Relative scale change a touchpad pinch needs to begin.
    public var touchpadThreshold = GestureDefaults.touchpadPinchThreshold
    /// Scale change the pinch needs besides its threshold per millimetre its fingers'
    /// centroid has travelled: a change of spread the travel explains is no pinch.
    public var travelAllowance = GestureDefaults.pinchTravelAllowance
    /// How many times the fingers' turning (each finger's arc) their spreading (each
    /// finger's radial movement) must be before the pinch begins, when a rotation competes
    /// for the same fingers (``GestureDefaults/pinchRotationDominance``); 0, the default,
    /// compares nothing, so a pinch recognized together with a rotation begins on its own.
    public var dominance = 0.0

    open override var kindName: String { "pinch" }

    /// The spread of the fingers relative to when they landed (above 1: spread apart).
    /// Settable: set it to 1 to measure increments between actions.
    public var scale: Double {
        get { spread?.scale ?? 1 }
        set { updateSpread { $0.scale = newValue } }
    }

    /// How fast the scale changes, per second, over the last ~100 ms.
    public var velocity: Double { spread?.scaleVelocity ?? 0 }

    open override func hasPassedThreshold(touchpad: Bool) -> Bool {
        guard let spread else { return false }
        let change = abs(spread.span - spread.startSpan)
        // Two fingers scrolling drift apart or together as they travel; the allowance is a
        // scale per millimetre, so on a touchscreen it is taken of the starting span.
        let allowance = travelAllowance * spread.travel * (touchpad ? 1 : spread.startSpan)
        let passed = touchpad ? change >= touchpadThreshold + allowance : change > slop + allowance
        return passed && spread.radialMovement >= dominance * spread.arcMovement
    }
}
