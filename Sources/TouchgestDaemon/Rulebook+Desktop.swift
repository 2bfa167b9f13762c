import CommandRunner
import FocusProviders
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


    /// Why no gesture can begin with a touchpad's button held: libinput makes no gesture
    /// while a clickpad is pressed down (HeldButtonTests), and touchgest's finger reader
    /// takes a press as a click and follows no finger until it is let go.
    public static let buttonSource: String? = "no touchpad gesture begins while its button is held (libinput makes none, and touchgest's finger reader takes the press as a click)"

    /// ``desktopWarnings(environment:)`` and the errors of rules that want modifiers or
    /// buttons held where nothing can tell (``heldProblems(modifiers:buttons:)``): the
    /// desktop's modifiers come from its focus provider
    /// (``FocusProviders/modifierSource(environment:)``), or, with `modifier-source =
    /// "keyboards"`, from the keyboards on every desktop.
    public func desktopProblems(environment: [String: String] = CommandRunner.processEnvironment()) -> [Diagnostic] {
        let modifiers: String? = switch (settings.modifierSource, FocusProviders.modifierSource(environment: environment)) {
        case (.keyboards, _), (.desktop, .success): nil
        case let (.desktop, .failure(why)): why.description
        }
        return desktopWarnings(environment: environment) + heldProblems(modifiers: modifiers, buttons: Self.buttonSource)
    }
}
