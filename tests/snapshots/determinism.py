#!/usr/bin/env python3
"""The same output whatever compiled the library (agal.h: the same version, options
and bytes give the same output). The library, tools/common/gen.c, tools/common/toolio.c, translated.c and
tests/snapshots/dump_outputs.c are compiled straight from the sources by gcc and by clang, each
at -O0 and -O2, and by clang with MemorySanitizer, plus the build's own dumper when
given (--dumper), and the first build again with every allocation of the library
filled with a pseudo-random pattern (dump_outputs --scribble). Each dumps every
output of the corpus and of N generated pairs, and every file must be
byte-identical to the first build's. A missing compiler fails the
test: a check that cannot run must not pass.

An output that depends on the order C leaves unspecified (the arguments of one
call, the elements of one initializer: gcc and clang take them in other orders), on
pointer values or on uninitialized memory differs between these builds or stops the
MemorySanitizer one.

usage: determinism.py --source ROOT --version VERSION [--random N] [--dumper EXE] [--jobs J]
"""
import argparse
import concurrent.futures
import filecmp
import glob
import os
import shutil
import subprocess
import sys
import tempfile

# name, compiler, flags. The MemorySanitizer build also fails on any output byte
# (fwrite) or branch that depends on uninitialized memory; at -O0, since the
# optimizer may fold an uninitialized value into a defined one (a stack word left
# unset in the SPIR-V header went unreported at -O1).
BUILDS = [("gcc-O0", "gcc", ["-O0"]), ("gcc-O2", "gcc", ["-O2"]), ("clang-O0", "clang", ["-O0"]),
          ("clang-O2", "clang", ["-O2"]), ("clang-msan", "clang", ["-O0", "-fsanitize=memory", "-fno-omit-frame-pointer"])]


def sources(root):
    return sorted(glob.glob(os.path.join(root, "src", "*", "*.c"))) + [
        os.path.join(root, "tools", "common", "gen.c"),
        os.path.join(root, "tools", "common", "toolio.c"),
        os.path.join(root, "tools", "common", "translated.c"),
        os.path.join(root, "tests", "snapshots", "dump_outputs.c"),
    ]


def compile_one(cc, flags, src, obj):
    r = subprocess.run([cc, *flags, "-c", src, "-o", obj], capture_output=True, text=True)
    return src, r.returncode, r.stderr


def build(root, version, cc, opts, workdir, pool):
    """Compiles the dumper with cc and opts into workdir; returns its path."""
    path = shutil.which(cc)
    flags = [*opts, "-std=c11", "-D_POSIX_C_SOURCE=200809L", f'-DAGAL_VERSION="{version}"', "-DAGAL_BUILD_LIBRARY",
             "-I" + os.path.join(root, "src"), "-I" + os.path.join(root, "src", "ir"),
             "-I" + os.path.join(root, "tests"), "-I" + os.path.join(root, "tools", "common")]
    os.makedirs(workdir, exist_ok=True)
    objs, jobs = [], []
    for i, src in enumerate(sources(root)):
        obj = os.path.join(workdir, f"{i}_{os.path.basename(src)}.o")
        objs.append(obj)
        jobs.append(pool.submit(compile_one, path, flags, src, obj))
    for j in jobs:
        src, rc, err = j.result()
        if rc != 0:
            sys.exit(f"determinism: {cc} {' '.join(opts)} failed on {src}:\n{err}")
    exe = os.path.join(workdir, "dump_outputs")
    r = subprocess.run([path, *opts, *objs, "-lm", "-o", exe], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"determinism: linking with {cc} failed:\n{r.stderr}")
    return exe


def dump(exe, extra, out, root, nrandom):
    r = subprocess.run([exe, out, "--corpus", os.path.join(root, "shaders"), "--random", str(nrandom),
                        "--upload-code", *extra], capture_output=True, text=True)
    if r.returncode != 0:
        return f"determinism: {exe} {' '.join(extra)} failed:\n{r.stdout}{r.stderr}"
    return None


def files_under(top):
    out = set()
    for d, _, names in os.walk(top):
        out.update(os.path.relpath(os.path.join(d, n), top) for n in names)
    return out


def program_of(rel):
    """The program a file belongs to (NAME.vert, NAME.frag), or the pair for agal_upload's files."""
    parts = os.path.basename(rel).split(".")
    return ".".join(parts[:2]) if len(parts) > 2 and parts[1] in ("vert", "frag") and not rel.startswith("upload") \
        else parts[0]


def compare(ref_name, ref, name, other):
    """Prints what differs; returns the set of programs with a difference."""
    a, b = files_under(ref), files_under(other)
    bad = set()
    for rel in sorted(a ^ b):
        print(f"{rel}: only in {ref_name if rel in a else name}")
        bad.add(program_of(rel))
    differing = [rel for rel in sorted(a & b) if not filecmp.cmp(os.path.join(ref, rel), os.path.join(other, rel),
                                                                 shallow=False)]
    for rel in differing:
        bad.add(program_of(rel))
    if differing:
        kinds = sorted({rel.split(os.sep)[0] for rel in differing})
        print(f"{name} vs {ref_name}: {len(differing)} files differ, in " + ", ".join(
            f"{k} ({sum(rel.split(os.sep)[0] == k for rel in differing)})" for k in kinds) + "; e.g.:")
        for rel in differing[:10]:
            print(f"  {rel}")
    everything = {program_of(rel) for rel in a | b}
    counts = []
    for what, gen, pair in [("corpus programs", False, False), ("corpus pairs", False, True),
                            ("generated programs", True, False), ("generated pairs", True, True)]:
        def of(names):
            return [p for p in names if p.startswith("gen") == gen and ("." not in p) == pair]
        counts.append(f"{len(of(bad))} of {len(of(everything))} {what}")
    corpus = sorted(p for p in bad if not p.startswith("gen") and "." in p)
    print(f"{name} vs {ref_name}: " + ", ".join(counts) + " differ"
          + (f" (corpus: {' '.join(corpus)})" if corpus else ""))
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--version", required=True)
    ap.add_argument("--random", type=int, default=300)
    ap.add_argument("--dumper", help="the build's own dump_outputs, compared too")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", help="work here and keep it (default: a temporary directory)")
    args = ap.parse_args()
    for cc in sorted({cc for _, cc, _ in BUILDS}):
        if not shutil.which(cc):
            sys.exit(f"determinism: {cc} not found: this check needs both gcc and clang")
    work = args.keep or tempfile.mkdtemp(prefix="agal-determinism-")
    try:
        dumps = []
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for name, cc, opts in BUILDS:
                exe = build(args.source, args.version, cc, opts, os.path.join(work, "build-" + name), pool)
                dumps.append((name, exe, []))
        # The first build again, every allocation filled with a pseudo-random pattern.
        dumps.append((dumps[0][0] + "-scribble", dumps[0][1], ["--scribble", "1"]))
        if args.dumper:
            dumps.append(("meson-build", args.dumper, []))
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            errors = list(pool.map(lambda d: dump(d[1], d[2], os.path.join(work, "out-" + d[0]), args.source,
                                                  args.random), dumps))
        failed = False
        for (name, _, _), err in zip(dumps, errors):
            if err:
                print(err)
                failed = True
        if errors[0]:
            return 1
        ref_name = dumps[0][0]
        ref = os.path.join(work, "out-" + ref_name)
        nfiles = len(files_under(ref))
        for (name, _, _), err in zip(dumps[1:], errors[1:]):
            if err:
                continue
            failed |= bool(compare(ref_name, ref, name, os.path.join(work, "out-" + name)))
        print(f"{len(dumps)} runs, {nfiles} files each (corpus and {args.random} generated pairs): "
              + ("DIFFERENT" if failed else "identical"))
        return 1 if failed else 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
