"""Emulated input devices: their umockdev description, udev database entry and ioctl answers."""
import struct
import time

from .codes import *  # noqa: F403 (the kernel's names, as in C)

class Device:
    """An input device as the kernel would describe it, and its umockdev files."""

    def __init__(self, key, name, kind, number, ids, props, bits, absinfo, dmi=None, density=None):
        self.key, self.name, self.kind, self.number = key, name, kind, number
        self.ids = ids              # (bustype, vendor, product, version)
        self.props = props          # set of INPUT_PROP_*
        self.bits = bits            # {ev type: set of codes}
        self.absinfo = absinfo      # {code: (min, max, fuzz, flat, resolution)}
        self.dmi = dmi
        # Units per mm of the emulated glass when the axes report no resolution: what
        # scripts in millimetres are turned into; the software under test is not told.
        self.density = density

    @property
    def semi_mt(self):
        return INPUT_PROP_SEMI_MT in self.props

    def units_per_mm(self, code):
        resolution = self.absinfo[code][4]
        return resolution if resolution else (self.density or 1)

    def units(self, code, mm):
        """Raw axis value for `mm` millimetres from the surface's top-left corner."""
        low, high = self.absinfo[code][0], self.absinfo[code][1]
        return max(low, min(high, low + round(mm * self.units_per_mm(code))))

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
        return (x[1] - x[0]) / self.units_per_mm(ABS_X), (y[1] - y[0]) / self.units_per_mm(ABS_Y)

    def slots(self):
        return self.absinfo[ABS_MT_SLOT][1] + 1 if ABS_MT_SLOT in self.absinfo else 1

    def udev_properties(self):
        if self.kind == "keyboard":
            # What udev's input_id gives a keyboard: keys, and the first 32 of them.
            return {"ID_INPUT": "1", "ID_INPUT_KEY": "1", "ID_INPUT_KEYBOARD": "1", "ID_SERIAL": "noserial"}
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


def keyboard(number=2):
    """A USB keyboard: every key from KEY_ESC to KEY_MICMUTE, nothing else."""
    return Device("keyboard", "touchrig Keyboard", "keyboard", number, (0x3, 0x4B4, 0x7, 0x111),
                  set(), {EV_SYN: {0}, EV_KEY: set(range(1, 249))}, {})


def palm_clickpad(number=0):
    """The clickpad with ABS_MT_TOOL_TYPE, so a contact can be marked a palm (MT_TOOL_PALM),
    as many I2C-HID pads do (the Dell XPS 13 of the recordings)."""
    device = clickpad(number)
    device.key, device.name = "palmpad", "touchrig Palm Clickpad"
    device.bits[EV_ABS].add(ABS_MT_TOOL_TYPE)
    device.absinfo[ABS_MT_TOOL_TYPE] = (0, 2, 0, 0, 0)
    return device


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


def panel(number=1):
    """A cheap 9-inch 1024x600 touchscreen that reports no resolution, with 10 slots.

    Such panels (USB and I2C controllers on embedded and hobby displays) report axes in
    pixels and resolution 0; the glass is about 197x115 mm, 5.2 units/mm.
    """
    axis_x, axis_y = (0, 1023, 0, 0, 0), (0, 599, 0, 0, 0)
    return Device("panel", "touchrig Panel", "touchscreen", number, (0x3, 0x1A86, 0xE5E3, 0x100),
                  {INPUT_PROP_DIRECT},
                  {EV_SYN: {0}, EV_KEY: {BTN_TOUCH},
                   EV_ABS: {ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID}},
                  {ABS_X: axis_x, ABS_Y: axis_y, ABS_MT_SLOT: (0, 9, 0, 0, 0), ABS_MT_POSITION_X: axis_x,
                   ABS_MT_POSITION_Y: axis_y, ABS_MT_TRACKING_ID: (0, 65535, 0, 0, 0)}, density=5.2)


def semi_mt_touchpad(number=0):
    """A semi-MT PS/2 Synaptics touchpad, as on laptops up to about 2012.

    The header of a real one (the kernel's psmouse driver; libinput's own test device
    for it is the same): bus i8042, Synaptics' PS/2 ids, INPUT_PROP_SEMI_MT, two slots
    that hold the corners of a box around the fingers, the finger count in
    BTN_TOOL_FINGER/DOUBLETAP/TRIPLETAP, x 1472..5472 at 60 units/mm and y 1408..4498
    at 85 units/mm (67x36 mm), pressure 0..255, two buttons.
    """
    axis_x, axis_y = (1472, 5472, 0, 0, 60), (1408, 4498, 0, 0, 85)
    return Device("semimt", "touchrig SynPS/2 Synaptics TouchPad", "touchpad", number, (0x11, 0x2, 0x7, 0x1B1),
                  {INPUT_PROP_POINTER, INPUT_PROP_SEMI_MT},
                  {EV_SYN: {0},
                   EV_KEY: {BTN_LEFT, BTN_RIGHT, BTN_TOUCH, BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP},
                   EV_ABS: {ABS_X, ABS_Y, ABS_PRESSURE, ABS_TOOL_WIDTH, ABS_MT_SLOT, ABS_MT_POSITION_X,
                            ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID}},
                  {ABS_X: axis_x, ABS_Y: axis_y, ABS_PRESSURE: (0, 255, 0, 0, 0), ABS_TOOL_WIDTH: (0, 15, 0, 0, 0),
                   ABS_MT_SLOT: (0, 1, 0, 0, 0), ABS_MT_POSITION_X: axis_x, ABS_MT_POSITION_Y: axis_y,
                   ABS_MT_TRACKING_ID: (0, 65535, 0, 0, 0)})


def alps_semi_mt_touchpad(number=0):
    """A semi-MT PS/2 ALPS GlidePoint that reports no resolution, as on laptops of about 2010.

    Modelled on what the kernel's alps driver declares for a semi-MT pad: bus i8042,
    ALPS' PS/2 ids (libinput's quirk marks them ModelALPSSerialTouchpad),
    INPUT_PROP_SEMI_MT, two slots holding the corners of a box around the fingers, the
    oldest slot copied to ABS_X/ABS_Y, x 0..2000 and y 0..1400 with resolution 0. libinput then assumes a 69x50 mm pad (tp_init_default_resolution):
    29 and 28 units/mm; scripts are written at 29 units/mm.
    """
    axis_x, axis_y = (0, 2000, 0, 0, 0), (0, 1400, 0, 0, 0)
    return Device("alps", "touchrig AlpsPS/2 ALPS GlidePoint", "touchpad", number, (0x11, 0x2, 0x8, 0x300),
                  {INPUT_PROP_POINTER, INPUT_PROP_SEMI_MT},
                  {EV_SYN: {0},
                   EV_KEY: {BTN_LEFT, BTN_RIGHT, BTN_MIDDLE, BTN_TOUCH, BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP,
                            BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP},
                   EV_ABS: {ABS_X, ABS_Y, ABS_PRESSURE, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y,
                            ABS_MT_TRACKING_ID}},
                  {ABS_X: axis_x, ABS_Y: axis_y, ABS_PRESSURE: (0, 127, 0, 0, 0), ABS_MT_SLOT: (0, 1, 0, 0, 0),
                   ABS_MT_POSITION_X: axis_x, ABS_MT_POSITION_Y: axis_y, ABS_MT_TRACKING_ID: (0, 65535, 0, 0, 0)},
                  density=29)


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


