"""Stamps, on CLOCK_MONOTONIC in microseconds (the clock and unit of rig/touchrig.py's
--frame-log), each moment a desktop shows another workspace, as the desktop itself says it,
for scripts/measure-action-latency:

    python3 rig/workspace-watch.py OUT sway SOCKET   # sway IPC: workspace events, change "focus"
    python3 rig/workspace-watch.py OUT x11 DISPLAY   # PropertyNotify of _NET_CURRENT_DESKTOP (xprop -spy)
    python3 rig/workspace-watch.py OUT gnome BUS     # the rig extension's WorkspaceChanged signal
    python3 rig/workspace-watch.py OUT kwin LOG      # `js: touchgest-rig desktop N` lines as KWin writes them
    python3 rig/workspace-watch.py OUT lines         # every line of standard input, stamped as read

Appends `MICROSECONDS VALUE` lines to OUT (VALUE: the workspace shown, or the line read),
and makes OUT.ready once it watches. Each stamp is taken as the event is read, before
anything is parsed; it runs until it is killed (or, for `lines`, until its input ends).
"""
import ctypes
import json
import os
import re
import socket
import struct
import subprocess
import sys
import time


def now():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000


def main():
    out_path, mode, argument = sys.argv[1], sys.argv[2], (sys.argv[3] if len(sys.argv) > 3 else None)
    out = open(out_path, "a", buffering=1)

    def ready():
        open(out_path + ".ready", "w").close()

    if mode == "sway":
        # i3/sway IPC: "i3-ipc", payload length and type (native order), payload. SUBSCRIBE
        # is type 2; events come with the high bit of the type set.
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.connect(argument)
        payload = b'["workspace"]'
        connection.sendall(b"i3-ipc" + struct.pack("=II", len(payload), 2) + payload)
        stream = connection.makefile("rb", buffering=0)

        def message():
            header = stream.read(14)
            stamp = now()
            if len(header) < 14:
                raise SystemExit("workspace-watch.py: sway closed its IPC socket")
            length, kind = struct.unpack("=II", header[6:])
            body = b""
            while len(body) < length:
                chunk = stream.read(length - len(body))
                if not chunk:
                    raise SystemExit("workspace-watch.py: sway closed its IPC socket")
                body += chunk
            return stamp, kind, json.loads(body)

        _, _, answer = message()
        if not answer.get("success"):
            raise SystemExit(f"workspace-watch.py: sway refused the subscription: {answer}")
        ready()
        while True:
            stamp, kind, event = message()
            if kind & 0x80000000 and event.get("change") == "focus":
                out.write(f"{stamp} {event['current']['name']}\n")
    elif mode == "x11":
        # xprop prints the value at once, then a line per PropertyNotify; stdbuf makes it
        # write each line as it prints it.
        spy = subprocess.Popen(["stdbuf", "-oL", "xprop", "-display", argument, "-spy", "-root", "_NET_CURRENT_DESKTOP"],
                               stdout=subprocess.PIPE)
        pending, first = b"", True
        while chunk := os.read(spy.stdout.fileno(), 4096):
            stamp = now()
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                value = line.decode().rsplit("=", 1)[-1].strip()
                if first:
                    first = False
                    ready()
                else:
                    out.write(f"{stamp} {value}\n")
        raise SystemExit(f"workspace-watch.py: xprop ended (status {spy.wait()})")
    elif mode == "gnome":
        import dbus
        import dbus.mainloop.glib
        from gi.repository import GLib
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(argument)
        bus.add_signal_receiver(lambda index: out.write(f"{now()} {int(index)}\n"), signal_name="WorkspaceChanged",
                                dbus_interface="org.touchgest.Rig", path="/org/touchgest/Rig")
        # The match rule is in place once the bus answered a call made after it.
        bus.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId", "", [])
        ready()
        GLib.MainLoop().run()
    elif mode == "kwin":
        # inotify through ctypes: no package needed.
        libc = ctypes.CDLL(None, use_errno=True)
        in_modify, in_cloexec = 0x2, 0o2000000
        notify = libc.inotify_init1(in_cloexec)
        if notify < 0 or libc.inotify_add_watch(notify, argument.encode(), in_modify) < 0:
            raise SystemExit(f"workspace-watch.py: inotify on {argument}: {os.strerror(ctypes.get_errno())}")
        source = open(argument, "rb", buffering=0)
        source.seek(0, os.SEEK_END)
        pattern = re.compile(rb"^js: touchgest-rig desktop (\d+)$")
        pending = b""
        ready()
        while True:
            os.read(notify, 4096)
            stamp = now()
            while chunk := source.read(65536):
                pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                if match := pattern.match(line):
                    out.write(f"{stamp} {match[1].decode()}\n")
    elif mode == "lines":
        ready()
        pending = b""
        while chunk := os.read(0, 65536):
            stamp = now()
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                out.write(f"{stamp} {line.decode(errors='replace')}\n")
        if pending:
            out.write(f"{now()} {pending.decode(errors='replace')}\n")
    else:
        raise SystemExit(f"workspace-watch.py: unknown mode {mode!r}; expected sway, x11, gnome, kwin or lines")


if __name__ == "__main__":
    main()
