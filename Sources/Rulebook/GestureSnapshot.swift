import TouchGestures

/// A rule's gesture at one moment: which fingers on which device, the way it went and
/// what it measured. The one place these are worked out; `touchgest debug`'s decision
/// (``GestureDecision``), a stream's and `touchgest events`' line (``GestureSample``) and a
/// command's `TOUCHGEST_*` variables (``environment(for:)``) are each a rendering of it,
/// so they cannot disagree about one gesture.
public struct GestureSnapshot: Sendable, Equatable {
    public var rule: String
    public var gesture: GestureKind
    public var moment: GestureMoment
    /// libinput's timestamp of the event that caused the moment: CLOCK_MONOTONIC, microseconds.
    public var timestamp: Timestamp
    /// The touches the recognizer holds (a pan's may change as it goes); once they have
    /// lifted, the most it held; the rule's count when it holds none.
    public var fingers: Int
    /// touchpad or touchscreen; nil when the recognizer follows no device (it is idle).
    public var device: TouchType?
    /// libinput's name of the device, when known.
    public var deviceName: String?
    /// The way the gesture has gone (``GestureReadings/direction``); at a step, the
    /// step's own way (a pinch that went out may step back in).
    public var direction: GestureDirection?
    /// Where the fingers are, in millimetres (touchpad: from where the gesture began).
    public var location = Point.zero
    /// What the recognizer measured: scale, rotation, translation, velocities, edge, score.
    public var readings = GestureReadings()
    /// At a step: the steps taken so far, signed (pinch and rotation step back).
    public var step: Int?
    /// The modifier keys and buttons held at the event of the moment
    /// (``GestureRecognizer/modifierFlags``, ``GestureRecognizer/buttonMask``).
    public var modifiers: KeyModifierFlags = []
    public var buttons: EventButtonMask = []

    /// A moment of `rule`'s gesture with nothing measured yet; the rest is set member by
    /// member (for tests, benchmarks and tools that make lines of their own).
    public init(rule: String, gesture: GestureKind, moment: GestureMoment, timestamp: Timestamp, fingers: Int) {
        (self.rule, self.gesture, self.moment, self.timestamp, self.fingers) = (rule, gesture, moment, timestamp, fingers)
    }

    /// `recognizer`, compiled from `rule`, at `moment`; `readings` when the caller has
    /// read them already.
    public init(rule: Rule, recognizer: GestureRecognizer, moment: GestureMoment, readings: GestureReadings? = nil,
                deviceName: String? = nil) {
        self.rule = rule.name
        gesture = rule.gesture
        self.moment = moment
        timestamp = recognizer.environment?.time ?? Timestamp(microseconds: 0)
        fingers = recognizer.numberOfTouches > 0 ? recognizer.numberOfTouches : rule.fingers
        device = recognizer.touchType ?? rule.device.touchType
        self.deviceName = deviceName
        self.readings = readings ?? GestureReadings.of(recognizer)
        direction = self.readings.direction
        location = recognizer.location()
        modifiers = recognizer.modifierFlags
        buttons = recognizer.buttonMask
    }

    /// The same gesture at its `step`-th step, which went `direction`.
    public func stepped(_ step: Int, direction: GestureDirection) -> GestureSnapshot {
        var snapshot = self
        snapshot.moment = .step
        snapshot.step = step
        snapshot.direction = direction
        return snapshot
    }

    /// The `TOUCHGEST_*` variables of a command run by `key` at this moment (the window's
    /// come from ``FocusContext``).
    public func environment(for key: CommandKey) -> [String: String] {
        var values = [
            "TOUCHGEST_RULE": rule,
            "TOUCHGEST_GESTURE": gesture.rawValue,
            "TOUCHGEST_PHASE": key.rawValue,
            "TOUCHGEST_FINGERS": String(fingers),
            "TOUCHGEST_X": fixedDecimals(location.x, 1),
            "TOUCHGEST_Y": fixedDecimals(location.y, 1),
            "TOUCHGEST_MODIFIERS": modifiers.description,
            "TOUCHGEST_BUTTONS": buttons.ruleName,
        ]
        if let device { values["TOUCHGEST_DEVICE"] = device.word }
        if let step { values["TOUCHGEST_STEP"] = String(step) }
        if let direction { values["TOUCHGEST_DIRECTION"] = direction.rawValue }
        if let scale = readings.scale { values["TOUCHGEST_SCALE"] = fixedDecimals(scale, 3) }
        if let velocity = readings.scaleVelocity { values["TOUCHGEST_VELOCITY"] = fixedDecimals(velocity, 3) }
        if let degrees = readings.rotation { values["TOUCHGEST_ROTATION"] = fixedDecimals(degrees, 1) }
        if let velocity = readings.rotationVelocity { values["TOUCHGEST_VELOCITY"] = fixedDecimals(velocity, 1) }
        if let translation = readings.translation {
            values["TOUCHGEST_DX"] = fixedDecimals(translation.x, 1)
            values["TOUCHGEST_DY"] = fixedDecimals(translation.y, 1)
        }
        if let velocity = readings.velocity { values["TOUCHGEST_VELOCITY"] = fixedDecimals(velocity.length, 1) }
        if let edge = readings.edge { values["TOUCHGEST_EDGE"] = edge.description }
        if let score = readings.score { values["TOUCHGEST_SCORE"] = fixedDecimals(score, 3) }
        return values
    }
}

extension TouchType {
    /// `touchpad` or `touchscreen`, as rules, streams and commands name the device.
    public var word: String {
        switch self {
        case .indirect: "touchpad"
        case .direct: "touchscreen"
        }
    }
}

extension DeviceKind {
    /// The kind a device of `type` is; `any` when it is unknown.
    public init(_ type: TouchType?) {
        switch type {
        case .indirect?: self = .touchpad
        case .direct?: self = .touchscreen
        case nil: self = .any
        }
    }

    /// The one touch type of this kind; nil for `any`.
    public var touchType: TouchType? {
        switch self {
        case .touchpad: .indirect
        case .touchscreen: .direct
        case .any: nil
        }
    }
}
