import ArgumentParser
import Glibc
import LibinputInput

struct ListDevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-devices",
        abstract: "List the touchpads and touchscreens touchgest can use, or say why it cannot.",
        discussion: "Exits 1 when it finds no usable touch device."
    )

    @OptionGroup var input: InputOptions

    func run() throws {
        let context: LibinputContext
        do {
            context = try LibinputContext(input.backend)
        } catch {
            printError("touchgest: error: \(error)")
            throw ExitCode(1)
        }
        context.dispatch()
        for device in context.devices { emit(device.description) }
        let problems = context.problems
        for problem in problems { printError("touchgest: warning: \(problem)") }
        guard context.devices.isEmpty else { return }
        if problems.isEmpty {
            printError("touchgest: no touchpad or touchscreen found on \(input.devices.isEmpty ? "seat \(input.seat)" : "those devices")")
        }
        throw ExitCode(1)
    }
}
