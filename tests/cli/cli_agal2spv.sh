#!/bin/sh
# cli_agal2spv.sh AGAL2SPV SPIRV_VAL: the agal2spv command line: exit codes (0 ok,
# 1 invalid program, 2 usage/IO), --check diagnostics with Flash ids, outputs of each
# target checked by spirv-val and by content.
set -u
A2S=$1
VAL=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
expect() { # expect CODE DESCRIPTION command...
    want=$1; what=$2; shift 2
    "$@" >"$T/out" 2>"$T/err"
    got=$?
    if [ "$got" != "$want" ]; then
        echo "FAIL: $what: exit $got, want $want"; cat "$T/err"; fail=1
    fi
}
has() { # has FILE TEXT DESCRIPTION
    grep -q -- "$2" "$1" || { echo "FAIL: $3: no '$2' in"; cat "$1"; fail=1; }
}

printf '// stage: vertex\n// agal-version: 1\nm44 op, va0, vc0\nmov v0, va1\n' >"$T/ok.vert.agal"
printf '// stage: fragment\n// agal-version: 1\ntex ft0, v0, fs0 <2d,linear>\nmov oc, ft0\n' >"$T/ok.frag.agal"
printf '// stage: vertex\n// agal-version: 1\nadd op, vt3, va0\n' >"$T/unwritten.agal"
printf '// stage: vertex\n// agal-version: 1\nm44 op, va0, vc0\nmov v0.xy, va1\n' >"$T/partial.vert.agal"

expect 0 "check valid" "$A2S" --check "$T/ok.vert.agal"
# Text Adobe's assembler reads its own way: translated, with the warning.
printf '// stage: vertex\n// agal-version: 1\nm44 op, va0, vc0\nmov v0, va1.xyzt\n' >"$T/typo.vert.agal"
expect 0 "text with a typo" "$A2S" --check "$T/typo.vert.agal"
has "$T/err" "typo.vert.agal: warning: line 4, column 16: Adobe's assembler reads 'va1.xyz' and ignores 't'" \
    "the assembler's warning"
expect 1 "check unwritten temp" "$A2S" --check "$T/unwritten.agal"
has "$T/err" "error 3647" "3647 diagnostic"
has "$T/err" "unwritten.agal: token 1 (add)" "diagnostic names file and token (counting from 1)"
expect 0 "lenient accepts unwritten temp" "$A2S" --check --lenient "$T/unwritten.agal"
expect 0 "check and link a pair" "$A2S" --check "$T/ok.vert.agal" "$T/ok.frag.agal"
expect 1 "link partial varying" "$A2S" --check "$T/partial.vert.agal" "$T/ok.frag.agal"
has "$T/err" "error 3633" "3633 diagnostic"
# --profile takes Context3DProfile's names: vc130 is past baseline's 128 registers.
printf '// stage: vertex\n// agal-version: 1\nmov op, vc130\n' >"$T/vc130.agal"
expect 1 "vc130 in AGAL1's own profile" "$A2S" --check "$T/vc130.agal"
has "$T/err" "error 3659" "3659 past the profile's registers"
expect 1 "--profile baselineConstrained" "$A2S" --check --profile baselineConstrained "$T/vc130.agal"
for p in standardConstrained standard standardExtended enhanced standard_extended; do
    expect 0 "--profile $p" "$A2S" --check --profile "$p" "$T/vc130.agal"
done
expect 2 "--profile an unknown name" "$A2S" --check --profile Standard "$T/vc130.agal"
has "$T/err" "agal2spv: --profile: 'Standard' is not a profile (a Context3DProfile name" "the profile message"
expect 2 "missing file" "$A2S" --check "$T/nope.agal"
expect 2 "unknown option" "$A2S" --frobnicate "$T/ok.vert.agal"
expect 2 "bad target" "$A2S" -t dxil "$T/ok.vert.agal"
expect 2 "no input" "$A2S"
# --flash: exactly Flash Player's lines on stderr, one per diagnostic.
same() { # same FILE TEXT DESCRIPTION: the file is exactly TEXT and a newline
    printf '%s\n' "$2" >"$T/want"
    cmp -s "$1" "$T/want" || { echo "FAIL: $3:"; cat "$1"; echo "want:"; cat "$T/want"; fail=1; }
}
expect 1 "flash: unwritten temp" "$A2S" --check --flash "$T/unwritten.agal"
same "$T/err" "Error #3647: AGAL validation failed: Temporary register read without being written to for source operand 1 at token 1 of vertex program." "--flash line"
printf '// stage: fragment\n// agal-version: 1\nmov ft0, oc\nmov oc, fc0\n' >"$T/readoc.frag.agal"
expect 1 "flash: pair, fragment fails" "$A2S" --check --flash "$T/ok.vert.agal" "$T/readoc.frag.agal"
same "$T/err" "Error #3646: AGAL validation failed: Can not read from output register for source operand 1 at token 1 of fragment program." "--flash names the fragment slot"
expect 1 "flash: linkage" "$A2S" --check --flash "$T/partial.vert.agal" "$T/ok.frag.agal"
same "$T/err" "Error #3633: AGAL linkage: Varying 0 is only partially written to. Must write all four components." "--flash linkage line"
# A header and nothing else, as the second (fragment) program: 3615 before the version.
printf '\240\143\000\000\000\241\001' >"$T/v99.bin"
expect 1 "flash: header only, version 99" "$A2S" --check --flash "$T/ok.vert.agal" "$T/v99.bin"
same "$T/err" "Error #3615: AGAL validation failed: Program size below minimum length for fragment program." "--flash 3615"
# Bytecode with a bad magic byte: 3616.
printf '\260\001\000\000\000\241\000' >"$T/badmagic.bin"
head -c 24 /dev/zero >>"$T/badmagic.bin"
expect 1 "bad magic" "$A2S" --check "$T/badmagic.bin"
has "$T/err" "error 3616" "3616 diagnostic"

expect 0 "spv output" "$A2S" "$T/ok.frag.agal" -o "$T/f.spv"
expect 0 "spirv-val fragment" "$VAL" --target-env vulkan1.0 "$T/f.spv"
expect 0 "spv -O" "$A2S" -O "$T/ok.vert.agal" -o "$T/v.spv"
expect 0 "spirv-val optimized vertex" "$VAL" --target-env vulkan1.0 "$T/v.spv"
expect 0 "spvasm -O" "$A2S" -O -t spvasm "$T/ok.vert.agal"
has "$T/out" "SpecId 0" "-O keeps the render-to-texture spec constant"
expect 0 "spvasm" "$A2S" -t spvasm "$T/ok.vert.agal" -o "$T/v.spvasm"
has "$T/v.spvasm" "OpEntryPoint Vertex" "spvasm entry point"
has "$T/v.spvasm" "OpFNegate" "Vulkan y flip by default"
expect 0 "spvasm clip none -g0" "$A2S" -t spvasm --clip none -g0 "$T/ok.vert.agal"
grep -q OpFNegate "$T/out" && { echo "FAIL: --clip none still negates y"; fail=1; }
grep -q OpName "$T/out" && { echo "FAIL: -g0 kept names"; fail=1; }
expect 0 "ir" "$A2S" -t ir "$T/ok.frag.agal"
has "$T/out" "store oc0.xyzw" "IR store"
has "$T/out" "sample tex fs0" "IR tex"
expect 0 "reflect" "$A2S" "$T/ok.vert.agal" --reflect "$T/r.json" -o "$T/v2.spv"
has "$T/r.json" '"constants": \[{"first": 0, "count": 4}\]' "reflection constants"
has "$T/r.json" '"register": "va1", "mask": "xyzw"' "reflection attribute"
# GLSL ES: -t essl3 / essl1, and the reflection's "gl" part (what a WebGL runtime binds).
expect 0 "essl3" "$A2S" -t essl3 "$T/ok.frag.agal" --reflect "$T/e3.json"
has "$T/out" "#version 300 es" "essl3 version line"
has "$T/out" "texture(fs0, v0.xy)" "essl3 texture call"
has "$T/e3.json" '"target": "essl3"' "essl3 reflection target"
has "$T/e3.json" '"samplers": \[{"name": "fs0", "unit": 0, "type": "sampler2D"}\]' "essl3 reflection sampler unit"
expect 0 "essl1 vertex" "$A2S" -t essl1 "$T/ok.vert.agal" --reflect "$T/e1.json"
has "$T/out" "uniform vec4 vc\[4\];" "essl1 array sized to the reads"
has "$T/out" "attribute vec4 va0;" "essl1 attribute"
has "$T/e1.json" '"constants": {"name": "vc", "count": 4, "block": null, "indirect": false}' "essl1 reflection array"
has "$T/e1.json" '"yflip": "agal_yflip"' "essl1 reflection yflip"
has "$T/e1.json" '"attributes": \[{"name": "va0", "location": null}, {"name": "va1", "location": null}\]' \
    "essl1 attributes without locations"
printf '// stage: fragment\n// agal-version: 2\nddx ft0, v0\nmov oc, ft0\nmov fd.x, ft0\n' >"$T/ext.frag.agal"
expect 0 "essl1 extensions" "$A2S" -t essl1 "$T/ext.frag.agal" --reflect "$T/ext.json"
has "$T/out" "#extension GL_OES_standard_derivatives : enable" "essl1 derivatives extension"
has "$T/out" "#extension GL_EXT_frag_depth : enable" "essl1 depth extension"
has "$T/ext.json" '{"glsl": "GL_OES_standard_derivatives", "webgl": "OES_standard_derivatives"}' \
    "reflection names the WebGL extension"
has "$T/ext.json" '"depth": "gl_FragDepthEXT"' "reflection names the depth output"
printf '// stage: vertex\n// agal-version: 3\nadd op, va0, iid\n' >"$T/iid.vert.agal"
expect 0 "essl3 iid" "$A2S" -t essl3 "$T/iid.vert.agal"
has "$T/out" "gl_InstanceID" "essl3 instance id"
expect 1 "essl1 cannot express iid" "$A2S" -t essl1 "$T/iid.vert.agal"
has "$T/err" "iid: GLSL ES 1.00 (WebGL 1) has no instance id" "essl1 names iid"
# WGSL: -t wgsl, its bindings (separate samplers), iid and fd as built-ins.
expect 0 "wgsl fragment" "$A2S" -t wgsl "$T/ok.frag.agal"
has "$T/out" "@group(0) @binding(18) var fs0_sampler: sampler;" "wgsl separate sampler"
has "$T/out" "textureSample(fs0, fs0_sampler, v0.xy)" "wgsl texture call"
expect 0 "wgsl iid" "$A2S" -t wgsl "$T/iid.vert.agal"
has "$T/out" "@builtin(instance_index) iid: u32" "wgsl instance index"
has "$T/out" "@id(0) override agal_yflip: f32 = 1.0;" "wgsl y flip override"
expect 0 "wgsl depth" "$A2S" -t wgsl "$T/ext.frag.agal"
has "$T/out" "@builtin(frag_depth) fd: f32" "wgsl frag_depth"
has "$T/out" "dpdx(v0)" "wgsl ddx"
# Text input with explicit stage/version (no header comments).
printf 'mov oc, v0\n' >"$T/plain.txt"
expect 0 "text with --stage" "$A2S" --stage fragment --agal-version 2 "$T/plain.txt" -o "$T/p.spv"
expect 0 "spirv-val text input" "$VAL" --target-env vulkan1.0 "$T/p.spv"
# -t ir --after PASS: the pipeline stage by stage. A program with a mov (copy
# propagation), a dead computation (dead code) and a register read twice (shared
# loads): each optimization changes the text, the last stage is -t ir's.
printf '// stage: fragment\n// agal-version: 1\nmov ft0, v0\nadd ft1, v0, fc0\nmul ft2, ft0, fc1\nadd oc, ft2, fc1\n' >"$T/stages.agal"
expect 0 "-t ir" "$A2S" -t ir "$T/stages.agal" -o "$T/ir.final"
prev=""
for stage in build lower_unread_varyings lower_hoist_tex opt_copy_prop opt_dce opt_share_loads; do
    expect 0 "--after $stage" "$A2S" -t ir --after "$stage" "$T/stages.agal" -o "$T/ir.$stage"
    [ -s "$T/ir.$stage" ] || { echo "FAIL: --after $stage wrote nothing"; fail=1; }
    case $stage in opt_*)
        if cmp -s "$T/ir.$stage" "$prev"; then echo "FAIL: $stage changed nothing"; fail=1; fi ;;
    esac
    prev="$T/ir.$stage"
done
cmp -s "$T/ir.opt_share_loads" "$T/ir.final" || { echo "FAIL: --after the last pass is not -t ir's text"; fail=1; }
expect 2 "--after an unknown stage" "$A2S" -t ir --after fold "$T/stages.agal"
has "$T/err" "its stages: build lower_conventions lower_unread_varyings lower_hoist_tex lower_pack_varyings opt_copy_prop opt_dce opt_share_loads" \
    "the unknown stage's message lists the stages"
expect 2 "--after without -t ir" "$A2S" --after build "$T/stages.agal"
# --limits NAME|FILE.json: a program that cannot fit is refused (exit 1, no output)
# with one diagnostic naming the limit, on every target; limits that fit change no byte.
printf '// stage: vertex\n// agal-version: 3\nadd op, va0, va8\n' >"$T/va8.agal"
printf '// stage: fragment\n// agal-version: 2\nmov oc, fc60\n' >"$T/fc60.agal"
for t in spv glsl essl3 essl1 wgsl; do
    rm -f "$T/refused.out"
    expect 1 "va8 under webgl1 (-t $t)" "$A2S" -t "$t" --limits webgl1 "$T/va8.agal" -o "$T/refused.out"
    same "$T/err" "$T/va8.agal: error 3613: vertex program: 9 vertex attributes needed, the limits allow 8 (webgl1)" \
        "the refusal's one line (-t $t)"
    [ -e "$T/refused.out" ] && { echo "FAIL: a refused translation wrote output (-t $t)"; fail=1; }
done
expect 1 "va8 under webgl1, --flash" "$A2S" --flash --limits webgl1 "$T/va8.agal"
same "$T/err" "Error #3613: The native shader compilation failed." "Flash's line for the refusal"
expect 0 "va8 within webgl2" "$A2S" -t essl3 --limits webgl2 "$T/va8.agal" -o "$T/va8.webgl2"
expect 0 "va8 unlimited" "$A2S" -t essl3 "$T/va8.agal" -o "$T/va8.none"
cmp -s "$T/va8.webgl2" "$T/va8.none" || { echo "FAIL: limits that fit changed the text"; fail=1; }
# fc60 under 16 uniform vectors: packed, fc60 in vec4 0 (the reflection's ranges say so);
# 17 registers read do not fit 16.
printf '{"name": "phone", "fragment_uniform_vectors": 16}\n' >"$T/phone.json"
expect 0 "fc60 under a file's 16 uniform vectors" "$A2S" -t essl1 --limits "$T/phone.json" "$T/fc60.agal" \
    -o "$T/fc60.essl1" --reflect "$T/fc60.json"
has "$T/fc60.essl1" 'uniform vec4 fc\[1\];' "fc60 packed into one vector"
has "$T/fc60.essl1" 'oc0 = fc\[0\];' "fc60 read from vec4 0"
has "$T/fc60.json" '"ranges": \[{"first": 60, "count": 1, "offset": 0}\]' "the packed block's ranges"
{ printf '// stage: fragment\n// agal-version: 2\nmov ft0, fc0\n'
  for i in 3 6 9 12 15 18 21 24 27 30 33 36 39 42 45 48; do printf 'add ft0, ft0, fc%s\n' "$i"; done
  printf 'mov oc, ft0\n'; } >"$T/fc17.agal"
expect 1 "17 registers under a file's 16 uniform vectors" "$A2S" -t essl1 --limits "$T/phone.json" "$T/fc17.agal"
same "$T/err" "$T/fc17.agal: error 3613: fragment program: 17 uniform vectors needed, the limits allow 16 (phone)" \
    "the file's limits, named"
printf '{"fragment_uniform_vectors": 16}\n' >"$T/anon.json"
expect 1 "a file naming no device" "$A2S" -t essl1 --limits "$T/anon.json" "$T/fc17.agal"
has "$T/err" "the limits allow 16 ($T/anon.json)" "a file naming no device is named by its path"
printf '{"fragment_uniform_vectors": 16, "fragment_samplers": 8}\n' >"$T/unknown.json"
expect 2 "an unknown key" "$A2S" --limits "$T/unknown.json" "$T/fc60.agal"
same "$T/err" "agal2spv: --limits: $T/unknown.json: error: limits JSON, byte 33: unknown key \"fragment_samplers\"" \
    "the unknown key's message"
printf '{"varying_vectors": "8"}\n' >"$T/string.json"
expect 2 "a string count" "$A2S" --limits "$T/string.json" "$T/fc60.agal"
has "$T/err" "a count is an integer from 0 to 65535" "the bad type's message"
# A pair without --check: translated as agal_upload does, to OUT.vert and OUT.frag,
# and held to --limits as a pair (9 samplers under webgl1: the fragment program's).
printf '// stage: vertex\n// agal-version: 2\nmov op, va0\nmov v0, va1\n' >"$T/pair.vert.agal"
{ printf '// stage: fragment\n// agal-version: 2\ntex ft0, v0, fs0 <2d,linear>\n'
  for i in 1 2 3 4 5 6 7 8; do printf 'tex ft1, v0, fs%s <2d,linear>\nadd ft0, ft0, ft1\n' "$i"; done
  printf 'mov oc, ft0\n'; } >"$T/fs9.frag.agal"
expect 1 "a pair of 9 samplers under webgl1" "$A2S" -t essl1 --limits webgl1 "$T/pair.vert.agal" "$T/fs9.frag.agal" -o "$T/pair"
same "$T/err" "$T/fs9.frag.agal: error 3613: fragment program: 9 texture units needed, the limits allow 8 (webgl1)" \
    "the pair's refusal names the fragment program"
[ -e "$T/pair.vert" ] || [ -e "$T/pair.frag" ] && { echo "FAIL: a refused pair wrote output"; fail=1; }
expect 0 "the pair within webgl2" "$A2S" -t essl1 --limits webgl2 "$T/pair.vert.agal" "$T/fs9.frag.agal" -o "$T/pair"
has "$T/pair.frag" "uniform sampler2D fs8;" "the pair's fragment text"
# under limits the pair's varyings are packed: v0, sampled in 2D, carries xy
has "$T/pair.vert" "varying vec2 agal_pack0;" "the pair's vertex text"
expect 0 "a SPIR-V pair" "$A2S" "$T/pair.vert.agal" "$T/fs9.frag.agal" -o "$T/pair"
expect 0 "spirv-val the pair's vertex module" "$VAL" --target-env vulkan1.0 "$T/pair.vert"
expect 0 "spirv-val the pair's fragment module" "$VAL" --target-env vulkan1.0 "$T/pair.frag"
# --samples 1: single-sampled targets, where a centroid sample's varying is no
# centroid varying; any other count keeps the qualifier.
printf '// stage: fragment\n// agal-version: 2\ntex ft0, v0, fs0 <2d,linear,centroid>\nmov oc, ft0\n' >"$T/centroid.frag.agal"
expect 0 "a centroid pair" "$A2S" -t essl3 "$T/pair.vert.agal" "$T/centroid.frag.agal" -o "$T/c"
has "$T/c.vert" "^centroid out vec4 v0;" "the centroid pair's vertex text"
has "$T/c.frag" "^centroid in vec4 v0;" "the centroid pair's fragment text"
expect 0 "a centroid pair, 4 samples" "$A2S" -t essl3 --samples 4 "$T/pair.vert.agal" "$T/centroid.frag.agal" -o "$T/c4"
cmp -s "$T/c.frag" "$T/c4.frag" || { echo "FAIL: --samples 4 changed the fragment text"; fail=1; }
expect 0 "a centroid pair, 1 sample" "$A2S" -t wgsl --samples 1 "$T/pair.vert.agal" "$T/centroid.frag.agal" -o "$T/c1"
grep -q "centroid)" "$T/c1.vert" "$T/c1.frag" && { echo "FAIL: --samples 1 kept @interpolate(perspective, centroid)"; fail=1; }
has "$T/c1.frag" "@location(0) v0: vec4f" "the single-sampled fragment text"
expect 2 "3 samples" "$A2S" --samples 3 "$T/pair.vert.agal" "$T/centroid.frag.agal" -o "$T/c3"
has "$T/err" "agal2spv: --samples is 1, 2, 4, 8 or 16" "the bad count's message"
expect 2 "--samples with one program" "$A2S" --samples 1 "$T/pair.vert.agal"
expect 2 "a pair without -o" "$A2S" -t essl1 "$T/pair.vert.agal" "$T/fs9.frag.agal"
expect 2 "a pair with -t ir" "$A2S" -t ir "$T/pair.vert.agal" "$T/fs9.frag.agal" -o "$T/pair"
expect 2 "an unknown preset" "$A2S" --limits webgl9 "$T/fc60.agal"
has "$T/err" "agal2spv: --limits: 'webgl9' is neither a preset (webgl1, webgl2, gl33, vulkan, webgpu, webgpu-compat, wgpu-gl31) nor a readable JSON file" \
    "the unknown preset's message lists the presets"
exit $fail
