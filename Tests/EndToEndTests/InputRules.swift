/// The rules, gestures and expected events every desktop's input test shares
/// (X11InputTests, SwayInputTests, KWinInputTests, GnomeInputTests): a 2-finger tap presses
/// ctrl+shift+v, a 3-finger tap types "Hi!", a 3-finger swipe up clicks the middle button
/// or, in the action tests, shows the next workspace.
enum InputRules {
    static let keysAndText = """
        [rule.paste]
        gesture = "tap"
        fingers = 2
        keys = "ctrl+shift+v"

        [rule.greet]
        gesture = "tap"
        fingers = 3
        text = "Hi!"
        """

    /// The action every desktop's action test binds, the same on each: a 3-finger swipe up
    /// shows the next workspace (InputRules.swipe makes it).
    static let nextWorkspace = """

        [rule.next]
        gesture = "swipe"
        fingers = 3
        direction = "up"
        action = "workspace-next"
        """

    /// A plain 3-finger swipe left and the same with Super held (the modifier tests of
    /// each desktop): with Super held only `move` may fire, without it only `plain`.
    static let superSwipe = """
        [rule.plain]
        gesture = "swipe"
        fingers = 3
        direction = "left"
        command = "true"

        [rule.move]
        gesture = "swipe"
        fingers = 3
        direction = "left"
        modifiers = "super"
        command = "true"
        """

    /// The swipe `superSwipe` binds, and the decisions it makes held and not.
    static let leftSwipe = """
        touch 3 at 60,40 move -30,0 over 250ms
        wait 400ms
        """
    static let superDecisions = ["move possible -> recognized", "plain possible -> recognized"]

    static let click = """

        [rule.middle]
        gesture = "swipe"
        fingers = 3
        direction = "up"
        button = "middle"
        """

    /// The taps, after the channel said it is connected (`await input: connected to ...`).
    static let taps = """
        tap 2 at 50,35
        wait 400ms
        tap 3 at 50,35
        wait 400ms
        """

    static let swipe = """
        touch 3 at 50,50 move 0,-30 over 200ms
        wait 400ms
        """

    /// What the focused window gets from the taps: each chord's modifiers, its key, then
    /// released in reverse; text with Shift where the character is on a shifted level.
    static let tapEvents = [
        "press Control_L", "press Shift_L", "press V", "release V", "release Shift_L", "release Control_L",
        "press Shift_L", "press H", "release H", "release Shift_L", "press i", "release i",
        "press Shift_L", "press exclam", "release exclam", "release Shift_L",
    ]

    static let clickEvents = ["press button 2", "release button 2"]

    /// touchgest's arguments and the rig's options for these runs.
    static let arguments = "run -v --allow-root --focus none"
    static let extra = "--merge-stderr --signal TERM --ready 'device added'"
}
