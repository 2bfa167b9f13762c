#!/bin/sh
# A touchgest stream consumer: a pinch sets the volume while the fingers move.
# Fingers twice as far apart (scale 2) is half the full volume louder; all the way in,
# half softer. Needs jq and PipeWire's wpctl.
#
#   [rule.volume]
#   gesture = "pinch"
#   stream = "sh ~/.config/touchgest/volume.sh"
sink=@DEFAULT_AUDIO_SINK@
jq --unbuffered -r 'select(.phase == "began" or .phase == "changed") | "\(.phase) \(.scale)"' |
while read -r phase scale; do
    if [ "$phase" = began ]; then
        start=$(wpctl get-volume "$sink" | cut -d' ' -f2)
    fi
    level=$(awk -v s="$start" -v k="$scale" 'BEGIN { v = s + (k - 1) / 2; if (v < 0) v = 0; if (v > 1) v = 1; printf "%.2f", v }')
    wpctl set-volume "$sink" "$level"
done
