import TestSupport
import Testing

/// `modifier-source = "keyboards"` on the real libinput, with the rig's emulated USB keyboard
/// beside its clickpad: the modifier keys held on the keyboard choose between a
/// `modifiers` rule and the plain one; no other key typed ever leaves touchgest; and without
/// the opt-in the keyboard is not even opened.
@Suite struct KeyboardModifierTests {
    static let swipeRules = """
        [settings]
        modifier-source = "keyboards"

        [rule.plain]
        gesture = "swipe"
        fingers = 3
        direction = "up"
        command = "true"

        [rule.super]
        gesture = "swipe"
        fingers = 3
        direction = "up"
        modifiers = "super"
        command = "true"
        """

    /// What the tests type: capitals (Shift held) and a digit.
    static let password = "Hunter2Pw"

    /// Typed before, between and after two swipes, the first with Super held.
    static let script = """
        device keyboard
        type \(password)
        press leftmeta
        wait 50ms
        device touchpad
        touch 3 at 50,45 move 0,-30 over 250ms
        wait 300ms
        device keyboard
        release leftmeta
        type \(password)
        wait 50ms
        device touchpad
        touch 3 at 50,45 move 0,-30 over 250ms
        wait 300ms
        device keyboard
        type \(password)
        wait 200ms
        """

    /// The modifiers the script holds, in order: Shift for each capital, Super around the
    /// first swipe.
    static let modifiersHeld = ["shift", "none", "shift", "none", "super", "none", "shift", "none", "shift", "none",
                                "shift", "none", "shift", "none"]

    /// Lines that carry the typed text, or any key at all: the word `key` (a key event, its
    /// code or name in any form), `KEY_`, `keycode` or the password. (`keys`, as in "modifier
    /// keys", is not one: the keyboard's own lines say it.)
    static func leaks(_ lines: [String]) -> [String] {
        lines.filter { $0.contains(/(?i)\bkey\b|key_|keycode|keysym|hunter|\b2pw\b/) }
    }

    /// What debug says at start of where the modifiers come from.
    static let sourceLine = "modifiers: from the keyboards (modifier-source = \"keyboards\"): only whether Ctrl, Shift, Alt, Super or Caps Lock is down"

    @Test func superHeldOnTheKeyboardFiresTheSuperRuleAndReleasedThePlainOne() {
        let run = rig(devices: ["touchpad", "keyboard"], rules: Self.swipeRules, script: Self.script) {
            $0.decisions == ["super possible -> recognized", "plain possible -> recognized"]
        }
        #expect(run.decisions == ["super possible -> recognized", "plain possible -> recognized"], "\(run)")
        #expect(run.commands == ["super recognized up", "plain recognized up"], "\(run)")
    }

    /// The keystroke test: a password typed around gestures reaches no output of `debug`
    /// (text and JSON), only the modifiers it held do, in order.
    @Test func aTypedPasswordNeverReachesDebugOnlyItsModifiersDo() {
        let text = rig(devices: ["touchpad", "keyboard"], rules: Self.swipeRules, script: Self.script)
        #expect(text.decisions == ["super possible -> recognized", "plain possible -> recognized"], "\(text)")
        #expect(Self.leaks(text.lines + text.stderr.split(separator: "\n").map(String.init)) == [])
        // Every line the keyboard made, and no other: where the modifiers come from (said at
        // start), the keyboard itself and its modifiers.
        #expect(text.lines.filter { $0.hasPrefix("keyboard") || $0.hasPrefix("modifiers") }
            == [Self.sourceLine, "keyboard added: /dev/input/event1 \"touchrig Keyboard\" (its modifier keys only)"]
            + Self.modifiersHeld.map { "modifiers: \($0)" }, "\(text)")

        let json = rig(devices: ["touchpad", "keyboard"], rules: Self.swipeRules, script: Self.script, arguments: "debug --json")
        #expect(json.status == 0, "\(json)")
        #expect(Self.leaks(json.lines) == [])
        #expect(json.lines.filter { $0.contains("keyboard") || $0.contains("modifiers") }
            == [#"{"event":"modifier-source","source":"the keyboards (modifier-source = \"keyboards\"): only whether Ctrl, Shift, Alt, Super or Caps Lock is down"}"#,
                #"{"event":"keyboard-added","node":"/dev/input/event1","name":"touchrig Keyboard"}"#]
            + Self.modifiersHeld.map { #"{"event":"modifiers","held":"\#($0)"}"# }, "\(json)")
        #expect(json.lines.filter { $0.contains(#""event":"command""#) }.count == 2, "\(json)")
    }

    /// The same for `touchgest run -vv` (its log), a `stream` rule's input and an `events`
    /// subscriber: the gestures reach them, the password does not.
    @Test func aTypedPasswordNeverReachesTheRunLogAStreamOrEvents() {
        let run = rig(devices: ["touchpad", "keyboard"], rules: """
            [settings]
            modifier-source = "keyboards"

            [rule.slide]
            gesture = "pan"
            fingers = 3
            stream = "cat >> $FOLDER/stream"

            [rule.super-slide]
            gesture = "pan"
            fingers = 3
            modifiers = "super"
            stream = "cat >> $FOLDER/super-stream"
            """, script: """
            shell XDG_RUNTIME_DIR=$FOLDER/run '\(touchgestBinary)' events > $FOLDER/events &
            await a subscriber joined

            """ + Self.script, arguments: "run --allow-root -vv --events-socket $FOLDER/run/touchgest/events.sock",
            extra: "--merge-stderr --signal TERM --ready 'device added'", files: ["run/.keep": ""])
        #expect(run.status == 0, "\(run)")
        func lines(_ name: String) -> [String] { readText("\(run.folder)/\(name)").split(separator: "\n").map(String.init) }
        #expect(Self.leaks(run.lines) == [])
        // The log says the keyboard and each change of the modifiers (at -vv), and no other key.
        #expect(run.lines.filter { $0.hasPrefix("touchgest: keyboard") || $0.hasPrefix("touchgest: trace: modifiers") }
            == ["touchgest: keyboard added: /dev/input/event1 \"touchrig Keyboard\" (its modifier keys only)"]
            + Self.modifiersHeld.map { "touchgest: trace: modifiers: \($0)" }, "\(run)")
        // Each pan reached its own rule's stream, and both reached the subscriber.
        #expect(lines("super-stream").first?.contains(#""rule":"super-slide","gesture":"pan","phase":"began""#) == true, "\(lines("super-stream"))")
        #expect(lines("stream").first?.contains(#""rule":"slide","gesture":"pan","phase":"began""#) == true, "\(lines("stream"))")
        let subscribed = lines("events")
        #expect(subscribed.contains { $0.contains(#""rule":"super-slide","gesture":"pan","phase":"ended""#) }, "\(subscribed)")
        #expect(subscribed.contains { $0.contains(#""rule":"slide","gesture":"pan","phase":"ended""#) }, "\(subscribed)")
        #expect(Self.leaks(lines("stream") + lines("super-stream") + lines("events")) == [])
    }

    /// `touchgest record` reads no rule file, so it never opens a keyboard: the recording
    /// holds the swipes and nothing typed.
    @Test func aRecordingHoldsTheSwipesAndNoKeyboard() {
        let run = rig(devices: ["touchpad", "keyboard"], rules: "", script: Self.script,
                      arguments: "record $FOLDER/input.tgrec", extra: "--open-log $FOLDER/opens")
        #expect(run.status == 0, "\(run)")
        let recording = readText("\(run.folder)/input.tgrec").split(separator: "\n").map(String.init)
        #expect(recording.filter { $0.contains("swipe-begin") }.count == 2, "\(recording)")
        #expect(Self.leaks(recording) == [])
        #expect(readText("\(run.folder)/opens") == "/dev/input/event0\n")
    }

    /// Without the opt-in libinput is refused the keyboard: touchgest opens the touchpad's
    /// node only (the rig's open log), says nothing of the keyboard, and a refused keyboard
    /// is no warning. With it, the keyboard is opened too.
    @Test func withoutTheOptInTheKeyboardIsNeverOpened() {
        let run = rig(devices: ["touchpad", "keyboard"], rules: """
            [rule.plain]
            gesture = "swipe"
            fingers = 3
            direction = "up"
            command = "true"
            """, script: Self.script, extra: "--open-log $FOLDER/opens")
        #expect(run.status == 0, "\(run)")
        #expect(readText("\(run.folder)/opens") == "/dev/input/event0\n", "\(run)")
        #expect(!run.lines.contains { $0.contains("keyboard") || $0.contains("modifiers") }, "\(run)")
        #expect(!run.stderr.contains("event1"), "\(run.stderr)")
        let optedIn = rig(devices: ["touchpad", "keyboard"], rules: Self.swipeRules, script: "wait 100ms", extra: "--open-log $FOLDER/opens")
        #expect(readText("\(optedIn.folder)/opens") == "/dev/input/event0\n/dev/input/event1\n", "\(optedIn)")
    }
}
