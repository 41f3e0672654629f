#!/usr/bin/env python3
"""The assembler oracle (OpenFL 8.9.6's AGALMiniAssembler under node, with ted:
adobe_oracle.py) against bytes worked out by hand from spec section 2 (header a0 |
u32 version | a1 | stage; 24-byte tokens), and where it differs from Adobe's 2015
ActionScript source, which the project's previous oracle followed: each
difference is a test here, so that a change of the package shows."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adobe_oracle  # noqa: E402
from adobe_oracle import AssembleError, assemble  # noqa: E402

VERT1 = "a0" "01000000" "a1" "00"
FRAG2 = "a0" "02000000" "a1" "01"
ZERO64 = "00" * 8


def h(*parts):
    return bytes.fromhex("".join(parts).replace(" ", ""))


class Encoding(unittest.TestCase):
    def test_m44_dest_and_two_sources(self):
        # opcode 0x18 | dest op: num 0, mask f, type 3 | va0 swizzle e4 type 0 | vc0 type 1
        self.assertEqual(assemble("vertex", "m44 op, va0, vc0", 1),
                         h(VERT1, "18000000", "0000 0f 03", "0000 00 e4 00 00 0000",
                           "0000 00 e4 01 00 0000"))

    def test_relative_source(self):
        # number = index register's number (2), offset 12, swizzle .zw = z w w w = 0xfe,
        # type 1, index type 0 (va), index component x | 0x8000; source 2 unused: zero
        self.assertEqual(assemble("vertex", "mov vt0.xy, vc[va2.x+12].zw", 1),
                         h(VERT1, "00000000", "0000 03 02", "0200 0c fe 01 00 0080", ZERO64))

    def test_sampler_options_and_negative_bias(self):
        # bias int(-0.5 * 8) = -4 = fc; upper word 5 | cube<<12 | (centroid|single)<<16
        # | clamp<<20 | miplinear<<24 | linear<<28 = 0x12031005
        src = "tex ft0, v0, fs3 <cube,linear,miplinear,clamp,-0.5,centroid,single>"
        self.assertEqual(assemble("fragment", src, 2),
                         h(FRAG2, "28000000", "0000 0f 02", "0000 00 e4 04 00 0000",
                           "0300 fc 00 05100312"))

    def test_later_options_override_and_bias_truncates(self):
        # repeat then clamp_u_repeat_v: wrap 2; nearest then anisotropic16x: filter 5;
        # bias int(0.3 * 8) = int(2.4) = 2 and int(-0.3 * 8) = -2 = fe
        a = assemble("fragment", "tex ft1, v1, fs0 <repeat,nearest,clamp_u_repeat_v,anisotropic16x,0.3>", 2)
        self.assertEqual(a[7 + 16:], h("0000 02 00 05002050"))
        b = assemble("fragment", "tex ft1, v1, fs0 <-0.3>", 2)
        self.assertEqual(b[7 + 16:], h("0000 fe 00 05000000"))

    def test_ted_as_adobes_agal2_releases(self):
        # the oracle's one addition to the package: opcode 0x26, tex's operand layout
        self.assertEqual(assemble("fragment", "ted ft3, ft2, fs7 <2d, miplinear, linear>", 2),
                         h(FRAG2, "26000000", "0300 0f 02", "0200 00 e4 02 00 0000", "0700 00 00 05000012"))

    def test_blocks_and_kil(self):
        src = "ife ft0.x, fc0.y\nmov ft1, fc0\nels\neif\nkil ft0.w"
        self.assertEqual(assemble("fragment", src, 2),
                         h(FRAG2,
                           "1c000000", "00000000", "0000 00 00 02 00 0000", "0000 00 55 01 00 0000",
                           "00000000", "0100 0f 02", "0000 00 e4 01 00 0000", ZERO64,
                           "20000000", "00000000", ZERO64, ZERO64,
                           "21000000", "00000000", ZERO64, ZERO64,
                           "27000000", "00000000", "0000 00 ff 02 00 0000", ZERO64))

    def test_aliases_mrt_and_depth(self):
        # oc1 -> fo: the text after its first letter, "c1", gives number 1; fd type 6 mask x
        src = "mov oc1, ft0\nmov od.x, ft0.z"
        self.assertEqual(assemble("fragment", src, 2),
                         h(FRAG2, "00000000", "0100 0f 03", "0000 00 e4 02 00 0000", ZERO64,
                           "00000000", "0000 01 06", "0000 00 aa 02 00 0000", ZERO64))

    def test_iid_index_register_number_quirk(self):
        # inside the brackets the first digits give the number: vc[iid.x+5] -> 5,
        # vc[iid0.x+5] -> 0; index type 7
        a = assemble("vertex", "mov vt0, vc[iid.x+5]", 3)
        self.assertEqual(a[7 + 8:7 + 16], h("0500 05 e4 01 07 0080"))
        b = assemble("vertex", "mov vt0, vc[iid0.x+5]", 3)
        self.assertEqual(b[7 + 8:7 + 16], h("0000 05 e4 01 07 0080"))

    def test_header_version_and_comments(self):
        self.assertEqual(assemble("vertex", "// nothing but a comment\n\n", 3), h("a0 03000000 a1 00"))

    def test_reads_past_typos(self):
        # ft3.xytz is read as ft3.xy (xyyy = 0x54); `ft1,xy` as ft1; no comma needed
        self.assertEqual(assemble("fragment", "mov ft0 ft3.xytz", 2)[7:],
                         h("00000000", "0000 0f 02", "0300 00 54 02 00 0000", ZERO64))
        self.assertEqual(assemble("fragment", "add ft0.xy, ft1,xy, fc1.zw", 2)[7:],
                         h("01000000", "0000 03 02", "0100 00 e4 02 00 0000", "0100 00 fe 01 00 0000"))

    def test_unknown_mnemonic_is_skipped(self):
        res = adobe_oracle.assemble_many([("vertex", 1, "foo vt0, vt1\nnope\nxy\nMOV vt0, va0")])[0]
        self.assertEqual(res, {"hex": VERT1, "bad_lines": [0, 1, 3]})  # "xy" is too short to be logged


class Errors(unittest.TestCase):
    def check(self, mode, src, version, text):
        with self.assertRaises(AssembleError) as cm:
            assemble(mode, src, version)
        self.assertIn(text, str(cm.exception))

    def test_version2_opcode_in_version1(self):
        self.check("fragment", "ddx ft0, v0", 1, "requires version 2")

    def test_operand_count(self):
        self.check("vertex", "add vt0, vt1", 1, "wrong number of operands. found 2 but expected 3")

    def test_register_range_by_version(self):
        self.check("vertex", "mov vt8, va0", 1, "index exceeds limit of 8")
        self.assertEqual(len(assemble("vertex", "mov vt8, va15", 3)), 7 + 24)
        self.check("vertex", "mov vt0, va15", 2, "index exceeds limit of 8")

    def test_stage_of_register_and_opcode(self):
        self.check("vertex", "mov vt0, fc0", 1, "only allowed in fragment programs")
        self.check("fragment", "mov ft0, va0", 1, "only allowed in vertex programs")
        self.check("vertex", "tex vt0, va0, fs0", 1, "opcode is only allowed in fragment programs")
        # only `vc[` is parsed as indexed: fc[ft1.x+1] reads as three operands fc, ft1 ...
        self.check("fragment", "mov ft0, fc[ft1.x+1]", 2, "found 3 but expected 2")

    def test_relative_destination(self):
        self.check("vertex", "mov vc[va0.x+1], va1", 1, "relative can not be destination")


class DiffersFromAdobe2015(unittest.TestCase):
    """OpenFL 8.9.6's port against Adobe's AGALMiniAssembler.as of 2015."""

    def test_no_ted_in_the_package(self):
        # 2015 too has the line commented out; the oracle adds it (see adobe_asm.js)
        res = adobe_oracle.assemble_many([("fragment", 2, "ted ft0, v0, fs0 <2d>")], ted=False)[0]
        self.assertEqual(res, {"hex": FRAG2, "bad_lines": [0]})

    def test_no_vertex_textures(self):
        # 2015's experiment: a vs register and the tld opcode; the port has neither
        self.assertEqual(adobe_oracle.assemble_many([("vertex", 2, "tld vt0, va0, vs0")])[0],
                         {"hex": "a002000000a100", "bad_lines": [0]})
        with self.assertRaises(AssembleError) as cm:
            assemble("vertex", "mov vt0, vs0", 2)
        self.assertIn("could not find register name", str(cm.exception))

    def test_samplers_fs0_to_fs7_only(self):
        # 2015: fs0..fs15 in every version; the port: fs0..fs7
        self.assertEqual(assemble("fragment", "tex ft0, v0, fs7", 2)[7 + 16:], h("0700 00 00 05000000"))
        with self.assertRaises(AssembleError) as cm:
            assemble("fragment", "tex ft0, v0, fs8", 2)
        self.assertIn("index exceeds limit of 8", str(cm.exception))

    def test_bias_is_parsefloat(self):
        # 2015: Number(word) (0x10 = 16 -> 128; 1.5x NaN -> 0); the port: parseFloat's prefix
        self.assertEqual(assemble("fragment", "tex ft0, v0, fs0 <0x10>", 2)[7 + 16:], h("0000 00 00 05000000"))
        self.assertEqual(assemble("fragment", "tex ft0, v0, fs0 <1.5x>", 2)[7 + 16:], h("0000 0c 00 05000000"))
        self.assertEqual(assemble("fragment", "tex ft0, v0, fs0 <3D>", 2)[7 + 16:], h("0000 18 00 05000000"))

    def test_lines_break_at_cr_and_lf_only(self):
        # 2015: lines split at [\f\n\r\v]+; the port: at \r and \n, \f and \v trimmed
        self.assertEqual(len(assemble("vertex", "\fmov vt0, va0\v\r\nmov vt1, va1", 1)), 7 + 48)
        with self.assertRaises(AssembleError) as cm:
            assemble("vertex", "mov vt0, va0\fmov vt1, va1", 1)
        self.assertIn("wrong number of operands", str(cm.exception))

    def test_offset_needs_the_index_component(self):
        # 2015's operand pattern took vc[va0+5] whole (then refused its missing
        # component); the port's needs `.c` before `+`, so it reads vc and va0
        self.assertEqual(assemble("vertex", "add vt0, vc[va0+5]", 2)[7:],
                         h("01000000", "0000 0f 02", "0000 00 e4 01 00 0000", "0000 00 e4 00 00 0000"))

    def test_register_number_is_parseint(self):
        # 2015: uint(text), modulo 2^32 (vt4294967296 is vt0); the port: parseInt, over the limit
        with self.assertRaises(AssembleError) as cm:
            assemble("vertex", "mov vt4294967296, va0", 2)
        self.assertIn("index exceeds limit of 26", str(cm.exception))
        # fd in version 1 has no limit (uint(-1)) in both: the low 16 bits are written
        self.assertEqual(assemble("fragment", "mov fd70000, ft0", 1)[11:15], h("70110f06"))


if __name__ == "__main__":
    try:
        adobe_oracle.node()
        adobe_oracle.assemble_many([("vertex", 1, "")])
    except adobe_oracle.OracleMissing as e:
        print("FAIL: %s" % e)
        sys.exit(1)
    unittest.main()
