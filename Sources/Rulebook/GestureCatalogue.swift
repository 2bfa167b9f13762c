/// Every gesture touchgest can tell apart, as one rule each: what `touchgest debug`
/// recognizes when there is no rule file yet, so a user sees each gesture's name
/// (`swipe left, 3 fingers`) and the rule that binds it.
///
/// Touchpads: taps and double taps, long-press, swipes in four directions, pinch,
/// rotation. Touchscreens: taps and double taps, long-press, swipes in eight directions,
/// pinch, rotation, edge pans. The finger counts of each are ``FingerLimit``'s
/// `catalogued`. The rules run nothing: their commands are `true`, and `debug` never
/// runs them.
public enum GestureCatalogue {
    /// The file name diagnostics would name.
    public static let file = "(built-in gesture catalogue)"

    /// The catalogue as rule-file text.
    public static var text: String {
        var rules: [String] = []
        func rule(_ name: String, _ keys: String) {
            rules.append("[rule.\(name)]\n\(keys)\ncommand = \"true\"\n")
        }
        func continuous(_ name: String, _ keys: String) {
            rules.append("[rule.\(name)]\n\(keys)\non-begin = \"true\"\non-end = \"true\"\n")
        }
        let devices: [(name: String, input: FingerLimit.Input)] = [("touchpad", .libinput), ("touchscreen", .touchscreen)]
        for (device, input) in devices {
            for count in FingerLimit.catalogued(.tap, on: input) {
                for taps in 1...2 {
                    rule("\(device)-tap-\(taps)x\(count)", "gesture = \"tap\"\ndevice = \"\(device)\"\nfingers = \(count)\ntaps = \(taps)")
                }
            }
        }
        for (device, input) in devices {
            for count in FingerLimit.catalogued(.longPress, on: input) {
                continuous("\(device)-long-press-\(count)", "gesture = \"long-press\"\ndevice = \"\(device)\"\nfingers = \(count)")
            }
        }
        for count in FingerLimit.catalogued(.swipe, on: .libinput) {
            rule("touchpad-swipe-\(count)", "gesture = \"swipe\"\ndevice = \"touchpad\"\nfingers = \(count)\ndirection = [\"up\", \"down\", \"left\", \"right\"]")
        }
        for count in FingerLimit.catalogued(.swipe, on: .touchscreen) {
            rule("touchscreen-swipe-\(count)", "gesture = \"swipe\"\ndevice = \"touchscreen\"\nfingers = \(count)\ndirection = \"any\"")
        }
        for (device, input) in devices {
            for count in FingerLimit.catalogued(.pinch, on: input) {
                continuous("\(device)-pinch-\(count)", "gesture = \"pinch\"\ndevice = \"\(device)\"\nfingers = \(count)")
            }
            continuous("\(device)-rotation", "gesture = \"rotation\"\ndevice = \"\(device)\"")
        }
        continuous("touchscreen-edge-pan", "gesture = \"edge-pan\"\ndevice = \"touchscreen\"\nedges = \"any\"")
        return rules.joined(separator: "\n")
    }

    /// The catalogue as a rulebook.
    public static func rulebook() -> Rulebook {
        do {
            return try Rulebook.parse(text, file: file)
        } catch {
            // The text is fixed; RulebookTests parse it, so this cannot happen in a release.
            preconditionFailure("the built-in gesture catalogue does not parse: \(error)")
        }
    }

    /// Whether `decision` is the moment the catalogue names its gesture: a discrete one
    /// when recognized, a long-press when it begins (its name is known then), any other
    /// continuous one when it ends (its net direction is known then).
    public static func names(_ decision: GestureDecision) -> Bool {
        switch (decision.gesture, decision.moment) {
        case (.tap, .recognized), (.swipe, .recognized), (.stroke, .recognized), (.longPress, .began): true
        case (.pan, .ended), (.pinch, .ended), (.rotation, .ended), (.edgePan, .ended): true
        default: false
        }
    }
}
