#!/usr/bin/env bash
# web/build.sh [OUT_DIR]: the npm package agal2spv-<version>.tgz, built with
# Debian's emscripten from src/ and web/, written into OUT_DIR (default: the
# checkout's top folder). The package: agal2spv.js (the API, an ES module),
# agal2spv-wasm.js (the library, its wasm inline: emscripten 3.1.6's loader cannot
# fetch a file URL under node 20), agal2spv.d.ts, README.md, package.json.
# -O3, not -Oz, for the translation's path: Os and Oz translate in 1.8 times the
# time for 35 KB less; -flto about 7% faster for 12 KB more; emmalloc as fast as
# dlmalloc here (the context's arena allocates in blocks) and 4 KB smaller. The
# files no translation runs (cold, below) are compiled -Oz: clang marks their
# functions minsize, which the -O3 link-time optimization keeps, so they stay
# small, also where inlined into each other: 15 KB less, a translation 1.5% slower
# (docs/benchmark.md, "Web").
# ENVIRONMENT=web: 3.1.6's node branch needs require and __dirname, which an ES
# module has not, and the web one runs in node too, the wasm being inline.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
top="$(dirname "$here")"
out="$(cd "${1:-$top}" && pwd)"
version="$(sed -n "s/^  version : '\([^']*\)',$/\1/p" "$top/meson.build")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# emcc's own tools need acorn, which Debian installs under /usr/share/nodejs.
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"
# A folder holding only spirv/ and vulkan/ (<agal/vulkan.h>): -I/usr/include would pull glibc's headers in.
mkdir -p "$work/include" "$work/package"
ln -s /usr/include/spirv "$work/include/spirv"
ln -s /usr/include/vulkan "$work/include/vulkan"
ln -s /usr/include/vk_video "$work/include/vk_video"
# Cold: the Stage3D runtime (its checks, upload's pairing), the assembler, reading
# JSON and limits, the interpreter (nothing calls it), and the glue, whose own work is
# small beside the library calls it makes. Hot: decoding, validation, the IR passes,
# the writers, the text walk and the disassembler its comments use.
cold=('src/runtime/*.c' src/asm/assemble.c src/core/json_read.c src/translate/limits.c 'src/interp/*.c' web/agal_web.c)
cflags=(-flto -std=c11 -Wall -Wextra -Wno-unused-parameter -Werror -DAGAL_VERSION="\"$version\"" -D_POSIX_C_SOURCE=200809L
  -I"$top/src" -I"$top/src/ir" -I"$work/include")
level_of() {
  local c
  for c in "${cold[@]}"; do [[ "$1" == $c ]] && { echo -Oz; return; }; done
  echo -O3
}
# Two compilers at a time (CI's cores); each one waited for by its pid, so that a failure stops the build.
mkdir -p "$work/obj"
objs=() pids=()
for f in "$top"/src/*/*.c "$here/agal_web.c"; do
  rel="${f#"$top"/}" && obj="$work/obj/${rel//\//_}.o"
  emcc "$(level_of "$rel")" "${cflags[@]}" -c "$f" -o "$obj" &
  objs+=("$obj") pids+=($!)
  if ((${#pids[@]} >= 2)); then
    wait "${pids[0]}"
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do wait "$pid"; done
emcc -O3 -flto -sMALLOC=emmalloc "${objs[@]}" \
  -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createModule -sSINGLE_FILE=1 -sENVIRONMENT=web \
  -sALLOW_MEMORY_GROWTH=1 -sFILESYSTEM=0 \
  -sEXPORTED_FUNCTIONS=_malloc,_free,_web_new,_web_free,_web_version,_web_heap_used,_web_options_size,_web_translate,_web_upload,_web_bindings_json,_web_assemble,_web_disassemble,\
_web_check_enum,_web_check_non_null,_web_check_back_buffer,_web_check_clear,_web_check_draw_instanced,_web_check_object_count,_web_check_memory,_web_check_buffer,_web_check_texture,_web_check_buffer_upload,_web_check_texture_upload,_web_check_draw_to_bitmap,_web_pipeline_state_size,_web_stage3d_name,_web_pair_new,_web_pair_free,_web_pipeline_key,_web_pipeline_key_json,_web_map_log \
  -sEXPORTED_RUNTIME_METHODS=UTF8ToString \
  -o "$work/package/agal2spv-wasm.js"
cp "$here/agal2spv.js" "$here/agal2spv.d.ts" "$here/openfl.js" "$here/openfl.d.ts" "$here/bench.mjs" "$here/README.md" \
  "$work/package/"
sed "s/@VERSION@/$version/" "$here/package.json" >"$work/package/package.json"
(cd "$work/package" && npm pack --silent --pack-destination "$out" >/dev/null)
echo "$out/agal2spv-$version.tgz"
