// libxcb and its XTEST extension, seen by the X11 focus provider
// (Sources/FocusProviders/X11FocusProvider.swift) and the X11 input channel
// (Sources/InputChannels/XTestChannel.swift).
#include <xcb/xcb.h>
#include <xcb/xtest.h>
