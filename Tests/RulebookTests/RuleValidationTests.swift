import Testing
@testable import Rulebook
import TouchGestures

/// Parses `text` and returns every diagnostic as printed, errors or warnings.
func diagnostics(_ text: String) -> [String] {
    do {
        return try Rulebook.parse(text, file: "rules.toml").warnings.map(\.description)
    } catch {
        return error.diagnostics.map(\.description)
    }
}

@Suite struct RuleValidationTests {
    @Test func aValidFileHasNoDiagnostics() throws {
        let book = try Rulebook.parse("""
            # comments and blank lines are fine

            [settings]
            device = "touchpad"
            timeout = "5s"

            [rule.next-workspace]
            gesture = "swipe"
            fingers = 3
            direction = "left"
            command = "swaymsg workspace next"

            [rule.zoom]
            gesture = "pinch"
            step = 0.15
            on-step = "zoom $TOUCHGEST_DIRECTION"
            """, file: "rules.toml")
        #expect(book.warnings.isEmpty)
        #expect(book.rules.map(\.name) == ["next-workspace", "zoom"])
        #expect(book.rules[0].directions == .left)
        #expect(book.rules[0].device == .touchpad)
        #expect(book.rules[0].timeout == .seconds(5))
        #expect(book.rules[1].step == 0.15)
        #expect(book.rules[1].fingers == 2)
    }

    @Test func aMisspelledDirectionNamesLineColumnValueAndTheFix() {
        #expect(diagnostics("""
            [rule.a]
            gesture = "swipe"
            fingers = 3
            direction = "lefft"
            command = "x"
            """) == ["rules.toml:4:13: error: unknown direction 'lefft' (did you mean 'left'?); expected one of right, up-right, up, up-left, left, down-left, down, down-right, any"])
    }

    @Test func anUnknownKeyIsAnErrorWithASuggestionAndTheAllowedKeys() {
        #expect(diagnostics("""
            [rule.a]
            gesture = "tap"
            fingres = 2
            command = "x"
            """) == ["rules.toml:3:1: error: unknown key 'fingres' in rule 'a' (tap) (did you mean 'fingers'?); allowed keys: gesture, device, device-name, source, fingers, taps, max-duration, max-interval, multi-tap-slop, slop, command, keys, text, button, shortcut, modifiers, buttons, action, stream, timeout, overlap, require-to-fail, application, title, not-application, not-title, when-locked"])
    }

    @Test func aKeyOfAnotherGestureSaysWhichGesturesItAppliesTo() {
        #expect(diagnostics("""
            [rule.a]
            gesture = "tap"
            on-end = "x"
            command = "y"
            """) == ["rules.toml:3:1: error: key 'on-end' does not apply to gesture 'tap'; tap is discrete: use command; it applies to long-press, pan, pinch, rotation or edge-pan"])
    }

    @Test func everyErrorOfTheFileIsReportedAtOnceInLineOrder() {
        #expect(diagnostics("""
            [rule.a]
            gesture = "swpie"
            command = "x"

            [rule.b]
            gesture = "tap"
            fingers = 0
            taps = "two"
            command = "x"

            [rule.c]
            gesture = "long-press"
            duration = 500
            """) == [
                "rules.toml:2:11: error: unknown gesture 'swpie' (did you mean 'swipe'?); expected one of tap, long-press, swipe, pan, pinch, rotation, edge-pan, stroke",
                "rules.toml:7:11: error: fingers 0 is out of range; expected 1 to 10",
                "rules.toml:8:8: error: taps must be a whole number from 1 to 5, not the string \"two\"",
                "rules.toml:11:1: error: rule 'c' runs nothing; add command, keys, text, button, on-begin, on-step, on-end, on-cancel or stream",
                "rules.toml:13:12: error: duration must be a duration with a unit, like \"300ms\" or \"2s\", not the integer 500",
            ])
    }

    @Test func aMissingGestureNamesTheRule() {
        #expect(diagnostics("""
            [rule.nothing]
            command = "x"
            """) == ["rules.toml:1:1: error: rule 'nothing' has no gesture; add gesture = one of tap, long-press, swipe, pan, pinch, rotation, edge-pan or stroke"])
    }

    @Test func duplicateRuleNamesPointAtBothDefinitions() {
        #expect(diagnostics("""
            [rule.a]
            gesture = "tap"
            command = "x"

            [rule.a]
            gesture = "tap"
            command = "y"
            """) == ["rules.toml:5:1: error: duplicate rule name 'a'; first defined at line 1"])
    }

    @Test func invalidTomlReportsTheParsersPosition() {
        let result = diagnostics("""
            [rule.a]
            gesture = "tap
            """)
        #expect(result.count == 1)
        #expect(result[0].hasPrefix("rules.toml:2:"))
        #expect(result[0].contains("error: invalid TOML:"))
    }

    @Test func anUnknownRuleInRequireToFailIsAnErrorWithASuggestion() {
        #expect(diagnostics("""
            [rule.single]
            gesture = "tap"
            command = "x"
            require-to-fail = ["dubble"]

            [rule.double]
            gesture = "tap"
            taps = 2
            command = "y"
            """) == ["rules.toml:4:19: error: rule 'single' requires unknown rule 'dubble' to fail (did you mean 'double'?); rules in this file: single, double"])
    }

    @Test func aRequireToFailCycleIsAnErrorThatNamesTheRules() {
        #expect(diagnostics("""
            [rule.single]
            gesture = "tap"
            command = "x"

            [rule.double]
            gesture = "tap"
            taps = 2
            command = "y"
            require-to-fail = ["single"]
            """) == ["rules.toml:9:19: error: require-to-fail cycle: double -> single -> double; each would wait for the other forever: double waits for single (require-to-fail), single waits for double (more taps)"])
    }

    @Test func rulesThatCanNeverBeToldApartAreAWarning() throws {
        let book = try Rulebook.parse("""
            [rule.a]
            gesture = "swipe"
            fingers = 3
            direction = ["left", "up"]
            command = "x"

            [rule.b]
            gesture = "swipe"
            fingers = 3
            direction = "left"
            command = "y"
            """, file: "rules.toml")
        #expect(book.warnings.map(\.description) == [
            "rules.toml:7:1: warning: rules 'a' and 'b' match the same gesture (swipe, 3 fingers, up,left, any) and can never be told apart; only one of them will run",
        ])
    }

    /// Alike rules are one warning a group, not one a pair: 1,024 copies of a tap made
    /// 523,776 lines.
    @Test func manyIdenticalRulesAreOneWarning() {
        let text = (0..<1024).map { "[rule.t\($0)]\ngesture = \"tap\"\ncommand = \"true\"\n" }.joined(separator: "\n")
        #expect(diagnostics(text) == [
            "rules.toml:5:1: warning: rules 't0', 't1', 't2', 't3' and 1020 more match the same gesture (tap, 1 finger, 1 tap, any) and can never be told apart; only one of them will run",
        ])
    }

    @Test func aGroupOfFourIsNamedInFullAndAnotherGroupIsItsOwnWarning() {
        let taps = (0..<4).map { "[rule.t\($0)]\ngesture = \"tap\"\ncommand = \"true\"\n" }.joined(separator: "\n")
        let presses = (0..<3).map { "[rule.p\($0)]\ngesture = \"long-press\"\ncommand = \"true\"\n" }.joined(separator: "\n")
        #expect(diagnostics(taps + "\n" + presses) == [
            "rules.toml:5:1: warning: rules 't0', 't1', 't2' and 't3' match the same gesture (tap, 1 finger, 1 tap, any) and can never be told apart; only one of them will run",
            "rules.toml:21:1: warning: rules 'p0', 'p1' and 'p2' match the same gesture (long-press, 1 finger, any) and can never be told apart; only one of them will run",
        ])
    }

    /// `left` and `up` are both alike to `left, up`, not to each other: one group, whose
    /// warning does not claim that all three match one gesture.
    @Test func rulesAlikeThroughAnotherAreOneGroup() {
        #expect(diagnostics("""
            [rule.both]
            gesture = "swipe"
            direction = ["left", "up"]
            command = "x"

            [rule.left]
            gesture = "swipe"
            direction = "left"
            command = "y"

            [rule.up]
            gesture = "swipe"
            direction = "up"
            command = "z"
            """) == [
            "rules.toml:6:1: warning: rules 'both', 'left' and 'up' match gestures that overlap, each with another of them (the first: swipe, 1 finger, up,left, any), and can never all be told apart; where they match the same gesture, only one of them will run",
        ])
    }

    /// A rule name is printed to logs and terminals: no control or format characters, so a
    /// bidi override cannot make a log line read backwards.
    @Test func aRuleNameWithAControlOrFormatCharacterIsAnError() {
        #expect(diagnostics(#"""
            [rule."swipe\u202Eleft"]
            gesture = "tap"
            command = "x"

            [rule."a\u001bb"]
            gesture = "pinch"
            command = "y"
            """#) == [
            "rules.toml:1:7: error: rule name 'swipe\u{202E}left' holds the format character U+202E; a name is printed to logs and terminals, so it may hold no control or format (bidi) characters",
            "rules.toml:5:7: error: rule name 'a\u{1B}b' holds the control character U+001B; a name is printed to logs and terminals, so it may hold no control or format (bidi) characters",
        ])
    }

    @Test func touchpadLimitsOfLibinputAreErrors() {
        #expect(diagnostics("""
            [rule.a]
            gesture = "swipe"
            device = "touchpad"
            fingers = 2
            command = "x"

            [rule.b]
            gesture = "tap"
            device = "touchpad"
            source = "libinput"
            fingers = 4
            command = "x"

            [rule.c]
            gesture = "edge-pan"
            device = "touchpad"
            source = "libinput"
            on-begin = "x"
            """) == [
                "rules.toml:4:11: error: touchpad swipes need 3 or more fingers: libinput scrolls with 1 and 2",
                "rules.toml:11:11: error: touchpads tap with 1, 2 or 3 fingers (libinput has no 4-finger tap); remove source = \"libinput\" to read the fingers instead",
                "rules.toml:17:10: error: edge-pan on a touchpad needs its fingers: libinput's touchpad gestures have no position; remove source = \"libinput\"",
            ])
    }

    @Test func onStepNeedsAStepAndCommandClashesWithOnBegin() {
        #expect(diagnostics("""
            [rule.a]
            gesture = "pinch"
            command = "x"
            on-begin = "y"
            on-step = "z"
            """) == [
                "rules.toml:4:1: error: command and on-begin both run when 'a' begins; keep one",
                "rules.toml:5:1: error: on-step needs step = how far apart the steps are (scale, e.g. 0.15)",
            ])
    }

    @Test func unknownTopLevelKeysAndSettingsAreErrors() {
        #expect(diagnostics("""
            [setings]
            device = "touchpad"

            [settings]
            overlap = "sometimes"
            tap-slopp = 3
            """) == [
                "rules.toml:1:1: error: unknown top-level key 'setings' (did you mean 'settings'?); a rule file has [settings] and [rule.NAME] tables",
                "rules.toml:5:11: error: unknown overlap policy 'sometimes'; expected one of skip, queue, parallel",
                // The four rule defaults, modifier-source, desktop-gestures and feedback, then each gesture's tunables in TunableKey's order.
                "rules.toml:6:1: error: unknown key 'tap-slopp' in [settings] (did you mean 'tap-slop'?); allowed keys: device, timeout, overlap, device-size, modifier-source, desktop-gestures, feedback, tap-max-duration, tap-max-interval, tap-multi-tap-slop, tap-slop, long-press-duration, long-press-max-tap-duration, long-press-slop, swipe-distance, swipe-velocity, pan-slop, pinch-slop, pinch-threshold, rotation-threshold, edge-pan-slop, edge-pan-width, stroke-threshold",
            ])
    }

    // The overlay is off unless asked; a value it does not know names the two it does.
    @Test func feedbackIsOffUnlessTurnedOn() throws {
        let rule = "[rule.a]\ngesture = \"tap\"\ncommand = \"x\"\n"
        #expect(try Rulebook.parse(rule, file: "rules.toml").settings.feedback == .off)
        #expect(try Rulebook.parse("[settings]\nfeedback = \"on\"\n" + rule, file: "rules.toml").settings.feedback == .on)
        #expect(diagnostics("[settings]\nfeedback = \"yes\"\n" + rule)
            == ["rules.toml:2:12: error: unknown feedback 'yes'; expected one of off, on"])
    }

    @Test func settingsProvideDefaultsThatRulesOverride() throws {
        let book = try Rulebook.parse("""
            [settings]
            device = "touchscreen"
            overlap = "parallel"
            timeout = "none"
            tap-max-interval = "400ms"
            swipe-distance = 25

            [rule.double]
            gesture = "tap"
            taps = 2
            command = "x"

            [rule.quick]
            gesture = "tap"
            taps = 3
            max-interval = "200ms"
            device = "touchpad"
            overlap = "skip"
            timeout = "1.5s"
            command = "y"

            [rule.swipe]
            gesture = "swipe"
            command = "z"
            """, file: "rules.toml")
        let double = try #require(book.rule(named: "double"))
        #expect(double.device == .touchscreen && double.overlap == .parallel && double.timeout == nil)
        #expect(double.tunables["max-interval"] == .duration(.milliseconds(400)))
        let quick = try #require(book.rule(named: "quick"))
        #expect(quick.device == .touchpad && quick.overlap == .skip && quick.timeout == .milliseconds(1500))
        #expect(quick.tunables["max-interval"] == .duration(.milliseconds(200)))
        #expect(book.rule(named: "swipe")?.tunables["distance"] == .number(25))
    }

    @Test func positionsSurviveMultiLineArraysAndStrings() {
        #expect(diagnostics("""
            [rule.a]
            gesture = "swipe"
            command = \"\"\"
            notify-send "a = b"
            \"\"\"
            direction = [
              "left",
              "up",
            ]
            fingers = 99
            """) == ["rules.toml:10:11: error: fingers 99 is out of range; expected 1 to 10"])
    }
}
