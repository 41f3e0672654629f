#!/usr/bin/env python3
"""The npm package against the native build: tests/web/test_web.py --build-sh web/build.sh
--agalasm AGALASM --agal2spv AGAL2SPV --agalrun AGALRUN --shaders DIR --oracle DIR --pipeline-keys PROGRAM
[--node NODE].

Builds the package (web/build.sh into a temporary folder, Debian's emscripten),
installs the tarball into a fresh folder with `npm install` and runs
tests/web/test_web.mjs there under node's test runner over a manifest this script makes
with the native tools: every corpus program's bytes and its native GLSL 330, ES
3.00, ES 1.00, WGSL and SPIR-V (the package must give the same bytes), the WGSL
reflection's bind group layout (bindings.bindGroupLayout must be the same), and bad
uploads with the line `agal2spv --check --flash` prints (the package must throw the
same line, with Flash's id and class), and test_hostile.mjs's table of hostile
calls, each with its one error class and message, and test_bindings.mjs's
bindings per target (names, texture units, WebGPU's sampler descriptors), and
test_pipeline.mjs's pipeline keys against the native ones of the same states
(tests/web/pipeline_keys.c, --pipeline-keys). A page
draws one pair with WebGL 2, WebGL 1 and WebGPU from `bindings` alone, and one into
a texture and to the canvas, culled, its rows and its ddy's sign read back (WebGL 2
uploaded by default and with clip 'control', WebGPU with pipelineDescriptor)
(bind_page.html). Then a page imports the package from file://
in headless Chromium, with no network, uploads a pair and catches Flash's error; and
OpenFL's Stage3D (npm openfl 8.9.6, from tests/oracle) draws in Chromium with its
Program3D.upload routed through the package's hook, agal2spv/openfl
(openfl_dropin.html): AGAL 1 pairs every pixel as its own converter draws them, the
corpus's AGAL 2 pairs, which its converter refuses, as the interpreter computes them
(openfl_agal2.py), and a refused pair's Flash error reaching the page. Issue 35's
proof in WebGL (debug_page.html): 20 programs' debugInfo ES 3.00 and ES 1.00 texts
with three faults each at chosen tokens, all refused by Chromium's WebGL 2 and
WebGL 1, and mapDriverLog of each log naming the token. The tarball must stay within
PACKAGE_BUDGET, and web/firstdraw.mjs must draw every AGAL 1 pair of the package's in
Chromium, in WebGL 2 (also uploaded with clip 'control', under EXT_clip_control)
and (--webgpu) in WebGPU (its figures are the bench's, not
checked). A missing
emcc, node, chromium or openfl fails the test."""
import argparse
import base64
import fcntl
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import openfl_agal2

HERE = os.path.dirname(os.path.abspath(__file__))
# The package's budget (web/README.md, "Speed and size"): the npm tarball web/build.sh
# makes, in bytes. A tarball past it fails the test.
PACKAGE_BUDGET = 200 * 1024
TARGETS = {"glsl": "glsl", "essl3": "essl3", "essl1": "essl1", "spirv": "spv", "wgsl": "wgsl"}


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, timeout=300, **kw)


def program(args, tmp, path):
    out = os.path.join(tmp, os.path.basename(path) + ".bin")
    r = run([args.agalasm, path, "-o", out])
    if r.returncode != 0:
        raise SystemExit("agalasm %s: %s" % (path, r.stderr.decode()))
    entry = {"name": os.path.basename(path), "bytes": base64.b64encode(open(out, "rb").read()).decode(),
             "outputs": {}, "bin": out}
    for target, kind in TARGETS.items():
        r = run([args.agal2spv, "-t", kind, out, "-o", "-"])
        entry["outputs"][target] = (base64.b64encode(r.stdout).decode() if r.returncode == 0
                                    else {"error": r.stdout.decode() + r.stderr.decode()})
    # the native reflection's WebGPU bind group layout, for bindings.bindGroupLayout
    reflection = out + ".json"
    r = run([args.agal2spv, "-t", "wgsl", out, "-o", os.devnull, "--reflect", reflection])
    if r.returncode != 0:
        raise SystemExit("agal2spv -t wgsl --reflect %s: %s" % (path, r.stderr.decode()))
    entry["webgpu"] = json.load(open(reflection))["webgpu"]
    # the web's targets under each --clip mode, for translate's `clip`
    entry["clip"] = {mode: {target: base64.b64encode(run([args.agal2spv, "-t", target, "--clip", mode, out, "-o", "-"],
                                                         check=True).stdout).decode()
                            for target in ("essl3", "wgsl")}
                     for mode in ("none", "gl", "vulkan", "control")}
    # -g0's bytes for every target the program translates to, for `stripNames`
    entry["stripped"] = {target: base64.b64encode(run([args.agal2spv, "-t", kind, "-g0", out, "-o", "-"],
                                                      check=True).stdout).decode()
                         for target, kind in TARGETS.items() if isinstance(entry["outputs"][target], str)}
    entry["debug"] = {target: debug_outputs(args, tmp, out, target) for target in ("glsl", "essl3", "essl1", "wgsl")}
    return entry


# A driver's log naming every line of a text up to 60, in ANGLE's and glslang's
# form (source string 1: a token's line; 0: the text's) and Tint's, for mapDriverLog
# against `agal2spv --map-log`.
DRIVER_LOG = "".join("ERROR: %d:%d: 'agal_x' : a fault\n:%d:3 error: a fault\n" % (n % 2, n, n) for n in range(1, 61))


def debug_outputs(args, tmp, out, target):
    """The program's -g output (base64) and DRIVER_LOG mapped back to it natively."""
    r = run([args.agal2spv, "-g", "-t", TARGETS[target], out, "-o", "-"])
    if r.returncode != 0:
        return {"error": r.stderr.decode()}
    log = os.path.join(tmp, "driver.log")
    open(log, "w").write(DRIVER_LOG)
    mapped = run([args.agal2spv, "-t", TARGETS[target], out, "--map-log", log])
    if mapped.returncode != 0:
        raise SystemExit("agal2spv --map-log %s: %s" % (out, mapped.stderr.decode()))
    return {"code": base64.b64encode(r.stdout).decode(), "log": DRIVER_LOG, "mapped": mapped.stdout.decode()}


def flash_line(args, vbin, fbin):
    r = run([args.agal2spv, "--check", "--flash", vbin, fbin])
    lines = [l for l in (r.stdout + r.stderr).decode().splitlines() if "Error #" in l]
    return lines[0] if r.returncode != 0 and lines else None


def bad_uploads(args, tmp, programs):
    """Pairs Flash refuses: mismatched varyings, swapped stages, empty and cut programs."""
    verts = [p for p in programs if ".vert." in p["name"]]
    frags = [p for p in programs if ".frag." in p["name"]]
    cases = []
    empty = os.path.join(tmp, "empty.bin")
    open(empty, "wb").close()
    cut = os.path.join(tmp, "cut.bin")
    open(cut, "wb").write(open(verts[0]["bin"], "rb").read()[:30])
    candidates = [(v["bin"], f["bin"]) for v in verts[:6] for f in frags[:6]]
    candidates += [(frags[0]["bin"], frags[0]["bin"]), (verts[0]["bin"], verts[0]["bin"]), (empty, frags[0]["bin"]),
                   (cut, frags[0]["bin"]), (verts[0]["bin"], empty)]
    for v, f in candidates:
        line = flash_line(args, v, f)
        if line:
            cases.append({"vertex": base64.b64encode(open(v, "rb").read()).decode(),
                          "fragment": base64.b64encode(open(f, "rb").read()).decode(), "line": line})
    return cases


PAGE = """<!doctype html><html><head><title></title></head><body>
<script type="module">
import { load } from './app/node_modules/agal2spv/agal2spv.js';
const agal = await load();
const v = agal.assemble('m44 op, va0, vc0\\nmov v0, va1\\n', { stage: 'vertex' });
const f = agal.assemble('mov oc, v0\\n', { stage: 'fragment' });
const u = agal.upload(v, f, { target: 'essl3' });
let e = 'none';
try { agal.upload(v, agal.assemble('mov oc, v1\\n', { stage: 'fragment' })); } catch (x) { e = x.name + ' ' + x.errorID; }
document.title = 'version ' + agal.version + ', ' + u.vertex.slice(0, 15) + ', ' + e;
</script></body></html>
"""


class DevTools:
    """Headless Chromium driven over the DevTools protocol on a pipe
    (--remote-debugging-pipe: JSON messages ended by a NUL byte, commands on the
    browser's fd 3, answers on its fd 4), as tools/gpu/harness_web.c does."""

    def __init__(self, argv, deadline):
        self.deadline, self.buf, self.next_id, self.session = deadline, b"", 0, None
        to_browser, self.commands = os.pipe()
        self.answers, from_browser = os.pipe()

        def child_fds():  # above 4 first, so that neither dup2 overwrites the other's source
            r, w = fcntl.fcntl(to_browser, fcntl.F_DUPFD, 10), fcntl.fcntl(from_browser, fcntl.F_DUPFD, 10)
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.proc = subprocess.Popen(argv, preexec_fn=child_fds, close_fds=False, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        os.close(to_browser)
        os.close(from_browser)

    def message(self):
        while b"\0" not in self.buf:
            left = self.deadline - time.monotonic()
            if left <= 0 or not select.select([self.answers], [], [], left)[0]:
                raise TimeoutError("the browser did not answer in time")
            data = os.read(self.answers, 1 << 20)
            if not data:
                raise EOFError("the browser closed its DevTools pipe")
            self.buf += data
        text, self.buf = self.buf.split(b"\0", 1)
        return json.loads(text)

    def call(self, method, params=None, session=True):
        self.next_id += 1
        m = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            m["sessionId"] = self.session
        os.write(self.commands, json.dumps(m).encode() + b"\0")
        while True:
            a = self.message()
            if a.get("id") == self.next_id:
                if "error" in a:
                    raise RuntimeError("%s: %s" % (method, a["error"].get("message")))
                return a["result"]

    def wait_event(self, method):
        while self.message().get("method") != method:
            pass

    def close(self):
        try:
            self.deadline = time.monotonic() + 10
            self.call("Browser.close", session=False)
        except (OSError, EOFError, TimeoutError, RuntimeError):
            pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # the browser's helpers too
        except ProcessLookupError:
            pass
        self.proc.wait()
        os.close(self.commands)
        os.close(self.answers)


def page_title(tmp, page, name, flags=(), timeout=600):
    """What a page in headless Chromium writes into its title, from file:// with no
    network. The browser is asked, over the DevTools protocol, to wait until the
    page has written one, so a loaded machine takes longer but does not fail."""
    argv = ["chromium", "--headless=new", "--no-sandbox", "--allow-file-access-from-files", *flags,
            "--user-data-dir=" + os.path.join(tmp, "profile-" + name.replace(" ", "-")), "--remote-debugging-pipe",
            "about:blank"]
    browser = DevTools(argv, time.monotonic() + timeout)
    try:
        target = next(t["targetId"] for t in browser.call("Target.getTargets", session=False)["targetInfos"]
                      if t["type"] == "page")
        browser.session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True},
                                       session=False)["sessionId"]
        browser.call("Page.enable")
        browser.call("Page.navigate", {"url": "file://" + page})
        browser.wait_event("Page.loadEventFired")
        wait = "new Promise((done) => { const f = () => document.title ? done(document.title) : setTimeout(f, 50); f(); })"
        r = browser.call("Runtime.evaluate", {"expression": wait, "awaitPromise": True, "returnByValue": True})
        return r["result"].get("value", "")
    except (OSError, EOFError, TimeoutError, RuntimeError, StopIteration) as e:
        print("%s: no result (%s)" % (name, e))
        return ""
    finally:
        browser.close()


def page_result(tmp, page, name, flags):
    """The JSON object a page writes into its title (page_title), or None, said why,
    when it wrote none or reported a "failure"."""
    title = page_title(tmp, os.path.join(tmp, page), name, flags)
    try:
        got = json.loads(title)
    except ValueError:
        print("%s: no result" % name)
        return None
    if "failure" in got:
        print("%s: %s" % (name, got["failure"]))
        return None
    return got


def in_chromium(tmp, version):
    """The package in a page from file://, no network: what the page writes."""
    page = os.path.join(tmp, "page.html")
    open(page, "w").write(PAGE)
    got = page_title(tmp, page, "chromium")
    want = "version %s, #version 300 es, Error 3632" % version
    print("chromium: %s" % got)
    return got == want


def bound_from_bindings(tmp):
    """A runtime binding from `bindings` alone (bind_page.html): WebGL 2 (essl3), WebGL 1
    (essl1, with a host's names) and WebGPU (wgsl) draw one pair over 8x8; every pixel
    must be the orange texture on unit 1 times fc0, (255, 64, 0, 255). WebGPU again
    with the pipeline of pipelineDescriptor (webgpuKeyed): alpha masked off, front faces
    culled, a stencil test only setStencilReference passes: (255, 64, 0, 0). And
    Flash's depth in WebGL 2, uploaded by default and with clip 'none' under
    EXT_clip_control: of z = -0.1, 0.25 and 0.75 (w 1) over a depth of 0.5 tested
    LESS, only 0.25 draws. And the orientation: a back-facing triangle over the top
    half of Stage3D's clip space, front faces culled, coloured by the sign of its
    ddy, into a texture and to the canvas, in WebGL 2 uploaded by default and with
    clip 'control' (EXT_clip_control's origin, no vertex flip), and in WebGPU into
    a texture with pipelineDescriptor's pipeline: each target's top four rows, as
    Stage3D sees them, drawn with ddy's sign right, the bottom four empty."""
    shutil.copy(os.path.join(HERE, "bind_page.html"), tmp)
    got = page_result(tmp, "bind_page.html", "bindings page",
                      ("--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--enable-unsafe-webgpu"))
    if got is None:
        return False
    ok = True
    for api in ("webgl2", "webgl1", "webgpu", "webgpuKeyed"):
        want = (255, 64, 0, 0) if api == "webgpuKeyed" else (255, 64, 0, 255)
        px = got.get(api)
        if not isinstance(px, list) or len(px) != 256:
            print("bindings page, %s: %s" % (api, px))
            ok = False
            continue
        pixels = [px[i:i + 4] for i in range(0, 256, 4)]
        right = sum(all(abs(a - b) <= 1 for a, b in zip(p, want)) for p in pixels)
        print("bindings page, %s: %d of 64 pixels the texture on unit 1 times fc0 (first %s)" % (api, right, pixels[0]))
        ok = ok and right == 64
    want = [False, True, False]
    for clip in ("default", "none"):
        drew = got.get("depth", {}).get(clip)
        print("bindings page, depth with clip %s: drawn at z -0.1, 0.25, 0.75: %s (want %s)" % (clip, drew, want))
        ok = ok and drew == want
    # the rows top first: 'w' drawn with ddy's sign right, 'k' wrong, '.' not drawn;
    # flips: which stages declare agal_yflip ('control': the fragment program's ddy only)
    for case in ("webgl2 default back buffer", "webgl2 default texture", "webgl2 control back buffer",
                 "webgl2 control texture", "webgpu texture"):
        got_case = got.get("orientation", {}).get(case)
        want = {"rows": "wwww...."}
        if case.startswith("webgl2"):
            want["flips"] = "f" if "control" in case else "vf"
        print("bindings page, orientation, %s: %s (want %s)" % (case, got_case, want))
        ok = ok and got_case == want
    return ok


def debug_in_webgl(tmp, programs):
    """Issue 35's proof in Chromium's WebGL 2 and WebGL 1 (ANGLE on SwiftShader,
    debug_page.html): 20 programs' debugInfo ES 3.00 and ES 1.00 texts, three faults
    at chosen tokens in each, all refused, and mapDriverLog of each log names the
    token: 120 checked, in one page load."""
    shutil.copy(os.path.join(HERE, "debug_page.html"), tmp)
    chosen = [{"name": p["name"], "bytes": p["bytes"]} for p in programs[:20]]
    with open(os.path.join(tmp, "debug_programs.js"), "w") as f:
        f.write("export default %s;\n" % json.dumps(chosen))
    got = page_result(tmp, "debug_page.html", "debug info page",
                      ("--use-angle=swiftshader", "--enable-unsafe-swiftshader"))
    if got is None:
        return False
    for failure in got["failures"]:
        print("debug info page: %s" % failure)
    want = 20 * 2 * 3
    print("debug info page: %d programs, %d faults refused by WebGL 2 and WebGL 1, %d mapped logs naming their "
          "token (want %d)" % (got["programs"], got["cases"], got["checked"], want))
    return not got["failures"] and got["checked"] == want


def openfl_dropin(args, tmp, refused):
    """OpenFL's Stage3D in Chromium with Program3D.upload routed through the package by
    its agal2spv/openfl (openfl_dropin.html): AGAL 1 pairs as OpenFL's converter
    draws them, the corpus's AGAL 2 pairs as the interpreter computes them
    (openfl_agal2.py), and a refused pair's Flash error reaching the page."""
    modules = os.path.join(args.oracle, "node_modules")
    for src in ("pako/dist/pako.min.js", "howler/dist/howler.min.js", "openfl/dist/openfl.min.js"):
        shutil.copy(os.path.join(modules, src), tmp)
    shutil.copy(os.path.join(HERE, "openfl_dropin.html"), tmp)
    cases, refs = openfl_agal2.pairs(args, tmp, args.shaders)
    with open(os.path.join(tmp, "agal2_cases.js"), "w") as f:
        f.write("window.AGAL2_CASES = %s;\n" % json.dumps({"pairs": cases, "refused": refused}))
    got = page_result(tmp, "openfl_dropin.html", "openfl drop-in",
                      ("--use-angle=swiftshader", "--enable-unsafe-swiftshader"))
    if got is None:
        return False
    ok = True
    for i, c in enumerate(got["agal1"]):
        same = sum(a == b for a, b in zip(c["openfl"], c["agal2spv"]))
        lit = sum(p != 0xFF000000 for p in c["agal2spv"])
        print("openfl drop-in, AGAL 1 case %d: %d of %d pixels as OpenFL's converter draws them (%d lit)" % (
            i, same, len(c["openfl"]), lit))
        ok = ok and same == len(c["openfl"]) == 1024 and lit > 400
    # the sampler-state case: the checkerboard repeated six times (407 changes; clamped, 283)
    stripes = sum(a != b for a, b in zip(got["agal1"][-1]["agal2spv"], got["agal1"][-1]["agal2spv"][1:]))
    print("openfl drop-in, the token's repeat wrap: %d colour changes along the rows" % stripes)
    ok = ok and stripes > 350
    print("openfl drop-in: OpenFL's own converter on AGAL 2: %s" % got["openflRefuses"])
    ok = ok and "Version must be 1" in got["openflRefuses"]
    for ref, drawn in zip(refs, got["agal2"]):
        good, msg = openfl_agal2.check(ref, drawn["pixels"])
        print("openfl drop-in, AGAL 2 %s: %s%s" % (ref["name"], msg, "" if good else "  FAILED"))
        ok = ok and good and drawn["name"] == ref["name"]
    ok = ok and len(got["agal2"]) == len(refs) > 0
    e, line = got["error"], refused["line"]
    print("openfl drop-in, a refused pair: %s, want %s" % (e, line))
    ok = ok and e is not None and e["message"] == line and e["errorID"] == int(line.split("#")[1].split(":")[0]) \
        and e["name"] in ("Error", "ArgumentError")
    # the hook holds a pair to the context's profile: AGAL 2 on a baseline context is #3725
    p = got.get("profileError")
    print("openfl drop-in, AGAL 2 on a baseline context: %s" % p)
    ok = ok and p is not None and p["errorID"] == 3725 and p["name"] == "Error" and p["profile"] == "standard" \
        and p["message"].startswith("Error #3725: ")
    return ok


def install(args, tmp, tgz):
    """`npm install` of the tarball into a fresh folder, tmp/app, as a user installs
    it (no network: the package has no dependencies); the installed package's folder."""
    app = os.path.join(tmp, "app")
    os.makedirs(app)
    with open(os.path.join(app, "package.json"), "w") as f:
        json.dump({"name": "agal2spv-test-app", "private": True, "type": "module"}, f)
    r = run(["npm", "install", "--no-audit", "--no-fund", "--offline", tgz], cwd=app)
    pkg = os.path.join(app, "node_modules", "agal2spv")
    if r.returncode != 0 or not os.path.isfile(os.path.join(pkg, "agal2spv.js")):
        print("npm install %s failed:\n%s" % (tgz, (r.stdout + r.stderr).decode()[-4000:]))
        return None
    return pkg


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-sh", required=True)
    ap.add_argument("--agalasm", required=True)
    ap.add_argument("--agal2spv", required=True)
    ap.add_argument("--agalrun", required=True)
    ap.add_argument("--shaders", required=True)
    ap.add_argument("--node", default="node")
    ap.add_argument("--oracle", required=True, help="tests/oracle, where npm ci installed openfl")
    ap.add_argument("--pipeline-keys", required=True, help="tests/web/pipeline_keys.c's program: the native keys")
    args = ap.parse_args()
    for tool in ("emcc", args.node, "npm", "chromium"):
        if not shutil.which(tool):
            print("%s is not installed: the package cannot be built or run" % tool)
            return 1
    with tempfile.TemporaryDirectory(prefix="agal-web-") as tmp:
        r = run(["bash", args.build_sh, tmp])
        if r.returncode != 0:
            print("web/build.sh failed:\n" + (r.stdout + r.stderr).decode()[-4000:])
            return 1
        tgz = r.stdout.decode().strip().splitlines()[-1]
        pkg = install(args, tmp, tgz)
        if not pkg:
            return 1
        files = sorted(f for f in os.listdir(args.shaders) if f.endswith(".agal"))
        programs = [program(args, tmp, os.path.join(args.shaders, f)) for f in files]
        manifest = {"programs": [{k: v for k, v in p.items() if k != "bin"} for p in programs],
                    "uploads": bad_uploads(args, tmp, programs),
                    "replayErrors": json.load(open(os.path.join(HERE, "..", "gpu", "replay_errors.json"))),
                    "pipelineKeys": json.loads(run([args.pipeline_keys], check=True).stdout),
                    "version": open(
                        os.path.join(os.path.dirname(args.build_sh), "..", "meson.build")).read().split(
                        "version : '")[1].split("'")[0]}
        mpath = os.path.join(tmp, "manifest.json")
        json.dump(manifest, open(mpath, "w"))
        # node's test runner, in the folder the package was installed into
        tests = ("test_web.mjs", "test_hostile.mjs", "test_bindings.mjs", "test_pipeline.mjs")
        for test in tests:
            shutil.copy(os.path.join(HERE, test), os.path.join(tmp, "app"))
        r = run([args.node, "--test", "--test-reporter=spec", *tests],
                cwd=os.path.join(tmp, "app"), env=dict(os.environ, AGAL_MANIFEST=mpath))
        print((r.stdout + r.stderr).decode())
        size = os.path.getsize(tgz)
        size_ok = size <= PACKAGE_BUDGET
        print("package: %s, %d bytes (%.1f KiB), budget %d KiB: %s" % (
            os.path.basename(tgz), size, size / 1024, PACKAGE_BUDGET // 1024, "within" if size_ok else "OVER"))
        browser_ok = in_chromium(tmp, manifest["version"])
        browser_ok = bound_from_bindings(tmp) and browser_ok
        browser_ok = debug_in_webgl(tmp, manifest["programs"]) and browser_ok
        dropin_ok = openfl_dropin(args, tmp, manifest["uploads"][0])
        modules = os.path.join(args.oracle, "node_modules")
        bench = run([args.node, os.path.join(pkg, "bench.mjs"), args.shaders, "--aglsl", modules, "--openfl", modules,
                     "--quick"])
        print("bench.mjs --quick (its figures are goals, not checks):\n" + (bench.stdout + bench.stderr).decode())
        firstdraw = [args.node, os.path.join(HERE, "..", "..", "web", "firstdraw.mjs"), pkg, args.shaders, "--modules",
                     modules, "--rounds", "2"]
        first = run(firstdraw)
        print("firstdraw.mjs --rounds 2 (every AGAL 1 pair of ours drawn; its figures are not checks):\n" +
              (first.stdout + first.stderr).decode())
        first_gpu = run(firstdraw + ["--webgpu", "--variants"])
        print("firstdraw.mjs --rounds 2 --webgpu --variants (every WGSL pair of ours drawn, and with the old read):\n" +
              (first_gpu.stdout + first_gpu.stderr).decode())
        first_control = run(firstdraw + ["--clip", "control"])
        print("firstdraw.mjs --rounds 2 --clip control (every AGAL 1 pair of ours drawn under EXT_clip_control):\n" +
              (first_control.stdout + first_control.stderr).decode())
        return 1 if (r.returncode or not browser_ok or not dropin_ok or bench.returncode or first.returncode
                     or first_gpu.returncode or first_control.returncode or not size_ok) else 0


if __name__ == "__main__":
    sys.exit(main())
