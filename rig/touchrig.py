#!/usr/bin/python3
"""touchrig: run a program against the real libinput on umockdev-emulated touch devices.

    unshare -m --propagation private /usr/bin/python3 rig/touchrig.py \
        --device touchpad [--device touchscreen] --script gestures.txt -- PROGRAM ARGS...

It emulates the devices (sysfs, udev database, ioctl answers) with umockdev, starts
PROGRAM with the umockdev preload, waits until PROGRAM prints one readiness line per
device (--ready, a regular expression), then plays the gesture script in real time,
writing whole evdev frames to the emulated nodes. PROGRAM's standard output is copied
to ours. docs/testing.md explains the pitfalls this works around.

On a `--device keyboard`, `press KEY` / `release KEY` hold a key (leftmeta, leftshift,
leftctrl, leftalt, capslock, a, 1, ...) and `type TEXT [every 30ms]` types letters, digits
(capitals with Shift held).

Besides gestures, a script can `remove DEVICE` and `add DEVICE` (one listed with --late, or
one removed before, which comes back on a node of its own as after a resume), run
`shell COMMAND` (with $TOUCHRIG_PID set to PROGRAM's process id; the steps after it are
timed from its end), send `signal HUP`, and
`await TEXT`: wait (up to --await-timeout) until PROGRAM prints a line containing TEXT, and
time the steps after it from then. A missing line stops PROGRAM and exits 3, naming the
text it waited for.

Each node serves two readers, as a real evdev node does (libinput and touchgest's own
contact reader): a second open of a node gets a pty of its own (touchrig-preload.c),
and every frame is written to both.
"""
import argparse
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
import tty

from touchriglib.devices import alps_semi_mt_touchpad, clickpad, from_evemu, keyboard, palm_clickpad, panel, semi_mt_touchpad, touchscreen
from touchriglib.gestures import Fingers, compile_script, parse_duration

HERE = os.path.dirname(os.path.abspath(__file__))


def log(message):
    print(f"touchrig: {message}", file=sys.stderr, flush=True)


def write_frame(fd, events, lead_us=2000, stamp=None):
    """Writes a whole frame at once, stamped a little ahead on CLOCK_MONOTONIC; returns the stamp (us)."""
    if stamp is None:
        stamp = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000 + lead_us
    seconds, micros = divmod(stamp, 1_000_000)
    data = b"".join(struct.pack("llHHi", seconds, micros, t, c, v) for t, c, v in events)
    written = 0
    while written < len(data):
        written += os.write(fd, data[written:])
    return stamp


def describe_tasks(pid, depth=0):
    """Logs what each thread of process `pid` and of its children is doing: for an await that
    ran out, whether PROGRAM was waiting for input (as it should) or stuck elsewhere."""
    def read(path):
        try:
            with open(path) as file:
                return file.read().strip()
        except OSError as error:
            return f"({error.strerror})"
    try:
        tasks = sorted(os.listdir(f"/proc/{pid}/task"), key=int)
    except OSError:
        return
    for task in tasks:
        base = f"/proc/{pid}/task/{task}"
        stat = read(f"{base}/stat")
        fields = stat.rsplit(")", 1)[-1].split() if ")" in stat else []
        state = fields[0] if fields else "?"
        # utime and stime, in clock ticks: a thread that spins has used most of the wait.
        cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") if len(fields) > 12 else 0
        log(f"{'  ' * depth}pid {pid} thread {task} ({read(f'{base}/comm')}): state {state}, {cpu:.2f} s of CPU, "
            f"in {read(f'{base}/wchan') or '-'}, system call {read(f'{base}/syscall')}")
        for other in read(f"{base}/children").split():
            describe_tasks(int(other), depth + 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", action="append", default=[],
                        help="touchpad, touchscreen, panel (a touchscreen with no resolution), semimt (a semi-MT "
                             "touchpad), alps (a semi-MT touchpad with no resolution), palmpad (a touchpad that marks palms), keyboard "
                             "(a USB keyboard; not counted for --ready), or recording:FILE (an evemu recording's device)")
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
    parser.add_argument("--await-timeout", default="20s",
                        help="longest wait for the line of an 'await' step")
    parser.add_argument("--late", action="append", default=[],
                        help="a --device that is not there at start; the script adds it with 'add'")
    parser.add_argument("--open-log", help="append the path of each emulated node PROGRAM opens to FILE")
    parser.add_argument("--frame-log", help="append each frame's device key and timestamp (us on CLOCK_MONOTONIC) to FILE")
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
        elif spec == "panel":
            devices.append(panel(number))
        elif spec == "palmpad":
            devices.append(palm_clickpad(number))
        elif spec == "keyboard":
            devices.append(keyboard(number))
        elif spec == "semimt":
            devices.append(semi_mt_touchpad(number))
        elif spec == "alps":
            devices.append(alps_semi_mt_touchpad(number))
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
    spares = os.path.join(work, "spares")
    os.makedirs(spares)
    spare_masters = {}  # node -> the master of its spare pty, for a second reader

    def plug(device):
        with open(f"/run/udev/data/c13:{device.minor}", "w") as db:
            db.write(device.udev_db())
        testbed.add_from_string(device.umockdev())
        ioctl_path = f"{work}/{device.key}.ioctl"
        with open(ioctl_path, "w") as file:
            file.write(device.ioctl())
        testbed.load_ioctl(device.node, ioctl_path)
        # The spare pty a second reader of the node gets (touchrig-preload.c): raw, as
        # umockdev's own, and named with the node's device number for fstat.
        master, slave = os.openpty()
        tty.setraw(slave)
        name = os.ttyname(slave)
        link = os.path.join(spares, f"event{device.number}")
        for path in (link, os.path.join(spares, name.replace("/", "_"))):
            if os.path.lexists(path):
                os.unlink(path)
        os.symlink(name, link)
        os.symlink(f"13:{device.minor}", os.path.join(spares, name.replace("/", "_")))
        spare_masters[device.node] = (master, slave, os.path.join(spares, f"event{device.number}.open"))

    for device in devices:
        if device.key not in late:
            plug(device)

    preload = os.path.join(work, "touchrig-preload.so")
    built = subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-o", preload,
                            os.path.join(HERE, "touchrig-preload.c"), "-ldl"], capture_output=True, text=True)
    if built.returncode != 0:
        raise SystemExit(f"touchrig: cannot build the preload library:\n{built.stderr}")
    repair_log = os.path.join(work, "repairs")
    env = dict(os.environ, UMOCKDEV_DIR=testbed.get_root_dir(), TOUCHRIG_REPAIR_LOG=repair_log, TOUCHRIG_SPARES=spares,
               LD_PRELOAD=f"{preload}:libumockdev-preload.so.0")
    if args.open_log:
        env["TOUCHRIG_OPEN_LOG"] = args.open_log

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

    # A keyboard makes no readiness line: touchgest reads one only for its modifier keys,
    # and opens it, if at all, with the touch devices of the seat.
    touch_devices = [d for d in devices if d.kind != "keyboard" and d.key not in late]
    wait_ready(args.ready_count if args.ready_count is not None else len(touch_devices))
    fds = {}
    removed = set()  # keys of the devices the script removed
    start = time.monotonic()
    # A recording's frames are stamped with the recording's own spacing from its first
    # frame, not with the moment each is written: on a loaded machine the writes bunch
    # up, and gestures judged by speed would be judged on the rig's lag.
    recording_base = None
    for step in steps:
        kind, at, device = step[0], step[1], step[2]
        delay = start + at / 1000 - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        recorded = len(step) > 4 and step[4] == "recorded"
        if not recorded:
            recording_base = None
        if kind == "frame":
            if device.node not in fds:
                fds[device.node] = testbed.get_dev_fd(device.node)
            if recorded and recording_base is not None:
                stamp = write_frame(fds[device.node], step[3], stamp=recording_base + round(at * 1000))
            else:
                stamp = write_frame(fds[device.node], step[3])
                if recorded:
                    recording_base = stamp - round(at * 1000)
            spare = spare_masters.get(device.node)
            if spare and os.path.exists(spare[2]):
                # The second reader gets the very same bytes, stamp included.
                write_frame(spare[0], step[3], stamp=stamp)
            if args.frame_log:
                with open(args.frame_log, "a") as frame_log:
                    frame_log.write(f"{device.key} {stamp}\n")
        elif kind == "remove":
            fds.pop(device.node, None)
            spare = spare_masters.pop(device.node, None)
            if spare:
                os.close(spare[0])
                os.close(spare[1])
            testbed.uevent(device.syspath, "remove")
            testbed.remove_device(device.syspath)
            removed.add(device.key)
        elif kind == "shell":
            subprocess.run(device, shell=True, check=False, env=dict(os.environ, TOUCHRIG_PID=str(child.pid)))
            # The steps after it are timed from its end, as after an await: a command that
            # waits for the desktop would otherwise leave the next gesture's frames late,
            # written in one burst (libinput then loses some of their motion).
            start += time.monotonic() - start - at / 1000
        elif kind == "await":
            end = time.monotonic() + parse_duration(args.await_timeout) / 1000
            while True:
                try:
                    line = lines.get(timeout=max(0.0, end - time.monotonic()))
                except queue.Empty:
                    log(f"PROGRAM printed no line with {device!r} in {args.await_timeout}")
                    describe_tasks(child.pid)
                    child.kill()
                    child.wait()
                    sys.exit(3)
                if line is None:
                    log(f"PROGRAM ended (status {child.wait()}) without printing a line with {device!r}")
                    sys.exit(3)
                if device in line:
                    break
            start += time.monotonic() - start - at / 1000
        elif kind == "signal":
            child.send_signal(getattr(signal, f"SIG{device}"))
        elif kind == "stats":
            # Resident memory (all of it, and the anonymous part: the heap and stacks,
            # without the program's own pages, which grow as code first runs) and how often the program went to sleep and woke (voluntary
            # context switches): the wake-ups of a poll loop.
            # CPU: user + system time of all its threads (fields 14 and 15 of /proc/PID/stat,
            # in clock ticks: 10 ms, and sampled at the tick); and, where the kernel keeps
            # schedstat, the time its threads spent on a CPU as the scheduler counted it, in
            # nanoseconds (the first field of /proc/PID/task/TID/schedstat), printed as
            # `oncpu N us`. Then its page faults: major (a page read back from the disk, say
            # one of its libraries' pages that the kernel had dropped from the page cache,
            # as a host's proactive reclaim does to files nobody maps) and minor.
            fields = dict(line.split(":", 1) for line in open(f"/proc/{child.pid}/status") if ":" in line)
            stat = open(f"/proc/{child.pid}/stat").read().rsplit(")", 1)[1].split()
            cpu_ms = (int(stat[11]) + int(stat[12])) * 1000 // os.sysconf("SC_CLK_TCK")
            descriptors = len(os.listdir(f"/proc/{child.pid}/fd"))
            user_ms = int(stat[11]) * 1000 // os.sysconf("SC_CLK_TCK")
            oncpu = ""
            try:
                nanoseconds = sum(int(open(f"/proc/{child.pid}/task/{task}/schedstat").read().split()[0])
                                  for task in os.listdir(f"/proc/{child.pid}/task"))
                oncpu = f" oncpu {nanoseconds // 1000} us"
            except (OSError, ValueError, IndexError):
                pass
            print(f"touchrig: stats rss {fields['VmRSS'].strip()} wakeups {fields['voluntary_ctxt_switches'].strip()}"
                  f" cpu {cpu_ms} ms fds {descriptors} anon {fields['RssAnon'].strip()} user {user_ms} ms{oncpu}"
                  f" faults {stat[9]} major {stat[7]} minor", flush=True)
        elif kind == "end":
            pass
        elif kind == "add":
            if device.key in removed:
                # A device that comes back (after a resume, say) gets a node of its own,
                # as the kernel gives it: umockdev cannot make a removed node again.
                device.number = max(d.number for d in devices) + 1
                removed.discard(device.key)
            plug(device)
            testbed.uevent(device.syspath, "add")
            wait_ready(1)
            start += 0.15 + (time.monotonic() - start - at / 1000)
    time.sleep(parse_duration(args.settle) / 1000)
    child.send_signal(getattr(signal, f"SIG{args.signal}"))
    signalled = time.monotonic()
    try:
        status = child.wait(timeout=10)
    except subprocess.TimeoutExpired:
        child.kill()
        status = child.wait()
    log(f"PROGRAM ended {round((time.monotonic() - signalled) * 1000)} ms after SIG{args.signal}")
    while lines.get() is not None:
        pass
    repairs = open(repair_log).read().count("repaired") if os.path.exists(repair_log) else 0
    if repairs:
        log(f"repaired {repairs} partial reads")
    sys.exit(status if status >= 0 else 128 - status)


if __name__ == "__main__":
    main()
