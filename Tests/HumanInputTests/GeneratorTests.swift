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
        #expect((300...1_000).contains(Self.samples.count))
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

    @Test func everyRuleFileParses() throws {
        let run = try CorpusRun()
        #expect(run.rulebook.rules.count == 31)
        #expect(run.rulebookWithPan.rules.count == 32)
    }
}
