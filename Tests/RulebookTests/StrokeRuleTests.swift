import StrokeGestures
import Testing
import TouchGestures
@testable import Rulebook

/// Stroke rules: readable templates in the file, checked where they are written, and
/// arbitrated with swipes and pans by the same waits as the other rules.
@Suite struct StrokeRuleTests {
    static let v = """
        [rule.v]
        gesture = "stroke"
        template = [[0, 0], [0.5, 1], [1, 0]]
        command = "volume"
        """

    @Test func aStrokeRuleTakesOneTemplateOrSeveralAndAThreshold() throws {
        let book = try Rulebook.parse("""
            \(Self.v)

            [rule.circle]
            gesture = "stroke"
            device = "touchscreen"
            fingers = 2
            threshold = 0.9
            template = [
                [[0.5, 0], [1, 0.5], [0.5, 1], [0, 0.5], [0.5, 0]],
                [[0.5, 0.05], [0.95, 0.5], [0.5, 0.95], [0.05, 0.5], [0.45, 0.05]],
            ]
            command = "lock"
            """, file: "rules.toml")
        #expect(book.warnings.isEmpty)
        let v = try #require(book.rule(named: "v"))
        #expect(v.gesture == .stroke && v.fingers == 1 && v.templates.count == 1)
        #expect(v.templates[0].points == [Point(x: 0, y: 0), Point(x: 0.5, y: 1), Point(x: 1, y: 0)])
        let circle = try #require(book.rule(named: "circle"))
        #expect(circle.templates.count == 2 && circle.fingers == 2)
        let compiled = CompiledRulebook(book, sink: NullSink())
        let recognizer = try #require(compiled.recognizers.last as? StrokeGestureRecognizer)
        #expect(recognizer.name == "circle")
        #expect(recognizer.threshold == 0.9)
        #expect(recognizer.numberOfTouchesRequired == 2)
        #expect(recognizer.templates == circle.templates)
        // No threshold written and one template: nothing tells how the drawings vary, the floor.
        #expect((compiled.recognizers.first as? StrokeGestureRecognizer)?.threshold == StrokeDefaults.adaptiveFloor)
    }

    @Test func aRuleWithoutAThresholdTakesTheOneItsTemplatesSpreadGives() throws {
        // Two circles drawn alike score nearly 1 against each other: the ceiling, 0.72
        // (without the agreement kept, the floor). A circle and a V, drawings that vary
        // past all reason: the floor, 0.70. The rule keeps its templates' agreement as they
        // are read, and every compile makes the threshold of it.
        let book = try Rulebook.parse("""
            [rule.alike]
            gesture = "stroke"
            template = [
                [[0.5, 0], [1, 0.5], [0.5, 1], [0, 0.5], [0.5, 0]],
                [[0.5, 0.02], [0.98, 0.5], [0.5, 0.98], [0.02, 0.5], [0.48, 0.02]],
            ]
            command = "lock"

            [rule.apart]
            gesture = "stroke"
            device = "touchscreen"
            template = [
                [[0.5, 0], [1, 0.5], [0.5, 1], [0, 0.5], [0.5, 0]],
                [[0, 0], [0.5, 1], [1, 0]],
            ]
            command = "lock"
            """, file: "rules.toml")
        let alike = try #require(book.rule(named: "alike"))
        let apart = try #require(book.rule(named: "apart"))
        #expect(alike.templatesAgreement == StrokeMatcher.lowestAgreement(of: alike.templates))
        #expect(apart.templatesAgreement == StrokeMatcher.lowestAgreement(of: apart.templates))
        #expect(try #require(apart.templatesAgreement) < StrokeDefaults.adaptiveFloor + StrokeDefaults.adaptiveMargin)
        let thresholds = CompiledRulebook(book, sink: NullSink()).recognizers.compactMap { $0 as? StrokeGestureRecognizer }.map(\.threshold)
        #expect(thresholds == [StrokeDefaults.adaptiveCeiling, StrokeDefaults.adaptiveFloor])
    }

    @Test func templateProblemsAreErrorsWhereTheValueIsWritten() {
        func errors(_ template: String) -> [String] {
            diagnostics("[rule.v]\ngesture = \"stroke\"\ntemplate = \(template)\ncommand = \"x\"\n")
        }
        #expect(errors("[[0, 0], [1.5, 1]]") == [
            "rules.toml:3:22: error: template x 1.5 is out of range; expected 0 to 1 (the box's left or top edge to its right or bottom edge)",
        ])
        #expect(errors("[[0, 0], [1, -0.25]]") == [
            "rules.toml:3:25: error: template y -0.25 is out of range; expected 0 to 1 (the box's left or top edge to its right or bottom edge)",
        ])
        #expect(errors("\"v\"") == [
            "rules.toml:3:12: error: template must be a list of points like [[0,0],[0.5,1],[1,0]], or a list of such lists; not the string \"v\"",
        ])
        #expect(errors("[[0, 0], [1]]") == [
            "rules.toml:3:21: error: a template point is [x, y], two numbers from 0 to 1, not a list",
        ])
        #expect(errors("[[0, 0], [\"a\", 1]]") == [
            "rules.toml:3:22: error: template x must be a number from 0 to 1, not the string \"a\"",
        ])
        #expect(errors("[[0.5, 0.5]]") == [
            "rules.toml:3:12: error: a template needs at least 2 points; this one has 1",
        ])
        #expect(errors("[[0.5, 0.5], [0.52, 0.55]]") == [
            "rules.toml:3:12: error: the template's points lie within 0.1 of each other: it has no shape",
        ])
        #expect(errors("[[[0, 0], [1, 1]], [[0, 0], [1, 2]]]") == [
            "rules.toml:3:44: error: template y 2 is out of range; expected 0 to 1 (the box's left or top edge to its right or bottom edge)",
        ])
        #expect(errors("[]") == [
            "rules.toml:3:12: error: template must be a list of points like [[0,0],[0.5,1],[1,0]], or a list of such lists; not an empty list",
        ])
        let seventeen = "[" + Array(repeating: "[[0, 0], [1, 1]]", count: 17).joined(separator: ", ") + "]"
        #expect(errors(seventeen) == ["rules.toml:3:12: error: template has 17 templates; a rule may have at most 16"])
    }

    @Test func aStrokeRuleNeedsItsTemplate() {
        #expect(diagnostics("[rule.v]\ngesture = \"stroke\"\ncommand = \"x\"\n") == [
            "rules.toml:1:1: error: rule 'v' has no template; add template = [[x, y], ...] with the shape's points in drawing order, or draw it with touchgest learn v",
        ])
        #expect(diagnostics("[rule.t]\ngesture = \"tap\"\ntemplate = [[0, 0], [1, 1]]\ncommand = \"x\"\n") == [
            "rules.toml:3:1: error: key 'template' does not apply to gesture 'tap'; it applies to stroke",
        ])
    }

    @Test func thresholdIsAScoreFromHalfToNearlyOne() {
        #expect(diagnostics(Self.v + "\nthreshold = 0.3\n") == [
            "rules.toml:5:13: error: threshold 0.3 is out of range; expected 0.5 to 0.99 in score",
        ])
        #expect(diagnostics("[settings]\nstroke-threshold = 1\n\n" + Self.v) == [
            "rules.toml:2:20: error: stroke-threshold 1 is out of range; expected 0.5 to 0.99 in score",
        ])
        #expect((try? Rulebook.parse("[settings]\nstroke-threshold = 0.9\n\n" + Self.v, file: "rules.toml"))?.rules[0].strokeThreshold == 0.9)
    }

    @Test func fingersAreOneToThreeOnATouchscreenAndTwoToFourOnATouchpad() throws {
        func rule(_ keys: String) -> String { Self.v + "\n" + keys + "\n" }
        #expect(diagnostics(rule("device = \"touchscreen\"\nfingers = 4")) == [
            "rules.toml:6:11: error: strokes on a touchscreen take 1 to 3 fingers, not 4",
        ])
        #expect(diagnostics(rule("fingers = 4")) == [
            "rules.toml:5:11: error: strokes on a touchscreen take 1 to 3 fingers, not 4 (device = \"any\" includes touchscreens; give device = \"touchpad\" for more)",
        ])
        #expect(diagnostics(rule("device = \"touchpad\"\nfingers = 5")) == [
            "rules.toml:6:11: error: strokes on a touchpad take 2 to 4 fingers, not 5",
        ])
        #expect(diagnostics(rule("device = \"touchpad\"")) == [
            "rules.toml:2:11: error: one finger on a touchpad moves the pointer: a 1-finger stroke read from its fingers would fire on ordinary pointing; use 3 or more fingers, or device = \"touchscreen\"",
        ])
        #expect(diagnostics(rule("device = \"touchpad\"\nfingers = 2")) == [
            "rules.toml:6:11: warning: two fingers moving on a touchpad scroll: this stroke fires while you scroll, and the scrolling still happens; use 3 or more fingers unless that is what you want",
        ])
        #expect(diagnostics(rule("device = \"touchpad\"\nfingers = 3\nsource = \"libinput\"")) == [
            "rules.toml:7:10: error: a stroke on a touchpad needs its fingers: libinput's touchpad gestures have no path; remove source = \"libinput\"",
        ])
        // One finger on any device draws on touchscreens only: on a touchpad it points.
        let one = try Rulebook.parse(Self.v, file: "rules.toml")
        #expect(one.rules[0].touchpadInput == nil)
        #expect(CompiledRulebook(one, sink: NullSink()).recognizers[0].allowedTouchTypes == [.direct])
        let three = try Rulebook.parse(rule("fingers = 3"), file: "rules.toml")
        #expect(three.rules[0].touchpadInput == .contacts)
        #expect(CompiledRulebook(three, sink: NullSink()).readsTouchpadContacts)
    }

    @Test func swipesAndPansOnTheSameFingersWaitForTheStrokeAndCheckExplainSaysSo() throws {
        let book = try Rulebook.parse("""
            \(Self.v)

            [rule.down]
            gesture = "swipe"
            direction = "down"
            command = "x"

            [rule.drag]
            gesture = "pan"
            fingers = 1
            on-end = "x"

            [rule.tap]
            gesture = "tap"
            command = "x"

            [rule.two]
            gesture = "swipe"
            fingers = 2
            command = "x"
            """, file: "rules.toml")
        #expect(book.explain() == """
            v     stroke, 1 finger, 1 template, any
            down  swipe, 1 finger, down, any; waits for v (a stroke goes first) to fail
            drag  pan, 1 finger, any; waits for down (a swipe goes first), v (a stroke goes first) to fail
            tap   tap, 1 finger, 1 tap, any
            two   swipe, 2 fingers, any direction, any
            """)
    }

    @Test func aStrokeThatWaitsForASwipeByRequireToFailIsNotTurnedRound() throws {
        let book = try Rulebook.parse(Self.v + "\nrequire-to-fail = [\"down\"]\n\n[rule.down]\ngesture = \"swipe\"\ncommand = \"x\"\n",
                                      file: "rules.toml")
        #expect(book.requirements.map { "\($0.waiter) -> \($0.waitedOn)" } == ["v -> down"])
    }

    @Test func twoStrokesTooAlikeToBeToldApartAreAWarning() {
        #expect(diagnostics(Self.v + "\n\n[rule.w]\ngesture = \"stroke\"\ntemplate = [[0, 0.02], [0.5, 0.97], [1, 0.03]]\ncommand = \"y\"\n") == [
            "rules.toml:6:1: warning: rules 'v' and 'w' draw shapes too alike to be told apart: a template of one scores 0.99 against the other's, at least the threshold 0.80; draw them again with touchgest learn, or make them more different",
        ])
        // A V and a caret are told apart.
        #expect(diagnostics(Self.v + "\n\n[rule.caret]\ngesture = \"stroke\"\ntemplate = [[0, 1], [0.5, 0], [1, 1]]\ncommand = \"y\"\n").isEmpty)
    }

    /// 256 alike strokes made 32,640 warnings at every load; now one names the group and
    /// its closest pair.
    @Test func manyAlikeStrokesAreOneWarning() throws {
        let text = (0..<256).map { index in
            "[rule.s\(index)]\ngesture = \"stroke\"\ntemplate = [[0, \(fixedDecimals(Double(index) / 2560, 4))], [0.5, 1], [1, 0]]\ncommand = \"x\"\n"
        }.joined(separator: "\n")
        // Which two of 256 near copies come closest is rounding's to say; that the one line
        // names two of the group, 1.00 apart, is the point.
        let warnings = diagnostics(text)
        #expect(warnings.count == 1, "\(warnings)")
        let closest = try #require(warnings.first?.wholeMatch(of: /rules.toml:6:1: warning: rules 's0', 's1', 's2', 's3' and 252 more draw shapes too alike to be told apart, each like another of them: the closest, 's(\d+)' and 's(\d+)', score 1.00 against each other, at least the threshold 0.80; draw them again with touchgest learn, or make them more different/), "\(warnings)")
        let pair = [Int(closest.1)!, Int(closest.2)!]
        #expect(pair.allSatisfy { (0..<256).contains($0) } && pair[0] != pair[1])
    }

    @Test func aFileHoldsAtMostTwoHundredFiftySixTemplates() {
        var text = ""
        for index in 0..<17 {
            text += "[rule.s\(index)]\ngesture = \"stroke\"\ntemplate = [" + Array(repeating: "[[0, 0], [1, \(Double(index) / 16)]]", count: 16).joined(separator: ", ")
                + "]\ncommand = \"x\"\n\n"
        }
        #expect(diagnostics(text).contains { $0.hasPrefix("rules.toml:83:12: error: rule 's16' brings the file to 272 stroke templates; a file may hold at most 256") })
    }

    @Test func aLearnedRuleIsTextThatParsesBack() throws {
        let templates = try [StrokeTemplate(points: [Point(x: 0, y: 0), Point(x: 0.5, y: 1), Point(x: 1, y: 0)])]
        let text = StrokeRuleText.rule(name: "my v", device: .touchscreen, fingers: 1, templates: templates, command: "notify-send 'v'")
        #expect(text == """
            [rule."my v"]
            gesture = "stroke"
            device = "touchscreen"
            fingers = 1
            template = [
                [[0.00, 0.00], [0.50, 1.00], [1.00, 0.00]],
            ]
            command = "notify-send 'v'"

            """)
        let book = try Rulebook.parse(text, file: "rules.toml")
        #expect(book.rules[0].templates == templates)
    }
}

/// Drops every command.
final class NullSink: CommandSink {
    func run(_ request: CommandRequest) {}
}
