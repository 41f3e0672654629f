#!/usr/bin/env python3
"""test_first_divergence.py: `agalrun replay --first-divergence` (issue 35).

  test_first_divergence.py AGALRUN SCENES_DIR

On Vulkan and GL, scenes/depth.json's images are the references. Copies of the
scene, each with one draw's fragment constant made wrong (the test writes them),
are replayed against them: the report names exactly that draw's call index, its
programs, the wrong constant, the state it drew with and the pixel before and
after, with and without --at, in the first and in a later image. The unaltered
scene, and a pixel the wrong draw does not touch, report no divergence (exit 0).
Bad arguments are refused (exit 2).

Through a render texture: in scenes/render_to_texture.json a draw into texture t
(call 25) gets a wrong fragment constant, and call 51 draws t on the back buffer.
The report names call 51 as the pixel's writer, and under "fs0 samples texture t"
the writes t had when call 51 sampled it: its clear and its draws, call 25 with
its programs and the wrong constant, and none of texture u's; each of them left
out in turn, only call 25's absence changes the pixel (to t's red clear).
"""
import json
import os
import subprocess
import sys
import tempfile

SCENE = "depth.json"
# (the call setting fc0 to alter, the draw it feeds, the image, a pixel of its cell,
#  the pixel before the draw, after it, the reference)
CASES = [
    (25, 26, 1, (24, 8), (255, 0, 0), (255, 255, 0), (0, 255, 0)),
    (16, 17, 1, (8, 8), (0, 0, 0), (255, 255, 0), (255, 0, 0)),
    (57, 58, 2, (24, 8), (0, 0, 0), (255, 255, 0), (0, 0, 255)),
]
FAILURES = []


def run(agalrun, *args):
    r = subprocess.run([agalrun, "replay", *args], capture_output=True, text=True, timeout=120)
    if "Sanitizer" in r.stderr or "runtime error:" in r.stderr:
        FAILURES.append("agalrun replay %s: a sanitizer's report\n%s" % (" ".join(args), r.stderr[-3000:]))
    return r


def expect(label, r, status, *texts):
    out = r.stdout + r.stderr
    if r.returncode != status:
        FAILURES.append("%s: exit %d, expected %d\n%s" % (label, r.returncode, status, out[-2000:]))
        return
    for t in texts:
        if t not in out:
            FAILURES.append("%s: %r is not in the output\n%s" % (label, t, out[-2000:]))


def altered(scene, call, tmp):
    s = json.loads(json.dumps(scene))
    c = s["calls"][call - 1]
    assert c["call"] == "setProgramConstantsFromVector" and c["args"][0] == "fragment", c
    c["args"][2] = [1, 1, 0, 1]  # yellow: no cell of the scene is yellow
    path = os.path.join(tmp, "altered-%d.json" % call)
    with open(path, "w") as f:
        json.dump(s, f)
    return path


RTT_SCENE = "render_to_texture.json"


def check_render_texture(agalrun, scenes, backend, tmp):
    scene_path = os.path.join(scenes, RTT_SCENE)
    with open(scene_path) as f:
        scene = json.load(f)
    ref = os.path.join(tmp, backend + "-rtt.png")
    expect("%s: %s's image" % (backend, RTT_SCENE), run(agalrun, scene_path, "--backend", backend, "-o", ref), 0)
    path = altered(scene, 22, tmp)  # fc0 of call 25, the blue cell drawn into t
    b = ["--backend", backend, "--first-divergence", ref]
    texts = ["call 51 (drawTriangles) wrote it", "tex oc0, v0, fs0 <2d, nearest, mipnone, clamp>",
             "pixel after: (255, 255, 0); the reference: (0, 0, 255)",
             "  fs0 samples texture t, rendered before this draw by:\n    call 20 (clear)\n"
             "    call 25 (drawTriangles):\n      vertex program:\n",
             "      fc0 = (1, 1, 0, 1)\n", "    call 33 (drawTriangles):\n", "      scissor (0, 32, 32, 32)\n",
             # left out in turn: only call 25 wrote the texel call 51 sampled there
             "    without call 20 (clear): unchanged\n",
             "    without call 25 (drawTriangles): (255, 0, 0): it reaches the pixel\n",
             "    without call 27 (drawTriangles): unchanged\n", "    without call 33 (drawTriangles): unchanged\n"]
    label = "%s: %s with call 25's fc0 altered" % (backend, RTT_SCENE)
    r = run(agalrun, path, *b)
    expect(label, r, 1, *texts)
    for call in (36, 40, 43):  # texture u's clear and draws
        if "call %d " % call in r.stdout:
            FAILURES.append("%s: texture u's call %d is named\n%s" % (label, call, r.stdout[-2000:]))
    expect(label + " --at 8,8", run(agalrun, path, *b, "--at", "8,8"), 1, "at pixel (8, 8)", *texts)
    r = run(agalrun, path, *b, "--at", "8,40")  # the green quarter: t's draw 33, unaltered
    expect(label + " --at 8,40", r, 0, "no divergence: image 1 matches")


def check_backend(agalrun, scene_path, scene, backend, tmp):
    ref = os.path.join(tmp, backend + ".png")
    r = run(agalrun, scene_path, "--backend", backend, "-o", ref)
    expect("%s: the reference images" % backend, r, 0)
    refs = [ref[: -len(".png")] + "-%d.png" % n for n in (1, 2, 3)]
    b = ["--backend", backend]
    for n in (1, 2):
        r = run(agalrun, scene_path, *b, "--first-divergence", refs[n - 1], "--frame", str(n))
        expect("%s: the unaltered scene, image %d" % (backend, n), r, 0, "no divergence: image %d matches" % n)
    for call, draw, image, at, before, after, reference in CASES:
        path = altered(scene, call, tmp)
        named = "call %d (drawTriangles)" % draw
        texts = [named, "pixel before: (%d, %d, %d)" % before,
                 "pixel after: (%d, %d, %d); the reference: (%d, %d, %d)" % (after + reference),
                 "fc0 = (1, 1, 0, 1)", "mov oc0, fc0", "add op, va0, vc0", "setDepthTest(true, lessEqual)",
                 "setBlendFactors(one, zero)", "    call %d (drawTriangles): (%d, %d, %d)\n" % ((draw,) + after)]
        label = "%s: fc0 altered at call %d" % (backend, call)
        frame = ["--frame", str(image)]
        r = run(agalrun, path, *b, "--first-divergence", refs[image - 1], *frame)
        expect(label, r, 1, *texts)
        r = run(agalrun, path, *b, "--first-divergence", refs[image - 1], *frame, "--at", "%d,%d" % at)
        expect(label + " --at %d,%d" % at, r, 1, "at pixel (%d, %d)" % at, *texts)
        r = run(agalrun, path, *b, "--first-divergence", refs[image - 1], *frame, "--at", "40,40")
        expect(label + " --at 40,40 (not its cell)", r, 0, "no divergence: image %d matches" % image)
    r = run(agalrun, scene_path, *b, "--first-divergence", refs[0], "--at", "64,0")
    expect("%s: --at outside the image" % backend, r, 2, "--at must lie in both")
    r = run(agalrun, scene_path, *b, "--first-divergence", refs[0], "--expect", refs[0])
    expect("%s: with --expect" % backend, r, 2, "--first-divergence excludes --expect")


def main():
    agalrun, scenes = sys.argv[1], sys.argv[2]
    scene_path = os.path.join(scenes, SCENE)
    with open(scene_path) as f:
        scene = json.load(f)
    with tempfile.TemporaryDirectory() as tmp:
        for backend in ("vulkan", "gl"):
            check_backend(agalrun, scene_path, scene, backend, tmp)
            check_render_texture(agalrun, scenes, backend, tmp)
    for f in FAILURES:
        print(f)
    print("first-divergence: %d failures" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
