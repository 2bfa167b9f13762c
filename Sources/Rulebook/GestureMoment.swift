import InputActions
import TouchGestures

/// A moment of a rule's gesture: what a stream line, a decision in `touchgest debug` and
/// a command's `TOUCHGEST_PHASE` are about. Discrete gestures (tap, swipe) have only
/// `recognized`; continuous ones `began`, `changed` (and a `step` each time a rule's
/// `step` is crossed), then `ended` or `cancelled`.
public enum GestureMoment: String, Sendable, CaseIterable {
    case recognized, began, changed, step, ended, cancelled

    /// The moment a recognizer reaches in `state`, for a continuous gesture or not; nil
    /// for states no rule acts on (possible, failed). A discrete recognizer's `ended`
    /// is its `recognized`, as in UIKit.
    public init?(_ state: GestureRecognizerState, continuous: Bool) {
        switch state {
        case .began: self = .began
        case .changed: self = .changed
        case .ended: self = continuous ? .ended : .recognized
        case .cancelled: self = .cancelled
        case .possible, .failed: return nil
        }
    }

    /// Whether a slow reader may miss it: only `changed`, which the next one replaces.
    public var isCoalescible: Bool { self == .changed }

    /// The rule's command keys that run at this moment, in the order they run: a
    /// continuous gesture's beginning runs `command`, then `on-begin`.
    public var commandKeys: [CommandKey] {
        switch self {
        case .recognized: [.recognized]
        case .began: [.recognized, .begin]
        case .changed: []
        case .step: [.step]
        case .ended: [.end]
        case .cancelled: [.cancel]
        }
    }
}

extension Rule {
    /// The command the rule runs first at `moment`, if any.
    public func command(at moment: GestureMoment) -> String? {
        moment.commandKeys.lazy.compactMap { commands[$0] }.first
    }

    /// Whether the rule presses keys, types text, clicks or runs a shortcut at some
    /// moment or step: what needs an input channel.
    public var pressesInput: Bool { !inputs.isEmpty || !stepInputs.isEmpty }

    /// Whether something happens at each step: a command or an action, for any direction.
    public var actsOnSteps: Bool { commands[.step] != nil || inputs[.step] != nil || !stepInputs.isEmpty }

    /// The step directions of this rule's gesture, as on-step actions name them.
    public var stepDirections: [String] {
        switch gesture {
        case .pinch: ["in", "out"]
        case .rotation: ["clockwise", "counterclockwise"]
        case .pan, .edgePan: ["left", "right", "up", "down"]
        case .tap, .longPress, .swipe, .stroke: []
        }
    }

    /// The keys, text or button the rule presses first at `moment`, if any.
    public func input(at moment: GestureMoment) -> InputAction? {
        moment.commandKeys.lazy.compactMap { inputs[$0] }.first
    }
}
