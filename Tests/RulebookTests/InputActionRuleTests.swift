import InputActions
import Testing
@testable import Rulebook
import TouchGestures

/// `keys`, `text` and `button`, and `{ keys = ... }` as a command key's value: read by
/// xkb's names, and every mistake said with its position.
@Suite struct InputActionRuleTests {
    @Test func keysTextAndButtonsAreReadByTheirNames() throws {
        let book = try Rulebook.parse("""
            [rule.paste]
            gesture = "swipe"
            fingers = 3
            direction = "down"
            keys = "ctrl+shift+v"

            [rule.zoom]
            gesture = "pinch"
            step = 0.2
            on-begin = { text = "zoom: " }
            on-step = { keys = "ctrl+plus" }
            on-end = "notify-send done"

            [rule.paste-two]
            gesture = "tap"
            fingers = 3
            keys = "control+c  Super  return"

            [rule.click]
            gesture = "tap"
            fingers = 2
            button = "Middle"
            """, file: "rules.toml")
        #expect(book.warnings.isEmpty)
        let chord = KeyChord(modifiers: [.ctrl, .shift], key: Key(named: "v"))
        #expect(book.rules[0].inputs == [.recognized: .keys([chord])])
        #expect(book.rules[1].inputs == [.begin: .text("zoom: "), .step: .keys([KeyChord(modifiers: [.ctrl], key: Key(named: "plus"))])])
        #expect(book.rules[1].commands == [.end: "notify-send done"])
        // Names in any case, modifiers by any of their names; xkb's spelling is kept.
        #expect(book.rules[2].inputs[.recognized]?.description == "keys ctrl+c super Return")
        #expect(book.rules[3].inputs == [.recognized: .button(.middle)])
    }

    @Test func eachMistakeIsSaidWhereItIs() {
        #expect(diagnostics("""
            [rule.a]
            gesture = "tap"
            keys = "ctlr+v"

            [rule.b]
            gesture = "tap"
            keys = "ctrl++v"

            [rule.c]
            gesture = "tap"
            keys = "a+b"

            [rule.d]
            gesture = "tap"
            keys = "  "

            [rule.e]
            gesture = "tap"
            button = "wheel"

            [rule.f]
            gesture = "pinch"
            on-begin = { keys = "ctrl+t", text = "x" }
            on-end = { command = "true" }

            [rule.g]
            gesture = "tap"
            keys = "v+ctrl"
            command = "true"

            [rule.h]
            gesture = "tap"
            shortcut = " "
            """) == [
            "rules.toml:3:8: error: unknown key name 'ctlr' in 'ctlr+v'; keys are xkb names, such as v, Return, Left, F5, plus or XF86AudioRaiseVolume",
            "rules.toml:7:8: error: 'ctrl++v' has an empty key between its '+'s (the plus key is written plus)",
            "rules.toml:11:8: error: 'a+b' presses two keys, a and b, at once; a chord is modifiers and one key (for one after the other, separate them with a space)",
            "rules.toml:15:8: error: keys is empty; give a chord such as \"ctrl+shift+v\"",
            "rules.toml:19:10: error: unknown button 'wheel'; expected one of left, middle, right, back, forward",
            "rules.toml:23:12: error: on-begin = { ... } needs exactly one of keys, text, button, shortcut or action",
            "rules.toml:24:12: error: on-end = { command = ... }: an action table holds keys, text, button, shortcut or action, not command",
            "rules.toml:28:8: error: 'v+ctrl' puts ctrl after its key; write the modifiers first",
            "rules.toml:28:1: error: keys and command both act when 'g' is recognized; keep one, or give on-begin/on-end the other",
            "rules.toml:33:12: error: shortcut is empty; give the name of a KDE Plasma global shortcut, such as \"Overview\"",
        ])
    }

    /// Text types printable characters, tab and newline: ESC, NUL, DEL and the C1 controls
    /// have keysyms too (Escape, Delete, ...), and typed they would press those keys.
    @Test func textRefusesControlCharactersButTabAndNewline() throws {
        #expect(diagnostics(#"""
            [rule.a]
            gesture = "tap"
            text = "clear\u001b[2J"

            [rule.b]
            gesture = "tap"
            fingers = 2
            text = "\u0000"

            [rule.c]
            gesture = "pinch"
            on-begin = { text = "x\u007f" }

            [rule.d]
            gesture = "tap"
            fingers = 3
            text = "\u009b"
            """#) == [
            "rules.toml:3:8: error: text holds the control character U+001B; the only control characters text types are tab and newline",
            "rules.toml:8:8: error: text holds the control character U+0000; the only control characters text types are tab and newline",
            "rules.toml:12:21: error: text holds the control character U+007F; the only control characters text types are tab and newline",
            "rules.toml:17:8: error: text holds the control character U+009B; the only control characters text types are tab and newline",
        ])
        let book = try Rulebook.parse("[rule.a]\ngesture = \"tap\"\ntext = \"one\\ttwo\\n\"\n", file: "rules.toml")
        #expect(book.rules[0].inputs == [.recognized: .text("one\ttwo\n")])
    }

    // The daemon starts its input channel for rules that press something: a rule whose
    // only actions are per-direction steps is one.
    @Test func aRuleWithOnlyDirectionalStepsPressesInput() throws {
        let book = try Rulebook.parse("""
            [rule.zoom]
            gesture = "pinch"
            step = 0.2
            on-step = { out = "ctrl+plus", in = "ctrl+minus" }

            [rule.note]
            gesture = "tap"
            command = "true"
            """, file: "rules.toml")
        // Its actions are all per direction: none at a moment of its own.
        #expect(book.rules[0].inputs.isEmpty)
        #expect(book.rules.map(\.pressesInput) == [true, false])
    }

    /// A pinch that zooms: ctrl+plus at each step out, ctrl+minus at each step in.
    @Test func onStepActionsFollowTheStepsDirection() throws {
        let rig = try RuleRig("""
            [rule.zoom]
            gesture = "pinch"
            device = "touchpad"
            step = 0.2
            on-step = { out = "ctrl+plus", in = { keys = "ctrl+minus" } }
            """)
        rig.pad(.pinchBegin(fingers: 2), t: 0)
        // Out to 1.5 (two steps), then back in to 0.9 (three steps back, past 1).
        for (index, scale) in [1.1, 1.3, 1.5, 1.3, 1.1, 0.9].enumerated() {
            rig.pad(.pinchUpdate(fingers: 2, delta: .zero, scale: scale, angleDelta: 0), t: UInt64(index + 1) * 10)
        }
        rig.pad(.pinchEnd(fingers: 2, cancelled: false), t: 80)
        #expect(rig.recorder.presses.map(\.action.description) == [
            "keys ctrl+plus", "keys ctrl+plus", "keys ctrl+minus", "keys ctrl+minus",
        ])
        #expect(rig.recorder.requests.isEmpty)
    }

    @Test func aStepGoesOnlyTheGesturesWays() {
        #expect(diagnostics("""
            [rule.zoom]
            gesture = "pinch"
            step = 0.2
            on-step = { out = "ctrl+plus", left = "ctrl+minus" }
            """) == [
            "rules.toml:4:32: error: on-step = { left = ... }: a step goes in or out, not left",
        ])
    }

    /// `action = "NAME"` wherever keys go: as the rule's own, in an action table at a
    /// phase and per step direction; a name that is not an action is said with its position.
    @Test func desktopActionsAreReadByNameWhereverKeysAreAndAnUnknownOneIsSaid() throws {
        let book = try Rulebook.parse("""
            [rule.next]
            gesture = "swipe"
            fingers = 4
            direction = "left"
            action = "workspace-next"

            [rule.slide]
            gesture = "pan"
            fingers = 4
            step = 30
            on-begin = { action = "overview" }
            on-step = { left = { action = "workspace-left" }, right = { action = "workspace-right" } }
            """, file: "rules.toml")
        #expect(book.warnings.isEmpty)
        #expect(book.rules[0].inputs == [.recognized: .desktop(.workspaceNext)])
        #expect(book.rules[1].inputs == [.begin: .desktop(.overview)])
        #expect(book.rules[1].stepInputs == ["left": .desktop(.workspaceLeft), "right": .desktop(.workspaceRight)])
        #expect(book.rules[0].inputs[.recognized]?.description == "action workspace-next")
        do {
            _ = try Rulebook.parse("[rule.a]\ngesture = \"tap\"\naction = \"next-workspace\"\n", file: "rules.toml")
            Issue.record("an unknown action was taken")
        } catch {
            #expect("\(error)" == "rules.toml:3:10: error: unknown action 'next-workspace'; expected one of workspace-next, "
                + "workspace-previous, workspace-up, workspace-down, workspace-left, workspace-right, overview, app-grid, "
                + "show-desktop, close-window, maximize, minimize, fullscreen")
        }
    }
}
