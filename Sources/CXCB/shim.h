// libxcb, seen only by the X11 focus provider (Sources/FocusProviders/X11FocusProvider.swift).
#include <xcb/xcb.h>
