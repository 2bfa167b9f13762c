/// Every tunable of the engine, with its unit and why it has this value.
///
/// Recognizers copy these when they are made; change a recognizer's own property to
/// tune one recognizer. No recognizer holds a bare number.
public enum GestureDefaults {
    /// Millimetres a finger may drift and still tap: a resting fingertip on glass
    /// wobbles 1-2 mm, a deliberate move is more than 4.
    public static let tapSlop = 4.0
    /// Longest touch that still counts as a tap: libinput's own touchpad tap timeout is
    /// 180 ms; touchscreen taps run longer, so leave room.
    public static let maximumTapDuration: Duration = .milliseconds(350)
    /// Longest pause between the taps of a double or triple tap, from the lift of one to
    /// the touch of the next: the desktop's double-click time as GTK, Qt, GNOME and KDE
    /// ship it (400 ms). People's double taps on a desktop keep its rhythm, and 300-320 ms
    /// gaps between taps, as the sensor reports them, are common (Android allows 300).
    public static let maximumTapInterval: Duration = .milliseconds(400)
    /// Longest libinput takes to report a touchpad tap after its fingers land: its tap
    /// timeout, 180 ms. A multi-tap on a touchpad waits this much past the interval,
    /// since the next tap's fingers may have landed in time but not been reported yet.
    public static let touchpadTapDecisionDelay: Duration = .milliseconds(180)
    /// How long after a touchpad tap's first finger lands its movement is forgiven while
    /// the other fingers land: a real semi-MT ALPS pad reports its first contact sliding
    /// 5-6 mm toward the second finger in the ~100 ms before that one lands (issue 40),
    /// while the fingers of a tap otherwise land within about 60 ms of each other.
    public static let fingerGatherWindow: Duration = .milliseconds(150)
    /// Millimetres between the taps of a multi-tap: a second tap a finger-width away is
    /// the same target, one further away is a new one.
    public static let multiTapSlop = 10.0
    /// How long fingers must rest before a long-press begins: UIKit's 0.5 s.
    public static let minimumPressDuration: Duration = .milliseconds(500)
    /// Millimetres fingers may move before a long-press begins: the tap slop, since a
    /// press is a tap that lasts.
    public static let allowableMovement = 4.0
    /// Millimetres fingers may drift at a steady speed (``steadyDriftSpeed``) before a
    /// long-press begins: UIKit and Android let a press move 1.3-1.9 mm. A drag at 12 mm/s
    /// that starts slowly has moved under the 4 mm slop at 500 ms, and is no press.
    public static let steadyDriftDistance = 1.5
    /// Speed in mm/s at which fingers drifting ``steadyDriftDistance`` are dragging, not
    /// pressing: slow drags move at 10 mm/s and more; a pressing finger creeps at 2-5 mm/s
    /// and its tremor goes back and forth.
    public static let steadyDriftSpeed = 6.0
    /// How long after libinput cancels a touchpad hold a swipe may begin and carry the
    /// press on: libinput begins it in the same frame, at the same timestamp, and the next
    /// frame comes milliseconds later. One microsecond: the end of that frame.
    public static let holdHandoverWindow: Duration = .microseconds(1)
    /// How long after fingers press a long-press measures their drift from where they are
    /// then, not from where they landed: a fingertip settles on glass as it lands, and a
    /// real two-finger rest slid about 2 mm at about 10 mm/s in its first ~190 ms before it
    /// stayed (issue 40). A slow drag goes on past it and is still a drag by 500 ms.
    public static let landingSettleTime: Duration = .milliseconds(200)
    /// How far back a press's drift speed looks: what 1.5 mm takes at 6 mm/s, long
    /// enough that tremor (8-12 Hz) averages out.
    public static let steadyDriftWindow: Duration = .milliseconds(250)
    /// Millimetres a touchscreen swipe must travel: past a tap's wobble (under 4 mm) with
    /// room to spare, short enough for the 10 mm flicks people make with a thumb.
    public static let swipeMinimumDistance = 9.0
    /// Millimetres a touchpad swipe must travel in libinput's deltas: a quick 10 mm flick
    /// reports 8-9 mm once libinput has taken the start to decide it is a swipe, and
    /// resting fingers wobble less than 5 mm.
    public static let touchpadSwipeMinimumDistance = 7.0
    /// Millimetres a flick must travel: a swipe this short counts when it is quick
    /// (``flickMinimumVelocity``). A 3- or 4-finger flick of 8-10 mm reports 5.5-8 mm once
    /// libinput has taken the start (docs/recognition.md); resting fingers wobble slowly,
    /// and a tap rolls under 2 mm.
    public static let flickMinimumDistance = 5.0
    /// Recent speed in mm/s that makes a short swipe a flick: a flick of 8-10 mm in 40-80 ms
    /// moves at 150-400 mm/s when it has gone 5 mm, the wobble of resting fingers at under
    /// 40 mm/s, and a drag at 10-30.
    public static let flickMinimumVelocity = 80.0
    /// Degrees either side of a boundary between two directions where a swipe waits before
    /// it says which way it went (half of that with diagonals, whose sectors are half
    /// as wide): the fingers of a strongly curved swipe (an arc whose sagitta is 30% of its
    /// chord) are still 47-55 degrees off its chord when it has gone far enough; they turn
    /// toward the chord as they go on, or the lift settles it by where they ended.
    public static let swipeDirectionMargin = 12.0
    /// Recent speed in mm/s a swipe must have when it crosses its distance, used only when
    /// a drag (pan) competes for the same fingers. A minimum-jerk swipe of 40 mm over a
    /// whole second still moves at about 55 mm/s when it crosses 9 mm; the slow drags in
    /// the corpus (docs/recognition.md) move at 15-30 mm/s.
    public static let swipeMinimumVelocity = 50.0
    /// Millimetres a pan must move before it begins, so a tap is not also a pan.
    public static let panSlop = 3.0
    /// Millimetres the distance between two fingers must change before a pinch begins.
    public static let pinchSlop = 4.0
    /// Relative scale change before a touchpad pinch begins (libinput reports scale, not distance).
    public static let touchpadPinchThreshold = 0.05
    /// Scale change a pinch needs besides its threshold per millimetre its fingers'
    /// centroid has travelled (on a touchscreen, of the span it started with). Two fingers
    /// scrolling drift apart or together as they go, and libinput reports a sloppy scroll
    /// as a pinch of scale 0.93-1.07 over 15-50 mm; a pinch made as the hand moves changes
    /// scale by 0.35-0.6 over 10-30 mm.
    public static let pinchTravelAllowance = 0.006
    /// Radians two fingers must turn before a rotation begins: about 8.6 degrees, more
    /// than the twist of an ordinary pinch.
    public static let rotationThreshold = 0.15
    /// How many times the other change a pinch's or a rotation's own must be before it
    /// begins, when the two compete for the same fingers: each finger's radial movement
    /// (half the change of the spread) against its arc at the current radius. The gap of a
    /// turning thumb and index swells by 3-8% as a slow turn starts, enough for a pinch's
    /// 5% before the turn has gone 3 degrees; once the turn has gone on, its arc is several
    /// times the swell. Just more than the other is enough: on the corpus, twice as much
    /// decides the same.
    public static let pinchRotationDominance = 1.0
    /// Millimetres from a screen edge where an edge pan must start: a fingertip is about
    /// 8 mm wide, so most of it still lands on the glass.
    public static let edgeZoneWidth = 8.0
    /// How far back velocities look: long enough to smooth libinput's ~7 ms frames,
    /// short enough to follow a change of speed.
    public static let velocityWindow: Duration = .milliseconds(100)
}
