#!/usr/bin/env python3
"""A touchgest stream consumer: sway's workspaces follow a 3-finger slide.

Every 30 mm the fingers travel left shows the next workspace, every 30 mm right the
previous one, and moving back goes back, while the fingers are still down.

    [rule.workspace-slide]
    gesture = "pan"
    fingers = 3
    stream = "python3 ~/.config/touchgest/sway-workspace-slide.py"
"""
import json
import subprocess
import sys

STEP_MM = 30
shown = 0  # workspaces moved in this gesture: + next, - previous

for line in sys.stdin:
    event = json.loads(line)
    if event["phase"] == "began":
        shown = 0
    if event["dx"] is None:
        continue
    wanted = int(-event["dx"] / STEP_MM)
    while shown != wanted:
        step = "next_on_output" if wanted > shown else "prev_on_output"
        subprocess.run(["swaymsg", "-q", "workspace", step], check=False)
        shown += 1 if wanted > shown else -1
