// libxcb, its XTEST and XKB extensions and xcbext.h (xcb_take_socket), seen by the X11 focus
// provider (Sources/FocusProviders/X11FocusProvider.swift: the focus, and the modifiers
// through XKB), the X11 input channel (Sources/InputChannels/XTestChannel.swift) and the
// X11 overlay (Sources/Overlay/X11OverlaySurface.swift: SHAPE, for an empty input region).
#include <xcb/xcb.h>
#include <xcb/xtest.h>
#include <xcb/xkb.h>
#include <xcb/shape.h>
#include <xcb/xcbext.h>

// XTEST's extension record, a global that Swift 6 refuses to take the address of.
static inline xcb_extension_t *cxcb_test_extension(void) { return &xcb_test_id; }

// XKB's extension record, for the same reason.
static inline xcb_extension_t *cxcb_xkb_extension(void) { return &xcb_xkb_id; }
