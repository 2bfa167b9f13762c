import TouchGestures

/// Turns one rule's recognizer transitions into command requests: `command` when a
/// discrete gesture is recognized or a continuous one begins, then on-begin, on-step
/// every `step`, on-end and on-cancel.
final class RuleTrigger {
    let rule: Rule
    private weak var sink: CommandSink?
    private let focus: FocusContext?
    /// Steps taken so far, signed (pinch, rotation), and where the last pan step was.
    private var stepIndex = 0
    private var stepAnchor = Point.zero

    /// Most on-step commands one update of a gesture may start: a device that jumps
    /// (libinput's scale going from 1 to 1e9 in one event) must not start millions of
    /// commands or hold the loop; 100 is more steps than any real motion crosses in
    /// one ~10 ms frame.
    static let maximumStepsPerUpdate = 100

    /// Whether the rule acts at each `step` (it has one, and an on-step command or keys),
    /// asked at every update of its gesture: worked out once here.
    private let actsOnSteps: Bool

    /// libinput's name of a device, for the samples.
    private let deviceName: (DeviceID) -> String?

    /// The recognizer as what reads its gesture's values (nil for tap and long-press),
    /// cast once here, not at every update.
    private let readable: (any GestureReadable)?

    init(rule: Rule, recognizer: GestureRecognizer, sink: CommandSink, focus: FocusContext? = nil,
         deviceName: @escaping (DeviceID) -> String? = { _ in nil }) {
        self.rule = rule
        self.sink = sink
        self.focus = focus
        self.deviceName = deviceName
        actsOnSteps = (rule.step ?? 0) > 0 && rule.actsOnSteps
        readable = recognizer as? GestureReadable
        recognizer.addAction { [weak self] recognizer in self?.transitioned(recognizer) }
    }

    private func transitioned(_ recognizer: GestureRecognizer) {
        guard let moment = GestureMoment(recognizer.state, continuous: rule.gesture.isContinuous) else { return }
        let streamed = sink?.wantsSamples(of: rule.name) ?? false
        // Most updates of a gesture (changed) concern only a stream or on-step: a rule with
        // neither reads nothing, at every frame of a swipe or pinch.
        if moment == .changed && !streamed && !actsOnSteps { return }
        let readings = readable?.readings ?? GestureReadings()
        if streamed, let sink {
            sink.stream(sample(of: recognizer, at: moment, readings))
        }
        switch moment {
        case .began:
            stepIndex = 0
            stepAnchor = readings.translation ?? .zero
        case .changed:
            steps(recognizer, readings)
            return
        case .recognized, .step, .ended, .cancelled:
            break
        }
        for key in moment.commandKeys { emit(key, recognizer, readings) }
    }

    /// Runs `on-step` once per `step` crossed: of scale (pinch), degrees (rotation) or
    /// millimetres moved since the last step (pan, edge pan).
    private func steps(_ recognizer: GestureRecognizer, _ readings: GestureReadings) {
        guard actsOnSteps, let step = rule.step else { return }
        if let scale = readings.scale {
            catchUp(to: (scale - 1) / step, recognizer, readings, positive: "out", negative: "in")
        } else if let degrees = readings.rotation {
            catchUp(to: degrees / step, recognizer, readings, positive: "clockwise", negative: "counterclockwise")
        } else if let translation = readings.translation {
            let moved = translation - stepAnchor
            guard moved.length.isFinite, moved.length >= step else { return }
            stepAnchor = translation
            stepIndex += 1
            let direction = SwipeDirection.of(moved, diagonals: false).description
            emit(.step, recognizer, readings, extra: ["TOUCHGEST_DIRECTION": direction])
        }
    }

    /// Emits one step per boundary crossed since the last, so a fast pinch loses none,
    /// but at most ``maximumStepsPerUpdate``; a value that is not finite is no step.
    private func catchUp(to steps: Double, _ recognizer: GestureRecognizer, _ readings: GestureReadings,
                         positive: String, negative: String) {
        guard steps.isFinite else { return }
        // Bounded in Double first, so no value can overflow the conversion to Int.
        let limit = Double(Self.maximumStepsPerUpdate)
        let target = stepIndex + Int(max(-limit, min(limit, steps.rounded(.towardZero) - Double(stepIndex))))
        while stepIndex != target {
            let forward = target > stepIndex
            stepIndex += forward ? 1 : -1
            emit(.step, recognizer, readings, extra: ["TOUCHGEST_DIRECTION": forward ? positive : negative])
        }
    }

    private func emit(_ key: RulePhase, _ recognizer: GestureRecognizer, _ readings: GestureReadings,
                      extra: [String: String] = [:]) {
        guard let sink else { return }
        if let action = rule.inputs[key] ?? (key == .step ? extra["TOUCHGEST_DIRECTION"].flatMap { rule.stepInputs[$0] } : nil) {
            sink.press(InputRequest(rule: rule.name, phase: key, action: action))
        }
        guard let command = rule.commands[key] else { return }
        var environment = values(of: recognizer, readings, key: key)
        environment.merge(extra) { _, new in new }
        sink.run(CommandRequest(rule: rule.name, phase: key, command: command, environment: environment,
                                timeout: rule.timeout, overlap: rule.overlap))
    }

    /// The recognizer's state at `moment` as a stream sample.
    func sample(of recognizer: GestureRecognizer, at moment: GestureMoment, _ readings: GestureReadings) -> GestureSample {
        var sample = GestureSample(
            rule: rule.name, gesture: rule.gesture, phase: moment,
            timestamp: recognizer.environment?.time ?? Timestamp(microseconds: 0),
            fingers: recognizer.numberOfTouches > 0 ? recognizer.numberOfTouches : rule.fingers,
            device: recognizer.touchType, deviceName: recognizer.device.flatMap(deviceName),
            direction: readings.direction,
            location: recognizer.location())
        let distance = rule.progressDistance ?? GestureSample.defaultProgressDistance(rule.gesture)
        func progress(_ gone: Double) -> Double? {
            guard let distance, gone.isFinite else { return nil }
            return min(1, max(0, gone / distance))
        }
        sample.scale = readings.scale
        sample.angle = readings.rotation
        sample.translation = readings.translation
        sample.velocity = readings.velocity
        if let scale = readings.scale {
            sample.progress = progress(abs(scale - 1))
        } else if let degrees = readings.rotation {
            sample.progress = progress(abs(degrees))
        } else if let translation = readings.translation {
            sample.progress = progress(translation.length)
        }
        return sample
    }

    /// The gesture's values as `TOUCHGEST_*` variables.
    private func values(of recognizer: GestureRecognizer, _ readings: GestureReadings, key: RulePhase) -> [String: String] {
        let location = recognizer.location()
        var values = [
            "TOUCHGEST_RULE": rule.name,
            "TOUCHGEST_GESTURE": rule.gesture.rawValue,
            "TOUCHGEST_PHASE": key.rawValue,
            "TOUCHGEST_FINGERS": String(recognizer.numberOfTouches > 0 ? recognizer.numberOfTouches : rule.fingers),
            "TOUCHGEST_DEVICE": recognizer.touchType == .indirect ? "touchpad" : "touchscreen",
            "TOUCHGEST_X": fixedDecimals(location.x, 1),
            "TOUCHGEST_Y": fixedDecimals(location.y, 1),
        ]
        if key == .step { values["TOUCHGEST_STEP"] = String(stepIndex) }
        if let focus { values.merge(focus.environmentValues) { _, new in new } }
        if let direction = readings.direction { values["TOUCHGEST_DIRECTION"] = direction }
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
