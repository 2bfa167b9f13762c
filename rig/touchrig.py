#!/usr/bin/python3
"""touchrig: run a program against the real libinput on umockdev-emulated touch devices.

    unshare -m --propagation private /usr/bin/python3 rig/touchrig.py \
        --device touchpad [--device touchscreen] --script gestures.txt -- PROGRAM ARGS...

It emulates the devices (sysfs, udev database, ioctl answers) with umockdev, starts
PROGRAM with the umockdev preload, waits until PROGRAM prints one readiness line per
device (--ready, a regular expression), then plays the gesture script in real time,
writing whole evdev frames to the emulated nodes. PROGRAM's standard output is copied
to ours. docs/testing.md explains the pitfalls this works around.
"""
import argparse
import math
import os
import queue
import re
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time

EV_SYN, EV_KEY, EV_ABS, EV_MSC = 0x00, 0x01, 0x03, 0x04
SYN_REPORT = 0
BTN_LEFT, BTN_TOOL_FINGER, BTN_TOOL_QUINTTAP, BTN_TOUCH = 0x110, 0x145, 0x148, 0x14A
BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP = 0x14D, 0x14E, 0x14F
ABS_X, ABS_Y = 0x00, 0x01
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0x2F, 0x35, 0x36, 0x39
INPUT_PROP_POINTER, INPUT_PROP_DIRECT, INPUT_PROP_BUTTONPAD = 0x00, 0x01, 0x02
TOOL_FOR_FINGERS = {1: BTN_TOOL_FINGER, 2: BTN_TOOL_DOUBLETAP, 3: BTN_TOOL_TRIPLETAP,
                    4: BTN_TOOL_QUADTAP, 5: BTN_TOOL_QUINTTAP}
FRAME_MS = 8  # ~125 Hz, like most touchpads and touchscreens
HERE = os.path.dirname(os.path.abspath(__file__))


def log(message):
    print(f"touchrig: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- devices

class Device:
    """An input device as the kernel would describe it, and its umockdev files."""

    def __init__(self, key, name, kind, number, ids, props, bits, absinfo, dmi=None):
        self.key, self.name, self.kind, self.number = key, name, kind, number
        self.ids = ids              # (bustype, vendor, product, version)
        self.props = props          # set of INPUT_PROP_*
        self.bits = bits            # {ev type: set of codes}
        self.absinfo = absinfo      # {code: (min, max, fuzz, flat, resolution)}
        self.dmi = dmi

    @property
    def node(self):
        return f"/dev/input/event{self.number}"

    @property
    def minor(self):
        return 64 + self.number

    @property
    def syspath(self):
        return f"/sys/devices/virtual/input/input{self.number}/event{self.number}"

    def size_mm(self):
        x, y = self.absinfo[ABS_X], self.absinfo[ABS_Y]
        return (x[1] - x[0]) / x[4], (y[1] - y[0]) / y[4]

    def slots(self):
        return self.absinfo[ABS_MT_SLOT][1] + 1 if ABS_MT_SLOT in self.absinfo else 1

    def udev_properties(self):
        kind = "ID_INPUT_TOUCHPAD" if self.kind == "touchpad" else "ID_INPUT_TOUCHSCREEN"
        return {"ID_INPUT": "1", kind: "1", "ID_SERIAL": "noserial"}

    def umockdev(self):
        lines = [f"P: /devices/virtual/input/input{self.number}/event{self.number}",
                 f"N: input/event{self.number}",
                 f"E: DEVNAME={self.node}"]
        lines += [f"E: {k}={v}" for k, v in self.udev_properties().items()]
        lines += ["E: MAJOR=13", f"E: MINOR={self.minor}", "E: SUBSYSTEM=input",
                  f"A: dev=13:{self.minor}", "", f"P: /devices/virtual/input/input{self.number}",
                  f'E: NAME="{self.name}"', "E: SUBSYSTEM=input",
                  "E: PRODUCT=" + "/".join(f"{i:x}" for i in self.ids), f"A: name={self.name}", ""]
        if self.dmi:
            lines += ["P: /devices/virtual/dmi/id", f"E: MODALIAS={self.dmi}", "E: SUBSYSTEM=dmi",
                      f"A: modalias={self.dmi}", ""]
        return "\n".join(lines) + "\n"

    def udev_db(self):
        # libudev counts a device as initialized only if its database file exists;
        # umockdev 0.17 does not provide it, so the rig writes it under /run/udev.
        lines = [f"I:{int(time.monotonic() * 1e6)}"]
        lines += [f"E:{k}={v}" for k, v in self.udev_properties().items()]
        lines += ["G:seat", "Q:seat", "V:1"]
        return "\n".join(lines) + "\n"

    def ioctl(self):
        def mask(codes, size):
            data = bytearray(size)
            for code in codes:
                data[code // 8] |= 1 << (code % 8)
            return data

        def text(data, size):
            return bytes(data.ljust(size, b"\0")[:size]).hex().upper()

        name = self.name.encode()
        lines = [f"@DEV {self.node}",
                 f"EVIOCGBIT(0) 8 {text(mask(self.bits.keys(), 8), 8)}",
                 f"EVIOCGNAME(0) {len(name) + 1} {text(name, 255)}",
                 "EVIOCGID 0 " + struct.pack("<4H", *self.ids).hex().upper(),
                 "EVIOCGVERSION 0 " + struct.pack("<i", 0x010001).hex().upper(),
                 f"EVIOCGPROP(0) 8 {text(mask(self.props, 8), 8)}",
                 f"EVIOCGBIT(1) 96 {text(mask(self.bits.get(EV_KEY, ()), 96), 96)}",
                 f"EVIOCGKEY(0) 96 {text(b'', 96)}"]
        for ev_type in (2, 3, 4, 5, 17, 18):
            lines.append(f"EVIOCGBIT({ev_type}) 8 {text(mask(self.bits.get(ev_type, ()), 8), 8)}")
        lines.append(f"EVIOCGBIT(21) 16 {text(b'', 16)}")
        lines += [f"EVIOCGLED(0) 8 {text(b'', 8)}", f"EVIOCGSW(0) 8 {text(b'', 8)}"]
        for code in sorted(self.absinfo):
            low, high, fuzz, flat, resolution = self.absinfo[code]
            value = -1 if code == ABS_MT_TRACKING_ID else low
            payload = struct.pack("<6i", value, low, high, fuzz, flat, resolution).hex().upper()
            lines.append(f"EVIOCGABS{'' if code == 0 else f'({code})'} 0 {payload}")
        # libevdev 1.13 asks EVIOCGMTSLOTS for a code plus 256 values, in ascending code order.
        for code in sorted(c for c in self.absinfo if c > ABS_MT_SLOT):
            fill = -1 if code == ABS_MT_TRACKING_ID else 0
            lines.append("EVIOCGMTSLOTS(0) 0 " + struct.pack("<i256i", code, *([fill] * 256)).hex().upper())
        return "\n".join(lines) + "\n"


def clickpad(number=0):
    """A 100x70 mm clickpad with 5 slots, like most laptop touchpads."""
    res = 12
    axis_x, axis_y = (0, 1200, 0, 0, res), (0, 840, 0, 0, res)
    return Device("touchpad", "touchrig Clickpad", "touchpad", number, (0x18, 0x6CB, 0x1234, 0x100),
                  {INPUT_PROP_POINTER, INPUT_PROP_BUTTONPAD},
                  {EV_SYN: {0}, EV_KEY: {BTN_LEFT, BTN_TOUCH, *TOOL_FOR_FINGERS.values()},
                   EV_ABS: {ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID}},
                  {ABS_X: axis_x, ABS_Y: axis_y, ABS_MT_SLOT: (0, 4, 0, 0, 0), ABS_MT_POSITION_X: axis_x,
                   ABS_MT_POSITION_Y: axis_y, ABS_MT_TRACKING_ID: (0, 65535, 0, 0, 0)})


def touchscreen(number=1):
    """A 300x200 mm touchscreen with 10 slots."""
    res = 10
    axis_x, axis_y = (0, 3000, 0, 0, res), (0, 2000, 0, 0, res)
    return Device("touchscreen", "touchrig Touchscreen", "touchscreen", number, (0x3, 0x4321, 0x5678, 0x100),
                  {INPUT_PROP_DIRECT},
                  {EV_SYN: {0}, EV_KEY: {BTN_TOUCH},
                   EV_ABS: {ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID}},
                  {ABS_X: axis_x, ABS_Y: axis_y, ABS_MT_SLOT: (0, 9, 0, 0, 0), ABS_MT_POSITION_X: axis_x,
                   ABS_MT_POSITION_Y: axis_y, ABS_MT_TRACKING_ID: (0, 65535, 0, 0, 0)})


def from_evemu(path, number=2):
    """The device an evemu recording's header describes, and its frames (relative ms, events)."""
    name, ids, props, bits, absinfo, dmi, events = "", (0, 0, 0, 0), set(), {}, {}, None, []
    prop_bytes, bit_bytes = 0, {}
    with open(path) as file:
        for line in file:
            if line.startswith("# DMI: "):
                dmi = line[7:].strip()
            if line.startswith("N: "):
                name = line[3:].strip()
            elif line.startswith("I: "):
                ids = tuple(int(v, 16) for v in line[3:].split())
            elif line.startswith("P: "):
                values = [int(v, 16) for v in line[3:].split()]
                for index, value in enumerate(values):
                    props.update((prop_bytes + index) * 8 + bit for bit in range(8) if value & (1 << bit))
                prop_bytes += len(values)
            elif line.startswith("B: "):
                values = [int(v, 16) for v in line[3:].split()]
                ev_type, data = values[0], values[1:]
                base = bit_bytes.get(ev_type, 0)
                for index, value in enumerate(data):
                    bits.setdefault(ev_type, set()).update(
                        (base + index) * 8 + bit for bit in range(8) if value & (1 << bit))
                bit_bytes[ev_type] = base + len(data)
            elif line.startswith("A: "):
                fields = line[3:].split()
                code, values = int(fields[0], 16), [int(v) for v in fields[1:]]
                resolution = values[4] if len(values) > 4 else 0
                absinfo[code] = (values[0], values[1], values[2], values[3], resolution)
            elif line.startswith("E: "):
                stamp, ev_type, code, value = line[3:].split()[:4]
                seconds, micros = stamp.split(".")
                events.append((int(seconds) * 1000 + int(micros) / 1000, int(ev_type, 16), int(code, 16), int(value)))
    bits = {k: v for k, v in bits.items() if v}
    bits.setdefault(EV_SYN, {0})
    kind = "touchscreen" if INPUT_PROP_DIRECT in props else "touchpad"
    frames, pending = [], []
    for at, ev_type, code, value in events:
        pending.append((ev_type, code, value))
        if ev_type == EV_SYN and code == SYN_REPORT:
            frames.append((at, pending))
            pending = []
    start = frames[0][0] if frames else 0
    frames = [(at - start, events) for at, events in frames]
    return Device("recording", name, kind, number, ids, props, bits, absinfo, dmi), frames


# ---------------------------------------------------------------- gestures

class Fingers:
    """Tracks slots and tracking ids across a script, and turns finger moves into frames."""

    def __init__(self):
        self.next_id = 100
        self.down = {}  # device key -> {slot: (tracking id, x, y)}

    def frame(self, device, placed):
        """Events that move `device`'s fingers to `placed` ({slot: (x mm, y mm)} or {})."""
        before = self.down.setdefault(device.key, {})
        res_x, res_y = device.absinfo[ABS_X][4], device.absinfo[ABS_Y][4]
        events = []
        for slot in sorted(set(before) | set(placed)):
            if slot in placed:
                x, y = round(placed[slot][0] * res_x), round(placed[slot][1] * res_y)
                events.append((EV_ABS, ABS_MT_SLOT, slot))
                if slot not in before:
                    events.append((EV_ABS, ABS_MT_TRACKING_ID, self.next_id))
                    before[slot] = (self.next_id, None, None)
                    self.next_id += 1
                tracking, old_x, old_y = before[slot]
                if x != old_x:
                    events.append((EV_ABS, ABS_MT_POSITION_X, x))
                if y != old_y:
                    events.append((EV_ABS, ABS_MT_POSITION_Y, y))
                before[slot] = (tracking, x, y)
            else:
                events += [(EV_ABS, ABS_MT_SLOT, slot), (EV_ABS, ABS_MT_TRACKING_ID, -1)]
                del before[slot]
        count_before = len(self.down.get(("count", device.key), ()))
        if placed:
            first = before[min(before)]
            events += [(EV_ABS, ABS_X, first[1]), (EV_ABS, ABS_Y, first[2])]
        if (count_before == 0) != (len(placed) == 0):
            events.append((EV_KEY, BTN_TOUCH, 1 if placed else 0))
        if device.kind == "touchpad" and count_before != len(placed):
            if count_before:
                events.append((EV_KEY, TOOL_FOR_FINGERS[min(count_before, 5)], 0))
            if placed:
                events.append((EV_KEY, TOOL_FOR_FINGERS[min(len(placed), 5)], 1))
        self.down[("count", device.key)] = tuple(placed)
        return events + [(EV_SYN, SYN_REPORT, 0)]


def spread(count, x, y, spacing=12.0):
    """`count` fingers in a row centred on x, y, `spacing` mm apart."""
    return {slot: (x + (slot - (count - 1) / 2) * spacing, y) for slot in range(count)}


def parse_duration(text):
    match = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s)", text)
    if not match:
        raise ValueError(f"not a duration: {text!r} (write 250ms or 1.5s)")
    return float(match[1]) * (1 if match[2] == "ms" else 1000)


def parse_point(text):
    x, y = text.split(",")
    return float(x), float(y)


def compile_script(lines, devices, fingers):
    """Gesture script lines -> steps: ("frame", at_ms, device, events) / ("remove"|"add", at_ms, device)."""
    steps, now, current = [], 0.0, None
    by_key = {d.key: d for d in devices}

    def emit(at, placed):
        steps.append(("frame", at, current, fingers.frame(current, placed)))

    for number, raw in enumerate(lines, 1):
        line = raw.split("#")[0].strip()
        if not line:
            continue
        words = line.split()
        try:
            verb = words[0]
            if verb == "device":
                current = by_key[words[1]]
            elif verb == "wait":
                now += parse_duration(words[1])
            elif verb in ("remove", "add"):
                steps.append((verb, now, by_key[words[1]]))
            elif verb == "shell":
                steps.append(("shell", now, line[len("shell"):].strip()))
            elif verb == "signal":
                steps.append(("signal", now, words[1]))
            elif verb == "stats":
                steps.append(("stats", now, None))
            elif verb == "replay":
                device, frames = from_evemu(words[1])
                for at, events in frames:
                    steps.append(("frame", now + at, by_key["recording"], events))
                now += frames[-1][0] if frames else 0
            elif verb == "click":
                # A physical click on a clickpad: fingers rest, the pad is pressed, released, lifted.
                count = int(words[1])
                rest = dict(zip(words[2::2], words[3::2]))
                x, y = parse_point(rest["at"])
                placed = spread(count, x, y)
                emit(now, placed)
                now += 120
                steps.append(("frame", now, current, [(EV_KEY, BTN_LEFT, 1), (EV_SYN, SYN_REPORT, 0)]))
                now += 90
                steps.append(("frame", now, current, [(EV_KEY, BTN_LEFT, 0), (EV_SYN, SYN_REPORT, 0)]))
                now += 60
                emit(now, {})
            elif verb in ("tap", "hold", "touch", "down", "up", "pinch", "rotate"):
                count = int(words[1])
                rest = dict(zip(words[2::2], words[3::2]))
                x, y = parse_point(rest["at"])
                spacing = float(rest.get("spacing", "12"))
                if verb == "tap":
                    emit(now, spread(count, x, y, spacing))
                    now += parse_duration(rest.get("for", "60ms"))
                    emit(now, {})
                elif verb == "hold":
                    emit(now, spread(count, x, y, spacing))
                    end = now + parse_duration(rest["for"])
                    # A resting finger still reports now and then; libinput needs no events.
                    now = end
                    emit(now, {})
                elif verb == "down":
                    emit(now, spread(count, x, y, spacing))
                elif verb == "up":
                    emit(now, {})
                elif verb == "touch":
                    dx, dy = parse_point(rest["move"])
                    over = parse_duration(rest["over"])
                    start = spread(count, x, y, spacing)
                    emit(now, start)
                    frames = max(1, int(over // FRAME_MS))
                    for index in range(1, frames + 1):
                        f = index / frames
                        emit(now + over * f, {s: (px + dx * f, py + dy * f) for s, (px, py) in start.items()})
                    now += over
                    if rest.get("lift", "yes") == "yes":
                        now += FRAME_MS
                        emit(now, {})
                elif verb in ("pinch", "rotate"):
                    over = parse_duration(rest["over"])
                    frames = max(1, int(over // FRAME_MS))
                    if verb == "pinch":
                        start_gap, end_gap = float(rest["from"]), float(rest["to"])
                        turn = 0.0
                    else:
                        start_gap = end_gap = float(rest.get("radius", "15")) * 2
                        turn = math.radians(float(rest["by"]))

                    def place(f):
                        gap = start_gap + (end_gap - start_gap) * f
                        angle = turn * f
                        placed = {}
                        for slot in range(count):
                            theta = angle + math.pi * 2 * slot / count
                            placed[slot] = (x + gap / 2 * math.cos(theta), y + gap / 2 * math.sin(theta))
                        return placed

                    emit(now, place(0))
                    for index in range(1, frames + 1):
                        emit(now + over * index / frames, place(index / frames))
                    now += over + FRAME_MS
                    emit(now, {})
            else:
                raise ValueError(f"unknown step {verb!r}")
        except (KeyError, IndexError, ValueError) as error:
            raise SystemExit(f"touchrig: script line {number}: {raw.strip()!r}: {error}")
    return steps


# ---------------------------------------------------------------- the harness

def write_frame(fd, events, lead_us=2000):
    """Writes a whole frame at once, stamped a little ahead on CLOCK_MONOTONIC."""
    stamp = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000 + lead_us
    seconds, micros = divmod(stamp, 1_000_000)
    data = b"".join(struct.pack("llHHi", seconds, micros, t, c, v) for t, c, v in events)
    written = 0
    while written < len(data):
        written += os.write(fd, data[written:])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", action="append", default=[],
                        help="touchpad, touchscreen, or recording:FILE (an evemu recording's device)")
    parser.add_argument("--script", required=True, help="gesture script file, or - for standard input")
    parser.add_argument("--ready", default=r"(?i)device.*added|DEVICE_ADDED",
                        help="regular expression of the line PROGRAM prints once per device when ready")
    parser.add_argument("--ready-count", type=int,
                        help="readiness lines to wait for at start (default: one per device present)")
    parser.add_argument("--settle", default="400ms", help="quiet time after the script before PROGRAM is stopped")
    parser.add_argument("--signal", default="INT", help="signal that stops PROGRAM")
    parser.add_argument("--timestamps", action="store_true",
                        help="prefix PROGRAM's lines with milliseconds since it was started")
    parser.add_argument("--merge-stderr", action="store_true",
                        help="read PROGRAM's standard error too (for readiness and output)")
    parser.add_argument("--late", action="append", default=[],
                        help="a --device that is not there at start; the script adds it with 'add'")
    parser.add_argument("program", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    program = args.program[1:] if args.program[:1] == ["--"] else args.program
    if not program:
        parser.error("give the program to run after --")

    # The testbed's uevent() builds events with libudev in this very process, so this
    # process must run under umockdev's preload too (as umockdev-wrapper would do).
    if "libumockdev-preload" not in os.environ.get("LD_PRELOAD", ""):
        env = dict(os.environ, LD_PRELOAD="libumockdev-preload.so.0")
        os.execve(sys.executable, [sys.executable] + sys.argv, env)

    import gi
    gi.require_version("UMockdev", "1.0")
    from gi.repository import UMockdev

    devices, number = [], 0
    for spec in args.device:
        if spec == "touchpad":
            devices.append(clickpad(number))
        elif spec == "touchscreen":
            devices.append(touchscreen(number))
        elif spec.startswith("recording:"):
            devices.append(from_evemu(spec.split(":", 1)[1], number)[0])
        else:
            parser.error(f"unknown device {spec!r}")
        number += 1
    late = {d.key for d in devices if d.key in args.late or any(s.endswith(d.key) for s in args.late)}

    script = sys.stdin.read().splitlines() if args.script == "-" else open(args.script).read().splitlines()
    steps = compile_script(script, devices, Fingers())

    # A private /run: libudev looks there for the database the rig writes.
    if os.environ.get("TOUCHRIG_NO_NAMESPACE") != "1":
        if subprocess.run(["mount", "-t", "tmpfs", "touchrig", "/run"]).returncode != 0:
            raise SystemExit("touchrig: cannot mount a private /run; run me under unshare -m as root "
                             "(or unshare -rm)")
    os.makedirs("/run/udev/data", exist_ok=True)

    testbed = UMockdev.Testbed.new()
    work = tempfile.mkdtemp(prefix="touchrig-")

    def plug(device):
        with open(f"/run/udev/data/c13:{device.minor}", "w") as db:
            db.write(device.udev_db())
        testbed.add_from_string(device.umockdev())
        ioctl_path = f"{work}/{device.key}.ioctl"
        with open(ioctl_path, "w") as file:
            file.write(device.ioctl())
        testbed.load_ioctl(device.node, ioctl_path)

    for device in devices:
        if device.key not in late:
            plug(device)

    preload = os.path.join(work, "touchrig-preload.so")
    built = subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-o", preload,
                            os.path.join(HERE, "touchrig-preload.c"), "-ldl"], capture_output=True, text=True)
    if built.returncode != 0:
        raise SystemExit(f"touchrig: cannot build the preload library:\n{built.stderr}")
    repair_log = os.path.join(work, "repairs")
    env = dict(os.environ, UMOCKDEV_DIR=testbed.get_root_dir(), TOUCHRIG_REPAIR_LOG=repair_log,
               LD_PRELOAD=f"{preload}:libumockdev-preload.so.0")

    spawned = time.monotonic()
    child = subprocess.Popen(program, stdout=subprocess.PIPE, env=env, text=True, bufsize=1,
                             stderr=subprocess.STDOUT if args.merge_stderr else None)
    lines = queue.Queue()

    def pump():
        for line in child.stdout:
            if args.timestamps:
                line = f"[{(time.monotonic() - spawned) * 1000:.1f} ms] {line}"
            sys.stdout.write(line)
            sys.stdout.flush()
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    ready_pattern = re.compile(args.ready)

    def wait_ready(count, timeout=15.0):
        seen, end = 0, time.monotonic() + timeout
        while seen < count:
            try:
                line = lines.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                raise SystemExit(f"touchrig: PROGRAM printed {seen} of {count} readiness lines in {timeout}s")
            if line is None:
                raise SystemExit(f"touchrig: PROGRAM exited before it was ready (status {child.wait()})")
            if ready_pattern.search(line):
                seen += 1
        # libinput drains the node when it opens it: let it finish before writing.
        time.sleep(0.15)

    wait_ready(args.ready_count if args.ready_count is not None else len(devices) - len(late))
    fds = {}
    start = time.monotonic()
    for step in steps:
        kind, at, device = step[0], step[1], step[2]
        delay = start + at / 1000 - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        if kind == "frame":
            if device.node not in fds:
                fds[device.node] = testbed.get_dev_fd(device.node)
            write_frame(fds[device.node], step[3])
        elif kind == "remove":
            fds.pop(device.node, None)
            testbed.uevent(device.syspath, "remove")
            testbed.remove_device(device.syspath)
        elif kind == "shell":
            subprocess.run(device, shell=True, check=False)
        elif kind == "signal":
            child.send_signal(getattr(signal, f"SIG{device}"))
        elif kind == "stats":
            # Resident memory and how often the program went to sleep and woke (voluntary
            # context switches): the wake-ups of a poll loop.
            fields = dict(line.split(":", 1) for line in open(f"/proc/{child.pid}/status") if ":" in line)
            print(f"touchrig: stats rss {fields['VmRSS'].strip()} wakeups {fields['voluntary_ctxt_switches'].strip()}",
                  flush=True)
        elif kind == "add":
            plug(device)
            testbed.uevent(device.syspath, "add")
            wait_ready(1)
            start += 0.15 + (time.monotonic() - start - at / 1000)
    time.sleep(parse_duration(args.settle) / 1000)
    child.send_signal(getattr(signal, f"SIG{args.signal}"))
    try:
        status = child.wait(timeout=10)
    except subprocess.TimeoutExpired:
        child.kill()
        status = child.wait()
    while lines.get() is not None:
        pass
    repairs = open(repair_log).read().count("repaired") if os.path.exists(repair_log) else 0
    if repairs:
        log(f"repaired {repairs} partial reads")
    sys.exit(status if status >= 0 else 128 - status)


if __name__ == "__main__":
    main()
