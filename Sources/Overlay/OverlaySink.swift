import PollLoop
import TouchGestures

/// Where the overlay's scene goes, from a gesture's first finger until the panel has faded:
/// pixels painted into a surface of the desktop's own (``PaintedSurface``), or the scene
/// itself, handed to a desktop that draws the panel (``GnomeShellPanel``). When a scene goes
/// is ``GestureOverlay``'s business alone: a sink only says whether it can take one now.
public protocol OverlaySink: AnyObject {
    /// `the layer shell at wayland-1`, `GNOME Shell, through touchgest's extension`: for the
    /// lines that say where the panel is shown.
    var name: String { get }
    /// Connects (without waiting for the desktop), or says why not.
    func open() -> String?
    /// The descriptors to read while open.
    func collect(_ interest: inout PollInterest)
    /// Reads what the desktop sent on `fd`; says why the panel is gone, if it is.
    func handleReadable(_ fd: Int32) -> String?
    /// The sink's own next deadline while open (a call's answer overdue), if any.
    var deadline: Timestamp? { get }
    /// Runs the sink's own deadlines; says why the panel is gone, if it is.
    func handleDeadlines() -> String?
    /// Whether a scene can go now: the desktop has placed the surface and a buffer is free,
    /// or the desktop has answered what was sent before.
    var isReady: Bool { get }
    /// Whether the desktop has shown a scene since ``open()``.
    var hasShown: Bool { get }
    /// Whether the desktop fades the panel by itself once told (``fade(over:)``); otherwise
    /// the overlay sends a scene at each frame of the fade, at a lower `opacity`.
    var fadesItself: Bool { get }
    /// Shows `scene` at `opacity` (0...1); says why it could not.
    func show(_ scene: OverlayScene, opacity: Double) -> String?
    /// The desktop fades the panel out over `duration` and then removes it (a sink that
    /// ``fadesItself``); says why it could not.
    func fade(over duration: Duration) -> String?
    /// Closes what is open: nothing of the panel stays on screen or in memory.
    func close()
}

/// A sink that paints each scene into the pixels of an ``OverlaySurface`` (the layer
/// shell's, X11's) with ``OverlayPainter``; the fade is drawn frame by frame.
public final class PaintedSurface: OverlaySink {
    public let surface: OverlaySurface
    private var presented = false

    public init(_ surface: OverlaySurface) {
        self.surface = surface
    }

    public var name: String { surface.name }

    public func open() -> String? {
        presented = false
        return surface.open()
    }

    public func collect(_ interest: inout PollInterest) {
        if let fd = surface.descriptor { interest.read(fd) }
    }

    public func handleReadable(_ fd: Int32) -> String? { surface.handleReadable() }
    public var deadline: Timestamp? { nil }
    public func handleDeadlines() -> String? { nil }
    public var isReady: Bool { surface.frame() != nil }
    public var hasShown: Bool { presented }
    public var fadesItself: Bool { false }

    public func show(_ scene: OverlayScene, opacity: Double) -> String? {
        guard let frame = surface.frame() else { return nil }
        OverlayPainter.paint(scene, opacity: opacity, into: frame.pixels, stride: frame.stride)
        if let why = surface.present() { return why }
        presented = true
        return nil
    }

    public func fade(over duration: Duration) -> String? { nil }

    public func close() {
        surface.close()
        OverlayPainter.releaseCaches()
    }
}
