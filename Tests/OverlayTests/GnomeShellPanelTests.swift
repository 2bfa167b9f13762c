import BusLoop
import Overlay
import Testing
import TouchGestures

/// What touchgest sends GNOME Shell's extension for a scene (`ShowFeedback(s headline,
/// s decision, d progress, s verdict, ad trail)`), and the bounds it keeps: the extension
/// refuses a line longer than ``OverlayDefaults/maximumFeedbackText`` UTF-16 code units, a
/// trail of more than ``OverlayDefaults/maximumTrailPoints`` points and any number outside
/// 0...1 (but progress -1, none).
struct GnomeShellPanelTests {
    typealias Message = GnomeShellPanel.Message

    @Test func aScenesLinesProgressVerdictAndTrailGoAsTheyAreShown() {
        var scene = OverlayScene()
        scene.fingers = 1
        scene.mostFingers = 1
        scene.rule = "v"
        scene.gesture = "stroke"
        scene.moment = "recognized"
        scene.progress = 0.4
        scene.verdict = "v 0.91 fired"
        scene.trail = [Point(x: 0.25, y: 0.5), Point(x: 0.75, y: 1)]
        #expect(Message(scene) == Message(headline: "1 finger · stroke", decision: "rule v: recognized", progress: 0.4,
                                          verdict: "v 0.91 fired", trail: [0.25, 0.5, 0.75, 1]))
        // No rule, no progress, no verdict, no trail.
        var undecided = OverlayScene()
        undecided.fingers = 3
        #expect(Message(undecided) == Message(headline: "3 fingers", decision: "deciding...", progress: -1, verdict: "", trail: []))
    }

    @Test func numbersOutsideZeroToOneAreClampedAndOnesThatAreNotNumbersLeftOut() {
        var scene = OverlayScene()
        scene.progress = 1.7
        scene.trail = [Point(x: -0.5, y: 0.5), Point(x: .nan, y: 0.2), Point(x: 1.5, y: .infinity), Point(x: 0.3, y: 2)]
        #expect(Message(scene).progress == 1)
        #expect(Message(scene).trail == [0, 0.5, 0.3, 1])
        scene.progress = -0.2
        #expect(Message(scene).progress == 0)
        scene.progress = .nan
        #expect(Message(scene).progress == -1)
    }

    // A rule's name is the user's: a long one is cut to what the extension takes, with an
    // ellipsis, counted as JavaScript counts (an emoji is two UTF-16 units); a line break
    // in it would make the panel's line two.
    @Test func aLongOrMultiLineRuleNameIsCutToWhatTheExtensionTakes() {
        var scene = OverlayScene()
        scene.rule = String(repeating: "😀", count: 150)
        scene.moment = "began"
        let decision = Message(scene).decision
        #expect(decision.utf16.count <= OverlayDefaults.maximumFeedbackText)
        #expect(decision == "rule " + String(repeating: "😀", count: 97) + "…")
        scene.rule = "two\nlines"
        #expect(Message(scene).decision == "rule two lines: began")
        scene.rule = String(repeating: "r", count: OverlayDefaults.maximumFeedbackText - "rule : began".count)
        #expect(Message(scene).decision.utf16.count == OverlayDefaults.maximumFeedbackText, "a line that fits is not cut")
        #expect(!Message(scene).decision.hasSuffix("…"))
    }

    // A trail past the bound (a scene never keeps one, but the wire does not rely on it) is
    // thinned evenly, keeping its first and last points.
    @Test func aTrailPastTheBoundIsThinnedKeepingItsEnds() {
        var scene = OverlayScene()
        scene.trail = (0..<1_000).map { Point(x: Double($0) / 999, y: 0.5) }
        let trail = Message(scene).trail
        #expect(trail.count == 2 * OverlayDefaults.maximumTrailPoints)
        #expect(Array(trail.prefix(2)) == [0, 0.5] && Array(trail.suffix(2)) == [1, 0.5])
        let xs = stride(from: 0, to: trail.count, by: 2).map { trail[$0] }
        #expect(zip(xs, xs.dropFirst()).allSatisfy { $0 < $1 }, "in order, none twice")
    }

    // GNOME on Wayland gets the panel its extension draws, where it used to get none.
    @Test func gnomeOnWaylandGetsThePanelTheShellDraws() throws {
        let overlay = try GestureOverlay.choose(environment: [
            "WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus",
        ]).get()
        var reports: [String] = []
        overlay.onReport = { reports.append("\($0)") }
        // No bus there: said at the first finger, once, and nothing is left to wait on.
        for _ in 0..<2 {
            let begin = InputEvent.touchpad(TouchpadEvent(.swipeBegin(fingers: 3), timestamp: .milliseconds(1)))
            overlay.prepare(begin)
            overlay.input(begin)
            let end = InputEvent.touchpad(TouchpadEvent(.swipeEnd(fingers: 3, cancelled: false), timestamp: .milliseconds(2)))
            overlay.prepare(end)
            overlay.input(end)
        }
        #expect(reports == [
            "overlay: the session bus: cannot reach the session bus at unix:path=/nonexistent/bus: /nonexistent/bus: No such file or directory",
        ])
        #expect(overlay.nextDeadline == nil && overlay.pollDescriptors.isEmpty)
    }

    @Test func withoutASessionBusFeedbackIsOffAndSaysWhy() {
        let panel = GnomeShellPanel(sessionBus: "")
        #expect(panel.open() == "no session bus to reach GNOME Shell on (DBUS_SESSION_BUS_ADDRESS is not set): feedback is off")
    }
}
