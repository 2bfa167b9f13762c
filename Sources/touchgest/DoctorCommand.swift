import ArgumentParser
import Glibc
import Rulebook
import TouchgestSetup
import TouchGestures

struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the set-up and say how to fix what is wrong.",
        discussion: """
            Checks whether you can read the input devices (the 'input' group, or a uaccess \
            udev rule) and what that means, which touch devices touchgest sees, whether the \
            rule file is valid, whether the user service runs, whether your desktop's own \
            gestures would fire together with the ones your rules bind; on GNOME and KDE \
            Plasma on Wayland, whether the extension or KWin script that tells touchgest the \
            focused window is in place, and so whether rules for an application fire; and which \
            signals your desktop gives about a locked screen, a session not in front and sleep \
            (logind's Active, LockedHint, Lock and PrepareForSleep; the screensaver's \
            ActiveChanged) and which it lacks; and which channel takes the keys, text and \
            buttons rules press, and whether it answers; where rules want modifier keys held, what \
            tells them, or what reading them from the keyboards needs and means. Each finding says how to fix it. Exits 1 when \
            something stops touchgest from working.
            """
    )

    @OptionGroup var rules: RulesOptions
    @OptionGroup var input: InputOptions

    func run() throws {
        var doctor = Doctor()
        let book = doctor.checkRules(rules.path)
        let context = doctor.checkDevices(input.backend, statedSizes: input.deviceSizes,
                                          readsModifierKeys: book?.settings.modifierSource == .keyboards)
        doctor.checkAccess(nodes: context.nodes, problems: context.problems)
        if let book { doctor.checkModifiers(book, keyboards: context.keyboards) }
        doctor.checkService()
        if let book { doctor.checkDesktop(book) }
        doctor.checkFocus(book)
        doctor.checkSession()
        doctor.checkInput(book)
        doctor.checkActions(book)
        for finding in doctor.findings {
            emit("\(finding.level.rawValue.padding(5)) \(finding.topic): \(finding.text)")
            if let fix = finding.fix { emit("      fix: \(fix)") }
        }
        if doctor.findings.contains(where: { $0.level == .error }) { throw ExitCode(1) }
    }
}

extension String {
    /// The text, with spaces after it up to `width` characters.
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
