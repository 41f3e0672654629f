#!/usr/bin/env python3
"""File snapshots of every corpus program's outputs (tests/snapshots/, naga-style).

tests/snapshots/dump_outputs.c writes each output of shaders/*.agal (IR text, SPIR-V, GLSL 330,
GLSL ES 3.00 and 1.00, WGSL, reflection JSON, the GL reflection per target,
agal_upload's layout per pair; tests/snapshots/README.md lists them); the SPIR-V becomes spirv-dis
text (--raw-id: the ids as written, so a change of numbering shows). Every file must
equal its snapshot: a difference, a missing or an extra file fails, with a diff.

--update writes the outputs over the snapshots instead (stale files removed): run
`meson compile -C BUILD update-snapshots`, then review and commit the diff.

usage: snapshots.py --dumper EXE --shaders DIR --spirv-dis EXE --snapshots DIR [--update]
"""
import argparse
import difflib
import os
import shutil
import subprocess
import sys
import tempfile

KEEP = {"README.md"}  # the snapshot folder's own files, not outputs


def generate(args, out):
    r = subprocess.run([args.dumper, out, "--corpus", args.shaders], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"snapshots: {args.dumper} failed:\n{r.stdout}{r.stderr}")
    spv = os.path.join(out, "spv")
    asm = os.path.join(out, "spvasm")
    os.makedirs(asm)
    for name in sorted(os.listdir(spv)):
        src = os.path.join(spv, name)
        with open(src, "rb") as f:
            head = f.read(6)
        if head.startswith(b"error:"):  # a failed translation's text, kept as it is
            shutil.copy(src, os.path.join(asm, name[:-4] + ".spvasm"))
            continue
        r = subprocess.run([args.spirv_dis, "--raw-id", src, "-o", os.path.join(asm, name[:-4] + ".spvasm")],
                           capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"snapshots: spirv-dis failed on {name}:\n{r.stderr}")
    shutil.rmtree(spv)


def files_under(top):
    out = set()
    for d, _, names in os.walk(top):
        for n in names:
            rel = os.path.relpath(os.path.join(d, n), top)
            if rel not in KEEP:
                out.add(rel)
    return out


def read(path):
    with open(path, "rb") as f:
        return f.read()


def show_diff(rel, old, new):
    try:
        a, b = old.decode().splitlines(True), new.decode().splitlines(True)
    except UnicodeDecodeError:
        print(f"{rel}: binary contents differ")
        return
    lines = list(difflib.unified_diff(a, b, "snapshot/" + rel, "output/" + rel))
    sys.stdout.writelines(lines[:60])
    if len(lines) > 60:
        print(f"... ({len(lines) - 60} more diff lines)")


def check(out, snaps):
    have, want = files_under(out), files_under(snaps)
    bad = 0
    for rel in sorted(want - have):
        print(f"{rel}: snapshot with no output")
        bad += 1
    for rel in sorted(have - want):
        print(f"{rel}: output with no snapshot")
        bad += 1
    for rel in sorted(have & want):
        old, new = read(os.path.join(snaps, rel)), read(os.path.join(out, rel))
        if old != new:
            show_diff(rel, old, new)
            bad += 1
    if bad:
        print(f"snapshots: {bad} of {len(have | want)} files differ; if the change is intended, run "
              "`meson compile -C BUILD update-snapshots` and commit the new snapshots")
        return 1
    print(f"snapshots: {len(have)} files identical")
    return 0


def update(out, snaps):
    have, want = files_under(out), files_under(snaps)
    changed = 0
    for rel in sorted(want - have):
        os.remove(os.path.join(snaps, rel))
        changed += 1
    for rel in sorted(have):
        dst = os.path.join(snaps, rel)
        new = read(os.path.join(out, rel))
        if rel in want and read(dst) == new:
            continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "wb") as f:
            f.write(new)
        changed += 1
    for d, subdirs, names in os.walk(snaps, topdown=False):
        if d != snaps and not names and not subdirs:
            os.rmdir(d)
    print(f"snapshots: {changed} files written or removed in {snaps} ({len(have)} in all)")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dumper", required=True)
    ap.add_argument("--shaders", required=True)
    ap.add_argument("--spirv-dis", required=True)
    ap.add_argument("--snapshots", required=True)
    ap.add_argument("--update", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="agal-snapshots-") as work:
        out = os.path.join(work, "out")
        generate(args, out)
        return update(out, args.snapshots) if args.update else check(out, args.snapshots)


if __name__ == "__main__":
    sys.exit(main())
