#!/usr/bin/env python3
"""agal_assemble against Adobe's assembler (the node oracle, OpenFL 8.9.6's
AGALMiniAssembler with ted: adobe_oracle.py) on texts the disassembler writes and on
typo'd versions of them and of the corpus.

Usage: test_asm_vs_adobe.py GEN_TEXTS SHADERS_DIR [COUNT]

1. COUNT generated valid programs (gen_texts: disassembled): Adobe's assembler
   accepts each, with our bytes; we warn about nothing. OpenFL's port allows
   samplers fs0..fs7 only (Flash and Adobe's 2015 source: fs0..fs15), so a program
   with a higher sampler is refused, for that reason only; its lines are then
   compared one at a time.
2. COUNT programs of random tokens inside Adobe's limits: where it accepts one,
   identical bytes and no warning; it must accept most.
3. COUNT programs of random tokens of any register, number and index, one line at a
   time: every line Adobe's assembler accepts gives our bytes and no warning (the
   disassembler's spelling is never read differently; where it refuses a line, the
   project's syntax encodes it, tests/unit/test_asm_roundtrip.c checks that).
4. Random typos (characters inserted, deleted, replaced) in those texts and in every
   shaders/*.agal: every text Adobe's assembler accepts is accepted with its bytes,
   and every line it skips ("bad line") has a warning of ours on that line.
"""

import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adobe_oracle  # noqa: E402


def ours(gen_texts, jobs, flags=0):
    """(ok, hex or None, [diagnostic lines]) for each (stage, version, text bytes)."""
    inp = "".join("%s %d %d %s\n" % (stage, version, flags, text.hex()) for stage, version, text in jobs)
    out = subprocess.run([gen_texts, "asm"], input=inp, capture_output=True, text=True, check=True).stdout
    results = []
    for line in out.split("\n"):
        if line.startswith("=== "):
            head = line.split()
            results.append([head[1] == "ok", head[2] if head[1] == "ok" else None, []])
        elif line:
            results[-1][2].append(line)
    assert len(results) == len(jobs), "gen_texts answered %d of %d" % (len(results), len(jobs))
    return results


def warnings_on(diags):
    """Line numbers of our warnings."""
    lines = set()
    for d in diags:
        if d.startswith("warning: line "):
            lines.add(int(d[len("warning: line "):].split(",")[0]))
    return lines


def our_line(text, adobe_index):
    """Our line number (\\r\\n one break) of the line Adobe's assembler numbers
    adobe_index (it splits at every \\r and every \\n)."""
    s = text.replace("\r", "\n")
    pos = 0
    for _ in range(adobe_index):
        pos = s.index("\n", pos) + 1
    return text[:pos].replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1


ALPHABET = "xyzwXY.,;[]+-<>/ \t\n0123456789vcatfsodipmeklnrEIVO_"


def typo(rng, text):
    t = list(text)
    for _ in range(rng.randint(1, 3)):
        if not t:
            break
        at = rng.randrange(len(t))
        c = rng.choice(ALPHABET)
        kind = rng.randrange(3)
        if kind == 0:
            t[at] = c
        elif kind == 1:
            t.insert(at, c)
        else:
            del t[at]
    return "".join(t)


def header(text):
    stage = adobe_oracle.header_value(text, "stage")
    version = adobe_oracle.header_value(text, "agal-version")
    return stage, int(version) if version in ("1", "2", "3") else 1


def main():
    gen_texts, shaders = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    out = subprocess.run([gen_texts, "texts", str(count)], capture_output=True, text=True, check=True).stdout
    generated = []
    for line in out.splitlines():
        kind, stage, version, hexa = line.split()
        generated.append((kind, stage, int(version), bytes.fromhex(hexa).decode("ascii")))
    if len(generated) != 3 * count:
        print("expected %d texts, got %d" % (3 * count, len(generated)))
        return 1

    # 1-3: the disassembler's texts; "any" programs line by line.
    jobs, kinds = [], []
    for kind, stage, version, text in generated:
        if kind != "any":
            jobs.append((stage, version, text.encode()))
            kinds.append(kind)
            continue
        for line in text.split("\n"):
            if line and not line.startswith("//"):
                jobs.append((stage, version, line.encode()))
                kinds.append(kind)
    theirs = adobe_oracle.assemble_many(jobs)
    mine = ours(gen_texts, jobs)
    failures = 0
    accepted = {"valid": 0, "raw": 0, "any": 0}
    total = {"valid": 0, "raw": 0, "any": 0}
    fs_limit = re.compile(r"error: register operand 2 \((\d+)\) index exceeds limit of 8\.\n  at line \d+ +t[ed][xd] ")
    refused, n_refused = [], 0
    for (stage, version, text), kind, t, (ok, hexa, diags) in zip(jobs, kinds, theirs, mine):
        total[kind] += 1
        if "error" in t:
            m = fs_limit.match(t["error"])
            if kind == "valid" and m and 8 <= int(m.group(1)) <= 15:
                n_refused += 1
                refused += [(stage, version, line.encode()) for line in text.decode().split("\n")
                            if line and not line.startswith("//")]
            elif kind == "valid":
                failures += 1
                print("valid program refused by Adobe's assembler: %s\n%s" % (t["error"], text.decode()))
            continue
        accepted[kind] += 1
        if not ok or hexa != t["hex"] or diags:
            failures += 1
            print("%s text (%s v%d): ours %s %s, Adobe's %s\n%s" % (kind, stage, version, hexa, diags, t["hex"],
                                                                  text.decode()))
    for kind in ("valid", "raw", "any"):
        print("%s: Adobe's assembler accepts %d of %d texts" % (kind, accepted[kind], total[kind]))
    line_ok = 0
    for (stage, version, text), t, (ok, hexa, diags) in zip(refused, adobe_oracle.assemble_many(refused),
                                                            ours(gen_texts, refused)):
        if "error" in t:
            if not re.search(r"\bfs(8|9|1[0-5])\b", text.decode()):
                failures += 1
                print("line of a valid program refused by Adobe's assembler: %s\n%s" % (t["error"], text.decode()))
            continue
        line_ok += 1
        if not ok or hexa != t["hex"] or diags:
            failures += 1
            print("line of a valid program: ours %s %s, Adobe's %s\n%s" % (hexa, diags, t["hex"], text.decode()))
    print("valid programs with fs8..fs15: %d, their other %d lines identical" % (n_refused, line_ok))
    # The random tokens are inside Adobe's limits, so most must be accepted for the
    # comparison to mean something; of the unconstrained lines, some.
    if accepted["raw"] < total["raw"] * 3 // 4 or accepted["any"] < total["any"] // 40:
        print("too few texts accepted")
        failures += 1

    # 4: typos.
    rng = random.Random(11)
    sources = [(stage, version, text) for kind, stage, version, text in generated if kind != "any"]
    for name in sorted(os.listdir(shaders)):
        if name.endswith(".agal"):
            with open(os.path.join(shaders, name), encoding="utf-8") as f:
                text = f.read()
            stage, version = header(text)
            sources += [(stage, version, text)] * 4
    jobs = []
    for stage, version, text in sources:
        for _ in range(4):
            jobs.append((stage, version, typo(rng, text).encode()))
    theirs = adobe_oracle.assemble_many(jobs)
    mine = ours(gen_texts, jobs)
    n_accepted = n_warned = 0
    for (stage, version, text), t, (ok, hexa, diags) in zip(jobs, theirs, mine):
        if "error" in t:
            continue
        n_accepted += 1
        n_warned += any(d.startswith("warning: ") for d in diags)
        missing = sorted(our_line(text.decode(), i) for i in t["bad_lines"]
                         if our_line(text.decode(), i) not in warnings_on(diags))
        if not ok or hexa != t["hex"] or missing:
            failures += 1
            print("typo'd text (%s v%d): ours %s, Adobe's %s, skipped lines without a warning %s\n%s\n%s" % (
                stage, version, hexa, t["hex"], missing, "\n".join(diags), text.decode()))
    print("typos: Adobe's assembler accepts %d of %d texts; we warn on %d of them" % (n_accepted, len(jobs),
                                                                                    n_warned))
    if n_accepted < len(jobs) // 4 or n_warned < n_accepted // 4:
        print("too few typo'd texts accepted or warned about")
        failures += 1
    print("%d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    adobe_oracle.run(main)
