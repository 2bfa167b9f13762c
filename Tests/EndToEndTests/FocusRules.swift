/// The rules and the swipe every desktop's focus test uses: one swipe for a general rule
/// and for an application's, and a tap for every application but one.
enum FocusRules {
    static let rules = """
        [settings]
        device = "touchpad"

        [rule.next-workspace]
        gesture = "swipe"
        fingers = 3
        direction = "left"
        command = "echo general \\"$TOUCHGEST_APP\\" >> $FOLDER/out"

        [rule.terminal-a-tab]
        gesture = "swipe"
        fingers = 3
        direction = "left"
        application = "term-a"
        command = "echo term-a-tab \\"$TOUCHGEST_APP\\" \\"$TOUCHGEST_TITLE\\" >> $FOLDER/out"

        [rule.not-b-tap]
        gesture = "tap"
        fingers = 2
        not-application = "term-b"
        command = "echo not-b \\"$TOUCHGEST_APP\\" >> $FOLDER/out"
        """

    static let swipe = "touch 3 at 70,35 move -35,0 over 200ms\nwait 400ms"
}

extension FocusRules {
    /// A general swipe and the same swipe for windows whose title starts with "Draft".
    static let titleRules = """
        [settings]
        device = "touchpad"

        [rule.next-workspace]
        gesture = "swipe"
        fingers = 3
        direction = "left"
        command = "echo general \\"$TOUCHGEST_APP\\" >> $FOLDER/out"

        [rule.draft-swipe]
        gesture = "swipe"
        fingers = 3
        direction = "left"
        title = "Draft*"
        command = "echo draft \\"$TOUCHGEST_APP\\" \\"$TOUCHGEST_TITLE\\" >> $FOLDER/out"
        """
}
