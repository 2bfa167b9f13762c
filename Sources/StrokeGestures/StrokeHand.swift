import RealModule
import TouchGestures

/// Where each finger of a stroke after the first is from the first, held steady against
/// the sensor's noise: whether the fingers still move as one hand.
///
/// Each contact wobbles by a few tenths of a millimetre from frame to frame on its own, and
/// two fingers 18 mm apart that wobble 0.7 mm apart across the hand seem to have turned 2
/// degrees more than they have. Judged on single frames, hands that turned 4 degrees (as
/// people's do while drawing) read as 6.1-6.6 and failed their strokes: 8 of the 12 misses
/// on the stroke corpus (issue 40). So the hand as it landed is the mean of its first
/// ``StrokeDefaults/handFrames`` frames, and the hand now moves ``StrokeDefaults/handSmoothing``
/// of the way to each new frame (an exponential mean). That reading lags: a frame once
/// the hand has settled, two when it turns from the moment it lands. So a single frame
/// past ``StrokeDefaults/maximumHandTurnAtOnce`` or ``StrokeDefaults/maximumSpreadChangeAtOnce``
/// from the first fails the stroke too, before a rotation or a pinch, measured from there
/// too, could begin.
struct StrokeHand: Sendable {
    /// The first frame's offsets.
    private let first: [Point]
    /// The mean of the first frames' offsets.
    private var landed: [Point]
    /// The offsets, each frame moved part of the way to the frame's.
    private var steady: [Point]
    /// The last frame's offsets.
    private var latest: [Point]
    private var frames = 1

    /// The hand at its first frame: `offsets` of each finger after the first from the first.
    init(_ offsets: [Point]) {
        first = offsets
        landed = offsets
        steady = offsets
        latest = offsets
    }

    /// The hand at the next frame.
    mutating func add(_ offsets: [Point]) {
        guard offsets.count == steady.count else { return }
        if frames < StrokeDefaults.handFrames {
            frames += 1
            let weight = 1 / Double(frames)
            landed = zip(landed, offsets).map { $0 + ($1 - $0) * weight }
        }
        steady = zip(steady, offsets).map { $0 + ($1 - $0) * StrokeDefaults.handSmoothing }
        latest = offsets
    }

    /// Whether no finger has turned about the first by more than
    /// ``StrokeDefaults/maximumHandTurn`` degrees since the hand landed, nor moved toward or
    /// away from it by more than ``StrokeDefaults/maximumSpreadChange`` millimetres, held
    /// steady, nor on the last frame alone, from the first, by more than the limits for a
    /// single frame.
    var keepsTogether: Bool {
        Self.within(landed, steady, turn: StrokeDefaults.maximumHandTurn, spread: StrokeDefaults.maximumSpreadChange)
            && Self.within(first, latest, turn: StrokeDefaults.maximumHandTurnAtOnce, spread: StrokeDefaults.maximumSpreadChangeAtOnce)
    }

    private static func within(_ from: [Point], _ to: [Point], turn: Double, spread: Double) -> Bool {
        let limit = turn * .pi / 180
        for (then, offset) in zip(from, to) {
            if abs(offset.length - then.length) > spread { return false }
            let angle = Double.atan2(y: then.x * offset.y - then.y * offset.x, x: then.x * offset.x + then.y * offset.y)
            if abs(angle) > limit { return false }
        }
        return true
    }
}
