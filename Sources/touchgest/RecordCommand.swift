import ArgumentParser
import Rulebook
import TouchGestures
import TouchgestDaemon

struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record touch input to a file, for touchgest replay and bug reports.",
        discussion: """
            Records the input events libinput hands over, normalized, until SIGINT (Ctrl-C) or
            SIGTERM. The file is new and readable by you only (a touchscreen recording can show
            what was typed on it); an existing file is replaced only with --force.
            """
    )

    @OptionGroup var input: InputOptions

    @Argument(help: ArgumentHelp("The recording to write.", valueName: "file"))
    var file: String

    @Flag(help: "Replace the file if it exists (a symbolic link there is replaced, not followed).")
    var force = false

    @Flag(help: "Record touchpad fingers too, read beside libinput, so the recording can teach touchpad strokes (touchgest learn --from).")
    var fingers = false

    func run() throws {
        let writer: RecordingWriter
        do {
            writer = try RecordingWriter(path: file, replacing: force)
        } catch {
            printError("\(error)")
            throw ExitCode(1)
        }
        let recorder = Recorder(writer: writer)
        let pipeline = try GesturePipeline.open(input, runCommands: false, observer: recorder)
        if fingers { pipeline.readTouchpadFingers() }
        printError("touchgest: recording to \(file); stop with Ctrl-C")
        pipeline.runUntilSignalled()
    }
}

/// Writes what the adapter hands over and says which devices it sees.
final class Recorder: GesturePipelineObserver {
    let writer: RecordingWriter

    init(writer: RecordingWriter) {
        self.writer = writer
    }

    func adapter(_ event: AdapterEvent) {
        writer.write(event)
        if case let .deviceAdded(device) = event { emit("device added: \(device)") }
    }

    var wantsTransitions: Bool { false }
    func transition(_ record: TransitionRecord) {}
    func command(_ request: CommandRequest) {}
}

