import TouchGestures

/// A touch device touchgest can use.
public struct InputDevice: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case touchpad, touchscreen
    }

    public var id: DeviceID
    /// libinput's name for it, e.g. `DLL075B:01 06CB:76AF Touchpad`.
    public var name: String
    /// `/dev/input/eventN`.
    public var node: String
    public var kind: Kind
    /// Width and height in millimetres, when the device reports its resolution.
    public var size: Size?
    /// Simultaneous touches a touchscreen tracks; nil when libinput does not say (touchpads).
    public var slots: Int?
    /// Fingers tap-to-click recognizes (touchpads; 0 on touchscreens).
    public var tapFingers: Int

    public init(id: DeviceID, name: String, node: String, kind: Kind, size: Size?, slots: Int?, tapFingers: Int) {
        self.id = id
        self.name = name
        self.node = node
        self.kind = kind
        self.size = size
        self.slots = slots
        self.tapFingers = tapFingers
    }

    public var description: String {
        let size = size.map { "\(fixedDecimals($0.width, 0))x\(fixedDecimals($0.height, 0))mm" } ?? "size unknown"
        let slots = slots.map { ", \($0) slots" } ?? ""
        let taps = tapFingers > 0 ? ", taps up to \(tapFingers) fingers" : ""
        return "\(node) \(kind.rawValue) \"\(name)\" \(size)\(slots)\(taps)"
    }
}

/// What the adapter reports.
public enum AdapterEvent: Sendable {
    case deviceAdded(InputDevice)
    case deviceRemoved(InputDevice)
    case input(InputEvent)
}
