#!/usr/bin/env python3
"""Every corpus program's WGSL run by Dawn (the npm package webgpu, on SwiftShader's
Vulkan ICD) against the reference interpreter on the same inputs.

Each fragment program gets seeded random constants, varyings (the same at every
pixel, so derivatives are 0 in both) and 1x1 textures (so every filter and wrap
reads the texel); wgsl_render.mjs draws it into rgba32float targets, `agalrun
interp` runs it on a quad of those invocations. Each vertex program gets seeded
constants, attributes and iid 2; wgsl_render.mjs calls its main from a compute
shader that stores op and the varyings. Every output must agree within 2e-3
(absolute and relative: SwiftShader's transcendental functions are
approximations), a killed fragment on both sides. A missing node, package or ICD
fails the test.

usage: test_wgsl_render.py --node NODE --agal2spv EXE --agalrun EXE --shaders DIR [--icd JSON]
"""
import argparse
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ICD = "/usr/lib/chromium/vk_swiftshader_icd.json"
TOLERANCE = 2e-3


def fail(msg):
    sys.exit(f"wgsl_render: {msg}")


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        fail(f"{' '.join(cmd)}:\n{r.stdout}{r.stderr}")
    return r.stdout


def make_case(name, wgsl, rng):
    """The case's inputs, from what the WGSL declares."""
    count = re.search(r"var<uniform> [vf]c: array<vec4f, (\d+)>", wgsl)
    constants = [[round(rng.uniform(0.1, 1.0), 3) for _ in range(4)] for _ in range(int(count.group(1)) if count else 0)]
    varyings = {f"v{n}": [round(rng.uniform(0.1, 0.9), 3) for _ in range(4)]
                for n in re.findall(r"@location\((\d+)\) v\d+: vec4f", wgsl)}
    textures = [{"sampler": int(n), "dim": "cube" if kind == "cube" else "2d", "texel": [rng.randrange(256) for _ in range(4)]}
                for n, kind in re.findall(r"var fs(\d+): texture_(2d|cube)<f32>", wgsl)]
    if name.endswith(".vert.agal"):
        attributes = {f"va{n}": [round(rng.uniform(-1.0, 1.0), 3) for _ in range(4)]
                      for n in re.findall(r"@location\((\d+)\) va\d+: vec4f", wgsl)}
        return {"name": name, "wgsl": wgsl, "constants": constants, "stage": "vertex", "attributes": attributes,
                "iid": 2}
    return {"name": name, "wgsl": wgsl, "constants": constants, "varyings": varyings, "textures": textures}


def interp_inputs(case):
    constants = case["constants"] or [[0, 0, 0, 0]]
    if case.get("stage") == "vertex":
        return {"constants": constants, "invocations": [dict(case["attributes"], iid=case["iid"])]}
    textures = []
    for t in case["textures"]:
        texel = [x / 255 for x in t["texel"]]
        level = [[texel]] * 6 if t["dim"] == "cube" else [texel]
        textures.append({"sampler": t["sampler"], "dim": t["dim"], "width": 1, "height": 1, "levels": [level]})
    return {"constants": constants, "invocations": [case["varyings"]] * 4, "textures": textures}


def close(a, b):
    return all(math.isclose(x, y, rel_tol=TOLERANCE, abs_tol=TOLERANCE) or (math.isnan(x) and math.isnan(y))
               for x, y in zip(a, b))


def compare(case, drawn, expected):
    """Differences between Dawn's drawing and the interpreter's first invocation."""
    if "error" in drawn:
        return [f"{case['name']}: {drawn['error']}"]
    if expected.get("killed") or drawn.get("killed"):
        same = bool(expected.get("killed")) == bool(drawn.get("killed"))
        return [] if same else [f"{case['name']}: killed {drawn.get('killed', False)}, interpreter {expected.get('killed')}"]
    missing = [f"{case['name']}: no {k}" for k in expected if re.fullmatch(r"oc\d|op|v\d", k) and k not in drawn]
    return missing + [f"{case['name']}: {k} {drawn[k]}, interpreter {v}" for k, v in expected.items()
                      if re.fullmatch(r"oc\d|op|v\d", k) and k in drawn and not close(drawn[k], v)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--node", required=True)
    ap.add_argument("--agal2spv", required=True)
    ap.add_argument("--agalrun", required=True)
    ap.add_argument("--shaders", required=True)
    ap.add_argument("--icd", default=ICD)
    args = ap.parse_args()
    if not os.path.isfile(args.node):
        fail(f"no node ({args.node}): install nodejs")
    if not os.path.isdir(os.path.join(HERE, "node_modules", "webgpu")):
        fail("no npm package webgpu in tests/oracle/node_modules: run `npm ci --prefix tests/oracle`")
    if not os.path.isfile(args.icd):
        fail(f"no SwiftShader Vulkan ICD at {args.icd}: install Debian's chromium package")
    rng = random.Random(26)
    names = sorted(n for n in os.listdir(args.shaders) if n.endswith((".frag.agal", ".vert.agal")))
    with tempfile.TemporaryDirectory() as tmp:
        cases, expected = [], []
        for name in names:
            src = os.path.join(args.shaders, name)
            case = make_case(name, run([args.agal2spv, "-t", "wgsl", src]), rng)
            inputs = os.path.join(tmp, name + ".json")
            with open(inputs, "w") as f:
                json.dump(interp_inputs(case), f)
            expected.append(json.loads(run([args.agalrun, "interp", src, "--inputs", inputs]))["invocations"][0])
            cases.append(case)
        listing = os.path.join(tmp, "cases.json")
        with open(listing, "w") as f:
            json.dump(cases, f)
        out = run([args.node, os.path.join(HERE, "wgsl_render.mjs"), listing], env=dict(os.environ, VK_ICD_FILENAMES=args.icd),
                  cwd=HERE)
    drawn = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    if len(drawn) != len(cases):
        fail(f"{len(drawn)} drawings for {len(cases)} programs")
    bad = [d for c, r, e in zip(cases, drawn, expected) for d in compare(c, r, e)]
    for line in bad:
        print(line)
    print(f"wgsl_render: {len(cases)} programs run, {len(bad)} differences from the interpreter")
    if bad:
        sys.exit(1)


if __name__ == "__main__":
    main()
