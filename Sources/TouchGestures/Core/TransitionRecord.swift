/// What made a recognizer change state; the last part of a transition-log line.
public enum TransitionCause: Hashable, Sendable, CustomStringConvertible {
    /// Touches in a touchscreen frame, e.g. `down 1`, `move 1,2`, `up 1`.
    case touches(String)
    /// A touchpad gesture event.
    case touchpad(TouchpadEvent)
    /// One of the recognizer's timers, named for what it measures.
    case timer(String)
    /// Another recognizer that it required to fail failed, so a delayed transition is delivered.
    case requirementFailed(String)
    /// Another recognizer it required to fail began or was recognized.
    case requirementSucceeded(String)
    /// Another recognizer began or was recognized and may not share the sequence.
    case excludedBy(String)
    /// The delegate's `gestureRecognizerShouldBegin` said no.
    case delegateRefused
    /// `isEnabled` was turned off, or the recognizer was detached.
    case disabled
    /// All input ended while the recognizer was still deciding with no timer to decide by.
    case sequenceEnded
    /// The environment reset the recognizer after a terminal state.
    case reset

    public var description: String {
        switch self {
        case let .touches(text): text
        case let .touchpad(event): event.description
        case let .timer(name): "timer \(name)"
        case let .requirementFailed(name): "\(name) failed"
        case let .requirementSucceeded(name): "required \(name) to fail"
        case let .excludedBy(name): "excluded by \(name)"
        case .delegateRefused: "delegate refused"
        case .disabled: "disabled"
        case .sequenceEnded: "sequence ended undecided"
        case .reset: "reset"
        }
    }
}

/// One state change of one recognizer: a line of the transition log.
public struct TransitionRecord: Hashable, Sendable, CustomStringConvertible {
    /// The recognizer's label: its name, or its kind and number (`tap#2`).
    public var recognizer: String
    public var from: GestureRecognizerState
    public var to: GestureRecognizerState
    /// Whether the recognizer is discrete, so `ended` reads `recognized`.
    public var isDiscrete: Bool
    public var cause: TransitionCause
    /// The event or timer time that caused it.
    public var timestamp: Timestamp

    /// `tap#2 possible -> recognized (up 1)`: the format `touchgest debug` prints.
    public var description: String {
        "\(recognizer) \(fromName) -> \(toName) (\(cause))"
    }

    /// The old state's name; a discrete recognizer's `ended` reads `recognized`.
    public var fromName: String { name(from) }

    /// The new state's name; a discrete recognizer's `ended` reads `recognized`.
    public var toName: String { name(to) }

    private func name(_ state: GestureRecognizerState) -> String {
        isDiscrete && state == .ended ? "recognized" : state.description
    }
}

/// A programming error in a recognizer or in how recognizers were wired, reported
/// instead of crashing the daemon.
public struct GestureDiagnostic: Hashable, Sendable, CustomStringConvertible {
    public var message: String

    public var description: String { "bug: \(message)" }
}

/// Errors the engine reports when recognizers are set up.
public enum GestureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `require(toFail:)` would make recognizers wait for each other forever; the
    /// labels list the cycle, first and last equal.
    case failureRequirementCycle([String])

    public var description: String {
        switch self {
        case let .failureRequirementCycle(labels):
            "failure requirements form a cycle: \(labels.joined(separator: " -> "))"
        }
    }
}
