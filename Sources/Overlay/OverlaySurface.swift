/// Where the panel is shown: a surface of the desktop's own kind, made when a gesture's
/// first finger comes down and destroyed, with its memory and its connection, once the
/// panel has faded. Nothing of it exists between gestures.
public protocol OverlaySurface: AnyObject {
    /// `sway's layer shell at wayland-1`, `the X server at :0`: for the lines that say
    /// where the panel is shown.
    var name: String { get }
    /// Connects and makes the surface (without waiting for the desktop), or says why not.
    func open() -> String?
    /// The connection's descriptor to read while open.
    var descriptor: Int32? { get }
    /// Reads what the desktop sent; says why the surface is gone, if it is.
    func handleReadable() -> String?
    /// The pixels of the next frame, ``OverlayDefaults/width`` by ``OverlayDefaults/height``
    /// ARGB32 with `stride` bytes a row, when a frame can be drawn now: the desktop has
    /// placed the surface and a buffer is free.
    func frame() -> (pixels: UnsafeMutableRawPointer, stride: Int)?
    /// Shows the frame drawn into ``frame()``'s pixels; says why it could not.
    func present() -> String?
    /// Destroys the surface, unmaps its memory and closes the connection.
    func close()
}
