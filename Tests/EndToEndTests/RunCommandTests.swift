import TestSupport
import Testing

/// `touchgest run`, the daemon, on emulated devices: real commands, real reloads.
@Suite(.serialized) struct RunCommandTests {
    /// Lines the commands appended to `$FOLDER/out`.
    static func out(_ run: RigRun) -> [String] {
        readText("\(run.folder)/out").split(separator: "\n").map(String.init)
    }

    @Test func commandsRunOnceEachForASwipePinchStepsAHoldAndSingleVersusDoubleTap() {
        let run = rig(devices: ["touchpad"], rules: """
            [settings]
            device = "touchpad"

            [rule.swipe]
            gesture = "swipe"
            fingers = 3
            direction = ["left", "right"]
            command = "echo swipe $TOUCHGEST_DIRECTION >> $FOLDER/out"

            [rule.zoom]
            gesture = "pinch"
            step = 0.5
            on-step = "echo zoom $TOUCHGEST_DIRECTION $TOUCHGEST_STEP >> $FOLDER/out"

            [rule.hold]
            gesture = "long-press"
            fingers = 3
            command = "echo hold >> $FOLDER/out"

            [rule.single]
            gesture = "tap"
            command = "echo single >> $FOLDER/out"

            [rule.double]
            gesture = "tap"
            taps = 2
            command = "echo double >> $FOLDER/out"
            """, script: """
            device touchpad
            touch 3 at 70,35 move -35,0 over 200ms
            wait 300ms
            pinch 2 at 50,35 from 20 to 60 over 300ms
            wait 300ms
            hold 3 at 50,35 for 900ms
            wait 300ms
            tap 1 at 50,35
            wait 700ms
            tap 1 at 50,35
            wait 120ms
            tap 1 at 50,35
            wait 700ms
            """, arguments: "run --allow-root", extra: "--merge-stderr --signal TERM --ready 'device added'") {
            Self.out($0) == ["swipe left", "zoom out 1", "zoom out 2", "zoom out 3", "hold", "single", "double"]
        }
        #expect(run.status == 0, "\(run)")
        #expect(Self.out(run) == ["swipe left", "zoom out 1", "zoom out 2", "zoom out 3", "hold", "single", "double"])
    }

    @Test func editsReloadTheRulesABrokenEditKeepsTheOldOnesAndSighupReloads() {
        func version(_ name: String) -> String {
            "[rule.tap]\ngesture = \"tap\"\nfingers = 2\ndevice = \"touchpad\"\ncommand = \"echo \(name) >> $FOLDER/out\"\n"
        }
        let run = rig(devices: ["touchpad"], rules: version("v1"), script: """
            device touchpad
            tap 2 at 50,35
            wait 600ms
            shell cat $FOLDER/v2.toml > $FOLDER/rules.toml
            wait 300ms
            tap 2 at 50,35
            wait 600ms
            shell cat $FOLDER/broken.toml > $FOLDER/rules.toml
            wait 300ms
            tap 2 at 50,35
            wait 600ms
            shell mv $FOLDER/v3.toml $FOLDER/rules.toml
            wait 300ms
            tap 2 at 50,35
            wait 600ms
            signal HUP
            wait 300ms
            """, arguments: "run --allow-root", extra: "--merge-stderr --signal TERM --ready 'device added'",
            files: ["v2.toml": version("v2"), "v3.toml": version("v3"),
                    "broken.toml": "[rule.tap]\ngesture = \"tapp\"\ncommand = \"echo broken >> $FOLDER/out\"\n"]) {
            Self.out($0) == ["v1", "v2", "v2", "v3"]
        }
        #expect(run.status == 0, "\(run)")
        // v2 by an in-place write, v2 kept over the broken edit, v3 by a rename over the file.
        #expect(Self.out(run) == ["v1", "v2", "v2", "v3"])
        #expect(run.lines.contains("touchgest: error: \(run.folder)/rules.toml:2:11: error: unknown gesture 'tapp' (did you mean 'tap'?); expected one of tap, long-press, swipe, pan, pinch, rotation, edge-pan, stroke"))
        #expect(run.lines.contains("touchgest: error: kept the previous rules; fix \(run.folder)/rules.toml and save it again"))
        // Three reloads from file changes that parsed, and one from SIGHUP.
        #expect(run.lines.filter { $0.hasPrefix("touchgest: reloaded 1 rules") }.count == 3)
        #expect(run.lines.last == "touchgest: stopping; commands still running are left to finish")
    }
}
