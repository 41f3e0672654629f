#!/usr/bin/env python3
"""agal2spv -g: the AGAL source in every output, the source map, the mapped driver log.

  test_debug_info.py AGAL2SPV AGALASM AGALDIS SPIRV_VAL SPIRV_DIS GLSLANG SHADERS_DIR GL_COMPILE NODE

- Every corpus program with -g: the SPIR-V passes spirv-val (Vulkan 1.0); spirv-dis
  shows OpSource holding the program's disassembly (agaldis' output, byte for byte)
  and each OpLine naming a token's line of it; the source map has an entry per
  OpLine; the GLSL 330, ES 3.00 and ES 1.00 texts compile in glslang.
- `agal2spv -g -t spvasm` (20 programs): every token with code (an OpLine, an entry of
  the source map) has its disassembly's line, as agaldis prints it, in a comment
  right above its OpLine, before the first instruction made for it.
- -g0 with -g or -gnonsemantic is byte-identical to -g0 alone in every output, and
  -gnonsemantic's texts to -g's (every fourth program).
- Fault injection: in the -g text of 20 programs (GLSL 330, ES 3.00, ES 1.00) an
  undeclared name, a type mismatch or a bad swizzle is put on the line of a chosen
  token; glslang and the GL driver (Mesa's compiler on llvmpipe, through
  GL_COMPILE: tests/gpu/gl_compile.c) refuse each, and `--map-log` names that
  token, its line and its disassembly after each one's error. The same faults in
  WGSL (a token's code: the lines after its comment), refused by Tint (Dawn for
  node, tests/oracle/wgsl_errors.mjs, on SwiftShader), whose log `--map-log` maps
  through the source map.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

A2S, ASM, DIS, VAL, SDIS, GLSLANG, SHADERS, GL_COMPILE, NODE = sys.argv[1:10]
WGSL_ERRORS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "oracle", "wgsl_errors.mjs")
SWIFTSHADER = "/usr/lib/chromium/vk_swiftshader_icd.json"  # Dawn finds no adapter through lavapipe
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


def instruction_lines(path):
    """The lines (from 1) of a corpus text that hold an instruction, read independently of the
    assembler: what is left of a line before `//` is not blank (the corpus has no line that
    Adobe's reading skips)."""
    return [i + 1 for i, l in enumerate(open(path).read().split("\n")) if l.split("//")[0].strip()]


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
    text_lines = instruction_lines(path)
    check(len(text_lines) == ntok, f"{path}: {len(text_lines)} instruction lines for {ntok} tokens")
    check(all(e["source_line"] == text_lines[e["token"]] for e in named), f"{path}: a map entry's source_line")
    return ntok


def spvasm_lines(path, dis):
    """-g -t spvasm: each OpLine has the line of dis it names just above it, and the tokens
    shown so are those the source map gives code."""
    smap = os.path.join(tmp, "p.json")
    out(A2S, "-g", path, "-o", os.path.join(tmp, "p.spv"), "--source-map", smap)
    mapped = {e["token"] for e in json.load(open(smap))["map"] if e["token"] is not None}
    text = out(A2S, "-g", "-t", "spvasm", path).decode().split("\n")
    lines, shown = dis.split("\n"), set()
    for i, l in enumerate(text):
        m = re.match(r"\s*OpLine %\S+ (\d+) 0$", l)
        if not m:
            continue
        n = int(m.group(1))
        check(i > 0 and text[i - 1].lstrip() == f"; {n}: {lines[n - 1]}",
              f"{path} -t spvasm: line {i}: {l!r} under {text[i - 1]!r}")
        shown.add(n - 3)
    check(shown == mapped, f"{path} -t spvasm: tokens shown {sorted(shown)}, with code {sorted(mapped)}")
    return len(shown)


def glslang(text, stage, name):
    f = os.path.join(tmp, name + "." + stage)
    open(f, "wb").write(text)
    r = run(GLSLANG, f)
    return r.returncode, r.stdout.decode() + r.stderr.decode(), f


# ---- every corpus program -------------------------------------------------------
texts, disassemblies = {}, {}
for p in programs:
    path = os.path.join(SHADERS, p)
    stage = "frag" if ".frag." in p else "vert"
    dis = disassemblies[p] = disassembly(path)
    spirv_source(path, dis)
    if programs.index(p) < 20:
        spvasm_lines(path, dis)
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
    for t in ("spv", "glsl", "essl3", "essl1", "wgsl") if programs.index(p) % 4 == 0 else ():  # a quarter: time
        a = run(A2S, "-g0", "-t", t, path)
        b = run(A2S, "-g", "-g0", "-t", t, path)
        check((a.returncode, a.stdout) == (b.returncode, b.stdout), f"{p} -t {t}: -g -g0 differs from -g0")
        c = run(A2S, "-gnonsemantic", "-g0", "-t", t, path)
        check((a.returncode, a.stdout) == (c.returncode, c.stdout), f"{p} -t {t}: -gnonsemantic -g0 differs from -g0")
        if t != "spv":  # the text targets ignore the non-semantic set: -g's text
            g, n = run(A2S, "-g", "-t", t, path), run(A2S, "-gnonsemantic", "-t", t, path)
            check((g.returncode, g.stdout) == (n.returncode, n.stdout), f"{p} -t {t}: -gnonsemantic differs from -g")

# ---- faults at chosen tokens -----------------------------------------------------
FAULTS = {
    "undeclared name": " agal_undeclared_name = 1.0;",
    "type mismatch": " float agal_mismatch = vec3(1.0);",
    "bad swizzle": " float agal_bad_swizzle = vec2(1.0).z;",
}


def statement_lines(text, marker=r"\s*#line (\d+) 1", first=3):
    """(index of a code line, its token) for each statement line right after a line
    matching marker, whose number is the token's index plus first (`#line N 1`:
    the index + 3; WGSL's token comment `// N: ...`: + 1)."""
    lines = text.split("\n")
    found = []
    for i in range(len(lines) - 1):
        m = re.fullmatch(marker, lines[i])
        if m and lines[i + 1].rstrip().endswith(";") and "//" not in lines[i + 1]:
            found.append((i + 1, int(m.group(1)) - first))
    return found


faults = []  # (program, target, fault, token, file)
for k, p in enumerate(programs[:20]):
    stage = "frag" if ".frag." in p else "vert"
    for j, t in enumerate(("glsl", "essl3", "essl1")):
        text = texts[(p, t)].decode()  # the first 20 programs: ES 1.00 expresses them all
        stmts = statement_lines(text)
        check(stmts, f"{p} -t {t}: no statement line")
        for f, (fault, code) in enumerate(FAULTS.items() if stmts else ()):
            line, token = stmts[(k + j + f) % len(stmts)]  # a different token each time
            lines = text.split("\n")
            lines[line] += code
            name = f"fault{len(faults)}"
            rc, log, f_path = glslang("\n".join(lines).encode(), stage, name)
            check(rc != 0, f"{p} -t {t}: glslang accepts the {fault} at token {token + 1}")
            faults.append((p, t, fault, token, f_path, log))

# Mesa's compiler, every faulty text in one GL context
gl = run(GL_COMPILE, *[a for x in faults for a in ("frag" if ".frag." in x[0] else "vert", x[4])])
check(gl.returncode == 0, f"gl_compile: exit {gl.returncode}: {gl.stderr.decode()}")
gl_logs = dict(re.findall(r"(?ms)^== (\S+) refused\n(.*?)(?=^== |\Z)", gl.stdout.decode()))



def wanted(p, token):
    """The line --map-log adds after a driver's error at token: its disassembly's line and, the
    corpus being text, the line of the .agal file."""
    source_line = instruction_lines(os.path.join(SHADERS, p))[token]
    return (f"  AGAL: token {token + 1} (line {token + 3}, source line {source_line}): "
            f"{disassemblies[p].split(chr(10))[token + 2].strip()}")


checked = 0
for p, t, fault, token, f_path, log in faults:
    path = os.path.join(SHADERS, p)
    check(f_path in gl_logs, f"{p} -t {t}: the GL driver does not refuse the {fault} at token {token + 1}")
    want = wanted(p, token)
    logf = os.path.join(tmp, "log.txt")
    open(logf, "w").write(log + "\n" + gl_logs.get(f_path, ""))  # both drivers' logs, mapped in one run
    mapped = out(A2S, "-t", t, path, "--map-log", logf).decode()
    # glslang: `ERROR: 1:L: ...`; Mesa: `0:L(C): error: ...` (it drops the string number)
    for driver, error in (("glslang", r"ERROR: 1:\d+: "), ("GL", r"\d+:\d+\(\d+\): error")):
        m = re.search(r"(?m)^" + error + r"[^\n]*\n" + re.escape(want) + "\n", mapped)
        check(m is not None, f"{p} -t {t}: {driver}: {fault} at token {token + 1}: the mapped log does not "
              f"name it:\n{mapped}")
        checked += 1

# ---- the same faults in WGSL, Tint refusing them -------------------------------------
WGSL_FAULTS = {
    "undeclared name": " agal_undeclared_name = 1.0;",
    "type mismatch": " let agal_mismatch: f32 = vec3f(1.0);",
    "bad swizzle": " let agal_bad_swizzle = vec2f(1.0).z;",
}


wgsl_faults = []
for k, p in enumerate(programs[:20]):
    text = texts[(p, "wgsl")].decode()
    stmts = statement_lines(text, r"\s*// (\d+): .*", 1)
    check(stmts, f"{p} -t wgsl: no statement line")
    for f, (fault, code) in enumerate(WGSL_FAULTS.items() if stmts else ()):
        line, token = stmts[(k + f) % len(stmts)]
        lines = text.split("\n")
        lines[line] += code
        f_path = os.path.join(tmp, f"wfault{len(wgsl_faults)}.wgsl")
        open(f_path, "w").write("\n".join(lines))
        wgsl_faults.append((p, fault, token, f_path))
env = dict(os.environ, VK_ICD_FILENAMES=SWIFTSHADER)
env.pop("VK_DRIVER_FILES", None)
tint = subprocess.run([NODE, WGSL_ERRORS] + [x[3] for x in wgsl_faults], capture_output=True, timeout=120, env=env)
check(tint.returncode == 0, f"wgsl_errors.mjs: exit {tint.returncode}: {tint.stderr.decode()}")
tint_logs = dict(re.findall(r"(?ms)^== (\S+) refused\n(.*?)(?=^== |\Z)", tint.stdout.decode()))
for p, fault, token, f_path in wgsl_faults:
    check(f_path in tint_logs, f"{p} -t wgsl: Tint does not refuse the {fault} at token {token + 1}")
    logf = os.path.join(tmp, "log.txt")
    open(logf, "w").write(tint_logs.get(f_path, ""))
    mapped = out(A2S, "-t", "wgsl", os.path.join(SHADERS, p), "--map-log", logf).decode()
    want = wanted(p, token)
    # Dawn: "Error while parsing WGSL: :L:C error: ..."
    m = re.search(r":\d+:\d+ error: [^\n]*\n" + re.escape(want) + "\n", mapped)
    check(m is not None, f"{p} -t wgsl: Tint: {fault} at token {token + 1}: the mapped log does not name it:\n{mapped}")
    checked += 1

check(checked == 20 * 3 * 3 * 2 + 20 * 3, f"{checked} mapped logs checked")

# ---- a text whose tokens are not a line each from the top: the map names its lines ----
SPACED = """// stage: fragment
// agal-version: 2

  tex ft0, v0, fs0 <2d,linear>   // line 4, column 3

// a comment between instructions
xyz ft1, ft0
\tmul ft1, ft0, fc0

sub ft1.w, ft1.w, fc1.x
mov oc, ft1
"""
SPACED_TOKENS = [(4, 3), (8, 2), (10, 1), (11, 1)]  # (line, column) of each token's instruction
spaced = os.path.join(tmp, "spaced.agal")
open(spaced, "w").write(SPACED)
for t in ("spv", "glsl", "wgsl"):
    smap = os.path.join(tmp, "spaced.json")
    out(A2S, "-g", "-t", t, spaced, "-o", os.path.join(tmp, "spaced.out"), "--source-map", smap)
    entries = json.load(open(smap))["map"]
    named = {(e["token"], e["source_line"], e["source_column"]) for e in entries if e["token"] is not None}
    # SPIR-V folds the last mov into the output's store, code of no token (OpNoLine)
    want_named = {(i, ln, col) for i, (ln, col) in enumerate(SPACED_TOKENS[:3] if t == "spv" else SPACED_TOKENS)}
    check(named == want_named, f"spaced.agal -t {t}: map (token, source_line, source_column) {sorted(named)}, "
          f"want {sorted(want_named)}")
    check(all(e["source_line"] is None for e in entries if e["token"] is None), f"spaced.agal -t {t}: code of none")
# a driver's error at the third token's line of the GLSL names the text's line 10
glsl = out(A2S, "-g", "-t", "glsl", spaced).decode().split("\n")
at = next(i + 2 for i, l in enumerate(glsl) if l.strip() == "#line 5 1")  # token 3: its first statement's line
logf = os.path.join(tmp, "spaced.log")
open(logf, "w").write(f"ERROR: 0:{at}: 'agal_fault' : undeclared identifier\n")
mapped = out(A2S, "-t", "glsl", spaced, "--map-log", logf).decode()
check("  AGAL: token 3 (line 5, source line 10): sub ft1.w, ft1.w, fc1.x\n" in mapped,
      f"spaced.agal: the mapped log does not name the text's line 10:\n{mapped}")
# bytecode has no text: the map has no source_line, the log no source line
spaced_bin = os.path.join(tmp, "spaced.bin")
out(ASM, spaced, "-o", spaced_bin)
smap = os.path.join(tmp, "spaced_bin.json")
out(A2S, "-g", "-t", "glsl", spaced_bin, "-o", os.path.join(tmp, "spaced.out"), "--source-map", smap)
check(all("source_line" not in e for e in json.load(open(smap))["map"]), "bytecode: a map entry with source_line")
mapped = out(A2S, "-t", "glsl", spaced_bin, "--map-log", logf).decode()
check("  AGAL: token 3 (line 5): sub ft1.w, ft1.w, fc1.x\n" in mapped, f"bytecode: mapped log:\n{mapped}")
print(f"{len(programs)} programs with -g; 240 faults, {checked} drivers' logs mapped back to their tokens")
sys.exit(1 if failures else 0)
