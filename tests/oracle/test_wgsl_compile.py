#!/usr/bin/env python3
"""Every WGSL translation through a real WGSL compiler: Dawn's Tint, from the npm
package webgpu (`npm ci --prefix tests/oracle`), on SwiftShader's Vulkan ICD.

dump_outputs (tests/snapshots/dump_outputs.c) writes each corpus program's WGSL and
that of N generated pairs (--random N), with agal_upload's WGSL of every pair
(--upload-code: the pairs' varyings declared centroid where a sample asks for it).
wgsl_compile.mjs compiles each program's module and makes a render pipeline of
each uploaded pair; any error or warning fails the test, as does a translation that
failed, a missing node, package or ICD (this test fails, it does not skip). agal2spv
--lenient adds programs that read registers they never wrote (zeros that WGSL must
not fold into 1.0 / 0.0 when it compiles) and kil a constant.

usage: test_wgsl_compile.py --node NODE --dumper EXE --agal2spv EXE --shaders DIR --random N [--icd JSON]
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ICD = "/usr/lib/chromium/vk_swiftshader_icd.json"  # Debian's chromium package ships it

# Lenient programs: every operation on registers never written (their zeros).
LENIENT = {
    "unwritten.frag": "// stage: fragment\n// agal-version: 2\n"
    "rcp ft1, ft0\nlog ft2, ft0\nadd ft1, ft1, ft2\nnrm ft3.xyz, ft5\nadd ft1, ft1, ft3\n"
    "div ft4, ft6, ft7\nadd ft1, ft1, ft4\nrsq ft4, ft6\nadd ft1, ft1, ft4\nkil ft6.x\nmov oc, ft1\n",
    "unwritten.vert": "// stage: vertex\n// agal-version: 2\n"
    "pow vt1, vt0, vt2\ncrs vt3.xyz, vt0, vt4\nadd vt1, vt1, vt3\nm44 vt5, vt6, vc0\nadd vt1, vt1, vt5\n"
    "sqt vt7, vt0\nexp vt6, vt0\nadd vt1, vt1, vt7\nadd vt1, vt1, vt6\nsge vt2, vt0, vt3\n"
    "sne vt4, vt0, vt0\nadd vt1, vt1, vt4\nadd op, vt1, vt2\n",
}


def fail(msg):
    sys.exit(f"wgsl_compile: {msg}")


def checks(out):
    """The check lines of wgsl_compile.mjs, and the failed translations."""
    lines, failed = [], []
    wgsl = os.path.join(out, "wgsl")
    for name in sorted(os.listdir(wgsl)):
        path = os.path.join(wgsl, name)
        with open(path, "rb") as f:
            if f.read(6) == b"error:":
                failed.append(name)
                continue
        reflection = os.path.join(out, "reflect_gl", name + ".json")  # its "webgpu" part
        lines.append(f"module {path} {reflection}" if os.path.isfile(reflection) else f"module {path}")
    upload = os.path.join(out, "upload")
    for name in sorted(os.listdir(upload)):
        if not name.endswith(".wgsl.vert"):
            continue
        vert = os.path.join(upload, name)
        lines.append(f"pair {vert} {vert[:-5]}.frag")
    for name in sorted(os.listdir(upload)):
        if name.endswith(".wgsl.txt"):
            with open(os.path.join(upload, name), "rb") as f:
                if f.read(6) == b"error:":
                    failed.append(name)
    return lines, failed


def lenient(agal2spv, out):
    """The check lines of the LENIENT programs, translated by agal2spv."""
    lines = []
    for name, text in sorted(LENIENT.items()):
        src, dst = os.path.join(out, name + ".agal"), os.path.join(out, name + ".wgsl")
        with open(src, "w") as f:
            f.write(text)
        r = subprocess.run([agal2spv, "--lenient", "-t", "wgsl", src, "-o", dst], capture_output=True, text=True)
        if r.returncode != 0:
            fail(f"agal2spv --lenient -t wgsl {name}:\n{r.stderr}")
        lines.append(f"module {dst}")
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--node", required=True)
    ap.add_argument("--dumper", required=True)
    ap.add_argument("--agal2spv", required=True)
    ap.add_argument("--shaders", required=True)
    ap.add_argument("--random", type=int, required=True)
    ap.add_argument("--icd", default=ICD)
    args = ap.parse_args()
    if not os.path.isfile(args.node):
        fail(f"no node ({args.node}): install nodejs")
    if not os.path.isdir(os.path.join(HERE, "node_modules", "webgpu")):
        fail("no npm package webgpu in tests/oracle/node_modules: run `npm ci --prefix tests/oracle`")
    if not os.path.isfile(args.icd):
        fail(f"no SwiftShader Vulkan ICD at {args.icd}: install Debian's chromium package")
    with tempfile.TemporaryDirectory() as out:
        r = subprocess.run([args.dumper, out, "--corpus", args.shaders, "--random", str(args.random), "--upload-code"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            fail(f"{args.dumper} failed:\n{r.stdout}{r.stderr}")
        lines, failed = checks(out)
        lines += lenient(args.agal2spv, out)
        if failed:
            fail(f"{len(failed)} WGSL translations failed: {' '.join(failed[:20])}")
        listing = os.path.join(out, "checks.txt")
        with open(listing, "w") as f:
            f.write("\n".join(lines) + "\n")
        env = dict(os.environ, VK_ICD_FILENAMES=args.icd)
        r = subprocess.run([args.node, os.path.join(HERE, "wgsl_compile.mjs"), listing], capture_output=True,
                           text=True, env=env, cwd=HERE)
        # Dawn's own chatter (XDG_RUNTIME_DIR) goes to stderr: shown only on failure.
        sys.stdout.write(r.stdout.replace(out + "/", ""))
        if r.returncode != 0:
            sys.stdout.write(r.stderr)
            fail(f"node exited with {r.returncode}")


if __name__ == "__main__":
    main()
