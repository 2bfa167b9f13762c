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

    /// ``desktopWarnings(environment:)`` and the errors of rules that want modifiers held
    /// where nothing can tell, or buttons held where none can be (``heldProblems(modifiers:)``):
    /// the modifiers come from ``modifierSource(environment:)``; a touchpad's buttons need
    /// no desktop: libinput and the finger reader read them.
    public func desktopProblems(environment: [String: String] = CommandRunner.processEnvironment()) -> [Diagnostic] {
        let modifiers: String? = switch modifierSource(environment: environment) {
        case .success, nil: nil
        case let .failure(why)?: why.description
        }
        return desktopWarnings(environment: environment) + heldProblems(modifiers: modifiers)
    }

    /// What tells these rules the modifier keys held, or why nothing does; nil when no
    /// rule wants any: the desktop's focus provider (``FocusProviders/modifierSource(environment:)``),
    /// or, with `modifier-source = "keyboards"`, the keyboards on every desktop. Chosen
    /// once, at start: `run` logs it and `debug` shows it.
    public func modifierSource(environment: [String: String] = CommandRunner.processEnvironment()) -> Result<String, FocusWireError>? {
        guard !modifierPlaces.isEmpty else { return nil }
        switch settings.modifierSource {
        case .keyboards: return .success("the keyboards (modifier-source = \"keyboards\"): only whether Ctrl, Shift, Alt, Super or Caps Lock is down")
        case .desktop: return FocusProviders.modifierSource(environment: environment)
        }
    }
}
