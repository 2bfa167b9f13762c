extension Rulebook {
    /// The finger counts of the touchpad swipes the rules bind: each swipe rule's count and
    /// each pan rule's from `fingers` to `max-fingers`, on touchpads (not rules for
    /// touchscreens alone). A desktop's own workspace swipe of one of these counts fires
    /// beside the rule; with `desktop-gestures = "yield"` touchgest asks the desktop to
    /// stop it, where the desktop can be asked.
    public var touchpadSwipeFingers: Set<Int> {
        var counts: Set<Int> = []
        for rule in rules where (rule.gesture == .swipe || rule.gesture == .pan) && rule.device != .touchscreen {
            counts.formUnion(rule.gesture == .swipe ? rule.fingers...rule.fingers : rule.fingers...max(rule.fingers, rule.maxFingers))
        }
        return counts
    }

    /// The counts to yield: ``touchpadSwipeFingers`` with `desktop-gestures = "yield"`,
    /// none with `keep`.
    public var yieldedSwipeFingers: Set<Int> {
        settings.desktopGestures == .yield ? touchpadSwipeFingers : []
    }
}
