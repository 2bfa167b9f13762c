@testable import StrokeGestures
import Testing
import TouchGestures

/// What tells a swipe from a shape by the path's own bends, and where a landing hook ends.
@Suite struct StrokeBendsTests {
    static func path(_ points: [(Double, Double)], step: Double = 0.5) -> [Point] {
        var path = [Point(x: points[0].0, y: points[0].1)]
        for (from, to) in zip(points, points.dropFirst()) {
            let a = Point(x: from.0, y: from.1), b = Point(x: to.0, y: to.1)
            let steps = max(1, Int((a.distance(to: b) / step).rounded(.up)))
            for index in 1...steps { path.append(a + (b - a) * (Double(index) / Double(steps))) }
        }
        return path
    }

    /// A swipe bowed sideways by `sagitta` of its 40 mm length: an arc.
    static func bowed(_ sagitta: Double) -> [Point] {
        let chord = 40.0, height = sagitta * chord
        let radius = (chord * chord / 4 + height * height) / (2 * height)
        let half = Double.asin(chord / 2 / radius)
        return (0...80).map { index in
            let angle = -half + 2 * half * Double(index) / 80
            return Point(x: 20 + radius * Double.sin(angle), y: radius - height - radius * Double.cos(angle) + height)
        }
    }

    /// A check mark drawn fast: a 10 mm first arm, a 44 mm second. It strays 0.22 of its
    /// line and turns 93 degrees, as a bowed swipe may; its one sharp corner tells it apart
    /// (issue 40: fast real check marks lost 2% to the straight line).
    @Test func aCheckMarkWithAShortFirstArmCouldNotBeAStraightSwipe() throws {
        let bends = try #require(StrokeBends(Self.path([(0, 20), (6, 28), (40, 0)])))
        #expect(abs(bends.sharpestCorner - 92.6) < 1)
        #expect(abs(bends.deviation - 0.22) < 0.01)
        #expect(!bends.couldBeStraight)
    }

    /// A swipe that lands with a sharp 4 mm hook turns as sharply as a check mark, but its
    /// corner stands only 0.1 of its length off its line: it could be a swipe.
    @Test func aSwipeWithASharpLandingHookCouldStillBeStraight() throws {
        let bends = try #require(StrokeBends(Self.path([(4, 0), (0, 0), (0, 40)])))
        #expect(bends.sharpestCorner > 85)
        #expect(bends.couldBeStraight)
    }

    /// People bow a swipe by up to about a third of its length (the corpus's "strongly
    /// curved" family, which fired a curly brace rule when 0.3 was the limit): it turns
    /// 130 degrees, gently.
    @Test func aSwipeBowedByAThirdCouldStillBeStraight() throws {
        let bends = try #require(StrokeBends(Self.bowed(0.32)))
        #expect(abs(bends.deviation - 0.32) < 0.01)
        #expect(bends.sharpestCorner < 60)
        #expect(bends.couldBeStraight)
        #expect(!(try #require(StrokeBends(Self.bowed(0.4)))).couldBeStraight)
    }

    /// The stroke is also read from the end of a landing hook: the sharpest corner in its
    /// first 5 mm, turning at least 45 degrees.
    @Test func aLandingHookEndsAtItsCorner() throws {
        // Landing 5 mm up and right of a V's start, coming in at about 80 degrees to its arm.
        let hooked = Self.path([(104, 47), (100, 50), (120, 90), (140, 50)])
        let rest = try #require(StrokeGestureRecognizer.withoutHook(hooked))
        #expect(rest.first == Point(x: 100, y: 50))
        #expect(rest.last == Point(x: 140, y: 50))
    }

    /// A shape's own first stretch runs straight on: read shortened, a V's first arm would
    /// make it a check mark (which the fixed 5 mm cut did to 1% of fast real V's).
    @Test func aStrokeWithoutAHookIsReadOnlyWhole() {
        #expect(StrokeGestureRecognizer.withoutHook(Self.path([(100, 50), (120, 90), (140, 50)])) == nil)
        // A run-up in the arm's own direction is no hook either.
        #expect(StrokeGestureRecognizer.withoutHook(Self.path([(99, 48), (100, 50), (120, 90), (140, 50)])) == nil)
        // Nor is a wobble under a millimetre at the landing.
        #expect(StrokeGestureRecognizer.withoutHook(Self.path([(100.5, 49.8), (100, 50), (120, 90), (140, 50)])) == nil)
    }
}
