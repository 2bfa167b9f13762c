import StrokeGestures
import Testing
import TouchGestures

/// Learning from more drawings than a rule may hold templates: the most typical are kept.
@Suite struct StrokeLearnerTests {
    /// A V drawn with its middle `dip` of the box lower or higher, in millimetres.
    static func v(dip: Double) -> [Point] {
        Shape.drawn([(0, 0), (0.5, 1 + dip), (1, 0)]).map { Point(x: $0.0, y: $0.1) }
    }

    static let caret = Shape.drawn(Shape.caret).map { Point(x: $0.0, y: $0.1) }

    @Test func theMostTypicalDrawingsAreKeptNotTheOddOnes() {
        // 20 Vs a little different from each other, and 3 carets among them.
        var examples = (0..<20).map { Self.v(dip: Double($0 % 5) * 0.05) }
        examples.insert(Self.caret, at: 3)
        examples.insert(Self.caret, at: 11)
        examples.insert(Self.caret, at: 22)
        let lesson = StrokeLearner.learn(examples, keeping: 16, candidates: 128)
        #expect(lesson.kept.count == 16)
        #expect(lesson.templates.count == 16)
        #expect(lesson.scores.count == 16)
        #expect(!lesson.kept.contains(3) && !lesson.kept.contains(11) && !lesson.kept.contains(22), "\(lesson.kept)")
        #expect(lesson.kept == lesson.kept.sorted())
    }

    @Test func onlyTheCandidatesSpreadOverTheDrawingsAreCompared() {
        // Of 1,000 drawings only every 125th is a candidate: a caret elsewhere is never kept.
        var examples = (0..<1_000).map { Self.v(dip: Double($0 % 7) * 0.03) }
        examples[1] = Self.caret
        let kept = StrokeLearner.mostTypical(examples, keeping: 4, candidates: 8)
        #expect(kept.count == 4)
        #expect(kept.allSatisfy { $0 % 125 == 0 }, "\(kept)")
    }

    @Test func aRuleWorthOfDrawingsIsKeptWhole() {
        let examples = (0..<16).map { Self.v(dip: Double($0) * 0.01) }
        #expect(StrokeLearner.learn(examples).kept == Array(0..<16))
    }
}
