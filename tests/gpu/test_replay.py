#!/usr/bin/env python3
"""test_replay.py: `agalrun replay` on Vulkan and GL (issue 17).

  test_replay.py AGALRUN SCENES_DIR ERRORS_JSON [B_SANITIZE]

1. Every scene of SCENES_DIR replays on Vulkan (the validation layer on: any message
   fails) and on GL, and holds on both to its own "expect" pixels, worked out by
   hand (agalrun replay --check).
2. The two backends agree on every image: within 3 of 255 a channel, but for a few
   pixels where the APIs may differ (antialiased edges: GL draws the back buffer
   upside down, so its sample pattern is mirrored), at most 1% of an image.
3. Every case of ERRORS_JSON, its prelude and its calls made into a scene, throws on
   its last call exactly the line Flash throws.
4. The checks can fail: a wrong expected pixel, a wrong error line, a frame against
   another frame, a malformed scene and an unknown backend are each refused with
   the exit status and message they must give.
5. Broken scenes (seeded mutations of the scenes) end with exit 0, 1 or 2 and a
   message, never a crash, a hang or a sanitizer's report.
6. Every failure path of a ByteArray or BitmapData argument (each call that takes
   one) ends with exit 2 and its message, and frees what it allocated.
7. --limits: scenes/limits.json, drawn without limits (1), under --limits webgl1 throws
   Flash's 3613 at its upload, with the diagnostic naming the limit on stderr, on both
   backends; the same scene expecting that throw passes --check; a JSON file's limits
   name themselves; a limits spec that is neither a preset nor a file is exit 2.
8. The memory limit: the scenes that took gigabytes (200 textures of 4096 x 4096,
   a 16384 x 16384 back buffer presented four times, 4096 of the largest vertex
   buffers) end with exit 2 and 3691's text within seconds, on both backends, at
   the default limit and at --memory-limit 128 MiB, 256 MiB and 1 GiB, with a peak
   RSS within 1.25 x the limit + 64 MiB (+ the start-up an empty scene measures
   beyond 64 MiB, and ASan's quarantine in an ASan build: RSS_FACTOR), and
   --memory-limit moves the limit.

In a build with B_SANITIZE holding address, agalrun must be built with ASan and run
with detect_leaks=1 (the test setup's), and any sanitizer report from any run, a
leak included, fails the test.
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

AGREE_TOLERANCE = 3
AGREE_OUTLIERS = 0.01


SANITIZER_REPORTS = []


def run(agalrun, *args):
    r = subprocess.run([agalrun, "replay", *args], capture_output=True, text=True, timeout=120)
    if "Sanitizer" in r.stderr or "runtime error:" in r.stderr:
        SANITIZER_REPORTS.append("agalrun replay %s: a sanitizer's report\n%s" % (" ".join(args), r.stderr[-3000:]))
    return r


def images(scene):
    """How many images a scene yields: one a present or drawToBitmapData, up to a throw."""
    calls = scene["calls"]
    if "throws" in scene:
        calls = calls[: scene["throws"]["call"]]
    return sum(c["call"] in ("present", "drawToBitmapData") for c in calls)


def frame_file(out, n, count):
    return out if count == 1 else out[: -len(".png")] + "-%d.png" % n


def check_scene(agalrun, path, tmp):
    """The scene on both backends with --check, then GL's images against Vulkan's."""
    name = os.path.basename(path)[: -len(".json")]
    scene = json.load(open(path))
    errors = []
    outs = {}
    for backend in ("vulkan", "gl"):
        outs[backend] = os.path.join(tmp, "%s-%s.png" % (name, backend))
        args = [path, "--backend", backend, "--check", "-o", outs[backend]]
        r = run(agalrun, *args, *(["--validation"] if backend == "vulkan" else []))
        if r.returncode != 0:
            errors.append("%s on %s: exit %d\n%s" % (name, backend, r.returncode, r.stderr))
    if errors:
        return errors
    count = images(scene)
    for n in range(1, count + 1):
        ref = frame_file(outs["vulkan"], n, count)
        size = os.path.getsize(ref)  # the image exists
        r = run(agalrun, path, "--backend", "gl", "--frame", str(n), "--expect", ref, "--tolerance",
                str(AGREE_TOLERANCE), "--max-outliers", str(outliers_allowed(scene, n)))
        if r.returncode != 0 or size == 0:
            errors.append("%s image %d: GL and Vulkan disagree\n%s" % (name, n, r.stderr))
    return errors


def outliers_allowed(scene, n):
    """1% of image n's pixels: the back buffer's size when that image was presented, or
    the bitmap's for drawToBitmapData."""
    w = h = 0
    seen = 0
    for c in scene["calls"]:
        if c["call"] == "configureBackBuffer":
            w, h = c["args"][0], c["args"][1]
        if c["call"] in ("present", "drawToBitmapData"):
            seen += 1
            if seen == n:
                if c["call"] == "drawToBitmapData":
                    b = c["args"][0]["bitmap"]
                    w, h = b["width"], b["height"]
                return int(w * h * AGREE_OUTLIERS)
    return 0


def error_scene(errors_json, case):
    calls = errors_json["preludes"][case["prelude"]] + case["calls"]
    rep = case.get("repeat")
    if rep:
        calls = calls + [rep["call"]] * rep["times"]
    return {"scene": 1, "profile": case["profile"], "calls": calls,
            "throws": {"call": len(calls), "line": case["line"]}}


def check_error(agalrun, errors_json, case, tmp, index):
    path = os.path.join(tmp, "error-%d.json" % index)
    json.dump(error_scene(errors_json, case), open(path, "w"))
    r = run(agalrun, path, "--check")
    if r.returncode != 0:
        return ["error case '%s': exit %d\n%s" % (case["name"], r.returncode, r.stderr)]
    return []


def expect_failure(agalrun, tmp, label, args, status, text):
    r = run(agalrun, *args)
    if r.returncode != status or text not in r.stderr:
        return ["%s: expected exit %d with '%s', got %d:\n%s" % (label, status, text, r.returncode, r.stderr)]
    return []


def check_faults(agalrun, scenes_dir, errors_json, tmp):
    errors = []
    # A wrong expected pixel: blend.json's first cell, 30 off in red.
    scene = json.load(open(os.path.join(scenes_dir, "blend.json")))
    e = scene["expect"][0]
    e["rgb"] = [(e["rgb"][0] + 30) % 256] + e["rgb"][1:]
    bad = os.path.join(tmp, "bad-pixel.json")
    json.dump(scene, open(bad, "w"))
    errors += expect_failure(agalrun, tmp, "a wrong pixel", [bad, "--check"], 1, "pixel (%d, %d)" % (e["x"], e["y"]))
    # A wrong error line: the first case with one character changed.
    case = dict(errors_json["cases"][0])
    case["line"] = case["line"].replace("Error #", "Error #9", 1)
    bad = os.path.join(tmp, "bad-line.json")
    json.dump(error_scene(errors_json, case), open(bad, "w"))
    errors += expect_failure(agalrun, tmp, "a wrong error line", [bad, "--check"], 1, "expected call")
    # An error without --check: exit 1, Flash's line on stderr.
    good = os.path.join(tmp, "thrown.json")
    json.dump(error_scene(errors_json, errors_json["cases"][0]), open(good, "w"))
    errors += expect_failure(agalrun, tmp, "a throw", [good], 1, errors_json["cases"][0]["line"])
    # A frame against another: clear.json's two images differ everywhere.
    clear = os.path.join(scenes_dir, "clear.json")
    out = os.path.join(tmp, "clear-ref.png")
    r = run(agalrun, clear, "-o", out)
    diff = os.path.join(tmp, "clear-cmp.png")
    errors += expect_failure(agalrun, tmp, "two different frames",
                             [clear, "--frame", "2", "--expect", out[:-4] + "-1.png", "-o", diff], 1,
                             "1024 of 1024 pixels differ")
    if not os.path.exists(diff[:-4] + "-diff.png"):
        errors.append("two different frames: no difference image")
    # A malformed scene, a call the replay does not know, an unknown backend.
    bad = os.path.join(tmp, "malformed.json")
    open(bad, "w").write('{"scene": 1, "calls": [{"call": "clear"}]} trailing')
    errors += expect_failure(agalrun, tmp, "trailing text", [bad], 2, "more than one JSON value")
    json.dump({"scene": 1, "calls": [{"call": "setCullling", "args": ["none"]}]}, open(bad, "w"))
    errors += expect_failure(agalrun, tmp, "an unknown call", [bad], 2, "call 1 (setCullling): is not a call the replay knows")
    json.dump({"scene": 1, "calls": [{"call": "clear", "args": ["red"]}]}, open(bad, "w"))
    errors += expect_failure(agalrun, tmp, "a string for a Number", [bad], 2, "argument 1 is not a number")
    errors += expect_failure(agalrun, tmp, "webgl", [clear, "--backend", "webgl"], 2, "not built yet")
    json.dump({"scene": 1, "calls": [{"call": "createTexture", "args": [4, 4, "compressed", False], "as": "t"},
                                     {"call": "uploadCompressedTextureFromByteArray", "on": "t",
                                      "args": [{"base64": "QVRG"}, 0]}]}, open(bad, "w"))
    errors += expect_failure(agalrun, tmp, "ATF", [bad], 2, "does not decode ATF")
    errors += expect_failure(agalrun, tmp, "no scene", ["--check"], 2, "give a scene")
    return errors


def mutants(scenes_dir, count):
    """Scenes broken in every way a recording can be: a number made huge, negative,
    fractional or NaN, an argument dropped, nulled or made a string, a call removed.
    Seeded, so a failure repeats."""
    import random
    rng = random.Random(17)
    names = sorted(f for f in os.listdir(scenes_dir) if f.endswith(".json"))
    out = []
    while len(out) < count:
        scene = json.load(open(os.path.join(scenes_dir, rng.choice(names))))
        scene.pop("expect", None)
        calls = scene["calls"]
        k = calls[rng.randrange(len(calls))]
        args = k.get("args")
        how = rng.randrange(4)
        if how == 0 and args:
            i = rng.randrange(len(args))
            args[i] = rng.choice([1e12, -7, 0.5, "NaN", None, "text", [], {"rect": [0, 0, 1, 1]}, True])
        elif how == 1 and args:
            del args[rng.randrange(len(args))]
        elif how == 2:
            del calls[rng.randrange(len(calls))]
        else:
            k["args"] = [rng.choice([65536, -1, 2 ** 31, 4097]) if isinstance(a, (int, float)) and not isinstance(a, bool)
                         else a for a in (args or [])]
        out.append(scene)
    return out


def check_mutant(agalrun, scene, tmp, index):
    """A broken scene ends with exit 0, 1 (Flash's throw) or 2 (a message), never a crash
    or a sanitizer's report."""
    path = os.path.join(tmp, "mutant-%d.json" % index)
    json.dump(scene, open(path, "w"))
    r = run(agalrun, path, "--backend", ("vulkan", "gl")[index % 2])
    bad = "Sanitizer" in r.stderr or "runtime error:" in r.stderr
    if r.returncode not in (0, 1, 2) or bad or (r.returncode and not r.stderr.strip()):
        return ["mutant %d: exit %d\n%s\n%s" % (index, r.returncode, json.dumps(scene)[:2000], r.stderr[-3000:])]
    return []

def failure_path_scenes():
    """Each call that takes a ByteArray or a BitmapData, with the argument broken in
    each way that fails after the replay allocated for it: (name, scene, message)."""
    tex = {"call": "createTexture", "args": [4, 4, "bgra", False], "as": "t"}
    vb = {"call": "createVertexBuffer", "args": [3, 2], "as": "v"}
    ib = {"call": "createIndexBuffer", "args": [3], "as": "i"}
    bb = {"call": "configureBackBuffer", "args": [32, 32, 0]}
    bad_b64 = {"base64": "@@@@"}
    bitmaps = [({"width": 4, "height": 4, "rects": [[1, 2]]}, "a bitmap's rect is"),
               ({"width": 4, "height": 4, "fill": "red"}, "\"fill\" a number"),
               ({"width": 4, "height": 4, "pixels": {"base64": "@@@@"}}, "base64 does not decode"),
               ({"width": 4, "height": 4, "pixels": {"base64": "AAAA"}}, "hold 3 bytes, not 4 x 16"),
               ({"width": 4, "height": 4, "pixels": [1]}, "is a ByteArray")]
    out = [("texture uploadFromByteArray", [tex, {"call": "uploadFromByteArray", "on": "t", "args": [bad_b64, 0]}]),
           ("vertex uploadFromByteArray", [vb, {"call": "uploadFromByteArray", "on": "v", "args": [bad_b64, 0, 0, 3]}]),
           ("index uploadFromByteArray", [ib, {"call": "uploadFromByteArray", "on": "i", "args": [bad_b64, 0, 0, 3]}]),
           ("setProgramConstantsFromByteArray",
            [{"call": "setProgramConstantsFromByteArray", "args": ["vertex", 0, 1, bad_b64, 0]}]),
           ("Program3D.upload", [{"call": "createProgram", "as": "p"},
                                 {"call": "upload", "on": "p", "args": [{"base64": "oAEAAAChAA=="}, bad_b64]}])]
    out = [(n, c, "base64 does not decode") for n, c in out]
    for i, (b, msg) in enumerate(bitmaps):
        out.append(("drawToBitmapData %d" % i, [bb, {"call": "drawToBitmapData", "args": [{"bitmap": b}]}], msg))
        out.append(("uploadFromBitmapData %d" % i, [tex, {"call": "uploadFromBitmapData", "on": "t",
                                                          "args": [{"bitmap": b}]}], msg))
    return [(n, {"scene": 1, "calls": c}, m) for n, c, m in out]


def check_failure_paths(agalrun, tmp):
    errors = []
    for i, (name, scene, msg) in enumerate(failure_path_scenes()):
        path = os.path.join(tmp, "failure-path-%d.json" % i)
        json.dump(scene, open(path, "w"))
        errors += expect_failure(agalrun, tmp, name, [path, "--backend", ("gl", "vulkan")[i % 2]], 2, msg)
    # A texture upload's level past the texture's (-1 is 4294967295) or an offset that
    # is not a number: the level's size is not worked out (UBSan: a shift by 2^32 - 1).
    tex = {"call": "createTexture", "args": [4, 4, "bgra", False], "as": "t"}
    for n, args, status, msg in [("level -1", [{"base64": "AAAA"}, 0, -1], 1, "Error #3674"),
                                 ("offset 'x'", [{"base64": "AAAA"}, "x", 0], 2, "argument 2 is not a number")]:
        path = os.path.join(tmp, "texture-level.json")
        json.dump({"scene": 1, "calls": [tex, {"call": "uploadFromByteArray", "on": "t", "args": args}]}, open(path, "w"))
        errors += expect_failure(agalrun, tmp, "texture uploadFromByteArray " + n, [path], status, msg)
    return errors


LIMITS_LINE = "Error: Error #3613: The native shader compilation failed."
LIMITS_NEED = "fragment program: 17 uniform vectors needed, the limits allow 16 (%s)"


def check_limits(agalrun, scenes_dir, tmp):
    """scenes/limits.json's pair reads fc0 .. fc16: refused under WebGL 1's 16 uniform
    vectors; scenes/limits_packed.json's reads fc20 alone: packed under them, it draws
    fc20 (each backend uploads the block gathered by its ranges)."""
    errors = []
    packed = os.path.join(scenes_dir, "limits_packed.json")
    for backend in ("vulkan", "gl"):
        r = run(agalrun, packed, "--backend", backend, "--limits", "webgl1", "--check")
        if r.returncode != 0:
            errors.append("limits_packed.json --limits webgl1 on %s: exit %d\n%s" % (backend, r.returncode, r.stderr))
    path = os.path.join(scenes_dir, "limits.json")
    scene = json.load(open(path))
    upload = 1 + next(i for i, c in enumerate(scene["calls"]) if c["call"] == "upload")
    for backend in ("vulkan", "gl"):
        errors += expect_failure(agalrun, tmp, "--limits webgl1 on " + backend,
                                 [path, "--backend", backend, "--limits", "webgl1"], 1,
                                 "call %d (upload): %s" % (upload, LIMITS_LINE))
        errors += expect_failure(agalrun, tmp, "--limits webgl1's diagnostic on " + backend,
                                 [path, "--backend", backend, "--limits", "webgl1"], 1, LIMITS_NEED % "webgl1")
        r = run(agalrun, path, "--backend", backend, "--limits", "webgl2", "--check")
        if r.returncode != 0:
            errors.append("--limits webgl2 on %s: exit %d (the pair fits)\n%s" % (backend, r.returncode, r.stderr))
    # The scene's expected output decides: the throw expected, --check passes.
    thrown = dict(scene, throws={"call": upload, "line": LIMITS_LINE})
    del thrown["expect"]
    expecting = os.path.join(tmp, "limits-throws.json")
    json.dump(thrown, open(expecting, "w"))
    r = run(agalrun, expecting, "--limits", "webgl1", "--check")
    if r.returncode != 0:
        errors.append("--limits webgl1 --check, the throw expected: exit %d\n%s" % (r.returncode, r.stderr))
    errors += expect_failure(agalrun, tmp, "the throw expected, no limits", [expecting, "--check"], 1, "expected call")
    device = os.path.join(tmp, "phone.json")
    json.dump({"name": "phone", "fragment_uniform_vectors": 16}, open(device, "w"))
    errors += expect_failure(agalrun, tmp, "--limits FILE.json", [path, "--limits", device], 1, LIMITS_NEED % "phone")
    errors += expect_failure(agalrun, tmp, "--limits webgl9", [path, "--limits", "webgl9"], 2,
                             "--limits: 'webgl9' is neither a preset")
    return errors


def audit_scenes():
    """The scenes that took gigabytes before the memory limit: (name, scene)."""
    textures = [{"call": "createTexture", "args": [4096, 4096, "bgra", False], "as": "t%d" % i} for i in range(200)]
    back_buffer = [{"call": "configureBackBuffer", "args": [16384, 16384, 0]}] + [{"call": "clear"}, {"call": "present"}] * 4
    buffers = [{"call": "createVertexBuffer", "args": [65535, 64], "as": "v%d" % i} for i in range(4096)]
    return [("200 textures of 4096 x 4096", {"scene": 1, "profile": "baselineExtended", "calls": textures}),
            ("a 16384 x 16384 back buffer", {"scene": 1, "calls": back_buffer}),
            ("4096 vertex buffers of 65535 x 64", {"scene": 1, "calls": buffers})]


RESOURCE_LINE = "Error #3691: Resource limit for this resource type exceeded."
LIMIT_SECONDS = 60  # a loaded 2-core machine; each ends within a few seconds under ASan
MIB = 1 << 20
# The limits each scene runs under: the default (REPLAY_MEMORY_LIMIT) and --memory-limit's.
DEFAULT_LIMIT = 512 * MIB
LIMITS = (None, 128 * MIB, 256 * MIB, 1024 * MIB)
# The bound on peak RSS (docs/replay.md, "Memory"): 1.25 x the limit + 64 MiB, the
# release build's goal, where 64 MiB is the process and both drivers before any
# resource (measured 62 to 66 MiB), with two allowances, each printed:
# - start-up beyond those 64 MiB: an empty scene's peak RSS on that backend in this
#   build, at most START_EXTRA_MAX more (beyond it the start-up itself has grown):
#   another machine's driver, and in an ASan build ASan's own start-up, the shadow of
#   the program's and the libraries' globals and its allocator's tables (20-25 MiB);
# - in an ASan build, its quarantine: the freed memory ASan keeps back to catch a use
#   after free, 256 MB by default, set to ASAN_QUARANTINE_MB for these runs, with
#   one byte of shadow per eight of it (a freed chunk's shadow is written; a live
#   chunk's is not, and an unmapped one's is released).
RSS_FACTOR = 1.25
RSS_START = 64 * MIB
START_EXTRA_MAX = 64 * MIB
ASAN_QUARANTINE_MB = 16


def peak_rss(agalrun, args, env):
    """(exit status, seconds, peak RSS in bytes, stderr): wait4 for this child's own
    peak; a watchdog kills it at the time limit."""
    start = time.monotonic()
    p = subprocess.Popen([agalrun, "replay", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    timer = threading.Timer(LIMIT_SECONDS, p.kill)
    timer.start()
    stderr = p.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(p.pid, 0)
    timer.cancel()
    if "Sanitizer" in stderr or "runtime error:" in stderr:
        SANITIZER_REPORTS.append("agalrun replay %s: a sanitizer's report\n%s" % (" ".join(args), stderr[-3000:]))
    return os.waitstatus_to_exitcode(status), time.monotonic() - start, usage.ru_maxrss * 1024, stderr


def start_up(agalrun, tmp, backend, env, errors):
    """The start-up allowance (see RSS_FACTOR): an empty scene's peak RSS above
    RSS_START, in bytes."""
    path = os.path.join(tmp, "audit-empty.json")
    json.dump({"scene": 1, "calls": []}, open(path, "w"))
    rc, _, rss, stderr = peak_rss(agalrun, [path, "--backend", backend], env)
    if rc != 0:
        errors.append("an empty scene on %s: exit %d\n%s" % (backend, rc, stderr[-2000:]))
    if rss > RSS_START + START_EXTRA_MAX:
        errors.append("an empty scene on %s: peak RSS %d MiB, over %d MiB" % (backend, rss // MIB,
                                                                           (RSS_START + START_EXTRA_MAX) // MIB))
    print("an empty scene on %s: peak RSS %d MiB" % (backend, rss // MIB))
    return min(max(0, rss - RSS_START), START_EXTRA_MAX)


def check_memory_limit(agalrun, scenes_dir, tmp, b_sanitize):
    errors = []
    env = dict(os.environ)
    asan = "address" in b_sanitize
    if asan:
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=%d" % ASAN_QUARANTINE_MB
    start = {b: start_up(agalrun, tmp, b, env, errors) for b in ("vulkan", "gl")}
    quarantine = ASAN_QUARANTINE_MB * MIB * 9 // 8 if asan else 0
    for i, (name, scene) in enumerate(audit_scenes()):
        path = os.path.join(tmp, "audit-%d.json" % i)
        json.dump(scene, open(path, "w"))
        for backend in ("vulkan", "gl"):
            for limit in LIMITS:
                given = ["--memory-limit", str(limit)] if limit else []
                rc, seconds, rss, stderr = peak_rss(agalrun, [path, "--backend", backend, *given], env)
                limit = limit or DEFAULT_LIMIT
                bound = int(RSS_FACTOR * limit) + RSS_START + start[backend] + quarantine
                label = "%s on %s, limit %d MiB" % (name, backend, limit // MIB)
                if rc != 2 or RESOURCE_LINE not in stderr or "memory limit" not in stderr:
                    errors.append("%s: expected exit 2 with '%s', got %d:\n%s" % (label, RESOURCE_LINE, rc,
                                                                                 stderr[-2000:]))
                if seconds >= LIMIT_SECONDS or rss > bound:
                    errors.append("%s: %.1f s, peak RSS %d MiB over %d MiB" % (label, seconds, rss // MIB,
                                                                              bound // MIB))
                print("%s: exit %d, %.1f s, peak RSS %d MiB of %d MiB (1.25 x %d + 64 + start-up %d + quarantine "
                      "%d)" % (label, rc, seconds, rss // MIB, bound // MIB, limit // MIB, start[backend] // MIB,
                               quarantine // MIB))
    # --memory-limit moves it: the texture scene under 300 MB stops where what is in
    # use and what the call needs first pass the limit given.
    path = os.path.join(tmp, "audit-0.json")
    for limit in (100 << 20, 300 << 20):
        r = run(agalrun, path, "--backend", "gl", "--memory-limit", str(limit))
        m = re.search(r"call (\d+) \(createTexture\).*needs (\d+) bytes, (\d+) of (\d+) are in use", r.stderr)
        if r.returncode != 2 or not m or int(m.group(4)) != limit or int(m.group(2)) + int(m.group(3)) <= limit:
            errors.append("--memory-limit %d: exit %d\n%s" % (limit, r.returncode, r.stderr))
    errors += expect_failure(agalrun, tmp, "--memory-limit 0", [path, "--memory-limit", "0"], 2, "--memory-limit")
    # cube.json, which runs under the default (check_scene), does not under 64 KiB.
    errors += expect_failure(agalrun, tmp, "cube.json under 64 KiB",
                             [os.path.join(scenes_dir, "cube.json"), "--memory-limit", "65536"], 2, RESOURCE_LINE)
    return errors


def check_sanitized(agalrun, b_sanitize):
    """In an ASan build, agalrun has ASan and the environment asks for leak reports."""
    if "address" not in b_sanitize:
        return []
    r = subprocess.run([agalrun, "--help"], capture_output=True, text=True, env=dict(os.environ, ASAN_OPTIONS="help=1"))
    errors = []
    if "AddressSanitizer" not in r.stdout + r.stderr:
        errors.append("agalrun is not built with AddressSanitizer")
    if "detect_leaks=1" not in os.environ.get("ASAN_OPTIONS", ""):
        errors.append("ASAN_OPTIONS lacks detect_leaks=1: run under meson test's sanitized setup")
    return errors


def main():
    agalrun, scenes_dir, errors_path = sys.argv[1:4]
    b_sanitize = sys.argv[4] if len(sys.argv) > 4 else ""
    errors_json = json.load(open(errors_path))
    scenes = sorted(os.path.join(scenes_dir, f) for f in os.listdir(scenes_dir) if f.endswith(".json"))
    if len(scenes) < 10 or len(errors_json["cases"]) < 50:
        print("too few scenes or error cases: %d, %d" % (len(scenes), len(errors_json["cases"])))
        return 1
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(4) as pool:
        jobs = [pool.submit(check_scene, agalrun, s, tmp) for s in scenes]
        jobs += [pool.submit(check_error, agalrun, errors_json, c, tmp, i) for i, c in enumerate(errors_json["cases"])]
        jobs.append(pool.submit(check_faults, agalrun, scenes_dir, errors_json, tmp))
        jobs += [pool.submit(check_mutant, agalrun, m, tmp, i) for i, m in enumerate(mutants(scenes_dir, 40))]
        jobs.append(pool.submit(check_failure_paths, agalrun, tmp))
        jobs.append(pool.submit(check_limits, agalrun, scenes_dir, tmp))
        errors = [e for j in jobs for e in j.result()]
        # Alone: its peak RSS and time are its own.
        errors += check_memory_limit(agalrun, scenes_dir, tmp, b_sanitize)
    errors += check_sanitized(agalrun, b_sanitize) + SANITIZER_REPORTS
    for e in errors:
        print(e)
    print("%d scenes on Vulkan and GL, %d error cases, the fault checks, 40 broken scenes, %d failure paths, "
          "--limits, the memory limit: %d failures" % (len(scenes), len(errors_json["cases"]), len(failure_path_scenes()),
                                             len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
