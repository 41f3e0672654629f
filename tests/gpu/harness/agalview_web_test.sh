#!/bin/sh
# agalview --web: the page it writes, drawn by headless Chromium (WebGL 2 through
# SwiftShader) and screenshotted, against agalview's GL render (llvmpipe, headless
# EGL) of frame GL_FRAME of the same pair:
#   agalview_web_test.sh AGALVIEW CHROMIUM VERTEX FRAGMENT FRAME GL_FRAME
# GL_FRAME = FRAME: the two must agree within the tolerance between agalview's
# backends (a channel within 4/255, at most 0.5% of the pixels beyond: silhouette
# coverage); GL_FRAME != FRAME: they must NOT agree, which shows the comparison can
# fail. The canvas keeps its alpha (no premultiplication, a transparent page), so
# the screenshot holds the frame's alpha as agalview's PNG does.
set -e
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$1" --web "$dir/page.html" --frame "$5" "$3" "$4"
# without the Vulkan loader's driver choice, which would put lavapipe under ANGLE
env -u VK_DRIVER_FILES -u VK_ICD_FILENAMES "$2" --headless=new --no-sandbox --use-angle=swiftshader --enable-unsafe-swiftshader \
    --user-data-dir="$dir/profile" --no-first-run --disable-extensions --window-size=256,256 --hide-scrollbars \
    --default-background-color=00000000 --screenshot="$dir/web.png" "file://$dir/page.html" >/dev/null 2>"$dir/log" ||
    { cat "$dir/log" >&2; exit 1; }
if [ "$5" = "$6" ]; then
    "$1" --headless --frame "$6" --screenshot "$dir/gl.png" --expect "$dir/web.png" --tolerance 4 \
        --max-differing 0.5 "$3" "$4"
elif "$1" --headless --frame "$6" --screenshot "$dir/gl.png" --expect "$dir/web.png" --tolerance 4 \
        --max-differing 0.5 "$3" "$4"; then
    echo "agalview_web_test: the browser's frame $5 matched GL frame $6: the comparison cannot fail" >&2
    exit 1
fi
