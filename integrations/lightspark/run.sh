#!/usr/bin/env bash
# The results table of README.md, in one command: Lightspark built twice from a clean
# checkout (built-in converter; -DENABLE_AGAL2SPV=ON with this patch), every Stage3D
# SWF of Ruffle's tests run under Xvfb by each for a fixed time, the window's picture
# and the trace compared with Flash's (results.py).
#
# Each run leaves <test>.txt (stdout: the trace), <test>.log (stderr: the log at
# level INFO, where the patch says each upload accepted or refused) and <test>.png.
#
# usage: run.sh LIGHTSPARK_DIR RUFFLE_DIR AGAL_PREFIX OUT_DIR
#   LIGHTSPARK_DIR  a Lightspark checkout (left untouched: copied to OUT_DIR)
#   RUFFLE_DIR      a Ruffle checkout (tests/tests/swfs/avm2/stage3d_*)
#   AGAL_PREFIX     where agal2spv is installed (meson install --prefix)
#   OUT_DIR         builds, frames, traces and results.md
# SECONDS_PER_SWF (default 20) is how long each SWF runs before its picture is taken;
# JOBS (default 2) the build's parallelism; SWFS (default stage3d_*) which of Ruffle's
# avm2 tests run. BITMAPDATA_FIX=1 applies lightspark-bitmapdata.patch (Lightspark's
# own uploadFromBitmapData, outside the library's part) to both builds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ls_src=$(cd "${1:?usage: run.sh LIGHTSPARK_DIR RUFFLE_DIR AGAL_PREFIX OUT_DIR}" && pwd)
ruffle=$(cd "${2:?}" && pwd)
prefix=$(cd "${3:?}" && pwd)
mkdir -p "${4:?}"
out=$(cd "$4" && pwd)
seconds=${SECONDS_PER_SWF:-20}
jobs=${JOBS:-2}
swfs=${SWFS:-stage3d_*}
bitmapdata_fix=${BITMAPDATA_FIX:-0}

build() { # build NAME CMAKE_ARGS...: OUT/NAME/src, built in OUT/NAME/build
    local name=$1; shift
    rm -rf "$out/$name/src"
    mkdir -p "$out/$name/src"
    tar -C "$ls_src" --exclude=./.git --exclude=./tests -cf - . | tar -C "$out/$name/src" -xf -
    if [ "$name" = agal ]; then "$here/apply.sh" "$out/$name/src"; fi
    # tar keeps the checkout's times, so a file the fix patched in the last build would
    # not be rebuilt unpatched: it is touched when the setting changes.
    if [ "$(cat "$out/$name/bitmapdata-fix" 2>/dev/null)" != "$bitmapdata_fix" ]; then
        touch "$out/$name/src/src/scripting/flash/display3d/flashdisplay3dtextures.cpp"
    fi
    echo "$bitmapdata_fix" > "$out/$name/bitmapdata-fix"
    if [ "$bitmapdata_fix" = 1 ]; then patch -p1 -d "$out/$name/src" < "$here/lightspark-bitmapdata.patch"; fi
    cmake -S "$out/$name/src" -B "$out/$name/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCOMPILE_NPAPI_PLUGIN=OFF -DCOMPILE_PPAPI_PLUGIN=OFF -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
        -DCMAKE_C_COMPILER_LAUNCHER=ccache "$@" > "$out/$name/cmake.log"
    nice -n 19 ninja -C "$out/$name/build" -j "$jobs" lightspark > "$out/$name/build.log"
}

run_swf() { # run_swf NAME SWF_DIR: OUT/NAME/runs/<test>.{txt,log,png}
    local name=$1 dir=$2 test exe
    test=$(basename "$dir")
    exe=$(find "$out/$name/build" -type f -name lightspark -perm -u+x | head -1)
    mkdir -p "$out/$name/runs"
    # One X server per run: the picture is the player's window (with no window
    # manager it sits undecorated at the root's top left, which is taken if the
    # window is not found), cropped to the reference's size by results.py. Once the
    # window is mapped it gets the test's input.json, as Ruffle injects it (input.py).
    xvfb-run -a -s "-screen 0 2048x1536x24" bash -c '
        "$1" -l 1 "$2" > "$3.txt" 2> "$3.log" & pid=$!
        for _ in $(seq 50); do
            win=$(xdotool search --onlyvisible --name "^Lightspark$" 2>/dev/null | head -1)
            [ -n "$win" ] && break; sleep 0.1
        done
        if [ -n "$win" ] && [ -f "$5" ]; then
            python3 "$6" "$5" "$win" 2>> "$3.log" | while read -r cmd; do xdotool $cmd; sleep 0.1; done
        fi
        sleep "$4"
        timeout 30 import -window "${win:-root}" "PNG32:$3.png" || true
        kill $pid 2>/dev/null; sleep 1; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null; true
    ' _ "$exe" "$dir/test.swf" "$out/$name/runs/$test" "$seconds" "$dir/input.json" "$here/input.py"
}

build builtin
build agal -DENABLE_AGAL2SPV=ON -DCMAKE_PREFIX_PATH="$prefix"
for dir in "$ruffle"/tests/tests/swfs/avm2/$swfs/; do
    [ -f "$dir/test.swf" ] || continue
    for name in builtin agal; do
        LD_LIBRARY_PATH="$prefix/lib" run_swf "$name" "${dir%/}"
    done
done
python3 "$here/results.py" --swfs "$ruffle/tests/tests/swfs/avm2" --builtin "$out/builtin/runs" \
    --agal "$out/agal/runs" > "$out/results.md"
cat "$out/results.md"
