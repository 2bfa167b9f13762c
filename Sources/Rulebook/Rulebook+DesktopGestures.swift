import TouchGestures

extension Rulebook {
    /// The finger counts of the touchpad swipes the rules bind: each swipe rule's count and
    /// each pan rule's from `fingers` to `max-fingers`, on touchpads (not rules for
    /// touchscreens alone). A desktop's own workspace swipe of one of these counts fires
    /// beside the rule. Whatever a rule's window keys or modifiers say: the desktop cannot
    /// tell those apart in time.
    public var touchpadSwipeFingers: Set<Int> {
        Self.swipeFingers(of: rules)
    }

    /// The counts whose touchpad swipes the desktop's own gestures give up while these
    /// rules are in force (GNOME through touchgest's extension, Hyprland through its
    /// socket): with `desktop-gestures = "yield"`, ``touchpadSwipeFingers``; with `keep`,
    /// those of the rules that `follow` an animation only, so that the desktop's own swipe
    /// and the rule never move one animation at once.
    public var yieldedFingers: Set<Int> {
        settings.desktopGestures == .yield ? touchpadSwipeFingers : Self.swipeFingers(of: rules.filter { $0.follow != nil })
    }

    private static func swipeFingers(of rules: [Rule]) -> Set<Int> {
        var counts: Set<Int> = []
        for rule in rules where (rule.gesture == .swipe || rule.gesture == .pan) && rule.device != .touchscreen {
            counts.formUnion(rule.gesture == .swipe ? rule.fingers...rule.fingers : rule.fingers...max(rule.fingers, rule.maxFingers))
        }
        return counts
    }
}
