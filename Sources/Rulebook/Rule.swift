import InputActions
import StrokeGestures
import TouchGestures

/// The gestures a rule can name, one per recognizer of the engine.
public enum GestureKind: String, CaseIterable, Sendable {
    case tap
    case longPress = "long-press"
    case swipe, pan, pinch, rotation
    case edgePan = "edge-pan"
    case stroke

    /// Whether the gesture begins, changes and ends (and so has on-begin/on-step/...).
    public var isContinuous: Bool {
        switch self {
        case .tap, .swipe, .stroke: false
        case .longPress, .pan, .pinch, .rotation, .edgePan: true
        }
    }
}

/// Which devices a rule listens to.
public enum DeviceKind: String, CaseIterable, Sendable {
    case touchpad, touchscreen, any

    /// The engine's touch types for this kind.
    public var touchTypes: Set<TouchType> {
        switch self {
        case .touchpad: [.indirect]
        case .touchscreen: [.direct]
        case .any: [.direct, .indirect]
        }
    }

    /// Whether a device of one kind can be a device of the other.
    public func overlaps(_ other: DeviceKind) -> Bool {
        !touchTypes.isDisjoint(with: other.touchTypes)
    }
}

/// What to do when a rule's command is triggered while its previous run is still going.
public enum OverlapPolicy: String, CaseIterable, Sendable {
    /// Drop the new run.
    case skip
    /// Run it when the previous one ends; at most one waits.
    case queue
    /// Run it at once, beside the previous one.
    case parallel
}

/// One validated rule: a gesture, its parameters, and what to run.
public struct Rule: Sendable {
    public var name: String
    public var gesture: GestureKind
    public var device: DeviceKind
    /// A glob (`*`, `?`) on libinput's device name, e.g. `"*Touchpad*"`.
    public var deviceName: String?
    /// Touchpad input: libinput's gestures or the fingers (the `source` key).
    public var source: RuleSource = .auto
    public var fingers: Int
    /// Pan only: the most fingers; equal to `fingers` unless `max-fingers` is given.
    public var maxFingers: Int
    public var taps: Int
    public var directions: SwipeDirection
    public var edges: RectEdge
    /// Stroke: the shapes it recognizes, as written (`template`); empty for other gestures.
    public var templates: [StrokeTemplate] = [] {
        didSet { templatesAgreement = StrokeMatcher.lowestAgreement(of: templates) }
    }
    /// Stroke: how close its templates come to each other, the lowest score of one
    /// against the others (`StrokeMatcher.lowestAgreement(of:)`), kept as the templates
    /// are set: the adaptive threshold is made of it each time the rule is compiled (for
    /// every device, every reload), and finding it compares every pair of templates.
    public private(set) var templatesAgreement: Double?
    /// Engine tunables; nil keeps the engine's (or the `[settings]`) default.
    public var tunables: Tunables
    /// Scale (pinch), degrees (rotation) or millimetres (pan, edge-pan) between on-step runs.
    public var step: Double?
    public var commands: [CommandKey: String]
    /// Keys, text or a button the rule presses at each phase (`keys`, `text`, `button`,
    /// or `{ keys = ... }` as a command key's value), through the desktop's own channel.
    public var inputs: [CommandKey: InputAction] = [:]
    /// On-step actions by the step's direction (`on-step = { out = "ctrl+plus", in =
    /// "ctrl+minus" }`): `in`/`out` (pinch), `clockwise`/`counterclockwise` (rotation),
    /// `left`/`right`/`up`/`down` (pan, edge-pan).
    public var stepInputs: [String: InputAction] = [:]
    /// Seconds after which a running command is stopped; nil for no limit.
    public var timeout: Duration?
    public var overlap: OverlapPolicy
    public var requireToFail: [String]
    /// Conditions on the window focused when the gesture begins; empty for none.
    public var window = WindowCondition()
    /// The modifiers and buttons held when the gesture begins (`modifiers`, `buttons`);
    /// empty for none.
    public var held = HeldCondition()
    /// A command started once and kept running, that gets one JSON line per phase of the
    /// gesture on its standard input (`stream`); nil for none.
    public var stream: String?
    /// Millimetres (pan, edge-pan), scale change (pinch) or degrees (rotation) at which a
    /// streamed gesture's progress reaches 1; nil for the gesture's default.
    public var progressDistance: Double?
    /// The desktop's own animation the gesture moves under the fingers (`follow`); its
    /// progress is the stream's (``progressDistance``).
    public var follow: FollowTarget?
    /// Whether the rule also acts while the screen is locked (`when-locked`): for volume,
    /// brightness and media keys. No rule acts while the session is not in front or the
    /// machine is going to sleep, whatever this says.
    public var whenLocked = false
    /// Line of the rule's `[rule.NAME]` header.
    public var line: Int
    public var column: Int
}


extension Rule {
    /// The first control or format character of a rule name (Unicode's Cc and Cf: ESC,
    /// the bidi overrides), which no name may hold; nil when it holds none.
    public static func unprintable(in name: String) -> Unicode.Scalar? {
        name.unicodeScalars.first { [.control, .format].contains($0.properties.generalCategory) }
    }

    /// A stroke rule's threshold: its own, the `[settings]` one, or the default.
    public var strokeThreshold: Double {
        tunables["threshold"]?.number ?? StrokeDefaults.threshold
    }

    /// The threshold a stroke rule is compiled with: one that names none gets it from how
    /// far apart its own templates are (``templatesAgreement``); one that names it (or the
    /// settings') keeps it, as the tunables set it after.
    public var strokeThresholdInForce: Double {
        StrokeMatcher.adaptiveThreshold(lowestAgreement: templatesAgreement, ceiling: strokeThreshold)
    }
}
