/// Where a rule's `buttons` can be met, by where its gesture comes from.
///
/// - A touchpad's fingers (`source = "contacts"`): the finger reader follows fingers that
///   land while the pad is held down, with the pad's buttons (see `ContactDevice`).
/// - libinput's swipes, pinches and holds: libinput makes them while a clickpad is held
///   down by a thumb resting in the pad's bottom edge (its thumb zone), and on pads with
///   separate buttons; not while another finger holds a clickpad (HeldButtonTests).
/// - libinput's taps: none while a clickpad is held down, however it is held.
/// - Touchscreens: no buttons at all.
extension Rule {
    /// Why the rule's `buttons` can never, or only on some pads, be met; nil where it can
    /// (and where it asks for none held).
    var buttonsProblem: (severity: Diagnostic.Severity, text: String)? {
        guard let buttons = held.buttons, !buttons.isEmpty else { return nil }
        let wants = "rule '\(name)' wants buttons held, but"
        switch touchpadInput {
        case .contacts?:
            return nil
        case nil where device == .touchscreen:
            return (.error, "\(wants) touchscreens have no buttons: it would never fire; remove buttons")
        case nil:
            return (.error, "\(wants) it takes \(gesture.rawValue)s from touchscreens only, which have no buttons: "
                + "it would never fire; remove buttons, or read a touchpad's fingers with source = \"contacts\"")
        case .gestures? where gesture == .tap, .automatic?:
            let others = touchpadInput == .automatic ? " and on semi-MT ones" : ""
            return (.warning, "\(wants) its taps come from libinput, which makes none while a clickpad is held down: it fires only on "
                + "touchpads with separate buttons\(others); read the fingers instead with source = \"contacts\"")
        case .gestures?:
            return nil
        }
    }
}
