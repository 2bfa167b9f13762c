/// What the environment keeps of one recognizer while it follows a gesture: its
/// touches, the device, the transitions it holds back while it waits for others to fail,
/// its timer. The environment owns it; a reset replaces it whole, so no field of one
/// gesture can be forgotten into the next.
///
/// A class, and every field without dynamic exclusivity checks: the engine runs on one
/// thread and never holds two accesses at once, and the checks cost a fifth of a frame
/// (EngineBenchmark: 1.49 us a frame with them off, 1.74 us on). A struct field of the
/// recognizer marked `@exclusivity(unchecked)` was tried first: Swift 6.3's debug build
/// then lost an action call (WindowRuleTests' general-rule test), so it is not used.
final class ArbitrationRecord {
    /// The touches bound to the recognizer, by id.
    @exclusivity(unchecked) var touchIDs: [Int] = []
    /// Whether it follows the current gesture (bound touches, or a touchpad gesture).
    @exclusivity(unchecked) var isTracking = false
    /// Transitions it asked for while waiting for recognizers it requires to fail.
    @exclusivity(unchecked) var pending: [GestureRecognizerState] = []
    @exclusivity(unchecked) var timerToken: TimerToken?
    /// The timer's name, for the transition log's cause.
    @exclusivity(unchecked) var timerName = ""
    /// Fingers of the touchpad gesture it follows; 0 for none.
    @exclusivity(unchecked) var touchpadFingers = 0
    /// Where a touchpad gesture has taken it, in millimetres from its start.
    @exclusivity(unchecked) var touchpadOffset = Point.zero
    /// The kind of device the recognizer follows in this sequence: one at a time.
    @exclusivity(unchecked) var trackedType: TouchType?
    /// The device the recognizer's first touch (or touchpad gesture) came from in this sequence.
    @exclusivity(unchecked) var trackedDevice: DeviceID?
    /// Where the recognizer's touches were, and how many, when it last held its most
    /// touches: what a recognition delivered after the fingers lifted reports.
    @exclusivity(unchecked) var lifted = LiftedTouches()
    /// Which gesture of the sequence the recognizer follows: the environment numbers each
    /// landing after all fingers lifted. A late decision about one gesture never excludes
    /// recognizers of the next.
    @exclusivity(unchecked) var gesture = 0

    struct LiftedTouches {
        var count = 0
        var location = Point.zero
        var normalizedLocation = Point.zero
    }

    init(gesture: Int = 0) {
        self.gesture = gesture
    }
}
