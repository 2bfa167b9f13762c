import TouchGestures

/// A touch device touchgest can use.
public struct InputDevice: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case touchpad, touchscreen
    }

    /// How ``InputDevice/size`` was found, most trusted first.
    public enum SizeSource: String, Sendable {
        /// The user stated it (`StatedDeviceSize` in TextWire).
        case user
        /// The axes' resolution: the kernel's, a udev hwdb `EVDEV_ABS_*` override udev
        /// applied, or a libinput quirk (`AttrResolutionHint`, `AttrSizeHint`).
        case resolution
        /// udev properties: `ID_INPUT_WIDTH_MM`/`ID_INPUT_HEIGHT_MM`, or the resolution
        /// field of `EVDEV_ABS_00`/`EVDEV_ABS_01` that udev did not apply.
        case udev
        /// Nothing said: a typical density for touchscreens
        /// (``LibinputContext/assumedUnitsPerMillimetre``), libinput's own guess for touchpads.
        case assumed
    }

    public var id: DeviceID
    /// libinput's name for it, e.g. `DLL075B:01 06CB:76AF Touchpad`.
    public var name: String
    /// `/dev/input/eventN`.
    public var node: String
    public var kind: Kind
    /// Width and height in millimetres; nil only when nothing at all is known.
    public var size: Size?
    /// Where ``size`` came from; nil with no size.
    public var sizeSource: SizeSource?
    /// Simultaneous touches a touchscreen tracks; nil when libinput does not say (touchpads).
    public var slots: Int?
    /// Fingers tap-to-click recognizes (touchpads; 0 on touchscreens).
    public var tapFingers: Int
    /// Whether libinput reports swipe, pinch and hold gestures for this touchpad (false on
    /// touchscreens, and on touchpads that only tap, such as semi-MT ones).
    public var hasGestures: Bool
    /// Whether the kernel marks the touchpad semi-MT (`INPUT_PROP_SEMI_MT`): its two
    /// positions are the corners of a box around the fingers, not the fingers.
    public var isSemiMultitouch: Bool

    public init(id: DeviceID, name: String, node: String, kind: Kind, size: Size?, sizeSource: SizeSource? = nil,
                slots: Int?, tapFingers: Int, hasGestures: Bool? = nil, isSemiMultitouch: Bool = false) {
        self.id = id
        self.name = name
        self.node = node
        self.kind = kind
        self.size = size
        self.sizeSource = size == nil ? nil : sizeSource ?? .resolution
        self.slots = slots
        self.tapFingers = tapFingers
        self.hasGestures = hasGestures ?? (kind == .touchpad)
        self.isSemiMultitouch = isSemiMultitouch
    }

    /// What touchgest can recognize on a touchpad that only taps, and why; nil otherwise.
    /// E.g. `taps with 1-3 fingers, taps read from its fingers; no swipe, pinch or hold:
    /// libinput gives this semi-MT pad no gestures`.
    public var tapsOnly: String? {
        guard kind == .touchpad, !hasGestures else { return nil }
        let fingers = tapFingers > 1 ? "1-\(tapFingers) fingers" : "1 finger"
        let why = isSemiMultitouch ? "libinput gives this semi-MT pad no gestures" : "libinput gives this pad no gestures"
        return "taps with \(fingers)\(fingerTaps); no swipe, pinch or hold: \(why)"
    }

    /// Where a semi-MT touchpad's taps come from: its fingers, since libinput takes its
    /// two-finger taps for scrolling (rules with the default source read them there).
    private var fingerTaps: String {
        isSemiMultitouch ? ", taps read from its fingers" : ""
    }

    public var description: String {
        var size = size.map { "\(fixedDecimals($0.width, 0))x\(fixedDecimals($0.height, 0))mm" } ?? "size unknown"
        switch sizeSource {
        case .resolution?, nil: break
        case .user?: size += " (stated)"
        case .udev?: size += " (from udev)"
        case .assumed?: size += " (assumed)"
        }
        let slots = slots.map { ", \($0) slots" } ?? ""
        let taps = tapsOnly.map { ", \($0)" } ?? (tapFingers > 0 ? ", taps up to \(tapFingers) fingers\(fingerTaps)" : "")
        return "\(node) \(kind.rawValue) \"\(name)\" \(size)\(slots)\(taps)"
    }
}

/// What the adapter reports.
public enum AdapterEvent: Sendable {
    case deviceAdded(InputDevice)
    case deviceRemoved(InputDevice)
    case input(InputEvent)
}

extension AdapterEvent {
    /// The one line the log of `touchgest run` and the text of `touchgest debug` give a
    /// device coming or going: `device added: /dev/input/event5 touchpad "NAME" ...`,
    /// `device removed: /dev/input/event5`; nil for input, which each shows its own way.
    public var line: String? {
        switch self {
        case let .deviceAdded(device): "device added: \(device)"
        case let .deviceRemoved(device): "device removed: \(device.node)"
        case .input: nil
        }
    }
}

/// The extent of a device axis from `minimum` to `maximum` in its raw units, computed
/// without overflow (a device may declare -1...Int32.max, whose width Int32 cannot
/// hold); nil for an axis that spans nothing or runs backwards.
public func axisExtent(minimum: Int32, maximum: Int32) -> Double? {
    guard maximum > minimum else { return nil }
    return Double(Int64(maximum) - Int64(minimum))
}
