import Glibc
@testable import GestureStreams
import PollLoop
import Rulebook
import TestSupport
import Testing
import TouchGestures

/// The shipped stream consumers (examples/streams), fed real lines through the hub, with
/// stand-ins for swaymsg and wpctl that log how they were called.
@Suite(.serialized) struct ExampleConsumerTests {
    static func pan(_ phase: GestureMoment, dx: Double) -> String {
        var snapshot = GestureSnapshot(rule: "workspace-slide", gesture: .pan, moment: phase, timestamp: .milliseconds(1), fingers: 3)
        snapshot.device = .indirect
        snapshot.direction = dx < 0 ? .left : .right
        snapshot.location = Point(x: dx, y: 0)
        snapshot.readings.translation = Point(x: dx, y: 0)
        snapshot.readings.velocity = Point(x: -100, y: 0)
        return GestureSample(snapshot, progress: min(1, abs(dx) / 30)).jsonLine
    }

    static func pinch(_ phase: GestureMoment, scale: Double) -> String {
        var snapshot = GestureSnapshot(rule: "volume", gesture: .pinch, moment: phase, timestamp: .milliseconds(1), fingers: 2)
        snapshot.device = .indirect
        snapshot.direction = scale < 1 ? .in : .out
        snapshot.readings.scale = scale
        return GestureSample(snapshot, progress: abs(scale - 1)).jsonLine
    }

    /// Runs `command` as a stream with `bin` first on PATH, sends `lines`, closes the
    /// stream and waits for the command to finish.
    static func feed(_ command: String, lines: [String], tools: [String: String]) -> String {
        let folder = temporaryFolder()
        mkdir("\(folder)/bin", 0o700)
        for (name, script) in tools {
            writeText("\(folder)/bin/\(name)", "#!/bin/sh\n" + script.replacing("$LOG", with: "\(folder)/log") + "\n", mode: 0o700)
        }
        let hub = StreamHub()
        hub.setStreams([(rule: "example", command: "PATH=\(folder)/bin:$PATH \(command)")])
        for line in lines { hub.publish(rule: "example", line: line, coalescible: false) }
        #expect(hub.shutdown(timeout: .seconds(20)))
        return readText("\(folder)/log")
    }

    @Test func theSwayExampleShowsOneWorkspacePer30MillimetresAndComesBackWithTheFingers() {
        let log = Self.feed("python3 \(packageRoot)/examples/streams/sway-workspace-slide.py", lines: [
            Self.pan(.began, dx: -3), Self.pan(.changed, dx: -31), Self.pan(.changed, dx: -65), Self.pan(.changed, dx: -40),
            Self.pan(.ended, dx: -40), Self.pan(.began, dx: 5), Self.pan(.changed, dx: 33), Self.pan(.cancelled, dx: 33),
        ], tools: ["swaymsg": "echo \"$@\" >> $LOG"])
        #expect(log == """
            -q workspace next_on_output
            -q workspace next_on_output
            -q workspace prev_on_output
            -q workspace prev_on_output

            """)
    }

    @Test func theVolumeExampleSetsTheLevelFromThePinchsScaleWithinZeroAndOne() {
        let log = Self.feed("sh \(packageRoot)/examples/streams/volume.sh", lines: [
            Self.pinch(.began, scale: 1), Self.pinch(.changed, scale: 1.4), Self.pinch(.changed, scale: 3),
            Self.pinch(.ended, scale: 3), Self.pinch(.began, scale: 1), Self.pinch(.changed, scale: 0.5),
        ], tools: ["wpctl": """
            if [ "$1" = get-volume ]; then echo "Volume: 0.40"; else echo "$@" >> $LOG; fi
            """])
        #expect(log == """
            set-volume @DEFAULT_AUDIO_SINK@ 0.40
            set-volume @DEFAULT_AUDIO_SINK@ 0.60
            set-volume @DEFAULT_AUDIO_SINK@ 1.00
            set-volume @DEFAULT_AUDIO_SINK@ 0.40
            set-volume @DEFAULT_AUDIO_SINK@ 0.15

            """)
    }
}
