/// One move of a recognizer's private phase machine: `old -> input -> new`, as libinput
/// logs its tap machine. The public state (``TransitionRecord``) often does not change
/// when the phase does: these lines say why a tap still waits, or what a pan is doing
/// before it begins.
public struct PhaseMove: Hashable, Sendable, CustomStringConvertible {
    /// The recognizer's label, e.g. `tap#2` or the rule's name.
    public var recognizer: String
    /// The phase's case name before, e.g. `touching`.
    public var from: String
    /// The input's case name, e.g. `down`, `timeout`, `touchpadBegin`.
    public var input: String
    /// The phase's case name after, e.g. `awaitingNextTap`.
    public var to: String
    /// When it happened, on the input's clock.
    public var timestamp: Timestamp

    /// `tap#2 phase touching -> up -> awaitingNextTap`.
    public var description: String { "\(recognizer) phase \(from) -> \(input) -> \(to)" }

    /// The case name of an enum value: its description up to the associated values.
    static func caseName(_ value: Any) -> String {
        String(String(describing: value).prefix { $0 != "(" })
    }
}

extension GestureRecognizer {
    /// Runs one step of a recognizer's phase machine, telling the environment's
    /// ``GestureEnvironment/phaseObserver`` the move when it has one and the phase
    /// changed (a swipe tracking through every update would bury the moves that
    /// matter). Nothing is described, and nothing costs, when no one watches.
    public final func stepPhase<Phase, Input>(_ phase: () -> Phase, _ input: Input, _ advance: (Input) -> Void) {
        guard let environment, let observer = environment.phaseObserver else { return advance(input) }
        let before = PhaseMove.caseName(phase())
        let name = PhaseMove.caseName(input)
        advance(input)
        let after = PhaseMove.caseName(phase())
        guard after != before else { return }
        observer(PhaseMove(recognizer: label, from: before, input: name, to: after,
                           timestamp: environment.time))
    }

    /// Reports to the environment's diagnostics, as a bug naming both, that a phase
    /// machine met `input` in a `phase` that cannot take it:
    /// `tap#2: up(remaining: 0, ...) while idle cannot happen`. The recognizer carries on.
    public final func reportImpossible<Phase, Input>(_ input: Input, in phase: Phase) {
        environment?.report("\(label): \(input) while \(phase) cannot happen")
    }
}
