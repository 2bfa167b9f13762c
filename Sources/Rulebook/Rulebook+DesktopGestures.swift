import TouchGestures

extension Rulebook {
    /// The numbers of fingers whose touchpad swipes the desktop's own gestures give up
    /// while these rules are in force: with `desktop-gestures = "yield"`, those of every
    /// touchpad swipe and pan rule (each number a pan's `min-fingers` to `max-fingers`
    /// spans); with `keep`, those of the rules that `follow` an animation only, so that the
    /// desktop's own swipe and the rule never move one animation at once. Whatever a rule's
    /// window keys or modifiers say: the desktop cannot tell those apart in time.
    public var yieldedFingers: Set<Int> {
        var fingers = Set<Int>()
        for rule in rules where rule.device != .touchscreen && (rule.gesture == .swipe || rule.gesture == .pan) {
            guard settings.desktopGestures == .yield || rule.follow != nil else { continue }
            fingers.formUnion(rule.fingers...max(rule.fingers, rule.maxFingers))
        }
        return fingers
    }
}
