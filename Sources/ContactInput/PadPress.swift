import TouchGestures

/// What the contact reader makes of a touchpad's buttons, apart from libevdev so that it
/// can be tried with scripted frames: which contacts are fingers to follow, and the
/// ``EventButtonMask`` every touch event carries.
///
/// - The contacts down when a button goes down are the fingers that pressed it: every
///   touch is cancelled (a click is never a tap), and each of those contacts stays no
///   touch until it lifts, even after the button comes up.
/// - A contact that lands while a button is held is a finger to follow, and its events
///   carry the held buttons: "hold the clickpad down and swipe with another finger".
/// - When the button comes up, those fingers go on with an empty mask. A rule's
///   `buttons` is decided by the event its gesture began with, so a swipe begun with the
///   pad held stays the held swipe when the thumb lets go before the swipe ends.
public struct PadPress: Sendable {
    /// The buttons held after the last frame.
    public private(set) var mask: EventButtonMask = []
    /// Contacts that were down when a button went down, until each lifts.
    private var pressing: Set<Int> = []

    /// What one frame does to the fingers.
    public enum Outcome: Equatable, Sendable {
        /// A button went down in this frame: every touch is cancelled.
        case pressed
        /// These contacts, of the frame's, are fingers to follow.
        case follow(Set<Int>)
    }

    public init() {}

    /// Takes one frame: the buttons held at its end and the keys of the contacts on the pad.
    public mutating func step(buttons: EventButtonMask, contacts: some Collection<Int>) -> Outcome {
        let wasUp = mask.isEmpty
        mask = buttons
        if wasUp && !buttons.isEmpty {
            pressing = Set(contacts)
            return .pressed
        }
        pressing.formIntersection(contacts)
        return .follow(Set(contacts).subtracting(pressing))
    }
}
