#!/bin/sh
# agalview --scene in a window under Xvfb, and headless, against agalrun replay's GL
# image of the same scene, pixel for pixel; a scene that throws shows Flash's line:
# agalview_scene_test.sh AGALVIEW AGALRUN XVFB_RUN SCENE
set -e
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$3" -a -s "-screen 0 640x480x24" "$1" --scene "$4" --screenshot "$dir/window.png"
"$1" --scene "$4" --headless --screenshot "$dir/headless.png"
"$2" replay "$4" --backend gl --expect "$dir/window.png"
"$2" replay "$4" --backend gl --expect "$dir/headless.png"
printf '{"scene": 1, "calls": [{"call": "clear"}]}' >"$dir/throws.json"
if "$1" --scene "$dir/throws.json" --headless --screenshot "$dir/x.png" 2>"$dir/err"; then
    echo "a scene that throws: agalview exited 0"; exit 1
fi
grep -q "call 1 (clear): Error: Error #3698: The back buffer is not configured." "$dir/err" ||
    { echo "a scene that throws: no Flash line"; cat "$dir/err"; exit 1; }
