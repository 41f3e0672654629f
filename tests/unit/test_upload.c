/* test_upload.c: agal_upload and the sampler slots.
 * - every corpus pair uploads for SPIR-V (both modules valid, combined and separate
 *   samplers) and for GLSL (both compile and link);
 * - the layout of a hand-made pair: blocks, samplers, attributes, varyings;
 * - varyings the fragment program does not read (even in code the optimizer drops)
 *   are no outputs of the vertex shader; a centroid sampler's varying is centroid in
 *   both stages, unless the targets are single-sampled (then packed with the others);
 * - the first failure is Flash's: vertex, then fragment, then linkage; 3612 for a
 *   big-endian ByteArray;
 * - the sampler slots in every order of setProgram and setSamplerStateAt, with and
 *   without ignoresampler, and the recorded sequence of Flash Player's stage3d_sampler
 *   test (one setProgram, then setSamplerStateAt before each of 8 draws);
 * - Context3DProfile names, the version string.
 *
 *   test_upload SHADERS_DIR */
#include "agal/agal.h"
#include "agal/interp.h"
#include "agal/stage3d.h"
#include "agal/text.h"
#include "check.h"
#include "glslang_check.h"
#include "spirv_check.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t *assemble(agal_context *ctx, const char *text, agal_stage stage, uint32_t version, size_t *size)
{
    const uint8_t *bytes = NULL;
    CHECK(agal_assemble(ctx, text, strlen(text), stage, version, AGAL_ASM_STRICT, &bytes, size) == AGAL_OK,
          "assembles: %s", text);
    return bytes;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *t = calloc(1, 1 << 16);
    size_t n = fread(t, 1, (1 << 16) - 1, f);
    t[n] = 0;
    fclose(f);
    return t;
}

static bool has(const char *text, const char *needle) { return text && strstr(text, needle); }

/* ---- the corpus ----------------------------------------------------------------- */

static void upload_pair(const char *vtext, const char *ftext, const char *name)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    int vs, fs;
    uint32_t vv, fv;
    agal_asm_header(ctx, vtext, strlen(vtext), &vs, &vv);
    agal_asm_header(ctx, ftext, strlen(ftext), &fs, &fv);
    size_t vn, fn;
    const uint8_t *vb = assemble(ctx, vtext, AGAL_VERTEX, vv ? vv : 1, &vn);
    const uint8_t *fb = assemble(ctx, ftext, AGAL_FRAGMENT, fv ? fv : 1, &fn);
    static const agal_target targets[5] = {AGAL_TARGET_SPIRV, AGAL_TARGET_SPIRV, AGAL_TARGET_GLSL, AGAL_TARGET_ESSL3,
                                           AGAL_TARGET_ESSL1};
    for (int mode = 0; mode < 5 && vb && fb; mode++) {
        agal_upload_options o = {
            .size = sizeof(agal_upload_options), .target = targets[mode], .separate_samplers = mode == 1};
        agal_upload_result r = agal_upload_result_init();
        agal_status st = agal_upload(ctx, vb, vn, fb, fn, &o, &r);
        if (mode == 4 && st == AGAL_ERR_UNSUPPORTED) { /* WebGL 1 has no iid */
            CHECK(strstr(agal_diag_get(ctx, 0)->message, "iid") != NULL, "%s: ES 1.00 refusal names iid", name);
            agal_diag_clear(ctx);
            continue;
        }
        CHECK(st == AGAL_OK, "%s: upload (mode %d) failed: %s", name, mode,
              agal_diag_count(ctx) ? agal_diag_get(ctx, 0)->message : "");
        if (st != AGAL_OK) continue;
        if (mode < 2) {
            CHECK(spirv_check_valid(r.shaders[AGAL_VERTEX].words, r.shaders[AGAL_VERTEX].nwords, name),
                  "%s: vertex SPIR-V", name);
            CHECK(spirv_check_valid(r.shaders[AGAL_FRAGMENT].words, r.shaders[AGAL_FRAGMENT].nwords, name),
                  "%s: fragment SPIR-V", name);
        } else {
            char log[2048];
            CHECK(glslang_check_gl_link(r.shaders[AGAL_VERTEX].text, r.shaders[AGAL_FRAGMENT].text, log, sizeof log),
                  "%s: GLSL pair: %s", name, log);
        }
        /* Every varying the layout names is an output of the vertex shader and an
         * input of the fragment shader, and every attribute an input. */
        for (size_t i = 0; i < r.nvaryings && (mode == 2 || mode == 3); i++) {
            char decl[32];
            snprintf(decl, sizeof decl, "out vec4 v%u;", r.varyings[i].location);
            CHECK(has(r.shaders[AGAL_VERTEX].text, decl), "%s: vertex GLSL lacks %s", name, decl);
            snprintf(decl, sizeof decl, "in vec4 v%u;", r.varyings[i].location);
            CHECK(has(r.shaders[AGAL_FRAGMENT].text, decl), "%s: fragment GLSL lacks %s", name, decl);
        }
    }
    agal_context_free(ctx);
}

static unsigned upload_corpus(const char *dir)
{
    unsigned pairs = 0;
    DIR *d = opendir(dir);
    CHECK(d != NULL, "cannot open %s", dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 10 || strcmp(e->d_name + len - 10, ".vert.agal")) continue;
        char vpath[1024], fpath[1024];
        snprintf(vpath, sizeof vpath, "%s/%s", dir, e->d_name);
        snprintf(fpath, sizeof fpath, "%s/%.*s.frag.agal", dir, (int)(len - 10), e->d_name);
        char *vt = read_text(vpath), *ft = read_text(fpath);
        if (vt && ft) upload_pair(vt, ft, e->d_name), pairs++;
        free(vt);
        free(ft);
    }
    if (d) closedir(d);
    return pairs;
}

/* ---- the layout of a hand-made pair --------------------------------------------- */

static const char *const vertex_text = "m44 op, va0, vc0\n"
                                       "mov v0, va1\n"      /* read by the fragment program */
                                       "mul v1, va2, vc4\n" /* read only by code the optimizer drops */
                                       "mov v2, va3\n"      /* never read */
                                       "mov v3, va4\n";     /* feeds a centroid sampler */
static const char *const fragment_text = "tex ft0, v0, fs1 <2d, linear, mipnone, repeat>\n"
                                         "tex ft1, v3, fs2 <cube, nearest, miplinear, clamp, centroid>\n"
                                         "mul ft2, v1, fc0\n" /* ft2 is never used again: dead */
                                         "add ft0, ft0, ft1\n"
                                         "mul oc, ft0, fc3\n";

static void layout(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    size_t vn, fn;
    const uint8_t *vb = assemble(ctx, vertex_text, AGAL_VERTEX, 2, &vn);
    const uint8_t *fb = assemble(ctx, fragment_text, AGAL_FRAGMENT, 2, &fn);
    agal_upload_options o = {
        .size = sizeof(agal_upload_options), .target = AGAL_TARGET_SPIRV, .separate_samplers = true};
    agal_upload_result r = agal_upload_result_init();
    CHECK(agal_upload(ctx, vb, vn, fb, fn, &o, &r) == AGAL_OK, "layout pair uploads");
    CHECK(r.nblocks == 2 && r.blocks[0].stage == AGAL_VERTEX && r.blocks[0].binding == 0 &&
              r.blocks[0].size == 250 * 16 && r.blocks[1].stage == AGAL_FRAGMENT && r.blocks[1].binding == 1 &&
              r.blocks[1].size == 64 * 16,
          "blocks: %zu", r.nblocks);
    CHECK(r.nsamplers == 2 && r.samplers[0].num == 1 && r.samplers[0].binding == 3 &&
              r.samplers[0].sampler_binding == 19 && r.samplers[0].token.dim == AGAL_DIM_2D &&
              r.samplers[0].token.wrap == AGAL_WRAP_REPEAT && r.samplers[0].uses_tex && !r.samplers[0].uses_ted &&
              r.samplers[1].num == 2 && r.samplers[1].binding == 4 && r.samplers[1].sampler_binding == 20 &&
              r.samplers[1].token.dim == AGAL_DIM_CUBE && (r.samplers[1].token.special & AGAL_SPECIAL_CENTROID),
          "samplers: %zu", r.nsamplers);
    /* va2 feeds only v1 and va3 only v2, neither read: not inputs either. */
    CHECK(r.nattributes == 3 && r.attributes[0].location == 0 && r.attributes[0].mask == 15 &&
              r.attributes[1].location == 1 && r.attributes[2].location == 4,
          "attributes: %zu", r.nattributes);
    CHECK(r.nvaryings == 2 && r.varyings[0].location == 0 && !r.varyings[0].centroid && r.varyings[1].location == 3 &&
              r.varyings[1].centroid,
          "varyings: %zu", r.nvaryings);
    char *vs = spirv_check_text(r.shaders[AGAL_VERTEX].words, r.shaders[AGAL_VERTEX].nwords);
    char *fs = spirv_check_text(r.shaders[AGAL_FRAGMENT].words, r.shaders[AGAL_FRAGMENT].nwords);
    CHECK(has(vs, "OpDecorate %v0 Location 0") && has(vs, "OpDecorate %v3 Location 3") && !has(vs, "%v1 Location") &&
              !has(vs, "%v2 Location") && has(vs, "OpDecorate %v3 Centroid") && !has(vs, "OpDecorate %v0 Centroid"),
          "vertex outputs:\n%s", vs ? vs : "");
    CHECK(has(fs, "OpDecorate %v3 Centroid") && !has(fs, "%v1 Location") && has(fs, "OpTypeSampler") &&
              has(fs, "OpSampledImage") && has(fs, "Binding 19") && has(fs, "Binding 20"),
          "fragment interface:\n%s", fs ? fs : "");
    CHECK(spirv_check_valid(r.shaders[AGAL_VERTEX].words, r.shaders[AGAL_VERTEX].nwords, "layout vertex") &&
              spirv_check_valid(r.shaders[AGAL_FRAGMENT].words, r.shaders[AGAL_FRAGMENT].nwords, "layout fragment"),
          "layout pair SPIR-V valid");
    free(vs);
    free(fs);
    o.target = AGAL_TARGET_GLSL;
    CHECK(agal_upload(ctx, vb, vn, fb, fn, &o, &r) == AGAL_OK, "layout pair uploads as GLSL");
    const char *vg = r.shaders[AGAL_VERTEX].text, *fg = r.shaders[AGAL_FRAGMENT].text;
    CHECK(has(vg, "\nout vec4 v0;") && has(vg, "centroid out vec4 v3;") && !has(vg, "out vec4 v1;") &&
              !has(vg, "out vec4 v2;") && has(fg, "centroid in vec4 v3;") && has(fg, "\nin vec4 v0;") &&
              !has(fg, "in vec4 v1;"),
          "GLSL interface:\n%s\n%s", vg ? vg : "", fg ? fg : "");
    char log[2048];
    CHECK(glslang_check_gl_link(vg, fg, log, sizeof log), "GLSL layout pair links: %s", log);
    agal_context_free(ctx);
}

/* samples 1 (single-sampled targets): the layout pair's centroid varying is
 * declared without centroid on every target, and packs beside a centre one; any
 * other count translates as 0 does; a count no target has is refused. */
static bool declares_centroid(const agal_upload_result *r, agal_target t)
{
    bool any = false;
    for (int s = 0; s < 2; s++) {
        const agal_shader *sh = &r->shaders[s];
        if (t != AGAL_TARGET_SPIRV) { /* the qualifier, not the tokens' comments */
            any |= has(sh->text, "centroid in ") || has(sh->text, "centroid out ") || has(sh->text, "centroid)");
            continue;
        }
        char *dis = spirv_check_text(sh->words, sh->nwords);
        any |= has(dis, "Centroid");
        free(dis);
    }
    return any;
}

/* Both stages the same code: SPIR-V words or text. */
static bool same_code(const agal_upload_result *a, const agal_upload_result *b)
{
    for (int s = 0; s < 2; s++) {
        const agal_shader *x = &a->shaders[s], *y = &b->shaders[s];
        if (x->words ? !y->words || x->nwords != y->nwords || memcmp(x->words, y->words, x->nwords * 4)
                     : !x->text || !y->text || strcmp(x->text, y->text))
            return false;
    }
    return true;
}

static void single_sampled(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL), *other = agal_context_new(NULL, NULL);
    size_t vn, fn;
    const uint8_t *vb = assemble(ctx, vertex_text, AGAL_VERTEX, 2, &vn);
    const uint8_t *fb = assemble(ctx, fragment_text, AGAL_FRAGMENT, 2, &fn);
    const agal_target targets[] = {AGAL_TARGET_SPIRV, AGAL_TARGET_GLSL, AGAL_TARGET_ESSL3, AGAL_TARGET_WGSL};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        agal_upload_options o = agal_upload_options_init();
        o.target = targets[i];
        agal_upload_result any = agal_upload_result_init(), one = agal_upload_result_init();
        CHECK(agal_upload(other, vb, vn, fb, fn, &o, &any) == AGAL_OK && declares_centroid(&any, o.target),
              "target %d: centroid for any target", (int)o.target);
        o.samples = 1;
        CHECK(agal_upload(ctx, vb, vn, fb, fn, &o, &one) == AGAL_OK && !declares_centroid(&one, o.target) &&
                  one.nvaryings == 2 && !one.varyings[1].centroid && one.program_id != any.program_id,
              "target %d: no centroid for single-sampled targets", (int)o.target);
        if (o.target == AGAL_TARGET_SPIRV)
            CHECK(spirv_check_valid(one.shaders[0].words, one.shaders[0].nwords, "single-sampled vertex") &&
                      spirv_check_valid(one.shaders[1].words, one.shaders[1].nwords, "single-sampled fragment"),
                  "single-sampled SPIR-V valid");
        if (o.target == AGAL_TARGET_GLSL) {
            char log[2048];
            CHECK(glslang_check_gl_link(one.shaders[0].text, one.shaders[1].text, log, sizeof log),
                  "single-sampled GLSL links: %s", log);
        }
        o.samples = 16;
        CHECK(agal_upload(ctx, vb, vn, fb, fn, &o, &one) == AGAL_OK && same_code(&one, &any) &&
                  one.program_id == any.program_id,
              "target %d: 16 samples translate as any count", (int)o.target);
    }
    vb = assemble(ctx, "m44 op, va0, vc0\nmov v0, va1\nmov v1, va2\n", AGAL_VERTEX, 1, &vn);
    fb = assemble(ctx, "tex ft0, v0, fs0 <2d, linear, centroid>\nadd ft0.xy, ft0.xy, v1.xy\nmov oc, ft0\n",
                  AGAL_FRAGMENT, 1, &fn);
    agal_limits webgl2 = agal_limits_init();
    CHECK(agal_limits_preset("webgl2", &webgl2), "webgl2 preset");
    agal_upload_options o = agal_upload_options_init();
    o.target = AGAL_TARGET_ESSL3, o.limits = &webgl2;
    agal_upload_result r = agal_upload_result_init();
    CHECK(agal_upload(ctx, vb, vn, fb, fn, &o, &r) == AGAL_OK && r.nvaryings == 2 && r.varyings[0].packed &&
              r.varyings[0].centroid && r.varyings[0].slot != r.varyings[1].slot,
          "packed for any target: a centroid slot and a centre one");
    o.samples = 1;
    CHECK(agal_upload(ctx, vb, vn, fb, fn, &o, &r) == AGAL_OK && r.nvaryings == 2 && !r.varyings[0].centroid &&
              r.varyings[0].slot == r.varyings[1].slot && !declares_centroid(&r, o.target),
          "packed for single-sampled targets: one slot, no centroid\n%s", r.shaders[1].text ? r.shaders[1].text : "");
    const uint32_t refused[] = {3, 6, 32, 0xffffffffu};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        o.samples = refused[i];
        CHECK(agal_upload(ctx, vb, vn, fb, fn, &o, &r) == AGAL_ERR_ARG, "%u samples refused", refused[i]);
    }
    agal_context_free(ctx);
    agal_context_free(other);
}

/* GLSL ES 1.00: the extensions AGAL2 needs, listed in the result and required in
 * the text; the constants sized to what is read. */
static void es1_extensions(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    size_t vn, fn;
    const uint8_t *vb = assemble(ctx, "m44 op, va0, vc0\nmov v0, va1\n", AGAL_VERTEX, 2, &vn);
    const uint8_t *fb = assemble(ctx,
                                 "ddx ft0, v0\nted ft1, v0, fs0 <2d, linear, miplinear>\nadd ft0, ft0, ft1\n"
                                 "mov oc, ft0\nmov oc1, fc5\nmov fd.x, v0.z\n",
                                 AGAL_FRAGMENT, 2, &fn);
    agal_upload_options o = {.size = sizeof(agal_upload_options), .target = AGAL_TARGET_ESSL1};
    agal_upload_result r = agal_upload_result_init();
    CHECK(agal_upload(ctx, vb, vn, fb, fn, &o, &r) == AGAL_OK, "ES 1.00 extension pair uploads");
    const unsigned all = AGAL_EXT_STANDARD_DERIVATIVES | AGAL_EXT_SHADER_TEXTURE_LOD | AGAL_EXT_FRAG_DEPTH |
                         AGAL_EXT_DRAW_BUFFERS;
    CHECK(r.extensions == all, "extensions 0x%x", r.extensions);
    const char *fs = r.shaders[AGAL_FRAGMENT].text;
    for (unsigned bit = 1; bit <= AGAL_EXT_DRAW_BUFFERS; bit <<= 1) {
        char line[96];
        snprintf(line, sizeof line, "#extension %s : enable\n", agal_extension_name(bit, false));
        CHECK(has(fs, line), "ES 1.00 text lacks %s", line);
    }
    CHECK(!strcmp(agal_extension_name(AGAL_EXT_DRAW_BUFFERS, true), "WEBGL_draw_buffers") &&
              !strcmp(agal_extension_name(AGAL_EXT_STANDARD_DERIVATIVES, true), "OES_standard_derivatives") &&
              !agal_extension_name(16, true),
          "WebGL extension names");
    CHECK(has(fs, "uniform vec4 fc[6];") && has(fs, "gl_FragData[1] = oc1;") && has(fs, "gl_FragDepthEXT = fd.x;") &&
              has(fs, "texture2DLodEXT(fs0, v0.xy, v0.w)"),
          "ES 1.00 fragment:\n%s", fs ? fs : "");
    CHECK(r.nblocks == 2 && r.blocks[0].count == 4 && r.blocks[1].count == 6 && r.blocks[1].size == 96,
          "ES 1.00 arrays: %u, %u vec4s", r.nblocks ? r.blocks[0].count : 0, r.nblocks > 1 ? r.blocks[1].count : 0);
    char log[2048];
    CHECK(glslang_check_gl_link(r.shaders[AGAL_VERTEX].text, fs, log, sizeof log), "ES 1.00 pair links: %s", log);
    agal_context_free(ctx);
}

/* ---- the first failure is Flash's ------------------------------------------------ */

static void expect_failure(agal_context *ctx, const uint8_t *vb, size_t vn, const uint8_t *fb, size_t fn,
                           const agal_upload_options *o, const char *want, const char *name)
{
    agal_upload_result r = agal_upload_result_init();
    agal_status st = agal_upload(ctx, vb, vn, fb, fn, o, &r);
    char line[512] = "uploaded";
    if (st != AGAL_OK && agal_diag_count(ctx)) {
        agal_flash_error e;
        agal_flash_error_of(agal_diag_get(ctx, 0), &e);
        agal_flash_message(&e, line, sizeof line);
    }
    CHECK(st == AGAL_ERR_INVALID && !strcmp(line, want), "%s: %s\n  want %s", name, line, want);
    agal_diag_clear(ctx);
}

static void failures_order(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    size_t gv, gf, bv, bf, lv;
    const uint8_t *good_v = assemble(ctx, "m44 op, va0, vc0\nmov v0, va1\n", AGAL_VERTEX, 1, &gv);
    const uint8_t *good_f = assemble(ctx, "mov oc, v0\n", AGAL_FRAGMENT, 1, &gf);
    const uint8_t *bad_v = assemble(ctx, "mov op, vt0\n", AGAL_VERTEX, 1, &bv);               /* 3647 */
    const uint8_t *bad_f = assemble(ctx, "mov ft0, oc\nmov oc, v0\n", AGAL_FRAGMENT, 1, &bf); /* 3646 */
    const uint8_t *lonely_v = assemble(ctx, "m44 op, va0, vc0\n", AGAL_VERTEX, 1, &lv);       /* writes no v0: 3632 */
    const agal_upload_options o = agal_upload_options_init();
    expect_failure(ctx, bad_v, bv, bad_f, bf, &o,
                   "Error #3647: AGAL validation failed: Temporary register read without being written to for source "
                   "operand 1 at token 1 of vertex program.",
                   "vertex first");
    expect_failure(ctx, good_v, gv, bad_f, bf, &o,
                   "Error #3646: AGAL validation failed: Can not read from output register for source operand 1 at "
                   "token 1 of fragment program.",
                   "then fragment");
    expect_failure(ctx, lonely_v, lv, good_f, gf, &o,
                   "Error #3632: AGAL linkage: Varying 0 is read in the fragment shader but not written to by the "
                   "vertex shader.",
                   "then linkage");
    const agal_upload_options be = {
        .size = sizeof(agal_upload_options), .vertex_big_endian = true, .fragment_big_endian = true};
    expect_failure(ctx, good_v, gv, good_f, gf, &be, "Error #3612: Programs must be in little endian format.", "3612");
    agal_upload_result r = agal_upload_result_init();
    agal_flash_error e = {0};
    if (agal_upload(ctx, good_v, gv, good_f, gf, &be, &r) == AGAL_ERR_INVALID)
        agal_flash_error_of(agal_diag_get(ctx, 0), &e);
    CHECK(e.id == 3612 && !strcmp(agal_flash_class(&e), "ArgumentError"), "3612 is an ArgumentError");
    agal_diag_clear(ctx);
    /* A program in the other slot (Flash's 3631 and 3630). */
    expect_failure(ctx, good_f, gf, good_f, gf, &o, "Error #3631: Vertex shader type is not vertex.", "3631");
    expect_failure(ctx, good_v, gv, good_v, gv, &o, "Error #3630: Fragment shader type is not fragment.", "3630");
    agal_context_free(ctx);
}

/* The line as ActionScript prints String(e): the class, then e.message. */
static void expect_thrown(agal_context *ctx, const void *vb, size_t vn, const void *fb, size_t fn,
                          const agal_upload_options *o, const char *want, const char *name)
{
    agal_upload_result r = agal_upload_result_init();
    agal_status st = agal_upload(ctx, vb, vn, fb, fn, o, &r);
    char thrown[600] = "uploaded";
    const agal_diag *d = agal_diag_count(ctx) ? agal_diag_get(ctx, 0) : NULL;
    if (st != AGAL_OK && d) {
        agal_flash_error e;
        agal_flash_error_of(d, &e);
        agal_flash_line(&e, thrown, sizeof thrown);
    }
    CHECK(st == AGAL_ERR_INVALID && !strcmp(thrown, want), "%s: %s\n  want %s", name, thrown, want);
}

/* Flash's recorded order: an empty ByteArray is 3615 whatever its endian flag (an
 * empty `new ByteArray()` is big-endian), a non-empty big-endian one 3612, each
 * program's flag its own; 3725 before either program is validated. */
static void flash_order(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    size_t gv, gf, v2, f2;
    const uint8_t *good_v = assemble(ctx, "m44 op, va0, vc0\nmov v0, va1\n", AGAL_VERTEX, 1, &gv);
    const uint8_t *good_f = assemble(ctx, "mov oc, v0\n", AGAL_FRAGMENT, 1, &gf);
    const uint8_t *agal2_v = assemble(ctx, "m44 op, va0, vc0\nmov v0, va1\n", AGAL_VERTEX, 2, &v2);
    const uint8_t *agal2_f = assemble(ctx, "mov oc, v0\n", AGAL_FRAGMENT, 2, &f2);
    const uint8_t two[2] = {0xa0, 0x01};
    const agal_upload_options be = {.size = sizeof(agal_upload_options),
                                    .vertex_big_endian = true,
                                    .fragment_big_endian = true},
                              vbe = {.size = sizeof(agal_upload_options), .vertex_big_endian = true},
                              fbe = {.size = sizeof(agal_upload_options), .fragment_big_endian = true};
    expect_thrown(ctx, NULL, 0, good_f, gf, &be,
                  "ArgumentError: Error #3615: AGAL validation failed: Program size below minimum length for  program.",
                  "an empty big-endian program");
    expect_thrown(ctx, NULL, 0, good_f, gf, &vbe,
                  "ArgumentError: Error #3615: AGAL validation failed: Program size below minimum length for  program.",
                  "an empty big-endian vertex program");
    expect_thrown(ctx, two, sizeof two, good_f, gf, &vbe,
                  "ArgumentError: Error #3612: Programs must be in little endian format.", "2 big-endian bytes");
    expect_thrown(ctx, good_v, gv, good_f, gf, &fbe,
                  "ArgumentError: Error #3612: Programs must be in little endian format.",
                  "a big-endian fragment program");
    CHECK(agal_diag_get(ctx, 0)->stage == AGAL_FRAGMENT, "3612 names the fragment program");
    expect_thrown(ctx, two, sizeof two, good_f, gf, &fbe,
                  "Error: Error #3615: AGAL validation failed: Program size below minimum length for vertex program.",
                  "the vertex program's error before the fragment program's endianness");
    agal_upload_result r = agal_upload_result_init();
    CHECK(agal_upload(ctx, good_v, gv, good_f, gf, &vbe, &r) == AGAL_ERR_INVALID, "the vertex flag alone counts");
    CHECK(agal_upload(ctx, good_v, gv, good_f, gf, NULL, &r) == AGAL_OK, "little-endian programs upload");

    const agal_upload_options baseline = {.size = sizeof(agal_upload_options),
                                          .context_profile = AGAL_PROFILE_BASELINE},
                              standard = {.size = sizeof(agal_upload_options),
                                          .context_profile = AGAL_PROFILE_STANDARD};
    const char *want3725 =
        "Error: Error #3725: The requested AGAL version (2) is not valid under the Context3D profile. "
        "For example AGAL version 2 requires standard profile.";
    expect_thrown(ctx, agal2_v, v2, agal2_f, f2, &baseline, want3725, "AGAL 2 on a baseline Context3D");
    expect_thrown(ctx, good_v, gv, agal2_f, f2, &baseline, want3725, "an AGAL 2 fragment program on baseline");
    CHECK(agal_diag_get(ctx, 0)->stage == AGAL_FRAGMENT);
    expect_thrown(ctx, agal2_v, v2, NULL, 0, &baseline, want3725, "3725 before the fragment program's 3615");
    CHECK(agal_upload(ctx, agal2_v, v2, agal2_f, f2, &standard, &r) == AGAL_OK, "AGAL 2 on standard");
    CHECK(agal_upload(ctx, good_v, gv, good_f, gf, &baseline, &r) == AGAL_OK, "AGAL 1 on baseline");
    CHECK(agal_upload(ctx, agal2_v, v2, agal2_f, f2, NULL, &r) == AGAL_OK, "no Context3D profile: no 3725");

    /* The upload's diagnostics are its own: what an earlier call left does not come first. */
    const uint8_t garbage[40] = {0x55};
    const agal_program *none = NULL;
    CHECK(agal_decode(ctx, garbage, sizeof garbage, NULL, &none) == AGAL_ERR_INVALID && agal_diag_count(ctx) == 1);
    size_t ln;
    const uint8_t *lonely_v = assemble(ctx, "m44 op, va0, vc0\n", AGAL_VERTEX, 1, &ln); /* writes no v0 */
    CHECK(agal_upload(ctx, lonely_v, ln, good_f, gf, NULL, &r) == AGAL_ERR_INVALID && agal_diag_count(ctx) == 1 &&
              agal_diag_get(ctx, 0)->flash_id == 3632,
          "the upload's 3632 is diagnostic 0 (%zu diagnostics, the first %d)", agal_diag_count(ctx),
          agal_diag_count(ctx) ? agal_diag_get(ctx, 0)->flash_id : 0);
    agal_context_free(ctx);
}

/* ---- sampler slots ------------------------------------------------------------------ */

static agal_sampler_state state(unsigned wrap, unsigned filter, unsigned mip)
{
    return (agal_sampler_state){(uint8_t)wrap, (uint8_t)filter, (uint8_t)mip};
}

static bool same(agal_sampler s, agal_sampler_state want)
{
    return s.wrap == want.wrap && s.filter == want.filter && s.mipmap == want.mipmap;
}

static void slots(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    size_t n1, n2, n3;
    const uint8_t *plain = assemble(ctx, "tex oc, v0, fs0 <2d, linear, miplinear, repeat>\n", AGAL_FRAGMENT, 1, &n1);
    const uint8_t *ignore =
        assemble(ctx, "tex oc, v0, fs0 <2d, linear, miplinear, repeat, ignoresampler>\n", AGAL_FRAGMENT, 1, &n2);
    const uint8_t *recorded = assemble(ctx, "tex oc, v0, fs0 <2d, clamp, linear, mipnone>\n", AGAL_FRAGMENT, 1, &n3);
    const agal_program *p_plain, *p_ignore, *p_recorded;
    CHECK(agal_decode(ctx, plain, n1, NULL, &p_plain) == AGAL_OK &&
              agal_decode(ctx, ignore, n2, NULL, &p_ignore) == AGAL_OK &&
              agal_decode(ctx, recorded, n3, NULL, &p_recorded) == AGAL_OK,
          "slot programs decode");
    const agal_sampler *tok_plain = &p_plain->tokens[0].s, *tok_ignore = &p_ignore->tokens[0].s;
    const agal_sampler_state token = state(AGAL_WRAP_REPEAT, AGAL_FILTER_LINEAR, AGAL_MIP_LINEAR);
    const agal_sampler_state set = state(AGAL_WRAP_CLAMP_U_REPEAT_V, AGAL_FILTER_ANISO4X, AGAL_MIP_NEAREST);
    const agal_sampler_state unset = state(AGAL_WRAP_CLAMP, AGAL_FILTER_NEAREST, AGAL_MIP_NONE);
    agal_sampler_slots s;

    agal_slots_init(&s);
    CHECK(same(agal_slots_resolve(&s, tok_plain), unset), "a slot never written: clamp, nearest, mipnone");
    agal_slots_set_program(&s, p_plain);
    CHECK(same(agal_slots_resolve(&s, tok_plain), token), "setProgram writes a plain token's state");
    agal_slots_set_state(&s, 0, set);
    CHECK(same(agal_slots_resolve(&s, tok_plain), set), "setSamplerStateAt after setProgram wins");
    agal_slots_set_program(&s, p_plain);
    CHECK(same(agal_slots_resolve(&s, tok_plain), token), "setProgram again writes the token's state over it");

    agal_slots_init(&s);
    agal_slots_set_program(&s, p_ignore);
    CHECK(same(agal_slots_resolve(&s, tok_ignore), unset), "ignoresampler, nothing set: the slot's default");
    agal_slots_set_state(&s, 0, set);
    agal_slots_set_program(&s, p_ignore);
    CHECK(same(agal_slots_resolve(&s, tok_ignore), set), "ignoresampler keeps what setSamplerStateAt wrote before");
    agal_slots_set_program(&s, p_plain);
    agal_slots_set_program(&s, p_ignore);
    CHECK(same(agal_slots_resolve(&s, tok_ignore), token), "ignoresampler keeps what a plain setProgram wrote");
    agal_sampler resolved = agal_slots_resolve(&s, tok_ignore);
    CHECK(resolved.dim == tok_ignore->dim && resolved.special == tok_ignore->special &&
              resolved.format == tok_ignore->format,
          "dimension, format and flags come from the token");
    agal_slots_set_state(&s, 16, set);
    agal_slots_set_state(&s, 0, state(9, 0, 0));
    CHECK(same(agal_slots_resolve(&s, tok_ignore), token), "a slot or value out of range is ignored");

    /* Flash Player's stage3d_sampler screenshot: one setProgram of a plain token
     * <2d,clamp,linear,mipnone>, then setSamplerStateAt before each of 8 draws (2
     * filters x 4 wraps): each draw samples with its own state. */
    agal_slots_init(&s);
    agal_slots_set_program(&s, p_recorded);
    for (unsigned draw = 0; draw < 8; draw++) {
        agal_sampler_state want = state(draw % 4, draw / 4 ? AGAL_FILTER_LINEAR : AGAL_FILTER_NEAREST, AGAL_MIP_NONE);
        agal_slots_set_state(&s, 0, want);
        CHECK(same(agal_slots_resolve(&s, &p_recorded->tokens[0].s), want), "recorded draw %u", draw);
    }
    agal_context_free(ctx);
}

static void names(void)
{
    static const struct {
        const char *name;
        agal_profile p;
    } cases[] = {
        {"baseline", AGAL_PROFILE_BASELINE},          {"baselineConstrained", AGAL_PROFILE_BASELINE},
        {"baselineExtended", AGAL_PROFILE_BASELINE},  {"standardConstrained", AGAL_PROFILE_STANDARD},
        {"standard", AGAL_PROFILE_STANDARD},          {"standardExtended", AGAL_PROFILE_STANDARD_EXTENDED},
        {"enhanced", AGAL_PROFILE_STANDARD_EXTENDED}, {"standard_extended", AGAL_PROFILE_STANDARD_EXTENDED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        agal_profile p = AGAL_PROFILE_AUTO;
        CHECK(agal_profile_find(cases[i].name, &p) && p == cases[i].p, "profile %s", cases[i].name);
    }
    agal_profile p;
    CHECK(!agal_profile_find("Standard", &p) && !agal_profile_find("", &p), "profile names are exact");
    CHECK(!strcmp(agal_version(), "0.3.0"), "version %s", agal_version());
}

/* agal_upload_result.tokens is what the tokens use, dead code included, as Flash's
 * checks count it; each binding is what its translation declares: a ddx whose
 * result nothing reads is in the first and not in the second. */
static void token_flags(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    size_t vn, fn;
    const uint8_t *vb = assemble(ctx, "m44 op, va0, vc0\nmov v0, va1\n", AGAL_VERTEX, 2, &vn);
    const uint8_t *fb = assemble(ctx, "ddx ft1, v0\nkil v0.x\nmov oc, v0\n", AGAL_FRAGMENT, 2, &fn);
    agal_upload_result r = agal_upload_result_init();
    CHECK(agal_upload(ctx, vb, vn, fb, fn, NULL, &r) == AGAL_OK, "token flag pair uploads");
    const agal_binding *f = &r.shaders[AGAL_FRAGMENT].binding;
    CHECK(r.tokens.uses_derivatives && !f->uses_derivatives, "dead ddx: tokens %d, binding %d",
          r.tokens.uses_derivatives, f->uses_derivatives);
    CHECK(r.tokens.uses_kil && f->uses_kil, "kil: tokens %d, binding %d", r.tokens.uses_kil, f->uses_kil);
    CHECK(!r.tokens.writes_depth && !r.tokens.uses_iid, "no fd, no iid: %d %d", r.tokens.writes_depth,
          r.tokens.uses_iid);
    agal_context_free(ctx);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_upload SHADERS_DIR\n");
        return 2;
    }
    glslang_check_init();
    unsigned pairs = upload_corpus(argv[1]);
    CHECK(pairs >= 32, "only %u corpus pairs", pairs);
    layout();
    single_sampled();
    es1_extensions();
    token_flags();
    failures_order();
    flash_order();
    slots();
    names();
    glslang_check_fini();
    printf("upload: %u corpus pairs, %d failures\n", pairs, failures);
    return failures != 0;
}
