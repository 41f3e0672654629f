/* test_webgl.c: the browser backend (tools/gpu/harness_web.h) on hand-written GLSL ES
 * and WGSL, independent of the emitters, in one flush (a browser run for WebGL, one
 * for WebGPU):
 *   - vertex outputs through WebGL 2's transform feedback, WebGL 1's packed points
 *     and WebGPU's flat values on points, 3 vertices x 2 instances: every float back
 *     bit for bit (values at the exponent boundaries, negative, tiny, huge, 1/3; an
 *     infinity, which WebGL 1's point varying loses);
 *   - fragment outputs of all three: rows top-down (gl_FragCoord.y counts from the
 *     bottom, WebGPU's position.y from the top), an infinity, discarded pixels
 *     holding HARNESS_CLEAR, depth, a second colour output (WebGL 2, WebGPU), a
 *     nearest texture read texel for texel (row 0 = t 0), WebGPU's bound through the
 *     bind group layout the page writes;
 *   - a shader the browser rejects (GLSL ES and WGSL): that draw fails with the
 *     browser's log and the others still come back;
 *   - a browser that does not exist: creating the backend fails, saying why.
 * Chromium runs headless with SwiftShader (harness_web.c); $AGAL_BROWSER names
 * another browser. */
#define _GNU_SOURCE /* strcasestr */
#include "check.h"
#include "harness_web.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { W = 4, H = 4, NV = 3, NI = 2, TS = 4 };

/* Bit patterns the packing of WebGL 1 must carry: 2^k and its neighbours, signs,
 * the smallest and largest normal numbers, 1/3, an infinity. */
static const float values[NV][4] = {
    {1.0f, 0.99999994f, 1.0000001f, -2.0f},
    {0.33333334f, -123.456f, 1.17549435e-38f, 3.4028235e38f},
    {1e-30f, -0.1f, 7.0f, 1.5f},
};
static const float fconst[2][4] = {{0.125f, -3.5f, 1e20f, INFINITY}, {2.0f, 4.0f, -8.0f, 0.5f}};
static float texels[TS * TS * 4];

static const char VS3[] = "#version 300 es\nlayout(location = 0) in vec4 va0;\nout vec4 v0;\n"
                          "void main() { gl_Position = va0; v0 = va0 * 2.0 + vec4(float(gl_InstanceID)); }\n";
static const char VS1[] = "#version 100\nattribute vec4 va0;\nvarying vec4 v0;\n"
                          "void main() { gl_Position = va0; v0 = va0 * 2.0; }\n";
/* A full-screen pair of triangles for the fragment draws. */
static const char QUAD3[] = "#version 300 es\nlayout(location = 0) in vec4 va0;\nvoid main() { gl_Position = va0; }\n";
static const char QUAD1[] = "#version 100\nattribute vec4 va0;\nvoid main() { gl_Position = va0; }\n";
static const char FS3[] =
    "#version 300 es\nprecision highp float;\nlayout(std140) uniform agal_fc_block { vec4 fc[2]; };\n"
    "uniform sampler2D fs0;\nlayout(location = 0) out vec4 oc0;\nlayout(location = 1) out vec4 oc1;\n"
    "void main() {\n  if (gl_FragCoord.x < 1.0) discard;\n"
    "  oc0 = fc[0] + vec4(0.0, floor(gl_FragCoord.y), 0.0, 0.0);\n"
    "  oc1 = texture(fs0, gl_FragCoord.xy / 4.0);\n  gl_FragDepth = 0.25;\n}\n";
static const char FS1[] = "#version 100\n#extension GL_EXT_frag_depth : enable\nprecision highp float;\n"
                          "uniform vec4 fc[2];\nuniform sampler2D fs0;\n"
                          "void main() {\n  if (gl_FragCoord.x < 1.0) discard;\n"
                          "  gl_FragColor = fc[0] + texture2D(fs0, gl_FragCoord.xy / 4.0) +\n"
                          "    vec4(0.0, floor(gl_FragCoord.y), 0.0, 0.0);\n  gl_FragDepthEXT = 0.25;\n}\n";
static const char BROKEN[] = "#version 300 es\nvoid main() { gl_Position = vec4(agal_undeclared); }\n";
/* WGSL in the WGSL binding model (docs/binding-models.md): fc at binding 1, fs0 at 2
 * and its sampler at 18; the vertex result struct as the emitter writes it. */
static const char VS_WGSL[] =
    "struct agal_out {\n    @builtin(position) position: vec4f,\n    @location(0) v0: vec4f,\n}\n"
    "@vertex\nfn main(@location(0) va0: vec4f, @builtin(instance_index) iid: u32) -> agal_out {\n"
    "    return agal_out(va0, va0 * 2.0 + vec4f(f32(iid)));\n}\n";
static const char QUAD_WGSL[] =
    "@vertex\nfn main(@location(0) va0: vec4f) -> @builtin(position) vec4f { return va0; }\n";
static const char FS_WGSL[] =
    "@group(0) @binding(1) var<uniform> fc: array<vec4f, 2>;\n@group(0) @binding(2) var fs0: texture_2d<f32>;\n"
    "@group(0) @binding(18) var fs0_sampler: sampler;\n"
    "struct agal_out {\n    @location(0) oc0: vec4f,\n    @location(1) oc1: vec4f,\n"
    "    @builtin(frag_depth) fd: f32,\n}\n"
    "@fragment\nfn main(@builtin(position) p: vec4f) -> agal_out {\n"
    "    let t = textureSample(fs0, fs0_sampler, p.xy / 4.0);\n    if (p.x < 1.0) { discard; }\n"
    "    return agal_out(fc[0] + vec4f(0.0, floor(p.y), 0.0, 0.0), t, 0.25);\n}\n";
static const char BROKEN_WGSL[] = "@fragment\nfn main() -> @location(0) vec4f { return agal_undeclared; }\n";

static float attrib[NV][4], quad[6][4];

static bool same(float a, float b) { return a == b || (isnan(a) && isnan(b)); }

static void check_vertex(const harness_result *r, bool instanced_ids, const char *what)
{
    CHECK(r->xfb_floats == NI * NV * 8, "%s: %zu floats captured", what, r->xfb_floats);
    if (r->xfb_floats != NI * NV * 8) return;
    for (int i = 0; i < NI; i++)
        for (int v = 0; v < NV; v++)
            for (int c = 0; c < 4; c++) {
                const float *rec = r->xfb + (i * NV + v) * 8;
                float want = values[v][c] * 2.0f + (instanced_ids ? (float)i : 0.0f);
                CHECK(same(rec[c], values[v][c]), "%s: instance %d vertex %d op.%c %.9g, want %.9g", what, i, v,
                      "xyzw"[c], rec[c], values[v][c]);
                /* WebGL 1 carries a vertex output through a point's varying: an infinity
                 * does not survive the interpolation (inf * 0 is NaN, which may then
                 * pack as anything); compare only does not compare such values */
                bool inf_lost = !instanced_ids && isinf(want);
                CHECK(same(rec[4 + c], want) || inf_lost, "%s: instance %d vertex %d v0.%c %.9g, want %.9g", what, i, v,
                      "xyzw"[c], rec[4 + c], want);
            }
}

/* Pixel (x, y), y counting from the top: gl_FragCoord.y = H - 1 - y + 0.5, WebGPU's
 * position.y = y + 0.5 (webgpu: rows and texture rows count from the top). */
static void check_fragment(const harness_result *r, bool webgl2, bool webgpu, const char *what)
{
    webgl2 |= webgpu; /* the same outputs: oc1 the texel */
    CHECK(r->color[0] && r->depth && (!webgl2 || r->color[1]), "%s: outputs missing", what);
    if (!r->color[0] || !r->depth || (webgl2 && !r->color[1])) return;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            size_t p = (size_t)y * W + x;
            bool discarded = harness_discarded(r, p);
            CHECK(discarded == (x == 0), "%s: pixel (%d,%d) %s", what, x, y, discarded ? "discarded" : "kept");
            if (discarded) continue;
            int row = webgpu ? y : H - 1 - y; /* the row gl_FragCoord or position counts */
            const float *tex = &texels[((row * TS) + x) * 4];
            for (int c = 0; c < 4; c++) {
                float want = fconst[0][c] + (webgl2 ? 0.0f : tex[c]) + (c == 1 ? (float)row : 0.0f);
                /* WebGL 1's texel is k/255 in RGBA8, converted to float within an ulp or so */
                float got = r->color[0][4 * p + c], slack = webgl2 ? 0.0f : 1e-6f * fmaxf(1.0f, fabsf(want));
                CHECK(same(got, want) || fabsf(got - want) <= slack, "%s: pixel (%d,%d) oc0.%c %.9g, want %.9g", what,
                      x, y, "xyzw"[c], got, want);
                if (webgl2)
                    CHECK(r->color[1][4 * p + c] == tex[c], "%s: pixel (%d,%d) oc1.%c %.9g, want texel %.9g", what, x,
                          y, "xyzw"[c], r -> color[1][4 * p + c], tex[c]);
            }
            CHECK(r->depth[p] == 0.25f, "%s: pixel (%d,%d) depth %.9g", what, x, y, r->depth[p]);
        }
}

static harness_draw vertex_draw(const char *vs)
{
    harness_draw d = {.vs_glsl = vs, .nverts = NV, .ninstances = NI, .capture = true, .ncapture = 1};
    d.attribs[0] = &attrib[0][0];
    return d;
}

static harness_draw fragment_draw(const char *vs, const char *fs, unsigned noc)
{
    harness_draw d = {.vs_glsl = vs,
                      .fs_glsl = fs,
                      .nverts = 6,
                      .ninstances = 1,
                      .fc = &fconst[0][0],
                      .nfc = 2,
                      .noc = noc,
                      .width = W,
                      .height = H};
    d.attribs[0] = &quad[0][0];
    d.tex[0] = (harness_texture){.present = true, .size = TS, .levels = 1, .texels = texels};
    return d;
}

static void inputs(void)
{
    memcpy(attrib, values, sizeof attrib);
    static const float corners[6][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, -1}, {1, 1}, {-1, 1}};
    for (int v = 0; v < 6; v++) {
        const float q[4] = {corners[v][0], corners[v][1], 0.5f, 1};
        memcpy(quad[v], q, sizeof q);
    }
    for (int i = 0; i < TS * TS * 4; i++)
        texels[i] = (float)((i * 37) % 256) / 255.0f; /* multiples of 1/255: exact in RGBA8 too */
}

int main(void)
{
    char err[4096];
    inputs();
    harness_web *bad = harness_web_create("/nonexistent/agal-browser", 30, err, sizeof err);
    CHECK(bad == NULL && strstr(err, "/nonexistent/agal-browser"), "a missing browser: %s", err);
    harness_web_destroy(bad);

    harness_web *h = harness_web_create(NULL, 300, err, sizeof err);
    CHECK(h != NULL, "%s", err);
    if (!h) return 1;
    printf("browser: %s\n", harness_web_browser(h));
    enum { N = 10 };
    harness_draw d[N] = {vertex_draw(VS3),
                         vertex_draw(VS1),
                         fragment_draw(QUAD3, FS3, 2),
                         fragment_draw(QUAD1, FS1, 1),
                         vertex_draw(BROKEN),
                         vertex_draw(VS_WGSL),
                         fragment_draw(QUAD_WGSL, FS_WGSL, 2),
                         fragment_draw(QUAD_WGSL, BROKEN_WGSL, 1),
                         vertex_draw(VS_WGSL),
                         vertex_draw(VS3)};
    const int api[N] = {WEB_WEBGL2, WEB_WEBGL1, WEB_WEBGL2, WEB_WEBGL1, WEB_WEBGL2,
                        WEB_WEBGPU, WEB_WEBGPU, WEB_WEBGPU, WEB_WEBGPU, WEB_WEBGL2};
    for (int i = 0; i < N; i++) CHECK(harness_web_queue(h, api[i], &d[i]) == i);
    CHECK(harness_web_queued(h) == N);
    int rc = harness_web_flush(h, err, sizeof err);
    CHECK(rc == 0, "flush: %s", err);
    printf("one flush of %d draws: %.2f s in the browser\n", N, harness_web_last_seconds(h));
    /* The suite's browser is Chromium's SwiftShader (the Vulkan loader's driver
     * variables, which the tests set for lavapipe, must not reach it) */
    for (int v = WEB_WEBGL1; v <= WEB_WEBGPU; v++) {
        printf("%s: %s\n",
               v == WEB_WEBGPU   ? "webgpu"
               : v == WEB_WEBGL2 ? "webgl2"
                                 : "webgl1",
               harness_web_renderer(h, v));
        CHECK(strcasestr(harness_web_renderer(h, v), "SwiftShader") != NULL, "api %d renderer: %s", v,
              harness_web_renderer(h, v));
    }
    harness_result r;
    const char *names[N] = {"webgl2 vertex",
                            "webgl1 vertex",
                            "webgl2 fragment",
                            "webgl1 fragment",
                            "rejected",
                            "webgpu vertex",
                            "webgpu fragment",
                            "rejected WGSL",
                            "webgpu vertex after a failure",
                            "webgl2 vertex after a failure"};
    for (int i = 0; rc == 0 && i < N; i++) {
        int t = harness_web_take(h, (size_t)i, &r, err, sizeof err);
        if (i == 4 || i == 7) {
            /* ANGLE's log names the identifier: "ERROR: 0:2: 'agal_undeclared' : undeclared identifier";
             * Tint's (getCompilationInfo): "error at 2:56: unresolved value 'agal_undeclared'" */
            CHECK(t != 0 && strstr(err, i == 4 ? "vertex shader does not compile" : "fragment shader: error at") &&
                      strstr(err, "agal_undeclared"),
                  "the rejected shader: %s", t ? err : "accepted");
            continue;
        }
        CHECK(t == 0, "%s: %s", names[i], err);
        if (t) continue;
        if (i == 0 || i == 1 || i == 5 || i == 8 || i == 9) check_vertex(&r, i != 1, names[i]);
        else check_fragment(&r, i == 2, i == 6, names[i]);
        harness_result_free(&r);
    }
    CHECK(harness_web_take(h, N, &r, err, sizeof err) != 0, "a draw past the run");
    harness_web_destroy(h);
    if (failures) fprintf(stderr, "%d failure(s)\n", failures);
    else printf("browser backend: exact outputs from WebGL 2, WebGL 1 and WebGPU, rejected shaders reported\n");
    return failures != 0;
}
