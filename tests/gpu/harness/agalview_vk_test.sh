#!/bin/sh
# agalview --backend vulkan: the window (Xvfb; frame rendered by Vulkan/lavapipe,
# shown through GLX) against the headless Vulkan render of the same frame, then the
# Vulkan frame against the GL (llvmpipe) frame GL_FRAME of the same pair:
#   agalview_vk_test.sh AGALVIEW XVFB_RUN VERTEX FRAGMENT FRAME GL_FRAME
# GL_FRAME = FRAME: the two backends must agree within the tolerance below.
# GL_FRAME != FRAME: they must NOT agree (the cube has turned), which shows the
# tolerance still tells different frames apart.
#
# Tolerance between backends: a channel within 4/255, and at most 0.5% of the
# pixels (328 of 256x256) beyond that. Over the whole corpus at frames 0 and 37 the
# two renderers' interiors differ by at most 2/255 (float rounding, filtering
# weights); what can differ more is coverage of pixels on the silhouette and on
# edges between faces (sub-pixel snapping), a few hundred at most for the ~500
# edge pixels of the cube, and none in the pairs used here.
set -e
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$1" --backend vulkan --headless --frame "$5" --screenshot "$dir/vk_headless.png" "$3" "$4"
"$2" -a -s "-screen 0 640x480x24" "$1" --backend vulkan --frame "$5" --screenshot "$dir/vk_window.png" \
    --expect "$dir/vk_headless.png" "$3" "$4"
"$1" --backend gl --headless --frame "$6" --screenshot "$dir/gl.png" "$3" "$4"
if [ "$5" = "$6" ]; then
    "$1" --backend vulkan --headless --frame "$5" --screenshot "$dir/vk.png" \
        --expect "$dir/gl.png" --tolerance 4 --max-differing 0.5 "$3" "$4"
elif "$1" --backend vulkan --headless --frame "$5" --screenshot "$dir/vk.png" \
        --expect "$dir/gl.png" --tolerance 4 --max-differing 0.5 "$3" "$4"; then
    echo "agalview_vk_test: Vulkan frame $5 matched GL frame $6: the comparison cannot fail" >&2
    exit 1
fi
