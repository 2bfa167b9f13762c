import Testing
@testable import Rulebook
import TouchGestures

/// `modifiers` and `buttons`: requirements of a rule, read from the event that begins its
/// gesture; the plain rule on the same gesture waits for the specific one, so never both.
@Suite struct HeldRuleTests {
    static let rules = """
        [rule.switch]
        gesture = "swipe"
        fingers = 3
        direction = "left"
        command = "switch"

        [rule.move]
        gesture = "swipe"
        fingers = 3
        direction = "left"
        modifiers = "super"
        command = "move"

        [rule.drag]
        gesture = "swipe"
        fingers = 3
        direction = "left"
        buttons = "left"
        command = "drag"
        """

    /// A 3-finger swipe left on the touchpad, begun with `modifiers` and `buttons` held.
    static func swipe(_ rig: RuleRig, at t: UInt64, modifiers: KeyModifierFlags = [], buttons: EventButtonMask = []) {
        var begin = TouchpadEvent(.swipeBegin(fingers: 3), timestamp: .milliseconds(t))
        begin.modifierFlags = modifiers
        begin.buttonMask = buttons
        rig.environment.handle(.touchpad(begin))
        for step in 1...6 {
            rig.pad(.swipeUpdate(fingers: 3, delta: Point(x: -8, y: 0)), t: t + UInt64(step) * 10)
        }
        rig.pad(.swipeEnd(fingers: 3, cancelled: false), t: t + 70)
        rig.settle()
    }

    @Test func theRuleForTheHeldModifierOrButtonFiresAloneAndThePlainOneWithNothingHeld() throws {
        let rig = try RuleRig(Self.rules)
        Self.swipe(rig, at: 0, modifiers: .command)
        Self.swipe(rig, at: 1_000)
        Self.swipe(rig, at: 2_000, buttons: .primary)
        // Caps Lock is a lock, not a held key: the plain rule still fires.
        Self.swipe(rig, at: 3_000, modifiers: .alphaShift)
        // Super and Ctrl are not exactly Super: only the plain rule wants this one.
        Self.swipe(rig, at: 4_000, modifiers: [.command, .control])
        #expect(rig.recorder.lines == ["move recognized", "switch recognized", "drag recognized", "switch recognized", "switch recognized"])
    }

    @Test func thePlainRuleWaitsForTheSpecificOnes() throws {
        let book = try Rulebook.parse(Self.rules, file: "rules.toml")
        #expect(book.requirements.filter { $0.reason == .held } == [
            .init(waiter: "switch", waitedOn: "move", reason: .held), .init(waiter: "switch", waitedOn: "drag", reason: .held),
        ])
        #expect(book.rules.map(\.held) == [HeldCondition(), HeldCondition(modifiers: .command), HeldCondition(buttons: .primary)])
    }

    @Test func listsAreExactSetsAndBadNamesAreErrorsAtTheirValue() throws {
        let book = try Rulebook.parse("""
            [rule.a]
            gesture = "tap"
            fingers = 2
            modifiers = ["ctrl", "shift"]
            buttons = "none"
            command = "x"
            """, file: "rules.toml")
        #expect(book.rules[0].held == HeldCondition(modifiers: [.control, .shift], buttons: []))
        #expect(book.rules[0].held.description == "modifiers shift+ctrl, buttons none")
        #expect(throws: RuleFileError.self) { try Rulebook.parse("[rule.a]\ngesture = \"tap\"\nmodifiers = \"hyper\"\ncommand = \"x\"\n", file: "rules.toml") }
        do {
            _ = try Rulebook.parse("[rule.a]\ngesture = \"tap\"\nmodifiers = [\"ctrl\", \"supr\"]\nbuttons = \"left\"\ncommand = \"x\"\n", file: "rules.toml")
            Issue.record("an unknown modifier was taken")
        } catch {
            #expect(error.diagnostics.map(\.description) == [
                "rules.toml:3:13: error: unknown modifier 'supr' (did you mean 'super'?); expected one of ctrl, shift, alt, super, capslock, none",
            ])
        }
        do {
            _ = try Rulebook.parse("[rule.a]\ngesture = \"tap\"\nbuttons = \"lft\"\ncommand = \"x\"\n", file: "rules.toml")
            Issue.record("an unknown button was taken")
        } catch {
            #expect(error.diagnostics.map(\.description) == [
                "rules.toml:3:11: error: unknown button 'lft' (did you mean 'left'?); expected one of left, right, middle, none",
            ])
        }
    }
}
