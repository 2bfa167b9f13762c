import Glibc
import TestSupport
import Testing
@testable import FocusProviders
import TextWire

/// The two flavours of touchgest's GNOME Shell extension (data/gnome-shell/): 42-44
/// (scripts with `imports`) and 45-50 (ES modules). The 42-44 flavour runs in a real GNOME
/// Shell 43.9 in GnomeFocusTests. The 45-50 flavour cannot run here: Debian 12 has no
/// GNOME Shell 45 or later. It is checked with the local gjs (1.74) instead:
/// rig/check-gnome-extension.js parses it as a module, resolves its imports (the shell's
/// own module by a stand-in with the same base class), and enables it against a stand-in
/// global.display on a private session bus. NOT RUN HERE: GNOME Shell 42, 44 and 45-50
/// themselves loading these files.
@Suite(.serialized) struct GnomeExtensionFlavourTests {
    static let data = "\(packageRoot)/data/gnome-shell"
    static let uuid = "touchgest-focus@touchgest.org"
    static let desktop = "\(packageRoot)/rig/dbus-desktop"

    static func metadata(_ flavour: String) throws -> JSONValue {
        try JSONValue.parse(Array(readText("\(data)/\(flavour)/\(uuid)/metadata.json").utf8))
    }

    /// Runs the gjs check on the extension in `folder`; its output and exit status.
    static func check(_ folder: String) -> (lines: [String], status: String) {
        let bus = temporaryFolder()
        let address = shell("'\(desktop)' bus \(bus)")
        defer { shell("'\(desktop)' stop-bus \(bus)") }
        let scratch = temporaryFolder()
        let output = shell("DBUS_SESSION_BUS_ADDRESS='\(address)' gjs -m '\(packageRoot)/rig/check-gnome-extension.js' "
                           + "'\(folder)' \(scratch) 2>&1; echo \"status $?\"")
        var lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let status = lines.popLast() ?? ""
        return (lines, status)
    }

    @Test func eachMetadataNamesOnlyTheVersionsItsFlavourWasWrittenFor() throws {
        let legacy = try Self.metadata("42-44")
        let modules = try Self.metadata("45-50")
        #expect(legacy["shell-version"]?.array?.compactMap(\.string) == ["42", "43", "44"])
        #expect(modules["shell-version"]?.array?.compactMap(\.string) == ["45", "46", "47", "48", "49", "50"])
        #expect(legacy["uuid"]?.string == Self.uuid && modules["uuid"]?.string == Self.uuid)
        // The versions doctor and make install pick each flavour for are the same ones.
        #expect(GnomeExtension.flavours.map(\.folder) == ["42-44", "45-50"])
        #expect(GnomeExtension.flavour(for: 43) == "42-44" && GnomeExtension.flavour(for: 45) == "45-50"
                && GnomeExtension.flavour(for: 41) == nil && GnomeExtension.flavour(for: 51) == nil)
    }

    @Test func eachFlavourUsesOnlyItsOwnWayOfLoading() {
        let legacy = readText("\(Self.data)/42-44/\(Self.uuid)/extension.js")
        let modules = readText("\(Self.data)/45-50/\(Self.uuid)/extension.js")
        // 42-44 evaluate a script: an import statement is a syntax error there.
        #expect(!legacy.split(separator: "\n").contains { $0.hasPrefix("import ") || $0.hasPrefix("export ") })
        #expect(legacy.contains("function init()") && legacy.contains("imports.gi"))
        // 45 and later load a module with a default export, and refuse `imports`.
        #expect(modules.contains("export default class") && !modules.contains("imports."))
    }

    @Test func theFlavourFor45To50ParsesImportsAndRunsWithTheLocalGjs() {
        let result = Self.check("\(Self.data)/45-50/\(Self.uuid)")
        #expect(result.status == "status 0", "\(result.lines)")
        #expect(result.lines == [
            "imports: gi://Clutter gi://GLib gi://Gio gi://Meta gi://St resource:///org/gnome/shell/extensions/extension.js "
                + "resource:///org/gnome/shell/ui/main.js resource:///org/gnome/shell/misc/config.js",
            "constructed TouchgestFocus for touchgest-focus@touchgest.org, shell-version 45 46 47 48 49 50",
            "enabled",
            "signal FocusChanged term-a Alpha",
            "GetFocus term-a Alpha",
            "signal FocusChanged term-b Bee",
            "signal FocusChanged term-b Bee 2",
            "signal FocusChanged  ",
            "GetFocus  ",
            // org.touchgest.Input from a program trusted-programs names (this gjs):
            "clutter: keyboard keysym 0xffe3 pressed",
            "clutter: keyboard keysym 0x76 pressed",
            "clutter: keyboard keysym 0x76 released",
            "clutter: keyboard keysym 0xffe3 released",
            "Keys done",
            "clutter: pointer button 2 pressed",
            "clutter: pointer button 2 released",
            "Button done",
            "shell: moved to the workspace to the right",
            "Do done",
            "shell: overview toggled",
            "Do done",
            "Do refused: GNOME Shell has no show-desktop",
            "Keys refused: 'nonsense' is not KEYSYM:1 or KEYSYM:0",
            // Locked: refused whoever calls.
            "Keys refused: the screen is locked",
            // The modifiers, told to each watcher alone (the bystander, which does not
            // watch, hears nothing), from the keymap's signal (49.0: no polling), without
            // the pointer's buttons; 0 at a lock, nothing while locked.
            "A WatchModifiers done: 0x0",
            "keymap handlers: 1",
            "keymap state-changed: Super and button 1 held",
            "A told 0x40",
            "locked",
            "A told 0x0",
            "unlocked",
            "A told 0x41",
            "B WatchModifiers done: 0x41",
            "C WatchModifiers done: 0x41",
            "D WatchModifiers done: 0x41",
            "E WatchModifiers refused: 4 programs follow the modifiers already",
            // A watcher that leaves the bus is dropped, and its place taken.
            "B leaves the bus",
            "E WatchModifiers done: 0x41",
            "A told 0x4",
            "C told 0x4",
            "D told 0x4",
            "E told 0x4",
            "A UnwatchModifiers done",
            // Nobody watches: the extension follows nothing of the keyboard.
            "keymap handlers: 0, session mode handlers: 0",
            // The shell's own touchpad swipes (49: 3 or more fingers): held back for a rule
            // of 4, still when the shell turns its tracker off and on, back for none; a rule
            // of 2 takes none of them.
            "swipes fire: true true",
            "YieldGestures done",
            "swipes fire: false false",
            "the shell turned its workspace tracker off and on; swipes fire: false false",
            "YieldGestures done",
            "swipes fire: true true",
            "YieldGestures done",
            "for 2 fingers, swipes fire: true true",
            // A follow drives the tracker's touchpad gesture in its own units: 400 a
            // workspace across, 300 the overview up; a cancel goes back.
            "workspaces tracker: begin 1000 10 20",
            "workspaces tracker: update 1000 40 400",
            "Follow done",
            "workspaces tracker: update 1010 160 400",
            "Follow done",
            "workspaces tracker: update 1020 40 400",
            "workspaces tracker: end 1020 400",
            "Follow done",
            "overview tracker: begin 2000 10 20",
            "Follow done",
            "overview tracker: update 2010 60 300",
            "Follow done",
            "overview tracker: end 2020 300 (cancelled)",
            "Follow done",
            "Follow refused: GNOME Shell has no app-grid swipe",
            "YieldGestures done",
            // The feedback panel: in the top chrome, 16 px from the right edge and below the
            // top bar, taking no input; its lines, its bar (the track, then half of it) and
            // trail (3 points, 2 segments) as shown, its area saying it holds and drew them;
            // past its bounds refused; faded and destroyed; destroyed at a lock and refused
            // while locked.
            "shell: top chrome touchgest-feedback at 1584,48 320x96, reactive false, input region false",
            "ShowFeedback done",
            "panel: 3 fingers · pan | rule pan-3: changed | ; bar #3a404c 210x10 #4ca3ff 105x10; trail 2 segments; touchgest-feedback-trail holds 3 drew 3",
            "ShowFeedback done",
            "panel: 1 finger · stroke | rule v: recognized | v 0.91 fired; bar #3a404c 210x10; trail 0 segments; touchgest-feedback-trail holds 0 drew 0",
            // A follow under the panel, its tracker deciding a slow lift as the shell does
            // (the nearest of -1, 0, 1): at 10 % and back at 20 % a lift would go back, so the
            // third line says so and the bar turns red; at 60 % and 70 % it would finish, and
            // both clear; the end clears them.
            "workspaces tracker: begin 5000 10 20",
            "workspaces tracker: update 5000 40 400",
            "Follow done",
            "ShowFeedback done",
            "panel: 3 fingers · pan | rule pan-3: changed | lift now: cancelled; bar #3a404c 210x10 #f06c4c 21x10; trail 0 segments; touchgest-feedback-trail holds 0 drew 0",
            "workspaces tracker: update 5100 200 400",
            "Follow done",
            "ShowFeedback done",
            "panel: 3 fingers · pan | rule pan-3: changed | ; bar #3a404c 210x10 #4ca3ff 126x10; trail 0 segments; touchgest-feedback-trail holds 0 drew 0",
            "workspaces tracker: update 5200 -160 400",
            "Follow done",
            "ShowFeedback done",
            "panel: 3 fingers · pan | rule pan-3: changed | lift now: cancelled; bar #3a404c 210x10 #f06c4c 42x10; trail 0 segments; touchgest-feedback-trail holds 0 drew 0",
            "workspaces tracker: update 5300 200 400",
            "Follow done",
            "ShowFeedback done",
            "panel: 3 fingers · pan | rule pan-3: changed | ; bar #3a404c 210x10 #4ca3ff 147x10; trail 0 segments; touchgest-feedback-trail holds 0 drew 0",
            "workspaces tracker: update 5400 -200 400",
            "Follow done",
            "ShowFeedback done",
            "panel: 3 fingers · pan | rule pan-3: changed | lift now: cancelled; bar #3a404c 210x10 #f06c4c 42x10; trail 0 segments; touchgest-feedback-trail holds 0 drew 0",
            "workspaces tracker: end 5500 400",
            "Follow done",
            "panel: 3 fingers · pan | rule pan-3: changed | ; bar #3a404c 210x10 #4ca3ff 42x10; trail 0 segments; touchgest-feedback-trail holds 0 drew 0",
            // A tracker without the end decision (a shell that renamed it): no hint, even at
            // 10 %, and the follow goes on.
            "overview tracker: begin 6000 10 20",
            "overview tracker: update 6000 30 300",
            "Follow done",
            "panel: 3 fingers · pan | rule pan-3: changed | ; bar #3a404c 210x10 #4ca3ff 42x10; trail 0 segments; touchgest-feedback-trail holds 0 drew 0",
            "overview tracker: end 6100 300",
            "Follow done",
            "ShowFeedback refused: the headline is longer than 200 characters",
            "ShowFeedback refused: progress 1.5 is neither -1 nor within 0 to 1",
            "ShowFeedback refused: a trail of 514 numbers; expected x, y pairs, at most 256",
            "ShowFeedback refused: a trail point is outside 0 to 1",
            "HideFeedback refused: a fade of 6000 ms; at most 5000",
            "st: touchgest-feedback eases to opacity 0 over 600 ms",
            "st: touchgest-feedback destroyed",
            "HideFeedback done",
            "shell: top chrome touchgest-feedback at 1584,48 320x96, reactive false, input region false",
            "ShowFeedback done",
            "locked",
            "st: touchgest-feedback destroyed",
            "ShowFeedback refused: the screen is locked",
            "unlocked",
            "shell: top chrome touchgest-feedback at 1584,48 320x96, reactive false, input region false",
            "ShowFeedback done",
            // touchgest leaves the bus (killed) while it holds the swipes and follows: the
            // follow goes back and the swipes fire again.
            "workspaces tracker: begin 7000 10 20",
            "workspaces tracker: update 7000 120 400",
            "Follow done",
            "swipes fire: false false",
            "touchgest leaves the bus",
            "workspaces tracker: end 7000 400 (cancelled)",
            // The panel left shown fades by itself.
            "st: touchgest-feedback eases to opacity 0 over 600 ms",
            "st: touchgest-feedback destroyed",
            "swipes fire: true true",
            // A program trusted-programs does not name.
            "Keys refused: /usr/bin/gjs-console is not touchgest",
            "F WatchModifiers refused: /usr/bin/gjs-console is not touchgest",
            "disabled; handlers left connected: 0",
        ], "\(result.lines)")
    }

    @Test func theCheckFailsOnAModuleThatDoesNotParse() {
        let folder = temporaryFolder()
        writeText("\(folder)/metadata.json", readText("\(Self.data)/45-50/\(Self.uuid)/metadata.json"))
        writeText("\(folder)/extension.js", readText("\(Self.data)/45-50/\(Self.uuid)/extension.js")
            .replacing("enable() {", with: "enable() {{"))
        let result = Self.check(folder)
        #expect(result.status != "status 0", "\(result.lines)")
        #expect(result.lines.contains { $0.contains("SyntaxError") }, "\(result.lines)")
    }
}
