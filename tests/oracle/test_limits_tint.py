#!/usr/bin/env python3
"""Issue 34's proof, Tint's part: every WGSL pair the webgpu preset lets through
(test_limits_glslang's corpus pairs and N generated pairs, written with OUT_DIR)
compiles in Dawn's Tint and makes a render pipeline on a device of WebGPU's default
limits, the preset's source (wgsl_compile.mjs "pair" checks: any error or warning
fails). A missing node, package or ICD fails the test, as in test_wgsl_compile.py.

usage: test_limits_tint.py --node NODE --prover EXE --shaders DIR --pairs N [--icd JSON]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ICD = "/usr/lib/chromium/vk_swiftshader_icd.json"  # Debian's chromium package ships it


def fail(msg):
    sys.exit(f"limits_tint: {msg}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--node", required=True)
    ap.add_argument("--prover", required=True)
    ap.add_argument("--shaders", required=True)
    ap.add_argument("--pairs", type=int, required=True)
    ap.add_argument("--icd", default=ICD)
    args = ap.parse_args()
    if not os.path.isfile(args.node):
        fail(f"no node ({args.node}): install nodejs")
    if not os.path.isdir(os.path.join(HERE, "node_modules", "webgpu")):
        fail("no npm package webgpu in tests/oracle/node_modules: run `npm ci --prefix tests/oracle`")
    if not os.path.isfile(args.icd):
        fail(f"no SwiftShader Vulkan ICD at {args.icd}: install Debian's chromium package")
    with tempfile.TemporaryDirectory() as out:
        r = subprocess.run([args.prover, args.shaders, str(args.pairs), out], capture_output=True, text=True)
        sys.stdout.write(r.stdout)
        if r.returncode != 0:
            fail(f"{args.prover} failed:\n{r.stderr}")
        listing = os.path.join(out, "checks.txt")
        with open(listing) as f:
            written = sum(1 for line in f if line.startswith("pair "))
        if written < args.pairs // 5:
            fail(f"only {written} pairs written for Tint")
        env = dict(os.environ, VK_ICD_FILENAMES=args.icd)
        r = subprocess.run([args.node, os.path.join(HERE, "wgsl_compile.mjs"), listing], capture_output=True,
                           text=True, env=env, cwd=HERE)
        sys.stdout.write(r.stdout.replace(out + "/", ""))
        if r.returncode != 0:
            sys.stdout.write(r.stderr)
            fail(f"node exited with {r.returncode}")
        made = re.search(r"([0-9]+) pairs made pipelines, 0 with messages", r.stdout)
        if not made or int(made.group(1)) != written:
            fail(f"{written} pairs written, not all made pipelines")


if __name__ == "__main__":
    main()
