"""A python3-dbusmock template: a stand-in for the systemd user manager on a rig's session
bus (rig/headless-common.sh), that knows one unit, IBus's for GNOME, as a Debian 12 GNOME
session does. GNOME Shell 43 asks it (GetUnit) only when it runs in a user unit, which
rig/gnome-shell-unit.c tells it, and then leaves IBus to systemd rather than fork
ibus-daemon (docs/focus.md says why that fork matters). Any other unit is not loaded.
"""

import dbus

BUS_NAME = 'org.freedesktop.systemd1'
MAIN_OBJ = '/org/freedesktop/systemd1'
MAIN_IFACE = 'org.freedesktop.systemd1.Manager'
SYSTEM_BUS = False

UNIT = 'org.freedesktop.IBus.session.GNOME.service'


def get_unit(self, name):
    if name != UNIT:
        raise dbus.exceptions.DBusException(f'Unit {name} not loaded.', name='org.freedesktop.systemd1.NoSuchUnit')
    return dbus.ObjectPath('/org/freedesktop/systemd1/unit/org_2efreedesktop_2eIBus_2esession_2eGNOME_2eservice')


def load(mock, parameters):
    mock.AddMethods(MAIN_IFACE, [('GetUnit', 's', 'o', get_unit)])
