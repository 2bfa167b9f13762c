import HumanInput
import Rulebook
import StrokeGestures
import Testing

/// The goals of drawn strokes (docs/strokes.md), on the stroke corpus: shapes drawn by
/// human-like hands, recognized by rules learned from three other drawings of each, beside
/// the gesture corpus's swipes, taps, pans and pinches on the same fingers.
@Suite struct StrokeGoalTests {
    static let strokes = Result<StrokeScorecard, any Error> { try StrokeScorecard.measure() }

    /// The gesture corpus without and with the stroke rules.
    static let corpus = Result<(before: Scorecard, after: Scorecard), any Error> {
        let samples = Corpus.samples()
        let with = try CorpusRun(rules: CorpusRules.text + StrokeCorpus.rules, withPan: CorpusRules.withPan + StrokeCorpus.rules)
        return (Scorecard.measure(samples, with: try CorpusRun()), Scorecard.measure(samples, with: with))
    }

    static let strokeRules = Set(StrokeCorpus.hands.flatMap { hand in DrawnShape.allCases.map { StrokeCorpus.rule($0, hand.hand) } })

    static func misses(_ card: StrokeScorecard, _ shapes: Set<DrawnShape>? = nil) -> String {
        card.outcomes.filter { (shapes?.contains($0.stroke.shape) ?? true) && $0.outcome.verdict != .right }
            .map { "\($0.outcome.verdict.rawValue): \($0.stroke.sample.name) fired \($0.outcome.fired)" }.joined(separator: "\n")
    }

    // The issue: top-1 accuracy of at least 97% with three templates per shape.
    @Test func atLeast97PercentOfStrokesFireTheirOwnRuleOnceAndNothingElse() throws {
        let card = try Self.strokes.get()
        #expect(card.outcomes.count >= 12 * 25)
        #expect(card.accuracy >= 0.97, "\(card.table)\n\(Self.misses(card))")
    }

    // The issue: at least 12 shapes, among them shapes that differ only in direction.
    @Test func twelveShapesOrMoreAreDrawnByEveryHand() throws {
        let card = try Self.strokes.get()
        #expect(DrawnShape.allCases.count >= 12)
        for (hand, _) in StrokeCorpus.hands {
            for shape in DrawnShape.allCases {
                #expect(card.outcomes.contains { $0.stroke.shape == shape && $0.stroke.hand == hand }, "\(hand) \(shape)")
            }
        }
    }

    static let directionPairs: [(DrawnShape, DrawnShape)] = [
        (.downUp, .upDown), (.leftRight, .rightLeft), (.circleClockwise, .circleCounterclockwise),
    ]

    @Test(arguments: directionPairs)
    func shapesThatDifferOnlyInDirectionAreToldApart(_ one: DrawnShape, _ other: DrawnShape) throws {
        let card = try Self.strokes.get()
        for (shape, reverse) in [(one, other), (other, one)] {
            let row = try #require(card.row(shape))
            #expect(row.recall >= 0.97, "\(Self.misses(card, [shape]))")
            let taken = card.outcomes.filter { $0.stroke.shape == shape && $0.outcome.fired.contains(StrokeCorpus.rule(reverse, $0.stroke.hand)) }
            #expect(taken.isEmpty, "\(shape.rawValue) fired \(reverse.rawValue): \(taken.map(\.stroke.sample.name))")
        }
    }

    // Issue 40: the new families (landing hooks, tall narrow shapes, fast drawings with
    // three templates) each at 99% or more.
    @Test(arguments: [StrokeCorpus.Family.hooked, .tall, .fastThree])
    func aNewFamilyFiresItsOwnRuleAtLeast99PercentOfTheTime(_ family: StrokeCorpus.Family) throws {
        let card = try Self.strokes.get()
        let row = try #require(card.row(of: family))
        #expect(row.strokes >= 100)
        #expect(row.recall >= 0.99, "\(card.table(of: family))\n\(Self.misses(card, Set(family.shapes)))")
    }

    // Issue 40 sets 98% for drawings learned from one template, on real drawings at
    // medium speed; these are fast ones, harder. The matcher gets real fast drawings right
    // 98.63% of the time at K = 1 (docs/strokes.md), and ranks another shape first for 1%
    // of these (a fast L as a V, two rectangles as the circle, within 0.02).
    @Test func fastDrawingsLearnedFromOneTemplateFireTheirOwnRule() throws {
        let card = try Self.strokes.get()
        let row = try #require(card.row(of: .fastOne))
        #expect(row.strokes >= 250)
        #expect(row.recall >= 0.98, "\(card.table(of: .fastOne))\n\(Self.misses(card, Set(StrokeCorpus.Family.fastOne.shapes)))")
    }

    // Issue 40: the first corpus stays where it is, row for row, with the new families and
    // the brace rules added; its one miss, a two-finger touchpad check mark whose
    // contacts' noise read as the hand turning more than 6 degrees, is right since the
    // hand is held steady (StrokeHand).
    @Test func theFirstCorpusStaysWhereItWas() throws {
        let card = try Self.strokes.get()
        let rows = ["circle-cw", "circle-ccw", "down-up", "up-down", "left-right", "right-left", "v", "caret"]
            .map { "| \($0) | 30 | 30 | 0 | 0 | 0 | 100.0% |" }
            + ["check", "z", "s", "l", "w", "triangle", "rectangle"].map { "| \($0) | 30 | 30 | 0 | 0 | 0 | 100.0% |" }
            + ["| all | 450 | 450 | 0 | 0 | 0 | 100.0% |"]
        #expect(card.table.split(separator: "\n").dropFirst(2).map(String.init) == rows)
    }

    // The issue: no false stroke on the gesture corpus's taps, swipes, pans, pinches and
    // rests with the stroke rules added.
    @Test func noStrokeFiresOnTheGestureCorpus() throws {
        let after = try Self.corpus.get().after
        let strokes = after.outcomes.filter { !$0.fired.filter(Self.strokeRules.contains).isEmpty }
        #expect(after.outcomes.count > 600)
        #expect(strokes.isEmpty, "\(strokes.map { "\($0.sample.name) fired \($0.fired)" })")
    }

    // The issue: nothing that was right before goes wrong with the stroke rules added.
    @Test func everySampleThatWasRightStaysRight() throws {
        let (before, after) = try Self.corpus.get()
        #expect(before.outcomes.count == after.outcomes.count)
        let broken = zip(before.outcomes, after.outcomes).filter { $0.verdict == .right && $1.verdict != .right }.map(\.1)
        #expect(!before.outcomes.isEmpty)
        #expect(broken.isEmpty, "\(broken.map { "\($0.verdict.rawValue): \($0.sample.name) fired \($0.fired)" })")
    }

    @Test func theStrokeCorpusAndItsRulesAreTheSameOnEveryRun() {
        func text(_ strokes: [StrokeCorpus.StrokeSample]) -> [String] {
            strokes.flatMap { ($0.sample.events + $0.sample.contacts).map(RecordingText.line) }
        }
        let first = text(StrokeCorpus.samples())
        #expect(first.count > 10_000)
        #expect(text(StrokeCorpus.samples()) == first)
        #expect(StrokeCorpus.rules.contains("[rule.ts1-circle-cw]"))
        #expect((try? Rulebook.parse(StrokeCorpus.rules, file: "strokes.toml"))?.rules.count == StrokeCorpus.hands.count * DrawnShape.allCases.count)
    }
}
