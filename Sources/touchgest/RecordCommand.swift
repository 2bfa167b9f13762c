import ArgumentParser
import LibinputInput

struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record touch input to a file, for touchgest replay and bug reports.",
        discussion: "Records the input events libinput hands over, normalized, until SIGINT (Ctrl-C) or SIGTERM."
    )

    @OptionGroup var input: InputOptions

    @Argument(help: ArgumentHelp("The recording to write.", valueName: "file"))
    var file: String

    func run() throws {
        let writer: Recording.Writer
        do {
            writer = try Recording.Writer(path: file)
        } catch {
            printError("\(error)")
            throw ExitCode(1)
        }
        let recorder = Recorder(writer: writer)
        let session = try Session.open(input, runCommands: false, observer: recorder)
        printError("touchgest: recording to \(file); stop with Ctrl-C")
        session.runUntilSignalled()
    }
}

/// Writes what the adapter hands over and says which devices it sees.
final class Recorder: SessionObserver {
    let writer: Recording.Writer

    init(writer: Recording.Writer) {
        self.writer = writer
    }

    func adapter(_ event: AdapterEvent) {
        writer.write(event)
        if case let .deviceAdded(device) = event { emit("device added: \(device)") }
    }

    func transition(_ record: TransitionRecord) {}
    func command(_ request: CommandRequest, running: Bool) {}
}

import Rulebook
import TouchGestures
