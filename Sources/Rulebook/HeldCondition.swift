import TouchGestures

/// The modifier keys and buttons a rule wants held when its gesture begins (`modifiers`,
/// `buttons`): exactly those, and no other. They are requirements of the rule, read from
/// the event that begins the gesture (``GestureRecognizer/modifierFlags``,
/// ``GestureRecognizer/buttonMask``); a rule for the same gesture without them waits for
/// this one to fail, so the two never both fire (``Rulebook/addHeldPrecedence()``).
public struct HeldCondition: Hashable, Sendable, CustomStringConvertible {
    /// The modifiers, exactly; nil: any. Caps Lock is a lock, not a held key: it counts
    /// only where the rule names it.
    public var modifiers: KeyModifierFlags?
    /// The buttons, exactly; nil: any.
    public var buttons: EventButtonMask?

    public init(modifiers: KeyModifierFlags? = nil, buttons: EventButtonMask? = nil) {
        self.modifiers = modifiers
        self.buttons = buttons
    }

    public var isEmpty: Bool { modifiers == nil && buttons == nil }

    /// Whether a gesture begun with `held` and `pressed` is one the rule wants.
    public func matches(modifiers held: KeyModifierFlags, buttons pressed: EventButtonMask) -> Bool {
        if let modifiers {
            let counted = modifiers.contains(.alphaShift) ? held : held.subtracting(.alphaShift)
            guard counted == modifiers else { return false }
        }
        if let buttons, pressed != buttons { return false }
        return true
    }

    /// `modifiers super`, `buttons left`, `modifiers ctrl+shift, buttons none`.
    public var description: String {
        [modifiers.map { "modifiers \($0)" }, buttons.map { "buttons \($0.ruleName)" }].compactMap { $0 }.joined(separator: ", ")
    }

    /// The rule files' names of the modifiers; `none` is no modifier held.
    public static let modifierNames: [(name: String, flags: KeyModifierFlags)] = [
        ("ctrl", .control), ("shift", .shift), ("alt", .alternate), ("super", .command), ("capslock", .alphaShift), ("none", []),
    ]

    /// The rule files' names of the buttons (a touchpad's, a clickpad's press, a pointing
    /// stick's); `none` is no button held.
    public static let buttonNames: [(name: String, mask: EventButtonMask)] = [
        ("left", .primary), ("right", .secondary), ("middle", EventButtonMask.button(3)!), ("none", []),
    ]

}

extension EventButtonMask {
    /// `left`, `left+right`, `none`: the buttons as rule files, commands
    /// (`TOUCHGEST_BUTTONS`) and streams name them; a button without a name by its number.
    public var ruleName: String {
        var names = HeldCondition.buttonNames.filter { !$0.mask.isEmpty && contains($0.mask) }.map(\.name)
        let named = HeldCondition.buttonNames.reduce(EventButtonMask()) { $0.union($1.mask) }
        let others = subtracting(named)
        if !others.isEmpty { names.append(others.description) }
        return names.isEmpty ? "none" : names.joined(separator: "+")
    }
}

/// Keeps a rule with held modifiers or buttons out of any gesture begun without exactly
/// those: its recognizer never takes the gesture's touches, so it never stands in the way
/// of the plain rule that waits for it to fail.
final class HeldFilter: GestureRecognizerDelegate {
    let condition: HeldCondition
    /// The rule's window and device-name filters, asked after this one.
    let inner: GestureRecognizerDelegate?

    init(condition: HeldCondition, inner: GestureRecognizerDelegate?) {
        self.condition = condition
        self.inner = inner
    }

    /// The recognizer has the held state of the event the touch came in.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool {
        condition.matches(modifiers: recognizer.modifierFlags, buttons: recognizer.buttonMask)
            && (inner?.gestureRecognizer(recognizer, shouldReceive: touch) ?? true)
    }

    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive event: TouchpadEvent) -> Bool {
        condition.matches(modifiers: event.modifierFlags, buttons: event.buttonMask)
            && (inner?.gestureRecognizer(recognizer, shouldReceive: event) ?? true)
    }
}

extension Rulebook {
    /// Of two rules for the same gesture, one with held modifiers or buttons and one
    /// without, the plain one waits for the other to fail: with them held the specific
    /// rule wins; without, it sits out at once and the plain one is not delayed.
    mutating func addHeldPrecedence() {
        var present = Set(requirements.map { [$0.waiter, $0.waitedOn] })
        for specific in rules where !specific.held.isEmpty {
            for general in rules where general.held.isEmpty && general.window.specificity <= specific.window.specificity
                && general.window.covers(specific.window) && Self.sameGesture(general, specific)
                && !present.contains([specific.name, general.name]) {
                if present.insert([general.name, specific.name]).inserted {
                    requirements.append(Requirement(waiter: general.name, waitedOn: specific.name, reason: .held))
                }
            }
        }
    }
}
