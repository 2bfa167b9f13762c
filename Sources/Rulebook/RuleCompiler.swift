import StrokeGestures
import TextWire
import TouchGestures

/// A rulebook turned into recognizers wired to a command sink.
///
/// Each rule becomes one recognizer named after the rule, with the rule's parameters
/// and the failure requirements the rulebook worked out.
public final class CompiledRulebook {
    public let rulebook: Rulebook
    /// The recognizers in rule order.
    public let recognizers: [GestureRecognizer]
    private let triggers: [RuleTrigger]
    private let filters: [DeviceNameFilter]
    private let windowFilters: [WindowFilter]
    /// Recognizers hold their delegates weakly: the modifiers and buttons filters live here.
    private let heldFilters: [HeldFilter]
    /// The focused window the rules' `application` and `title` conditions look at.
    public let focus: FocusContext
    /// The stroke rules' recognizers, which compete for each stroke by score.
    private let strokes: StrokeGroup
    /// Which rules may act now (``admit(_:)``).
    public private(set) var admission = RuleAdmission.every
    /// Called when a gesture begins while ``admission`` keeps rules out, once per gesture,
    /// with the admission: the moment a refusal takes effect, which `debug` and `run -v` show.
    public var onGestureWhileRestricted: ((RuleAdmission) -> Void)?

    /// Told how every stroke matched the stroke rules, whether it fired one or not: the
    /// best template of each rule that followed it and its score (`touchgest debug`,
    /// `replay`).
    public var strokeReports: ((StrokeReport) -> Void)? {
        get { strokes.onReport }
        set { strokes.onReport = newValue }
    }

    /// Whether a rule reads touchpad fingers (contacts) rather than libinput's gestures:
    /// only then do contact frames need to reach the engine.
    public var readsTouchpadContacts: Bool {
        rulebook.rules.contains { $0.touchpadInput == .contacts }
    }

    /// Whether a rule reads the fingers of the touchpads whose gestures libinput cannot
    /// tell (semi-MT pads' taps, ``TouchpadInput/automatic``): their fingers need reading.
    public var readsSemiMultitouchFingers: Bool {
        rulebook.rules.contains { $0.touchpadInput == .automatic }
    }

    /// Builds the recognizers. `deviceName` tells a device's name for `device-name` globs;
    /// `focus` the focused window (keep one across reloads: it belongs to the daemon).
    public init(_ rulebook: Rulebook, sink: CommandSink, focus: FocusContext = FocusContext(),
                deviceName: @escaping (DeviceID) -> String? = { _ in nil }) {
        self.rulebook = rulebook
        self.focus = focus
        focus.hasWindowRules = rulebook.rules.contains { !$0.window.isEmpty }
        var recognizers: [GestureRecognizer] = []
        var triggers: [RuleTrigger] = []
        var filters: [DeviceNameFilter] = []
        var windowFilters: [WindowFilter] = []
        var heldFilters: [HeldFilter] = []
        let strokeGroup = StrokeGroup()
        for rule in rulebook.rules {
            let made = Self.makeRecognizer(rule, in: rulebook)
            let recognizer = made.recognizer
            recognizer.name = rule.name
            recognizer.allowedTouchTypes = rule.device.touchTypes.intersection(recognizer.allowedTouchTypes)
            if let input = rule.touchpadInput {
                recognizer.touchpadInput = input
            } else {
                recognizer.allowedTouchTypes.remove(.indirect)
            }
            if let pattern = rule.deviceName {
                let filter = DeviceNameFilter(pattern: pattern, deviceName: deviceName)
                recognizer.delegate = filter
                filters.append(filter)
            }
            if !rule.window.isEmpty {
                let filter = WindowFilter(rule: rule.name, condition: rule.window, focus: focus, inner: recognizer.delegate as? DeviceNameFilter)
                recognizer.delegate = filter
                windowFilters.append(filter)
            }
            if !rule.held.isEmpty {
                let filter = HeldFilter(condition: rule.held, inner: recognizer.delegate)
                recognizer.delegate = filter
                heldFilters.append(filter)
            }
            triggers.append(RuleTrigger(rule: rule, recognizer: recognizer, sink: sink, focus: focus, deviceName: deviceName))
            // After the trigger: a stroke's report follows the command it ran.
            if let stroke = made.stroke { strokeGroup.add(stroke) }
            recognizers.append(recognizer)
        }
        let byName = Dictionary(zip(rulebook.rules.map(\.name), recognizers), uniquingKeysWith: { first, _ in first })
        for requirement in Self.waitersFirst(rulebook.requirements) {
            guard let waiter = byName[requirement.waiter], let waitedOn = byName[requirement.waitedOn] else { continue }
            // The rulebook has already rejected cycles, so this cannot throw.
            try? waiter.require(toFail: waitedOn)
        }
        self.recognizers = recognizers
        self.triggers = triggers
        self.filters = filters
        self.windowFilters = windowFilters
        self.heldFilters = heldFilters
        strokes = strokeGroup
    }

    /// The requirements ordered so that a rule's own waits come before those of the
    /// rules it waits for (a topological order of the acyclic graph).
    ///
    /// `require(toFail:)` searches from the waited-on recognizer for a path back to the
    /// waiter; in this order the waited-on one has no requirements yet, so each search
    /// stops at once and wiring n rules costs n steps, not n².
    static func waitersFirst(_ requirements: [Rulebook.Requirement]) -> [Rulebook.Requirement] {
        var outgoing: [String: [Rulebook.Requirement]] = [:]
        var waitedFor: [String: Int] = [:]
        var names: [String] = []
        for requirement in requirements {
            for name in [requirement.waiter, requirement.waitedOn] where outgoing[name] == nil {
                outgoing[name] = []
                names.append(name)
            }
            outgoing[requirement.waiter]!.append(requirement)
            waitedFor[requirement.waitedOn, default: 0] += 1
        }
        var ready = names.filter { waitedFor[$0, default: 0] == 0 }
        var ordered: [Rulebook.Requirement] = []
        ordered.reserveCapacity(requirements.count)
        while let name = ready.popLast() {
            for requirement in outgoing[name]! {
                ordered.append(requirement)
                waitedFor[requirement.waitedOn]! -= 1
                if waitedFor[requirement.waitedOn] == 0 { ready.append(requirement.waitedOn) }
            }
        }
        // A cycle (which the rulebook reports before compiling) leaves edges out; keep them
        // so that the engine still sees and refuses them.
        if ordered.count < requirements.count {
            let placed = Set(ordered.map { [$0.waiter, $0.waitedOn] })
            ordered += requirements.filter { !placed.contains([$0.waiter, $0.waitedOn]) }
        }
        return ordered
    }

    /// Attaches every recognizer to `environment`, and has the environment tell ``focus``
    /// when a gesture begins: the window focused then decides the gesture's window
    /// conditions, whoever feeds the environment (the daemon, a replay, the corpus).
    public func attach(to environment: GestureEnvironment) {
        for recognizer in recognizers { environment.attach(recognizer) }
        let focus = focus
        environment.gestureWillBegin = { [weak self] in
            focus.gestureBegins()
            if let self, admission != .every { onGestureWhileRestricted?(admission) }
        }
    }

    /// Lets only the rules `admission` admits act. The others' recognizers are turned off
    /// (`isEnabled`): a gesture one of them has under way is cancelled at once (its stream
    /// gets `cancelled`, its `on-cancel` runs: it began while the rule could act, and
    /// on-cancel is how a rule undoes what its on-begin did), one it is still deciding
    /// fails, and it takes no part in the next gestures, so a rule that waits for it to
    /// fail is not held up. Turned on again, a recognizer waits for the next gesture.
    public func admit(_ admission: RuleAdmission) {
        self.admission = admission
        for (rule, recognizer) in zip(rulebook.rules, recognizers) {
            recognizer.isEnabled = admission.admits(rule)
        }
    }

    /// Detaches every recognizer from its environment (a gesture under way is cancelled).
    public func detach() {
        for recognizer in recognizers {
            guard let environment = recognizer.environment else { continue }
            environment.gestureWillBegin = nil
            environment.detach(recognizer)
        }
    }

    /// The recognizer a rule describes, with every tunable the rule (or `[settings]`)
    /// sets applied through ``TunableKey``; for a stroke rule, the same recognizer as a
    /// stroke too, for its group (no cast over recognizer types outside the engine).
    static func makeRecognizer(_ rule: Rule, in rulebook: Rulebook) -> (recognizer: GestureRecognizer, stroke: StrokeGestureRecognizer?) {
        var tunables = rule.tunables
        let recognizer: GestureRecognizer
        var made: StrokeGestureRecognizer?
        switch rule.gesture {
        case .tap:
            let tap = TapGestureRecognizer()
            tap.numberOfTapsRequired = rule.taps
            tap.numberOfTouchesRequired = rule.fingers
            recognizer = tap
        case .longPress:
            let press = LongPressGestureRecognizer()
            press.numberOfTouchesRequired = rule.fingers
            press.numberOfTapsRequired = rule.taps
            recognizer = press
        case .swipe:
            let swipe = SwipeGestureRecognizer()
            swipe.numberOfTouchesRequired = rule.fingers
            swipe.direction = rule.directions
            // Swipe rules on the same fingers and devices must sort directions alike: with a
            // diagonal rule among them, all use eight sectors.
            let neighbours = rulebook.rules.filter {
                $0.gesture == .swipe && $0.fingers == rule.fingers && $0.device.overlaps(rule.device) && $0.deviceName == rule.deviceName
            }
            swipe.sectors = neighbours.contains { !$0.directions.isDisjoint(with: .diagonal) } ? .eight : .four
            // A pan rule on the same fingers would take a slow swipe's motion: the swipe must be quick.
            if tunables["velocity"] == nil, rulebook.dragCompetes(with: rule) {
                tunables["velocity"] = .number(GestureDefaults.swipeMinimumVelocity)
            }
            recognizer = swipe
        case .pan:
            let pan = PanGestureRecognizer()
            pan.minimumNumberOfTouches = rule.fingers
            pan.maximumNumberOfTouches = rule.maxFingers
            recognizer = pan
        case .pinch:
            let pinch = PinchGestureRecognizer()
            pinch.numberOfTouchesRequired = rule.fingers
            // A rotation rule on the same fingers: the change that dominates decides.
            if rulebook.spreadAndTurnCompete(with: rule) { pinch.dominance = GestureDefaults.pinchRotationDominance }
            recognizer = pinch
        case .rotation:
            let rotation = RotationGestureRecognizer()
            rotation.numberOfTouchesRequired = rule.fingers
            if rulebook.spreadAndTurnCompete(with: rule) { rotation.dominance = GestureDefaults.pinchRotationDominance }
            recognizer = rotation
        case .edgePan:
            let edge = ScreenEdgePanGestureRecognizer()
            edge.edges = rule.edges
            edge.maximumNumberOfTouches = rule.maxFingers
            edge.minimumNumberOfTouches = rule.fingers
            recognizer = edge
        case .stroke:
            let stroke = StrokeGestureRecognizer()
            stroke.numberOfTouchesRequired = rule.fingers
            stroke.templates = rule.templates
            stroke.threshold = rule.strokeThresholdInForce
            recognizer = stroke
            made = stroke
        }
        for (key, value) in tunables.values {
            TunableKey.named(key)?.apply[rule.gesture]?(recognizer, value)
        }
        return (recognizer, made)
    }
}

/// Lets a recognizer see only devices whose name matches a glob.
final class DeviceNameFilter: GestureRecognizerDelegate {
    let pattern: String
    let deviceName: (DeviceID) -> String?

    init(pattern: String, deviceName: @escaping (DeviceID) -> String?) {
        self.pattern = pattern
        self.deviceName = deviceName
    }

    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool {
        deviceName(touch.device).map { globMatches(pattern, $0) } ?? false
    }

    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive event: TouchpadEvent) -> Bool {
        deviceName(event.device).map { globMatches(pattern, $0) } ?? false
    }
}
