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
