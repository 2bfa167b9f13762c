/// Every tunable of drawn strokes, with its unit and why it has this value.
///
/// ``StrokeGestureRecognizer`` copies these when it is made; change a recognizer's own
/// property to tune one. The matcher's constants (points, rotation) are the same for
/// every recognizer: templates are prepared once with them.
public enum StrokeDefaults {
    /// The lowest score (0 to 1, see ``StrokeMatcher/score(distance:)``) the best template
    /// must reach for a stroke to be recognized; a rule file's rule without a `threshold`
    /// adapts it down to how far apart its templates are (``adaptiveFloor``). On the generated corpus
    /// (docs/strokes.md) a stroke's own rule scored 0.83 to 0.995 (5% under 0.905), and
    /// the closest stroke rule to any of the gesture corpus's swipes, taps and rests at most
    /// 0.90, which the straight-line rival (``straightMargin``) kept from firing.
    public static let threshold = 0.80

    /// The lowest threshold a rule with no `threshold` of its own adapts to
    /// (``StrokeMatcher/adaptiveThreshold(for:ceiling:)``), and the threshold of one with a
    /// single template: on real drawings (issue 40) a person's next drawing of a shape
    /// scored 0.68-0.80 against a single earlier one in a quarter of the cases where the
    /// matcher still ranked the right shape first, and ranking, not the threshold, is what
    /// tells shapes apart.
    public static let adaptiveFloor = 0.70

    /// The highest threshold a rule with no `threshold` of its own adapts to, however alike
    /// its templates: on real drawings (issue 40, `StrokeStudy --policies`) every drawing a
    /// ceiling of 0.80 turned away at three templates was one the matcher ranked right or a
    /// confusion it made anyway, and swipes, taps and pinches are kept out by the
    /// straight-line rival, the size and the hand, not by the score. 0.72 rather than 0.75
    /// took fast real drawings at K = 3 from 98.9% to 99.1% right, with no more wrong and
    /// no false stroke on the gesture corpus (its closest came 0.915).
    public static let adaptiveCeiling = 0.72

    /// How far under the lowest score a rule's templates reach against each other its
    /// adapted threshold lies: a new drawing meets all of them, and scores a little over
    /// what one of them scores against the rest.
    public static let adaptiveMargin = 0.05

    /// A template that scores this much against the straight line from its first point to
    /// its last is itself a straight stroke. Other templates must come closer to a stroke
    /// than that line does: an L or a check mark scores about 0.8 against its own line, so
    /// a straight swipe, at 0.95 against its line, comes 0.8 near them too, and is the
    /// swipe's, not theirs (docs/strokes.md).
    public static let straightTemplate = 0.9

    /// How much closer than the straight line from its start to its end a stroke's best
    /// template must come (unless the template is straight itself). A swipe that drifts
    /// sideways by a quarter of its length, as people's do, bends like an L with a round
    /// corner: it came 0.90 near an L on the corpus, and 0.88 near its own line. An L
    /// comes 0.95 near its template and 0.80 near its line.
    public static let straightMargin = 0.05

    /// When the closest rule's template leads the second rule's by less than this, the two
    /// are looked at again where their shapes differ (``StrokeMatcher/prefersSecond(_:first:second:)``),
    /// if each has ``secondLookTemplates`` templates. Over the whole path a person's check
    /// mark and V, or curly brace and square bracket, score within 0.01-0.07 of each other;
    /// the shapes differ in a few places (the first arm's length, the brace's point). On
    /// real drawings with three templates a rule (issue 40) it took fast ones from 99.09%
    /// to 99.21% right; asked under 0.08 or 0.1 it turned as many right slow and fast
    /// drawings wrong as it set right.
    public static let secondLookLead = 0.05

    /// The second look takes the second rule only when the stroke's weighted distance from
    /// it is under this share of its distance from the first: clearly nearer where the
    /// two differ. Fast drawings round the corners that tell a triangle from a circle, and
    /// at any margin the second look sent generated fast triangles to the circle; on real
    /// drawings 0.6 set as many right as switching at any margin.
    public static let secondLookRatio = 0.6

    /// Templates each of the two rules needs for ``secondLookLead``'s second look: with one,
    /// where the shapes differ is where that one drawing happened to differ. With one
    /// template a rule it cost 0.1-0.2 points of real drawings.
    public static let secondLookTemplates = 2

    /// The straight-line rival (``straightMargin``) applies only to a stroke that turns
    /// less than this many degrees in all (``StrokeBends/turning``): a swipe that bows a
    /// quarter of its length sideways turns about 110, a curly brace or a question mark 300
    /// and more. Tall, narrow shapes score almost as well against their line as their
    /// template, and lost 13-17% of their drawings to it on real drawings (issue 40).
    public static let straightTurning = 150.0

    /// ... and that strays from the line through its ends by less than this fraction of
    /// the line's length (``StrokeBends/deviation``): a swipe people bow strongly strays
    /// up to 0.3 (the corpus's "strongly curved" family, which came 0.75-0.8 near a curly
    /// brace at 0.3), a check mark's corner 0.3 to 0.5. Real braces that stray less than
    /// this turn more than ``straightTurning``; 0.35 rather than 0.3 changed no real
    /// drawing's outcome (issue 40).
    public static let straightDeviation = 0.35

    /// ... unless it turns at least this many degrees at one corner of its simplified path
    /// (``StrokeBends/sharpestCorner``) and that corner strays at least
    /// ``cornerDeviation`` from the line: a check mark drawn fast, whose short first arm
    /// makes it score 0.9 against its line, turns 100-130 degrees at its corner and strays
    /// 0.18-0.24; a swipe bows round (30-40 degrees a corner), and a swipe's landing or
    /// lifting hook, sharp as it may be, strays little (5 mm on 40 is 0.12).
    public static let cornerTurn = 80.0
    /// See ``cornerTurn``: a fraction of the line's length.
    public static let cornerDeviation = 0.15

    /// The fraction of a stroke's longer side within which its path is simplified before
    /// its bends are measured: tremor and sensor noise (0.2-0.6 mm on a 40 mm shape, 1%)
    /// turn the path at every millimetre, a shape's corners are far larger.
    public static let bendTolerance = 0.05

    /// Millimetres at the start of a stroke that the check made while the fingers move may
    /// leave out: a finger or a pen landing skids or hooks a few millimetres before the
    /// stroke proper, and that hook is a large part of the path when the first check runs
    /// (at ``minimumSize``), though the whole drawing matches its template well.
    public static let landingHook = 5.0

    /// Degrees a landing hook turns into the stroke proper, at least: the way the finger
    /// came in against the way it goes on, each over a few millimetres. Real hooks come in
    /// at about 80 degrees (the $1 logs), the generator's at 60-150; a shape's own first
    /// stretch runs straight on.
    public static let hookTurn = 45.0

    /// Millimetres a landing hook spans from where the finger landed, at least: shorter,
    /// it is the sensor's noise, and the whole path is read as it is.
    public static let minimumHook = 1.0

    /// Millimetres the stroke's bounding box must span on its longer side before it is a
    /// stroke at all. Resting or tapping fingers wander 1-5 mm, and a path that small
    /// scaled up to the template box is noise that can look like any shape; people draw
    /// a shape larger than a fingertip (about 10 mm).
    public static let minimumSize = 12.0

    /// Degrees either way a stroke may be turned from its template and still match it.
    /// People tilt a shape they draw by 10-20 degrees; shapes that differ only by turning
    /// (a V and a <, an L and a Γ, a Z and an N) are 90 degrees apart, so 30 keeps a
    /// margin of 60 to the nearest of them. The $1 recognizer turns every stroke to a
    /// common angle first; that would make down-up and up-down, or a V and a caret, one
    /// shape (docs/strokes.md).
    public static let rotationTolerance = 30.0


    /// How much the directions of a stroke's steps count beside their positions
    /// (``StrokeMatcher/warpedDistance(_:_:angle:band:)``): the angle between paired steps, as a
    /// fraction of a half turn, times this, is added to the distance between the points.
    /// Positions alone let a stroke that passes through a template's points the other way,
    /// or round a corner where the template bends smoothly, come close; and with the
    /// pairing free to shift (``warpBand``), the directions keep it from pairing a corner
    /// with a straight stretch. On real drawings (`StrokeStudy --variants`, seeds 40 and 41)
    /// 0.5 ranked the right shape first more often than 0.3 at every speed and K, and
    /// within 0.1 points of 0.7 and 1.0.
    public static let directionWeight = 0.5

    /// How many places ahead or behind its own a point of a stroke may be paired with a
    /// template's: 8 of the 64 ``resampledPoints``, an eighth of the path. People draw a
    /// part of a shape a little longer or shorter each time, and paired by index alone
    /// every point after it is off. On real drawings (`StrokeStudy --variants`, issue 40)
    /// pairing within 8 rather than 0 ranked the right shape first in 98.9-99.8% of the
    /// tests rather than 97.9-99.5%, most at one template and fast; 5 or 6 a little less,
    /// 10 to 16 the same.
    public static let warpBand = 8

    /// What the sum of positions and directions is divided by, so that a score keeps the
    /// meaning it had with positions alone (``StrokeMatcher/score(distance:)``): on the
    /// generated corpus both a stroke's distance to its own rule and to the closest rule of
    /// a swipe or a tap grew about 1.5 times with directions added (at 0.3, paired by
    /// index), and a rule file's `threshold` should mean what it meant. Kept when the
    /// weight became 0.5 and the pairing warped (issue 40), which nearly cancel: a
    /// stroke's own rule scored 0.913 at the 5th percentile on the corpus (0.883 before),
    /// the closest rule to a swipe or a tap at most 0.897 (0.915).
    public static let directionScale = 1.5

    /// Points a stroke and each template are resampled to before they are compared: the
    /// $1 recognizer found 32 to 256 alike and used 64.
    public static let resampledPoints = 64

    /// Points of the coarser comparison that decides, while the fingers still move,
    /// whether the path can still become a template: enough for a corner or a turn.
    public static let prefixPoints = 32

    /// How many lengths of each template the path so far is compared with (1/16, 2/16,
    /// ... of it): the path is some unknown part of the shape.
    public static let prefixFractions = 16

    /// How far below ``threshold`` the path so far may score against every part of every
    /// template before the recognizer gives up. The parts of a shape are short and
    /// simple, so a path that scores this low against all of them has left the shape;
    /// one scoring a little under the threshold may still come back to it.
    public static let prefixMargin = 0.20

    /// Millimetres the path grows between two of those checks: about one frame of a
    /// quick stroke, and every check costs a comparison with every part of every template.
    public static let prefixCheckSpacing = 4.0

    /// Degrees the fingers of a stroke of two or more may turn against each other, and
    /// ``maximumSpreadChange`` the millimetres their distance may change, held steady
    /// against the contacts' noise (`StrokeHand`): fingers that draw together move as one
    /// hand. Past either they rotate or pinch, and the stroke gives up before a rotation
    /// (8.6 degrees) or a pinch (4 mm) begins, so that a swipe waiting for the stroke is
    /// recognized before either could take the fingers.
    public static let maximumHandTurn = 6.0
    /// See ``maximumHandTurn``: millimetres.
    public static let maximumSpreadChange = 3.0
    /// Degrees the fingers may turn on a single frame, unsteadied: the steady reading lags
    /// a frame or two, and a brisk rotation (100 degrees a second at 80 Hz) would begin at
    /// 8.6 degrees before it read 6. The contacts' noise on the corpus's hands reached 2.6
    /// degrees past a 4-degree turn.
    public static let maximumHandTurnAtOnce = 7.0
    /// See ``maximumHandTurnAtOnce``: millimetres of spread on a single frame, before a
    /// pinch's 4.
    public static let maximumSpreadChangeAtOnce = 3.5

    /// Frames whose mean is where the fingers of a stroke landed, against the sensor's
    /// noise (`StrokeHand`): the first 14-25 ms of the hand at 80-140 Hz.
    public static let handFrames = 3
    /// How far the steady hand (`StrokeHand`) moves toward each new frame: a share, no
    /// unit. A half cuts the spread of frame-to-frame noise to 0.58 of a frame's (a third
    /// for noise that alternates) for a frame of lag.
    public static let handSmoothing = 0.5

    /// Millimetres between two points kept of a path: finer than any sensor's noise, so
    /// nothing is lost, and a finger resting for minutes keeps no points.
    public static let pointSpacing = 0.2

    /// Most points kept of one path; a path that would need more is thinned. At 0.2 mm a
    /// point that is a 800 mm stroke, longer than any shape drawn on a screen.
    public static let maximumPathPoints = 4_096

    /// Most templates one stroke rule may have: every stroke is compared with each of
    /// them, and `touchgest learn` writes one per example drawn (three or so).
    public static let maximumTemplatesPerRule = 16

    /// Most drawings `touchgest learn` compares with each other to find the most typical
    /// when a recording holds more than a rule may have templates: evenly spread over the
    /// recording, they show its ways of drawing the shape, and 128 x 127 comparisons take
    /// a fraction of a second where all of 20,000 drawings would take hours.
    public static let learnCandidates = 128
}
