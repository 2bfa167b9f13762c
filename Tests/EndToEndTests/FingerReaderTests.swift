import TestSupport
import Testing

/// `touchgest run` reads a touchpad's fingers (libevdev, beside libinput) only while a
/// rule needs them: otherwise every touchpad event would be read and parsed twice. A
/// reload that adds the first such rule opens the reader; one that removes the last
/// closes it.
@Suite(.serialized) struct FingerReaderTests {
    static let swipeOnly = """
        [rule.swipe]
        gesture = "swipe"
        fingers = 3
        direction = "left"
        command = "echo swipe >> $FOLDER/out"
        """
    /// The same, and a 4-finger tap, which libinput never reports: it is read from the fingers.
    static let withFourFingerTap = swipeOnly + """


        [rule.four]
        gesture = "tap"
        fingers = 4
        device = "touchpad"
        command = "echo four >> $FOLDER/out"
        """

    static func out(_ run: RigRun) -> [String] {
        readText("\(run.folder)/out").split(separator: "\n").map(String.init)
    }

    @Test func fingersAreReadOnlyWhileARuleReadsThem() {
        let run = rig(devices: ["touchpad"], rules: Self.swipeOnly, script: """
            device touchpad
            tap 4 at 50,35
            wait 600ms
            touch 3 at 70,35 move -35,0 over 200ms
            wait 400ms
            shell cat $FOLDER/taps.toml > $FOLDER/rules.toml
            await reading the fingers
            tap 4 at 50,35
            wait 600ms
            shell cat $FOLDER/swipes.toml > $FOLDER/rules.toml
            await stopped reading the fingers
            tap 4 at 50,35
            wait 600ms
            touch 3 at 70,35 move -35,0 over 200ms
            wait 400ms
            """, arguments: "run --allow-root", extra: "--merge-stderr --signal TERM --ready 'device added'",
            files: ["taps.toml": Self.withFourFingerTap, "swipes.toml": Self.swipeOnly]) {
            Self.out($0) == ["swipe", "four", "swipe"]
        }
        #expect(run.status == 0, "\(run)")
        // The first 4-finger tap comes before any rule reads fingers, the last after none does.
        #expect(Self.out(run) == ["swipe", "four", "swipe"])
        let readers = run.lines.filter { $0.contains("the fingers of") }
        #expect(readers.count == 2, "\(readers)")
        #expect(readers.first?.hasPrefix("touchgest: reading the fingers of /dev/input/event") == true, "\(readers)")
        #expect(readers.last?.hasPrefix("touchgest: stopped reading the fingers of /dev/input/event") == true, "\(readers)")
    }

    @Test func aRuleOnFingersAtStartReadsThemFromTheFirstTouch() {
        let run = rig(devices: ["touchpad"], rules: Self.withFourFingerTap, script: """
            device touchpad
            tap 4 at 50,35
            wait 600ms
            """, arguments: "run --allow-root", extra: "--merge-stderr --signal TERM --ready 'device added'") {
            Self.out($0) == ["four"]
        }
        #expect(run.status == 0, "\(run)")
        #expect(Self.out(run) == ["four"])
        #expect(run.lines.filter { $0.hasPrefix("touchgest: reading the fingers of /dev/input/event") }.count == 1, "\(run)")
    }
}
