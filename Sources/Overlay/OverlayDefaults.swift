import TouchGestures

/// The overlay's tunables, each with its unit and its reason.
public enum OverlayDefaults {
    /// The panel's width and height in pixels: three short lines of text, a progress bar
    /// and a stroke's trail fit at 14 px text; small enough to hide nothing one works in.
    public static let width = 320
    public static let height = 96
    /// Pixels between the panel and the screen's top and right edges: clear of the edge
    /// where bars and notifications usually sit flush.
    public static let margin = 16
    /// How long the panel takes to fade once the last finger is up: long enough to read
    /// the verdict, and within the second the feedback promises.
    public static let fadeDuration: Duration = .milliseconds(600)
    /// The shortest time between two frames: 30 frames a second follow a finger smoothly
    /// for a panel of text, with half the wake-ups of 60.
    public static let frameInterval: Duration = .milliseconds(33)
    /// Most points a stroke's trail keeps: every other point is dropped past it, so a long
    /// stroke keeps its shape in bounded memory.
    public static let maximumTrailPoints = 256
    /// Most characters of one line of the panel sent to GNOME Shell, counted as JavaScript
    /// counts them (UTF-16 code units): the panel shows about 30; a longer rule name is cut
    /// with an ellipsis, and touchgest's extension refuses longer lines.
    public static let maximumFeedbackText = 200
    /// Most bytes read from the desktop in one wake-up: its answers to the overlay are a
    /// few hundred bytes; what is left waits for the next round, input first.
    public static let readBudget = 4_096
    /// Most bytes of one message from a Wayland compositor: none the overlay takes is
    /// longer (a registry global is the longest); a longer one ends the overlay's connection.
    public static let maximumMessageBytes = 4_096
    /// Most globals a compositor may list while the overlay connects: sway lists about
    /// 40; one that lists more is not a compositor.
    public static let maximumGlobals = 1_024
}
