/* test_harness.c: the Vulkan and GL runners on hand-written shaders (tests/gpu/harness/),
 * independent of the emitters. `test_harness vk` or `test_harness gl`.
 *
 * Vertex check: 3 vertices x 2 instances captured by transform feedback; op must come
 * back with the clip fix the shader applied, v0 = va1 * vc0 + vc1 * instance.
 * Fragment check: a full-screen quad on a 4x4 target whose varying is linear in the
 * screen, v0 = (X, (1 - Y) / 2, (X + Y + 2) / 8, 1) in NDC, read at pixel centres;
 * the left half discards, oc1 samples a 4x4 nearest texture whose texel (i, j) is
 * (i, j, 7, 1), depth comes from gl_FragDepth = v0.z.
 * The GL sources are read from the paths given after `gl`.
 */
#include "harness.h"
#include "toolio.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic_vk_vert.h" /* glslangValidator -V --vn basic_vk_vert */
#include "basic_vk_frag.h"

static int failures;

static void expect(bool ok, const char *what, int i, double got, double want)
{
    if (!ok) {
        fprintf(stderr, "FAIL %s [%d]: got %.9g want %.9g\n", what, i, got, want);
        failures++;
    }
}

static void expect_near(const char *what, int i, double got, double want)
{
    expect(fabs(got - want) <= 1e-5, what, i, got, want);
}

typedef int (*run_fn)(void *h, const harness_draw *d, harness_result *r, char *err, size_t n);

static const float positions[3][4] = {{0.5f, 0.25f, 0.75f, 1}, {-1, 2, 0.5f, 2}, {0, 0, 0, 1}};
static const float colours[3][4] = {{1, 2, 3, 4}, {-1, 0.5f, 0, 8}, {0.25f, 0.125f, -2, 1}};
static const float vconst[4][4] = {{2, 1, 0.5f, -1}, {10, 20, 30, 40}};

static void check_capture(const harness_result *r, bool vulkan)
{
    if (r->xfb_floats != 2 * 3 * 2 * 4) {
        expect(false, "xfb size", 0, (double)r->xfb_floats, 48);
        return;
    }
    for (int inst = 0; inst < 2; inst++)
        for (int v = 0; v < 3; v++) {
            const float *rec = r->xfb + (inst * 3 + v) * 8;
            const float *p = positions[v];
            float want_op[4] = {p[0], vulkan ? -p[1] : p[1], vulkan ? p[2] : 2 * p[2] - p[3], p[3]};
            for (int c = 0; c < 4; c++) {
                expect_near("op", (inst * 3 + v) * 4 + c, rec[c], want_op[c]);
                expect_near("v0", (inst * 3 + v) * 4 + c, rec[4 + c],
                            colours[v][c] * vconst[0][c] + vconst[1][c] * inst);
            }
        }
    /* by hand: instance 1, vertex 1: v0 = (-1*2+10, 0.5*1+20, 0*0.5+30, 8*-1+40) */
    expect_near("v0 by hand", 0, r->xfb[(3 + 1) * 8 + 4], 8.0);
    expect_near("v0 by hand", 1, r->xfb[(3 + 1) * 8 + 5], 20.5);
    expect_near("v0 by hand", 3, r->xfb[(3 + 1) * 8 + 7], 32.0);
}

static int run_capture(run_fn run, void *h, const harness_draw *base, bool vulkan)
{
    harness_draw d = *base;
    d.fs_spirv = NULL;
    d.fs_glsl = NULL;
    d.nverts = 3;
    d.ninstances = 2;
    d.attribs[0] = &positions[0][0];
    d.attribs[1] = &colours[0][0];
    d.vc = &vconst[0][0];
    d.nvc = 4;
    d.capture = true;
    d.ncapture = 1;
    d.capture_regs[0] = 0;
    harness_result r;
    char err[512];
    if (run(h, &d, &r, err, sizeof err)) {
        fprintf(stderr, "FAIL capture run: %s\n", err);
        return 1;
    }
    check_capture(&r, vulkan);
    harness_result_free(&r);
    return 0;
}

static void check_pixels(const harness_result *r)
{
    for (int py = 0; py < 4; py++)
        for (int px = 0; px < 4; px++) {
            int i = py * 4 + px;
            double X = (px + 0.5) / 2 - 1, Y = 1 - (py + 0.5) / 2;
            if (X < 0) {
                expect(harness_discarded(r, (size_t)i), "discard", i, r->color[0][4 * i], HARNESS_CLEAR);
                expect_near("depth (cleared)", i, r->depth[i], 1.0);
                continue;
            }
            double oc0[4] = {X + 0.5, (1 - Y) / 2 + 0.25, (X + Y + 2) / 8, 3};
            double oc1[4] = {px - 2, py, 7, 1};
            for (int c = 0; c < 4; c++) {
                expect_near("oc0", i * 4 + c, r->color[0][4 * i + c], oc0[c]);
                expect_near("oc1", i * 4 + c, r->color[1][4 * i + c], oc1[c]);
            }
            expect_near("depth", i, r->depth[i], (X + Y + 2) / 8);
        }
    /* by hand: top-right pixel (3, 0): X = Y = 0.75 */
    expect_near("oc0 by hand", 0, r->color[0][4 * 3 + 0], 1.25);
    expect_near("oc0 by hand", 1, r->color[0][4 * 3 + 1], 0.375);
    expect_near("oc1 by hand", 0, r->color[1][4 * 3 + 0], 1.0);
    expect_near("depth by hand", 3, r->depth[3], 0.4375);
}

static int run_fragment(run_fn run, void *h, const harness_draw *base)
{
    static const float corners[6][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, -1}, {1, 1}, {-1, 1}};
    float pos[6][4], var[6][4], tex[4 * 4 * 4];
    for (int v = 0; v < 6; v++) {
        float X = corners[v][0], Y = corners[v][1];
        memcpy(pos[v], (float[4]){X, Y, 0.5f, 1}, sizeof pos[v]);
        memcpy(var[v], (float[4]){X, (1 - Y) / 2, (X + Y + 2) / 8, 1}, sizeof var[v]);
    }
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++) memcpy(tex + (j * 4 + i) * 4, (float[4]){(float)i, (float)j, 7, 1}, 16);
    static const float ones[4][4] = {{1, 1, 1, 1}};
    static const float fconst[4][4] = {{0.5f, 0.25f, 0, 2}, {0.5f, 1, 0, 0}};
    harness_draw d = *base;
    d.nverts = 6;
    d.ninstances = 1;
    d.attribs[0] = &pos[0][0];
    d.attribs[1] = &var[0][0];
    d.vc = &ones[0][0];
    d.nvc = 4;
    d.fc = &fconst[0][0];
    d.nfc = 4;
    d.tex[0] = (harness_texture){.present = true, .size = 4, .levels = 1, .texels = tex};
    d.noc = 2;
    d.width = d.height = 4;
    harness_result r;
    char err[512];
    if (run(h, &d, &r, err, sizeof err)) {
        fprintf(stderr, "FAIL fragment run: %s\n", err);
        return 1;
    }
    check_pixels(&r);
    harness_result_free(&r);
    return 0;
}

static int vk_run(void *h, const harness_draw *d, harness_result *r, char *err, size_t n)
{
    return harness_vk_run(h, d, r, err, n);
}

static int gl_run(void *h, const harness_draw *d, harness_result *r, char *err, size_t n)
{
    return harness_gl_run(h, d, r, err, n);
}

int main(int argc, char **argv)
{
    bool vulkan = argc > 1 && strcmp(argv[1], "vk") == 0;
    char err[512];
    harness_draw base = {.vs_spirv = basic_vk_vert,
                         .vs_words = sizeof basic_vk_vert / 4,
                         .fs_spirv = basic_vk_frag,
                         .fs_words = sizeof basic_vk_frag / 4};
    char *vs = NULL, *fs = NULL;
    size_t vlen, flen;
    if (!vulkan && (argc < 4 || !(vs = tool_read_file(argv[2], &vlen)) || !(fs = tool_read_file(argv[3], &flen)))) {
        fprintf(stderr, "usage: test_harness vk | gl VERT.glsl FRAG.glsl\n");
        free(vs);
        return 2;
    }
    base.vs_glsl = vs;
    base.fs_glsl = fs;
    if (vulkan) {
        harness_vk *h = harness_vk_create(true, err, sizeof err);
        if (!h) {
            fprintf(stderr, "FAIL: %s\n", err);
            return 1;
        }
        printf("vulkan device: %s\n", harness_vk_device_name(h));
        failures += run_capture(vk_run, h, &base, true) + run_fragment(vk_run, h, &base);
        unsigned msgs = harness_vk_destroy(h); /* counts messages raised by the teardown too */
        if (msgs) {
            fprintf(stderr, "FAIL: %u validation messages\n", msgs);
            failures++;
        }
    } else {
        harness_gl *h = harness_gl_create(true, err, sizeof err);
        if (!h) {
            fprintf(stderr, "FAIL: %s\n", err);
            return 1;
        }
        printf("gl renderer: %s\n", harness_gl_renderer(h));
        failures += run_capture(gl_run, h, &base, false) + run_fragment(gl_run, h, &base);
        if (harness_gl_messages(h)) {
            fprintf(stderr, "FAIL: %u GL debug errors\n", harness_gl_messages(h));
            failures++;
        }
        harness_gl_destroy(h);
    }
    free(vs);
    free(fs);
    printf("%s: %d failure(s)\n", vulkan ? "vk" : "gl", failures);
    return failures ? 1 : 0;
}
