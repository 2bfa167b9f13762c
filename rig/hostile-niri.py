#!/usr/bin/python3
"""A stand-in for niri's IPC socket that attacks touchgest: the end-to-end tests of what a
desktop can do to the daemon (HostileDesktopTests).

Usage: hostile-niri.py MODE SOCKET FOLDER

Serves niri's event stream on SOCKET, as niri does: answers the request "EventStream"
with {"Ok":"Handled"} and the whole state (one focused window, foot "~"). When the file
FOLDER/go appears it attacks, by MODE:
- flood: WindowFocusChanged events without pause, until FOLDER/stop appears; then one
  focused window, foot "calm".
- title: a focused window whose title is 1 MiB.
- windows: 5,000 windows opened one event each (1 KiB titles), then all closed, then one
  focused window, foot "after".
It serves every connection touchgest makes (it reconnects after dropping one), writes
its pid to FOLDER/niri.pid, and runs until killed.
"""
import json
import os
import socket
import sys
import time

mode, path, folder = sys.argv[1:4]


def line(event):
    return (json.dumps(event, separators=(",", ":")) + "\n").encode()


def window(id, title, focused=True, app="foot"):
    return {"id": id, "title": title, "app_id": app, "is_focused": focused}


def wait_for(name, connection):
    """Waits until FOLDER/NAME exists; False when touchgest hung up meanwhile."""
    connection.settimeout(0.01)
    while not os.path.exists(os.path.join(folder, name)):
        try:
            if connection.recv(4096) == b"":
                return False
        except socket.timeout:
            pass
    connection.settimeout(None)
    return True


def serve(connection):
    request = b""
    while not request.endswith(b"\n"):
        chunk = connection.recv(4096)
        if not chunk:
            return
        request += chunk
    connection.sendall(line({"Ok": "Handled"}) + line({"WindowsChanged": {"windows": [window(1, "~")]}}))
    if not wait_for("go", connection):
        return
    if mode == "flood":
        chunk = line({"WindowFocusChanged": {"id": 1}}) * 2048
        while not os.path.exists(os.path.join(folder, "stop")):
            connection.sendall(chunk)
        connection.sendall(line({"WindowOpenedOrChanged": {"window": window(2, "calm")}}))
    elif mode == "title":
        connection.sendall(line({"WindowOpenedOrChanged": {"window": window(2, "x" * (1 << 20))}}))
    elif mode == "windows":
        title = "w" * 1024
        connection.sendall(b"".join(line({"WindowOpenedOrChanged": {"window": window(10 + n, f"{n} {title}", False)}})
                                    for n in range(5000)))
        connection.sendall(b"".join(line({"WindowClosed": {"id": 10 + n}}) for n in range(5000)))
        connection.sendall(line({"WindowOpenedOrChanged": {"window": window(2, "after")}}))
    # Then wait until touchgest hangs up.
    while connection.recv(4096):
        pass


def main():
    server = socket.socket(socket.AF_UNIX)
    server.bind(path)
    server.listen(4)
    with open(os.path.join(folder, "niri.pid"), "w") as pid:
        pid.write(f"{os.getpid()}\n")
    while True:
        connection, _ = server.accept()
        try:
            serve(connection)
        except OSError:
            pass
        connection.close()


if __name__ == "__main__":
    main()
