import CCairo
import CProcess
import TouchGestures

/// Draws an ``OverlayScene`` into a buffer of 32-bit premultiplied ARGB pixels (cairo's
/// ARGB32, which is Wayland's ARGB8888 and an X11 32-bit ZPixmap on little-endian
/// machines), at ``OverlayDefaults/width`` by ``OverlayDefaults/height``.
///
/// The panel is opaque while fingers are down (its colours are exact on screen, which the
/// end-to-end tests read back) and fades with `opacity` after.
public enum OverlayPainter {
    /// The panel's colours, 0...255 red, green, blue.
    public static let panel: (UInt8, UInt8, UInt8) = (0x1E, 0x22, 0x2A)
    public static let track: (UInt8, UInt8, UInt8) = (0x3A, 0x40, 0x4C)
    public static let bar: (UInt8, UInt8, UInt8) = (0x4C, 0xA3, 0xFF)
    public static let trailColour: (UInt8, UInt8, UInt8) = (0xFF, 0xC8, 0x3C)
    /// The progress bar's box in the panel, pixels: x, y, width, height.
    public static let barBox = (x: 10, y: 56, width: 210, height: 10)
    /// The trail's box in the panel, pixels.
    public static let trailBox = (x: 230, y: 8, width: 80, height: 80)

    /// Paints `scene` at `opacity` (0...1) into `pixels`: `stride` bytes a row.
    public static func paint(_ scene: OverlayScene, opacity: Double, into pixels: UnsafeMutableRawPointer, stride: Int) {
        let width = Int32(OverlayDefaults.width), height = Int32(OverlayDefaults.height)
        guard let surface = cairo_image_surface_create_for_data(pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                               width, height, Int32(stride)) else { return }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return }
        defer {
            cairo_destroy(cr)
            cairo_surface_flush(surface)
        }
        let alpha = min(1, max(0, opacity))
        func colour(_ rgb: (UInt8, UInt8, UInt8)) {
            cairo_set_source_rgba(cr, Double(rgb.0) / 255, Double(rgb.1) / 255, Double(rgb.2) / 255, alpha)
        }
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        colour(panel)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)

        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(cr, 15)
        cairo_set_source_rgba(cr, 1, 1, 1, alpha)
        text(cr, scene.headline, x: 10, y: 24)
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, 13)
        cairo_set_source_rgba(cr, 0.85, 0.87, 0.9, alpha)
        text(cr, scene.decision, x: 10, y: 45)

        let box = barBox
        colour(track)
        cairo_rectangle(cr, Double(box.x), Double(box.y), Double(box.width), Double(box.height))
        cairo_fill(cr)
        if let progress = scene.progress {
            colour(bar)
            cairo_rectangle(cr, Double(box.x), Double(box.y), (Double(box.width) * min(1, max(0, progress))).rounded(), Double(box.height))
            cairo_fill(cr)
        }
        if let verdict = scene.verdict {
            cairo_set_source_rgba(cr, 1, 1, 1, alpha)
            text(cr, verdict, x: 10, y: 86)
        }

        guard scene.trail.count > 1 else { return }
        let area = trailBox
        colour(trailColour)
        cairo_set_line_width(cr, 2.5)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        // The trail fills its box, whatever part of the device it was drawn on.
        let xs = scene.trail.map(\.x), ys = scene.trail.map(\.y)
        let spanX = (xs.max() ?? 0) - (xs.min() ?? 0), spanY = (ys.max() ?? 0) - (ys.min() ?? 0)
        let scale = Double(area.width - 8) / max(spanX, spanY, 1e-3)
        let originX = Double(area.x) + 4 + (Double(area.width - 8) - spanX * scale) / 2
        let originY = Double(area.y) + 4 + (Double(area.height - 8) - spanY * scale) / 2
        for (index, point) in scene.trail.enumerated() {
            let x = originX + (point.x - (xs.min() ?? 0)) * scale, y = originY + (point.y - (ys.min() ?? 0)) * scale
            if index == 0 { cairo_move_to(cr, x, y) } else { cairo_line_to(cr, x, y) }
        }
        cairo_stroke(cr)
    }

    /// Gives the heap's free memory back once the panel has faded. cairo's font cache and
    /// fontconfig's configuration stay (about 1 MB, made at the first frame):
    /// `cairo_debug_reset_static_data` would free them, but it aborts the process when any
    /// cairo object lives on, on any thread, which a daemon must not risk.
    public static func releaseCaches() {
        cprocess_trim_heap()
    }

    /// `line` at (x, y), its baseline; cut to the bar's width so it never runs under the trail.
    private static func text(_ cr: OpaquePointer, _ line: String, x: Double, y: Double) {
        var shown = line
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, shown, &extents)
        while extents.x_advance > Double(barBox.width) && shown.count > 1 {
            shown = String(shown.dropLast(2)) + "…"
            cairo_text_extents(cr, shown, &extents)
        }
        cairo_move_to(cr, x, y)
        cairo_show_text(cr, shown)
    }
}
