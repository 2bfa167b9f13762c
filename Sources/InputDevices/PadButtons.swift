import TouchGestures

/// The buttons of a touchpad (a clickpad's press, a pointing stick's buttons on the same
/// device) by evdev code (linux/input-event-codes.h), and the ``EventButtonMask`` each
/// holds while down: the one table libinput's events and the finger reader both read.
public enum PadButtons {
    public static let codes: [(code: UInt32, mask: EventButtonMask)] = [
        (0x110, .primary),              // BTN_LEFT
        (0x111, .secondary),            // BTN_RIGHT
        (0x112, EventButtonMask.button(3)!),  // BTN_MIDDLE
    ]

    /// The mask of button `code`; nil for a code that is none of them.
    public static func mask(_ code: UInt32) -> EventButtonMask? {
        codes.first { $0.code == code }?.mask
    }
}
