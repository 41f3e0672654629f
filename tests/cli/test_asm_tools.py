#!/usr/bin/env python3
"""agalasm and agaldis from the command line: exit codes (0 ok, 1 invalid input,
2 usage or I/O), stdin/stdout with `-`, header comments and flags that override
them, warnings and agalasm --strict, --validate, agaldis --tokens and --strict.

Usage: test_asm_tools.py AGALASM AGALDIS"""

import os
import subprocess
import sys
import tempfile

AGALASM, AGALDIS = sys.argv[1], sys.argv[2]
failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)


def run(args, stdin=b""):
    p = subprocess.run(args, input=stdin, capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode()


# mov vt0, va0 / m44 op, va0, vc0 (bytes from spec section 2, by hand)
VERT = b"// stage: vertex\n// agal-version: 2\nmov vt0, va0\nm44 op, va0, vc0\n"
VERT_BYTES = bytes.fromhex(
    "a0 02000000 a1 00"
    "00000000 0000 0f 02 0000 00 e4 00 00 0000 0000000000000000"
    "18000000 0000 0f 03 0000 00 e4 00 00 0000 0000 00 e4 01 00 0000")

with tempfile.TemporaryDirectory() as tmp:
    src = os.path.join(tmp, "v.agal")
    out = os.path.join(tmp, "v.bin")
    with open(src, "wb") as f:
        f.write(VERT)

    rc, _, err = run([AGALASM, src, "-o", out])
    check(rc == 0 and open(out, "rb").read() == VERT_BYTES, "header comments give stage and version (%s)" % err)

    rc, data, _ = run([AGALASM, "-", "-o", "-"], VERT)
    check(rc == 0 and data == VERT_BYTES, "stdin to stdout")

    # Flags override the header: fragment stage byte 1, version 3.
    rc, data, _ = run([AGALASM, "--stage", "fragment", "--agal-version", "3", "-", "-o", "-"], VERT)
    check(rc == 0 and data[:7] == bytes.fromhex("a0 03000000 a1 01") and data[7:] == VERT_BYTES[7:],
          "--stage/--agal-version override the header")

    # No stage anywhere: usage error. No version: Adobe's default, 1.
    rc, _, err = run([AGALASM, "-", "-o", "-"], b"mov vt0, va0\n")
    check(rc == 2 and "stage" in err, "missing stage is a usage error")
    rc, data, _ = run([AGALASM, "--stage", "vertex", "-", "-o", "-"], b"mov vt0, va0\n")
    check(rc == 0 and data[1] == 1, "version defaults to 1")

    # Invalid text: exit 1, the file name, line and column on stderr.
    rc, _, err = run([AGALASM, "--stage", "vertex", "-", "-o", "-"], b"mov vt0, va0\nmov vt1, xx0\n")
    check(rc == 1 and err == "<stdin>: error: line 2, column 10: unknown register 'xx'\n", "syntax error: " + err)

    # Text Adobe's assembler reads its own way: its bytes and a warning (exit 0);
    # --strict makes the warning an error (exit 1, no output).
    typo = b"mov vt0, va0\nfoo vt0, va0\nmov vt1 va0\n"
    rc, data, err = run([AGALASM, "--stage", "vertex", "-", "-o", "-"], typo)
    check(rc == 0 and data == VERT_BYTES[:7].replace(b"\x02", b"\x01", 1) + VERT_BYTES[7:31] +
          bytes.fromhex("00000000 0100 0f 02 0000 00 e4 00 00 0000 0000000000000000") and
          err == "<stdin>: warning: line 2, column 1: unknown mnemonic 'foo': Adobe's assembler skips the line\n"
                 "<stdin>: warning: line 3, column 9: missing ',' between 'vt1' and 'va0'\n",
          "warnings: %d %s %s" % (rc, data.hex(), err))
    rc, data, err = run([AGALASM, "--strict", "--stage", "vertex", "-", "-o", "-"], typo)
    check(rc == 1 and data == b"" and
          err == "<stdin>: error: line 2, column 1: unknown mnemonic 'foo': Adobe's assembler skips the line\n",
          "--strict: %d %s" % (rc, err))
    rc, data, err = run([AGALASM, "--strict", "-", "-o", "-"], VERT)
    check(rc == 0 and data == VERT_BYTES and err == "", "--strict without warnings")

    # --validate: a fragment program reading an attribute is Flash error 3645.
    rc, _, err = run([AGALASM, "--stage", "fragment", "--validate", "-", "-o", "-"], b"mov oc, va0\n")
    check(rc == 1 and "3645" in err, "--validate reports the Flash id: " + err)

    rc, _, _ = run([AGALASM, "--stage", "sideways", src, "-o", out])
    check(rc == 2, "bad --stage is a usage error")
    rc, _, _ = run([AGALASM, src])
    check(rc == 2, "missing -o is a usage error")
    rc, _, _ = run([AGALASM, os.path.join(tmp, "missing.agal"), "-o", out])
    check(rc == 2, "unreadable input is an I/O error")
    rc, _, _ = run([AGALASM, src, "-o", os.path.join(tmp, "no", "such", "dir.bin")])
    check(rc == 2, "unwritable output is an I/O error")

    # agaldis: text that assembles back to the same bytes, header included.
    rc, text, _ = run([AGALDIS, "-"], VERT_BYTES)
    check(rc == 0 and b"// stage: vertex" in text and b"m44 op, va0, vc0" in text, "agaldis text")
    rc, data, _ = run([AGALASM, "-", "-o", "-"], text)
    check(rc == 0 and data == VERT_BYTES, "agaldis | agalasm gives the same bytes")

    rc, text, _ = run([AGALDIS, "--tokens", "-"], VERT_BYTES)
    check(rc == 0 and b"op 0x00000018" in text and b"type 3" in text, "--tokens shows raw fields")

    bad = VERT_BYTES[:7] + bytes.fromhex("22000000") + bytes(20)  # opcode 0x22 does not exist
    rc, text, _ = run([AGALDIS, "-"], bad)
    check(rc == 0 and b"unknown opcode" in text, "unknown opcode shown as a comment")
    rc, _, err = run([AGALDIS, "--strict", "-"], bad)
    check(rc == 1 and "unknown opcode" in err, "--strict refuses it")
    rc, _, _ = run([AGALDIS, "-"], b"\xa0\x01")
    check(rc == 1, "a short file is invalid input")
    rc, _, _ = run([AGALDIS])
    check(rc == 2, "agaldis without input is a usage error")
    rc, _, _ = run([AGALDIS, os.path.join(tmp, "missing.bin")])
    check(rc == 2, "agaldis: unreadable input is an I/O error")

print("%d failures" % failures)
sys.exit(1 if failures else 0)
