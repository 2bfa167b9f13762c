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

    /// libinput's name of a device, for the samples.
    private let deviceName: (DeviceID) -> String?

    init(rule: Rule, recognizer: GestureRecognizer, sink: CommandSink, focus: FocusContext? = nil,
         deviceName: @escaping (DeviceID) -> String? = { _ in nil }) {
        self.rule = rule
        self.sink = sink
        self.focus = focus
        self.deviceName = deviceName
        recognizer.addAction { [weak self] recognizer in self?.transitioned(recognizer) }
    }

    private func transitioned(_ recognizer: GestureRecognizer) {
        if let sink, sink.wantsSamples(of: rule.name), let sample = sample(of: recognizer) {
            sink.stream(sample)
        }
        switch recognizer.state {
        case .began:
            stepIndex = 0
            stepAnchor = (recognizer as? PanGestureRecognizer)?.translation() ?? .zero
            emit(.recognized, recognizer)
            emit(.begin, recognizer)
        case .changed:
            steps(recognizer)
        case .ended:
            emit(rule.gesture.isContinuous ? .end : .recognized, recognizer)
        case .cancelled:
            emit(.cancel, recognizer)
        case .possible, .failed:
            break
        }
    }

    private func steps(_ recognizer: GestureRecognizer) {
        guard let step = rule.step, step > 0, rule.commands[.step] != nil else { return }
        switch recognizer {
        case let pinch as PinchGestureRecognizer:
            catchUp(to: (pinch.scale - 1) / step, recognizer, positive: "out", negative: "in")
        case let rotation as RotationGestureRecognizer:
            let degrees = rotation.rotation * 180 / .pi
            catchUp(to: degrees / step, recognizer, positive: "clockwise", negative: "counterclockwise")
        case let pan as PanGestureRecognizer:
            let moved = pan.translation() - stepAnchor
            guard moved.length.isFinite, moved.length >= step else { return }
            stepAnchor = pan.translation()
            stepIndex += 1
            let direction = SwipeDirection.of(moved, diagonals: false).description
            emit(.step, recognizer, extra: ["TOUCHGEST_DIRECTION": direction])
        default:
            break
        }
    }

    /// Emits one step per boundary crossed since the last, so a fast pinch loses none,
    /// but at most ``maximumStepsPerUpdate``; a value that is not finite is no step.
    private func catchUp(to steps: Double, _ recognizer: GestureRecognizer, positive: String, negative: String) {
        guard steps.isFinite else { return }
        // Bounded in Double first, so no value can overflow the conversion to Int.
        let limit = Double(Self.maximumStepsPerUpdate)
        let target = stepIndex + Int(max(-limit, min(limit, steps.rounded(.towardZero) - Double(stepIndex))))
        while stepIndex != target {
            let forward = target > stepIndex
            stepIndex += forward ? 1 : -1
            emit(.step, recognizer, extra: ["TOUCHGEST_DIRECTION": forward ? positive : negative])
        }
    }

    private func emit(_ phase: RulePhase, _ recognizer: GestureRecognizer, extra: [String: String] = [:]) {
        guard let command = rule.commands[phase], let sink else { return }
        var environment = values(of: recognizer, phase: phase)
        environment.merge(extra) { _, new in new }
        sink.run(CommandRequest(rule: rule.name, phase: phase, command: command, environment: environment,
                                timeout: rule.timeout, overlap: rule.overlap))
    }

    /// Which way a continuous gesture has gone overall, so `on-end` can tell a pinch in
    /// from a pinch out: the same words its steps use.
    static func netDirection(of recognizer: GestureRecognizer) -> String? {
        switch recognizer {
        case let pinch as PinchGestureRecognizer:
            pinch.scale == 1 ? nil : pinch.scale > 1 ? "out" : "in"
        case let rotation as RotationGestureRecognizer:
            rotation.rotation == 0 ? nil : rotation.rotation > 0 ? "clockwise" : "counterclockwise"
        case let pan as PanGestureRecognizer:
            pan.translation() == .zero ? nil : SwipeDirection.of(pan.translation(), diagonals: false).description
        default:
            nil
        }
    }

    /// The recognizer's state as a stream sample; nil for states no line reports.
    func sample(of recognizer: GestureRecognizer) -> GestureSample? {
        let phase: GestureSample.Phase
        switch recognizer.state {
        case .began: phase = .began
        case .changed: phase = .changed
        case .ended: phase = rule.gesture.isContinuous ? .ended : .recognized
        case .cancelled: phase = .cancelled
        case .possible, .failed: return nil
        }
        var sample = GestureSample(
            rule: rule.name, gesture: rule.gesture, phase: phase,
            timestamp: recognizer.environment?.time ?? Timestamp(microseconds: 0),
            fingers: recognizer.numberOfTouches > 0 ? recognizer.numberOfTouches : rule.fingers,
            device: recognizer.touchType, deviceName: recognizer.device.flatMap(deviceName),
            direction: rule.gesture.isContinuous ? Self.netDirection(of: recognizer) : nil,
            location: recognizer.location())
        let distance = rule.progressDistance ?? GestureSample.defaultProgressDistance(rule.gesture)
        func progress(_ gone: Double) -> Double? {
            guard let distance, gone.isFinite else { return nil }
            return min(1, max(0, gone / distance))
        }
        switch recognizer {
        case let swipe as SwipeGestureRecognizer:
            sample.direction = swipe.recognizedDirection?.description
        case let pinch as PinchGestureRecognizer:
            sample.scale = pinch.scale
            sample.progress = progress(abs(pinch.scale - 1))
        case let rotation as RotationGestureRecognizer:
            sample.angle = rotation.rotation * 180 / .pi
            sample.progress = progress(abs(rotation.rotation * 180 / .pi))
        case let pan as PanGestureRecognizer:
            let translation = pan.translation()
            sample.translation = translation
            sample.velocity = pan.velocity()
            sample.progress = progress(translation.length)
        default:
            break
        }
        return sample
    }

    /// The gesture's values as `TOUCHGEST_*` variables.
    private func values(of recognizer: GestureRecognizer, phase: RulePhase) -> [String: String] {
        let location = recognizer.location()
        var values = [
            "TOUCHGEST_RULE": rule.name,
            "TOUCHGEST_GESTURE": rule.gesture.rawValue,
            "TOUCHGEST_PHASE": phase.rawValue,
            "TOUCHGEST_FINGERS": String(recognizer.numberOfTouches > 0 ? recognizer.numberOfTouches : rule.fingers),
            "TOUCHGEST_DEVICE": recognizer.touchType == .indirect ? "touchpad" : "touchscreen",
            "TOUCHGEST_X": fixedDecimals(location.x, 1),
            "TOUCHGEST_Y": fixedDecimals(location.y, 1),
        ]
        if phase == .step { values["TOUCHGEST_STEP"] = String(stepIndex) }
        if let focus { values.merge(focus.environmentValues) { _, new in new } }
        if rule.gesture.isContinuous, let direction = Self.netDirection(of: recognizer) {
            values["TOUCHGEST_DIRECTION"] = direction
        }
        switch recognizer {
        case let swipe as SwipeGestureRecognizer:
            values["TOUCHGEST_DIRECTION"] = swipe.recognizedDirection?.description
        case let pinch as PinchGestureRecognizer:
            values["TOUCHGEST_SCALE"] = fixedDecimals(pinch.scale, 3)
            values["TOUCHGEST_VELOCITY"] = fixedDecimals(pinch.velocity, 3)
        case let rotation as RotationGestureRecognizer:
            values["TOUCHGEST_ROTATION"] = fixedDecimals(rotation.rotation * 180 / .pi, 1)
            values["TOUCHGEST_VELOCITY"] = fixedDecimals(rotation.velocity * 180 / .pi, 1)
        case let pan as PanGestureRecognizer:
            let translation = pan.translation()
            values["TOUCHGEST_DX"] = fixedDecimals(translation.x, 1)
            values["TOUCHGEST_DY"] = fixedDecimals(translation.y, 1)
            values["TOUCHGEST_VELOCITY"] = fixedDecimals(pan.velocity().length, 1)
            if let edge = (pan as? ScreenEdgePanGestureRecognizer)?.startEdge { values["TOUCHGEST_EDGE"] = edge.description }
        default:
            break
        }
        return values
    }
}
