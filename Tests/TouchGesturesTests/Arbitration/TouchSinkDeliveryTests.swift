import Testing
@testable import TouchGestures

/// A view that writes what reaches it into the rig's transcript.
private final class View: TouchSink {
    let rig: Rig
    init(_ rig: Rig) { self.rig = rig }
    private func note(_ what: String, _ touches: [Touch], _ time: Timestamp) {
        rig.log.append("\(time.microseconds / 1000) view \(what) \(touches.map { String($0.id) }.joined(separator: ","))")
    }
    func touchesBegan(_ touches: [Touch], at time: Timestamp) { note("began", touches, time) }
    func touchesMoved(_ touches: [Touch], at time: Timestamp) { note("moved", touches, time) }
    func touchesEnded(_ touches: [Touch], at time: Timestamp) { note("ended", touches, time) }
    func touchesCancelled(_ touches: [Touch], at time: Timestamp) { note("cancelled", touches, time) }
}

@Suite struct TouchSinkDeliveryTests {
    @Test func theDocumentedDefaults() {
        let recognizer = TapGestureRecognizer()
        #expect(recognizer.cancelsTouchesInView)
        #expect(!recognizer.delaysTouchesBegan)
        #expect(recognizer.delaysTouchesEnded)
    }

    @Test func withNoRecognizerTheViewSeesEveryTouch() {
        let rig = Rig()
        let view = View(rig)
        rig.environment.view = view
        rig.run([.down(1, at: (10, 10), t: 0), .move(1, to: (20, 10), t: 10), .up(1, t: 20)])
        #expect(rig.log == ["0 view began 1", "10 view moved 1", "20 view ended 1"])
    }

    // UIKit's header: touches are cancelled in the view when the recognizer recognizes,
    // so the view hears touchesCancelled before the action runs.
    @Test func byDefaultTheEndWaitsForTheRecognizerAndBecomesACancelBeforeTheAction() {
        let rig = Rig()
        let view = View(rig)
        rig.environment.view = view
        let double = rig.add(TapGestureRecognizer(), "double")
        double.numberOfTapsRequired = 2
        rig.run(tap([1], at: (10, 10), t: 0) + tap([2], at: (10, 10), t: 100))
        #expect(rig.log == [
            "0 view began 1",
            "100 view began 2",
            "150 double possible -> recognized",
            "150 view cancelled 1", "150 view cancelled 2",
            "150 action double recognized",
        ])
    }

    @Test func whenTheRecognizerFailsTheDelayedEndIsDelivered() {
        let rig = Rig()
        let view = View(rig)
        rig.environment.view = view
        let double = rig.add(TapGestureRecognizer(), "double")
        double.numberOfTapsRequired = 2
        rig.run(tap([1], at: (10, 10), t: 0))
        rig.settle()
        #expect(rig.log == ["0 view began 1", "450 double possible -> failed", "450 view ended 1"])
    }

    @Test func withoutCancelsTouchesInViewARecognizedGestureReleasesTheEnd() {
        let rig = Rig()
        let view = View(rig)
        rig.environment.view = view
        let tapRecognizer = rig.add(TapGestureRecognizer(), "tap")
        tapRecognizer.cancelsTouchesInView = false
        rig.run(tap([1], at: (10, 10), t: 0))
        #expect(rig.log == ["0 view began 1", "50 tap possible -> recognized", "50 action tap recognized", "50 view ended 1"])
    }

    @Test func withoutDelaysTouchesEndedTheEndIsDeliveredAtOnce() {
        let rig = Rig()
        let view = View(rig)
        rig.environment.view = view
        let double = rig.add(TapGestureRecognizer(), "double")
        double.numberOfTapsRequired = 2
        double.delaysTouchesEnded = false
        rig.run(tap([1], at: (10, 10), t: 0))
        #expect(rig.log == ["0 view began 1", "50 view ended 1"])
    }

    @Test func delaysTouchesBeganHoldsTheTouchUntilTheRecognizerFails() {
        let rig = Rig()
        let view = View(rig)
        rig.environment.view = view
        let press = rig.add(LongPressGestureRecognizer(), "press")
        press.delaysTouchesBegan = true
        rig.run([.down(1, at: (10, 10), t: 0), .move(1, to: (11, 10), t: 10), .move(1, to: (30, 10), t: 20),
                 .move(1, to: (40, 10), t: 30), .up(1, t: 40)])
        // The held began arrives (at the first position) once the press fails, then the
        // move of the frame that made it fail.
        #expect(rig.log == ["20 press possible -> failed", "20 view began 1", "20 view moved 1", "30 view moved 1",
                            "40 view ended 1"])
    }

    @Test func delaysTouchesBeganHidesTheTouchForGoodWhenTheRecognizerWins() {
        let rig = Rig()
        let view = View(rig)
        rig.environment.view = view
        let press = rig.add(LongPressGestureRecognizer(), "press")
        press.delaysTouchesBegan = true
        rig.run([.down(1, at: (10, 10), t: 0), .wait(t: 500), .up(1, t: 600)])
        #expect(rig.log == ["500 press possible -> began", "500 action press began",
                            "600 press began -> ended", "600 action press ended"])
    }

    @Test func aContinuousRecognizerCancelsTheViewsTouchesWhenItBegins() {
        let rig = Rig()
        let view = View(rig)
        rig.environment.view = view
        rig.add(PanGestureRecognizer(), "pan")
        rig.run([.down(1, at: (10, 10), t: 0), .move(1, to: (12, 10), t: 10), .move(1, to: (20, 10), t: 20),
                 .move(1, to: (30, 10), t: 30)])
        #expect(rig.log == ["0 view began 1", "10 view moved 1", "20 pan possible -> began", "20 view cancelled 1",
                            "20 action pan began", "30 pan began -> changed", "30 action pan changed"])
    }
}

