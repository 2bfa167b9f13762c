/// The families of touchpad gesture libinput recognizes itself.
public enum TouchpadGestureKind: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// GESTURE_SWIPE: fingers moving together.
    case swipe
    /// GESTURE_PINCH: fingers spreading, closing or turning.
    case pinch
    /// GESTURE_HOLD: fingers resting still.
    case hold
    /// Tap-to-click: a 1-, 2- or 3-finger tap.
    case tap

    public var description: String {
        switch self {
        case .swipe: "swipe"
        case .pinch: "pinch"
        case .hold: "hold"
        case .tap: "tap"
        }
    }
}

/// One touchpad gesture event, as libinput reports it.
///
/// Deltas are unaccelerated and converted to millimetres (libinput's 1000-dpi units
/// times 0.0254). `y` grows downward.
public enum TouchpadGesture: Hashable, Sendable {
    case swipeBegin(fingers: Int)
    case swipeUpdate(fingers: Int, delta: Point)
    case swipeEnd(fingers: Int, cancelled: Bool)
    /// `scale` is absolute since the pinch began (1 at its start); `angleDelta` is the
    /// change in degrees since the previous update, clockwise positive, as libinput gives it.
    case pinchBegin(fingers: Int)
    case pinchUpdate(fingers: Int, delta: Point, scale: Double, angleDelta: Double)
    case pinchEnd(fingers: Int, cancelled: Bool)
    case holdBegin(fingers: Int)
    case holdEnd(fingers: Int, cancelled: Bool)
    /// A completed tap; libinput has already judged its duration and movement.
    case tap(fingers: Int)

    /// The gesture family.
    public var kind: TouchpadGestureKind {
        switch self {
        case .swipeBegin, .swipeUpdate, .swipeEnd: .swipe
        case .pinchBegin, .pinchUpdate, .pinchEnd: .pinch
        case .holdBegin, .holdEnd: .hold
        case .tap: .tap
        }
    }

    /// The number of fingers on the touchpad.
    public var fingers: Int {
        switch self {
        case let .swipeBegin(fingers), let .swipeUpdate(fingers, _), let .swipeEnd(fingers, _),
             let .pinchBegin(fingers), let .pinchUpdate(fingers, _, _, _), let .pinchEnd(fingers, _),
             let .holdBegin(fingers), let .holdEnd(fingers, _), let .tap(fingers):
            fingers
        }
    }

    /// Whether this event starts a gesture (a tap starts and ends one at once).
    public var isBegin: Bool {
        switch self {
        case .swipeBegin, .pinchBegin, .holdBegin, .tap: true
        case .swipeUpdate, .swipeEnd, .pinchUpdate, .pinchEnd, .holdEnd: false
        }
    }

    /// Whether this event ends a gesture (a tap starts and ends one at once).
    public var isEnd: Bool {
        switch self {
        case .swipeEnd, .pinchEnd, .holdEnd, .tap: true
        case .swipeBegin, .swipeUpdate, .pinchBegin, .pinchUpdate, .holdBegin: false
        }
    }
}

/// A touchpad gesture event with its time and device.
public struct TouchpadEvent: Hashable, Sendable, CustomStringConvertible {
    public var gesture: TouchpadGesture
    public var timestamp: Timestamp
    public var device: DeviceID
    /// For a tap: when its fingers landed (libinput stamps the tap's button press with
    /// it), while ``timestamp`` is when they lifted and the tap was delivered. nil for
    /// other gestures and when not known.
    public var fingersDown: Timestamp?
    /// The modifier keys held at the event, as far as the input adapter knows them.
    public var modifierFlags: KeyModifierFlags = []
    /// The buttons held at the event (a clickpad pressed down), as far as the input adapter
    /// knows them.
    public var buttonMask: EventButtonMask = []

    /// Makes an event.
    public init(_ gesture: TouchpadGesture, timestamp: Timestamp, device: DeviceID = DeviceID(0)) {
        self.gesture = gesture
        self.timestamp = timestamp
        self.device = device
    }

    /// Makes an event that knows when its fingers landed (a tap).
    public init(_ gesture: TouchpadGesture, timestamp: Timestamp, device: DeviceID, fingersDown: Timestamp?) {
        self.init(gesture, timestamp: timestamp, device: device)
        self.fingersDown = fingersDown
    }

    /// A short form for logs, e.g. `swipe-update 3f -12.0,0.0`.
    public var description: String {
        switch gesture {
        case let .swipeBegin(f): "swipe-begin \(f)f"
        case let .swipeUpdate(f, d): "swipe-update \(f)f \(d)"
        case let .swipeEnd(f, c): "swipe-end \(f)f\(c ? " cancelled" : "")"
        case let .pinchBegin(f): "pinch-begin \(f)f"
        case let .pinchUpdate(f, _, s, a): "pinch-update \(f)f scale \(fixedDecimals(s, 3)) angle \(fixedDecimals(a, 1))"
        case let .pinchEnd(f, c): "pinch-end \(f)f\(c ? " cancelled" : "")"
        case let .holdBegin(f): "hold-begin \(f)f"
        case let .holdEnd(f, c): "hold-end \(f)f\(c ? " cancelled" : "")"
        case let .tap(f): "tap \(f)f"
        }
    }
}

/// Everything the input adapter hands the engine.
public enum InputEvent: Sendable {
    case touches(TouchEvent)
    case touchpad(TouchpadEvent)

    /// When the event happened.
    public var timestamp: Timestamp {
        switch self {
        case let .touches(event): event.timestamp
        case let .touchpad(event): event.timestamp
        }
    }

    /// The modifier keys held at the event; set by whoever knows them better than the
    /// adapter that made the event (the daemon, from the desktop).
    public var modifierFlags: KeyModifierFlags {
        get {
            switch self {
            case let .touches(event): event.modifierFlags
            case let .touchpad(event): event.modifierFlags
            }
        }
        set {
            switch self {
            case var .touches(event):
                event.modifierFlags = newValue
                self = .touches(event)
            case var .touchpad(event):
                event.modifierFlags = newValue
                self = .touchpad(event)
            }
        }
    }

    /// The buttons held at the event.
    public var buttonMask: EventButtonMask {
        switch self {
        case let .touches(event): event.buttonMask
        case let .touchpad(event): event.buttonMask
        }
    }
}
