#!/usr/bin/env python3
"""Independent oracle: Adobe's AGALMiniAssembler, transliterated to Python 3.

Used only by tests, to check that tools/agalasm produces the same bytes as the
assembler every Stage3D program of the Flash era was built with.  It follows the
newest Adobe ActionScript 3 source we could read (AGALMiniAssembler.as, "Copyright
(c) 2015, Adobe Systems Incorporated", the AGAL3 version: iid register, 16 va in
version 3, 200 fc, fs index up to 15, MAX_OPCODES 4096, the vs register and tld
opcode of its vertex-texture experiment), step for step and regex for regex, with
one documented change:

  * `ted` is enabled (opcode 0x26, fragment only, version 2).  The 2015 source has
    the line commented out ("ted is not available in AGAL2"); Adobe's earlier AGAL2
    releases shipped it enabled with exactly these values, and this project's
    corpus needs an oracle for it.

Its quirks are kept on purpose, because agalasm must match the bytes it produces:

  * an unknown mnemonic (or a line whose first three characters are not a word)
    is skipped with a warning, not an error;
  * it checks no semantics: no register read/write rules, no nesting, no scalar
    swizzles, no constant pairs; only operand counts, stage of each register
    name, index ranges and the relative-offset range;
  * the alias register names (op, oc, v, i, fi, od) are looked up, then the text
    after `search(name_of_the_aliased_register)` is taken, which for an alias is
    the text after its first character: `op` -> "p", `oc1` -> "c1";
  * the fd range in version 1 is uint(-1), so `fd` assembles in AGAL1;
  * a relative operand `vc[vt2.x+5]` takes its register number from the first
    digits inside the brackets (the index register's number);
  * the sampler LOD bias is ActionScript int(Number(text) * 8) written as a byte
    (truncated toward zero, low 8 bits); an option that is no keyword and no number
    gives NaN, so bias 0;
  * later sampler options replace earlier ones of the same field; the special
    flags (centroid, single, ignoresampler) are OR-ed;
  * a swizzle shorter than four letters repeats its last letter; `w` (and any
    letter past z) encodes as 3.

Usage: adobe_asm.py [--stage vertex|fragment] [--agal-version N] [--ignore-limits]
                    in.agal -o out.bin
Without --stage / --agal-version the file's header comments `// stage: S` and
`// agal-version: N` are used (version 1 if absent, as Adobe's default).
"""

import argparse
import math
import re
import struct
import sys

# ---- the tables of the ActionScript source --------------------------------------

SAMPLER_TYPE_SHIFT = 8
SAMPLER_DIM_SHIFT = 12
SAMPLER_SPECIAL_SHIFT = 16
SAMPLER_REPEAT_SHIFT = 20
SAMPLER_MIPMAP_SHIFT = 24
SAMPLER_FILTER_SHIFT = 28

REG_WRITE = 0x1
REG_READ = 0x2
REG_FRAG = 0x20
REG_VERT = 0x40

OP_SCALAR = 0x1
OP_SPECIAL_TEX = 0x8
OP_SPECIAL_MATRIX = 0x10
OP_FRAG_ONLY = 0x20
OP_VERT_ONLY = 0x40
OP_NO_DEST = 0x80
OP_VERSION2 = 0x100
OP_INCNEST = 0x200
OP_DECNEST = 0x400

MAX_OPCODES = 4096

# name -> (numRegister, emitCode, flags)
OPMAP = {
    "mov": (2, 0x00, 0), "add": (3, 0x01, 0), "sub": (3, 0x02, 0),
    "mul": (3, 0x03, 0), "div": (3, 0x04, 0), "rcp": (2, 0x05, 0),
    "min": (3, 0x06, 0), "max": (3, 0x07, 0), "frc": (2, 0x08, 0),
    "sqt": (2, 0x09, 0), "rsq": (2, 0x0a, 0), "pow": (3, 0x0b, 0),
    "log": (2, 0x0c, 0), "exp": (2, 0x0d, 0), "nrm": (2, 0x0e, 0),
    "sin": (2, 0x0f, 0), "cos": (2, 0x10, 0), "crs": (3, 0x11, 0),
    "dp3": (3, 0x12, 0), "dp4": (3, 0x13, 0), "abs": (2, 0x14, 0),
    "neg": (2, 0x15, 0), "sat": (2, 0x16, 0),
    "m33": (3, 0x17, OP_SPECIAL_MATRIX),
    "m44": (3, 0x18, OP_SPECIAL_MATRIX),
    "m34": (3, 0x19, OP_SPECIAL_MATRIX),
    "ddx": (2, 0x1a, OP_VERSION2 | OP_FRAG_ONLY),
    "ddy": (2, 0x1b, OP_VERSION2 | OP_FRAG_ONLY),
    "ife": (2, 0x1c, OP_NO_DEST | OP_VERSION2 | OP_INCNEST | OP_SCALAR),
    "ine": (2, 0x1d, OP_NO_DEST | OP_VERSION2 | OP_INCNEST | OP_SCALAR),
    "ifg": (2, 0x1e, OP_NO_DEST | OP_VERSION2 | OP_INCNEST | OP_SCALAR),
    "ifl": (2, 0x1f, OP_NO_DEST | OP_VERSION2 | OP_INCNEST | OP_SCALAR),
    "els": (0, 0x20, OP_NO_DEST | OP_VERSION2 | OP_INCNEST | OP_DECNEST | OP_SCALAR),
    "eif": (0, 0x21, OP_NO_DEST | OP_VERSION2 | OP_DECNEST | OP_SCALAR),
    # commented out in the 2015 source, enabled in the AGAL2 releases (see top)
    "ted": (3, 0x26, OP_FRAG_ONLY | OP_SPECIAL_TEX | OP_VERSION2),
    "kil": (1, 0x27, OP_NO_DEST | OP_FRAG_ONLY),
    "tex": (3, 0x28, OP_FRAG_ONLY | OP_SPECIAL_TEX),
    "sge": (3, 0x29, 0), "slt": (3, 0x2a, 0), "sgn": (2, 0x2b, 0),
    "seq": (3, 0x2c, 0), "sne": (3, 0x2d, 0),
    "tld": (3, 0x2e, OP_VERT_ONLY | OP_SPECIAL_TEX),
}

# option -> (shift, value)
SAMPLEMAP = {
    "rgba": (SAMPLER_TYPE_SHIFT, 0), "compressed": (SAMPLER_TYPE_SHIFT, 1),
    "compressedalpha": (SAMPLER_TYPE_SHIFT, 2), "dxt1": (SAMPLER_TYPE_SHIFT, 1),
    "dxt5": (SAMPLER_TYPE_SHIFT, 2), "video": (SAMPLER_TYPE_SHIFT, 3),
    "2d": (SAMPLER_DIM_SHIFT, 0), "3d": (SAMPLER_DIM_SHIFT, 2),
    "cube": (SAMPLER_DIM_SHIFT, 1),
    "mipnearest": (SAMPLER_MIPMAP_SHIFT, 1), "miplinear": (SAMPLER_MIPMAP_SHIFT, 2),
    "mipnone": (SAMPLER_MIPMAP_SHIFT, 0), "nomip": (SAMPLER_MIPMAP_SHIFT, 0),
    "nearest": (SAMPLER_FILTER_SHIFT, 0), "linear": (SAMPLER_FILTER_SHIFT, 1),
    "anisotropic2x": (SAMPLER_FILTER_SHIFT, 2), "anisotropic4x": (SAMPLER_FILTER_SHIFT, 3),
    "anisotropic8x": (SAMPLER_FILTER_SHIFT, 4), "anisotropic16x": (SAMPLER_FILTER_SHIFT, 5),
    "centroid": (SAMPLER_SPECIAL_SHIFT, 1 << 0), "single": (SAMPLER_SPECIAL_SHIFT, 1 << 1),
    "ignoresampler": (SAMPLER_SPECIAL_SHIFT, 1 << 2),
    "repeat": (SAMPLER_REPEAT_SHIFT, 1), "wrap": (SAMPLER_REPEAT_SHIFT, 1),
    "clamp": (SAMPLER_REPEAT_SHIFT, 0),
    "clamp_u_repeat_v": (SAMPLER_REPEAT_SHIFT, 2),
    "repeat_u_clamp_v": (SAMPLER_REPEAT_SHIFT, 3),
}


class Register:
    def __init__(self, name, emit_code, rng, flags):
        self.name = name
        self.emit_code = emit_code
        self.range = rng & 0xFFFFFFFF  # the AS3 field is a uint: -1 wraps
        self.flags = flags


def initregmap(version, ignorelimits):
    def lim(n):
        return 1024 if ignorelimits else n
    v1 = version == 1
    regs = {
        "va": Register("va", 0x0, lim(7 if version in (1, 2) else 15), REG_VERT | REG_READ),
        "vc": Register("vc", 0x1, lim(127 if v1 else 249), REG_VERT | REG_READ),
        "vt": Register("vt", 0x2, lim(7 if v1 else 25), REG_VERT | REG_WRITE | REG_READ),
        "vo": Register("vo", 0x3, lim(0), REG_VERT | REG_WRITE),
        "vi": Register("vi", 0x4, lim(7 if v1 else 9),
                       REG_VERT | REG_FRAG | REG_READ | REG_WRITE),
        "fc": Register("fc", 0x1, lim(27 if v1 else (63 if version == 2 else 199)),
                       REG_FRAG | REG_READ),
        "ft": Register("ft", 0x2, lim(7 if v1 else 25), REG_FRAG | REG_WRITE | REG_READ),
        "fs": Register("fs", 0x5, lim(15), REG_FRAG | REG_READ),
        "fo": Register("fo", 0x3, lim(0 if v1 else 3), REG_FRAG | REG_WRITE),
        "fd": Register("fd", 0x6, lim(-1 if v1 else 0), REG_FRAG | REG_WRITE),
        "iid": Register("iid", 0x7, lim(0), REG_VERT | REG_READ),
        "vs": Register("vs", 0x5, lim(3), REG_VERT | REG_READ),
    }
    # aliases share the object, so they keep the aliased register's name
    regs["op"] = regs["vo"]
    regs["i"] = regs["vi"]
    regs["v"] = regs["vi"]
    regs["oc"] = regs["fo"]
    regs["od"] = regs["fd"]
    regs["fi"] = regs["vi"]
    return regs


# ---- ActionScript helpers -------------------------------------------------------

def as_match_global(text, pattern, flags=0):
    """String.match with a /g regex: every whole match (empty list when none)."""
    return [m.group(0) for m in re.finditer(pattern, text, flags)]


def as_match_first(text, pattern, flags=0):
    """String.match with a non-global regex: the first match or None."""
    m = re.search(pattern, text, flags)
    return m.group(0) if m else None


def as_search(text, pattern):
    """String.search(String): the string is compiled as a regular expression."""
    m = re.search(pattern, text)
    return m.start() if m else -1


def as_slice(text, start):
    if start < 0:
        start = max(len(text) + start, 0)
    return text[start:]


def as_number(text):
    """ActionScript Number(String): decimal, hex 0x.., Infinity; otherwise NaN."""
    s = text.strip()
    if s == "":
        return 0.0
    if re.fullmatch(r"[+-]?Infinity", s):
        return -math.inf if s.startswith("-") else math.inf
    if re.fullmatch(r"0[xX][0-9a-fA-F]+", s):
        return float(int(s, 16))
    if re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", s):
        return float(s)
    return math.nan


def as_int(x):
    """ActionScript int(Number): ToInt32, truncation toward zero, NaN/Inf -> 0."""
    if math.isnan(x) or math.isinf(x):
        return 0
    n = int(x) & 0xFFFFFFFF
    return n - (1 << 32) if n & 0x80000000 else n


def as_uint(text):
    """uint(String) for a string of digits."""
    return int(text) & 0xFFFFFFFF


# ---- the assembler --------------------------------------------------------------

OPERAND_RE = (r"vc\[([vofi][acostdip]?[d]?)(\d*)?((\.[xyzw])?(\+\d{1,3})?)?\](\.[xyzw]{1,4})?"
              r"|([vofi][acostdip]?[d]?)(\d*)?(\.[xyzw]{1,4})?")


class AssembleError(Exception):
    pass


class ByteArray:
    """flash.utils.ByteArray, little endian, as the assembler uses it."""

    def __init__(self):
        self.data = bytearray()

    def write_byte(self, v):
        self.data += struct.pack("<B", v & 0xFF)

    def write_short(self, v):
        self.data += struct.pack("<H", v & 0xFFFF)

    def write_uint(self, v):
        self.data += struct.pack("<I", v & 0xFFFFFFFF)


def swizzle_or_mask(maskmatch, is_dest):
    if maskmatch is None:
        return 0xF if is_dest else 0xE4  # identity mask or swizzle
    regmask = 0
    cv = 0
    k = 1
    while k < len(maskmatch):
        cv = (ord(maskmatch[k]) - ord("x")) & 0xFFFFFFFF
        if cv > 2:
            cv = 3
        if is_dest:
            regmask |= 1 << cv
        else:
            regmask |= cv << ((k - 1) << 1)
        k += 1
    if not is_dest:
        while k <= 4:
            regmask |= cv << ((k - 1) << 1)  # repeat the last letter
            k += 1
    return regmask


def sampler_bits(opts):
    """The upper 32 bits of a sampler operand and its LOD bias."""
    samplerbits = 5  # register type 5
    bias = 0.0
    for opt in opts or []:
        found = SAMPLEMAP.get(opt)
        if found is None:
            bias = as_number(opt)
            continue
        shift, value = found
        if shift != SAMPLER_SPECIAL_SHIFT:
            samplerbits &= ~(0xF << shift)
        samplerbits |= value << shift
    return samplerbits & 0xFFFFFFFF, bias


def relative_fields(relreg, regmap):
    relname = as_match_global(relreg, r"[A-Za-z]{1,3}", re.I)
    found = regmap.get(relname[0]) if relname else None
    if found is None:
        raise AssembleError("error: bad index register")
    selmatch = as_match_first(relreg, r"(\.[xyzw]{1,1})")
    if selmatch is None:
        raise AssembleError("error: bad index register select")
    relsel = (ord(selmatch[1]) - ord("x")) & 0xFFFFFFFF
    if relsel > 2:
        relsel = 3
    relofs = as_match_global(relreg, r"\+\d{1,3}", re.I)
    reloffset = int(relofs[0]) if relofs else 0
    if reloffset < 0 or reloffset > 255:
        raise AssembleError("error: index offset %d out of bounds. [0..255]" % reloffset)
    return found.emit_code, relsel, reloffset


def emit_operands(code, regs, op, is_frag, regmap, opts):
    num_register, _emit, flags = op
    pad = 64 + 64 + 32
    for j, reg in enumerate(regs):
        is_relative = False
        relreg = as_match_global(reg, r"\[.*\]", re.I)
        if relreg:
            reg = reg.replace(relreg[0], "0", 1)
            is_relative = True
        res = as_match_global(reg, r"^\b[A-Za-z]{1,3}", re.I)
        if not res:
            raise AssembleError("error: could not parse operand %d (%s)." % (j, reg))
        found = regmap.get(res[0])
        if found is None:
            raise AssembleError("error: could not find register name for operand %d (%s)."
                                % (j, reg))
        if is_frag:
            if not found.flags & REG_FRAG:
                raise AssembleError("error: register operand %d (%s) only allowed in vertex "
                                    "programs." % (j, reg))
            if is_relative:
                raise AssembleError("error: register operand %d (%s) relative adressing not "
                                    "allowed in fragment programs." % (j, reg))
        elif not found.flags & REG_VERT:
            raise AssembleError("error: register operand %d (%s) only allowed in fragment "
                                "programs." % (j, reg))
        reg = as_slice(reg, as_search(reg, found.name) + len(found.name))
        idxmatch = as_match_first(relreg[0] if is_relative else reg, r"\d+")
        regidx = as_uint(idxmatch) if idxmatch is not None else 0
        if found.range < regidx:
            raise AssembleError("error: register operand %d (%s) index exceeds limit of %d."
                                % (j, reg, found.range + 1))
        maskmatch = as_match_first(reg, r"(\.[xyzw]{1,4})")
        is_dest = j == 0 and not flags & OP_NO_DEST
        is_sampler = j == 2 and flags & OP_SPECIAL_TEX
        if is_dest and is_relative:
            raise AssembleError("error: relative can not be destination")
        regmask = swizzle_or_mask(maskmatch, is_dest)
        reltype = relsel = reloffset = 0
        if is_relative:
            reltype, relsel, reloffset = relative_fields(relreg[0], regmap)
        if is_dest:
            code.write_short(regidx)
            code.write_byte(regmask)
            code.write_byte(found.emit_code)
            pad -= 32
        elif is_sampler:
            bits, bias = sampler_bits(opts)
            code.write_short(regidx)
            code.write_byte(as_int(bias * 8.0))
            code.write_byte(0)
            code.write_uint(bits)
            pad -= 64
        else:
            if j == 0:
                code.write_uint(0)  # no destination (kil, ife..)
                pad -= 32
            code.write_short(regidx)
            code.write_byte(reloffset)
            code.write_byte(regmask)
            code.write_byte(found.emit_code)
            code.write_byte(reltype)
            code.write_short((relsel | (1 << 15)) if is_relative else 0)
            pad -= 64
    for _ in range(0, pad, 8):
        code.write_byte(0)


def assemble(mode, source, version=1, ignorelimits=False, warn=None):
    """Returns the bytecode; raises AssembleError where Adobe sets `error`."""
    if mode not in ("fragment", "vertex"):
        raise AssembleError('ERROR: mode needs to be "fragment" or "vertex" but is "%s".'
                            % mode)
    is_frag = mode == "fragment"
    code = ByteArray()
    code.write_byte(0xA0)
    code.write_uint(version)
    code.write_byte(0xA1)
    code.write_byte(1 if is_frag else 0)
    regmap = initregmap(version, ignorelimits)
    lines = re.sub(r"[\f\n\r\v]+", "\n", source).split("\n")
    nops = 0
    for i, raw in enumerate(lines):
        try:
            nops = assemble_line(code, raw, i, nops, version, is_frag, regmap, warn)
        except AssembleError as e:
            raise AssembleError("%s\n  at line %d %s" % (e, i, raw)) from None
    return bytes(code.data)


def assemble_line(code, raw, i, nops, version, is_frag, regmap, warn):
    line = re.sub(r"^\s+|\s+$", "", raw)
    startcomment = as_search(line, "//")
    if startcomment != -1:
        line = line[:startcomment]
    opts = None
    optsi = as_search(line, r"<.*>")
    if optsi != -1:
        opts = as_match_global(line[optsi:], r"([\w\.\-\+]+)", re.I)
        line = line[:optsi]
    opcode = as_match_global(line, r"^\w{3}", re.I)
    op = OPMAP.get(opcode[0]) if opcode else None
    if op is None:
        if len(line) >= 3 and warn:
            warn("warning: bad line %d: %s" % (i, raw))
        return nops
    name = opcode[0]
    num_register, emit_code, flags = op
    line = as_slice(line, as_search(line, name) + len(name))
    if flags & OP_VERSION2 and version < 2:
        raise AssembleError("error: opcode requires version 2.")
    if flags & OP_VERT_ONLY and is_frag:
        raise AssembleError("error: opcode is only allowed in vertex programs.")
    if flags & OP_FRAG_ONLY and not is_frag:
        raise AssembleError("error: opcode is only allowed in fragment programs.")
    code.write_uint(emit_code)
    nops += 1
    if nops > MAX_OPCODES:
        raise AssembleError("error: too many opcodes. maximum is %d." % MAX_OPCODES)
    # AS3 String.match with /g gives an empty array when nothing matches, which
    # is what lets els/eif (no operands) through the count check.
    regs = as_match_global(line, OPERAND_RE, re.I)
    if len(regs) != num_register:
        raise AssembleError("error: wrong number of operands. found %d but expected %d."
                            % (len(regs), num_register))
    emit_operands(code, regs, op, is_frag, regmap, opts)
    return nops


# ---- command line ---------------------------------------------------------------

def header_value(source, key):
    m = re.search(r"^\s*//\s*" + re.escape(key) + r"\s*:\s*(\S+)", source, re.M)
    return m.group(1) if m else None


def main(argv=None):
    ap = argparse.ArgumentParser(description="Adobe AGALMiniAssembler (Python oracle)")
    ap.add_argument("--stage", choices=("vertex", "fragment"))
    ap.add_argument("--agal-version", type=int)
    ap.add_argument("--ignore-limits", action="store_true")
    ap.add_argument("input")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args(argv)
    with open(args.input, encoding="utf-8") as f:
        source = f.read()
    stage = args.stage or header_value(source, "stage")
    if stage is None:
        print("%s: no --stage and no `// stage:` header" % args.input, file=sys.stderr)
        return 2
    version = args.agal_version
    if version is None:
        text = header_value(source, "agal-version")
        version = int(text) if text else 1
    try:
        code = assemble(stage, source, version, args.ignore_limits,
                        warn=lambda msg: print(msg, file=sys.stderr))
    except AssembleError as e:
        print("%s: %s" % (args.input, e), file=sys.stderr)
        return 1
    with open(args.output, "wb") as f:
        f.write(code)
    return 0


if __name__ == "__main__":
    sys.exit(main())
