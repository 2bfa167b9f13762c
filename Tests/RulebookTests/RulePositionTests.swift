import Testing
@testable import Rulebook

/// Every diagnostic points at the exact line and column, whatever the file's shape.
@Suite struct RulePositionTests {
    @Test func crlfLineEndsKeepLinesAndColumns() {
        #expect(diagnostics("[rule.a]\r\ngesture = \"swipe\"\r\ndirection = \"lefft\"\r\ncommand = \"x\"\r\n") == [
            "rules.toml:3:13: error: unknown direction 'lefft' (did you mean 'left'?); expected one of right, up-right, up, up-left, left, down-left, down, down-right, any",
        ])
    }

    @Test func aByteOrderMarkDoesNotShiftTheFirstLine() {
        #expect(diagnostics("\u{FEFF}rule.a.gesture = \"tapp\"\nrule.a.command = \"x\"\n") == [
            "rules.toml:1:18: error: unknown gesture 'tapp' (did you mean 'tap'?); expected one of tap, long-press, swipe, pan, pinch, rotation, edge-pan, stroke",
        ])
        #expect(diagnostics("\u{FEFF}[rule.a]\ncommand = \"x\"\n") == [
            "rules.toml:1:1: error: rule 'a' has no gesture; add gesture = one of tap, long-press, swipe, pan, pinch, rotation, edge-pan or stroke",
        ])
    }

    @Test func dottedKeysArePlacedAtTheirValue() {
        #expect(diagnostics("""
            [rule]
            a.gesture = "swipe"
            a.fingers = 30
            a.command = "x"
            """) == ["rules.toml:3:13: error: fingers 30 is out of range; expected 1 to 10"])
    }

    @Test func quotedKeysAndRuleNamesArePlaced() {
        #expect(diagnostics("""
            [rule."my zoom"]
            gesture = "pinch"
            "on-step" = "x"

            [rule.'two words']
            gesture = "tap"
            """) == [
                "rules.toml:3:1: error: on-step needs step = how far apart the steps are (scale, e.g. 0.15)",
                "rules.toml:5:1: error: rule 'two words' runs nothing; add command, keys, text, button or stream",
            ])
    }

    @Test func escapedRuleNamesAreDecodedAndPlaced() {
        #expect(diagnostics("""
            [rule."zoom\\u0020in"]
            gesture = "pinch"
            step = 0.001
            on-step = "x"
            """) == ["rules.toml:3:8: error: step 0.001 is out of range for pinch; expected 0.01 to 10 in scale"])
    }

    @Test func aTableInsideARuleIsNamedWithItsHeader() {
        #expect(diagnostics("""
            [rule.a]
            gesture = "tap"
            command = "x"

            [rule.a.b]
            gesture = "tap"
            """) == [
                "rules.toml:5:1: error: [rule.a.b] is a table inside rule 'a', but a rule holds only keys; to name a rule 'a.b', quote it: [rule.\"a.b\"]",
            ])
        #expect(diagnostics("""
            # only the nested table
              [rule.a.b]
            gesture = "tap"
            command = "x"
            """) == [
                "rules.toml:2:3: error: [rule.a.b] is a table inside rule 'a', but a rule holds only keys; to name a rule 'a.b', quote it: [rule.\"a.b\"]",
            ])
    }

    @Test func inlineTableRulesArePlacedAtTheirKeysAndValues() {
        #expect(diagnostics("""
            rule.x = { gesture = "swipe", fingers = 3, direction = "lefft", command = "x" }
            rule.y = { gesture = "tap" }
            """) == [
                "rules.toml:1:56: error: unknown direction 'lefft' (did you mean 'left'?); expected one of right, up-right, up, up-left, left, down-left, down, down-right, any",
                "rules.toml:2:6: error: rule 'y' runs nothing; add command, keys, text, button or stream",
            ])
    }

    @Test func aRuleDefinedTwiceByDottedKeysIsADuplicateRuleName() {
        #expect(diagnostics("""
            rule.a = { gesture = "tap", command = "x" }
            rule.a = { gesture = "tap", command = "y" }
            """) == ["rules.toml:2:6: error: duplicate rule name 'a'; first defined at line 1"])
    }

    @Test func invalidTomlThatCrashedTOMLKitIsAPositionedError() {
        #expect(diagnostics("[ = 3\n") == [
            "rules.toml:1:3: error: invalid TOML: expected a key, found '='; bare keys use A-Z a-z 0-9 _ -, others need quotes",
        ])
        #expect(diagnostics("[") == [
            "rules.toml:1:2: error: invalid TOML: expected a key, found the end of the file; bare keys use A-Z a-z 0-9 _ -, others need quotes",
        ])
        let deep = String(repeating: "a.", count: 150_000) + "a = 1\n"
        #expect(diagnostics(deep) == ["rules.toml:1:65: error: invalid TOML: key has more than 32 parts"])
    }

    @Test func columnsCountCharactersNotBytes() {
        #expect(diagnostics("[rule.\"zoom é\"] x\n") == [
            "rules.toml:1:17: error: invalid TOML: expected the end of the line after the table header, found 'x'",
        ])
        // A combining accent joins the letter before it: one character on screen.
        #expect(diagnostics("[rule.\"zoom e\u{301}\"] x\n") == [
            "rules.toml:1:17: error: invalid TOML: expected the end of the line after the table header, found 'x'",
        ])
    }
}
