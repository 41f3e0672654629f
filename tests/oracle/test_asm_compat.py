#!/usr/bin/env python3
"""Adobe-compatible assembly of text with typos: for each case, Adobe's assembler
(the node oracle, adobe_oracle.py) accepts the text, agal_assemble gives its bytes
and exactly the warnings listed (line, column, what Adobe's assembler ignored or
read its own way), and with AGAL_ASM_STRICT the first warning is the one error.
Then text both refuse (our error, with line and column) and text only Adobe's
assembler refuses (the project's syntax: our bytes, no diagnostic).

Usage: test_asm_compat.py GEN_TEXTS"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adobe_oracle  # noqa: E402
from test_asm_vs_adobe import ours  # noqa: E402

A = "Adobe's assembler"

# (stage, version, text, [warnings, each "line L, column C: message"])
CASES = [
    # a swizzle read up to its first letter that is no component
    ("fragment", 2, "mov ft0, ft3.xytz", ["line 1, column 16: %s reads 'ft3.xy' and ignores 'tz'" % A]),
    ("fragment", 2, "mov ft0, v0.xyzwx", ["line 1, column 17: %s reads 'v0.xyzw' and ignores 'x'" % A]),
    ("fragment", 2, "mov ft0, v0.", ["line 1, column 12: %s reads 'v0' and ignores '.'" % A]),
    # a comma for a point: `ft1,xy` is ft1
    ("fragment", 2, "add ft0.xy, ft1,xy, fc1.zw", ["line 1, column 16: %s reads 'ft1' and ignores ',xy'" % A]),
    # missing commas
    ("fragment", 2, "mov ft0 v0", ["line 1, column 9: missing ',' between 'ft0' and 'v0'"]),
    ("vertex", 1, "m44 op va0, vc0\r\n\tm44 vt0, va0 vc4", [
        "line 1, column 8: missing ',' between 'op' and 'va0'",
        "line 2, column 15: missing ',' between 'va0' and 'vc4'"]),
    ("fragment", 2, "mov ft0, , v0", ["line 1, column 8: %s reads 'ft0' and ignores ','" % A]),
    ("fragment", 2, "mov ft0, v0,", ["line 1, column 12: %s reads 'v0' and ignores ','" % A]),
    ("fragment", 2, "mov ft0x, v0", ["line 1, column 8: %s reads 'ft0' and ignores 'x'" % A]),
    ("fragment", 2, "mov ft0, -v0", ["line 1, column 10: %s ignores '-'" % A]),
    # mnemonics: three letters are read, a line without a known one is skipped
    ("fragment", 2, "movx ft0, v0", ["line 1, column 4: %s reads 'mov' and ignores 'x'" % A]),
    ("fragment", 2, "movft0, v0", ["line 1, column 4: missing space between 'mov' and 'ft0'"]),
    ("fragment", 2, "mov ft0, v0\n  MOV ft1, v0\nnop\n+ mov ft2, v0", [
        "line 2, column 3: unknown mnemonic 'MOV': %s skips the line" % A,
        "line 3, column 1: unknown mnemonic 'nop': %s skips the line" % A,
        "line 4, column 1: not an instruction: %s skips '+ mov ft2, v0'" % A]),
    # components are lowercase
    ("fragment", 2, "mov ft0.XY, v0.xYz", [
        "line 1, column 8: %s ignores '.XY': components are lowercase letters" % A,
        "line 1, column 17: %s reads '.x' and ignores 'Yz': components are lowercase letters" % A]),
    # only vc can be indexed: Adobe's assembler reads fc[ft0.x+1] as two operands
    ("fragment", 2, "add ft1, fc[ft0.x+1]", [
        "line 1, column 12: %s reads 'fc' and ignores '['" % A,
        "line 1, column 18: %s reads 'ft0.x' and ignores '+1]'" % A]),
    ("vertex", 2, "mov vt0, vc[va.x+5]", [
        "line 1, column 13: the index register 'va' has no number: %s takes the offset's 5 as its number" % A]),
    ("fragment", 1, "mov fd70000, ft0", [
        "line 1, column 7: register number '70000' does not fit in 16 bits: %s writes 4464" % A]),
    # sampler options
    ("fragment", 2, "tex ft0, v0, fs0 <2d, linaer, 3D>", [
        "line 1, column 23: unknown sampler option 'linaer': %s reads it as LOD bias NaN, written as 0" % A,
        "line 1, column 31: unknown sampler option '3D': %s reads it as LOD bias 3" % A]),
    ("fragment", 2, "tex ft0, v0, fs0 <0x10, -Infinity>", [
        "line 1, column 19: unknown sampler option '0x10': %s reads it as LOD bias 0" % A,
        "line 1, column 25: unknown sampler option '-Infinity': %s reads it as LOD bias -Infinity, written as 0" % A]),
    ("fragment", 2, "tex ft0, v0, fs0 <2d> linear", [
        "line 1, column 23: %s reads 'linear' after '>' as a sampler option" % A]),
    ("fragment", 2, "tex ft0, v0, fs0 <2d linear;,>", [
        "line 1, column 22: missing ',' between '2d' and 'linear'",
        "line 1, column 28: %s ignores ';,'" % A]),
    ("fragment", 2, "tex ft0, v0, fs0 <2d", ["line 1, column 18: %s ignores '<2d' (no '>' closes the sampler options)" % A]),
    ("fragment", 2, "tex ft0, v0, ft3 <linear>", ["line 1, column 14: 'ft3' is not a sampler: %s writes it as sampler 3" % A]),
    ("fragment", 2, "mov ft0, v0 <2d>", ["line 1, column 13: %s ignores sampler options on 'mov'" % A]),
    ("fragment", 2, "  <2d, linear>\nmov oc, v0", ["line 1, column 3: sampler options without an instruction: %s ignores them" % A]),
    # no warning: the syntax as written; iid is one register, its number (5 here)
    # does not matter
    ("fragment", 2, "tex ft0, v0, fs0 < 2d ,linear , -0.5 > // <x>\n\tmov oc, ft0\t", []),
    ("vertex", 3, "mov vt0, vc[iid.x+5]", []),
]

# Both refuse: our error (line and column).
ERRORS = [
    ("fragment", 2, "mov ft0, v0\n\nmov ft1, xx0", "error: line 3, column 10: unknown register 'xx'"),
    ("fragment", 2, "tex ft0, v0, fs0 <2d, linear", "error: line 1, column 18: sampler options are not closed with '>'"),
    ("vertex", 2, "mov vt0, vc[va0.x+1", "error: line 1, column 20: expected ']'"),
]

# Only Adobe's assembler refuses: the project's syntax encodes it, silently.
EXTENSION = [
    ("fragment", 2, "mov ft0, fc[ft1.x+1]"),
    ("fragment", 2, "tex ft0, v0, fs15 <2d>"),
    ("vertex", 1, "tex vt0, va0, fs0"),
    ("fragment", 1, "ddx ft0, v0"),
]


def main():
    gen_texts = sys.argv[1]
    failures = 0

    def fail(what):
        nonlocal failures
        failures += 1
        print("FAIL:", what)

    jobs = [(s, v, t.encode()) for s, v, t, _ in CASES]
    theirs = adobe_oracle.assemble_many(jobs)
    mine, strict = ours(gen_texts, jobs), ours(gen_texts, jobs, flags=1)
    for (stage, version, text, want), t, (ok, hexa, diags), (sok, shexa, sdiags) in zip(CASES, theirs, mine, strict):
        if "error" in t:
            fail("%r: Adobe's assembler refuses it: %s" % (text, t["error"]))
            continue
        if not ok or hexa != t["hex"]:
            fail("%r: ours %s, Adobe's %s" % (text, hexa, t["hex"]))
        if diags != ["warning: " + w for w in want]:
            fail("%r: warnings\n  %s\nwant\n  %s" % (text, "\n  ".join(diags), "\n  ".join(want)))
        want_strict = [True, hexa, []] if not want else [False, None, ["error: " + want[0]]]
        if [sok, shexa, sdiags] != want_strict:
            fail("%r: strict gives %s %s, want %s" % (text, sok, sdiags, want_strict))

    jobs = [(s, v, t.encode()) for s, v, t, _ in ERRORS]
    for (stage, version, text, want), t, r in zip(ERRORS, adobe_oracle.assemble_many(jobs), ours(gen_texts, jobs)):
        if "error" not in t:
            fail("%r: Adobe's assembler accepts it" % text)
        if r != [False, None, [want]]:
            fail("%r: %s, want the error %r" % (text, r, want))

    jobs = [(s, v, t.encode()) for s, v, t in EXTENSION]
    for (stage, version, text), t, r in zip(EXTENSION, adobe_oracle.assemble_many(jobs), ours(gen_texts, jobs, 1)):
        if "error" not in t:
            fail("%r: Adobe's assembler accepts it" % text)
        if not r[0] or r[2]:
            fail("%r: not encoded silently: %s" % (text, r))

    print("%d cases, %d errors, %d extensions: %d failures" % (len(CASES), len(ERRORS), len(EXTENSION), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    adobe_oracle.run(main)
