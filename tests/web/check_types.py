#!/usr/bin/env python3
"""The web package's TypeScript types: tests/web/check_types.py --tsc TSC --webgpu-types DIR.

Compiles tests/web/typical_use.ts (a WebGL 2, WebGL 1 and WebGPU runtime binding from
the types alone, with no cast) with `tsc --strict` against web/agal2spv.d.ts and
@webgpu/types; then a use the types must refuse, each line on its own (SPIR-V's
words as text, a string target outside the union, bindGroupLayout for essl3, a
name for WGSL), must fail with TypeScript's error on that line, so types that stop
narrowing by target fail the test. tsc is npm's typescript, pinned in
tests/oracle/package.json; a missing one fails the test."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))

REFUSED = [
    "const text: string = agal.translate(b, { target: 'spirv' }).code;",
    "agal.translate(b, { target: 'hlsl' });",
    "agal.upload(b, b, { target: 'essl3' }).bindings.bindGroupLayout.entries;",
    "const name: string = agal.translate(b, { target: 'wgsl' }).bindings.attributes[0].name;",
    "const wrap: 'clamp' = agal.translate(b).bindings.samplers[0].wrap;",
    "agal.upload(b, b, { contextProfile: 'standardextended' });",
    "agal.translate(b, { names: { sampler: 1 } });",
    "agal.pipelineKey(agal.upload(b, b), { culling: 'sideways' });",
    "agal.mapDriverLog(agal.upload(b, b), 'geometry', '');",
    "agal.translate(b, { debugInfo: 'yes' });",
    "agal.upload(b, b, { stripNames: 'yes' });",
    "agal.upload(b, b, { samples: 3 });",
    "agal.translate(b, { samples: 1 });",
    "agal.upload(b, b, { clip: 'd3d' });",
    "agal.pipelineKey(agal.upload(b, b), { vertexBuffers: [{ format: 'float4' }] });",
]


def tsc(args, tmp, files):
    config = {"compilerOptions": {"strict": True, "noEmit": True, "target": "es2022", "module": "es2022",
                                  "moduleResolution": "bundler", "lib": ["es2022", "dom"],
                                  "typeRoots": [os.path.abspath(args.webgpu_types)], "types": ["types"],
                                  "paths": {"agal2spv": [os.path.join(TOP, "web", "agal2spv.d.ts")]}},
              "files": files}
    path = os.path.join(tmp, "tsconfig.json")
    json.dump(config, open(path, "w"))
    return subprocess.run([args.tsc, "-p", path], capture_output=True, text=True, timeout=280)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tsc", required=True)
    ap.add_argument("--webgpu-types", required=True, help="the folder holding @webgpu/types (its 'types')")
    args = ap.parse_args()
    if not os.path.isfile(args.tsc):
        print("%s is missing: run `npm ci --prefix tests/oracle`" % args.tsc)
        return 1
    with tempfile.TemporaryDirectory(prefix="agal-types-") as tmp:
        r = tsc(args, tmp, [os.path.join(HERE, "typical_use.ts")])
        print("typical_use.ts: %s" % ("compiles" if r.returncode == 0 else "FAILS\n" + r.stdout + r.stderr))
        ok = r.returncode == 0
        refused = os.path.join(tmp, "refused.ts")
        with open(refused, "w") as f:
            f.write("import { load } from 'agal2spv';\nconst agal = await load();\nconst b = new Uint8Array(0);\n")
            f.write("".join("{ %s }\n" % line for line in REFUSED))
            f.write("export {};\n")
        r = tsc(args, tmp, [refused])
        for i, line in enumerate(REFUSED):
            hit = "refused.ts(%d," % (i + 4) in r.stdout
            print("refused: %s: %s" % (line, "an error" if hit else "ACCEPTED"))
            ok = ok and hit
        ok = ok and r.stdout.count("error TS") == len(REFUSED)
        if not ok:
            print(r.stdout + r.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
