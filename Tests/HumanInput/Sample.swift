import TouchGestures

/// One generated gesture: its input events and what a user expects to happen.
public struct Sample: Sendable {
    /// The row of the table the sample counts in.
    public var kind: SampleKind
    /// A readable description, e.g. `touchpad swipe 3f left 40mm/800ms`.
    public var name: String
    /// The input, timestamps in microseconds from ``Sample/start``.
    public var events: [InputEvent]
    /// A touchpad sample's fingers as the contact reader delivers them, from the same
    /// frames as its libinput events: they reach the engine only when a rule reads
    /// touchpad fingers, as in the daemon.
    public var contacts: [InputEvent] = []
    /// The rule that must fire exactly once, and what its values must say; nil for a
    /// negative sample, where no rule outside ``allowed`` may fire.
    public var expected: Expectation?
    /// Rules that may fire without being wrong, e.g. a hold rule when fingers rest long.
    public var allowed: Set<String>
    /// Named cases from the issue that must fire whatever the totals.
    public var isNamedCase = false
    /// Whether the sample runs through the rules with the competing pan
    /// (``CorpusRules/withPan``): one-finger touchscreen swipes and drags.
    public var withPan = false

    /// Every sample starts one second into the clock, as replays do.
    public static let start = Timestamp(microseconds: 1_000_000)
}

/// The rule a positive sample must fire, and how to check the values it fired with.
public struct Expectation: Sendable, Equatable {
    /// What the command's environment must show.
    public enum Check: Sendable, Equatable {
        case none
        /// `TOUCHGEST_SCALE` at the end below 1 (in) or above 1 (out).
        case scale(spreading: Bool)
        /// `TOUCHGEST_ROTATION` at the end clockwise (positive) or not.
        case rotation(clockwise: Bool)
    }

    public var rule: String
    public var check: Check

    public init(rule: String, check: Check = .none) {
        self.rule = rule
        self.check = check
    }
}

/// The rows of the recognition table.
public enum SampleKind: String, CaseIterable, Sendable {
    case touchpadSwipe3 = "touchpad swipe 3f"
    case touchpadSwipe4 = "touchpad swipe 4f"
    case touchpadFlick = "touchpad flick under 10 mm"
    case touchpadCurvedSwipe = "touchpad swipe, strongly curved"
    case touchpadPinch = "touchpad pinch"
    case touchpadMovingPinch = "touchpad pinch, hand moving"
    case touchpadRotation = "touchpad rotation"
    case touchpadWobblingRotation = "touchpad rotation, spread wobbling"
    case touchpadHold = "touchpad hold"
    case touchpadTap = "touchpad tap"
    case semiMultitouchTap = "semi-MT touchpad tap 2f, finger jump"
    case semiMultitouchDriftTap = "semi-MT touchpad tap 2f, first contact drifting"
    case touchscreenSwipe1 = "touchscreen swipe 1f"
    case touchscreenSwipe2 = "touchscreen swipe 2f"
    case touchscreenSwipe3 = "touchscreen swipe 3f"
    case touchscreenTap = "touchscreen tap"
    case touchscreenDoubleTap = "touchscreen double tap"
    case touchscreenLateDoubleTap = "touchscreen double tap 300-320 ms apart"
    case touchscreenLongPress = "touchscreen long-press"
    case touchscreenCreepingPress = "touchscreen long-press creeping 3-5 mm"
    case touchscreenSettlingPress = "touchscreen long-press 2f, landing settle"
    case touchscreenPinch = "touchscreen pinch"
    case touchscreenRotation = "touchscreen rotation"
    case touchscreenWobblingRotation = "touchscreen rotation, spread wobbling"
    case touchscreenDrag = "touchscreen slow drag (pan)"
    case touchscreenSlowerDrag = "touchscreen drag at 12 mm/s (pan)"
    case touchpadRestHold = "negative: touchpad rest, as hold"
    case touchpadRestSwipe = "negative: touchpad rest, as tiny swipe"
    case touchpadScrollPinch = "negative: touchpad scroll libinput takes for a pinch"
    case semiMultitouchScroll = "negative: semi-MT touchpad scroll"
    case touchscreenRest = "negative: touchscreen rest"
    /// The stroke corpus (``StrokeCorpus``), scored per shape by ``StrokeScorecard``.
    case drawnStroke = "drawn stroke"

    /// Whether samples of this kind expect nothing to fire.
    public var isNegative: Bool { rawValue.hasPrefix("negative") }

    /// The kinds of the gesture corpus (``Corpus``), without the drawn strokes of
    /// ``StrokeCorpus``.
    public static let gestureKinds = allCases.filter { $0 != .drawnStroke }

    /// Whether the kind is a swipe, for the swipe goal.
    public var isSwipe: Bool {
        switch self {
        case .touchpadSwipe3, .touchpadSwipe4, .touchpadFlick, .touchpadCurvedSwipe, .touchscreenSwipe1, .touchscreenSwipe2,
             .touchscreenSwipe3: true
        default: false
        }
    }
}
