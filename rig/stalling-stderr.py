#!/usr/bin/env python3
"""Runs a command whose standard error goes to a reader that stops reading.

    rig/stalling-stderr.py PATTERN COMMAND [ARG...]

The command's stderr is a one-page pipe (F_SETPIPE_SZ 4096). Its lines are passed on to
this script's stdout until one contains PATTERN; after that nothing more is read, so the
pipe fills and a blocking write to stderr would wait for ever, as with a paused pager or a
stalled journald. SIGUSR1 makes it read again, passing every line on until the command
ends. SIGTERM, SIGINT and SIGHUP are passed on to the command; the script exits with the
command's status (128 + N for signal N).
"""
import ctypes
import fcntl
import os
import signal
import subprocess
import sys

F_SETPIPE_SZ = 1031

pattern = sys.argv[1].encode()
read_end, write_end = os.pipe()
fcntl.fcntl(write_end, F_SETPIPE_SZ, 4096)
# The command dies with this script (PR_SET_PDEATHSIG): a rig that gives up and kills
# the script must not leave the command running.
libc = ctypes.CDLL(None, use_errno=True)
child = subprocess.Popen(sys.argv[2:], stderr=write_end, preexec_fn=lambda: libc.prctl(1, signal.SIGKILL))
os.close(write_end)
for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(number, lambda number, _: child.send_signal(number))

resumed = False


def resume(*_):
    global resumed
    resumed = True


signal.signal(signal.SIGUSR1, resume)
signal.signal(signal.SIGCHLD, lambda *_: None)
reader = os.fdopen(read_end, "rb", buffering=0)


def pass_on(until=None):
    """Passes lines on until one contains `until`; returns False at the end of input."""
    line = b""
    while True:
        byte = reader.read(1)
        if not byte:
            return False
        line += byte
        if byte == b"\n":
            sys.stdout.buffer.write(line)
            sys.stdout.flush()
            if until is not None and until in line:
                return True
            line = b""


if pass_on(pattern):
    while not resumed and child.poll() is None:
        signal.pause()
    if resumed:
        pass_on()
status = child.wait()
sys.exit(status if status >= 0 else 128 - status)
