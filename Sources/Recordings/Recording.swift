import InputDevices
import TouchGestures

/// touchgest's recording format: text, one event a line, times in microseconds from the
/// first event. What libinput handed over, normalized, so a replay sees what the live
/// engine saw.
///
///     # touchgest recording 1
///     device 1 touchpad 100.000 70.000 DLL075B:01 06CB:76AF Touchpad
///     0 touchpad 1 swipe-begin 3
///     8123 touchpad 1 swipe-update 3 -1.1234 0.0000
///     9000 touchpad 1 pinch-update 2 0.0000 0.0000 1.2500 -3.0000
///     20000 touches 2 5:down:150.000:100.000 6:move:120.500:80.000
///     25000 held 2 super 1
///     30000 removed 1
///
/// `held DEVICE MODIFIERS BUTTONS`: from this line on, that device's events are made with
/// these modifier keys and buttons held (`ctrl+shift`, `1+3`, `none`); before a device's
/// first, none. Which other keys were pressed is never recorded: touchgest never knows.
///
/// `touches` of a touchscreen are its contacts; of a touchpad, its fingers as the contact
/// reader read them (`touchgest record --fingers`), millimetres on the pad.
///
/// Lines starting with `#` are comments, of any length; blank lines are skipped. A
/// `device` line has no time of its own: it takes effect at the latest time read before
/// it. Every other line is `TIME KIND DEVICE ...`. Times may go back a little: libinput
/// dates a tap at its first touch, after the hold events that touch started.
/// `RecordingLimits` holds every bound a value must keep.
public enum Recording {
    /// What a `held` line says a device's events hold.
    public struct Held: Hashable, Sendable {
        public var modifiers: KeyModifierFlags = []
        public var buttons: EventButtonMask = []
    }

    /// The first line of every recording.
    public static let header = "# touchgest recording 1"

    /// Replays start one second in, so that no timestamp is near zero.
    public static let replayStart = Timestamp(microseconds: 1_000_000)

    /// The words after `touchpad DEVICE` for a touchpad gesture.
    public static func encode(_ gesture: TouchpadGesture) -> String {
        func number(_ value: Double) -> String { fixedDecimals(value, 4) }
        switch gesture {
        case let .swipeBegin(f): return "swipe-begin \(f)"
        case let .swipeUpdate(f, d): return "swipe-update \(f) \(number(d.x)) \(number(d.y))"
        case let .swipeEnd(f, c): return "swipe-end \(f) \(c ? 1 : 0)"
        case let .pinchBegin(f): return "pinch-begin \(f)"
        case let .pinchUpdate(f, d, s, a): return "pinch-update \(f) \(number(d.x)) \(number(d.y)) \(number(s)) \(number(a))"
        case let .pinchEnd(f, c): return "pinch-end \(f) \(c ? 1 : 0)"
        case let .holdBegin(f): return "hold-begin \(f)"
        case let .holdEnd(f, c): return "hold-end \(f) \(c ? 1 : 0)"
        case let .tap(f): return "tap \(f)"
        }
    }
}

/// The bounds every value in a recording must keep. They are far beyond what libinput
/// reports, and near enough that no arithmetic on them overflows, traps or runs long.
public enum RecordingLimits {
    /// The longest line, in bytes, newline not counted. Comment lines may be longer:
    /// they are skipped without being kept. A real `touches` line with 10 fingers is
    /// about 250 bytes; a device name at most 255.
    public static let maximumLineLength = 4_096
    /// The latest event time, in microseconds from the first event: 10^12 us, about
    /// 11.6 days. Timestamps and timer deadlines stay far from UInt64 and Int64 overflow.
    public static let maximumTime: UInt64 = 1_000_000_000_000
    /// How far, in microseconds, an event's time may be before the latest time read so
    /// far: 1 s. libinput dates a tap's button press at the tap's first touch, which
    /// comes after the hold events of that touch (tour.tgrec: 60 ms back); a tap
    /// longer than libinput's tap timeout (180 ms) is no tap.
    public static let maximumStepBack: UInt64 = 1_000_000
    /// Fingers of a touchpad gesture: libinput reports 1 to 5.
    public static let fingers = 1...5
    /// The largest pinch scale, a ratio to the fingers' distance when the pinch began
    /// (libinput's absolute scale); it must also be greater than 0. Bounds the steps a
    /// stepped pinch rule can fire for one update.
    public static let maximumScale = 100.0
    /// The largest magnitude of a swipe or pinch delta, in libinput's unaccelerated
    /// units (about 10.5 a millimetre), per update.
    public static let maximumDelta = 10_000.0
    /// The largest magnitude of a pinch's angle delta, in degrees, per update.
    public static let maximumAngleDelta = 360.0
    /// The largest magnitude of a touch coordinate, and the largest device width or
    /// height, in millimetres (10 m).
    public static let maximumCoordinate = 10_000.0
    /// Devices present at once.
    public static let maximumDevices = 64
    /// Touches down at once on one device (touchscreens track at most 10 to 20).
    public static let maximumTouchesDown = 32
}
