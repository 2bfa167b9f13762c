#!/usr/bin/env python3
"""A hostile stand-in Wayland compositor, NOT a real one: it speaks just enough of the
Wayland wire format (wl_registry.global, wl_callback.done) to reach or stall a client's
handshake, then misbehaves. For measuring touchgest's input channel by hand
(docs/input-actions.md, "Hostile compositors"):

    rig/hostile-wayland.py MODE SOCKET [SECONDS]

MODE: globals  lists globals without end, never answers the sync
      flood    shakes hands, then sends wl_display.delete_id events without pause
      flap     shakes hands, then hangs up, for every connection
      stall    shakes hands, then never reads again
It prints one line per connection accepted, and stops after SECONDS (default 10)."""
import os, socket, struct, sys, threading, time

mode, path = sys.argv[1], sys.argv[2]
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 10.0


def message(obj, opcode, body=b""):
    return struct.pack("<II", obj, (8 + len(body)) << 16 | opcode) + body


def string(text):
    data = text.encode() + b"\0"
    return struct.pack("<I", len(data)) + data + b"\0" * (-len(data) % 4)


def glob(name, interface, version):
    return message(2, 0, struct.pack("<I", name) + string(interface) + struct.pack("<I", version))


def handshake():
    return glob(1, "wl_seat", 7) + glob(2, "zwp_virtual_keyboard_manager_v1", 1) + message(3, 0, struct.pack("<I", 1))


def serve(conn):
    try:
        conn.recv(24)
        if mode == "globals":
            name = 3
            while True:
                conn.sendall(glob(name, f"hostile_global_{name}", 1))
                name += 1
        conn.sendall(handshake())
        if mode == "flap":
            time.sleep(0.05)
            conn.close()
        elif mode == "flood":
            events = b"".join(message(1, 1, struct.pack("<I", i)) for i in range(1024))
            while True:
                conn.sendall(events)
        elif mode == "stall":
            threading.Event().wait()
    except OSError:
        pass


try:
    os.unlink(path)
except FileNotFoundError:
    pass
server = socket.socket(socket.AF_UNIX)
server.bind(path)
server.listen(8)
end = time.monotonic() + seconds
server.settimeout(0.2)
count = 0
while time.monotonic() < end:
    try:
        conn, _ = server.accept()
    except socket.timeout:
        continue
    count += 1
    print(f"hostile-wayland: connection {count}", flush=True)
    threading.Thread(target=serve, args=(conn,), daemon=True).start()
