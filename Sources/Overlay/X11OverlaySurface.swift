import CXCB
import Glibc
import PollLoop

/// The panel on X11: an override-redirect window (no window manager places, decorates or
/// focuses it) in the top right corner, with a 32-bit ARGB visual where the server has one
/// (a compositing manager then blends it), and an empty input region (SHAPE's input kind),
/// so that every click goes to the window beneath. Frames go up with PutImage from a
/// buffer of the process's own.
///
/// The connection is made when the panel opens and closed when it has faded. libxcb's
/// connect waits for the server's setup reply, so it runs on a thread of its own
/// (``BackgroundAttempt``): a server that never answers holds that thread, not the loop,
/// and no second attempt starts beside it.
public final class X11OverlaySurface: OverlaySurface {
    public let display: String
    public var name: String { "the X server at \(display)" }
    /// The connection being made, until it is taken.
    private var connecting: BackgroundAttempt<Connection>?
    /// One given up on while it still ran (the panel faded first): while it runs, no other starts.
    private var abandoned: BackgroundAttempt<Connection>?
    private var xcb: OpaquePointer?
    private var window: xcb_window_t = 0
    private var context: xcb_gcontext_t = 0
    private var depth: UInt8 = 0
    private var pixels: UnsafeMutableRawPointer?

    private static let stride = OverlayDefaults.width * 4

    public init(display: String) {
        self.display = display
    }

    public var descriptor: Int32? { xcb.map { xcb_get_file_descriptor($0) } ?? connecting?.fd }

    /// A connection made on the worker's thread, with its screen's number.
    private struct Connection: @unchecked Sendable {
        var xcb: OpaquePointer?
        var screen: Int32
    }

    public func open() -> String? {
        if let abandoned, abandoned.isRunning { return "the X server at \(display) has not answered the overlay's last connection" }
        abandoned = nil
        let display = display
        connecting = BackgroundAttempt.start({
            var screen: Int32 = 0
            return Connection(xcb: xcb_connect(display, &screen), screen: screen)
        }, dispose: { made in made.xcb.map { xcb_disconnect($0) } })
        return connecting == nil ? "cannot start a thread to connect to the X server at \(display)" : nil
    }

    /// Makes the window on the connection just made.
    private func made(_ connection: OpaquePointer, screenNumber: Int32) -> String? {
        xcb = connection
        guard xcb_connection_has_error(connection) == 0 else { return "cannot reach the X server at \(display)" }
        var screens = xcb_setup_roots_iterator(xcb_get_setup(connection))
        for _ in 0..<max(0, screenNumber) where screens.rem > 0 { xcb_screen_next(&screens) }
        guard let screen = screens.data?.pointee else { return "the X server at \(display) has no screen \(screenNumber)" }
        // A 32-bit TrueColor visual carries the panel's alpha; without one the root's
        // visual shows the same pixels, opaque (a 24-bit ZPixmap has 32 bits a pixel too).
        var visual = screen.root_visual
        depth = screen.root_depth
        var colormap = screen.default_colormap
        if let argb = Self.argbVisual(screens.data) {
            visual = argb
            depth = 32
            colormap = xcb_generate_id(connection)
            xcb_create_colormap(connection, UInt8(XCB_COLORMAP_ALLOC_NONE.rawValue), colormap, screen.root, visual)
        }
        window = xcb_generate_id(connection)
        let x = Int16(Int(screen.width_in_pixels) - OverlayDefaults.width - OverlayDefaults.margin)
        // Values in the order of their mask bits: back pixel, border pixel, override
        // redirect, colormap (a window of another depth than its parent needs its own
        // border pixel and colormap).
        let mask = XCB_CW_BACK_PIXEL.rawValue | XCB_CW_BORDER_PIXEL.rawValue | XCB_CW_OVERRIDE_REDIRECT.rawValue | XCB_CW_COLORMAP.rawValue
        let values: [UInt32] = [0, 0, 1, colormap]
        xcb_create_window(connection, depth, window, screen.root, x, Int16(OverlayDefaults.margin), UInt16(OverlayDefaults.width),
                          UInt16(OverlayDefaults.height), 0, UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), visual, mask, values)
        // SHAPE's input region set to no rectangle at all: the window takes no pointer event.
        xcb_shape_rectangles(connection, UInt8(XCB_SHAPE_SO_SET.rawValue), UInt8(XCB_SHAPE_SK_INPUT.rawValue), 0, window, 0, 0, 0, nil)
        context = xcb_generate_id(connection)
        xcb_create_gc(connection, context, window, 0, nil)
        xcb_map_window(connection, window)
        xcb_flush(connection)
        pixels = UnsafeMutableRawPointer.allocate(byteCount: Self.stride * OverlayDefaults.height, alignment: 16)
        return xcb_connection_has_error(connection) == 0 ? nil : "the X server at \(display) closed the connection"
    }

    /// The first 32-bit TrueColor visual of `screen`.
    private static func argbVisual(_ screen: UnsafeMutablePointer<xcb_screen_t>?) -> xcb_visualid_t? {
        var depths = xcb_screen_allowed_depths_iterator(screen)
        while depths.rem > 0 {
            if depths.data.pointee.depth == 32 {
                var visuals = xcb_depth_visuals_iterator(depths.data)
                while visuals.rem > 0 {
                    if visuals.data.pointee._class == UInt8(XCB_VISUAL_CLASS_TRUE_COLOR.rawValue) { return visuals.data.pointee.visual_id }
                    xcb_visualtype_next(&visuals)
                }
            }
            xcb_depth_next(&depths)
        }
        return nil
    }

    public func handleReadable() -> String? {
        if let attempt = connecting {
            guard let made = attempt.take() else { return nil }
            connecting = nil
            guard let connection = made.xcb else { return "cannot reach the X server at \(display)" }
            return self.made(connection, screenNumber: made.screen)
        }
        guard let xcb else { return nil }
        // No event is asked for: what comes is an error of a request, dropped.
        while let event = xcb_poll_for_event(xcb) { free(event) }
        return xcb_connection_has_error(xcb) == 0 ? nil : "the X server at \(display) closed the connection"
    }

    public func frame() -> (pixels: UnsafeMutableRawPointer, stride: Int)? {
        pixels.map { ($0, Self.stride) }
    }

    public func present() -> String? {
        guard let xcb, let pixels else { return nil }
        let length = Self.stride * OverlayDefaults.height
        xcb_put_image(xcb, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), window, context, UInt16(OverlayDefaults.width),
                      UInt16(OverlayDefaults.height), 0, 0, 0, depth, UInt32(length), pixels.assumingMemoryBound(to: UInt8.self))
        xcb_flush(xcb)
        return xcb_connection_has_error(xcb) == 0 ? nil : "the X server at \(display) closed the connection"
    }

    public func close() {
        if let connecting {
            connecting.abandon()
            abandoned = connecting
        }
        connecting = nil
        if let xcb {
            xcb_destroy_window(xcb, window)
            xcb_flush(xcb)
            xcb_disconnect(xcb)
        }
        pixels?.deallocate()
        pixels = nil
        xcb = nil
    }
}
