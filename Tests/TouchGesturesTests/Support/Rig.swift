import TouchGestures

/// One step of a scripted touch stream. Times are milliseconds; positions millimetres.
/// Consecutive touch steps with the same time form one frame.
enum Step {
    case down(Int, at: (Double, Double), t: UInt64)
    case move(Int, to: (Double, Double), t: UInt64)
    case up(Int, t: UInt64)
    case cancel(Int, t: UInt64)
    case pad(TouchpadGesture, t: UInt64)
    /// Advance the clock to `t`, firing timers due by then.
    case wait(t: UInt64)

    var time: UInt64 {
        switch self {
        case let .down(_, _, t), let .move(_, _, t), let .up(_, t), let .cancel(_, t), let .pad(_, t), let .wait(t): t
        }
    }
}

/// An environment, a manual scheduler and one transcript that transitions, actions
/// and the driver all append to.
final class Rig {
    let scheduler = ManualScheduler()
    let environment: GestureEnvironment
    var log: [String] = []
    var diagnostics: [String] = []
    var showResets = false
    var showCauses = false
    var surface = Size(width: 300, height: 200)
    var touchType = TouchType.direct
    /// The modifier keys and buttons every event the rig sends carries from now on.
    var modifierFlags: KeyModifierFlags = []
    var buttonMask: EventButtonMask = []
    private var live: [Int: Touch] = [:]

    init() {
        environment = GestureEnvironment(scheduler: scheduler)
        environment.transitionObserver = { [unowned self] record in
            if record.cause == .reset && !showResets { return }
            let line = showCauses ? record.description : "\(record.recognizer) \(Self.stateName(record.from, record)) -> \(Self.stateName(record.to, record))"
            log.append("\(record.timestamp.microseconds / 1000) \(line)")
        }
        environment.diagnosticHandler = { [unowned self] in diagnostics.append($0.description) }
    }

    private static func stateName(_ state: GestureRecognizerState, _ record: TransitionRecord) -> String {
        record.isDiscrete && state == .ended ? "recognized" : state.description
    }

    /// Attaches a recognizer whose every action appends `action NAME STATE` to the log.
    @discardableResult
    func add<R: GestureRecognizer>(_ recognizer: R, _ name: String) -> R {
        recognizer.name = name
        recognizer.addAction { [unowned self] r in
            log.append("\(scheduler.now.microseconds / 1000) action \(r.label) \(Self.actionState(r))")
        }
        environment.attach(recognizer)
        return recognizer
    }

    private static func actionState(_ r: GestureRecognizer) -> String {
        !r.isContinuous && r.state == .ended ? "recognized" : r.state.description
    }

    func run(_ steps: [Step]) {
        var index = 0
        while index < steps.count {
            let step = steps[index]
            switch step {
            case .down, .move, .up, .cancel:
                var frame: [Step] = [step]
                while index + 1 < steps.count, steps[index + 1].time == step.time, steps[index + 1].isTouch {
                    index += 1
                    frame.append(steps[index])
                }
                send(frame, at: step.time)
            case let .pad(gesture, t):
                var event = TouchpadEvent(gesture, timestamp: .milliseconds(t))
                event.modifierFlags = modifierFlags
                event.buttonMask = buttonMask
                environment.handle(event)
                scheduler.advance(to: .milliseconds(t))
            case let .wait(t):
                scheduler.advance(to: .milliseconds(t))
            }
            index += 1
        }
    }

    /// Fires every pending timer.
    func settle() {
        scheduler.runUntilIdle()
    }

    private func send(_ frame: [Step], at t: UInt64) {
        let time = Timestamp.milliseconds(t)
        var changed: [Touch] = []
        for step in frame {
            switch step {
            case let .down(id, at, _):
                let touch = Touch(id: id, phase: .began, location: Point(x: at.0, y: at.1), timestamp: time,
                                  type: touchType, surfaceSize: surface)
                live[id] = touch
                changed.append(touch)
            case let .move(id, to, _):
                guard var touch = live[id] else { continue }
                touch.previousLocation = touch.location
                touch.location = Point(x: to.0, y: to.1)
                touch.normalizedLocation = Point(x: to.0 / surface.width, y: to.1 / surface.height)
                touch.phase = .moved
                touch.timestamp = time
                live[id] = touch
                changed.append(touch)
            case let .up(id, _), let .cancel(id, _):
                guard var touch = live[id] else { continue }
                touch.previousLocation = touch.location
                touch.phase = if case .up = step { .ended } else { .cancelled }
                touch.timestamp = time
                live[id] = nil
                changed.append(touch)
            case .pad, .wait:
                break
            }
        }
        var all = Array(live.values).sorted { $0.id < $1.id }
        all.append(contentsOf: changed.filter { $0.phase.isTerminal })
        var event = TouchEvent(timestamp: time, allTouches: all, changedTouches: changed)
        event.modifierFlags = modifierFlags
        event.buttonMask = buttonMask
        environment.handle(event)
        scheduler.advance(to: time)
    }
}

extension Step {
    /// The same step `milliseconds` later.
    func later(by milliseconds: UInt64) -> Step {
        switch self {
        case let .down(id, at, t): .down(id, at: at, t: t + milliseconds)
        case let .move(id, to, t): .move(id, to: to, t: t + milliseconds)
        case let .up(id, t): .up(id, t: t + milliseconds)
        case let .cancel(id, t): .cancel(id, t: t + milliseconds)
        case let .pad(gesture, t): .pad(gesture, t: t + milliseconds)
        case let .wait(t): .wait(t: t + milliseconds)
        }
    }

    var isTouch: Bool {
        switch self {
        case .down, .move, .up, .cancel: true
        case .pad, .wait: false
        }
    }
}

/// A tap of `fingers` fingers at `x`, `y`, down at `t` and up `duration` ms later.
func tap(_ ids: [Int], at point: (Double, Double), t: UInt64, duration: UInt64 = 50) -> [Step] {
    ids.enumerated().map { Step.down($1, at: (point.0 + Double($0) * 15, point.1), t: t) }
        + ids.map { Step.up($0, t: t + duration) }
}

/// Fingers `ids` moving together from `from` by `by` in `frames` equal steps over `duration` ms.
func drag(_ ids: [Int], from: (Double, Double), by: (Double, Double), t: UInt64, duration: UInt64, frames: Int = 10, lift: Bool = true) -> [Step] {
    var steps: [Step] = ids.enumerated().map { Step.down($1, at: (from.0 + Double($0) * 15, from.1), t: t) }
    for frame in 1...frames {
        let f = Double(frame) / Double(frames)
        let time = t + UInt64(Double(duration) * f)
        for (i, id) in ids.enumerated() {
            steps.append(.move(id, to: (from.0 + Double(i) * 15 + by.0 * f, from.1 + by.1 * f), t: time))
        }
    }
    if lift { steps += ids.map { Step.up($0, t: t + duration) } }
    return steps
}
