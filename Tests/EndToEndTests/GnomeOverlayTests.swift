import Glibc
import TestSupport
import Testing

/// The feedback overlay (`feedback = "on"`) on a real GNOME Shell 43.9 (headless,
/// rig/headless-gnome), which offers no layer shell: touchgest sends the scene to its own
/// extension, which draws the panel in the shell's top chrome. The panel is read back from
/// the shell's stage by the rig's own extension (the actor named touchgest-feedback), not
/// from touchgest's: whether it exists, is mapped, its opacity, whether it takes input, its
/// place and its lines.
///
/// The headless shell renders in software, where GNOME Shell turns its animations off: the
/// fade ends at once there, so the panel is read while fingers are down and after the lift,
/// not during the fade.
@Suite(.serialized, .enabled(if: getuid() == 0, "GNOME Shell runs as nobody, which only root can switch to"),
       .desktop("headless-gnome"))
struct GnomeOverlayTests {
    static let rules = """
        [settings]
        device = "touchpad"
        feedback = "on"

        [rule.pan-3]
        gesture = "pan"
        fingers = 3
        on-begin = "true"
        """
    static let arguments = "run -vv --allow-root --focus none --session-state none"
    static let shown = "overlay: shown on GNOME Shell, through touchgest's extension"

    /// A script step that waits until the rig's `feedback` line matches `pattern` (grep -E),
    /// then appends it to $FOLDER/`file`.
    static func feedback(_ desktop: WaylandDesktop, matches pattern: String, into file: String) -> String {
        "shell timeout 30 sh -c 'until \(desktop.command("feedback")) | grep -qE \"\(pattern)\"; do sleep 0.05; done'; "
            + "\(desktop.command("feedback")) >> $FOLDER/\(file)"
    }

    // A 3-finger pan held part-way: the shell shows the panel, mapped, opaque, taking no
    // input, 16 px from the right edge of the 1280-pixel screen and below the 32-pixel top
    // bar, naming the fingers, the gesture and the rule. After the lift it is gone from
    // the stage, and touchgest says it faded.
    @Test func aPanHeldPartWayIsShownByTheShellAndGoneAfterTheLift() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        #expect(desktop.run("feedback") == "none\n")
        let run = try desktop.run(accepting: { readText("\($0.folder)/gone") == "none\n" }) {
            rig(devices: ["touchpad"], rules: Self.rules, script: """
                device touchpad
                touch 3 at 30,30 move 25,0 over 300ms lift no
                await overlay: shown on
                \(Self.feedback(desktop, matches: "rule pan-3: changed", into: "held"))
                up 3 at 55,30
                await overlay: faded
                \(Self.feedback(desktop, matches: "^none$", into: "gone"))
                """, arguments: Self.arguments, extra: InputRules.extra, wrapper: GnomeFocusTests.session(desktop))
        }
        #expect(run.status == 0, "\(run.lines.suffix(20))")
        #expect(run.lines.filter { $0.contains("overlay: ") }.map { String($0.split(separator: "overlay: ").last ?? "") }
                == ["shown on GNOME Shell, through touchgest's extension", "faded"], "\(run.lines.suffix(20))")
        #expect(readText("\(run.folder)/held")
                == "shown opacity 255 reactive false at 944,48 320x96 trail 0 drawn 0: 3 fingers · pan | rule pan-3: changed | \n")
        #expect(readText("\(run.folder)/gone") == "none\n")
    }

    // A 3-finger pan that follows the workspaces, held short and slow (6 of 40 mm): the
    // shell's own tracker, asked by the extension, would send the animation back at a lift
    // now, so the panel's third line says so while the fingers are down. After the lift the
    // shell went back (workspace 0) and the panel is gone.
    @Test func aFollowHeldShortOfHalfWaySaysALiftWouldCancelIt() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        desktop.changed()
        let rules = Self.rules.replacing("on-begin = \"true\"", with: "progress-distance = 40\nfollow = \"workspaces\"")
        let run = try desktop.run(accepting: { readText("\($0.folder)/gone") == "none\n" }) {
            rig(devices: ["touchpad"], rules: rules, script: """
                device touchpad
                \(GnomeInputTests.connected)
                touch 3 at 60,40 move -6,0 over 800ms lift no
                await overlay: shown on
                \(Self.feedback(desktop, matches: "lift now", into: "held"))
                up 3 at 54,40
                await overlay: faded
                \(Self.feedback(desktop, matches: "^none$", into: "gone"))
                """, arguments: Self.arguments, extra: InputRules.extra, wrapper: GnomeFocusTests.session(desktop))
        }
        #expect(run.status == 0, "\(run.lines.suffix(20))")
        #expect(readText("\(run.folder)/held")
                == "shown opacity 255 reactive false at 944,48 320x96 trail 0 drawn 0: 3 fingers · pan | rule pan-3: changed | lift now: cancelled\n")
        #expect(desktop.run("shown") == "0 false\n")
    }

    // A V drawn on the touchscreen and held: the shell's panel holds the stroke's trail and
    // has drawn all of it (one point per frame of the rig's 8 ms frames over 450 ms: about
    // 57, so more than 40 leaves room for libinput merging a few). After the lift the
    // panel, as it was when the shell removed it (the headless shell fades at once), names
    // the rule and its score: the V drawn is the template's own polyline (40 mm across, 40
    // deep), so only resampling keeps its score from 1.00 (it reads 1.00 here); 0.95 leaves
    // room for that, well above the 0.70 threshold of a single template (docs/strokes.md).
    @Test func aStrokeShowsItsTrailWhileDrawnAndItsRuleAndScoreAfterTheLift() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        let rules = """
            [settings]
            device = "touchscreen"
            feedback = "on"

            [rule.v]
            gesture = "stroke"
            template = [[0, 0], [0.5, 1], [1, 0]]
            command = "true"
            """
        let run = try desktop.run(accepting: { readText("\($0.folder)/gone") == "none\n" }) {
            rig(devices: ["touchscreen"], rules: rules, script: """
                device touchscreen
                stroke 1 at 100,60 through 20,40 40,0 over 450ms lift no
                await overlay: shown on
                \(Self.feedback(desktop, matches: "trail ([0-9]+) drawn \\1: ", into: "held"))
                up 1 at 140,60
                await overlay: faded
                \(Self.feedback(desktop, matches: "^none$", into: "gone"))
                shell \(desktop.command("last-feedback")) > $FOLDER/last
                """, arguments: Self.arguments, extra: InputRules.extra, wrapper: GnomeFocusTests.session(desktop))
        }
        #expect(run.status == 0, "\(run.lines.suffix(20))")
        let held = try #require(readText("\(run.folder)/held").wholeMatch(
            of: /shown opacity 255 reactive false at 944,48 320x96 trail (\d+) drawn (\d+): 1 finger \| deciding\.\.\. \| \n/),
            "\(readText("\(run.folder)/held"))")
        #expect(held.1 == held.2 && (Int(held.1) ?? 0) > 40, "\(held.0)")
        let last = try #require(readText("\(run.folder)/last").wholeMatch(
            of: /trail (\d+) drawn \d+: 1 finger · stroke \| rule v: recognized \| v (\d\.\d\d) fired\n/),
            "\(readText("\(run.folder)/last"))")
        #expect(last.1 == held.1, "the trail held at the lift is the one drawn: \(last.0)")
        #expect((0.95...1.00).contains(Double(last.2) ?? -1), "\(last.0)")
    }

    // Another program of the same user may not show the panel, nor hide touchgest's.
    @Test func anotherProgramCallingShowFeedbackIsRefused() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        let call = "dbus-send --bus='\(desktop.address)' --print-reply --dest=org.gnome.Shell /org/touchgest/Input org.touchgest.Input."
        let show = shellOutput(call + "ShowFeedback string:'3 fingers' string:'rule pan-3: began' double:0.5 string:'' "
                               + "array:double:0.1,0.2 2>&1")
        #expect(show == "Error org.touchgest.Input.Refused: /usr/bin/dbus-send is not touchgest\n")
        #expect(desktop.run("feedback") == "none\n")
        let hide = shellOutput(call + "HideFeedback uint32:0 2>&1")
        #expect(hide == "Error org.touchgest.Input.Refused: /usr/bin/dbus-send is not touchgest\n")
    }

    // With touchgest's extension disabled, the run goes on: the rule fires at each of two
    // swipes, and why there is no panel is said once.
    @Test func withoutTheExtensionTheRunGoesOnAndSaysOnceWhyThereIsNoPanel() throws {
        let desktop = try #require(WaylandDesktop.current)
        try desktop.prepare()
        desktop.run("disable")
        let run = rig(devices: ["touchpad"], rules: Self.rules.replacing("on-begin = \"true\"", with: "on-begin = \"echo began >> $FOLDER/out\""),
                      script: """
            device touchpad
            \(FocusRules.swipe)
            \(FocusRules.swipe)
            shell timeout 30 sh -c 'until [ "$(wc -l < $FOLDER/out)" -ge 2 ]; do sleep 0.05; done'
            """, arguments: Self.arguments, extra: InputRules.extra, wrapper: GnomeFocusTests.session(desktop))
        #expect(run.status == 0, "\(run.lines.suffix(20))")
        #expect(WaylandDesktop.out(run) == ["began", "began"], "\(run.lines.suffix(20))")
        #expect(run.lines.filter { $0.contains("overlay: ") }.map { String($0.split(separator: "overlay: ").last ?? "") } == [
            "touchgest's GNOME Shell extension does not draw the overlay (org.freedesktop.DBus.Error.UnknownMethod): install or update it "
                + "(make install, or the touchgest package), enable it (gnome-extensions enable touchgest-focus@touchgest.org) and log in "
                + "again; feedback is off until then",
        ], "\(run.lines.suffix(20))")
    }
}
