import TestSupport
import Testing

/// `stream` rules and `touchgest events` in the daemon, on the real libinput: the
/// consumers are Python scripts reading JSON lines, as a user would write them.
@Suite(.serialized) struct StreamTests {
    static let rigOptions = "--merge-stderr --signal TERM --ready 'device added'"

    /// Appends `RULE PHASE FINGERS DEVICE DIRECTION` and the rounded values to $1, and
    /// prints `consumer NAME PHASE` so that the rig can wait for it. With $2 = crash, it
    /// exits 1 after its first `ended`, once (it leaves $1.crashed behind).
    static let consumer = """
        import json, os, sys
        out = open(sys.argv[1], "a")
        for line in sys.stdin:
            e = json.loads(line)
            assert e["v"] == 1
            values = " ".join(f"{k}={round(e[k], 1)}" for k in ("dx", "scale", "progress") if e[k] is not None)
            out.write(f'{e["rule"]} {e["phase"]} {e["fingers"]} {e["device"]} {e["direction"]} {values}\\n')
            out.flush()
            print("consumer", e["rule"], e["phase"], flush=True)
            if e["phase"] == "ended" and sys.argv[2:] == ["crash"] and not os.path.exists(sys.argv[1] + ".crashed"):
                open(sys.argv[1] + ".crashed", "w").close()
                sys.exit(1)
        """

    static func lines(_ run: RigRun, _ name: String) -> [String] {
        readText("\(run.folder)/\(name)").split(separator: "\n").map(String.init)
    }

    /// The phases of each gesture, `changed` lines counted once per run of them.
    static func phases(_ lines: [String]) -> [String] {
        var result: [String] = []
        for line in lines {
            let phase = line.split(separator: " ").prefix(2).joined(separator: " ")
            if phase.hasSuffix("changed") && result.last == phase { continue }
            result.append(phase)
        }
        return result
    }

    @Test func aSwipeAPinchAndAHoldStreamTheirPhasesInOrderWithMillimetresScaleAndProgress() {
        let run = rig(devices: ["touchpad"], rules: """
            [settings]
            device = "touchpad"

            [rule.slide]
            gesture = "pan"
            fingers = 3
            progress-distance = 20
            stream = "python3 $FOLDER/consumer.py $FOLDER/slide"

            [rule.zoom]
            gesture = "pinch"
            stream = "python3 $FOLDER/consumer.py $FOLDER/zoom"

            [rule.hold]
            gesture = "long-press"
            fingers = 4
            stream = "python3 $FOLDER/consumer.py $FOLDER/hold"
            """, script: """
            device touchpad
            touch 3 at 70,35 move -35,0 over 300ms
            await consumer slide ended
            pinch 2 at 50,35 from 20 to 60 over 300ms
            await consumer zoom ended
            hold 4 at 50,35 for 900ms
            await consumer hold ended
            """, arguments: "run --allow-root", extra: Self.rigOptions, files: ["consumer.py": Self.consumer])
        #expect(run.status == 0, "\(run)")
        let slide = Self.lines(run, "slide")
        #expect(Self.phases(slide) == ["slide began", "slide changed", "slide ended"], "\(slide)")
        #expect(slide.first?.hasPrefix("slide began 3 touchpad left dx=") == true, "\(slide)")
        // 35 mm to the left, less what libinput keeps before it reports a swipe.
        let dx = slide.last.flatMap { $0.split(separator: " ").first { $0.hasPrefix("dx=") } }.flatMap { Double($0.dropFirst(3)) }
        #expect((-36.0 ... -25.0).contains(dx ?? 0), "\(slide)")
        #expect(slide.last?.hasSuffix("progress=1") == true, "\(slide)")
        let zoom = Self.lines(run, "zoom")
        #expect(Self.phases(zoom) == ["zoom began", "zoom changed", "zoom ended"], "\(zoom)")
        // Fingers 20 mm apart, then 60: three times the scale; progress is capped at 1.
        #expect(zoom.last?.hasPrefix("zoom ended 2 touchpad out scale=") == true, "\(zoom)")
        let scale = zoom.last.flatMap { $0.split(separator: " ").first { $0.hasPrefix("scale=") } }.flatMap { Double($0.dropFirst(6)) }
        #expect((2.5 ... 3.2).contains(scale ?? 0), "\(zoom)")
        #expect(zoom.last?.hasSuffix("progress=1") == true)
        #expect(Self.lines(run, "hold") == ["hold began 4 touchpad None ", "hold ended 4 touchpad None "])
    }

    @Test func aCrashedConsumerIsRestartedASubscriberFollowsOneRuleAndAReloadMidSwipeClosesTheOldStream() {
        let stream = "python3 $FOLDER/consumer.py $FOLDER/slide"
        let rules = { (version: String, extra: String) in
            """
            [rule.slide]
            gesture = "pan"
            fingers = 3
            device = "touchpad"
            stream = "\(stream)-\(version) \(extra) && echo EOF >> $FOLDER/slide-\(version)"

            [rule.tap]
            gesture = "tap"
            fingers = 2
            device = "touchpad"
            command = "true"
            """
        }
        let run = rig(devices: ["touchpad"], rules: rules("v1", "crash"), script: """
            device touchpad
            shell XDG_RUNTIME_DIR=$FOLDER/run '\(touchgestBinary)' events slide > $FOLDER/events &
            await a subscriber joined
            touch 3 at 70,35 move -30,0 over 200ms
            await starting it again in 0.25s
            await stream started
            tap 2 at 50,35
            touch 3 at 30,35 move 30,0 over 200ms
            await consumer slide ended
            touch 3 at 70,35 move -20,0 over 200ms lift no
            shell cat $FOLDER/v2.toml > $FOLDER/rules.toml
            await closed (exited with status 0)
            up 3 at 50,35
            touch 3 at 30,35 move 30,0 over 200ms
            await consumer slide ended
            """, arguments: "run --allow-root -v --events-socket $FOLDER/run/touchgest/events.sock",
            extra: Self.rigOptions, files: ["consumer.py": Self.consumer, "run/.keep": "", "v2.toml": rules("v2", "")])
        #expect(run.status == 0, "\(run)")
        // The first consumer exited after its first swipe, was started again, and got the
        // next swipe; a reload in the middle of the third cancelled it there.
        #expect(Self.phases(Self.lines(run, "slide-v1")) == [
            "slide began", "slide changed", "slide ended",
            "slide began", "slide changed", "slide ended",
            "slide began", "slide changed", "slide cancelled", "EOF",
        ], "\(Self.lines(run, "slide-v1"))")
        #expect(run.lines.contains { $0.contains("rule slide: stream pid") && $0.hasSuffix("exited with status 1; starting it again in 0.25s") },
                "\(run)")
        // Stopping the daemon closes the streams as a reload does, and waits for them.
        #expect(Self.phases(Self.lines(run, "slide-v2")) == ["slide began", "slide changed", "slide ended", "EOF"])
        // The subscriber asked for the slide rule only: every line of both versions, no tap.
        let events = Self.lines(run, "events")
        #expect(events.allSatisfy { $0.hasPrefix(#"{"v":1,"rule":"slide","gesture":"pan","phase":"#) }, "\(events)")
        #expect(events.filter { $0.contains(#""phase":"ended""#) }.count == 3, "\(events)")
        #expect(events.filter { $0.contains(#""phase":"cancelled""#) }.count == 1, "\(events)")
    }

    @Test func aStreamThatNeverReadsIsStoppedAndRestartedWhileATapRuleStillFires() {
        let run = rig(devices: ["touchpad"], rules: """
            [settings]
            device = "touchpad"

            [rule.slide]
            gesture = "pan"
            fingers = 3
            stream = "exec sleep 600"

            [rule.tap]
            gesture = "tap"
            fingers = 2
            command = "echo fired tap"
            """, script: """
            device touchpad
            touch 3 at 80,35 move -60,0 over 900ms
            tap 2 at 50,35
            await fired tap
            await stopped reading its input
            await stream started
            tap 2 at 50,35
            await fired tap
            """, arguments: "run --allow-root", extra: Self.rigOptions)
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.filter { $0 == "fired tap" }.count == 2)
        #expect(run.lines.contains { $0.hasPrefix("touchgest: warning: rule slide: stream pid") && $0.contains("stopped reading its input") },
                "\(run)")
        #expect(run.lines.contains { $0.contains("rule slide: stream pid") && $0.hasSuffix("stopped; starting it again in 0.25s") })
    }
}
