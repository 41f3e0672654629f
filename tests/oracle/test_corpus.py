#!/usr/bin/env python3
"""Corpus test: every shaders/*.agal through two assemblers, the validator and the
corpus rules, plus the corpus's coverage promise.

  test_corpus.py --shaders DIR --opcodes agal_opcodes.def --agalasm PATH [--agal2spv PATH]

1. bytes: tools/agalasm --strict (no warning: nothing Adobe's assembler would
   ignore) and Adobe's assembler (the node oracle, OpenFL 8.9.6's
   AGALMiniAssembler with ted: adobe_oracle.py) must produce identical bytes for
   each file;
2. rules: tests/oracle/corpus_lint.py's conservative rules on each program and pair;
3. validator: `agal2spv --check vert.bin frag.bin` must accept each pair (link
   rules included) and each unpaired program on its own;
4. finite (with --agalrun): the reference interpreter, fed seeded random constants,
   attributes/varyings and textures with values up to +-2 and up to +-1000, gives
   no NaN or infinity in any output (the differential tests feed random inputs);
5. coverage: together the files use every opcode of agal_opcodes.def, every
   register type of each stage, every value of every sampler field the spec
   defines (except dimension 3d, which Flash rejects), a non-zero LOD bias, and
   versions 1, 2 and 3; at least 40 files, each with its header comments.
"""

import argparse
import json
import os
import random
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adobe_oracle  # noqa: E402
import corpus_lint  # noqa: E402


def header(source, key):
    return adobe_oracle.header_value(source, key)


def first_diff(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def read_sources(paths, problems):
    """{path: (source, stage, version)} of the files with the three header lines."""
    out = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            source = f.read()
        stage, version = header(source, "stage"), header(source, "agal-version")
        lines = source.split("\n")
        if stage not in ("vertex", "fragment") or version not in ("1", "2", "3") or \
                len(lines) < 3 or not lines[2].startswith("// ") or len(lines[2]) < 10:
            problems.append("%s: header must be `// stage:`, `// agal-version:`, `// what it does`" % path)
            continue
        out[path] = (source, stage, int(version))
    return out


def assemble_both(path, ref, args, tmp, problems):
    if "error" in ref:
        problems.append("%s: Adobe's assembler rejects it: %s" % (path, ref["error"]))
        return None
    if ref["bad_lines"]:
        problems.append("%s: Adobe's assembler skips lines %s" % (path, ref["bad_lines"]))
    ref = bytes.fromhex(ref["hex"])
    name = os.path.basename(path)[:-len(".agal")]
    out = os.path.join(tmp, name + ".bin")
    r = subprocess.run([args.agalasm, "--strict", path, "-o", out], capture_output=True, text=True)
    if r.returncode != 0 or r.stderr:
        problems.append("%s: agalasm --strict failed: %s" % (path, r.stderr.strip()))
        return None
    with open(out, "rb") as f:
        mine = f.read()
    if mine != ref:
        at = first_diff(mine, ref)
        tok = "header" if at < 7 else "token %d" % ((at - 7) // 24)
        problems.append("%s: agalasm and Adobe's assembler differ at byte %d (%s): %s vs %s"
                        % (path, at, tok, mine[at:at + 8].hex(), ref[at:at + 8].hex()))
    return out


def validate(args, files, problems):
    if not args.agal2spv:
        return
    r = subprocess.run([args.agal2spv, "--check"] + files, capture_output=True, text=True)
    if r.returncode != 0:
        problems.append("agal2spv --check %s: %s" % (" ".join(files), (r.stdout + r.stderr).strip()))


def random_inputs(rng, prog, limit):
    def v4(lo, hi):
        return [rng.uniform(lo, hi) for _ in range(4)]
    inp = {"constants": [v4(-limit, limit) for _ in range(250)]}
    if not prog.frag:
        inp["invocations"] = [dict({"va%d" % i: v4(-limit, limit) for i in range(16)},
                                   iid=rng.randint(0, 3)) for _ in range(8)]
        return inp
    inp["invocations"] = [{"v%d" % i: v4(-limit, limit) for i in range(10)} for _ in range(8)]
    dims = {}
    for op, _d, _a, s2 in prog.tokens:
        if op in (0x26, 0x28):
            dims[s2 & 0xFFFF] = "cube" if (s2 >> 44) & 0xF == 1 else "2d"
    inp["textures"] = [{"sampler": n, "dim": dim, "width": 4, "height": 4,
                        "levels": [[v4(0, 1) for _ in range(16 * (6 if dim == "cube" else 1))]]}
                       for n, dim in sorted(dims.items())]
    return inp


def finite(args, name, out, prog, tmp, problems):
    rng = random.Random(name)
    for limit in (2.0, 1000.0):
        for run in range(2):
            ipath = os.path.join(tmp, "%s.%d.json" % (name, run))
            with open(ipath, "w") as f:
                json.dump(random_inputs(rng, prog, limit), f)
            r = subprocess.run([args.agalrun, "interp", out, "--inputs", ipath],
                               capture_output=True, text=True)
            if r.returncode != 0:
                problems.append("%s: agalrun interp failed: %s" % (name, r.stderr.strip()))
                return
            bad = [k for inv in json.loads(r.stdout)["invocations"] for k, v in inv.items()
                   if isinstance(v, list) and any(isinstance(c, str) for c in v)]
            if bad:
                problems.append("%s: non-finite %s for random inputs up to %g"
                                % (name, ", ".join(sorted(set(bad))), limit))
                return


class Coverage:
    FIELDS = {"format": (40, range(4)), "dimension": (44, range(2)), "special": (48, (1, 2, 4)),
              "wrap": (52, range(4)), "mipmap": (56, range(3)), "filter": (60, range(6))}

    def __init__(self, ops):
        self.ops = ops
        self.opcodes, self.versions = set(), set()
        self.regs = {False: set(), True: set()}
        self.fields = {k: set() for k in self.FIELDS}
        self.bias = set()

    def source(self, frag, v):
        s = corpus_lint.Source(v)
        self.regs[frag].add(s.type)
        if s.indirect:
            self.regs[frag].add(s.itype)

    def add(self, prog):
        self.versions.add(prog.version)
        for op, d, s1, s2 in prog.tokens:
            self.opcodes.add(op)
            info = self.ops.get(op, {"opnd": 0})
            if info["opnd"] & 1:
                self.regs[prog.frag].add((d >> 24) & 0xF)
            if info["opnd"] & 2:
                self.source(prog.frag, s1)
            if info["opnd"] & 4:
                self.source(prog.frag, s2)
            if info["opnd"] & 8:
                self.regs[prog.frag].add(5)
                for k, (shift, _) in self.FIELDS.items():
                    value = (s2 >> shift) & 0xF
                    if k == "special":
                        self.fields[k] |= {b for b in (1, 2, 4) if value & b}
                    else:
                        self.fields[k].add(value)
                self.bias.add((s2 >> 16) & 0xFF)

    def missing(self):
        out = []
        for op in sorted(set(self.ops) - self.opcodes):
            out.append("opcode %s" % self.ops[op]["name"])
        want = {False: {0, 1, 2, 3, 4, 7}, True: {1, 2, 3, 4, 5, 6}}
        for frag, types in want.items():
            for t in sorted(types - self.regs[frag]):
                names = corpus_lint.FRAG_NAMES if frag else corpus_lint.VERT_NAMES
                out.append("register %s" % names[t])
        for k, (_, values) in self.FIELDS.items():
            for v in values:
                if v not in self.fields[k]:
                    out.append("sampler %s value %d" % (k, v))
        if not self.bias - {0}:
            out.append("a non-zero LOD bias")
        for v in (1, 2, 3):
            if v not in self.versions:
                out.append("AGAL version %d" % v)
        return out


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--shaders", required=True)
    ap.add_argument("--opcodes", required=True)
    ap.add_argument("--agalasm", required=True)
    ap.add_argument("--agal2spv")
    ap.add_argument("--agalrun")
    args = ap.parse_args(argv)
    ops = corpus_lint.load_opcodes(args.opcodes)
    paths = sorted(os.path.join(args.shaders, f) for f in os.listdir(args.shaders)
                   if f.endswith(".agal"))
    problems = []
    if len(ops) != 42:
        problems.append("%s: %d opcodes, expected 42" % (args.opcodes, len(ops)))
    if len(paths) < 40:
        problems.append("only %d corpus files, the corpus promises at least 40" % len(paths))
    cov = Coverage(ops)
    sources = read_sources(paths, problems)
    refs = adobe_oracle.assemble_many([(stage, version, source) for source, stage, version in sources.values()])
    with tempfile.TemporaryDirectory() as tmp:
        bins = {}
        for path, ref in zip(sources, refs):
            out = assemble_both(path, ref, args, tmp, problems)
            if out:
                bins[os.path.basename(path)[:-len(".agal")]] = out
        progs = {}
        for name, out in sorted(bins.items()):
            with open(out, "rb") as f:
                prog = corpus_lint.Program(name, f.read())
            corpus_lint.Checker(prog, ops).run()
            problems += prog.errors
            cov.add(prog)
            progs[name] = prog
            if args.agalrun:
                finite(args, name, out, prog, tmp, problems)
        paired = set()
        for name in sorted(progs):
            if name.endswith(".frag") and name[:-5] + ".vert" in progs:
                vert = name[:-5] + ".vert"
                corpus_lint.check_pair(progs[vert], progs[name], problems)
                validate(args, [bins[vert], bins[name]], problems)
                paired |= {vert, name}
        for name in sorted(set(progs) - paired):
            validate(args, [bins[name]], problems)
    problems += ["coverage: no %s" % m for m in cov.missing()]
    for p in problems:
        print(p)
    print("%d files, %d pairs, %d problems%s" % (len(paths), len(paired) // 2, len(problems),
                                                 "" if args.agal2spv else " (no agal2spv: validator skipped)"))
    return 1 if problems else 0


if __name__ == "__main__":
    adobe_oracle.run(main)
