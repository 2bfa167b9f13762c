import ArgumentParser
import Glibc
import TouchGestures
import TouchgestDaemon

struct ListDevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-devices",
        abstract: "List the touchpads and touchscreens touchgest can use, or say why it cannot.",
        discussion: """
            Each device shows its size in millimetres and, when the device does not report
            one, how touchgest found it and how to state it; and how you may read it: the
            uaccess ACL of touchgest's udev rule (touchpads and touchscreens of the active
            seat only) or a group such as 'input' (every input device). Without access it
            says why and how to get it. A semi-MT touchpad's taps are read from its fingers
            (libinput takes its two-finger taps for scrolling), which needs that access too.
            Exits 1 when it finds no usable touch device.
            """
    )

    @OptionGroup var input: InputOptions

    func run() throws {
        let context: LibinputContext
        do {
            context = try LibinputContext(input.backend, options: input.adapterOptions)
        } catch {
            printError("touchgest: error: \(error)")
            throw ExitCode(1)
        }
        context.dispatch()
        for device in context.devices {
            emit(device.description)
            if let note = device.sizeNote { emit("  \(note)") }
            // Root reads everything, and touchgest does not run as root.
            let access = DeviceAccess.of(device.node)
            if access != .root { emit("  read access: \(access)") }
        }
        let problems = context.problems
        for problem in problems { printError("touchgest: warning: \(problem)") }
        if problems.contains(where: { if case .permission = $0 { true } else { false } }) {
            printError("touchgest: \(DeviceAccess.whyNot())")
        }
        guard context.devices.isEmpty else { return }
        if problems.isEmpty {
            printError("touchgest: no touchpad or touchscreen found on \(input.devices.isEmpty ? "seat \(input.seat)" : "those devices")")
        }
        throw ExitCode(1)
    }
}

extension InputDevice {
    /// How the size was found when the device did not report it, and how to state it;
    /// nil when the device's own resolution gave it.
    var sizeNote: String? {
        guard let size, let sizeSource else { return nil }
        let shown = "\(fixedDecimals(size.width, 0))x\(fixedDecimals(size.height, 0)) mm"
        let statement = "--device-size '\(name.replacing("'", with: "'\\''"))=WIDTHxHEIGHT' (millimetres)"
        switch sizeSource {
        case .resolution:
            return nil
        case .user:
            return "size \(shown) as stated by the user"
        case .udev:
            return "size \(shown) from udev properties (ID_INPUT_WIDTH_MM/ID_INPUT_HEIGHT_MM or EVDEV_ABS_*); state it with \(statement) if it is wrong"
        case .assumed where kind == .touchpad:
            return "size \(shown) assumed, as libinput assumes it for a touchpad that reports no resolution; touchpad gestures do not depend on it"
        case .assumed:
            return "size \(shown) assumed: the device reports no resolution, so touchgest assumes \(fixedDecimals(LibinputContext.assumedUnitsPerMillimetre, 0)) units/mm; measure the screen and state it with \(statement)"
        }
    }
}
