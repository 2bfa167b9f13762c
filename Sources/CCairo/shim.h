// cairo's image surfaces, seen only by the overlay's painter (Sources/Overlay/OverlayPainter.swift):
// it draws the feedback panel into the shared memory the desktop shows.
#include <cairo/cairo.h>
