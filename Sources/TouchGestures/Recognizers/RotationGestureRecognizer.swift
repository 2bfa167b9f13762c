/// Follows fingers turning, as UIKit's `UIRotationGestureRecognizer`.
///
/// Continuous. Accepts ``numberOfTouchesRequired`` touchscreen fingers (two by default)
/// and touchpad pinches (libinput reports a pinch's rotation as an angle delta in degrees,
/// clockwise positive).
open class RotationGestureRecognizer: TwoFingerGestureRecognizer {
    /// Radians the fingers must turn to begin.
    public var threshold = GestureDefaults.rotationThreshold
    /// How many times the fingers' spreading (each finger's radial movement) their turning
    /// (each finger's arc) must be before the rotation begins, when a pinch competes for the
    /// same fingers (``GestureDefaults/pinchRotationDominance``); 0, the default, compares
    /// nothing.
    public var dominance = 0.0

    open override var kindName: String { "rotation" }

    /// Radians turned since the fingers landed, clockwise positive (y grows downward).
    /// Settable: set it to 0 to measure increments between actions.
    public var rotation: Double {
        get { spread?.rotation ?? 0 }
        set { updateSpread { $0.rotation = newValue } }
    }

    /// Radians per second over the last ~100 ms.
    public var velocity: Double { spread?.rotationVelocity ?? 0 }

    open override func hasPassedThreshold(touchpad: Bool) -> Bool {
        guard let spread else { return false }
        return abs(spread.turned) > threshold && spread.arcMovement >= dominance * spread.radialMovement
    }
}
