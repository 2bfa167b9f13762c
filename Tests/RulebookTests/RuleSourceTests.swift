import Rulebook
import Testing
import TouchGestures

/// The `source` key: libinput's touchpad gestures or the fingers read beside libinput.
@Suite struct RuleSourceTests {
    static func rule(_ keys: String) throws -> Rule {
        let book = try Rulebook.parse("[rule.r]\ncommand = \"x\"\n" + keys, file: "rules.toml")
        return try #require(book.rules.first)
    }

    @Test func libinputKeepsTheGesturesItHasAndTheFingersServeTheRest() throws {
        // libinput's taps, but a semi-MT pad's fingers: libinput takes its two-finger taps for scrolling.
        #expect(try Self.rule("gesture = \"tap\"\nfingers = 3\ndevice = \"touchpad\"").touchpadInput == .automatic)
        #expect(try Self.rule("gesture = \"tap\"\nfingers = 2\nsource = \"libinput\"").touchpadInput == .gestures)
        #expect(try Self.rule("gesture = \"tap\"\nfingers = 4\ndevice = \"touchpad\"").touchpadInput == .contacts)
        #expect(try Self.rule("gesture = \"tap\"\nfingers = 5").touchpadInput == .contacts)
        #expect(try Self.rule("gesture = \"swipe\"\nfingers = 3\ndevice = \"touchpad\"").touchpadInput == .gestures)
        #expect(try Self.rule("gesture = \"edge-pan\"\ndevice = \"touchpad\"\nedge-width = 4").touchpadInput == .contacts)
        // An edge pan on any device stays on touchscreens unless it asks for the fingers.
        #expect(try Self.rule("gesture = \"edge-pan\"").touchpadInput == nil)
        #expect(try Self.rule("gesture = \"edge-pan\"\nsource = \"contacts\"\nfingers = 2").touchpadInput == .contacts)
        #expect(try Self.rule("gesture = \"tap\"\nsource = \"contacts\"\ndevice = \"touchpad\"").touchpadInput == .contacts)
        #expect(try Self.rule("gesture = \"tap\"\nfingers = 4\ndevice = \"touchscreen\"").touchpadInput == nil)
    }

    @Test func compiledRecognizersTakeOneTouchpadInputOnly() throws {
        let book = try Rulebook.parse("""
            [rule.four]
            gesture = "tap"
            fingers = 4
            command = "x"

            [rule.three]
            gesture = "tap"
            fingers = 3
            command = "x"

            [rule.edge]
            gesture = "edge-pan"
            on-begin = "x"
            """, file: "rules.toml")
        final class Sink: CommandSink { func run(_ request: CommandRequest) {} }
        let compiled = CompiledRulebook(book, sink: Sink())
        let byName = Dictionary(uniqueKeysWithValues: compiled.recognizers.map { ($0.name!, $0) })
        #expect(byName["four"]?.touchpadInput == .contacts && byName["four"]?.allowedTouchTypes == [.direct, .indirect])
        #expect(byName["three"]?.touchpadInput == .automatic)
        #expect(byName["edge"]?.allowedTouchTypes == [.direct])
        #expect(compiled.readsTouchpadContacts && compiled.readsSemiMultitouchFingers)
    }

    @Test func onlyATapRuleWithTheDefaultSourceReadsSemiMultitouchFingers() throws {
        final class Sink: CommandSink { func run(_ request: CommandRequest) {} }
        func compiled(_ text: String) throws -> CompiledRulebook {
            CompiledRulebook(try Rulebook.parse(text, file: "rules.toml"), sink: Sink())
        }
        #expect(try compiled("[rule.t]\ngesture = \"tap\"\nfingers = 2\ncommand = \"x\"").readsSemiMultitouchFingers)
        #expect(try !compiled("[rule.t]\ngesture = \"tap\"\nsource = \"libinput\"\ncommand = \"x\"").readsSemiMultitouchFingers)
        #expect(try !compiled("[rule.t]\ngesture = \"tap\"\ndevice = \"touchscreen\"\ncommand = \"x\"").readsSemiMultitouchFingers)
        #expect(try !compiled("[rule.s]\ngesture = \"swipe\"\nfingers = 3\ncommand = \"x\"").readsSemiMultitouchFingers)
    }

    @Test func anUnknownSourceNamesTheAllowedOnes() {
        #expect(diagnostics("[rule.r]\ngesture = \"tap\"\nsource = \"evdev\"\ncommand = \"x\"") == [
            "rules.toml:3:10: error: unknown source 'evdev'; expected one of auto, libinput, contacts",
        ])
    }

    @Test func aRuleOnTheFingersThatWouldFireOnPointingIsAnErrorWithTheReason() {
        #expect(diagnostics("""
            [rule.point]
            gesture = "pan"
            device = "touchpad"
            source = "contacts"
            on-begin = "x"

            [rule.flick]
            gesture = "swipe"
            source = "contacts"
            command = "x"
            """) == [
                "rules.toml:2:11: error: one finger on a touchpad moves the pointer: a 1-finger pan read from its fingers would fire on ordinary pointing; use 3 or more fingers, or device = \"touchscreen\"",
                "rules.toml:8:11: error: one finger on a touchpad moves the pointer: a 1-finger swipe read from its fingers would fire on ordinary pointing (device = \"any\" includes touchpads); use 3 or more fingers, or device = \"touchscreen\"",
            ])
    }

    @Test func rulesOnTheFingersThatFireWhileScrollingOrRestingAreWarnings() {
        #expect(diagnostics("""
            [rule.scroll]
            gesture = "swipe"
            fingers = 2
            device = "touchpad"
            source = "contacts"
            command = "x"

            [rule.rest]
            gesture = "long-press"
            device = "touchpad"
            source = "contacts"
            on-begin = "x"

            [rule.edge]
            gesture = "edge-pan"
            device = "touchpad"
            on-begin = "x"

            [rule.screen]
            gesture = "tap"
            device = "touchscreen"
            source = "contacts"
            command = "x"
            """) == [
                "rules.toml:3:11: warning: two fingers moving on a touchpad scroll: this swipe fires while you scroll, and the scrolling still happens; use 3 or more fingers unless that is what you want",
                "rules.toml:9:11: warning: one finger on a touchpad is the pointer: a finger resting still for the press duration while you point fires this long-press",
                "rules.toml:15:11: warning: one finger on a touchpad moves the pointer: pointing that starts within the edge zone (edge-width, mm) and moves inward fires this edge-pan; keep edge-width small or use 2 or more fingers",
                "rules.toml:22:1: warning: source chooses touchpad input, but rule 'screen' listens to touchscreens only",
            ])
    }
}
