/// A recognizer that is one phase machine, the libinput way (STYLE.md, "State machines"):
/// a `Phase` enum with associated values and one step function, ``advance(_:)``, that
/// switches over every (phase, input) pair with no `default:`. The extension below is the
/// plumbing around that switch, written once for the engine's recognizers: feeding an
/// input with the phase observer told, and failing back to rest.
///
/// Internal, so that no recognizer's phases reach its public API (a public protocol would
/// make them public). A recognizer outside the engine does the same by hand with
/// ``GestureRecognizer/stepPhase(_:_:_:)`` and ``GestureRecognizer/reportImpossible(_:in:)``.
protocol PhaseMachine: GestureRecognizer {
    associatedtype Phase
    associatedtype Input
    /// Where the machine rests: before its first input, after it fails, after a reset.
    static var restingPhase: Phase { get }
    /// The phase now; the recognizer's own business, never its users'.
    var phase: Phase { get set }
    /// The one step function: `switch (phase, input)` with every pair written out.
    func advance(_ input: Input)
}

extension PhaseMachine {
    /// Feeds one input to the machine.
    func step(_ input: Input) { stepPhase({ phase }, input, advance) }

    /// Puts the machine back at rest and fails the recognizer. The environment cancels
    /// its timer, as it does at every terminal state.
    func fail() {
        phase = Self.restingPhase
        transition(to: .failed)
    }
}
