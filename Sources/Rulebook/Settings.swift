import TextWire
import TouchGestures

/// The `[settings]` table: defaults for every rule.
public struct Settings: Sendable {
    public var device: DeviceKind = .any
    /// Commands run longer than this are stopped; nil: no limit.
    public var timeout: Duration? = .seconds(30)
    public var overlap: OverlapPolicy = .queue
    /// Engine tunables by gesture.
    public var tunables: [GestureKind: Tunables] = [:]
    /// Device sizes the user states (`device-size = "GLOB=WIDTHxHEIGHT"`), for screens
    /// that report no resolution or a wrong one.
    public var deviceSizes: [StatedDeviceSize] = []
    /// Where the modifier keys that rules with `modifiers` want come from; chosen when
    /// touchgest starts (a reload that changes it is told to restart).
    public var modifierSource: ModifierSource = .desktop
    /// Whether the desktop's own touchpad gestures keep firing beside touchgest's rules
    /// (`desktop-gestures`).
    public var desktopGestures: DesktopGestures = .keep
    /// Whether a panel on screen shows what touchgest is deciding while fingers are down
    /// (`feedback = "on"`); off unless asked.
    public var feedback: Feedback = .off

    public init() {}
}

/// `desktop-gestures`: what becomes of the desktop's own touchpad gestures (GNOME's and
/// Hyprland's workspace swipes) that touchgest's rules bind too.
public enum DesktopGestures: String, CaseIterable, Sendable {
    /// They fire as well: both the desktop's and the rule's happen.
    case keep
    /// The desktop's stop firing for the finger counts and directions touchgest's rules
    /// bind, and come back when touchgest stops, when the rules change, or when it dies.
    case yield
}

/// `follow`: the desktop's own animation a continuous rule moves under the fingers, 1:1,
/// the desktop deciding at the lift whether to finish or go back.
public enum FollowTarget: String, CaseIterable, Sendable {
    /// The switch to the next or previous workspace, in the way the fingers go.
    case workspaces
    /// The overview (GNOME's activities), opened as the fingers go up, closed as they go down.
    case overview
}

/// `modifier-source`: what tells touchgest which modifier keys are held.
public enum ModifierSource: String, CaseIterable, Sendable {
    /// The desktop, where it tells a client (``FocusProviders/modifierSource(environment:)``);
    /// no keyboard is opened.
    case desktop
    /// The keyboards themselves, through libinput: an opt-in for desktops that do not tell.
    /// It needs read access to every keyboard (the `input` group), which lets any program
    /// of the user read every keystroke; touchgest itself keeps only the modifier keys.
    case keyboards
}

/// `feedback`: whether touchgest shows what it is deciding on screen while fingers are down.
public enum Feedback: String, CaseIterable, Sendable {
    /// Nothing on screen.
    case off
    /// A small panel above every window, which takes no click and no focus: the fingers,
    /// the gesture and the rule that would fire, its progress, a stroke's trail and verdict.
    case on
}
