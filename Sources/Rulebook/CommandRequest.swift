import InputActions
/// A command a rule asks to run, with the gesture's values as environment variables. Rules
/// make them (``RuleTrigger``): the memberwise initializer is the module's own.
public struct CommandRequest: Sendable, Equatable, CustomStringConvertible {
    public var rule: String
    /// The command key that runs it.
    public var phase: CommandKey
    /// The shell command, exactly as written in the rule file.
    public var command: String
    /// `TOUCHGEST_*` variables; gesture values never go into the command text.
    public var environment: [String: String]
    public var timeout: Duration?
    public var overlap: OverlapPolicy
    /// The gesture at the moment the command runs, which ``environment`` renders; nil for
    /// a request made without one (tests).
    public var snapshot: GestureSnapshot?

    public var description: String { "\(rule) \(phase.rawValue): \(command)" }
}

/// Keys, text or a button a rule presses at one phase of its gesture.
public struct InputRequest: Sendable, Equatable, CustomStringConvertible {
    public var rule: String
    public var phase: CommandKey
    public var action: InputAction

    public var description: String { "\(rule) \(phase.rawValue): \(action)" }
}

/// Whatever runs the commands: the command runner in the daemon, a recorder in tests
/// and in `touchgest debug`.
public protocol CommandSink: AnyObject {
    func run(_ request: CommandRequest)
    /// Presses what a rule's input action says (the daemon: through the desktop's channel).
    func press(_ request: InputRequest)
    /// Whether ``stream(_:)`` would send `rule`'s samples anywhere: a rule's `stream`
    /// command, or a subscriber of `touchgest events`. When false no sample is made.
    func wantsSamples(of rule: String) -> Bool
    /// One phase of a rule's gesture, for its stream and the subscribers.
    func stream(_ sample: GestureSample)
    /// Moves the desktop's own animation as a rule's gesture goes (its `follow`).
    func follow(_ request: FollowRequest)
}

extension CommandSink {
    /// Sinks that only run commands press nothing.
    public func press(_ request: InputRequest) {}
    /// Sinks that only run commands want no samples.
    public func wantsSamples(of rule: String) -> Bool { false }
    public func stream(_ sample: GestureSample) {}
    /// Sinks that only run commands move no animation.
    public func follow(_ request: FollowRequest) {}
}

/// A rule's gesture moving the desktop's own animation (`follow`): one step of it.
public struct FollowRequest: Sendable, Equatable, CustomStringConvertible {
    public var rule: String
    public var step: AnimationStep

    public init(rule: String, step: AnimationStep) {
        self.rule = rule
        self.step = step
    }

    /// `NAME follows: workspaces update 0.420`.
    public var description: String { "\(rule) follows: \(step)" }
}
