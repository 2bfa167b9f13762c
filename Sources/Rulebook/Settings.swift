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
    /// Whether a panel on screen shows what touchgest is deciding while fingers are down
    /// (`feedback = "on"`); off unless asked.
    public var feedback: Feedback = .off

    public init() {}
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
