/* test_runtime.c: what a runtime must reproduce around the shader (docs/format.md
 * section 7), drawn on a driver and compared with the reference interpreter:
 * `test_runtime vk` or `test_runtime gl`. Programs go through agal_upload, and
 * Stage3D's state through the helpers of <agal/vulkan.h> and <agal/gl.h> (the
 * harness maps it with them), as in an emulator.
 *
 * - Sampler slots: setProgram of a token with and without ignoresampler and
 *   setSamplerStateAt in every order, then Flash Player's recorded sequence (one
 *   setProgram of <2d,clamp,linear,mipnone> without ignoresampler, then
 *   setSamplerStateAt before each of 8 draws, 2 filters x 4 wraps). Every draw
 *   samples with agal_slots_resolve's state on the GPU and in the interpreter
 *   (env.slots), and the 8 recorded draws differ from one another.
 * - Render to texture: a pass with setCulling(back) draws a front-facing
 *   (clockwise) quad at the top left and a back-facing one at the bottom right into
 *   a texture, which a second draw, itself culled (its quad is clockwise), samples
 *   on the GPU. The result must be the interpreter's: the texture's first row is
 *   the pass's top edge, and the back face is culled. Vulkan renders the texture as
 *   the back buffer (AGAL_VK_FRONT_FACE), GL with agal_gl_yflip(true) and
 *   agal_gl_front_face(true). GL again with both pairs uploaded with
 *   AGAL_CLIP_CONTROL: no flip in the vertex program, the texture turned over by
 *   glClipControl's origin (agal_gl_clip_origin), front faces clockwise.
 * - Vulkan: the validation messenger counts a performance warning: a pair translated
 *   one program at a time, whose vertex shader writes a varying the fragment shader
 *   does not read, draws with one; through agal_upload, with none.
 */
#include "agal/interp.h"
#include "translated.h"
#include "agal/stage3d.h"
#include "agal/text.h"
#include "check.h"
#include "harness.h"
#include "slot_orders.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { SIZE = 8, NPIX = SIZE * SIZE, TEX = 8, LEVELS = 4 };

/* Texels within this of the interpreter: 8 sub-texel bits of filter weights on
 * values in [0, 1] (the harness's texture tolerance, tools/agalrun/compare_tolerance.c). */
static const float TOL = 1e-2f;

typedef struct runner {
    bool vk;
    harness_vk *v;
    harness_gl *g;
    agal_context *ctx;
} runner;

static int run(runner *r, const harness_draw *d, harness_result *out)
{
    char err[512];
    int rc = r->vk ? harness_vk_run(r->v, d, out, err, sizeof err) : harness_gl_run(r->g, d, out, err, sizeof err);
    CHECK(rc == 0, "draw: %s", err);
    return rc;
}

static const agal_program *decode_text(agal_context *ctx, const char *text, agal_stage stage, const uint8_t **bytes,
                                       size_t *size)
{
    const agal_program *p = NULL;
    agal_decode_options o = {.size = sizeof(agal_decode_options),
                             .slot = stage == AGAL_VERTEX ? AGAL_SLOT_VERTEX : AGAL_SLOT_FRAGMENT};
    bool ok = agal_assemble(ctx, text, strlen(text), stage, 2, AGAL_ASM_STRICT, bytes, size) == AGAL_OK &&
              agal_decode(ctx, *bytes, *size, &o, &p) == AGAL_OK;
    CHECK(ok, "%s assembles and decodes", text);
    return ok ? p : NULL;
}

/* Program3D.upload of two AGAL2 texts for the runner's target. */
static bool upload_clip(runner *r, const char *vs, const char *fs, agal_clip clip, agal_upload_result *out)
{
    const uint8_t *vb, *fb;
    size_t vn, fn;
    if (!decode_text(r->ctx, vs, AGAL_VERTEX, &vb, &vn) || !decode_text(r->ctx, fs, AGAL_FRAGMENT, &fb, &fn))
        return false;
    agal_upload_options o = {
        .size = sizeof(agal_upload_options), .target = r->vk ? AGAL_TARGET_SPIRV : AGAL_TARGET_GLSL, .clip = clip};
    *out = agal_upload_result_init();
    bool ok = agal_upload(r->ctx, vb, vn, fb, fn, &o, out) == AGAL_OK;
    CHECK(ok, "the pair uploads");
    return ok;
}

static bool upload(runner *r, const char *vs, const char *fs, agal_upload_result *out)
{
    return upload_clip(r, vs, fs, AGAL_CLIP_DEFAULT, out);
}

/* A full-screen quad of two clockwise triangles (Stage3D's front faces), va0 the
 * position and va1 = (a X + b, c Y + d, 0, 1), so v0 is linear over the screen. */
typedef struct quad {
    float pos[6][4], uv[6][4];
} quad;

static void full_screen(quad *q, float a, float b, float c, float d)
{
    static const float corner[6][2] = {{-1, -1}, {1, 1}, {1, -1}, {-1, -1}, {-1, 1}, {1, 1}};
    for (int k = 0; k < 6; k++) {
        float X = corner[k][0], Y = corner[k][1];
        memcpy(q->pos[k], (float[4]){X, Y, 0.5f, 1}, 16);
        memcpy(q->uv[k], (float[4]){a * X + b, c * Y + d, 0, 1}, 16);
    }
}

static double centre_x(int px) { return (2.0 * px + 1) / SIZE - 1; }
static double centre_y(int py) { return 1 - (2.0 * py + 1) / SIZE; }

/* The fragment program over the 8x8 pixels, v0[pixel] its varying there (pixels
 * top row first); the interpreter runs them in 2x2 quads TL, TR, BL, BR. */
static bool interp_image(agal_context *ctx, const agal_program *fp, const agal_interp_env *env, const float v0[NPIX][4],
                         float out[NPIX][4])
{
    agal_interp_invocation in[NPIX];
    agal_interp_result res[NPIX];
    int pix[NPIX], n = 0;
    memset(in, 0, sizeof in);
    for (int qy = 0; qy < SIZE / 2; qy++)
        for (int qx = 0; qx < SIZE / 2; qx++)
            for (int l = 0; l < 4; l++, n++) {
                pix[n] = (2 * qy + l / 2) * SIZE + 2 * qx + l % 2;
                memcpy(in[n].in[0], v0[pix[n]], 16);
            }
    agal_status st = agal_interp_run(ctx, fp, env, in, NPIX, res);
    CHECK(st == AGAL_OK, "the interpreter runs (status %d)", st);
    for (int k = 0; st == AGAL_OK && k < NPIX; k++) memcpy(out[pix[k]], res[k].oc[0], 16);
    return st == AGAL_OK;
}

/* The largest difference between the draw's oc0 and the interpreter's image. */
static double image_error(const harness_result *r, const float want[NPIX][4], int *worst)
{
    double e = 0;
    for (int p = 0; p < NPIX; p++)
        for (int c = 0; c < 4; c++) {
            double d = fabs((double)r->color[0][4 * p + c] - want[p][c]);
            if (!(d <= e)) { /* NaN counts as the worst */
                e = isnan(d) ? INFINITY : d;
                *worst = p;
            }
        }
    return e;
}

/* ---- sampler slots ------------------------------------------------------------------ */

/* An 8x8 texture, 4 levels; texel (i, j) of level l (w x h) is ((i + j) % 2,
 * i / (w - 1), j / (h - 1), 1 - l / 4): the checker shows the filter, green and
 * blue the wrap on each axis, alpha the level. */
typedef struct texture {
    float texels[(64 + 16 + 4 + 1) * 4];
    const float *images[LEVELS];
    agal_texture t;
} texture;

static void make_texture(texture *tx)
{
    float *p = tx->texels;
    for (unsigned l = 0; l < LEVELS; l++) {
        unsigned w = TEX >> l, d = w > 1 ? w - 1 : 1;
        tx->images[l] = p;
        for (unsigned j = 0; j < w; j++)
            for (unsigned i = 0; i < w; i++, p += 4)
                memcpy(p, (float[4]){(float)((i + j) % 2), (float)i / d, (float)j / d, 1 - 0.25f * l}, 16);
    }
    tx->t = (agal_texture){
        .sampler = 0, .dim = AGAL_DIM_2D, .width = TEX, .height = TEX, .levels = LEVELS, .images = tx->images};
}

typedef struct slot_case {
    runner *r;
    texture tex;
    quad q;
    float v0[NPIX][4];
} slot_case;

/* One draw of the uploaded pair with the slots as they are: the GPU samples with
 * agal_slots_resolve's state through the helpers, the interpreter with env.slots. */
static void slot_draw(slot_case *c, const char *what, const agal_upload_result *up, const agal_sampler_slots *slots,
                      float image[NPIX][4])
{
    agal_interp_env env = {.textures = &c->tex.t, .ntextures = 1, .slots = slots};
    if (!interp_image(c->r->ctx, up->fragment, &env, (const float(*)[4])c->v0, image)) return;
    harness_draw d = {.nverts = 6, .ninstances = 1, .noc = 1, .width = SIZE, .height = SIZE, .cull = AGAL_FACE_BACK};
    harness_draw_upload(&d, up);
    d.attribs[0] = &c->q.pos[0][0];
    d.attribs[1] = &c->q.uv[0][0];
    d.tex[0] = (harness_texture){.present = true,
                                 .size = TEX,
                                 .levels = LEVELS,
                                 .texels = c->tex.texels,
                                 .sampler = agal_slots_resolve(slots, &up->fragment->tokens[0].s)};
    harness_result res;
    if (run(c->r, &d, &res)) return;
    int worst = 0;
    double e = image_error(&res, (const float(*)[4])image, &worst);
    CHECK(e <= TOL, "%s: pixel (%d, %d) is %g %g %g %g, the interpreter's %g %g %g %g", what, worst % SIZE,
          worst / SIZE, res.color[0][4 * worst], res.color[0][4 * worst + 1], res.color[0][4 * worst + 2],
          res.color[0][4 * worst + 3], image[worst][0], image[worst][1], image[worst][2], image[worst][3]);
    harness_result_free(&res);
}

static agal_sampler_state state(unsigned wrap, unsigned filter, unsigned mip)
{
    return (agal_sampler_state){(uint8_t)wrap, (uint8_t)filter, (uint8_t)mip};
}

static void sampler_slots(runner *r)
{
    static const char *vs = "mov op, va0\nmov v0, va1\n";
    static const char *own = "tex ft0, v0, fs0 <2d,linear,mipnearest,repeat>\nmov oc, ft0\n",
                      *ign = "tex ft0, v0, fs0 <2d,linear,mipnearest,repeat,ignoresampler>\nmov oc, ft0\n",
                      *rec = "tex ft0, v0, fs0 <2d,clamp,linear,mipnone>\nmov oc, ft0\n";
    agal_upload_result up_own, up_ign, up_rec;
    if (!upload(r, vs, own, &up_own) || !upload(r, vs, ign, &up_ign) || !upload(r, vs, rec, &up_rec)) return;
    slot_case *c = calloc(1, sizeof *c);
    if (!c) return;
    c->r = r;
    make_texture(&c->tex);
    /* u from -0.55 to 1.45 across the screen, v likewise downwards: wraps on both
     * sides, texel centres never on a pixel centre, 2 texels a pixel (lambda 1) */
    full_screen(&c->q, 1, 0.45f, -1, 0.45f);
    for (int p = 0; p < NPIX; p++)
        memcpy(c->v0[p], (float[4]){(float)centre_x(p % SIZE) + 0.45f, 0.45f - (float)centre_y(p / SIZE), 0, 1}, 16);
    float image[NPIX][4], seen[8][NPIX][4];
    agal_sampler_slots s;
    agal_sampler_state baked = state(AGAL_WRAP_REPEAT, AGAL_FILTER_LINEAR, AGAL_MIP_NEAREST); /* the tokens' */
    for (size_t k = 0; k < sizeof slot_orders / sizeof slot_orders[0]; k++) {
        const slot_order *o = &slot_orders[k];
        slot_order_run(o, &s, up_own.fragment, up_ign.fragment);
        const agal_upload_result *drawn = o->draw == 'P' ? &up_own : &up_ign;
        agal_sampler want = agal_slots_resolve(&s, &drawn->fragment->tokens[0].s);
        agal_sampler_state got = {want.wrap, want.filter, want.mipmap}, w = slot_order_want(o, baked);
        CHECK(!memcmp(&got, &w, sizeof got), "%s: the slot holds the state section 7 says", o->what);
        slot_draw(c, o->what, drawn, &s, image);
    }
    agal_slots_init(&s);
    agal_slots_set_program(&s, up_rec.fragment);
    for (unsigned k = 0; k < 8; k++) {
        char what[64];
        snprintf(what, sizeof what, "recorded draw %u (%s, %s)", k, agal_stage3d_name(AGAL_S3D_TEXTURE_FILTER, k / 4),
                 agal_stage3d_name(AGAL_S3D_WRAP_MODE, k % 4));
        agal_slots_set_state(&s, 0, state(k % 4, k / 4, AGAL_MIP_NONE));
        slot_draw(c, what, &up_rec, &s, seen[k]);
    }
    /* each recorded draw shows its own state: no two images are alike */
    for (unsigned a = 0; a < 8; a++)
        for (unsigned b = a + 1; b < 8; b++) {
            double most = 0;
            for (int p = 0; p < NPIX; p++)
                for (int ch = 0; ch < 4; ch++) most = fmax(most, fabs(seen[a][p][ch] - seen[b][p][ch]));
            CHECK(most > 0.1, "recorded draws %u and %u look alike (%g)", a, b, most);
        }
    free(c);
}

/* ---- render to texture ---------------------------------------------------------------- */

/* Quad A, clockwise (front), covers the top-left quarter; quad B, counter-clockwise
 * (back), the bottom-right one. v0 = (X / 2 + 0.5, Y / 2 + 0.5, which, 1). */
static void rtt_geometry(float pos[12][4], float col[12][4])
{
    static const float a[6][2] = {{-1, 1}, {0, 1}, {-1, 0}, {0, 1}, {0, 0}, {-1, 0}};
    static const float b[6][2] = {{0, 0}, {0, -1}, {1, 0}, {1, 0}, {0, -1}, {1, -1}};
    for (int k = 0; k < 12; k++) {
        const float *xy = k < 6 ? a[k] : b[k - 6];
        memcpy(pos[k], (float[4]){xy[0], xy[1], 0.5f, 1}, 16);
        memcpy(col[k], (float[4]){xy[0] / 2 + 0.5f, xy[1] / 2 + 0.5f, k < 6 ? 0.25f : 0.75f, 1}, 16);
    }
}

/* A draw of the upload up's nverts vertices over the SIZE x SIZE target, back faces
 * culled, under clip control where up was uploaded for it. */
static harness_draw culled_draw(unsigned nverts, agal_clip clip, const agal_upload_result *up)
{
    harness_draw d = {.nverts = nverts,
                      .ninstances = 1,
                      .noc = 1,
                      .width = SIZE,
                      .height = SIZE,
                      .cull = AGAL_FACE_BACK,
                      .clip_control = clip == AGAL_CLIP_CONTROL};
    harness_draw_upload(&d, up);
    return d;
}

/* clip: AGAL_CLIP_DEFAULT, or on GL AGAL_CLIP_CONTROL (the harness's clip_control). */
static void render_to_texture(runner *r, agal_clip clip)
{
    static const char *vs = "mov op, va0\nmov v0, va1\n";
    const char *how = clip == AGAL_CLIP_CONTROL ? "with clip control" : "with the shader's flip";
    agal_upload_result pass, show;
    if (!upload_clip(r, vs, "mov oc, v0\n", clip, &pass) ||
        !upload_clip(r, vs, "tex ft0, v0, fs0 <2d,nearest,clamp>\nmov oc, ft0\n", clip, &show))
        return;
    CHECK(pass.shaders[AGAL_VERTEX].binding.yflip == (clip != AGAL_CLIP_CONTROL),
          "%s, the vertex program declares the flip: %d", how, pass.shaders[AGAL_VERTEX].binding.yflip);
    /* The pass as Stage3D draws it, by hand and through the interpreter: A's colour
     * where A covers the pixel centre (x < 0, y > 0), the clear colour elsewhere (B
     * is culled); row 0 is the top. */
    float v0[NPIX][4], texels[NPIX][4], want[NPIX][4];
    for (int p = 0; p < NPIX; p++)
        memcpy(v0[p], (float[4]){(float)centre_x(p % SIZE) / 2 + 0.5f, (float)centre_y(p / SIZE) / 2 + 0.5f, 0.25f, 1},
               16);
    if (!interp_image(r->ctx, pass.fragment, NULL, (const float(*)[4])v0, texels)) return;
    for (int p = 0; p < NPIX; p++)
        if (!(centre_x(p % SIZE) < 0 && centre_y(p / SIZE) > 0))
            for (int ch = 0; ch < 4; ch++) texels[p][ch] = HARNESS_CLEAR;
    CHECK(texels[0][0] == 0.0625f && texels[0][1] == 0.9375f && texels[0][2] == 0.25f,
          "the pass's top-left pixel is A's: %g %g %g", texels[0][0], texels[0][1], texels[0][2]);
    CHECK(texels[NPIX - 1][0] == HARNESS_CLEAR, "the bottom-right pixel, B's, is culled");
    /* The second draw samples each texel centre: u = (X + 1) / 2, v = (1 - Y) / 2. */
    const float *images[1] = {&texels[0][0]};
    agal_texture t = {.sampler = 0, .dim = AGAL_DIM_2D, .width = SIZE, .height = SIZE, .levels = 1, .images = images};
    agal_interp_env env = {.textures = &t, .ntextures = 1};
    quad q;
    full_screen(&q, 0.5f, 0.5f, -0.5f, 0.5f);
    float uv[NPIX][4];
    for (int p = 0; p < NPIX; p++)
        memcpy(uv[p], (float[4]){(float)centre_x(p % SIZE) / 2 + 0.5f, 0.5f - (float)centre_y(p / SIZE) / 2, 0, 1}, 16);
    if (!interp_image(r->ctx, show.fragment, &env, (const float(*)[4])uv, want)) return;

    float pos[12][4], col[12][4];
    rtt_geometry(pos, col);
    harness_draw pre = culled_draw(12, clip, &pass);
    pre.attribs[0] = &pos[0][0];
    pre.attribs[1] = &col[0][0];
    harness_draw d = culled_draw(6, clip, &show);
    d.pre = &pre;
    d.attribs[0] = &q.pos[0][0];
    d.attribs[1] = &q.uv[0][0];
    agal_sampler_slots s;
    agal_slots_init(&s);
    agal_slots_set_program(&s, show.fragment);
    d.tex[0] = (harness_texture){.present = true,
                                 .rendered = true,
                                 .size = SIZE,
                                 .levels = 1,
                                 .sampler = agal_slots_resolve(&s, &show.fragment->tokens[0].s)};
    harness_result res;
    if (run(r, &d, &res)) return;
    int worst = 0;
    double e = image_error(&res, (const float(*)[4])want, &worst);
    CHECK(e <= 1e-5, "render to texture %s: pixel (%d, %d) is %g %g %g, the interpreter's %g %g %g", how, worst % SIZE,
          worst / SIZE, res.color[0][4 * worst], res.color[0][4 * worst + 1], res.color[0][4 * worst + 2],
          want[worst][0], want[worst][1], want[worst][2]);
    harness_result_free(&res);
}

/* ---- the messenger counts what agal_upload avoids ------------------------------------------ */

static void unread_varying(runner *r)
{
    static const char *vs = "mov op, va0\nmov v0, va1\nmov v1, va0\n", *fs = "mov oc, v0\n";
    agal_upload_result up = agal_upload_result_init();
    const uint8_t *b;
    size_t n;
    const agal_program *vp = decode_text(r->ctx, vs, AGAL_VERTEX, &b, &n),
                       *fp = decode_text(r->ctx, fs, AGAL_FRAGMENT, &b, &n);
    if (!vp || !fp || !upload(r, vs, fs, &up)) return;
    quad q;
    full_screen(&q, 1, 0, 1, 0);
    harness_draw d = {.nverts = 6, .ninstances = 1, .noc = 1, .width = SIZE, .height = SIZE};
    harness_draw_upload(&d, &up);
    d.attribs[0] = &q.pos[0][0];
    d.attribs[1] = &q.uv[0][0];
    harness_draw alone = d; /* each program translated on its own: the vertex shader writes v1 */
    CHECK(tool_translate_words(r->ctx, vp, NULL, &alone.vs_spirv, &alone.vs_words) == AGAL_OK &&
              tool_translate_words(r->ctx, fp, NULL, &alone.fs_spirv, &alone.fs_words) == AGAL_OK,
          "the programs translate");
    harness_result res;
    unsigned before = harness_vk_messages(r->v);
    if (run(r, &alone, &res) == 0) harness_result_free(&res);
    unsigned after = harness_vk_messages(r->v);
    fprintf(stderr, "(the warning above is expected: an output the fragment shader does not read)\n");
    CHECK(after == before + 1, "one validation warning for the unread varying, got %u", after - before);
    if (run(r, &d, &res) == 0) harness_result_free(&res);
    CHECK(harness_vk_messages(r->v) == after, "none through agal_upload");
}

int main(int argc, char **argv)
{
    runner r = {.vk = argc > 1 && !strcmp(argv[1], "vk"), .ctx = agal_context_new(NULL, NULL)};
    char err[512];
    if (argc < 2 || (!r.vk && strcmp(argv[1], "gl")) || !r.ctx) {
        fprintf(stderr, "usage: test_runtime vk|gl\n");
        return 2;
    }
    if (r.vk ? !(r.v = harness_vk_create(true, err, sizeof err)) : !(r.g = harness_gl_create(true, err, sizeof err))) {
        fprintf(stderr, "FAIL: %s\n", err);
        return 1;
    }
    sampler_slots(&r);
    render_to_texture(&r, AGAL_CLIP_DEFAULT);
    if (!r.vk) render_to_texture(&r, AGAL_CLIP_CONTROL);
    unsigned expected = 0;
    if (r.vk) {
        unread_varying(&r);
        expected = 1;
    }
    unsigned msgs = r.vk ? harness_vk_destroy(r.v) : harness_gl_messages(r.g);
    if (!r.vk) harness_gl_destroy(r.g);
    CHECK(msgs == expected, "%u validation or debug messages, %u expected", msgs, expected);
    agal_context_free(r.ctx);
    printf("%s: %d failure(s)\n", argv[1], failures);
    return failures != 0;
}
