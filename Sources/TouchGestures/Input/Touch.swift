/// Identifies an input device for the life of the process.
public struct DeviceID: Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int

    /// Wraps the adapter's device number.
    public init(_ rawValue: Int) {
        self.rawValue = rawValue
    }

    public var description: String { "device#\(rawValue)" }
}

/// How a touch reaches the user: on the screen under the finger, or on a touchpad.
public enum TouchType: Hashable, Sendable, CaseIterable {
    /// A touchscreen contact: absolute position under the finger.
    case direct
    /// A touchpad: libinput's gestures, or its contacts read beside libinput (see ``TouchpadInput``).
    case indirect
}

/// What a recognizer takes from a touchpad.
///
/// libinput never shows a touchpad's fingers, only its own gestures; touchgest's contact
/// reader reads the fingers beside it (read-only, from the same node) and delivers them
/// as ``TouchType/indirect`` touches. A recognizer takes one or the other from a pad,
/// never both, so one movement of the fingers is not seen twice.
public enum TouchpadInput: Hashable, Sendable, CaseIterable {
    /// libinput's touchpad gestures: swipe, pinch, hold and 1-3 finger taps.
    case gestures
    /// The fingers themselves, as indirect touches in millimetres on the pad.
    case contacts
    /// libinput's gestures, but the fingers of the touchpads whose gestures libinput
    /// cannot tell (``GestureEnvironment/fingerReadTouchpads``): on a semi-MT pad the
    /// first finger's position jumps when a second lands, and libinput takes a two-finger
    /// tap for scrolling.
    case automatic
}

/// Where a touch is in its life, as UIKit's `UITouch.Phase`.
public enum TouchPhase: String, Hashable, Sendable, CaseIterable {
    /// The raw value is UIKit's name of the phase, as `touchgest debug --json` shows it.
    case began, moved, stationary, ended, cancelled

    /// Whether the touch is gone after this phase.
    public var isTerminal: Bool { self == .ended || self == .cancelled }

    /// The finger's word for it, as recordings and `touchgest debug` write a touch:
    /// `down`, `move` (a stationary touch did not move, but it is no other word), `up`,
    /// `cancel`.
    public var word: String {
        switch self {
        case .began: "down"
        case .moved, .stationary: "move"
        case .ended: "up"
        case .cancelled: "cancel"
        }
    }

    /// The phase a finger's word names; nil for any other word.
    public init?(word: String) {
        switch word {
        case "down": self = .began
        case "move": self = .moved
        case "up": self = .ended
        case "cancel": self = .cancelled
        default: return nil
        }
    }
}

/// One finger on a touchscreen (or, read by the contact reader, on a touchpad) at one moment.
public struct Touch: Hashable, Sendable, Identifiable {
    /// Stable for the touch's life, unique among live touches of the environment.
    public var id: Int
    /// What happened to the touch in the event that carries it.
    public var phase: TouchPhase
    /// Position in millimetres from the surface's top-left corner.
    public var location: Point
    /// Position as fractions 0...1 of the surface's width and height.
    public var normalizedLocation: Point
    /// Position in millimetres in the touch's previous event (equal to `location` when it began).
    public var previousLocation: Point
    /// When libinput saw this state of the touch.
    public var timestamp: Timestamp
    /// Touchscreen or touchpad.
    public var type: TouchType
    /// The device the touch is on.
    public var device: DeviceID
    /// The surface's size in millimetres.
    public var surfaceSize: Size

    /// Makes a touch; `normalizedLocation` is derived from `surfaceSize` when not given.
    public init(
        id: Int, phase: TouchPhase, location: Point, normalizedLocation: Point? = nil,
        previousLocation: Point? = nil, timestamp: Timestamp, type: TouchType = .direct,
        device: DeviceID = DeviceID(0), surfaceSize: Size = Size(width: 300, height: 200)
    ) {
        self.id = id
        self.phase = phase
        self.location = location
        self.normalizedLocation = normalizedLocation
            ?? Point(x: location.x / surfaceSize.width, y: location.y / surfaceSize.height)
        self.previousLocation = previousLocation ?? location
        self.timestamp = timestamp
        self.type = type
        self.device = device
        self.surfaceSize = surfaceSize
    }

    /// The touch's position in `space`.
    public func location(in space: CoordinateSpace) -> Point {
        switch space {
        case .millimetres: location
        case .normalized: normalizedLocation
        }
    }
}

/// One frame of touchscreen input: libinput's TOUCH_FRAME and what came before it.
public struct TouchEvent: Sendable {
    /// When the frame happened.
    public var timestamp: Timestamp
    /// Every touch that is down in this frame, including the ones that changed.
    public var allTouches: [Touch]
    /// The touches that began, moved, ended or were cancelled in this frame.
    public var changedTouches: [Touch]
    /// The modifier keys held at the frame, as far as the input adapter knows them.
    public var modifierFlags: KeyModifierFlags = []
    /// The buttons held at the frame, as far as the input adapter knows them.
    public var buttonMask: EventButtonMask = []

    /// Makes a frame. Touches that ended or were cancelled belong in both lists.
    public init(timestamp: Timestamp, allTouches: [Touch], changedTouches: [Touch]) {
        self.timestamp = timestamp
        self.allTouches = allTouches
        self.changedTouches = changedTouches
    }

    /// The frame every input source builds the same way: the `changed` touches as they
    /// are, every other touch in `down` stationary where it was, in id order, then the
    /// touches that ended or were cancelled in it. `down` holds the touches still down
    /// after the frame (changed ones may be in it with their old state: the changed
    /// state wins). What libinput's adapter, the contact reader, recordings and the
    /// test generators hand the engine.
    public init(timestamp: Timestamp, down: some Sequence<Touch>, changed: [Touch]) {
        var all: [Touch] = []
        for touch in down {
            if let update = changed.first(where: { $0.id == touch.id }) {
                if !update.phase.isTerminal { all.append(update) }
            } else {
                var still = touch
                still.phase = .stationary
                still.previousLocation = touch.location
                all.append(still)
            }
        }
        for touch in changed where !touch.phase.isTerminal && !all.contains(where: { $0.id == touch.id }) {
            all.append(touch)
        }
        all.sort { $0.id < $1.id }
        all += changed.filter(\.phase.isTerminal)
        self.init(timestamp: timestamp, allTouches: all, changedTouches: changed)
    }
}
