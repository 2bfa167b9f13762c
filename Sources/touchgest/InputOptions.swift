import ArgumentParser
import Rulebook
import TextWire
import TouchGestures
import TouchgestDaemon

/// Where input comes from: a udev seat (default seat0) or device nodes.
struct InputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The udev seat to read.", valueName: "seat"))
    var seat = "seat0"

    @Option(name: .customLong("device"), help: ArgumentHelp(
        "Read this device node instead of a seat (repeatable).", valueName: "/dev/input/eventN"))
    var devices: [String] = []

    @Option(name: .customLong("device-size"), help: ArgumentHelp(
        "State the size of the devices whose name matches NAME-GLOB, in millimetres (repeatable; the first match wins). For touchscreens that report no resolution, whose size touchgest otherwise assumes.",
        valueName: "NAME-GLOB=WIDTHxHEIGHT"), transform: { (text: String) throws -> StatedDeviceSize in
        do { return try StatedDeviceSize(parsing: text) } catch let error as StatedDeviceSizeError { throw ValidationError(error.description) }
    })
    var deviceSizes: [StatedDeviceSize] = []

    var backend: LibinputContext.Backend {
        devices.isEmpty ? .seat(seat) : .paths(devices)
    }

    var adapterOptions: LibinputContext.Options {
        LibinputContext.Options(statedSizes: deviceSizes)
    }

    /// The adapter's options with the rule file's `device-size` after the command
    /// line's (a size given on the command line wins), and keyboards read for their
    /// modifier keys where the file asks (`modifier-source = "keyboards"`).
    func adapterOptions(with book: Rulebook?) -> LibinputContext.Options {
        LibinputContext.Options(statedSizes: deviceSizes + (book?.settings.deviceSizes ?? []),
                                readsModifierKeys: book?.settings.modifierSource == .keyboards)
    }
}
