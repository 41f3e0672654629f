#!/bin/sh
# agalview in a window under Xvfb against its headless (EGL) render of the same
# frame: agalview_test.sh AGALVIEW XVFB_RUN VERTEX FRAGMENT FRAME
set -e
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$1" --headless --frame "$5" --screenshot "$dir/headless.png" "$3" "$4"
"$2" -a -s "-screen 0 640x480x24" "$1" --frame "$5" --screenshot "$dir/window.png" \
    --expect "$dir/headless.png" "$3" "$4"
