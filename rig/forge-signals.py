#!/usr/bin/python3
# A hostile local user on a bus, for the trust tests (Tests/SessionStateTests/BusTrustTests.swift):
# it sends signals addressed to one connection (unicast signals skip match rules, and the default
# policy of Debian's system bus lets any user send them) that claim to come from logind or a
# screensaver. Run it as another user (rig/session-buses forge ...), never as touchgest's.
#
#   forge-signals.py ADDRESS TARGET unlock|lock PATH        NameOwnerChanged naming itself logind's
#                                                           owner, then PropertiesChanged on PATH (20
#                                                           times over a second)
#   forge-signals.py ADDRESS TARGET huge PATH ENTRIES COUNT COUNT PropertiesChanged of ENTRIES entries
#   forge-signals.py ADDRESS TARGET flood PATH COUNT        COUNT small PropertiesChanged (LockedHint
#                                                           toggling)
#   forge-signals.py ADDRESS TARGET gnome-focus             NameOwnerChanged naming itself GNOME Shell, then
#                                                           FocusChanged from it (20 times over a second)
#   forge-signals.py ADDRESS TARGET gnome-modifiers         NameOwnerChanged naming itself GNOME Shell, then the
#                                                           extension's ModifiersChanged(Super) (20 times over a second)
#   forge-signals.py ADDRESS TARGET saver-inactive          NameOwnerChanged naming itself the owner of
#                                                           org.freedesktop.ScreenSaver, then ActiveChanged(false)
#
# It prints its own unique name and exits once the bus has taken every message.
import sys
import time

import dbus
import dbus.lowlevel

address, target, mode = sys.argv[1:4]
bus = dbus.bus.BusConnection(address)
me = bus.get_unique_name()
print(me, flush=True)


def send(path, interface, member, signature, *arguments):
    message = dbus.lowlevel.SignalMessage(path, interface, member)
    message.set_destination(target)
    message.append(*arguments, signature=signature)
    bus.send_message(message)


def owner_changed(name):
    send("/org/freedesktop/DBus", "org.freedesktop.DBus", "NameOwnerChanged", "sss", name, "", me)


def properties(path, changed):
    send(path, "org.freedesktop.DBus.Properties", "PropertiesChanged", "sa{sv}as",
         "org.freedesktop.login1.Session", changed, [])


if mode in ("unlock", "lock"):
    owner_changed("org.freedesktop.login1")
    # The target asks the new "owner" for the session first, then follows it: the change is
    # sent again for a second, so that it lands whenever that is done.
    for _ in range(20):
        properties(sys.argv[4], {"LockedHint": dbus.Boolean(mode == "lock"), "Active": dbus.Boolean(True)})
        bus.flush()
        time.sleep(0.05)
elif mode == "huge":
    path, entries, count = sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
    big = {"Key%d" % index: dbus.Boolean(False) for index in range(entries)}
    big["LockedHint"] = dbus.Boolean(False)
    for _ in range(count):
        properties(path, big)
elif mode == "flood":
    path, count = sys.argv[4], int(sys.argv[5])
    for index in range(count):
        properties(path, {"LockedHint": dbus.Boolean(index % 2 == 0)})
elif mode == "gnome-focus":
    # touchgest asks a new GNOME Shell for the focus first; the forged focus is sent again
    # for a second, so that it lands whenever that is done.
    owner_changed("org.gnome.Shell")
    for _ in range(20):
        send("/org/touchgest/Focus", "org.touchgest.Focus", "FocusChanged", "ss", "forged.app", "forged title")
        bus.flush()
        time.sleep(0.05)
elif mode == "gnome-modifiers":
    owner_changed("org.gnome.Shell")
    for _ in range(20):
        send("/org/touchgest/Input", "org.touchgest.Input", "ModifiersChanged", "u", dbus.UInt32(0x40))
        bus.flush()
        time.sleep(0.05)
elif mode == "saver-inactive":
    owner_changed("org.freedesktop.ScreenSaver")
    send("/org/freedesktop/ScreenSaver", "org.freedesktop.ScreenSaver", "ActiveChanged", "b", False)
else:
    sys.exit("forge-signals: unknown mode '%s'" % mode)
bus.flush()
# A round trip to the bus: every message before it has been taken.
bus.get_name_owner("org.freedesktop.DBus")
