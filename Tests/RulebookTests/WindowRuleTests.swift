import Testing
@testable import Rulebook
import TouchGestures

/// Rules for the focused window: `application`, `title`, their negations, and which of
/// two rules for the same gesture fires.
@Suite struct WindowRuleTests {
    static let tabs = """
        [rule.workspace]
        gesture = "swipe"
        device = "touchpad"
        fingers = 3
        direction = "left"
        command = "swaymsg workspace next"

        [rule.browser-tab]
        gesture = "swipe"
        device = "touchpad"
        fingers = 3
        direction = "left"
        application = ["firefox*", "chromium"]
        command = "wtype -M ctrl -k Tab"
        """

    private func focus(_ rig: RuleRig, _ application: String, _ title: String = "") {
        rig.compiled.focus.current = .window(FocusedWindow(application: application, title: title))
    }

    private func swipeLeft(_ rig: RuleRig, at t: UInt64, focusDuring: (() -> Void)? = nil) {
        rig.pad(.swipeBegin(fingers: 3), t: t)
        focusDuring?()
        for step in 1...6 { rig.pad(.swipeUpdate(fingers: 3, delta: Point(x: -6, y: 0)), t: t + UInt64(step) * 10) }
        rig.pad(.swipeEnd(fingers: 3, cancelled: false), t: t + 70)
        rig.settle()
    }

    // MARK: Parsing

    @Test func conditionsTakeOneGlobOrAList() throws {
        let book = try Rulebook.parse(Self.tabs + """

            [rule.video]
            gesture = "tap"
            fingers = 2
            title = "*YouTube*"
            not-application = "mpv"
            not-title = ["*Private*", "*Incognito*"]
            command = "playerctl play-pause"
            """, file: "rules.toml")
        #expect(book.warnings.isEmpty)
        #expect(book.rule(named: "workspace")?.window.isEmpty == true)
        #expect(book.rule(named: "browser-tab")?.window == WindowCondition(applications: ["firefox*", "chromium"]))
        #expect(book.rule(named: "video")?.window == WindowCondition(
            titles: ["*YouTube*"], notApplications: ["mpv"], notTitles: ["*Private*", "*Incognito*"]))
    }

    @Test func badConditionsAreErrorsAtTheirValue() {
        #expect(diagnostics("""
            [rule.a]
            gesture = "tap"
            application = 3
            command = "x"

            [rule.b]
            gesture = "tap"
            fingers = 2
            title = []
            command = "x"

            [rule.c]
            gesture = "tap"
            fingers = 3
            not-application = ["firefox", ""]
            command = "x"

            [rule.d]
            gesture = "tap"
            taps = 2
            applications = "firefox"
            command = "x"
            """) == [
            "rules.toml:3:15: error: application must be a string or a list of strings, not the integer 3",
            "rules.toml:9:9: error: title is an empty list; give a glob such as \"firefox\" or \"*term*\", or leave the key out",
            "rules.toml:15:19: error: not-application has an empty glob; give an application id or WM_CLASS, such as \"firefox\"",
            "rules.toml:21:1: error: unknown key 'applications' in rule 'd' (tap) (did you mean 'application'?); allowed keys: gesture, device, device-name, source, fingers, taps, max-duration, max-interval, multi-tap-slop, slop, command, keys, text, button, shortcut, modifiers, buttons, action, stream, timeout, overlap, require-to-fail, application, title, not-application, not-title, when-locked",
        ])
    }

    @Test func globsIgnoreCaseAndMatchTheWholeText() {
        let condition = WindowCondition(applications: ["Firefox*"], notTitles: ["*private*"])
        #expect(condition.matches(FocusedWindow(application: "firefox-esr", title: "Debian")))
        #expect(condition.matches(FocusedWindow(application: "FIREFOX", title: "")))
        #expect(!condition.matches(FocusedWindow(application: "org.mozilla.firefox", title: "")))
        #expect(!condition.matches(FocusedWindow(application: "firefox", title: "Private Browsing")))
    }

    // MARK: Precedence

    @Test func theGeneralRuleWaitsForTheApplicationRuleAndCheckExplainSaysSo() throws {
        let book = try Rulebook.parse(Self.tabs, file: "rules.toml")
        #expect(book.requirements == [.init(waiter: "workspace", waitedOn: "browser-tab", reason: .window)])
        #expect(book.explain() == """
            workspace    swipe, 3 fingers, left, touchpad; waits for browser-tab (its window is more specific) to fail
            browser-tab  swipe, 3 fingers, left, touchpad, application "firefox*"|"chromium"
            """)
    }

    @Test func anApplicationAndATitleGoBeforeAnApplicationAloneAndNegationsLast() throws {
        let book = try Rulebook.parse("""
            [rule.any]
            gesture = "pinch"
            command = "a"

            [rule.not-term]
            gesture = "pinch"
            not-application = "foot"
            command = "b"

            [rule.browser]
            gesture = "pinch"
            application = "firefox"
            command = "c"

            [rule.maps]
            gesture = "pinch"
            application = "firefox"
            title = "*Maps*"
            command = "d"

            [rule.other-app]
            gesture = "pinch"
            application = "imv"
            command = "e"
            """, file: "rules.toml")
        #expect(book.warnings.isEmpty)
        let waits = Set(book.requirements.map { "\($0.waiter) > \($0.waitedOn)" })
        #expect(waits == [
            "any > not-term", "any > browser", "any > maps", "any > other-app",
            "not-term > browser", "not-term > maps", "not-term > other-app",
            "browser > maps",
        ])
    }

    @Test func aRequireToFailWrittenTheOtherWayRoundIsKept() throws {
        let book = try Rulebook.parse(Self.tabs + "\nrequire-to-fail = \"workspace\"\n", file: "rules.toml")
        #expect(book.requirements == [.init(waiter: "browser-tab", waitedOn: "workspace", reason: .explicit)])
    }

    @Test func rulesThatDifferOnlyInTheirWindowAreNotReportedAsIndistinguishable() {
        #expect(diagnostics(Self.tabs) == [])
        #expect(diagnostics(Self.tabs.split(separator: "\n").filter { !$0.hasPrefix("application") }.joined(separator: "\n")) == [
            "rules.toml:7:1: warning: rules 'workspace' and 'browser-tab' match the same gesture (swipe, 3 fingers, left, touchpad) and can never be told apart; only one of them will run",
        ])
    }

    // MARK: Firing

    @Test func theSameSwipeRunsTheBrowsersCommandInTheBrowserAndTheGeneralOneElsewhere() throws {
        let rig = try RuleRig(Self.tabs)
        focus(rig, "firefox-esr", "Debian — Mozilla Firefox")
        swipeLeft(rig, at: 0)
        focus(rig, "foot", "~")
        swipeLeft(rig, at: 1000)
        focus(rig, "chromium")
        swipeLeft(rig, at: 2000)
        #expect(rig.recorder.lines == ["browser-tab recognized", "workspace recognized", "browser-tab recognized"])
        #expect(rig.recorder.requests.map { $0.environment["TOUCHGEST_APP"] } == ["firefox-esr", "foot", "chromium"])
        #expect(rig.recorder.requests[0].environment["TOUCHGEST_TITLE"] == "Debian — Mozilla Firefox")
    }

    @Test func theWindowFocusedWhenTheGestureBeganDecidesTheWholeGesture() throws {
        let rig = try RuleRig(Self.tabs)
        focus(rig, "foot")
        swipeLeft(rig, at: 0) { self.focus(rig, "firefox") }
        swipeLeft(rig, at: 1000) { self.focus(rig, "foot") }
        #expect(rig.recorder.lines == ["workspace recognized", "browser-tab recognized"])
        #expect(rig.recorder.requests.map { $0.environment["TOUCHGEST_APP"] } == ["foot", "firefox"])
    }

    @Test func withNoFocusProviderOnlyRulesWithoutAWindowFireAndTheReasonIsToldOnce() throws {
        let rig = try RuleRig(Self.tabs)
        var told: [String] = []
        rig.compiled.focus.onUnavailable = { told.append($0) }
        rig.compiled.focus.current = .unknown("sway's IPC socket /run/user/1000/sway-ipc.sock is gone")
        swipeLeft(rig, at: 0)
        swipeLeft(rig, at: 1000)
        focus(rig, "firefox")
        swipeLeft(rig, at: 2000)
        rig.compiled.focus.current = .unknown("no focus provider")
        swipeLeft(rig, at: 3000)
        #expect(rig.recorder.lines == ["workspace recognized", "workspace recognized", "browser-tab recognized", "workspace recognized"])
        #expect(rig.recorder.requests[0].environment["TOUCHGEST_APP"] == nil)
        #expect(told == [
            "rules with an application or title condition do not fire: sway's IPC socket /run/user/1000/sway-ipc.sock is gone",
            "rules with an application or title condition do not fire: no focus provider",
        ])
    }

    @Test func aRuleForOneApplicationAloneFiresOnlyThere() throws {
        let rig = try RuleRig("""
            [rule.terminal-paste]
            gesture = "tap"
            fingers = 3
            application = ["foot", "*term*"]
            command = "paste"
            """)
        var sitOuts: [String] = []
        rig.compiled.focus.onSitOut = { sitOuts.append("\($0): \($1)") }
        for (index, app) in ["xterm", "firefox", "foot"].enumerated() {
            focus(rig, app, "t")
            rig.pad(.tap(fingers: 3), t: UInt64(index) * 1000)
            rig.settle()
        }
        rig.compiled.focus.current = .noWindow
        rig.pad(.tap(fingers: 3), t: 5000)
        rig.settle()
        #expect(rig.recorder.requests.map { $0.environment["TOUCHGEST_APP"] } == ["xterm", "foot"])
        #expect(sitOuts == [
            "terminal-paste: the focused window is firefox \"t\"; the rule wants application \"foot\"|\"*term*\"",
            "terminal-paste: no window is focused; the rule wants application \"foot\"|\"*term*\"",
        ])
    }

    @Test func aNegationFiresEverywhereButThereAndAlsoOnAnEmptyWorkspace() throws {
        let rig = try RuleRig("""
            [rule.close]
            gesture = "tap"
            fingers = 3
            not-application = "foot"
            command = "close"
            """)
        for (index, app) in ["foot", "firefox"].enumerated() {
            focus(rig, app)
            rig.pad(.tap(fingers: 3), t: UInt64(index) * 1000)
            rig.settle()
        }
        rig.compiled.focus.current = .noWindow
        rig.pad(.tap(fingers: 3), t: 5000)
        rig.settle()
        #expect(rig.recorder.requests.map { $0.environment["TOUCHGEST_APP"] } == ["firefox", ""])
    }

    /// A general single tap waits for both the double tap (more taps) and the editor's
    /// single tap (its window); the editor's single tap waits for the double tap too.
    static let tapChain = """
        [rule.single]
        gesture = "tap"
        command = "general"

        [rule.editor-single]
        gesture = "tap"
        application = "code"
        command = "editor"

        [rule.double]
        gesture = "tap"
        taps = 2
        command = "double"
        """

    @Test func underARequireToFailChainTheSpecificRuleStillWinsAndNeverBothFire() throws {
        let book = try Rulebook.parse(Self.tapChain, file: "rules.toml")
        #expect(Set(book.requirements) == [
            .init(waiter: "single", waitedOn: "double", reason: .moreTaps),
            .init(waiter: "editor-single", waitedOn: "double", reason: .moreTaps),
            .init(waiter: "single", waitedOn: "editor-single", reason: .window),
        ])
        let rig = try RuleRig(Self.tapChain)
        focus(rig, "code")
        rig.tap(at: 0)
        rig.settle()
        rig.tap(at: 1000)
        rig.tap(at: 1200)
        rig.settle()
        focus(rig, "firefox")
        rig.tap(at: 3000)
        rig.settle()
        rig.tap(at: 4000)
        rig.tap(at: 4200)
        rig.settle()
        #expect(rig.recorder.lines == ["editor-single recognized", "double recognized", "single recognized", "double recognized"])
    }

    @Test func aGeneralRuleIsNotDelayedByAnApplicationRuleThatSitsOut() throws {
        // The browser's swipe needs 40 mm; the general one 10 mm. Outside the browser the
        // general swipe fires as soon as it has its 10 mm, not when 40 mm are reached.
        let rig = try RuleRig("""
            [rule.workspace]
            gesture = "swipe"
            device = "touchpad"
            fingers = 3
            distance = 10
            command = "w"

            [rule.browser-tab]
            gesture = "swipe"
            device = "touchpad"
            fingers = 3
            distance = 40
            application = "firefox"
            command = "b"
            """)
        var fired: [String] = []
        for recognizer in rig.compiled.recognizers {
            recognizer.addAction { fired.append("\($0.name!) \($0.state)") }
        }
        focus(rig, "foot")
        rig.pad(.swipeBegin(fingers: 3), t: 0)
        rig.pad(.swipeUpdate(fingers: 3, delta: Point(x: -6, y: 0)), t: 10)
        rig.pad(.swipeUpdate(fingers: 3, delta: Point(x: -6, y: 0)), t: 20)
        #expect(fired == ["workspace ended"])
        rig.pad(.swipeEnd(fingers: 3, cancelled: false), t: 30)
        rig.settle()
        #expect(rig.recorder.lines == ["workspace recognized"])
    }

    /// Linux refuses an environment string over 128 KiB (E2BIG): a window's 1 MiB title
    /// must not stop the command (issue 23). It reaches the command cut, and still matches.
    @Test func aHugeTitleReachesTheCommandCutAndStillMatches() throws {
        let rig = try RuleRig("""
            [rule.video]
            gesture = "swipe"
            device = "touchpad"
            fingers = 3
            title = "Watch*"
            command = "v"
            """)
        focus(rig, "firefox", "Watch " + String(repeating: "ü", count: 524_288))
        swipeLeft(rig, at: 0)
        rig.settle()
        let title = try #require(rig.recorder.requests.first?.environment["TOUCHGEST_TITLE"])
        #expect(title.utf8.count <= 4_096 && title.hasPrefix("Watch üü"))
        #expect(rig.recorder.lines == ["video recognized"])
    }
}
