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

    /// Why no source tells touchgest which modifier keys are held on this desktop; nil
    /// where one does. None does yet: X11's and GNOME's (through the extension) are the
    /// next to come (issue 36); keyboards are never read.
    public static let modifierSource: String? = "touchgest cannot yet tell which keys are held on any desktop"

    /// ``desktopWarnings(environment:)`` and the errors of rules that want modifiers held
    /// where nothing can tell, or buttons held where none can be (``heldProblems(modifiers:)``).
    /// A touchpad's buttons need no desktop: libinput and the finger reader read them.
    public func desktopProblems() -> [Diagnostic] {
        desktopWarnings() + heldProblems(modifiers: Self.modifierSource)
    }
}
