#!/usr/bin/python3
"""Stand-ins for KWin and GNOME Shell on a private session bus, for the protocol tests
of touchgest's D-Bus focus provider (Tests/FocusProvidersTests/DBusProtocolTests.swift).
They speak the same names and calls as the real ones; neither can run here.

  dbus-desktop.py kwin LOG          # owns org.kde.KWin; /Scripting org.kde.kwin.Scripting
  dbus-desktop.py gnome-shell LOG   # owns org.gnome.Shell; the extension's /org/touchgest/Focus
                                    # and /org/touchgest/Input (the modifiers held)
  dbus-desktop.py gnome-shell-old LOG  # the same with an extension older than WatchModifiers

The KWin stand-in loads the script touchgest asks for (loadScript), checks it is the
script that calls touchgest back with the names below (a file it cannot read gets -1,
where the real KWin 5.27.5 gives an id and drops the script at start: KWinFocusTests
runs that), and when started (start), does
what the script does: calls org.touchgest.Focus WindowActivated(class, caption) for the
active window, and again on every activation. The GNOME Shell stand-in is the
extension: GetFocus() and the FocusChanged signal, and GNOME Shell's own word on it
(org.gnome.Shell.Extensions GetExtensionInfo, ExtensionStateChanged; state 1 enabled, 2
disabled, as GNOME Shell numbers them). Its /org/touchgest/Input takes WatchModifiers
and UnwatchModifiers (from anyone: the real extension's caller check is tested on the
real shell) and sends ModifiersChanged to its watchers alone. Each logs every call it
gets to LOG.

A test moves the focus with
  dbus-send --bus=ADDRESS --dest=org.kde.KWin /Test org.touchgest.Test.Activate string:CLASS string:TITLE
and, for GNOME Shell, turns the extension off and on with org.touchgest.Test.Enable boolean:false
(off, it forgets its watchers, as the real one does), and holds modifiers with
org.touchgest.Test.Modifiers uint32:MASK (Clutter's mask: 1 Shift, 0x40 Super).
"""
import sys

import dbus
import dbus.lowlevel
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

SERVICE, PATH, INTERFACE = "org.touchgest.Focus", "/org/touchgest/Focus", "org.touchgest.Focus"

kind, log_path = sys.argv[1], sys.argv[2]
log_file = open(log_path, "a", buffering=1)


def log(text):
    log_file.write(text + "\n")


DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
focus = {"class": "firefox-esr", "title": "Debian - Mozilla Firefox"}


class KWinScripting(dbus.service.Object):
    """KWin's scripting interface, as KWin 5 and 6 export it."""

    def __init__(self):
        super().__init__(bus, "/Scripting")
        self.scripts = {}  # plugin name -> [path, running]
        self.next_id = 0

    @dbus.service.method("org.kde.kwin.Scripting", in_signature="ss", out_signature="i")
    def loadScript(self, path, name):
        log(f"loadScript {path} {name}")
        if name in self.scripts:
            return -1
        try:
            text = open(path).read()
        except OSError:
            return -1
        # The script must call touchgest back as the provider expects, on both APIs.
        for word in (SERVICE, PATH, INTERFACE, "WindowActivated", "callDBus", "windowActivated",
                     "clientActivated", "resourceClass", "caption"):
            if word not in text:
                log(f"the script does not mention {word}")
                return -1
        self.scripts[name] = [path, False]
        self.next_id += 1
        return self.next_id

    @dbus.service.method("org.kde.kwin.Scripting", in_signature="s", out_signature="b")
    def unloadScript(self, name):
        log(f"unloadScript {name}")
        return self.scripts.pop(name, None) is not None

    @dbus.service.method("org.kde.kwin.Scripting", in_signature="", out_signature="")
    def start(self):
        log("start")
        for script in self.scripts.values():
            if not script[1]:
                script[1] = True
                report()


def report():
    """What the script does on an activation: callDBus, whose answer KWin ignores."""
    if not any(running for _, running in kwin.scripts.values()):
        return
    proxy = bus.get_object(SERVICE, PATH, introspect=False)
    proxy.WindowActivated(focus["class"], focus["title"], dbus_interface=INTERFACE,
                          reply_handler=lambda: None, error_handler=lambda e: log(f"callDBus failed: {e}"))


class Extension(dbus.service.Object):
    """The touchgest-focus GNOME Shell extension's object."""

    def __init__(self):
        super().__init__(bus, PATH)

    @dbus.service.method(INTERFACE, in_signature="", out_signature="ss")
    def GetFocus(self):
        log("GetFocus")
        return focus["class"], focus["title"]

    @dbus.service.signal(INTERFACE, signature="ss")
    def FocusChanged(self, wm_class, title):
        pass


class Input(dbus.service.Object):
    """The extension's /org/touchgest/Input, as far as the modifiers go."""

    def __init__(self):
        super().__init__(bus, "/org/touchgest/Input")
        self.watchers = set()
        self.mask = 0

    if kind != "gnome-shell-old":
        @dbus.service.method("org.touchgest.Input", in_signature="", out_signature="u", sender_keyword="sender")
        def WatchModifiers(self, sender):
            log(f"WatchModifiers {sender}")
            self.watchers.add(str(sender))
            return dbus.UInt32(self.mask)

        @dbus.service.method("org.touchgest.Input", in_signature="", out_signature="", sender_keyword="sender")
        def UnwatchModifiers(self, sender):
            log(f"UnwatchModifiers {sender}")
            self.watchers.discard(str(sender))

    def hold(self, mask):
        """ModifiersChanged to each watcher alone: a unicast signal."""
        self.mask = mask
        for watcher in self.watchers:
            message = dbus.lowlevel.SignalMessage("/org/touchgest/Input", "org.touchgest.Input", "ModifiersChanged")
            message.set_destination(watcher)
            message.append(dbus.UInt32(mask), signature="u")
            bus.send_message(message)


UUID = "touchgest-focus@touchgest.org"


class ShellExtensions(dbus.service.Object):
    """GNOME Shell's org.gnome.Shell.Extensions, for touchgest's extension only."""

    def __init__(self):
        super().__init__(bus, "/org/gnome/Shell")

    def info(self, uuid):
        if uuid != UUID:
            return dbus.Dictionary({}, signature="sv")
        state = 1.0 if extension[0] else 2.0
        return dbus.Dictionary({"uuid": UUID, "state": dbus.Double(state), "path": "/stand-in/" + UUID}, signature="sv")

    @dbus.service.method("org.gnome.Shell.Extensions", in_signature="s", out_signature="a{sv}")
    def GetExtensionInfo(self, uuid):
        log(f"GetExtensionInfo {uuid}")
        return self.info(str(uuid))

    @dbus.service.signal("org.gnome.Shell.Extensions", signature="sa{sv}")
    def ExtensionStateChanged(self, uuid, info):
        pass


class Control(dbus.service.Object):
    """What a test drives: the focus moving, the extension turned off and on."""

    def __init__(self):
        super().__init__(bus, "/Test")

    @dbus.service.method("org.touchgest.Test", in_signature="ss", out_signature="")
    def Activate(self, wm_class, title):
        focus["class"], focus["title"] = str(wm_class), str(title)
        if kind == "kwin":
            report()
        elif extension[0]:
            extension[0].FocusChanged(focus["class"], focus["title"])

    @dbus.service.method("org.touchgest.Test", in_signature="u", out_signature="")
    def Modifiers(self, mask):
        keys.hold(int(mask))

    @dbus.service.method("org.touchgest.Test", in_signature="b", out_signature="")
    def Enable(self, on):
        if not on:
            keys.watchers.clear()
        if on and not extension[0]:
            extension[0] = Extension()
            # The extension tells the focus when it is enabled, then the shell its state.
            extension[0].FocusChanged(focus["class"], focus["title"])
            shell.ExtensionStateChanged(UUID, shell.info(UUID))
        elif not on and extension[0]:
            extension[0].remove_from_connection()
            extension[0] = None
            shell.ExtensionStateChanged(UUID, shell.info(UUID))


kwin = KWinScripting() if kind == "kwin" else None
extension = [Extension() if kind.startswith("gnome-shell") else None]
shell = ShellExtensions() if kind.startswith("gnome-shell") else None
keys = Input() if kind.startswith("gnome-shell") else None
control = Control()
name = dbus.service.BusName("org.kde.KWin" if kind == "kwin" else "org.gnome.Shell", bus, do_not_queue=True)
log("ready")
GLib.MainLoop().run()
