import InputDevices
import Recordings
import Rulebook
import Testing
import TouchGestures
import TouchgestDaemon

/// Collects what a replay decides, in order.
final class Transcript: GesturePipelineObserver {
    var commands: [String] = []
    func adapter(_ event: AdapterEvent) {}
    func transition(_ record: TransitionRecord) {}
    func command(_ request: CommandRequest) {
        commands.append("\(request.rule) \(request.phase.rawValue) app=\(request.environment["TOUCHGEST_APP"] ?? "-")")
    }
}

/// A replay uses the daemon's wiring: the focused window is taken when a gesture begins
/// inside the engine, so rules for one application decide in a replay as in `run`.
@Suite struct ReplayTests {
    static let rules = """
        [rule.browser-back]
        gesture = "swipe"
        fingers = 3
        direction = "left"
        application = "firefox*"
        command = "true"

        [rule.back]
        gesture = "swipe"
        fingers = 3
        direction = "left"
        command = "true"
        """

    /// A 3-finger swipe left of 40 mm on a touchpad, in millimetres as recordings hold it.
    static let swipe = "# touchgest recording 1\ndevice 1 touchpad 100 70 pad\n0 touchpad 1 swipe-begin 3\n"
        + (0..<10).map { "\($0 * 8000 + 8000) touchpad 1 swipe-update 3 -4 0\n" }.joined()
        + "90000 touchpad 1 swipe-end 3 0\n"

    func replay(focused: FocusContext.State) throws -> [String] {
        let book = try Rulebook.parse(Self.rules, file: "rules.toml")
        let reader = RecordingReader(bytes: Array(Self.swipe.utf8), path: "swipe.tgrec")
        let transcript = Transcript()
        // The focus changes after the rules are compiled, as a desktop's would: only the
        // focus taken when the gesture begins can see it.
        let focus = FocusContext(.unknown("no focus provider yet"))
        let replay = try Replay(book, reader: reader, focus: focus, runCommands: false, observer: transcript)
        focus.current = focused
        try replay.play(reader)
        return transcript.commands
    }

    @Test func theApplicationsRuleFiresInItsWindow() throws {
        let window = FocusedWindow(application: "firefox-esr", title: "News")
        #expect(try replay(focused: .window(window)) == ["browser-back recognized app=firefox-esr"])
    }

    @Test func theGeneralRuleFiresElsewhere() throws {
        let window = FocusedWindow(application: "foot", title: "~")
        #expect(try replay(focused: .window(window)) == ["back recognized app=foot"])
    }

    @Test func withNoKnownFocusOnlyTheGeneralRuleFiresAndNoAppIsSet() throws {
        #expect(try replay(focused: .unknown("a recording has no focused window")) == ["back recognized app=-"])
    }
}
