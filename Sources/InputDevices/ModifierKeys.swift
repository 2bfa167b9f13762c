import TouchGestures

/// The modifier keys of the keyboards touchgest reads, and the set they hold: the one
/// place that knows which keys are modifiers. A key that is not one is refused by
/// ``isModifier(_:)`` before anything keeps it.
public struct ModifierKeys: Sendable {
    /// The evdev key codes of the modifiers (linux/input-event-codes.h) and the flag each
    /// holds while down: left and right Ctrl, Shift, Alt and Super (Meta).
    static let held: [UInt32: KeyModifierFlags] = [
        29: .control, 97: .control,       // KEY_LEFTCTRL, KEY_RIGHTCTRL
        42: .shift, 54: .shift,           // KEY_LEFTSHIFT, KEY_RIGHTSHIFT
        56: .alternate, 100: .alternate,  // KEY_LEFTALT, KEY_RIGHTALT
        125: .command, 126: .command,     // KEY_LEFTMETA, KEY_RIGHTMETA
    ]
    /// KEY_CAPSLOCK: a lock, turned on and off by its presses, not held.
    static let capsLock: UInt32 = 58

    /// Whether `code` is one of the modifier keys (Caps Lock included).
    public static func isModifier(_ code: UInt32) -> Bool { code == capsLock || held[code] != nil }

    /// The modifier keys down, by keyboard: at most nine codes each.
    private var down: [Int: Set<UInt32>] = [:]
    // One lock for the seat, as the desktop keeps it (xkb's state is the seat's): a press
    // on any keyboard turns it over, and it outlives the keyboard that set it. Off at start:
    // libinput tells no key's state before its first press.
    private var locked = false

    /// The modifiers held on all keyboards together, and Caps Lock when it is on.
    public private(set) var flags: KeyModifierFlags = []

    public init() {}

    /// A modifier key of `keyboard` went down or up; whether ``flags`` changed. Keys that are
    /// not modifiers change nothing.
    public mutating func key(_ code: UInt32, pressed: Bool, keyboard: Int) -> Bool {
        if code == Self.capsLock {
            if pressed { locked.toggle() }
        } else if Self.held[code] != nil {
            if pressed { down[keyboard, default: []].insert(code) } else { down[keyboard]?.remove(code) }
        }
        return update()
    }

    /// `keyboard` went away: the keys it held are up; whether ``flags`` changed.
    public mutating func remove(keyboard: Int) -> Bool {
        down[keyboard] = nil
        return update()
    }

    private mutating func update() -> Bool {
        var now: KeyModifierFlags = locked ? .alphaShift : []
        for codes in down.values {
            for code in codes { now.formUnion(Self.held[code] ?? []) }
        }
        defer { flags = now }
        return now != flags
    }
}
