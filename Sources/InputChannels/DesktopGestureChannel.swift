import InputActions

/// An input channel that reaches into the desktop's own gestures (GNOME Shell, through
/// touchgest's extension): it takes the desktop's touchpad swipes from it for some numbers
/// of fingers, and moves the desktop's own animations as a rule's gesture goes.
public protocol DesktopGestureChannel: InputChannel {
    /// The desktop's own touchpad swipes stop firing for these numbers of fingers (none:
    /// they all fire again). Sent again whenever the channel connects; the desktop gives
    /// them back by itself when touchgest leaves, however it ended.
    func yieldGestures(fingers: Set<Int>)
    /// Hands the desktop one step of an animation that follows a gesture, never waiting:
    /// while the desktop has not answered, only the newest update is kept.
    func follow(_ step: AnimationStep)
}
