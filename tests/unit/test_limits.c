/* test_limits.c: a device's limits as input (agal_limits) and the one refusal.
 * - every preset holds the values its source table gives (docs/binding-models.md,
 *   "Limits"), and only the named presets exist;
 * - the JSON form: a good file, an unknown key, values of the wrong type, out of
 *   range, text after the object, each refused with a diagnostic naming it;
 * - the refusal: a pair needing 9 samplers under webgl1, a vertex program reading va8
 *   (AGAL 3) under webgl1, 17 constant registers (or 16 and GLSL's y flip) under 16
 *   uniform vectors, a relative read past them (fitting with AGAL_CLIP_CONTROL's
 *   vertex program, which has no flip), 9 varyings under webgl1 and 8 under
 *   wgpu's 31 components: AGAL_ERR_UNSUPPORTED, no output, one diagnostic (Flash's
 *   3613) with the exact text; the same programs within looser limits translate;
 * - constant ranges: fc60 under 16 uniform vectors, runs of registers on every
 *   target and a pair (vc200, fc60) under webgl1 declare only the registers read,
 *   packed, with the ranges in the binding, which agal_binding_block_gather follows;
 *   without limits a block is one range from register 0;
 * - limits that fit change nothing: every corpus program's output, for every target,
 *   is byte-identical with no limits, unlimited ones and the loosest preset.
 *
 *   test_limits SHADERS_DIR */
#include "agal/agal.h"
#include "agal/stage3d.h"
#include "agal/text.h"
#include "check.h"

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

static const agal_program *program(agal_context *ctx, const char *text, agal_stage stage, uint32_t version)
{
    size_t n = 0;
    const uint8_t *b = assemble(ctx, text, stage, version, &n);
    const agal_program *p = NULL;
    agal_decode_options o = agal_decode_options_init();
    o.slot = stage == AGAL_VERTEX ? AGAL_SLOT_VERTEX : AGAL_SLOT_FRAGMENT;
    CHECK(b && agal_decode(ctx, b, n, &o, &p) == AGAL_OK, "decodes: %s", text);
    return p;
}

static agal_limits preset(const char *name)
{
    agal_limits l = agal_limits_init();
    CHECK(agal_limits_preset(name, &l), "preset %s", name);
    return l;
}

/* ---- the presets ------------------------------------------------------------------ */

/* The values of each source table (docs/binding-models.md, "Limits"), in the struct's
 * order: varying vectors, components, inter-stage variables, vertex and fragment
 * uniform vectors, vertex and fragment texture units, attributes, colour attachments. */
static const struct {
    const char *name;
    uint32_t v[9];
} cited[] = {
    {"webgl1", {8, 0, 0, 128, 16, AGAL_LIMIT_NONE, 8, 8, 1}},
    {"webgl2", {15, 60, 0, 256, 224, 16, 16, 16, 4}},
    {"gl33", {0, 60, 0, 256, 256, 16, 16, 16, 8}},
    {"vulkan", {0, 64, 0, 1024, 1024, 16, 16, 16, 4}},
    {"webgpu", {0, 0, 16, 4096, 4096, 16, 16, 16, 8}},
    {"webgpu-compat", {0, 0, 15, 1024, 1024, 16, 16, 16, 4}},
    {"wgpu-gl31", {0, 31, 0, 1024, 1024, 16, 16, 16, 4}},
};

static void test_presets(void)
{
    size_t n = 0;
    while (agal_limits_preset_name(n)) n++;
    CHECK(n == sizeof cited / sizeof cited[0], "%zu presets", n);
    for (size_t i = 0; i < sizeof cited / sizeof cited[0]; i++) {
        agal_limits l = preset(cited[i].name);
        const uint32_t got[9] = {l.varying_vectors,        l.varying_components,       l.interstage_variables,
                                 l.vertex_uniform_vectors, l.fragment_uniform_vectors, l.vertex_texture_units,
                                 l.fragment_texture_units, l.vertex_attributes,        l.color_attachments};
        for (int k = 0; k < 9; k++)
            CHECK(got[k] == cited[i].v[k], "%s field %d: %u, cited %u", cited[i].name, k, got[k], cited[i].v[k]);
        CHECK(l.name && !strcmp(l.name, cited[i].name), "%s names itself", cited[i].name);
        CHECK(!strcmp(agal_limits_preset_name(i), cited[i].name), "preset %zu is %s", i, cited[i].name);
    }
    agal_limits l = agal_limits_init();
    CHECK(!agal_limits_preset("webgl3", &l) && l.varying_vectors == 0, "no preset webgl3");
    CHECK(!agal_limits_preset(NULL, &l), "no preset NULL");
    /* a caller's older, shorter struct: only its bytes are written */
    struct {
        agal_limits l;
        uint32_t guard;
    } shorter = {.l = agal_limits_init(), .guard = 0xdeadbeef};
    shorter.l.size = (uint32_t)offsetof(agal_limits, vertex_attributes);
    CHECK(agal_limits_preset("webgl1", &shorter.l) && shorter.l.fragment_texture_units == 8 &&
              shorter.l.vertex_attributes == 0 && shorter.guard == 0xdeadbeef,
          "a shorter struct gets its own fields only");
}

/* ---- the JSON form ----------------------------------------------------------------- */

static agal_status json(agal_context *ctx, const char *text, agal_limits *out)
{
    *out = agal_limits_init();
    agal_diag_clear(ctx);
    return agal_limits_from_json(ctx, text, strlen(text), out);
}

static void refused_json(agal_context *ctx, const char *text, const char *message)
{
    agal_limits l;
    agal_status st = json(ctx, text, &l);
    CHECK(st == AGAL_ERR_INVALID, "refused: %s", text);
    CHECK(agal_diag_count(ctx) == 1 && !strcmp(agal_diag_get(ctx, 0)->message, message), "%s: \"%s\"", text,
          agal_diag_count(ctx) ? agal_diag_get(ctx, 0)->message : "(none)");
}

static void test_json(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    agal_limits l;
    CHECK(json(ctx,
               " {\"name\": \"phone\", \"varying_vectors\": 8, \"fragment_uniform_vectors\": 16,\n"
               "  \"vertex_texture_units\": 0, \"fragment_texture_units\": 8, \"color_attachments\": 1 } \n",
               &l) == AGAL_OK,
          "a good file reads");
    CHECK(l.name && !strcmp(l.name, "phone"), "its name");
    CHECK(l.varying_vectors == 8 && l.fragment_uniform_vectors == 16 && l.fragment_texture_units == 8 &&
              l.color_attachments == 1,
          "its counts");
    CHECK(l.vertex_texture_units == AGAL_LIMIT_NONE, "0 is none");
    CHECK(l.varying_components == 0 && l.vertex_attributes == 0 && l.vertex_uniform_vectors == 0,
          "a key left out is unlimited");
    CHECK(json(ctx, "{}", &l) == AGAL_OK && l.name == NULL && l.varying_vectors == 0, "an empty object");
    CHECK(json(ctx, "{\"vertex_attributes\": 65535}", &l) == AGAL_OK && l.vertex_attributes == 65535, "65535");
    refused_json(ctx, "{\"varying_vector\": 8}", "limits JSON, byte 1: unknown key \"varying_vector\"");
    refused_json(ctx, "{\"size\": 8}", "limits JSON, byte 1: unknown key \"size\"");
    refused_json(ctx, "{\"varying_vectors\": \"8\"}", "limits JSON, byte 20: a count is an integer from 0 to 65535");
    refused_json(ctx, "{\"varying_vectors\": true}", "limits JSON, byte 20: a count is an integer from 0 to 65535");
    refused_json(ctx, "{\"varying_vectors\": 8.5}", "limits JSON, byte 20: a count is an integer from 0 to 65535");
    refused_json(ctx, "{\"varying_vectors\": -1}", "limits JSON, byte 20: a count is an integer from 0 to 65535");
    refused_json(ctx, "{\"varying_vectors\": 65536}", "limits JSON, byte 20: a count is an integer from 0 to 65535");
    refused_json(ctx, "{\"varying_vectors\": 99999999999}",
                 "limits JSON, byte 20: a count is an integer from 0 to 65535");
    refused_json(ctx, "{\"name\": 8}", "limits JSON, byte 9: a string was expected");
    refused_json(ctx, "{\"varying_vectors\": 8", "limits JSON, byte 21: ',' or '}' was expected");
    refused_json(ctx, "{} {}", "limits JSON, byte 3: text follows the object");
    refused_json(ctx, "[8]", "limits JSON, byte 0: an object was expected");
    refused_json(ctx, "", "limits JSON, byte 0: an object was expected");
    /* a refused file writes nothing */
    l = agal_limits_init();
    l.varying_vectors = 3;
    agal_diag_clear(ctx);
    const char *bad = "{\"varying_vectors\": 9, \"x\": 1}";
    CHECK(agal_limits_from_json(ctx, bad, strlen(bad), &l) == AGAL_ERR_INVALID && l.varying_vectors == 3,
          "a refused file leaves *out");
    agal_limits zero;
    memset(&zero, 0, sizeof zero);
    CHECK(agal_limits_from_json(ctx, "{}", 2, &zero) == AGAL_ERR_ARG, "size 0 is AGAL_ERR_ARG");
    agal_context_free(ctx);
}

/* ---- the refusal ------------------------------------------------------------------- */

/* One diagnostic, Flash's 3613, with this text; Flash's own line for it. */
static void one_refusal(agal_context *ctx, const char *message, const char *what)
{
    CHECK(agal_diag_count(ctx) == 1, "%s: %zu diagnostics", what, agal_diag_count(ctx));
    if (!agal_diag_count(ctx)) return;
    const agal_diag *d = agal_diag_get(ctx, 0);
    CHECK(d->flash_id == 3613 && !strcmp(d->message, message), "%s: %d \"%s\"", what, d->flash_id, d->message);
    agal_flash_error e;
    agal_flash_error_of(d, &e);
    char line[160];
    agal_flash_line(&e, line, sizeof line);
    CHECK(!strcmp(line, "Error: Error #3613: The native shader compilation failed."), "%s: %s", what, line);
}

/* A fragment program sampling fs0 .. fs<n-1>, every sample feeding oc. */
static char *sampling(unsigned n)
{
    static char text[1024];
    size_t at = (size_t)snprintf(text, sizeof text, "tex ft0, v0, fs0 <2d,linear>\n");
    for (unsigned i = 1; i < n; i++)
        at += (size_t)snprintf(text + at, sizeof text - at, "tex ft1, v0, fs%u <2d,linear>\nadd ft0, ft0, ft1\n", i);
    snprintf(text + at, sizeof text - at, "mov oc, ft0\n");
    return text;
}

static agal_status upload(agal_context *ctx, const char *vtext, const char *ftext, uint32_t version, agal_target target,
                          const agal_limits *limits, agal_upload_result *r)
{
    size_t vn, fn;
    const uint8_t *vb = assemble(ctx, vtext, AGAL_VERTEX, version, &vn);
    const uint8_t *fb = assemble(ctx, ftext, AGAL_FRAGMENT, version, &fn);
    agal_upload_options o = agal_upload_options_init();
    o.target = target;
    o.limits = limits;
    *r = agal_upload_result_init();
    return agal_upload(ctx, vb, vn, fb, fn, &o, r);
}

static void test_samplers(agal_context *ctx)
{
    const char *vs = "mov op, va0\nmov v0, va1\n";
    agal_limits webgl1 = preset("webgl1"), webgl2 = preset("webgl2");
    agal_upload_result r;
    CHECK(upload(ctx, vs, sampling(9), 2, AGAL_TARGET_ESSL1, &webgl1, &r) == AGAL_ERR_UNSUPPORTED, "9 samplers");
    one_refusal(ctx, "fragment program: 9 texture units needed, the limits allow 8 (webgl1)", "9 samplers");
    CHECK(!r.shaders[AGAL_VERTEX].text && !r.shaders[AGAL_FRAGMENT].text, "a refused pair has no text");
    for (agal_target t = AGAL_TARGET_SPIRV; t <= AGAL_TARGET_WGSL; t++) { /* the same text on every target */
        if (t == AGAL_TARGET_IR) continue;
        CHECK(upload(ctx, vs, sampling(9), 2, t, &webgl1, &r) == AGAL_ERR_UNSUPPORTED, "9 samplers, target %d", t);
        one_refusal(ctx, "fragment program: 9 texture units needed, the limits allow 8 (webgl1)", "every target");
        CHECK(!r.shaders[AGAL_FRAGMENT].words && !r.shaders[AGAL_FRAGMENT].text, "no output, target %d", t);
    }
    CHECK(upload(ctx, vs, sampling(8), 2, AGAL_TARGET_ESSL1, &webgl1, &r) == AGAL_OK && r.nsamplers == 8,
          "8 samplers fit webgl1");
    agal_limits zero;
    memset(&zero, 0, sizeof zero);
    CHECK(upload(ctx, vs, sampling(9), 2, AGAL_TARGET_ESSL1, &zero, &r) == AGAL_ERR_ARG && !r.vertex,
          "limits of size 0: AGAL_ERR_ARG before decoding");
    CHECK(upload(ctx, vs, sampling(9), 2, AGAL_TARGET_ESSL1, &webgl2, &r) == AGAL_OK && r.shaders[AGAL_FRAGMENT].text,
          "9 samplers fit webgl2");
}

/* A fragment program adding n constants, fc0, fc3, fc6, ... (3 apart), into oc; the
 * first read through op (mov, or ddy, which declares GLSL's y flip). */
static const char *spread_reads(unsigned n, const char *op)
{
    static char text[2048];
    size_t at = (size_t)snprintf(text, sizeof text, "%s ft0, fc0\n", op);
    for (unsigned i = 1; i < n; i++) at += (size_t)snprintf(text + at, sizeof text - at, "add ft0, ft0, fc%u\n", 3 * i);
    snprintf(text + at, sizeof text - at, "mov oc, ft0\n");
    return text;
}

static agal_status translate_clip(agal_context *ctx, const agal_program *p, agal_target target, agal_clip clip,
                                  const agal_limits *limits, agal_shader *out)
{
    agal_translate_options o = agal_translate_options_init();
    o.target = target;
    o.clip = clip;
    o.limits = limits;
    *out = agal_shader_init();
    agal_diag_clear(ctx);
    return agal_translate(ctx, p, &o, out);
}

static agal_status translate(agal_context *ctx, const agal_program *p, agal_target target, const agal_limits *limits,
                             agal_shader *out)
{
    return translate_clip(ctx, p, target, AGAL_CLIP_DEFAULT, limits, out);
}

static void test_attributes_and_constants(agal_context *ctx)
{
    agal_limits webgl1 = preset("webgl1");
    agal_shader s;
    const agal_program *va8 = program(ctx, "add op, va0, va8\n", AGAL_VERTEX, 3);
    CHECK(translate(ctx, va8, AGAL_TARGET_ESSL1, &webgl1, &s) == AGAL_ERR_UNSUPPORTED && !s.text, "va8");
    one_refusal(ctx, "vertex program: 9 vertex attributes needed, the limits allow 8 (webgl1)", "va8");
    const agal_program *va7 = program(ctx, "add op, va0, va7\n", AGAL_VERTEX, 3);
    CHECK(translate(ctx, va7, AGAL_TARGET_ESSL1, &webgl1, &s) == AGAL_OK && s.text, "va7 fits webgl1");

    /* 16 registers read past 16 allowed: packed, still 16 + the flip */
    agal_limits sixteen = agal_limits_init();
    sixteen.fragment_uniform_vectors = 16;
    const agal_program *many = program(ctx, spread_reads(16, "mov"), AGAL_FRAGMENT, 2);
    CHECK(translate(ctx, many, AGAL_TARGET_ESSL1, &sixteen, &s) == AGAL_OK, "16 spread registers fit 16");
    const agal_program *more = program(ctx, spread_reads(17, "mov"), AGAL_FRAGMENT, 2);
    CHECK(translate(ctx, more, AGAL_TARGET_SPIRV, &sixteen, &s) == AGAL_ERR_UNSUPPORTED && !s.words, "17 registers");
    one_refusal(ctx, "fragment program: 17 uniform vectors needed, the limits allow 16", "17 spread registers");
    const agal_program *flip = program(ctx, spread_reads(16, "ddy"), AGAL_FRAGMENT, 2);
    CHECK(translate(ctx, flip, AGAL_TARGET_SPIRV, &sixteen, &s) == AGAL_OK, "16 and SPIR-V's flip fit 16");
    CHECK(translate(ctx, flip, AGAL_TARGET_ESSL1, &sixteen, &s) == AGAL_ERR_UNSUPPORTED && !s.text, "16 and the flip");
    one_refusal(ctx, "fragment program: 17 uniform vectors needed, the limits allow 16", "16 and GLSL's flip");
    const agal_program *fc15 = program(ctx, "mov oc, fc15\n", AGAL_FRAGMENT, 2);
    CHECK(translate(ctx, fc15, AGAL_TARGET_ESSL1, &sixteen, &s) == AGAL_OK, "fc15 fits 16");
    /* a relative read needs the whole register file: 128 vc in AGAL 1, webgl1's 128;
     * GLSL's y-flip uniform is one vector more, SPIR-V's spec constant none */
    const agal_program *rel = program(ctx, "mov vt0, va0\nmov op, vc[vt0.x+1]\n", AGAL_VERTEX, 1);
    CHECK(translate(ctx, rel, AGAL_TARGET_SPIRV, &webgl1, &s) == AGAL_OK, "AGAL 1's relative vc fits 128 in SPIR-V");
    CHECK(translate(ctx, rel, AGAL_TARGET_WGSL, &webgl1, &s) == AGAL_OK, "and in WGSL");
    CHECK(translate(ctx, rel, AGAL_TARGET_ESSL1, &webgl1, &s) == AGAL_ERR_UNSUPPORTED, "128 vc and the flip in ES");
    one_refusal(ctx, "vertex program: 129 uniform vectors needed, the limits allow 128 (webgl1)", "relative");
    CHECK(translate_clip(ctx, rel, AGAL_TARGET_ESSL1, AGAL_CLIP_CONTROL, &webgl1, &s) == AGAL_OK && !s.binding.yflip,
          "with clip control, ES declares no flip: 128 vc fit");
    agal_limits few = agal_limits_init();
    few.vertex_uniform_vectors = 127;
    CHECK(translate(ctx, rel, AGAL_TARGET_SPIRV, &few, &s) == AGAL_ERR_UNSUPPORTED, "a relative read");
    one_refusal(ctx, "vertex program: 128 uniform vectors needed, the limits allow 127", "relative");
    /* a fragment program declares the flip only for ddy */
    const agal_program *ddy14 = program(ctx, "ddy ft0, fc14\nmov oc, ft0\n", AGAL_FRAGMENT, 2);
    CHECK(translate(ctx, ddy14, AGAL_TARGET_ESSL1, &sixteen, &s) == AGAL_OK, "fc14 and the flip fit 16");
    const agal_program *ddy15 = program(ctx, "ddy ft0, fc15\nmov oc, ft0\n", AGAL_FRAGMENT, 2);
    CHECK(translate(ctx, ddy15, AGAL_TARGET_ESSL1, &sixteen, &s) == AGAL_OK && s.binding.constants->count == 1,
          "fc15 and the flip: fc15 packed into one vector");
    CHECK(translate(ctx, ddy15, AGAL_TARGET_SPIRV, &sixteen, &s) == AGAL_OK && s.binding.constants->count == 64,
          "no flip uniform in SPIR-V: fc15 fits as it is");
    /* WebGL 1 has no vertex texture unit; a vertex program samples none */
    CHECK(webgl1.vertex_texture_units == AGAL_LIMIT_NONE, "webgl1 has no vertex texture units");
    CHECK(translate(ctx, va7, AGAL_TARGET_SPIRV, &webgl1, &s) == AGAL_OK && s.words, "none needed, none allowed");
    /* two colour outputs under one */
    const agal_program *mrt = program(ctx, "mov oc0, fc0\nmov oc1, fc1\n", AGAL_FRAGMENT, 2);
    CHECK(translate(ctx, mrt, AGAL_TARGET_GLSL, &webgl1, &s) == AGAL_ERR_UNSUPPORTED, "oc1");
    one_refusal(ctx, "fragment program: 2 colour attachments needed, the limits allow 1 (webgl1)", "oc1");
    /* a struct without its size */
    agal_limits zero;
    memset(&zero, 0, sizeof zero);
    CHECK(translate(ctx, va7, AGAL_TARGET_GLSL, &zero, &s) == AGAL_ERR_ARG, "limits of size 0");
}

static bool has(const agal_shader *s, const char *what) { return s->text && strstr(s->text, what); }

static bool range_is(const agal_binding_block *b, size_t i, uint32_t first, uint32_t count, uint32_t offset)
{
    return i < b->nranges && b->ranges[i].first == first && b->ranges[i].count == count &&
           b->ranges[i].offset == offset;
}

/* fc60 under 16 uniform vectors, and the corpus's fc150 and fc199 under webgl1: each
 * declared array holds only the registers read, packed, and the ranges say where. */
static void test_packed_fragment(agal_context *ctx)
{
    agal_limits sixteen = agal_limits_init();
    sixteen.fragment_uniform_vectors = 16;
    agal_shader s;
    const agal_program *fc60 = program(ctx, "mov oc, fc60\n", AGAL_FRAGMENT, 2);
    CHECK(translate(ctx, fc60, AGAL_TARGET_ESSL1, &sixteen, &s) == AGAL_OK, "fc60 fits 16 once packed");
    const agal_binding_block *k = s.binding.constants;
    CHECK(k && k->count == 1 && k->size == 16 && k->nranges == 1 && range_is(k, 0, 60, 1, 0), "fc60: vec4 0");
    CHECK(has(&s, "uniform vec4 fc[1];") && has(&s, "fc[0]") && !has(&s, "fc[60]"), "fc60's text: %s", s.text);
    const char *runs = "mov ft0, fc3\nadd ft0, ft0, fc4\nm44 ft1, ft0, fc60\nadd oc, ft1, fc20\n";
    const agal_program *p = program(ctx, runs, AGAL_FRAGMENT, 2);
    for (agal_target t = AGAL_TARGET_SPIRV; t <= AGAL_TARGET_WGSL; t++) {
        if (t == AGAL_TARGET_IR) continue;
        CHECK(translate(ctx, p, t, &sixteen, &s) == AGAL_OK, "three runs, target %d", t);
        k = s.binding.constants;
        CHECK(k && k->count == 7 && k->nranges == 3 && range_is(k, 0, 3, 2, 0) && range_is(k, 1, 20, 1, 2) &&
                  range_is(k, 2, 60, 4, 3),
              "fc3..4, fc20, fc60..63 in vec4s 0..6, target %d", t);
    }
    CHECK(has(&s, "array<vec4f, 7>") && has(&s, "fc[6]") && !has(&s, "fc[63]"), "WGSL indexes the packed array");
    /* the block's contents from the register file */
    float regs[64][4], block[7][4];
    for (int r = 0; r < 64; r++)
        for (int c = 0; c < 4; c++) regs[r][c] = (float)(4 * r + c);
    agal_binding_block_gather(k, &regs[0][0], &block[0][0]);
    CHECK(block[0][0] == 12 && block[1][3] == 19 && block[2][0] == 80 && block[3][0] == 240 && block[6][3] == 255,
          "gathered: fc3, fc4, fc20, fc60..63");
    /* a relative read keeps the whole file, and the registers read directly with it */
    agal_limits few = agal_limits_init();
    few.vertex_uniform_vectors = 100;
    const agal_program *rel = program(ctx, "mov vt0, va0\nmov vt1, vc120\nadd op, vc[vt0.x+1], vt1\n", AGAL_VERTEX, 1);
    CHECK(translate(ctx, rel, AGAL_TARGET_SPIRV, &few, &s) == AGAL_ERR_UNSUPPORTED, "relative vc and vc120");
    one_refusal(ctx, "vertex program: 128 uniform vectors needed, the limits allow 100", "relative vc and vc120");
    /* without limits: one range, register n in vec4 n, as before */
    CHECK(translate(ctx, p, AGAL_TARGET_GLSL, NULL, &s) == AGAL_OK && s.binding.constants->count == 64 &&
              s.binding.constants->nranges == 1 && range_is(s.binding.constants, 0, 0, 64, 0),
          "no limits: one range of the whole file");
    CHECK(translate(ctx, p, AGAL_TARGET_ESSL1, NULL, &s) == AGAL_OK && range_is(s.binding.constants, 0, 0, 64, 0),
          "no limits, ES 1.00: the registers up to the highest read");
}

/* A pair under webgl1 whose vertex program reads vc200 (AGAL 2's 250) and whose
 * fragment program reads fc60: both packed, each block its own ranges. */
static void test_packed_pair(agal_context *ctx)
{
    agal_limits webgl1 = preset("webgl1");
    agal_upload_result r;
    const char *vs = "m44 op, va0, vc200\nmov v0, vc7\n", *fs = "add oc, v0, fc60\n";
    CHECK(upload(ctx, vs, fs, 2, AGAL_TARGET_ESSL1, &webgl1, &r) == AGAL_OK && r.nblocks == 2, "the pair fits webgl1");
    CHECK(r.blocks[0].stage == AGAL_VERTEX && r.blocks[0].count == 5 && range_is(&r.blocks[0], 0, 7, 1, 0) &&
              range_is(&r.blocks[0], 1, 200, 4, 1),
          "vc7, vc200..203 in vec4s 0..4");
    CHECK(r.blocks[1].stage == AGAL_FRAGMENT && r.blocks[1].count == 1 && range_is(&r.blocks[1], 0, 60, 1, 0),
          "fc60 in vec4 0");
    CHECK(upload(ctx, vs, fs, 2, AGAL_TARGET_ESSL1, NULL, &r) == AGAL_OK && r.blocks[0].count == 204 &&
              r.blocks[1].count == 61,
          "no limits: ES 1.00 declares up to the highest register, as before");
}

/* A pair passing n varyings, each read. */
static void varyings(unsigned n, char *vs, char *fs, size_t size)
{
    size_t v = (size_t)snprintf(vs, size, "mov op, va0\n"), f = (size_t)snprintf(fs, size, "mov ft0, v0\n");
    for (unsigned i = 0; i < n; i++) v += (size_t)snprintf(vs + v, size - v, "mov v%u, va0\n", i);
    for (unsigned i = 1; i < n; i++) f += (size_t)snprintf(fs + f, size - f, "add ft0, ft0, v%u\n", i);
    snprintf(fs + f, size - f, "mov oc, ft0\n");
}

static void test_varyings(agal_context *ctx)
{
    char vs[512], fs[512];
    agal_upload_result r;
    agal_limits webgl1 = preset("webgl1"), gl31 = preset("wgpu-gl31");
    varyings(9, vs, fs, sizeof vs);
    CHECK(upload(ctx, vs, fs, 2, AGAL_TARGET_ESSL1, &webgl1, &r) == AGAL_ERR_UNSUPPORTED, "9 varyings");
    one_refusal(ctx, "vertex program: 9 varying vectors needed, the limits allow 8 (webgl1)", "9 varyings");
    varyings(8, vs, fs, sizeof vs);
    CHECK(upload(ctx, vs, fs, 2, AGAL_TARGET_ESSL1, &webgl1, &r) == AGAL_OK, "8 varyings fit webgl1");
    /* Ruffle's "32 inter-stage components above the limit of 31", refused before a driver sees it */
    CHECK(upload(ctx, vs, fs, 2, AGAL_TARGET_WGSL, &gl31, &r) == AGAL_ERR_UNSUPPORTED, "8 varyings, 31 components");
    one_refusal(ctx, "vertex program: 32 varying components needed, the limits allow 31 (wgpu-gl31)", "31");
    varyings(7, vs, fs, sizeof vs);
    CHECK(upload(ctx, vs, fs, 2, AGAL_TARGET_WGSL, &gl31, &r) == AGAL_OK, "7 varyings fit 31 components");
    /* WebGPU numbers varyings by location: packed, v9 alone is slot 0, v3 and v9 whole two */
    agal_limits one = agal_limits_init();
    one.interstage_variables = 1;
    CHECK(upload(ctx, "mov op, va0\nmov v9, va0\n", "mov oc, v9\n", 2, AGAL_TARGET_WGSL, &one, &r) == AGAL_OK,
          "v9 packed fits 1 inter-stage variable");
    CHECK(r.nvaryings == 1 && r.varyings[0].location == 9 && r.varyings[0].packed && r.varyings[0].slot == 0,
          "v9 went to slot 0");
    CHECK(upload(ctx, "mov op, va0\nmov v3, va0\nmov v9, va0\n", "add oc, v3, v9\n", 2, AGAL_TARGET_WGSL, &one, &r) ==
              AGAL_ERR_UNSUPPORTED,
          "v3 and v9 under 1 variable");
    one_refusal(ctx, "vertex program: 2 inter-stage variables needed, the limits allow 1", "v3 v9");
}

/* n varyings of which the fragment program reads `width` components each: .x, .xy, ... */
static void partial_varyings(unsigned n, unsigned width, char *vs, char *fs, size_t size)
{
    static const char *const sel[] = {"", "x", "xy", "xyz", "xyzw"};
    size_t v = (size_t)snprintf(vs, size, "mov op, va0\n"), f = (size_t)snprintf(fs, size, "mov ft0, fc0\n");
    for (unsigned i = 0; i < n; i++) v += (size_t)snprintf(vs + v, size - v, "mov v%u, va%u\n", i, i % 8);
    for (unsigned i = 0; i < n; i++)
        f += (size_t)snprintf(fs + f, size - f, "add ft0.%s, ft0.%s, v%u.%s\n", sel[width], sel[width], i, sel[width]);
    snprintf(fs + f, size - f, "mov oc, ft0\n");
}

/* Packed (lower_pack_varyings.c): 10 varyings read in part fit WebGL 1's 8 vectors,
 * and every stage declares the same slots, as wide as they carry. */
static void test_packing(agal_context *ctx)
{
    char vs[1024], fs[1024];
    agal_upload_result r;
    agal_limits webgl1 = preset("webgl1"), gl31 = preset("wgpu-gl31");
    partial_varyings(10, 2, vs, fs, sizeof vs);
    CHECK(upload(ctx, vs, fs, 2, AGAL_TARGET_ESSL1, NULL, &r) == AGAL_OK, "10 varyings unlimited");
    CHECK(r.nvaryings == 10 && !r.varyings[9].packed && r.varyings[9].width == 4, "unpacked without limits");
    CHECK(upload(ctx, vs, fs, 2, AGAL_TARGET_ESSL1, &webgl1, &r) == AGAL_OK, "10 varyings of 2 fit webgl1");
    CHECK(r.nvaryings == 10, "10 varyings carried: %zu", r.nvaryings);
    for (size_t i = 0; i < r.nvaryings; i++) {
        const agal_binding_varying *b = &r.varyings[i];
        CHECK(b->packed && b->location == i && b->slot == i / 2 && b->component == 2 * (i % 2) && b->carried == 3 &&
                  b->width == 4,
              "v%zu: slot %u component %u carried %u width %u", i, b->slot, b->component, b->carried, b->width);
    }
    const char *text = r.shaders[AGAL_FRAGMENT].text;
    CHECK(strstr(text, "varying vec4 agal_pack4;") && !strstr(text, "agal_pack5") && !strstr(text, " v0;"),
          "5 slots declared: %s", text);
    agal_reflection refl;
    CHECK(agal_reflect(ctx, r.fragment, &refl) == AGAL_OK, "reflect");
    refl.gl = &r.shaders[AGAL_FRAGMENT].binding;
    const char *json = agal_reflect_json(ctx, &refl);
    CHECK(json &&
              strstr(json, "\"varyings\": [\"agal_pack0\", \"agal_pack1\", \"agal_pack2\", \"agal_pack3\", "
                           "\"agal_pack4\"]") &&
              strstr(json, "{\"varying\": \"v9\", \"into\": \"agal_pack4\", \"component\": 2, \"carried\": "
                           "\"xy\", \"width\": 4}]"),
          "the JSON says where each went: %s", json ? json : "");
    partial_varyings(10, 3, vs, fs, sizeof vs); /* 10 of 3 need 10 vectors: never split */
    CHECK(upload(ctx, vs, fs, 2, AGAL_TARGET_ESSL1, &webgl1, &r) == AGAL_ERR_UNSUPPORTED, "10 of 3");
    one_refusal(ctx, "vertex program: 10 varying vectors needed, the limits allow 8 (webgl1)", "10 of 3");
    partial_varyings(10, 1, vs, fs, sizeof vs); /* 10 floats: 3 slots, 4 + 4 + 2 components */
    CHECK(upload(ctx, vs, fs, 2, AGAL_TARGET_WGSL, &gl31, &r) == AGAL_OK, "10 floats fit 31 components");
    text = r.shaders[AGAL_VERTEX].text;
    CHECK(strstr(text, "@location(2) agal_pack2: vec2f,") && !strstr(text, "agal_pack3"), "3 slots: %s", text);
}

/* ---- limits that fit change nothing ------------------------------------------------ */

static bool same(const agal_shader *a, const agal_shader *b)
{
    if (a->nwords != b->nwords || a->len != b->len) return false;
    if (a->nwords && memcmp(a->words, b->words, a->nwords * 4)) return false;
    return !a->len || !memcmp(a->text, b->text, a->len);
}

static unsigned identical_corpus(const char *dir)
{
    DIR *d = opendir(dir);
    CHECK(d != NULL, "opens %s", dir);
    if (!d) return 0;
    agal_limits unlimited = agal_limits_init(), vulkan = preset("vulkan");
    unsigned compared = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!strstr(e->d_name, ".agal")) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        static char text[1 << 16];
        size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
        if (f) fclose(f);
        text[n] = 0;
        agal_context *ctx = agal_context_new(NULL, NULL);
        int stage;
        uint32_t version;
        agal_asm_header(ctx, text, n, &stage, &version);
        const agal_program *p = program(ctx, text, (agal_stage)stage, version ? version : 1);
        for (agal_target t = AGAL_TARGET_SPIRV; p && t <= AGAL_TARGET_WGSL; t++) {
            agal_shader none, open, fits;
            agal_status st = translate(ctx, p, t, NULL, &none);
            CHECK(translate(ctx, p, t, &unlimited, &open) == st, "%s target %d: unlimited", e->d_name, t);
            CHECK(translate(ctx, p, t, &vulkan, &fits) == st, "%s target %d: vulkan", e->d_name, t);
            if (st != AGAL_OK) continue;
            CHECK(same(&none, &open) && same(&none, &fits), "%s target %d: byte-identical", e->d_name, t);
            compared++;
        }
        agal_context_free(ctx);
    }
    closedir(d);
    return compared;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_limits SHADERS_DIR\n");
        return 2;
    }
    test_presets();
    test_json();
    agal_context *ctx = agal_context_new(NULL, NULL);
    test_samplers(ctx);
    test_attributes_and_constants(ctx);
    test_packed_fragment(ctx);
    test_packed_pair(ctx);
    test_varyings(ctx);
    test_packing(ctx);
    agal_context_free(ctx);
    unsigned compared = identical_corpus(argv[1]);
    CHECK(compared >= 100, "%u translations compared", compared);
    printf("limits: %u corpus translations byte-identical with no, unlimited and vulkan limits; %d failures\n",
           compared, failures);
    return failures != 0;
}
