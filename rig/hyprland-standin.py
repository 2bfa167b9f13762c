#!/usr/bin/python3
"""A stand-in for Hyprland's request socket, as its wiki documents it (not Hyprland, which
cannot run here): the end-to-end tests of desktop-gestures = "yield" (HyprlandYieldTests).

Usage: hyprland-standin.py FOLDER

Listens on FOLDER/hypr/standin/.socket.sock (the socket of HYPRLAND_INSTANCE_SIGNATURE=standin
with XDG_RUNTIME_DIR=FOLDER). Each connection carries one request and gets one answer, then
is closed, as Hyprland does: `j/getoption NAME` answers {"option": NAME, "int": V, "set":
true}, or "no such option"; `keyword NAME VALUE` sets it and answers "ok". It keeps the
options of a Hyprland before 0.51 with its workspace swipe on for 3 fingers, appends each
request to FOLDER/requests and each option's value after it to FOLDER/options, writes its
pid to FOLDER/hyprland.pid, and runs until killed.
"""
import json
import os
import socket
import sys

folder = sys.argv[1]
place = os.path.join(folder, "hypr", "standin")
os.makedirs(place, exist_ok=True)
path = os.path.join(place, ".socket.sock")
options = {"gestures:workspace_swipe": 1, "gestures:workspace_swipe_fingers": 3, "gestures:workspace_swipe_min_fingers": 0}

with open(os.path.join(folder, "hyprland.pid"), "w") as file:
    file.write(f"{os.getpid()}\n")

listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
listener.bind(path + ".new")
os.rename(path + ".new", path)
listener.listen(8)


def answer(request):
    words = request.split(" ")
    if len(words) == 2 and words[0] == "j/getoption":
        if words[1] not in options:
            return "no such option"
        return json.dumps({"option": words[1], "int": options[words[1]], "set": True})
    if len(words) == 3 and words[0] == "keyword" and words[1] in options:
        options[words[1]] = 1 if words[2] in ("true", "1") else 0
        return "ok"
    return "invalid command"


while True:
    connection, _ = listener.accept()
    with connection:
        request = connection.recv(4096).decode()
        reply = answer(request)
        with open(os.path.join(folder, "requests"), "a") as file:
            file.write(request + "\n")
        with open(os.path.join(folder, "options"), "a") as file:
            file.write(json.dumps(options, sort_keys=True) + "\n")
        connection.sendall(reply.encode())
