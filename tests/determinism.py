#!/usr/bin/env python3
"""The same output whatever compiled the library (agal.h: the same version, options
and bytes give the same output). The library, tests/gen.c, tools/toolio.c and
tests/dump_outputs.c are compiled straight from the sources by gcc and by clang, each
at -O0 and -O2, plus the build's own dumper when given (--dumper, sanitized); each
dumps every output of the corpus and of N generated pairs, and every file must be
byte-identical to the first build's. A missing compiler fails the test: a check that
cannot run must not pass.

An output that depends on the order C leaves unspecified (the arguments of one
call, the elements of one initializer), on pointer values or on uninitialized
memory differs between these builds.

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

BUILDS = [("gcc", "-O0"), ("gcc", "-O2"), ("clang", "-O0"), ("clang", "-O2")]


def sources(root):
    return sorted(glob.glob(os.path.join(root, "src", "*.c"))) + [
        os.path.join(root, "tests", "gen.c"),
        os.path.join(root, "tools", "toolio.c"),
        os.path.join(root, "tests", "dump_outputs.c"),
    ]


def compile_one(cc, opt, flags, src, obj):
    r = subprocess.run([cc, opt, *flags, "-c", src, "-o", obj], capture_output=True, text=True)
    return src, r.returncode, r.stderr


def build(root, version, cc, opt, workdir, pool):
    """Compiles the dumper with cc at opt into workdir; returns its path."""
    path = shutil.which(cc)
    flags = ["-std=c11", "-D_POSIX_C_SOURCE=200809L", f'-DAGAL_VERSION="{version}"', "-DAGAL_BUILD_LIBRARY",
             "-I" + os.path.join(root, "src"), "-I" + os.path.join(root, "tests"), "-I" + os.path.join(root, "tools")]
    os.makedirs(workdir, exist_ok=True)
    objs, jobs = [], []
    for i, src in enumerate(sources(root)):
        obj = os.path.join(workdir, f"{i}_{os.path.basename(src)}.o")
        objs.append(obj)
        jobs.append(pool.submit(compile_one, path, opt, flags, src, obj))
    for j in jobs:
        src, rc, err = j.result()
        if rc != 0:
            sys.exit(f"determinism: {cc} {opt} failed on {src}:\n{err}")
    exe = os.path.join(workdir, "dump_outputs")
    r = subprocess.run([path, *objs, "-lm", "-o", exe], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"determinism: linking with {cc} failed:\n{r.stderr}")
    return exe


def dump(exe, out, root, nrandom):
    r = subprocess.run([exe, out, "--corpus", os.path.join(root, "shaders"), "--random", str(nrandom),
                        "--upload-code"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"determinism: {exe} failed:\n{r.stdout}{r.stderr}")


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
    for cc in sorted({cc for cc, _ in BUILDS}):
        if not shutil.which(cc):
            sys.exit(f"determinism: {cc} not found: this check needs both gcc and clang")
    work = args.keep or tempfile.mkdtemp(prefix="agal-determinism-")
    try:
        dumps = []
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for cc, opt in BUILDS:
                name = f"{cc}{opt}"
                exe = build(args.source, args.version, cc, opt, os.path.join(work, "build-" + name), pool)
                dumps.append((name, exe))
        if args.dumper:
            dumps.append(("meson-build", args.dumper))
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            list(pool.map(lambda d: dump(d[1], os.path.join(work, "out-" + d[0]), args.source, args.random), dumps))
        ref_name = dumps[0][0]
        ref = os.path.join(work, "out-" + ref_name)
        nfiles = len(files_under(ref))
        failed = False
        for name, _ in dumps[1:]:
            failed |= bool(compare(ref_name, ref, name, os.path.join(work, "out-" + name)))
        print(f"{len(dumps)} builds, {nfiles} files each (corpus and {args.random} generated pairs): "
              + ("DIFFERENT" if failed else "identical"))
        return 1 if failed else 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
