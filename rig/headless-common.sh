# Shared by rig/headless-gnome, rig/headless-kwin and rig/gnome-shell-lock (sourced, not run): a desktop that
# runs as nobody in FOLDER, on a session bus of its own that root (touchgest in the
# tests) may use too, with real Wayland windows (rig/window.js).
#
# FOLDER/runtime is nobody's XDG_RUNTIME_DIR (mode 700) and holds the session bus
# (FOLDER/runtime/bus) and the Wayland socket; FOLDER/home is nobody's HOME. The bus
# outlives the desktop, so a desktop stopped and started again (`kill`, then `start`)
# comes back on the same bus, as a restarted shell does in a running session.

here=$(cd "$(dirname "$0")" && pwd)
runtime="$folder/runtime"
home="$folder/home"
bus="unix:path=$runtime/bus"

wait_for() { # SECONDS COMMAND...: runs COMMAND every 50 ms until it succeeds
  local tries=$(($1 * 20)); shift
  for _ in $(seq "$tries"); do "$@" > /dev/null 2>&1 && return 0; sleep 0.05; done
  return 1
}

# Runs COMMAND as nobody in the desktop's session, with VARIABLE=VALUE pairs first.
as_desktop() {
  env -i PATH=/usr/bin:/bin HOME="$home" XDG_RUNTIME_DIR="$runtime" XDG_CONFIG_HOME="$home/.config" \
    XDG_DATA_HOME="$home/.local/share" DBUS_SESSION_BUS_ADDRESS="$bus" LANG=C.UTF-8 \
    setpriv --reuid=nobody --regid=nogroup --clear-groups env "$@"
}

# Starts COMMAND as as_desktop does, in the background, its output appended to LOG, and
# keeps its process id in FOLDER/NAME.pid (the program's own: each step execs the next).
# With `capabilities` set (`+sys_ptrace`), COMMAND keeps those capabilities as nobody.
spawn_desktop() { # NAME LOG [VARIABLE=VALUE...] COMMAND...
  local name=$1 log=$2; shift 2
  local keep=()
  [ -z "${capabilities:-}" ] || keep=(--inh-caps "$capabilities" --ambient-caps "$capabilities")
  (exec env -i PATH=/usr/bin:/bin HOME="$home" XDG_RUNTIME_DIR="$runtime" XDG_CONFIG_HOME="$home/.config" \
    XDG_DATA_HOME="$home/.local/share" DBUS_SESSION_BUS_ADDRESS="$bus" LANG=C.UTF-8 \
    setpriv --reuid=nobody --regid=nogroup --clear-groups "${keep[@]}" env "$@") >> "$log" 2>&1 &
  echo $! > "$folder/$name.pid"
}

alive() { # NAME: whether FOLDER/NAME.pid names a running process
  [ -f "$folder/$1.pid" ] && kill -0 "$(cat "$folder/$1.pid")" 2> /dev/null
}

stop_pid() { # NAME: stops FOLDER/NAME.pid's process and waits for it to end
  [ -f "$folder/$1.pid" ] || return 0
  local pid; pid=$(cat "$folder/$1.pid")
  kill "$pid" 2> /dev/null || true
  wait_for 10 sh -c "! kill -0 $pid" || kill -9 "$pid" 2> /dev/null || true
  rm -f "$folder/$1.pid"
}

fail() { # WHAT LOG: says what did not start, with the end of its log, stops everything, exits
  echo "$rig_name: $1 did not start; the end of $2:" >&2
  tail -n 15 "$2" >&2 || true
  "$0" stop "$folder"
  exit 1
}

# The folders nobody needs, and a session bus (dbus-daemon as nobody) that also lets
# root connect: a session bus lets in only its own user unless its policy says more.
start_session_bus() {
  mkdir -p "$runtime" "$home" "$folder/windows"
  chmod 755 "$folder" "$folder/windows"
  chown nobody:nogroup "$runtime" "$home"
  chmod 700 "$runtime"
  alive bus && return 0
  cat > "$folder/session.conf" << 'CONF'
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <include>/usr/share/dbus-1/session.conf</include>
  <policy context="default">
    <allow user="root"/>
  </policy>
</busconfig>
CONF
  chmod 644 "$folder/session.conf"
  rm -f "$runtime/bus"
  spawn_desktop bus "$folder/bus.log" dbus-daemon --config-file="$folder/session.conf" --nofork --nopidfile --address="$bus"
  # The socket file exists from bind(), before the bus listens: wait for an answer.
  wait_for 10 dbus-send --bus="$bus" --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.Peer.Ping \
    || fail dbus-daemon "$folder/bus.log"
}

# Starts GNOME Shell as spawn_desktop does (headless, Wayland only, a 1280x800 virtual
# monitor), logging to FOLDER/gnome-shell.log, in a session as systemd would give it: the
# shell is told that it runs in a user unit (rig/gnome-shell-unit.c), and a stand-in for
# the systemd user manager knows IBus's unit (rig/systemd-user.py). Otherwise GNOME Shell
# 43 forks ibus-daemon at its start in a way that can hang it for good (docs/focus.md).
start_gnome_shell() { # VARIABLE=VALUE...
  if ! alive systemd-user; then
    spawn_desktop systemd-user "$folder/systemd-user.log" /usr/bin/python3 -m dbusmock --template "$here/systemd-user.py"
    wait_for 10 dbus-send --bus="$bus" --print-reply --dest=org.freedesktop.systemd1 /org/freedesktop/systemd1 \
      org.freedesktop.DBus.Peer.Ping || fail "the systemd user manager's stand-in" "$folder/systemd-user.log"
  fi
  if [ ! -f "$folder/gnome-shell-unit.so" ]; then
    cc -shared -fPIC -O2 -o "$folder/gnome-shell-unit.so" "$here/gnome-shell-unit.c" -ldl 2> "$folder/gnome-shell-unit.log" \
      || fail "the shim rig/gnome-shell-unit.c" "$folder/gnome-shell-unit.log"
    chmod 644 "$folder/gnome-shell-unit.so"
  fi
  # A shell that was killed leaves its socket; the next takes the same name.
  rm -f "$runtime/wayland-0" "$runtime/wayland-0.lock"
  spawn_desktop gnome-shell "$folder/gnome-shell.log" LD_PRELOAD="$folder/gnome-shell-unit.so" "$@" \
    gnome-shell --headless --wayland --no-x11 --virtual-monitor 1280x800
}

# Opens a real window (rig/window.js, GTK 3) with APP as its app id and TITLE as its
# title on the Wayland display WAYLAND.
open_window() { # WAYLAND APP TITLE
  local file="$folder/windows/$2"
  printf '%s\n' "$3" > "$file.title"
  chmod 644 "$file.title"
  spawn_desktop "windows/$2" "$folder/windows.log" WAYLAND_DISPLAY="$1" GDK_BACKEND=wayland NO_AT_BRIDGE=1 \
    GSETTINGS_BACKEND=memory gjs "$here/window.js" "$2" "$3" "$file.title"
}

# The window of APP takes TITLE as its title.
retitle_window() { # APP TITLE
  local file="$folder/windows/$1"
  printf '%s\n' "$2" > "$file.title"
  kill -USR1 "$(cat "$file.pid")"
}

stop_windows() {
  local file
  for file in "$folder"/windows/*.pid; do
    [ -f "$file" ] || continue
    kill "$(cat "$file")" 2> /dev/null || true
    rm -f "$file"
  done
}

# Each APP[=TITLE] argument as "APP TITLE" lines; TITLE is APP without one.
windows_asked() {
  local app
  for app in "$@"; do
    if [ "${app%%=*}" != "$app" ]; then echo "${app%%=*} ${app#*=}"; else echo "$app $app"; fi
  done
}
