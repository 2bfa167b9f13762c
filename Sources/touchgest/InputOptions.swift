import ArgumentParser
import LibinputInput

/// Where input comes from: a udev seat (default seat0) or device nodes.
struct InputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The udev seat to read.", valueName: "seat"))
    var seat = "seat0"

    @Option(name: .customLong("device"), help: ArgumentHelp(
        "Read this device node instead of a seat (repeatable).", valueName: "/dev/input/eventN"))
    var devices: [String] = []

    var backend: LibinputContext.Backend {
        devices.isEmpty ? .seat(seat) : .paths(devices)
    }
}
