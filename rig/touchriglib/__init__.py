"""The parts of rig/touchrig.py: evdev codes, emulated devices, gesture scripts."""
