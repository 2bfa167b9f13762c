import RealModule
import TouchGestures

/// Where each finger of a stroke after the first is from the first, held steady against
/// the sensor's noise: whether the fingers still move as one hand.
///
/// Each contact wobbles by a few tenths of a millimetre from frame to frame on its own, and
/// two fingers 18 mm apart that wobble 0.7 mm apart across the hand seem to have turned 2
/// degrees. Judged on single frames, a hand that really turned 4 degrees (as people's do
/// while drawing) read as 6 and failed the stroke, the cause of 5 of the 12 misses on the
/// stroke corpus (issue 40). So the hand as it landed is the mean of its first
/// ``StrokeDefaults/handFrames`` frames, and the hand now follows each frame half way
/// (an exponential mean, halving the noise's spread): a rotation or a pinch, which goes on,
/// is seen a frame later.
struct StrokeHand: Sendable, Equatable {
    /// The mean of the first frames' offsets.
    private(set) var landed: [Point]
    /// The offsets, each frame moved half way to the frame's.
    private(set) var now: [Point]
    private var frames = 1

    /// The hand at its first frame: `offsets` of each finger after the first from the first.
    init(_ offsets: [Point]) {
        landed = offsets
        now = offsets
    }

    /// The hand at the next frame.
    mutating func add(_ offsets: [Point]) {
        guard offsets.count == now.count else { return }
        if frames < StrokeDefaults.handFrames {
            frames += 1
            let weight = 1 / Double(frames)
            landed = zip(landed, offsets).map { $0 + ($1 - $0) * weight }
        }
        now = zip(now, offsets).map { $0 + ($1 - $0) * 0.5 }
    }

    /// Whether no finger has turned about the first by more than `turn` degrees since the
    /// hand landed, nor moved toward or away from it by more than `spread` millimetres.
    func keepsTogether(turn: Double = StrokeDefaults.maximumHandTurn, spread: Double = StrokeDefaults.maximumSpreadChange) -> Bool {
        let limit = turn * .pi / 180
        for (then, offset) in zip(landed, now) {
            if abs(offset.length - then.length) > spread { return false }
            let angle = Double.atan2(y: then.x * offset.y - then.y * offset.x, x: then.x * offset.x + then.y * offset.y)
            if abs(angle) > limit { return false }
        }
        return true
    }
}
