/// Why input could not be opened, phrased for the user who has to fix it.
public enum InputError: Error, Sendable, CustomStringConvertible {
    case noUdev
    case seat(String)
    case permission(path: String)
    case cannotOpen(path: String, reason: String)
    case noContext

    public var description: String {
        switch self {
        case .noUdev:
            "cannot talk to udev (udev_new failed); is /run/udev there?"
        case let .seat(seat):
            "cannot use seat '\(seat)': libinput could not assign it (does the seat exist? see loginctl seat-status)"
        case let .permission(path):
            "no permission to read \(path). touchgest reads input devices directly, so your user must be in the 'input' group (sudo usermod -aG input $USER, then log in again). Membership lets every program you run read every keystroke, so weigh it; or run touchgest as a user that has it."
        case let .cannotOpen(path, reason):
            "cannot open \(path): \(reason)"
        case .noContext:
            "libinput could not create a context"
        }
    }
}
