#!/usr/bin/env bash
# Puts agal2spv into a Lightspark checkout: copies the glue (src/.../agal2spv.{h,cpp})
# and applies lightspark.patch with patch -p1 from its top folder. Build it with
# -DENABLE_AGAL2SPV=ON (and CMAKE_PREFIX_PATH naming agal's install prefix).
# usage: apply.sh LIGHTSPARK_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: apply.sh LIGHTSPARK_DIR}
[ -f "$dir/src/scripting/flash/display3d/flashdisplay3d.cpp" ] || { echo "apply.sh: $dir is not a Lightspark checkout" >&2; exit 2; }
cp "$here"/src/scripting/flash/display3d/agal2spv.h "$here"/src/scripting/flash/display3d/agal2spv.cpp \
   "$dir/src/scripting/flash/display3d/"
patch -p1 --forward -d "$dir" < "$here/lightspark.patch"
