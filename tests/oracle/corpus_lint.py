#!/usr/bin/env python3
"""Conservative rules for the shaders/ corpus, checked on the bytecode.

Independent of the C validator: it reads src/agal/agal_opcodes.def itself and the token
fields of spec section 2, and enforces the rules of spec section 5 that the corpus
promises to keep, in their strictest reading, plus the corpus's own rules for the
differential tests:

  * a temporary is read only in components that every path has written, counting
    every component a source swizzle names (not only the ones the op uses): a
    write inside a branch counts after the block only when both branches make it;
  * no two constant (or two indirect) sources; matrix operands unswizzled and in
    range; nrm/crs/m33/m34 masks exclude w; scalar, distinct condition operands;
  * blocks: nesting <= 4, no empty branch, no output write, no ddx/ddy, and tex
    only on a varying coordinate inside a block; ted only outside;
  * op, each oc (consecutive from oc0) and fd written fully exactly once (op and
    varyings may be written in parts that together cover xyzw), outside blocks;
  * a reused sampler repeats its settings; cube samplers clamp; no 3d;
  * pairs: every varying the fragment program reads is fully written by the
    vertex program; both use the same version.

Usage: corpus_lint.py OPCODES_DEF prog.bin [prog.bin ...]; file names ending in
.vert.bin / .frag.bin with the same stem are checked as a pair.
"""

import os
import re
import struct
import sys

OPND = {"NONE": 0, "D": 1, "A": 2, "B": 4, "S": 8}
OPND["DA"] = 3
OPND["DAB"] = 7
OPND["DAS"] = 11
OPND["AB"] = 6
FLAGS = {"CW": 1, "NO_W": 2, "SCALAR": 4, "FRAGMENT": 8, "IF": 16, "ELSE": 32,
         "ENDIF": 64, "DERIV": 128, "TEXTURE": 256, "ROWS3": 512, "ROWS4": 1024}

# spec section 3: (va, vc, vt, v, fc, ft, fs, oc, tokens)
LIMITS = {1: dict(va=8, vc=128, vt=8, v=8, fc=28, ft=8, fs=8, oc=1, tokens=200),
          2: dict(va=8, vc=250, vt=26, v=10, fc=64, ft=26, fs=16, oc=4, tokens=1024),
          3: dict(va=16, vc=250, vt=26, v=10, fc=200, ft=26, fs=16, oc=4, tokens=2048)}

VERT_NAMES = {0: "va", 1: "vc", 2: "vt", 3: "op", 4: "v", 7: "iid"}
FRAG_NAMES = {1: "fc", 2: "ft", 3: "oc", 4: "v", 5: "fs", 6: "fd"}


def load_opcodes(path):
    ops = {}
    pat = re.compile(r'^AGAL_OPCODE\((\w+),\s*"(\w+)",\s*(0x[0-9a-f]+),\s*AGAL_OPND_(\w+),'
                     r'\s*(\d),\s*(\d),\s*([^,)]*)[,)]', re.M)  # flags: the last column
    with open(path, encoding="utf-8") as f:
        for m in pat.finditer(f.read()):
            flags = 0
            for part in m.group(7).split("|"):
                part = part.strip()
                if part.startswith("AGAL_OPF_"):
                    flags |= FLAGS[part[len("AGAL_OPF_"):]]
            ops[int(m.group(3), 16)] = dict(name=m.group(2), opnd=OPND[m.group(4)],
                                            ver=int(m.group(5)), width=int(m.group(6)),
                                            flags=flags)
    return ops


class Source:
    def __init__(self, v):
        self.num = v & 0xFFFF
        self.offset = (v >> 16) & 0xFF
        self.swz = (v >> 24) & 0xFF
        self.type = (v >> 32) & 0xF
        self.itype = (v >> 40) & 0xF
        self.icomp = (v >> 48) & 0x3
        self.indirect = bool(v >> 63)
        self.raw = v

    def comp(self, i):
        return (self.swz >> (2 * i)) & 3


class Program:
    def __init__(self, path, data):
        self.path = path
        if len(data) < 7 or data[0] != 0xA0 or data[5] != 0xA1:
            raise ValueError("bad header")
        self.version = struct.unpack_from("<I", data, 1)[0]
        self.frag = data[6] == 1
        if (len(data) - 7) % 24:
            raise ValueError("partial token")
        self.tokens = [struct.unpack_from("<IIQQ", data, 7 + 24 * i)
                       for i in range((len(data) - 7) // 24)]
        self.errors = []
        self.varyings_written = {}  # vertex: v index -> mask
        self.varyings_read = set()  # fragment: v indices


def fmt_reg(names, t, n):
    return "%s%d" % (names.get(t, "type%d" % t), n)


class Checker:
    def __init__(self, prog, ops):
        self.p = prog
        self.ops = ops
        self.lim = LIMITS.get(prog.version)
        self.names = FRAG_NAMES if prog.frag else VERT_NAMES
        self.written = {}  # temp index -> mask definitely written on this path
        self.stack = []    # per open block: [written at if, written at end of then or None]
        self.branch_len = 0
        self.outputs = {}  # (type, index) -> list of masks
        self.samplers = {}
        self.tok = 0

    def err(self, msg):
        self.p.errors.append("%s: token %d: %s" % (self.p.path, self.tok, msg))

    def count(self, t):
        key = {0: "va", 1: "vc" if not self.p.frag else "fc", 2: "vt" if not self.p.frag else "ft",
               4: "v", 5: "fs"}.get(t)
        if key:
            return self.lim[key]
        if t == 3:
            return self.lim["oc"] if self.p.frag else 1
        if t in (6, 7):
            return 1
        return 0

    def check_reg(self, t, n, write):
        name = self.names.get(t)
        if name is None:
            self.err("register type %d not allowed in this stage" % t)
            return
        if t == 7 and self.p.version < 3:
            self.err("iid needs AGAL3")
        if t == 6 and self.p.version < 2:
            self.err("fd needs AGAL2")
        if n >= self.count(t):
            self.err("%s out of range" % fmt_reg(self.names, t, n))
        if write and t not in (2, 3, 4, 6):
            self.err("write to %s" % fmt_reg(self.names, t, n))
        if write and t == 4 and self.p.frag:
            self.err("varying written in fragment program")
        if not write and t in (3, 6):
            self.err("output read")
        if not write and t == 4 and not self.p.frag:
            self.err("varying read in vertex program")
        if not write and t == 5:
            self.err("sampler used as a source")

    def read_temp(self, n, comps):
        have = self.written.get(n, 0)
        for c in comps:
            if not have & (1 << c):
                self.err("%s.%s read before written" % (fmt_reg(self.names, 2, n), "xyzw"[c]))

    def read_source(self, s, positions, info):
        if s.indirect:
            if self.p.frag or s.type != 1:
                self.err("indirect only into vertex constants")
            if s.itype not in ((0, 1, 2, 7) if self.p.version >= 3 else (0, 1, 2)):
                self.err("bad index register type %d" % s.itype)
            self.check_reg(s.itype, s.num, False)
            if s.itype == 2:
                self.read_temp(s.num, [s.icomp])
            rows = 4 if info["flags"] & FLAGS["ROWS4"] else 3 if info["flags"] & FLAGS["ROWS3"] else 1
            if s.offset + rows > self.count(1):
                self.err("indirect offset leaves every address out of range")
            return
        if s.raw & ((0xFF << 16) | (0xF << 40) | (0x3 << 48)):
            self.err("indirect fields on a direct source")
        self.check_reg(s.type, s.num, False)
        if s.type == 4:
            self.p.varyings_read.add(s.num)
        if s.type == 2:
            self.read_temp(s.num, sorted({s.comp(i) for i in positions}))

    def sampler(self, v, info, coord):
        num = v & 0xFFFF
        if (v >> 32) & 0xF != 5:
            self.err("sampler operand type is not 5")
        if num >= self.lim["fs"]:
            self.err("fs%d out of range" % num)
        dim = (v >> 44) & 0xF
        wrap = (v >> 52) & 0xF
        if dim > 1:
            self.err("sampler dimension %d" % dim)
        if dim == 1 and wrap != 0:
            self.err("cube sampler must clamp")
        if (v >> 40) & 0xF > 3 or (v >> 48) & 0xF > 7 or wrap > 3 or (v >> 56) & 0xF > 2 \
                or (v >> 60) & 0xF > 5:
            self.err("bad sampler field")
        if num in self.samplers and self.samplers[num] != v:
            self.err("fs%d reused with other settings" % num)
        self.samplers[num] = v
        return dim

    def dest(self, d, info):
        n, mask, t = d & 0xFFFF, (d >> 16) & 0xF, (d >> 24) & 0xF
        if d & ~0x0F0FFFFF:
            self.err("reserved destination bits")
        if mask == 0:
            self.err("write mask zero")
        if info["flags"] & FLAGS["NO_W"] and mask & 8:
            self.err("%s must mask out w" % info["name"])
        self.check_reg(t, n, True)
        if self.stack and t in (3, 4, 6):
            self.err("output written inside a block")
        if t == 2:
            eff = mask & 7 if info["flags"] & FLAGS["NO_W"] else mask
            self.written[n] = self.written.get(n, 0) | eff
        elif t in (3, 6) or (t == 4 and not self.p.frag):
            self.outputs.setdefault((t, n), []).append(mask)
            if t == 4:
                self.p.varyings_written[n] = self.p.varyings_written.get(n, 0) | mask

    def block(self, info, a, b):
        f = info["flags"]
        if f & FLAGS["IF"]:
            for s in (a, b):
                if len({s.comp(i) for i in range(4)}) != 1:
                    self.err("condition operand swizzle not scalar")
            if a.raw == b.raw:
                self.err("condition operands identical")
            self.stack.append([dict(self.written), None])
            if len(self.stack) > 4:
                self.err("nesting deeper than 4")
            self.branch_len = 0
            return
        if not self.stack:
            self.err("%s with no open block" % info["name"])
            return
        if self.branch_len == 0:
            self.err("empty branch")
        top = self.stack[-1]
        if f & FLAGS["ELSE"]:
            if top[1] is not None:
                self.err("two els")
            top[1] = self.written
            self.written = dict(top[0])
            self.branch_len = 0
            return
        else:  # eif: components written on every path
            self.stack.pop()
            then = top[1] if top[1] is not None else top[0]
            self.written = {k: then.get(k, 0) & m for k, m in self.written.items()}
        self.branch_len = 1  # the enclosing branch is not empty any more

    def token(self, op, d, s1, s2):
        info = self.ops.get(op)
        if info is None:
            self.err("unknown opcode 0x%x" % op)
            return
        if info["ver"] > self.p.version:
            self.err("%s needs AGAL%d" % (info["name"], info["ver"]))
        if info["flags"] & FLAGS["FRAGMENT"] and not self.p.frag:
            self.err("%s only in fragment programs" % info["name"])
        opnd, f = info["opnd"], info["flags"]
        a, b = Source(s1), Source(s2)
        if not opnd & 1 and d:
            self.err("destination field must be zero")
        if not opnd & 2 and s1:
            self.err("source 1 must be zero")
        if not opnd & 12 and s2:
            self.err("source 2 must be zero")
        if f & (FLAGS["IF"] | FLAGS["ELSE"] | FLAGS["ENDIF"]):
            if opnd & 2:
                self.read_source(a, [0], info)
                self.read_source(b, [0], info)
            self.block(info, a, b)
            return
        self.branch_len += 1
        if info["width"]:
            positions = range(info["width"])
        elif f & FLAGS["SCALAR"]:
            positions = range(1)
            if len({a.comp(i) for i in range(4)}) != 1:
                self.err("kil needs a scalar swizzle")
        else:
            positions = range(4)
        if f & FLAGS["TEXTURE"]:
            dim = self.sampler(s2, info, a)
            positions = range(4) if info["name"] == "ted" else range(3 if dim == 1 else 2)
            if self.stack and (info["name"] == "ted" or a.type != 4 or a.indirect):
                self.err("%s inside a block with a computed coordinate" % info["name"])
        if f & FLAGS["DERIV"] and self.stack:
            self.err("ddx/ddy inside a block")
        self.read_source(a, positions, info)
        if opnd & 4:
            rows = 4 if f & FLAGS["ROWS4"] else 3 if f & FLAGS["ROWS3"] else 0
            self.read_source(b, positions, info)
            if rows:
                if b.swz != 0xE4:
                    self.err("swizzled matrix operand")
                if not b.indirect and b.num + rows > self.count(b.type):
                    self.err("matrix rows out of range")
                if b.type == 2:
                    for k in range(1, rows):
                        self.read_temp(b.num + k, range(positions.stop))
            if a.type == 1 and b.type == 1:
                self.err("both sources constants")
            if a.indirect and b.indirect:
                self.err("both sources indirect")
        if opnd & 1:
            self.dest(d, info)

    def finish(self):
        p = self.p
        if self.stack:
            self.err("block open at end")
        if len(p.tokens) > self.lim["tokens"]:
            self.err("too many tokens")
        for (t, n), masks in sorted(self.outputs.items()):
            union = 0
            for m in masks:
                union |= m
            name = fmt_reg(self.names, t, n)
            if t == 6:
                if masks != [1]:
                    self.err("fd must be written once with mask x")
            elif t == 3 and p.frag:
                if masks != [0xF]:
                    self.err("%s must be written once, fully" % name)
            elif union != 0xF:
                self.err("%s not fully written" % name)
        if p.frag:
            ocs = sorted(n for (t, n) in self.outputs if t == 3)
            if ocs != list(range(len(ocs))) or not ocs:
                self.err("colour outputs must be oc0..ocN")
        elif (3, 0) not in self.outputs:
            self.err("op never written")

    def run(self):
        if self.lim is None:
            self.err("bad version %d" % self.p.version)
            return
        for self.tok, (op, d, s1, s2) in enumerate(self.p.tokens):
            self.token(op, d, s1, s2)
        self.tok = -1
        self.finish()


def check_pair(vert, frag, errors):
    if vert.version != frag.version:
        errors.append("%s: version differs from %s" % (frag.path, vert.path))
    for n in sorted(frag.varyings_read):
        if vert.varyings_written.get(n, 0) != 0xF:
            errors.append("%s: v%d read but not fully written by %s" % (frag.path, n, vert.path))


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    ops = load_opcodes(argv[1])
    if len(ops) != 42:
        print("expected 42 opcodes in %s, found %d" % (argv[1], len(ops)), file=sys.stderr)
        return 2
    progs, errors = {}, []
    for path in argv[2:]:
        with open(path, "rb") as f:
            try:
                prog = Program(path, f.read())
            except ValueError as e:
                errors.append("%s: %s" % (path, e))
                continue
        Checker(prog, ops).run()
        errors += prog.errors
        progs[path] = prog
    for path, prog in progs.items():
        if path.endswith(".frag.bin"):
            vert = progs.get(path[:-len(".frag.bin")] + ".vert.bin")
            if vert is not None:
                check_pair(vert, prog, errors)
    for e in errors:
        print(e)
    print("%d programs, %d problems" % (len(progs), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
