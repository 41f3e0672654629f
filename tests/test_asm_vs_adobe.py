#!/usr/bin/env python3
"""agal_assemble against Adobe's assembler (adobe_asm.py) on texts the disassembler
writes: generated valid programs and random Adobe-acceptable tokens (gen_texts).

Usage: test_asm_vs_adobe.py GEN_TEXTS [COUNT]

Every text Adobe's assembler accepts must give identical bytes; the generated
valid programs must all be accepted (they are valid AGAL in Adobe's syntax)."""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adobe_asm import AssembleError, assemble  # noqa: E402


def main():
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    out = subprocess.run([sys.argv[1], str(count)], capture_output=True, text=True, check=True).stdout
    parts = out.split("=== ")[1:]
    programs = [(parts[i], parts[i + 1].strip()) for i in range(0, len(parts), 2)]
    if len(programs) != 2 * count:
        print("expected %d programs, got %d" % (2 * count, len(programs)))
        return 1
    failures = accepted = 0
    for k, (body, ours) in enumerate(programs):
        head, _, text = body.partition("\n")
        stage, version = head.split()
        try:
            theirs = assemble(stage, text, int(version)).hex()
        except AssembleError as e:
            if k < count:  # a generated valid program: Adobe must accept it
                print("program %d: Adobe's assembler refuses it: %s\n%s" % (k, e, text))
                failures += 1
            continue
        accepted += 1
        if theirs != ours:
            failures += 1
            print("program %d (%s v%s): bytes differ\n%s\n ours   %s\n adobe  %s" % (k, stage, version, text,
                                                                                    ours, theirs))
    print("%d of %d texts accepted by Adobe's assembler, %d differ" % (accepted, len(programs), failures))
    # The random tokens are inside Adobe's limits, so most must be accepted for the
    # comparison to mean something.
    if accepted < count + count // 2:
        print("too few texts accepted")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
