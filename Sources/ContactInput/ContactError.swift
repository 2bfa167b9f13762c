import Glibc

/// Why the contact reader cannot read a touchpad's fingers.
public enum ContactError: Error, Equatable, CustomStringConvertible {
    /// The node could not be opened (most often: no permission).
    case cannotOpen(path: String, errno: Int32)
    /// libevdev does not take the node as an evdev device.
    case notEvdev(path: String, errno: Int32)
    /// The device reports no position axes.
    case noPosition(path: String)

    public var description: String {
        switch self {
        case let .cannotOpen(path, code) where code == EACCES || code == EPERM:
            "cannot read the fingers on \(path): permission denied; 4- and 5-finger taps, edge swipes and a semi-MT pad's taps need read access to it (see the README: the uaccess udev rule or the input group)"
        case let .cannotOpen(path, code):
            "cannot read the fingers on \(path): \(String(cString: strerror(code)))"
        case let .notEvdev(path, code):
            "cannot read the fingers on \(path): libevdev does not take it (\(String(cString: strerror(code))))"
        case let .noPosition(path):
            "cannot read the fingers on \(path): it reports no position axes"
        }
    }
}
