"""Kernel input event codes the rig uses (linux/input-event-codes.h)."""

EV_SYN, EV_KEY, EV_ABS, EV_MSC = 0x00, 0x01, 0x03, 0x04
SYN_REPORT = 0
BTN_LEFT, BTN_RIGHT, BTN_MIDDLE, BTN_TOOL_FINGER, BTN_TOOL_QUINTTAP, BTN_TOUCH = 0x110, 0x111, 0x112, 0x145, 0x148, 0x14A
BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP = 0x14D, 0x14E, 0x14F
ABS_X, ABS_Y, ABS_PRESSURE, ABS_TOOL_WIDTH = 0x00, 0x01, 0x18, 0x1C
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0x2F, 0x35, 0x36, 0x39
ABS_MT_TOOL_TYPE, MT_TOOL_FINGER, MT_TOOL_PALM = 0x37, 0, 2
INPUT_PROP_POINTER, INPUT_PROP_DIRECT, INPUT_PROP_BUTTONPAD, INPUT_PROP_SEMI_MT = 0x00, 0x01, 0x02, 0x03
TOOL_FOR_FINGERS = {1: BTN_TOOL_FINGER, 2: BTN_TOOL_DOUBLETAP, 3: BTN_TOOL_TRIPLETAP,
                    4: BTN_TOOL_QUADTAP, 5: BTN_TOOL_QUINTTAP}

# Keyboard keys by the names scripts use (KEY_* in linux/input-event-codes.h).
KEYS = {"leftctrl": 29, "rightctrl": 97, "leftshift": 42, "rightshift": 54, "leftalt": 56, "rightalt": 100,
        "leftmeta": 125, "rightmeta": 126, "capslock": 58, "space": 57, "enter": 28, "minus": 12}
KEYS.update({digit: 2 + index for index, digit in enumerate("123456789")})
KEYS["0"] = 11
for row, first in (("qwertyuiop", 16), ("asdfghjkl", 30), ("zxcvbnm", 44)):
    KEYS.update({letter: first + index for index, letter in enumerate(row)})
KEY_LEFTSHIFT = KEYS["leftshift"]
