"""The AGAL 2 pairs of the corpus for OpenFL's Stage3D through the package
(openfl_dropin.html, web/openfl.js), and what the interpreter says each
draws: the pixels the page must read back.

Each pair draws one triangle, (-1, -1), (3, -1), (-1, 3) in va0 (z 0.5, w 1), over a
32x32 back buffer cleared to opaque black; every other attribute is seeded in [0, 1]
at each vertex, vc0..vc3 the identity (the corpus's m44 op, va0, vc0), the other
constants seeded in [-1, 1] (vc) and [0, 1] (fc), each sampler a texture (_texture)
that the GPU's filtering and the interpreter's agree on. The reference runs
the vertex program on the three vertices (agalrun interp), interpolates its op and
varyings at each pixel centre (perspective-correct, as WebGL does), runs the
fragment program on those pixels in 2x2 quads and turns oc0 into the pixel OpenFL's
drawToBitmapData gives: each channel clamped to [0, 1], in bytes, premultiplied by
alpha (the read-back BitmapData is opaque). Pixels within a pixel of an edge, or
where the depth leaves [0, 1], are not compared (rasterisation rules, clipping).
"""
import base64
import json
import os
import random
import subprocess

SIZE = 32
POSITIONS = [(-1.0, -1.0), (3.0, -1.0), (-1.0, 3.0)]
TOLERANCE = 4  # bytes: 8-bit rounding, premultiplication, the GPU's float error


def _run_interp(agalrun, program_bin, inputs, tmp, name):
    path = os.path.join(tmp, name + ".interp.json")
    with open(path, "w") as f:
        json.dump(inputs, f)
    r = subprocess.run([agalrun, "interp", program_bin, "--inputs", path], capture_output=True, timeout=300)
    if r.returncode != 0:
        raise SystemExit("agalrun interp %s: %s" % (program_bin, r.stderr.decode()))
    return json.loads(r.stdout)["invocations"]


def _reflection(agal2spv, program_bin):
    r = subprocess.run([agal2spv, program_bin, "-o", os.devnull, "--reflect", "-"], capture_output=True, timeout=300)
    if r.returncode != 0:
        raise SystemExit("agal2spv --reflect %s: %s" % (program_bin, r.stderr.decode()))
    return json.loads(r.stdout)


def _inputs(rng, vref, fref):
    attributes = sorted(int(a["register"][2:]) for a in vref["attributes"])
    vertices = []
    for k in range(3):
        v = {}
        for a in attributes:
            v["va%d" % a] = ([POSITIONS[k][0], POSITIONS[k][1], 0.5, 1.0] if a == 0
                             else [round(rng.uniform(0, 1), 3) for _ in range(4)])
        vertices.append(v)
    vc = [[round(rng.uniform(-1, 1), 3) for _ in range(4)] for _ in range(128)]
    for i in range(4):
        vc[i] = [1.0 if j == i else 0.0 for j in range(4)]
    fc = [[round(rng.uniform(0, 1), 3) for _ in range(4)] for _ in range(64)]
    textures = [_texture(rng, int(s["register"][2:]), s["dimension"] == "cube") for s in fref["samplers"]]
    return attributes, vertices, vc, fc, textures


def _texture(rng, num, cube):
    """A texture the GPU and the interpreter sample alike wherever they sample it: a
    2D one linear in (s, t) at every level (bilinear and trilinear filtering of a
    linear function give the function, at any LOD), a cube one of one colour (its
    faces could not join). Sampled clamped, linear, miplinear (setSamplerStateAt
    after setProgram, as Flash allows; the interpreter's samplerStates)."""
    size = 8
    base = [rng.uniform(0.25, 0.75) for _ in range(4)]
    slope = [(rng.uniform(-0.25, 0.25), rng.uniform(-0.25, 0.25)) if not cube else (0.0, 0.0) for _ in range(4)]
    levels = []
    while size >= 1:
        texels = [round(255 * (base[c] + slope[c][0] * ((i % size) + 0.5) / size + slope[c][1] * ((i // size) + 0.5) / size))
                  for i in range(size * size) for c in range(4)]
        levels.append(texels)
        size //= 2
    return {"num": num, "cube": cube, "size": 8, "state": ["clamp", "linear", "miplinear"], "levels": levels}


def _interp_textures(textures):
    out = []
    for t in textures:
        levels = []
        for data in t["levels"]:
            face = [[data[i + c] / 255.0 for c in range(4)] for i in range(0, len(data), 4)]
            levels.append([face] * 6 if t["cube"] else face)
        out.append({"sampler": t["num"], "dim": "cube" if t["cube"] else "2d", "width": t["size"],
                    "height": t["size"], "levels": levels})
    return out


def _barycentric(p, s):
    (x0, y0), (x1, y1), (x2, y2) = s
    det = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
    l1 = ((p[0] - x0) * (y2 - y0) - (x2 - x0) * (p[1] - y0)) / det
    l2 = ((x1 - x0) * (p[1] - y0) - (p[0] - x0) * (y1 - y0)) / det
    return 1.0 - l1 - l2, l1, l2


def _edge_distance(p, s):
    """The pixel centre's distance in pixels to the nearest edge (inside: positive)."""
    best = None
    for i in range(3):
        (ax, ay), (bx, by), (cx, cy) = s[i], s[(i + 1) % 3], s[(i + 2) % 3]
        nx, ny = by - ay, ax - bx
        length = (nx * nx + ny * ny) ** 0.5
        side = ((p[0] - ax) * nx + (p[1] - ay) * ny) / length
        if ((cx - ax) * nx + (cy - ay) * ny) < 0:
            side = -side
        best = side if best is None else min(best, side)
    return best


def _pixels(vout, varyings):
    """Per pixel (row-major, row 0 at the top): its varyings and whether to compare it."""
    ops = [v["op"] for v in vout]
    screen = [((o[0] / o[3] + 1) * SIZE / 2, (1 - o[1] / o[3]) * SIZE / 2) for o in ops]
    out = []
    for y in range(SIZE):
        for x in range(SIZE):
            p = (x + 0.5, y + 0.5)
            lam = _barycentric(p, screen)
            z = sum(l * o[2] / o[3] for l, o in zip(lam, ops))
            weights = [l / o[3] for l, o in zip(lam, ops)]
            total = sum(weights)
            weights = [w / total for w in weights]
            vary = {n: [sum(w * v[n][c] for w, v in zip(weights, vout)) for c in range(4)] for n in varyings}
            inside = _edge_distance(p, screen) > 1.0 and 0.0 < z < 1.0 and all(o[3] > 0 for o in ops)
            out.append((vary, inside))
    return out


def _pixel_value(inv):
    if inv.get("killed"):
        return [0, 0, 0, 255]
    c = [min(max(float(v), 0.0), 1.0) for v in inv["oc0"]]
    a = round(c[3] * 255)
    return [round(round(v * 255) * a / 255) for v in c[:3]] + [255]


def _covering_inputs(args, tmp, rng, name, vbin, vref, fref):
    """Seeded inputs whose triangle covers at least a quarter of the pixels: the
    first of up to 64 draws (a program that moves its vertices, skinning or
    particles, may put them anywhere for most)."""
    varyings = sorted({v["register"] for v in fref["varyings"]})
    for _ in range(64):
        attributes, vertices, vc, fc, textures = _inputs(rng, vref, fref)
        vout = _run_interp(args.agalrun, vbin, {"constants": vc, "invocations": vertices}, tmp, name + ".vert")
        pixels = _pixels(vout, varyings)
        if sum(inside for _, inside in pixels) >= SIZE * SIZE // 4:
            return attributes, vertices, vc, fc, textures, pixels
    raise SystemExit("%s: no seeded inputs put its triangle over the back buffer" % name)


def case(args, tmp, rng, name, vbin, fbin):
    """One pair's page case and its reference pixels."""
    vref, fref = _reflection(args.agal2spv, vbin), _reflection(args.agal2spv, fbin)
    attributes, vertices, vc, fc, textures, pixels = _covering_inputs(args, tmp, rng, name, vbin, vref, fref)
    interp_tex = _interp_textures(textures)
    invocations = []
    for qy in range(0, SIZE, 2):
        for qx in range(0, SIZE, 2):
            for dy, dx in ((0, 0), (0, 1), (1, 0), (1, 1)):
                invocations.append(pixels[(qy + dy) * SIZE + qx + dx][0])
    states = [{"slot": t["num"], "wrap": t["state"][0], "filter": t["state"][1], "mipfilter": t["state"][2]}
              for t in textures]
    fout = _run_interp(args.agalrun, fbin, {"constants": fc, "invocations": invocations, "textures": interp_tex,
                                            "samplerStates": states}, tmp, name + ".frag")
    expect, compare = [None] * (SIZE * SIZE), [False] * (SIZE * SIZE)
    i = 0
    for qy in range(0, SIZE, 2):
        for qx in range(0, SIZE, 2):
            for dy, dx in ((0, 0), (0, 1), (1, 0), (1, 1)):
                p = (qy + dy) * SIZE + qx + dx
                expect[p], compare[p] = _pixel_value(fout[i]), pixels[p][1]
                i += 1
    vbuf = [x for v in vertices for a in attributes for x in v["va%d" % a]]
    page = {"name": name, "vertex": base64.b64encode(open(vbin, "rb").read()).decode(),
            "fragment": base64.b64encode(open(fbin, "rb").read()).decode(), "attributes": attributes,
            "vbuf": vbuf, "vc": [x for r in vc for x in r], "fc": [x for r in fc for x in r], "textures": textures}
    return page, {"name": name, "expect": expect, "compare": compare}


def check(reference, drawn):
    """Compares one case's pixels (ARGB words from getPixel32): (ok, message)."""
    bad, worst, compared = 0, 0, 0
    for want, ok_to_compare, word in zip(reference["expect"], reference["compare"], drawn):
        if not ok_to_compare:
            continue
        compared += 1
        got = [(word >> 16) & 255, (word >> 8) & 255, word & 255, (word >> 24) & 255]
        diff = max(abs(g - w) for g, w in zip(got, want))
        worst = max(worst, diff)
        bad += diff > TOLERANCE
    colours = len({tuple(w) for w, c in zip(reference["expect"], reference["compare"]) if c})
    msg = "%d of %d pixels as the interpreter computes them (worst %d/255; %d colours)" % (
        compared - bad, compared, worst, colours)
    return bad == 0 and compared >= SIZE * SIZE // 4, msg


def pairs(args, tmp, shaders):
    """Every AGAL 2 pair of the corpus: (page cases, references)."""
    rng = random.Random(2)
    cases, refs = [], []
    for f in sorted(os.listdir(shaders)):
        if not f.endswith(".vert.agal"):
            continue
        name = f[:-len(".vert.agal")]
        vbin, fbin = os.path.join(tmp, name + ".v2.vbin"), os.path.join(tmp, name + ".v2.fbin")
        for src, dst in ((f, vbin), (name + ".frag.agal", fbin)):
            r = subprocess.run([args.agalasm, os.path.join(shaders, src), "-o", dst], capture_output=True, timeout=300)
            if r.returncode != 0:
                raise SystemExit("agalasm %s: %s" % (src, r.stderr.decode()))
        if open(vbin, "rb").read()[1] != 2:
            continue
        page, ref = case(args, tmp, rng, name, vbin, fbin)
        cases.append(page)
        refs.append(ref)
    return cases, refs
