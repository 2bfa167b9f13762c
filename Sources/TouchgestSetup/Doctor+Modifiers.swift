import FocusProviders
import Rulebook

/// What `touchgest doctor` says of the modifier keys rules want held (`modifiers`): what
/// tells touchgest which are held here, or what the opt-in that reads them from the
/// keyboards (`modifier-source = "keyboards"`) needs and what it means.
extension Doctor {
    /// The opt-in's cost, said wherever it is offered or in force.
    static let keyboardAccess = "reading keyboards takes the 'input' group, and with it any program you run can read every keystroke"
    /// What touchgest itself keeps of the keyboards it reads.
    static let keptOfKeyboards = "touchgest reads only whether Ctrl, Shift, Alt, Super or Caps Lock is down and drops every other key at once "
        + "(none is kept, logged, recorded, streamed or shown)"

    /// `keyboards`: the keyboards libinput opened for their modifier keys.
    public mutating func checkModifiers(_ book: Rulebook, keyboards: [String]) {
        let users = book.rules.filter { $0.held.modifiers != nil }.map(\.name)
        let wanting = "rules that want modifier keys held: \(users.joined(separator: ", "))"
        let usermod = "sudo usermod -aG input \"$USER\", then log out and in again"
        switch book.settings.modifierSource {
        case .keyboards where users.isEmpty:
            add(.warn, "modifiers", "modifier-source = \"keyboards\" opens every keyboard, but no rule wants modifier keys held",
                fix: "remove modifier-source from [settings]")
        case .keyboards where keyboards.isEmpty:
            add(.error, "modifiers", "modifier-source = \"keyboards\", but touchgest can read no keyboard, so \(wanting) never fire",
                fix: "\(usermod) (\(Self.keyboardAccess)); or remove modifier-source and those rules")
        case .keyboards:
            add(.ok, "modifiers", "read from \(keyboards.count) keyboard\(keyboards.count == 1 ? "" : "s") (\(keyboards.joined(separator: ", "))) "
                + "for \(wanting): \(Self.keptOfKeyboards)")
            add(.note, "modifiers", "\(Self.keyboardAccess); the desktop's own source is narrower where it has one (X11, GNOME)")
        case .desktop where users.isEmpty:
            break
        case .desktop:
            switch FocusProviders.modifierSource(environment: environment) {
            case let .success(source):
                add(.ok, "modifiers", "\(source) tells which modifier keys are held, for \(wanting)")
            case let .failure(why):
                add(.error, "modifiers", "\(why), so \(wanting) never fire",
                    fix: "read them from the keyboards: modifier-source = \"keyboards\" in [settings]. That needs the 'input' group "
                        + "(\(usermod)), and with it any program you run can read every keystroke; \(Self.keptOfKeyboards)")
            }
        }
    }
}
