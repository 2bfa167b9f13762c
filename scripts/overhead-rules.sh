# Sourced by scripts/measure-overhead, scripts/measure-instructions and
# scripts/measure-loop-syscalls: what each needs before it starts, and the rules and the
# gestures they measure touchgest with, so that their figures are of the same work.

# overhead_prepare PACKAGE...: the project's own packages (scripts/bootstrap) and these;
# TOUCHGEST, the release build unless it names a binary already; `unshare`, the command
# that gives the rig a mount namespace of its own.
overhead_prepare() {
  scripts/bootstrap
  local missing=() package
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  if [ -z "${TOUCHGEST:-}" ]; then
    make build >/dev/null
    TOUCHGEST=.build/release/touchgest
  fi
  if [ "$(id -u)" -eq 0 ]; then unshare=(unshare -m --propagation private); else unshare=(unshare -rm --propagation private); fi
}

# overhead_rules FILE [keys]: swipe, pinch and hold rules only (no rule reads fingers),
# starting `true` through the shell, or with `keys` pressing keys instead (no process
# is started; with no desktop, nothing is pressed).
overhead_rules() {
  cat > "$1" <<'TOML'
[rule.swipe-left]
gesture = "swipe"
fingers = 3
direction = "left"
command = "true"

[rule.swipe-right]
gesture = "swipe"
fingers = 3
direction = "right"
command = "true"

[rule.overview]
gesture = "swipe"
fingers = 4
direction = "up"
command = "true"

[rule.zoom]
gesture = "pinch"
fingers = 2
step = 0.2
on-step = "true"

[rule.hold]
gesture = "long-press"
fingers = 3
device = "touchpad"
on-begin = "true"
TOML
  if [ "${2:-}" = keys ]; then
    sed -i -e 's/^command = "true"$/keys = "alt+Left"/' -e 's/^on-begin = "true"$/on-begin = { keys = "ctrl+c" }/' \
        -e 's/^on-step = "true"$/on-step = { out = "ctrl+plus", in = "ctrl+minus" }/' "$1"
    if grep -q '"true"' "$1"; then echo "overhead_rules: a rule still starts a command in $1" >&2; exit 1; fi
  fi
  chmod 600 "$1"
}

# overhead_round: one round of the rig's script, six gestures in about 5 s: 3-finger
# swipes left and right, a 4-finger swipe up, a pinch out and in (200 gesture updates in
# all), and a 3-finger hold. The hold lasts 800 ms: a touchpad long-press counts its
# 500 ms from libinput's hold, which begins 180 ms after the fingers land.
overhead_round() {
  echo "touch 3 at 70,35 move -35,0 over 300ms"; echo "wait 450ms"
  echo "touch 3 at 30,35 move 35,0 over 300ms"; echo "wait 450ms"
  echo "touch 4 at 50,55 move 0,-30 over 350ms"; echo "wait 450ms"
  echo "pinch 2 at 50,35 from 20 to 50 over 400ms"; echo "wait 450ms"
  echo "pinch 2 at 50,35 from 50 to 20 over 400ms"; echo "wait 450ms"
  echo "hold 3 at 50,35 for 800ms"; echo "wait 500ms"
}
