"""Readable gesture scripts turned into evdev frames."""
import math
import re

from .codes import *  # noqa: F403
from .devices import from_evemu

FRAME_MS = 8  # ~125 Hz, like most touchpads and touchscreens

class Fingers:
    """Tracks slots and tracking ids across a script, and turns finger moves into frames."""

    def __init__(self):
        self.next_id = 100
        self.down = {}  # device key -> {slot: (tracking id, x, y)}
        self.resting = {}  # device key -> (x mm, y mm) of a finger resting in the last slot
        self.placed = {}  # device key -> the other fingers, {slot: (x mm, y mm)}, as last placed

    def frame(self, device, placed, palm=None):
        """Events that move `device`'s fingers to `placed` ({slot: (x mm, y mm)} or {}), with a
        palm (x mm, y mm) in the last slot, marked MT_TOOL_PALM, when `palm` is given."""
        before = self.down.setdefault(device.key, {})
        self.placed[device.key] = dict(placed)
        palm_slot = device.slots() - 1
        if palm is not None:
            if ABS_MT_TOOL_TYPE not in device.absinfo:
                raise ValueError(f"{device.key} cannot mark a palm: use the palmpad device")
            placed = dict(placed)
            placed[palm_slot] = palm
        if device.key in self.resting:
            if palm is not None or palm_slot in placed:
                raise ValueError("the resting finger holds the last slot: no palm and no fingers there while it rests")
            placed = dict(placed)
            placed[palm_slot] = self.resting[device.key]
        fingers = len(placed)
        if device.semi_mt and fingers >= 2:
            # A semi-MT pad cannot tell fingers apart: its two slots are the corners of
            # the box around them, and BTN_TOOL_* says how many there are.
            xs, ys = [p[0] for p in placed.values()], [p[1] for p in placed.values()]
            placed = {0: (min(xs), min(ys)), 1: (max(xs), max(ys))}
        elif device.semi_mt and placed:
            placed = {0: next(iter(placed.values()))}
        events = []
        for slot in sorted(set(before) | set(placed)):
            if slot in placed:
                x = device.units(ABS_MT_POSITION_X, placed[slot][0])
                y = device.units(ABS_MT_POSITION_Y, placed[slot][1])
                events.append((EV_ABS, ABS_MT_SLOT, slot))
                if slot not in before:
                    events.append((EV_ABS, ABS_MT_TRACKING_ID, self.next_id))
                    if ABS_MT_TOOL_TYPE in device.absinfo:
                        tool = MT_TOOL_PALM if palm is not None and slot == palm_slot else MT_TOOL_FINGER
                        events.append((EV_ABS, ABS_MT_TOOL_TYPE, tool))
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
        count_before = self.down.get(("count", device.key), 0)
        if placed:
            first = before[min(before)]
            events += [(EV_ABS, ABS_X, first[1]), (EV_ABS, ABS_Y, first[2])]
        if ABS_PRESSURE in device.absinfo and (count_before == 0) != (fingers == 0):
            # A finger's pressure, well above libinput's touch threshold; 0 when lifted.
            events.append((EV_ABS, ABS_PRESSURE, 70 if fingers else 0))
        if (count_before == 0) != (fingers == 0):
            events.append((EV_KEY, BTN_TOUCH, 1 if fingers else 0))
        if device.kind == "touchpad" and count_before != fingers:
            if count_before:
                events.append((EV_KEY, TOOL_FOR_FINGERS[min(count_before, 5)], 0))
            if fingers:
                events.append((EV_KEY, TOOL_FOR_FINGERS[min(fingers, 5)], 1))
        self.down[("count", device.key)] = fingers
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


def along(corners, lengths, distance):
    """The point `distance` mm along the polyline through `corners` (whose sides are `lengths`)."""
    for (a, b), length in zip(zip(corners, corners[1:]), lengths):
        if distance <= length and length > 0:
            f = distance / length
            return a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f
        distance -= length
    return corners[-1]


def compile_script(lines, devices, fingers):
    """Gesture script lines -> steps: ("frame", at_ms, device, events) / ("remove"|"add", at_ms, device)."""
    steps, now, current = [], 0.0, None
    by_key = {d.key: d for d in devices}

    def emit(at, placed, palm=None):
        steps.append(("frame", at, current, fingers.frame(current, placed, palm)))

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
                if verb == "remove":
                    # A device that goes away takes its fingers with it: one added again
                    # starts with none down.
                    fingers.down.pop(words[1], None)
                    fingers.down.pop(("count", words[1]), None)
                    fingers.resting.pop(words[1], None)
                    fingers.placed.pop(words[1], None)
            elif verb == "shell":
                steps.append(("shell", now, line[len("shell"):].strip()))
            elif verb == "await":
                # Wait for PROGRAM to print a line containing the rest of this line; the
                # steps after it are timed from the moment it came.
                steps.append(("await", now, line[len("await"):].strip()))
            elif verb == "signal":
                steps.append(("signal", now, words[1]))
            elif verb == "stats":
                steps.append(("stats", now, None))
            elif verb == "replay":
                device, frames = from_evemu(words[1])
                for at, events in frames:
                    # Marked as recorded: stamped with the recording's own spacing.
                    steps.append(("frame", now + at, by_key["recording"], events, "recorded"))
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
            elif verb == "rest":
                # `rest at X,Y`: a finger (a thumb) lands there and rests in the pad's last
                # slot while the other steps' fingers come and go, until `rest up`.
                if words[1] == "up":
                    fingers.resting.pop(current.key, None)
                else:
                    fingers.resting[current.key] = parse_point(words[words.index("at") + 1])
                emit(now, fingers.placed.get(current.key, {}))
            elif verb in ("press", "release"):
                # `press left` / `release left`: the clickpad is pressed down (or let go) under
                # the fingers resting on it, with no time passing. On the keyboard,
                # `press leftmeta` / `release leftmeta` hold a key down or let it go.
                codes = KEYS if current.kind == "keyboard" else {"left": BTN_LEFT}
                steps.append(("frame", now, current, [(EV_KEY, codes[words[1]], 1 if verb == "press" else 0), (EV_SYN, SYN_REPORT, 0)]))
            elif verb == "type":
                # `type TEXT [every 30ms]` on the keyboard: each letter, digit or space pressed
                # and released in turn, a capital with the left Shift held around it.
                text = words[1]
                every = parse_duration(words[words.index("every") + 1]) if "every" in words else 30
                for character in text:
                    down = [(KEY_LEFTSHIFT, 1)] if character.isupper() else []
                    up = [(KEY_LEFTSHIFT, 0)] if character.isupper() else []
                    for code, value in down + [(KEYS[character.lower()], 1), (KEYS[character.lower()], 0)] + up:
                        steps.append(("frame", now, current, [(EV_KEY, code, value), (EV_SYN, SYN_REPORT, 0)]))
                        now += every / 2
            elif verb == "stroke":
                # `stroke N at X,Y through DX,DY DX,DY ... over T [spacing S] [lift no]`: N
                # fingers drawing the polyline from X,Y through each offset from X,Y in turn,
                # at an even speed, then lifting (or, with `lift no`, staying down until an
                # `up`): a shape for touchgest's stroke rules.
                count = int(words[1])
                x, y = parse_point(words[words.index("at") + 1])
                corners = [(0.0, 0.0)] + [parse_point(p) for p in words[words.index("through") + 1:words.index("over")]]
                over = parse_duration(words[words.index("over") + 1])
                spacing = float(words[words.index("spacing") + 1]) if "spacing" in words else 12.0
                lengths = [math.dist(a, b) for a, b in zip(corners, corners[1:])]
                start = spread(count, x, y, spacing)
                emit(now, start)
                frames = max(1, int(over // FRAME_MS))
                for index in range(1, frames + 1):
                    dx, dy = along(corners, lengths, sum(lengths) * index / frames)
                    emit(now + over * index / frames, {s: (px + dx, py + dy) for s, (px, py) in start.items()})
                now += over
                if "lift" not in words or words[words.index("lift") + 1] == "yes":
                    now += FRAME_MS
                    emit(now, {})
            elif verb in ("tap", "hold", "touch", "down", "up", "pinch", "rotate"):
                count = int(words[1])
                rest = dict(zip(words[2::2], words[3::2]))
                x, y = parse_point(rest["at"])
                spacing = float(rest.get("spacing", "12"))
                if verb == "tap":
                    # `palm X,Y`: a palm rests there while the fingers tap (palmpad only).
                    palm = parse_point(rest["palm"]) if "palm" in rest else None
                    emit(now, spread(count, x, y, spacing), palm)
                    now += parse_duration(rest.get("for", "60ms"))
                    emit(now, {})
                elif verb == "hold":
                    start = spread(count, x, y, spacing)
                    emit(now, start)
                    end = now + parse_duration(rest["for"])
                    wobble = float(rest.get("wobble", "0"))
                    if wobble:
                        # Resting fingertips on glass wobble: each finger drifts on its own
                        # circle of `wobble` mm across, one frame in two.
                        at, step = now, 0
                        while at + 2 * FRAME_MS < end:
                            at += 2 * FRAME_MS
                            step += 1
                            emit(at, {s: (px + wobble / 2 * math.cos(step / 5 + s * 2.1),
                                           py + wobble / 2 * math.sin(step / 5 + s * 2.1))
                                      for s, (px, py) in start.items()})
                    # Without a wobble a resting finger reports nothing; libinput needs no events.
                    now = end
                    emit(now, {})
                elif verb == "down":
                    emit(now, spread(count, x, y, spacing))
                elif verb == "up":
                    emit(now, {})
                elif verb == "touch":
                    dx, dy = parse_point(rest["move"])
                    over = parse_duration(rest["over"])
                    # `still 1,2`: these fingers (slots) stay where they landed.
                    still = {int(slot) for slot in rest.get("still", "").split(",") if slot}
                    start = spread(count, x, y, spacing)
                    emit(now, start)
                    frames = max(1, int(over // FRAME_MS))
                    for index in range(1, frames + 1):
                        f = index / frames
                        emit(now + over * f, {s: (px, py) if s in still else (px + dx * f, py + dy * f)
                                              for s, (px, py) in start.items()})
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
    # A script that ends with `wait` means it: the program gets that long before --settle.
    steps.append(("end", now, None))
    return steps


