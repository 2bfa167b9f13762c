import Testing
@testable import TouchGestures

@Suite struct PinchGestureRecognizerTests {
    @Test func beginsWhenTheSpanChangesPastTheSlopAndReportsScale() {
        let rig = Rig()
        let pinch = rig.add(PinchGestureRecognizer(), "pinch")
        var scales: [Double] = []
        pinch.addAction { scales.append(($0 as! PinchGestureRecognizer).scale) }
        // Fingers 40 mm apart spread to 44 (not past the 4 mm slop), then 50, then 60.
        rig.run([.down(1, at: (80, 50), t: 0), .down(2, at: (120, 50), t: 0),
                 .move(2, to: (124, 50), t: 10), .move(2, to: (130, 50), t: 20), .move(2, to: (140, 50), t: 30),
                 .up(1, t: 40), .up(2, t: 40)])
        #expect(rig.log == [
            "20 pinch possible -> began", "20 action pinch began",
            "30 pinch began -> changed", "30 action pinch changed",
            "40 pinch changed -> ended", "40 action pinch ended",
        ])
        #expect(scales == [1.25, 1.5, 1.5])
    }

    @Test func settingTheScaleMeasuresFromNow() {
        let rig = Rig()
        let pinch = rig.add(PinchGestureRecognizer(), "pinch")
        rig.run([.down(1, at: (80, 50), t: 0), .down(2, at: (120, 50), t: 0), .move(2, to: (160, 50), t: 10)])
        #expect(pinch.scale == 2)
        pinch.scale = 1
        rig.run([.move(2, to: (240, 50), t: 20)])
        #expect(pinch.scale == 2)
        #expect(pinch.velocity > 0)
    }

    @Test func oneFingerIsNotAPinch() {
        let rig = Rig()
        rig.add(PinchGestureRecognizer(), "pinch")
        rig.run(drag([1], from: (50, 50), by: (30, 0), t: 0, duration: 100))
        #expect(rig.log == ["100 pinch possible -> failed"])
    }

    @Test func aTouchpadPinchUsesLibinputsScale() {
        let rig = Rig()
        let pinch = rig.add(PinchGestureRecognizer(), "pinch")
        rig.run([.pad(.pinchBegin(fingers: 2), t: 0),
                 .pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 0.96, angleDelta: 0), t: 10),
                 .pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 0.95, angleDelta: 0), t: 20),
                 .pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 0.5, angleDelta: 0), t: 30),
                 .pad(.pinchEnd(fingers: 2, cancelled: false), t: 40)])
        #expect(rig.log == [
            "20 pinch possible -> began", "20 action pinch began",
            "30 pinch began -> changed", "30 action pinch changed",
            "40 pinch changed -> ended", "40 action pinch ended",
        ])
        #expect(pinch.state == .possible)
    }
}

@Suite struct RotationGestureRecognizerTests {
    @Test func beginsPastTheThresholdAndReportsClockwiseRadians() {
        let rig = Rig()
        let rotation = rig.add(RotationGestureRecognizer(), "rotate")
        var angles: [Double] = []
        rotation.addAction { angles.append(($0 as! RotationGestureRecognizer).rotation) }
        // Finger 2 circles finger 1 at 40 mm: 5 degrees (under 8.6), then 30, then 90, clockwise on screen.
        func at(_ degrees: Double) -> (Double, Double) {
            (100 + 40 * Double.cos(degrees * .pi / 180), 100 + 40 * Double.sin(degrees * .pi / 180))
        }
        rig.run([.down(1, at: (100, 100), t: 0), .down(2, at: at(0), t: 0),
                 .move(2, to: at(5), t: 10), .move(2, to: at(30), t: 20), .move(2, to: at(90), t: 30), .up(2, t: 40)])
        #expect(rig.log == [
            "20 rotate possible -> began", "20 action rotate began",
            "30 rotate began -> changed", "30 action rotate changed",
            "40 rotate changed -> ended", "40 action rotate ended",
        ])
        #expect(angles.map { ($0 * 180 / .pi).rounded() } == [30, 90, 90])
    }

    @Test func turningPastHalfACircleKeepsCounting() {
        let rig = Rig()
        let rotation = rig.add(RotationGestureRecognizer(), "rotate")
        func at(_ degrees: Double) -> (Double, Double) {
            (100 + 40 * Double.cos(degrees * .pi / 180), 100 + 40 * Double.sin(degrees * .pi / 180))
        }
        rig.run([.down(1, at: (100, 100), t: 0), .down(2, at: at(0), t: 0)]
            + stride(from: 30.0, through: 270, by: 30).enumerated().map { .move(2, to: at($1), t: UInt64($0 + 1) * 10) })
        #expect((rotation.rotation * 180 / .pi).rounded() == 270)
    }

    @Test func aTouchpadPinchTurnsWithItsAngleDeltas() {
        let rig = Rig()
        let rotation = rig.add(RotationGestureRecognizer(), "rotate")
        rig.run([.pad(.pinchBegin(fingers: 2), t: 0)]
            + (1...5).map { .pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 1, angleDelta: -3), t: UInt64($0) * 10) })
        #expect(rig.log == ["30 rotate possible -> began", "30 action rotate began",
                            "40 rotate began -> changed", "40 action rotate changed",
                            "50 rotate changed -> changed", "50 action rotate changed"])
        #expect((rotation.rotation * 180 / .pi).rounded() == -15)
    }
}

import RealModule

/// `numberOfTouchesRequired` holds on touchscreens too: a 3-finger pinch is not a 2-finger one.
@Suite struct FingerCountOnTouchscreenTests {
    @Test func aThreeFingerPinchIgnoresTwoFingers() {
        // Two fingers spreading from 40 to 80 mm apart: a two-finger pinch begins on them.
        let spread: [Step] = [.down(1, at: (80, 50), t: 0), .down(2, at: (120, 50), t: 0),
                              .move(2, to: (140, 50), t: 10), .move(2, to: (160, 50), t: 20), .up(1, t: 30), .up(2, t: 30)]
        let two = Rig()
        two.add(PinchGestureRecognizer(), "pinch")
        two.run(spread)
        #expect(two.log.first == "10 pinch possible -> began")
        // A three-finger pinch waits for a third finger that never comes, and fails when they lift.
        let three = Rig()
        let pinch = three.add(PinchGestureRecognizer(), "pinch")
        pinch.numberOfTouchesRequired = 3
        three.run(spread)
        #expect(three.log == ["30 pinch possible -> failed"])
    }

    @Test func aThreeFingerPinchFollowsThreeFingersSpreading() {
        let rig = Rig()
        let pinch = rig.add(PinchGestureRecognizer(), "pinch")
        pinch.numberOfTouchesRequired = 3
        var scales: [Double] = []
        pinch.addAction { scales.append(($0 as! PinchGestureRecognizer).scale) }
        // Three fingers around (100, 100) move out to twice their distance from the centre.
        rig.run([.down(1, at: (90, 100), t: 0), .down(2, at: (110, 100), t: 0), .down(3, at: (100, 80), t: 0),
                 .move(1, to: (80, 100), t: 10), .move(2, to: (120, 100), t: 10), .move(3, to: (100, 60), t: 10),
                 .up(1, t: 20), .up(2, t: 20), .up(3, t: 20)])
        #expect(rig.log.first == "10 pinch possible -> began")
        #expect(scales.first.map { abs($0 - 2) < 1e-9 } == true)
    }

    @Test func aThreeFingerRotationFollowsThreeFingersTurning() {
        let rig = Rig()
        let rotation = rig.add(RotationGestureRecognizer(), "rotation")
        rotation.numberOfTouchesRequired = 3
        var degrees: [Double] = []
        rotation.addAction { degrees.append(($0 as! RotationGestureRecognizer).rotation * 180 / .pi) }
        // Three fingers 20 mm from (100, 100) at 0, 120 and 240 degrees turn 30 degrees clockwise.
        func at(_ angle: Double) -> (Double, Double) {
            let radians = angle * .pi / 180
            return (100 + 20 * Double.cos(radians), 100 + 20 * Double.sin(radians))
        }
        rig.run([.down(1, at: at(0), t: 0), .down(2, at: at(120), t: 0), .down(3, at: at(240), t: 0),
                 .move(1, to: at(30), t: 10), .move(2, to: at(150), t: 10), .move(3, to: at(270), t: 10),
                 .up(1, t: 20), .up(2, t: 20), .up(3, t: 20)])
        #expect(rig.log.first == "10 rotation possible -> began")
        #expect(degrees.first.map { abs($0 - 30) < 1e-6 } == true)
    }
}

/// A pinch is a change of spread the fingers' travel does not explain: two fingers
/// scrolling drift apart or together as they go.
@Suite struct PinchWhileTravellingTests {
    /// Touchpad pinch updates that each move the fingers' centroid `step` mm down, to `scales`.
    static func updates(_ scales: [Double], step: Double, angle: Double = 0) -> [Step] {
        [.pad(.pinchBegin(fingers: 2), t: 0)]
            + scales.enumerated().map { index, scale in
                .pad(.pinchUpdate(fingers: 2, delta: Point(x: 0, y: step), scale: scale, angleDelta: angle), t: UInt64(index + 1) * 10)
            }
            + [.pad(.pinchEnd(fingers: 2, cancelled: false), t: UInt64(scales.count + 1) * 10)]
    }

    @Test func aScrollWhoseSpreadDriftsSevenPercentIsNoPinch() {
        // 30 mm of travel in ten updates while the scale drifts to 1.07: 0.05 + 0.006 * 30 is needed.
        let rig = Rig()
        rig.add(PinchGestureRecognizer(), "pinch")
        rig.run(Self.updates((1...10).map { 1 + 0.007 * Double($0) }, step: 3))
        #expect(rig.log == ["110 pinch possible -> failed"])
    }

    @Test func aChangeJustOverWhatTheTravelExplainsIsAPinch() {
        // After 10 mm of travel a pinch needs 0.05 + 0.06: 1.111 is past it, 1.109 is not.
        let rig = Rig()
        rig.add(PinchGestureRecognizer(), "pinch")
        rig.run(Self.updates([1.02, 1.04, 1.06, 1.08, 1.109], step: 2))
        #expect(rig.log == ["60 pinch possible -> failed"])
        rig.log.removeAll()
        rig.run(Self.updates([1.02, 1.04, 1.06, 1.08, 1.111], step: 2).map { $0.later(by: 1000) })
        #expect(rig.log.first == "1050 pinch possible -> began")
    }

    @Test func aPinchMadeWhileTheHandMovesIsStillAPinch() {
        // x0.6 over 20 mm of travel: at 0.92 the fingers have gone 4 mm, and 0.074 is needed.
        let rig = Rig()
        let pinch = rig.add(PinchGestureRecognizer(), "pinch")
        var scales: [Double] = []
        pinch.addAction { scales.append(($0 as! PinchGestureRecognizer).scale) }
        rig.run(Self.updates((1...10).map { 1 - 0.04 * Double($0) }, step: 2))
        #expect(rig.log.first == "20 pinch possible -> began")
        #expect(rig.log.last == "110 action pinch ended")
        #expect(scales.last.map { abs($0 - 0.6) < 1e-9 } == true)
    }

    @Test func twoTouchscreenFingersDraggingApartAsTheyGoAreNoPinch() {
        // 20 mm apart, dragged 30 mm down while the gap grows to 25 mm: past the 4 mm slop,
        // short of the 4 + 0.006 * 30 * 20 mm the travel allows.
        let rig = Rig()
        rig.add(PinchGestureRecognizer(), "pinch")
        rig.run([.down(1, at: (100, 100), t: 0), .down(2, at: (120, 100), t: 0)]
            + (1...10).flatMap { frame -> [Step] in
                let f = Double(frame) / 10
                return [.move(1, to: (100 - 2.5 * f, 100 + 30 * f), t: UInt64(frame) * 20),
                        .move(2, to: (120 + 2.5 * f, 100 + 30 * f), t: UInt64(frame) * 20)]
            }
            + [.up(1, t: 220), .up(2, t: 220)])
        #expect(rig.log == ["220 pinch possible -> failed"])
    }
}

/// Pinch against rotation on the same fingers: the change that dominates, measured alike
/// (each finger's radial movement against its arc), not the threshold crossed first. The
/// rulebook asks for it when a pinch rule and a rotation rule see the same fingers.
@Suite struct PinchAgainstRotationTests {
    static func rig() -> Rig {
        let rig = Rig()
        rig.add(PinchGestureRecognizer(), "pinch").dominance = GestureDefaults.pinchRotationDominance
        rig.add(RotationGestureRecognizer(), "rotate").dominance = GestureDefaults.pinchRotationDominance
        return rig
    }

    @Test func withoutDominanceTheFirstThresholdCrossedWins() {
        let rig = Rig()
        rig.add(PinchGestureRecognizer(), "pinch")
        rig.add(RotationGestureRecognizer(), "rotate")
        rig.run([.pad(.pinchBegin(fingers: 2), t: 0),
                 .pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 1.05, angleDelta: 4), t: 10),
                 .pad(.pinchEnd(fingers: 2, cancelled: false), t: 20)])
        #expect(rig.log.prefix(3) == ["10 pinch possible -> began", "10 action pinch began", "10 rotate possible -> failed"])
    }

    @Test func aTurnWhoseGapSwellsIsARotation() {
        // The gap swells 5% (the pinch's threshold) while the fingers have turned 4 degrees:
        // each finger moved 0.025 of the distance outward and 0.037 around, so the pinch
        // waits; at 9 degrees the rotation begins.
        let rig = Self.rig()
        rig.run([.pad(.pinchBegin(fingers: 2), t: 0),
                 .pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 1.05, angleDelta: 4), t: 10),
                 .pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 1.05, angleDelta: 5), t: 20),
                 .pad(.pinchEnd(fingers: 2, cancelled: false), t: 30)])
        #expect(rig.log == ["20 rotate possible -> began", "20 action rotate began", "20 pinch possible -> failed",
                            "30 rotate began -> ended", "30 action rotate ended"])
    }

    @Test func aSpreadThatTwistsPastTheRotationsThresholdIsAPinch() {
        // x1.2 while turning 9 degrees: each finger moved 0.1 outward and 0.094 around.
        let rig = Self.rig()
        rig.run([.pad(.pinchBegin(fingers: 2), t: 0),
                 .pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 1.04, angleDelta: 2), t: 10),
                 .pad(.pinchUpdate(fingers: 2, delta: .zero, scale: 1.2, angleDelta: 7), t: 20),
                 .pad(.pinchEnd(fingers: 2, cancelled: false), t: 30)])
        #expect(rig.log == ["20 pinch possible -> began", "20 action pinch began", "20 rotate possible -> failed",
                            "30 pinch began -> ended", "30 action pinch ended"])
    }

    @Test func onATouchscreenTheTurnDominatesASwellingGap() {
        // Fingers 40 mm apart turn 12 degrees while the gap grows by 5 mm (past the pinch's
        // 4 mm slop): each finger moved 2.5 mm outward and 4.7 mm around.
        let rig = Self.rig()
        func at(_ degrees: Double, _ radius: Double) -> (Double, Double) {
            (100 + radius * Double.cos(degrees * .pi / 180), 100 + radius * Double.sin(degrees * .pi / 180))
        }
        rig.run([.down(1, at: at(180, 20), t: 0), .down(2, at: at(0, 20), t: 0),
                 .move(1, to: at(188, 22.5), t: 10), .move(2, to: at(8, 22.5), t: 10),
                 .move(1, to: at(192, 22.5), t: 20), .move(2, to: at(12, 22.5), t: 20),
                 .up(1, t: 30), .up(2, t: 30)])
        #expect(rig.log.prefix(3) == ["20 rotate possible -> began", "20 action rotate began", "20 pinch possible -> failed"])
    }
}
