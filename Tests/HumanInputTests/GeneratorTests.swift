import Glibc
import HumanInput
import Rulebook
import Testing
import TouchGestures

/// The corpus is what it claims to be: deterministic, shaped like people's input, and
/// delivered the way libinput delivers it.
@Suite struct GeneratorTests {
    static let samples = Corpus.samples()

    static func touchpadGestures(_ sample: Sample) -> [TouchpadEvent] {
        sample.events.compactMap { if case let .touchpad(event) = $0 { event } else { nil } }
    }

    @Test func theCorpusIsTheSameOnEveryRun() {
        let again = Corpus.samples()
        #expect(again.count == Self.samples.count)
        #expect(RecordingText.recording(again) == RecordingText.recording(Self.samples))
    }

    @Test func theCorpusIsBigEnoughToMeasureAndSmallEnoughForDebugBuilds() {
        #expect((300...1_200).contains(Self.samples.count))
        for kind in SampleKind.gestureKinds {
            #expect(Self.samples.filter { $0.kind == kind }.count >= 25, "\(kind.rawValue)")
        }
    }

    @Test func aMinimumJerkReachStartsSlowlyAndPeaksHalfway() {
        #expect(Motion.minimumJerk(0.1) < 0.01)
        #expect(Motion.minimumJerk(0.5) == 0.5)
        #expect(Motion.minimumJerk(1) == 1)
        let step = 0.001
        let peak = (Motion.minimumJerk(0.5 + step) - Motion.minimumJerk(0.5 - step)) / (2 * step)
        #expect(abs(peak - 1.875) < 0.001)
    }

    @Test func driftStaysWithinAQuarterOfTheDistance() {
        var random = SeededRandom(seed: 7)
        for _ in 0..<200 {
            let shape = SwipeShape.human(random: &random)
            #expect((10...60).contains(shape.distance))
            #expect((0.060...1.400).contains(shape.duration))
            for step in 0...20 {
                let sideways = shape.displacement(at: shape.duration * Double(step) / 20, heading: .right).y
                #expect(abs(sideways) <= shape.distance * 0.25 + 1e-9)
            }
        }
    }

    @Test func aTouchpadSwipeAfterARestCancelsTheHoldAndBeginsInTheSameFrame() {
        let rested = Self.samples.filter { $0.kind == .touchpadSwipe3 && $0.name.contains("rest") }
        #expect(rested.count >= 10)
        for sample in rested {
            let events = Self.touchpadGestures(sample)
            guard let hold = events.firstIndex(where: { if case .holdBegin = $0.gesture { true } else { false } }) else {
                Issue.record("\(sample.name): no hold before the swipe")
                continue
            }
            let end = events[hold + 1]
            let begin = events[hold + 2]
            let update = events[hold + 3]
            #expect(end.gesture == .holdEnd(fingers: 3, cancelled: true), "\(sample.name)")
            #expect(begin.gesture == .swipeBegin(fingers: 3), "\(sample.name)")
            if case .swipeUpdate = update.gesture {} else { Issue.record("\(sample.name): \(update) after the begin") }
            #expect(end.timestamp == begin.timestamp && begin.timestamp == update.timestamp, "\(sample.name)")
        }
    }

    @Test func libinputLosesTheMotionBeforeItDecidesOnASwipe() {
        for sample in Self.samples where sample.kind == .touchpadSwipe3 && sample.isNamedCase {
            let events = Self.touchpadGestures(sample)
            let travelled = events.reduce(Point.zero) { sum, event in
                if case let .swipeUpdate(_, delta) = event.gesture { sum + delta } else { sum }
            }.length
            let planned = Double(sample.name.split(separator: " ").last!.split(separator: "m").first!)!
            #expect(travelled < planned, "\(sample.name): \(travelled) mm")
            #expect(travelled > planned - 6, "\(sample.name): \(travelled) mm")
        }
    }

    @Test func restingFingersComeInBothOfLibinputsShapes() {
        let holds = Self.samples.filter { $0.kind == .touchpadRestHold }
        let swipes = Self.samples.filter { $0.kind == .touchpadRestSwipe }
        #expect(holds.count >= 10)
        #expect(swipes.count >= 10)
        for sample in holds {
            #expect(Self.touchpadGestures(sample).map(\.gesture.kind) .allSatisfy { $0 == .hold }, "\(sample.name)")
        }
    }

    @Test func touchscreenFingersLandInDifferentFrames() {
        let multi = Self.samples.filter { $0.kind == .touchscreenSwipe3 }
        let staggered = multi.filter { sample in
            guard case let .touches(first) = sample.events.first else { return false }
            return first.allTouches.count < 3
        }
        #expect(staggered.count > multi.count / 2)
    }

    @Test func aFlickUnderTenMillimetresReportsAboutTwoLess() {
        let flicks = Self.samples.filter { $0.kind == .touchpadFlick }
        #expect(flicks.count == 32)
        var lost: [Double] = []
        for sample in flicks {
            let reported = Self.touchpadGestures(sample).reduce(Point.zero) { sum, event in
                if case let .swipeUpdate(_, delta) = event.gesture { sum + delta } else { sum }
            }.length
            let planned = Double(sample.name.split(separator: " ").last!.split(separator: "m").first!)!
            lost.append(planned - reported)
        }
        // libinput keeps what moves before it decides, about 2 mm (the issue): less on the
        // quickest flicks, whose deciding frame carries much of the motion.
        let mean = lost.reduce(0, +) / Double(lost.count)
        #expect((1...3).contains(mean), "\(lost)")
        #expect(lost.allSatisfy { $0 > 0 && $0 < 4 }, "\(lost)")
        // Many report less than the 7 mm a touchpad swipe needs: the phenomenon.
        #expect(flicks.indices.filter { index in
            Double(flicks[index].name.split(separator: " ").last!.split(separator: "m").first!)! - lost[index] < 7
        }.count >= 8)
    }

    @Test func aStronglyCurvedSwipeLeavesSixtyTwoDegreesOffItsChordAndEndsOnIt() {
        let shape = SwipeShape.arc(chord: 40, sagitta: 0.3, duration: 0.4)
        let early = shape.displacement(at: 0.02, heading: .right)
        #expect(abs(atan2(early.y, early.x) * 180 / .pi - 61.9) < 1)
        let middle = shape.displacement(at: 0.2, heading: .right)
        #expect(abs(middle.x - 20) < 1e-9 && abs(middle.y - 12) < 1e-9)
        let end = shape.displacement(at: 0.4, heading: .right)
        #expect(abs(end.x - 40) < 1e-9 && abs(end.y) < 1e-9)
    }

    @Test func aSemiMultitouchTapsFirstTouchJumpsAsTheSecondLands() {
        let taps = Self.samples.filter { $0.kind == .semiMultitouchTap }
        #expect(taps.count == 30)
        var jumps = 0
        var libinputTaps = 0
        for sample in taps {
            let frames = sample.events.compactMap { if case let .touches(frame) = $0 { frame } else { nil } }
            let second = frames.first { $0.changedTouches.contains { $0.phase == .began } && $0.allTouches.count == 2 }
            if let jump = second?.changedTouches.first(where: { $0.phase == .moved }),
               jump.location.distance(to: jump.previousLocation) > 4 {
                jumps += 1
            }
            #expect(frames.allSatisfy { $0.changedTouches.allSatisfy { $0.type == .indirect && $0.device == SemiMultitouchCorpus.device } })
            libinputTaps += sample.events.filter { if case .touchpad = $0 { true } else { false } }.count
        }
        // Past the tap slop, as the kernel's box moves its corner to the second finger.
        #expect(jumps >= 20)
        // libinput loses most: the point it follows has moved by the next frame.
        #expect(libinputTaps <= 5)
    }

    @Test func sloppyScrollsAreLibinputPinchesOfLittleScaleAndAngle() {
        let scrolls = Self.samples.filter { $0.kind == .touchpadScrollPinch }
        #expect(scrolls.count == 30)
        for sample in scrolls {
            var scales: [Double] = []
            var angle = 0.0
            var travel = Point.zero
            for event in Self.touchpadGestures(sample) {
                if case let .pinchUpdate(_, delta, scale, turn) = event.gesture {
                    scales.append(scale)
                    angle += turn
                    travel += delta
                }
            }
            #expect(!scales.isEmpty && scales.allSatisfy { (0.93...1.07).contains($0) } && abs(angle) < 5, "\(sample.name)")
            // The fingers travel: a scroll.
            #expect(travel.length > 8, "\(sample.name): \(travel.length) mm")
        }
    }

    @Test func movingPinchesCarryTheirFingersAlong() {
        let pinches = Self.samples.filter { $0.kind == .touchpadMovingPinch }
        #expect(pinches.count == 32)
        for sample in pinches {
            let travel = Self.touchpadGestures(sample).reduce(Point.zero) { sum, event in
                if case let .pinchUpdate(_, delta, _, _) = event.gesture { sum + delta } else { sum }
            }
            #expect(travel.length > 8, "\(sample.name): \(travel.length) mm")
        }
    }

    @Test func wobblingRotationsSwellPastAPinchsFivePercent() {
        let rotations = Self.samples.filter { $0.kind == .touchpadWobblingRotation }
        #expect(rotations.count == 32)
        let swelling = rotations.filter { sample in
            Self.touchpadGestures(sample).contains { event in
                if case let .pinchUpdate(_, _, scale, _) = event.gesture { abs(scale - 1) >= 0.05 } else { false }
            }
        }
        #expect(swelling.count >= 16)
    }

    @Test func slowerDragsHaveMovedUnderTheLongPressSlopAtHalfASecond() {
        let drags = Self.samples.filter { $0.kind == .touchscreenSlowerDrag }
        #expect(drags.count == 30)
        let slow = drags.filter { sample in
            let frames = sample.events.compactMap { if case let .touches(frame) = $0 { frame } else { nil } }
            guard let first = frames.first?.changedTouches.first?.location,
                  let half = frames.last(where: { $0.timestamp.microseconds <= Sample.start.microseconds + 500_000 }) else { return false }
            return half.allTouches[0].location.distance(to: first) < 4
        }
        #expect(slow.count >= 10)
    }

    /// 8 touchpad swipes, 12 touchscreen swipes, 2 touchpad holds and taps, pinches,
    /// rotations, a touchscreen tap, double tap, and one- and two-finger presses: 32, and
    /// the pan beside them.
    @Test func everyRuleFileParses() throws {
        let run = try CorpusRun()
        #expect(run.rulebook.rules.count == 32)
        #expect(run.rulebookWithPan.rules.count == 33)
    }
}
