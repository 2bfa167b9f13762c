import RealModule
import TouchGestures

/// Recognizes a shape drawn with one or more fingers, by comparison with templates of
/// it: the check mark of UIKit's documentation, a circle, a V, an S.
///
/// Built only on the engine's public subclassing API (`touchesBegan` ... `touchesEnded`,
/// ``transition(to:)``, ``reset()``), as any program embedding the engine could write its
/// own recognizer.
///
/// Discrete. It follows the centroid of ``numberOfTouchesRequired`` fingers from the
/// frame all of them are down, and decides when the first of them lifts: it is recognized
/// when its best template scores at least ``threshold`` and no recognizer of its
/// ``group`` following the same stroke has a closer template. It fails as soon as the
/// path can no longer become any of its templates (its every part scores under
/// ``threshold`` less ``StrokeDefaults/prefixMargin``), so recognizers waiting for it are
/// not held up; when another finger lands; and when the stroke spans less than
/// ``minimumSize``. Direction and order count: down-up is not up-down (see
/// ``StrokeMatcher``).
///
/// Accepts touchscreen touches and touchpad fingers (``TouchpadInput/contacts``, the
/// default here: libinput's touchpad gestures have no path). One finger on a touchpad is
/// the pointer: give touchpad strokes two or more.
///
/// With no templates it follows strokes and fails each one when it lifts, reporting its
/// path to its group: how `touchgest learn` collects examples.
open class StrokeGestureRecognizer: GestureRecognizer, GestureReadable {
    /// The shapes it recognizes.
    public var templates: [StrokeTemplate] = []
    /// The lowest score (0 to 1) its best template must reach.
    public var threshold = StrokeDefaults.threshold
    /// Fingers that draw together; 1 by default.
    public var numberOfTouchesRequired = 1
    /// Millimetres the stroke must span on its longer side.
    public var minimumSize = StrokeDefaults.minimumSize
    /// Degrees either way a stroke may be turned from a template and still match it.
    public var rotationTolerance = StrokeDefaults.rotationTolerance

    /// The recognizers it competes with for the same strokes; set by ``StrokeGroup/add(_:)``.
    public internal(set) var group: StrokeGroup?

    /// The stroke it follows, or the last one it decided, until it is reset.
    public private(set) var path: StrokePath?
    /// What it decided of that stroke, until it is reset; nil while it still follows it,
    /// and when another recognizer stopped it.
    public private(set) var ending: StrokeEnding?
    /// Its best template for the stroke and that template's score, once it has decided.
    public private(set) var bestMatch: (template: Int, score: Double)?

    private enum Phase {
        case idle
        /// Some of the fingers are down.
        case gathering
        /// All of them are down; the path is checked again once it is `nextCheck` mm long.
        /// `hand` is where each finger after the first is from the first, as it landed and
        /// as it is now, held steady (`StrokeHand`).
        case drawing(nextCheck: Double, hand: StrokeHand)
    }

    private enum Input {
        case down(Timestamp)
        case move(Timestamp)
        case up
        case cancel
    }

    @exclusivity(unchecked) private var phase = Phase.idle

    /// Makes a recognizer with no templates, one finger, the defaults, that takes a
    /// touchpad's fingers rather than libinput's gestures.
    public override init() {
        super.init()
        touchpadInput = .contacts
    }

    open override var kindName: String { "stroke" }

    open override func touchesBegan(_ touches: [Touch], with event: TouchEvent) { step(.down(event.timestamp)) }
    open override func touchesMoved(_ touches: [Touch], with event: TouchEvent) { step(.move(event.timestamp)) }
    open override func touchesEnded(_ touches: [Touch], with event: TouchEvent) { step(.up) }
    open override func touchesCancelled(_ touches: [Touch], with event: TouchEvent) { step(.cancel) }

    open override func reset() {
        super.reset()
        phase = .idle
        path = nil
        ending = nil
        bestMatch = nil
    }

    /// What it has measured: the best template's score, once it has decided.
    public var readings: GestureReadings {
        var readings = GestureReadings()
        readings.score = bestMatch?.score
        return readings
    }

    /// Its best template for `shape` and that template's score; nil with no templates.
    public func match(_ shape: StrokeShape) -> (template: Int, score: Double)? {
        StrokeMatcher.best(shape, among: templates, tolerance: rotationTolerance)
    }

    /// Its best template for any of `readings` (a stroke whole, and without its landing
    /// hook) and that template's score; nil with no templates.
    public func match(_ readings: [StrokeShape]) -> (template: Int, score: Double)? {
        readings.compactMap(match).max { $0.score < $1.score }
    }

    /// The ways a finished stroke is read: whole, and from the end of its landing hook
    /// when it has one (``withoutHook(_:)``). The check made while the fingers move cuts a
    /// fixed ``StrokeDefaults/landingHook`` instead (``afterLanding(_:)``): there a cut can
    /// only keep a stroke going, never make it another shape.
    static func readings(of points: [Point]) -> [StrokeShape] {
        [StrokeShape(points), withoutHook(points).flatMap { StrokeShape($0) }].compactMap { $0 }
    }

    /// `points` from the end of their landing hook: the sharpest corner within the first
    /// ``StrokeDefaults/landingHook`` millimetres, when the path turns there by at least
    /// ``StrokeDefaults/hookTurn`` degrees between the way it came in and the way it goes
    /// on. Nil when there is no such corner (a V's first arm runs straight on, and reading
    /// it shortened would make it a check mark) or too little is left after it.
    static func withoutHook(_ points: [Point]) -> [Point]? {
        guard let first = points.first else { return nil }
        var along = [0.0]
        along.reserveCapacity(points.count)
        for index in points.indices.dropFirst() { along.append(along[index - 1] + points[index - 1].distance(to: points[index])) }
        let total = along[along.count - 1]
        guard total >= 3 * StrokeDefaults.landingHook else { return nil }
        var sharpest: (index: Int, turn: Double)?
        var ahead = 0
        for index in points.indices.dropFirst() {
            guard along[index] <= StrokeDefaults.landingHook else { break }
            let inbound = points[index] - first
            guard inbound.length >= StrokeDefaults.minimumHook else { continue }
            while ahead < points.count - 1 && along[ahead] < along[index] + StrokeDefaults.landingHook { ahead += 1 }
            let outbound = points[ahead] - points[index]
            let turn = abs(Double.atan2(y: inbound.x * outbound.y - inbound.y * outbound.x,
                                        x: inbound.x * outbound.x + inbound.y * outbound.y)) * 180 / .pi
            if turn > sharpest?.turn ?? -1 { sharpest = (index, turn) }
        }
        guard let sharpest, sharpest.turn >= StrokeDefaults.hookTurn else { return nil }
        return Array(points[sharpest.index...])
    }

    private func step(_ input: Input) { stepPhase({ phase }, input, advance) }

    private func advance(_ input: Input) {
        switch (phase, input) {
        case let (.idle, .down(time)), let (.gathering, .down(time)):
            guard numberOfTouches <= numberOfTouchesRequired else { return fail(.extraFinger) }
            guard numberOfTouches == numberOfTouchesRequired else { phase = .gathering; return }
            path = StrokePath(at: location(), time: time)
            phase = .drawing(nextCheck: 0, hand: StrokeHand(offsets()))
        case (.drawing, .down):
            fail(.extraFinger)
        case (.gathering, .move):
            break
        case let (.drawing(nextCheck, hand), .move(time)):
            var hand = hand
            hand.add(offsets())
            guard hand.keepsTogether else { return fail(.fingersApart) }
            phase = .drawing(nextCheck: nextCheck, hand: hand)
            path?.add(location(), at: time)
            guard let path, path.length >= nextCheck, path.size >= minimumSize, !templates.isEmpty else { return }
            phase = .drawing(nextCheck: path.length + StrokeDefaults.prefixCheckSpacing, hand: hand)
            checkPrefix(path)
        case (.drawing, .up):
            decide()
        case (.gathering, .up):
            fail(.liftedEarly)
        case (.gathering, .cancel), (.drawing, .cancel):
            fail(.cancelled)
        case (.idle, .move), (.idle, .up), (.idle, .cancel):
            reportImpossible(input, in: phase)
        }
    }

    /// Where each finger after the first is from the first.
    private func offsets() -> [Point] {
        let touches = touches
        return touches.dropFirst().map { $0.location - touches[0].location }
    }

    /// Gives up once no part of any template resembles the path so far, with or without
    /// its first ``StrokeDefaults/landingHook`` millimetres (a landing's hook).
    private func checkPrefix(_ path: StrokePath) {
        let floor = threshold - StrokeDefaults.prefixMargin
        var score = 0.0
        if let partial = StrokeShape(path.points, count: StrokeDefaults.prefixPoints) {
            score = StrokeMatcher.bestPrefixScore(partial, among: templates, tolerance: rotationTolerance)
        }
        if score < floor, let landed = Self.afterLanding(path.points),
           let partial = StrokeShape(landed, count: StrokeDefaults.prefixPoints) {
            score = max(score, StrokeMatcher.bestPrefixScore(partial, among: templates, tolerance: rotationTolerance))
        }
        if score < floor {
            fail(.leftEveryTemplate(atLength: path.length, bestScore: score))
        }
    }

    /// `points` from where the path is ``StrokeDefaults/landingHook`` mm along, or nil when
    /// less than twice that is left.
    static func afterLanding(_ points: [Point]) -> [Point]? {
        var travelled = 0.0
        for index in points.indices.dropFirst() {
            travelled += points[index - 1].distance(to: points[index])
            if travelled >= StrokeDefaults.landingHook {
                let rest = Array(points[index...])
                return StrokeShape.length(rest) >= 2 * StrokeDefaults.landingHook ? rest : nil
            }
        }
        return nil
    }

    /// The fingers lift: the closest template decides.
    private func decide() {
        phase = .idle
        guard let path, path.size >= minimumSize else { return fail(.tooSmall) }
        guard let shape = StrokeShape(path.points) else { return fail(.tooSmall) }
        let readings = Self.readings(of: path.points)
        let ranking = group?.ranking(for: self, readings: readings) ?? match(readings).map { [StrokeCandidate(self, $0)] } ?? []
        guard let mine = ranking.first(where: { $0.recognizer === self }) else { return fail(.noTemplates) }
        bestMatch = (mine.template, mine.score)
        guard mine.score >= threshold else { return fail(.belowThreshold) }
        // A straight movement is a swipe's or a drag's, however near a template with a
        // short hook (an L, a check mark) it comes: the template must come clearly closer.
        // A stroke that turns or strays too far for a swipe (a curly brace, a question
        // mark) is a shape whatever its line scores.
        // Line and templates are both scored with points paired by index: warped, a
        // template bends to fit a bowed swipe where a line cannot.
        if !templates[mine.template].isStraight, StrokeBends(path.points)?.couldBeStraight ?? true {
            let line = StrokeMatcher.straightness(of: path.points, shape: shape, tolerance: rotationTolerance)
            let template = StrokeMatcher.pairedScore(shape, among: templates, tolerance: rotationTolerance)
            if line + StrokeDefaults.straightMargin > template { return fail(.straight(lineScore: line, templateScore: template)) }
        }
        if let first = ranking.first, first.recognizer !== self {
            return fail(first.beat(self, in: ranking))
        }
        ending = .recognized
        transition(to: .recognized)
    }

    private func fail(_ why: StrokeEnding) {
        phase = .idle
        ending = why
        transition(to: .failed)
    }
}

/// Why a stroke recognizer decided as it did.
public enum StrokeEnding: Sendable, Equatable, CustomStringConvertible {
    /// Its best template was close enough, and closer than its rivals'.
    case recognized
    /// Its best template scored under its threshold.
    case belowThreshold
    /// A rival following the same stroke had a closer template.
    case outscored(by: String)
    /// A rival's template scored a little lower, but the stroke lies nearer the rival's
    /// shape where the two differ (``StrokeDefaults/secondLookLead``).
    case closerWhereTheyDiffer(String)
    /// The straight line from the stroke's start to its end scored within
    /// ``StrokeDefaults/straightMargin`` of the rule's best template, or over it: a swipe
    /// or a drag, not a shape. Both scores are with points paired by index
    /// (``StrokeMatcher/pairedScore(_:among:tolerance:)``).
    case straight(lineScore: Double, templateScore: Double)
    /// The path left every template while the fingers moved: it was `atLength` mm long,
    /// and `bestScore` the best any part of a template scored against it.
    case leftEveryTemplate(atLength: Double, bestScore: Double)
    /// The stroke spanned less than the minimum size: a tap or a rest, not a shape.
    case tooSmall
    /// More fingers landed than it draws with.
    case extraFinger
    /// The fingers turned against each other or spread: a rotation or a pinch.
    case fingersApart
    /// The fingers lifted before all of them were down.
    case liftedEarly
    /// The system cancelled the touches.
    case cancelled
    /// It has no template (it collects strokes).
    case noTemplates

    public var description: String {
        switch self {
        case .recognized: "recognized"
        case .belowThreshold: "below its threshold"
        case let .outscored(rival): "\(rival) came closer"
        case let .closerWhereTheyDiffer(rival): "\(rival) came closer where the two shapes differ"
        case let .straight(line, template):
            "a straight line came too close: \(fixedDecimals(line, 2)) against the template's \(fixedDecimals(template, 2)), points paired by index"
        case let .leftEveryTemplate(length, _): "left every template at \(fixedDecimals(length, 0)) mm"
        case .tooSmall: "too small"
        case .extraFinger: "another finger landed"
        case .fingersApart: "the fingers turned or spread apart"
        case .liftedEarly: "lifted before all fingers were down"
        case .cancelled: "cancelled"
        case .noTemplates: "no template"
        }
    }
}
