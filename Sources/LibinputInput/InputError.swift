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
            "no permission to read \(path). touchgest reads input devices directly. Either install touchgest's udev rule (make install puts 70-touchgest.rules in place), which lets the user of the active seat read touchpads and touchscreens and nothing else; or join the 'input' group (sudo usermod -aG input $USER, then log in again), which lets every program you run read every input device, keystrokes included. See the README."
        case let .cannotOpen(path, reason):
            "cannot open \(path): \(reason)"
        case .noContext:
            "libinput could not create a context"
        }
    }
}
