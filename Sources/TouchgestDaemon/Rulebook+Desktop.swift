import CommandRunner
import InputChannels
import Rulebook

extension Rulebook {
    /// The warnings of this file on the desktop `environment` shows (by default this
    /// process's): each action it lacks, at the value that names it
    /// (``actionWarnings(_:)``). None where the desktop cannot be told.
    public func desktopWarnings(environment: [String: String] = CommandRunner.processEnvironment()) -> [Diagnostic] {
        guard let lacks = InputChannels.lackedActions(environment: environment) else { return [] }
        return actionWarnings(lacks)
    }
}
