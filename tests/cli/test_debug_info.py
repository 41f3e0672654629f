#!/usr/bin/env python3
"""agal2spv -g: the AGAL source in every output, the source map, the mapped driver log.

  test_debug_info.py AGAL2SPV AGALASM AGALDIS SPIRV_VAL SPIRV_DIS GLSLANG SHADERS_DIR

- Every corpus program with -g: the SPIR-V passes spirv-val (Vulkan 1.0); spirv-dis
  shows OpSource holding the program's disassembly (agaldis' output, byte for byte)
  and each OpLine naming a token's line of it; the source map has an entry per
  OpLine; the GLSL 330, ES 3.00 and ES 1.00 texts compile in glslang.
- -g0 with -g is byte-identical to -g0 alone in every output.
- Fault injection: in the -g text of 20 programs (GLSL 330, ES 3.00, ES 1.00) an
  undeclared name, a type mismatch or a bad swizzle is put on the line of a chosen
  token; glslang refuses each, and `--map-log` names that token, its line and its
  disassembly after glslang's error.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

A2S, ASM, DIS, VAL, SDIS, GLSLANG, SHADERS = sys.argv[1:8]
failures = 0


def check(cond, msg):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", msg)


def run(*args, stdin=None):
    return subprocess.run(list(args), capture_output=True, timeout=60, input=stdin)


def out(*args):
    r = run(*args)
    if r.returncode:
        raise SystemExit(f"{args}: exit {r.returncode}: {r.stderr.decode()}")
    return r.stdout


tmp = tempfile.mkdtemp(prefix="agal_debug_")
programs = sorted(f for f in os.listdir(SHADERS) if f.endswith(".agal"))
check(len(programs) >= 20, f"{len(programs)} corpus programs")
EXT = {"glsl": "330", "essl3": "300 es", "essl1": "100"}


def disassembly(path):
    bin_path = os.path.join(tmp, "p.bin")
    out(ASM, path, "-o", bin_path)
    return out(DIS, bin_path).decode()


def spirv_source(path, dis):
    spv, smap = os.path.join(tmp, "p.spv"), os.path.join(tmp, "p.json")
    out(A2S, "-g", path, "-o", spv, "--source-map", smap)
    r = run(VAL, "--target-env", "vulkan1.0", spv)
    check(r.returncode == 0, f"{path}: spirv-val: {r.stdout.decode()}{r.stderr.decode()}")
    text = out(SDIS, "--raw-id", spv).decode()
    m = re.search(r'OpSource Unknown 0 %\d+ "(.*?)"\n', text, re.S)
    check(m is not None and m.group(1) == dis, f"{path}: OpSource is not agaldis' text")
    lines = dis.split("\n")
    ntok = len(lines) - 3  # two header comments, a line a token, the final newline
    oplines = [int(n) for n in re.findall(r"OpLine %\d+ (\d+) 0", text)]
    check(oplines, f"{path}: no OpLine")
    check(all(3 <= n < 3 + ntok for n in oplines), f"{path}: an OpLine outside the tokens' lines: {oplines}")
    sm = json.load(open(smap))
    check(sm["out"] == "word" and sm["source"] == dis, f"{path}: source map header")
    named = [e for e in sm["map"] if e["token"] is not None]
    check(len(named) == len(oplines), f"{path}: {len(named)} map entries for {len(oplines)} OpLines")
    check(all(e["line"] == e["token"] + 3 for e in named), f"{path}: a map entry's line")
    return ntok


def glslang(text, stage, name):
    f = os.path.join(tmp, name + "." + stage)
    open(f, "wb").write(text)
    r = run(GLSLANG, f)
    return r.returncode, r.stdout.decode() + r.stderr.decode(), f


# ---- every corpus program -------------------------------------------------------
texts = {}
for p in programs:
    path = os.path.join(SHADERS, p)
    stage = "frag" if ".frag." in p else "vert"
    dis = disassembly(path)
    spirv_source(path, dis)
    for t in ("glsl", "essl3", "essl1", "wgsl"):
        r = run(A2S, "-g", "-t", t, path)
        if r.returncode and b"GLSL ES 1.00 (WebGL 1) has no" in r.stderr:
            continue  # a program ES 1.00 cannot express is refused, -g or not
        check(r.returncode == 0, f"{p} -t {t} -g: {r.stderr.decode()}")
        text = r.stdout
        texts[(p, t)] = text
        if t != "wgsl":
            rc, log, _ = glslang(text, stage, "ok")
            check(rc == 0, f"{p} -t {t} -g: glslang refuses it: {log}")
    for t in ("spv", "glsl", "essl3", "essl1", "wgsl"):
        a = run(A2S, "-g0", "-t", t, path)
        b = run(A2S, "-g", "-g0", "-t", t, path)
        check((a.returncode, a.stdout) == (b.returncode, b.stdout), f"{p} -t {t}: -g -g0 differs from -g0")

# ---- faults at chosen tokens -----------------------------------------------------
FAULTS = {
    "undeclared name": " agal_undeclared_name = 1.0;",
    "type mismatch": " float agal_mismatch = vec3(1.0);",
    "bad swizzle": " float agal_bad_swizzle = vec2(1.0).z;",
}


def statement_lines(text):
    """(index of a code line, its token) for each statement line after a `#line N 1`."""
    lines = text.split("\n")
    found = []
    for i in range(len(lines) - 1):
        m = re.fullmatch(r"\s*#line (\d+) 1", lines[i])
        if m and lines[i + 1].rstrip().endswith(";") and "//" not in lines[i + 1]:
            found.append((i + 1, int(m.group(1)) - 3))
    return found


checked = 0
for k, p in enumerate(programs[:20]):
    path = os.path.join(SHADERS, p)
    stage = "frag" if ".frag." in p else "vert"
    dis_lines = disassembly(path).split("\n")
    for j, t in enumerate(("glsl", "essl3", "essl1")):
        text = texts[(p, t)].decode()  # the first 20 programs: ES 1.00 expresses them all
        stmts = statement_lines(text)
        if not stmts:
            check(False, f"{p} -t {t}: no statement line")
            continue
        for f, (fault, code) in enumerate(FAULTS.items()):
            line, token = stmts[(k + j + f) % len(stmts)]  # a different token each time
            lines = text.split("\n")
            lines[line] += code
            rc, log, _ = glslang("\n".join(lines).encode(), stage, "fault")
            check(rc != 0, f"{p} -t {t}: glslang accepts the {fault} at token {token + 1}")
            logf = os.path.join(tmp, "log.txt")
            open(logf, "w").write(log)
            mapped = out(A2S, "-t", t, path, "--map-log", logf).decode()
            want = f"  AGAL: token {token + 1} (line {token + 3}): {dis_lines[token + 2].strip()}"
            m = re.search(r"ERROR: 1:(\d+): [^\n]*\n" + re.escape(want) + "\n", mapped)
            check(m is not None, f"{p} -t {t}: {fault} at token {token + 1}: the mapped log does not name it:\n"
                  f"{mapped}")
            checked += 1

check(checked == 20 * 3 * 3, f"{checked} faults checked")
print(f"{len(programs)} programs with -g; {checked} faults mapped back to their tokens")
sys.exit(1 if failures else 0)
