import Glibc
import InputDevices
import PollLoop
import TouchGestures

/// Writes a recording as events arrive, to a file it creates itself: readable by its
/// owner only (mode 0600, a recording of a touchscreen can reveal what was typed on
/// it), never through a symbolic link, and never over an existing file unless asked.
public final class RecordingWriter {
    private let descriptor: Int32
    private var origin: Timestamp?
    /// What each device's events held, as the last `held` line said (none before one).
    private var held: [DeviceID: Recording.Held] = [:]

    /// Creates `path`. An existing file (or symbolic link) there is an error unless
    /// `replacing` is true; then a new file is made beside it and renamed over it, so a
    /// symbolic link is replaced, never written through.
    public init(path: String, replacing: Bool) throws(RecordingError) {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        var descriptor = open(path, flags, 0o600)
        if descriptor < 0 && errno == EEXIST {
            guard replacing else { throw .exists(path) }
            descriptor = try Self.replace(path)
        }
        guard descriptor >= 0 else { throw .cannotWrite(path, String(cString: strerror(errno))) }
        self.descriptor = descriptor
        line(Recording.header)
    }

    /// A new private file beside `path`, renamed over it.
    private static func replace(_ path: String) throws(RecordingError) -> Int32 {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(folder).\(name).XXXXXX".utf8CString)
        // mkstemp creates the file exclusively, with mode 0600.
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw .cannotWrite(path, String(cString: strerror(errno))) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard rename(temporary, path) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(temporary)
            close(descriptor)
            throw .cannotWrite(path, why)
        }
        return descriptor
    }

    deinit { close(descriptor) }

    /// Appends one adapter event. Times are written as libinput gave them, from the first
    /// event on: a tap comes after the hold events of its touch but is dated earlier.
    public func write(_ event: AdapterEvent) {
        switch event {
        case let .deviceAdded(device):
            let size = device.size ?? Size(width: 0, height: 0)
            line("device \(device.id.rawValue) \(device.kind.rawValue) \(fixedDecimals(size.width, 3)) \(fixedDecimals(size.height, 3)) \(Self.oneLine(device.name))")
        case let .deviceRemoved(device):
            line("\(offset(PollScheduler.now())) removed \(device.id.rawValue)")
        case let .input(.touchpad(event)):
            let time = offset(event.timestamp)
            writeHeld(Recording.Held(modifiers: event.modifierFlags, buttons: event.buttonMask), of: event.device, at: time)
            line("\(time) touchpad \(event.device.rawValue) \(Recording.encode(event.gesture))")
        case let .input(.touches(frame)):
            guard let device = frame.changedTouches.first?.device else { return }
            let time = offset(frame.timestamp)
            writeHeld(Recording.Held(modifiers: frame.modifierFlags, buttons: frame.buttonMask), of: device, at: time)
            let touches = frame.changedTouches.map { touch in
                "\(touch.id):\(touch.phase.word):\(fixedDecimals(touch.location.x, 3)):\(fixedDecimals(touch.location.y, 3))"
            }
            line("\(time) touches \(device.rawValue) \(touches.joined(separator: " "))")
        }
    }

    /// A `held` line before `device`'s event when what it holds changed since its last one.
    private func writeHeld(_ now: Recording.Held, of device: DeviceID, at time: UInt64) {
        guard now != held[device, default: Recording.Held()] else { return }
        held[device] = now
        line("\(time) held \(device.rawValue) \(now.modifiers) \(now.buttons)")
    }

    /// A device name cannot end its line early.
    private static func oneLine(_ name: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in name.unicodeScalars { result.append(scalar == "\n" || scalar == "\r" ? " " : scalar) }
        return String(result)
    }

    private func offset(_ time: Timestamp) -> UInt64 {
        let start = origin ?? time
        origin = start
        return time > start ? time.microseconds - start.microseconds : 0
    }

    private func line(_ text: String) {
        var text = text + "\n"
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
