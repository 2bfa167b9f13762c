import Logging
import Rulebook
import TestSupport
import Testing
import TouchGestures
@testable import TouchgestDaemon

/// The daemon's reload policy on a pipeline with no device: a rule file that fails to
/// load, or is empty, leaves the rules in force, and the log says why with the file's
/// position; a good one replaces them.
@Suite struct DaemonTests {
    /// The log's lines, `LEVEL: TEXT`, shared by every copy of the handler.
    final class LogLines {
        var lines: [String] = []
    }

    struct Handler: LogHandler {
        let log: LogLines
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { log.lines.append("\(event.level): \(event.message)") }
    }

    static let rules = """
        [rule.play]
        gesture = "tap"
        device = "touchpad"
        fingers = 2
        command = "play-pause"
        """

    final class Rig {
        let scheduler = ManualScheduler()
        let transcript = GesturePipelineTests.Transcript()
        let log = LogLines()
        let path = temporaryFolder() + "/rules.toml"
        let pipeline: GesturePipeline
        let daemon: Daemon
        var t: UInt64 = 0

        init() throws {
            pipeline = try GesturePipeline(backend: .paths([]), scheduler: scheduler, runCommands: false, observer: transcript)
            let log = log
            daemon = Daemon(logger: Logger(label: "test") { _ in Handler(log: log) }, path: path)
            daemon.pipeline = pipeline
            writeText(path, DaemonTests.rules)
            daemon.reload()
        }

        /// A two-finger tap, then the transcript's lines since the last call.
        func tap() -> [String] {
            t += 1_000
            scheduler.advance(to: .milliseconds(t))
            pipeline.handle(.input(.touchpad(TouchpadEvent(.tap(fingers: 2), timestamp: .milliseconds(t)))))
            scheduler.runUntilIdle()
            defer { transcript.lines = [] }
            return transcript.lines
        }
    }

    @Test func aRuleFileWithAnErrorKeepsTheRulesInForceAndSaysWhere() throws {
        let rig = try Rig()
        writeText(rig.path, Self.rules.replacing("fingers = 2", with: "fingers = 2\nfingres = 3"))
        rig.log.lines = []
        rig.daemon.reload()
        #expect(rig.log.lines == [
            "error: \(rig.path):5:1: error: unknown key 'fingres' in rule 'play' (tap) (did you mean 'fingers'?); allowed keys: "
                + "gesture, device, device-name, source, fingers, taps, max-duration, max-interval, multi-tap-slop, slop, command, "
                + "keys, text, button, shortcut, modifiers, buttons, action, stream, timeout, overlap, require-to-fail, application, title, not-application, "
                + "not-title, when-locked",
            "error: kept the previous rules; fix \(rig.path) and save it again",
        ])
        #expect(rig.tap() == ["play recognized: play-pause"])
    }

    @Test func anEmptyRuleFileKeepsTheRulesInForce() throws {
        let rig = try Rig()
        writeText(rig.path, "\n  \n")
        rig.log.lines = []
        rig.daemon.reload()
        #expect(rig.log.lines == [
            "warning: \(rig.path): the rule file is empty; kept the previous 1 rules. An empty file is most often a save that has not finished or that failed; to turn every gesture off, leave only a comment in it, such as '# no gestures'",
        ])
        #expect(rig.tap() == ["play recognized: play-pause"])
    }

    @Test func aGoodRuleFileReplacesTheRules() throws {
        let rig = try Rig()
        #expect(rig.tap() == ["play recognized: play-pause"])
        writeText(rig.path, Self.rules.replacing("play-pause", with: "pause"))
        rig.log.lines = []
        rig.daemon.reload()
        #expect(rig.log.lines == ["info: reloaded 1 rules from \(rig.path)"])
        #expect(rig.tap() == ["play recognized: pause"])
    }

    @Test func aFileOfOnlyACommentTurnsEveryGestureOff() throws {
        let rig = try Rig()
        writeText(rig.path, "# no gestures\n")
        rig.daemon.reload()
        #expect(rig.tap() == [])
    }
}
