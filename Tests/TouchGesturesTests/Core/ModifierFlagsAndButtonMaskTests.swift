import Testing
import TouchGestures

/// `modifierFlags` and `buttonMask`, as UIKit's header says: "Values from the last event
/// processed. These values are not considered as requirements for the gesture."
struct ModifierFlagsAndButtonMaskTests {
    /// A rig whose every action also logs the recognizer's two values.
    func rig() -> Rig {
        Rig()
    }

    func logValues(_ rig: Rig, _ recognizer: GestureRecognizer) {
        recognizer.addAction { [unowned rig] r in
            rig.log.append("\(rig.scheduler.now.microseconds / 1000) \(r.label) keys \(r.modifierFlags) buttons \(r.buttonMask)")
        }
    }

    @Test func eachActionSeesTheValuesOfTheEventThatCausedIt() {
        let rig = rig()
        let swipe = rig.add(PanGestureRecognizer(), "pan")
        swipe.touchpadInput = .gestures
        logValues(rig, swipe)
        rig.modifierFlags = .command
        rig.run([.pad(.swipeBegin(fingers: 3), t: 0), .pad(.swipeUpdate(fingers: 3, delta: Point(x: 20, y: 0)), t: 10)])
        rig.modifierFlags = [.command, .shift]
        rig.buttonMask = .primary
        rig.run([.pad(.swipeUpdate(fingers: 3, delta: Point(x: 20, y: 0)), t: 20)])
        rig.modifierFlags = []
        rig.buttonMask = []
        rig.run([.pad(.swipeEnd(fingers: 3, cancelled: false), t: 30)])
        #expect(rig.log == [
            "10 pan possible -> began",
            "10 action pan began",
            "10 pan keys super buttons none",
            "20 pan began -> changed",
            "20 action pan changed",
            "20 pan keys shift+super buttons 1",
            "30 pan changed -> ended",
            "30 action pan ended",
            "30 pan keys none buttons none",
        ])
    }

    /// Not requirements: a tap with Ctrl and a button held is recognized as one without.
    @Test func theValuesAreNotRequirements() {
        let plain = rig()
        plain.add(TapGestureRecognizer(), "tap")
        plain.run(tap([1], at: (10, 10), t: 0))
        plain.settle()
        let held = rig()
        held.modifierFlags = .control
        held.buttonMask = .secondary
        let tapRecognizer = held.add(TapGestureRecognizer(), "tap")
        held.run(tap([1], at: (10, 10), t: 0))
        held.settle()
        #expect(held.log == plain.log)
        #expect(held.log.contains("50 action tap recognized"))
        #expect(tapRecognizer.modifierFlags == .control && tapRecognizer.buttonMask == .secondary)
    }

    /// "The last event processed" is the recognizer's own: one that is not given an event
    /// keeps what it had.
    @Test func aRecognizerKeepsTheValuesOfTheLastEventItProcessed() {
        let rig = rig()
        let screen = rig.add(TapGestureRecognizer(), "screen")
        screen.allowedTouchTypes = [.direct]
        let pad = rig.add(PanGestureRecognizer(), "pad")
        pad.allowedTouchTypes = [.indirect]
        #expect(screen.modifierFlags == [] && pad.modifierFlags == [])
        rig.modifierFlags = .alternate
        rig.run(tap([1], at: (10, 10), t: 0))
        rig.modifierFlags = .alphaShift
        rig.run([.pad(.swipeBegin(fingers: 3), t: 500), .pad(.swipeEnd(fingers: 3, cancelled: true), t: 510)])
        #expect(screen.modifierFlags == .alternate)
        #expect(pad.modifierFlags == .alphaShift)
    }

    @Test func buttonNumbersAreUIKitsMask() {
        #expect(EventButtonMask.button(1) == .primary)
        #expect(EventButtonMask.button(2) == .secondary)
        #expect(EventButtonMask.button(3)?.rawValue == 4)
        #expect(EventButtonMask.button(32)?.rawValue == 1 << 31)
        #expect(EventButtonMask.button(0) == nil && EventButtonMask.button(33) == nil)
        #expect(([.primary, EventButtonMask.button(3)!] as EventButtonMask).description == "1+3")
        #expect(([.control, .shift, .command, .alphaShift, .alternate] as KeyModifierFlags).description == "capslock+shift+ctrl+alt+super")
    }
}
