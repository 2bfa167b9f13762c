// libxcb, its XTEST extension and xcbext.h (xcb_take_socket), seen by the X11 focus provider
// (Sources/FocusProviders/X11FocusProvider.swift) and the X11 input channel
// (Sources/InputChannels/XTestChannel.swift).
#include <xcb/xcb.h>
#include <xcb/xtest.h>
#include <xcb/xcbext.h>

// XTEST's extension record, a global that Swift 6 refuses to take the address of.
static inline xcb_extension_t *cxcb_test_extension(void) { return &xcb_test_id; }
