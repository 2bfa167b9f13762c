import InputActions
import TouchGestures

/// Turns one rule's recognizer transitions into command requests: `command` when a
/// discrete gesture is recognized or a continuous one begins, then on-begin, on-step
/// every `step`, on-end and on-cancel.
final class RuleTrigger {
    let rule: Rule
    // Read at every update of the rule's gesture, on one thread, with no access
    // overlapping another: no dynamic exclusivity checks.
    @exclusivity(unchecked) private weak var sink: CommandSink?
    private let focus: FocusContext?
    /// Steps taken so far, signed (pinch, rotation), and where the last pan step was.
    @exclusivity(unchecked) private var stepIndex = 0
    @exclusivity(unchecked) private var stepAnchor = Point.zero

    /// Most on-step commands one update of a gesture may start: a device that jumps
    /// (libinput's scale going from 1 to 1e9 in one event) must not start millions of
    /// commands or hold the loop; 100 is more steps than any real motion crosses in
    /// one ~10 ms frame.
    static let maximumStepsPerUpdate = 100

    /// Whether the rule acts at each `step` (it has one, and an on-step command or keys),
    /// asked at every update of its gesture: worked out once here.
    private let actsOnSteps: Bool

    /// The desktop animation the rule moves (`follow`), and the millimetres that are one
    /// whole of it (its progress distance).
    private let followed: AnimationStep.Animation?
    private let followDistance: Double

    /// libinput's name of a device, for the snapshots.
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
        followed = rule.follow.map { target in
            switch target {
            case .workspaces: .workspaces
            case .overview: .overview
            }
        }
        followDistance = rule.progressDistance ?? GestureSample.defaultProgressDistance(rule.gesture) ?? 1
        recognizer.addAction { [weak self] recognizer in self?.transitioned(recognizer) }
    }

    private func transitioned(_ recognizer: GestureRecognizer) {
        guard let moment = GestureMoment(recognizer.state, continuous: rule.gesture.isContinuous) else { return }
        let streamed = sink?.wantsSamples(of: rule.name) ?? false
        // Most updates of a gesture (changed) concern only a stream or on-step: a rule with
        // neither reads nothing, at every frame of a swipe or pinch.
        if moment == .changed && !streamed && !actsOnSteps && followed == nil { return }
        let readings = readable?.readings ?? GestureReadings()
        // Made only when something reads it: an update of a pinch with steps usually
        // crosses no step, and naming its device costs more than the step's arithmetic.
        var made: GestureSnapshot?
        func snapshot() -> GestureSnapshot {
            if let made { return made }
            let snapshot = GestureSnapshot(rule: rule, recognizer: recognizer, moment: moment, readings: readings,
                                           deviceName: recognizer.device.flatMap(deviceName))
            made = snapshot
            return snapshot
        }
        if streamed, let sink {
            sink.stream(GestureSample(snapshot(), progressDistance: rule.progressDistance))
        }
        if let followed, let sink { follow(followed, moment, readings, recognizer, sink) }
        switch moment {
        case .began:
            stepIndex = 0
            stepAnchor = readings.translation ?? .zero
        case .changed:
            steps(readings, snapshot)
            return
        case .recognized, .step, .ended, .cancelled:
            break
        }
        for key in moment.commandKeys { emit(key, snapshot()) }
    }

    /// Hands the desktop where its animation is: the fingers' way along it, left (the
    /// next workspace, the content following the fingers) or up (the overview), in whole
    /// animations of ``followDistance`` millimetres.
    private func follow(_ animation: AnimationStep.Animation, _ moment: GestureMoment, _ readings: GestureReadings,
                        _ recognizer: GestureRecognizer, _ sink: CommandSink) {
        let phase: AnimationStep.Phase
        switch moment {
        case .began: phase = .begin
        case .changed: phase = .update
        case .ended: phase = .end
        case .cancelled: phase = .cancel
        case .recognized, .step: return
        }
        let translation = readings.translation ?? .zero
        let along = animation == .workspaces ? -translation.x : -translation.y
        let progress = along.isFinite ? along / followDistance : 0
        let microseconds = recognizer.environment?.time.microseconds ?? 0
        sink.follow(FollowRequest(rule: rule.name, step: AnimationStep(
            animation: animation, phase: phase, progress: progress,
            milliseconds: UInt32(truncatingIfNeeded: microseconds / 1000))))
    }

    /// Runs `on-step` once per `step` crossed: of scale (pinch), degrees (rotation) or
    /// millimetres moved since the last step (pan, edge pan).
    private func steps(_ readings: GestureReadings, _ snapshot: () -> GestureSnapshot) {
        guard actsOnSteps, let step = rule.step else { return }
        if let scale = readings.scale {
            catchUp(to: (scale - 1) / step, snapshot, positive: .out, negative: .in)
        } else if let degrees = readings.rotation {
            catchUp(to: degrees / step, snapshot, positive: .clockwise, negative: .counterclockwise)
        } else if let translation = readings.translation {
            let moved = translation - stepAnchor
            guard moved.length.isFinite, moved.length >= step,
                  let direction = GestureDirection(SwipeDirection.of(moved, diagonals: false)) else { return }
            stepAnchor = translation
            stepIndex += 1
            emit(.step, snapshot().stepped(stepIndex, direction: direction))
        }
    }

    /// Emits one step per boundary crossed since the last, so a fast pinch loses none,
    /// but at most ``maximumStepsPerUpdate``; a value that is not finite is no step.
    private func catchUp(to steps: Double, _ snapshot: () -> GestureSnapshot, positive: GestureDirection, negative: GestureDirection) {
        guard steps.isFinite else { return }
        // Bounded in Double first, so no value can overflow the conversion to Int.
        let limit = Double(Self.maximumStepsPerUpdate)
        let target = stepIndex + Int(max(-limit, min(limit, steps.rounded(.towardZero) - Double(stepIndex))))
        while stepIndex != target {
            let forward = target > stepIndex
            stepIndex += forward ? 1 : -1
            emit(.step, snapshot().stepped(stepIndex, direction: forward ? positive : negative))
        }
    }

    /// Presses `key`'s input action and runs its command, with `snapshot`'s values.
    private func emit(_ key: CommandKey, _ snapshot: GestureSnapshot) {
        guard let sink else { return }
        let stepInput = key == .step ? snapshot.direction.flatMap { rule.stepInputs[$0.rawValue] } : nil
        if let action = rule.inputs[key] ?? stepInput {
            sink.press(InputRequest(rule: rule.name, phase: key, action: action))
        }
        guard let command = rule.commands[key] else { return }
        var environment = snapshot.environment(for: key)
        if let focus { environment.merge(focus.environmentValues) { _, new in new } }
        sink.run(CommandRequest(rule: rule.name, phase: key, command: command, environment: environment,
                                timeout: rule.timeout, overlap: rule.overlap, snapshot: snapshot))
    }
}
