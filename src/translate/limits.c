/* limits.c: a device's limits (agal_limits) as input, and the one refusal when a
 * translation cannot fit them. One table names every limit: its field, its JSON key
 * (the field's name) and the words the diagnostic uses; the presets cite their
 * sources in docs/binding-models.md ("Limits"). What a stage needs is counted from
 * its binding, what the translation declares, so a limit is checked against the text
 * or module the driver would get. */
#include "emit.h"

#include <stddef.h>

/* ---- the limits, one row each ------------------------------------------------- */

typedef enum limit_id {
    L_VARYING_VECTORS,
    L_VARYING_COMPONENTS,
    L_INTERSTAGE_VARIABLES,
    L_VERTEX_UNIFORM_VECTORS,
    L_FRAGMENT_UNIFORM_VECTORS,
    L_VERTEX_TEXTURE_UNITS,
    L_FRAGMENT_TEXTURE_UNITS,
    L_VERTEX_ATTRIBUTES,
    L_COLOR_ATTACHMENTS,
    L_COUNT
} limit_id;

typedef struct limit_row {
    const char *key;  /* the field's name, and its JSON key */
    size_t offset;    /* of the field in agal_limits */
    const char *noun; /* what the diagnostic counts */
} limit_row;

/* A braced initializer as a macro, which clang-format would split: */
/* clang-format off */
#define ROW(field, noun) {#field, offsetof(agal_limits, field), noun}
/* clang-format on */
static const limit_row rows[L_COUNT] = {
    [L_VARYING_VECTORS] = ROW(varying_vectors, "varying vectors"),
    [L_VARYING_COMPONENTS] = ROW(varying_components, "varying components"),
    [L_INTERSTAGE_VARIABLES] = ROW(interstage_variables, "inter-stage variables"),
    [L_VERTEX_UNIFORM_VECTORS] = ROW(vertex_uniform_vectors, "uniform vectors"),
    [L_FRAGMENT_UNIFORM_VECTORS] = ROW(fragment_uniform_vectors, "uniform vectors"),
    [L_VERTEX_TEXTURE_UNITS] = ROW(vertex_texture_units, "texture units"),
    [L_FRAGMENT_TEXTURE_UNITS] = ROW(fragment_texture_units, "texture units"),
    [L_VERTEX_ATTRIBUTES] = ROW(vertex_attributes, "vertex attributes"),
    [L_COLOR_ATTACHMENTS] = ROW(color_attachments, "colour attachments"),
};
#undef ROW

static uint32_t *field(agal_limits *l, limit_id id) { return (uint32_t *)(void *)((char *)l + rows[id].offset); }
static uint32_t value(const agal_limits *l, limit_id id)
{
    return *(const uint32_t *)(const void *)((const char *)l + rows[id].offset);
}

/* ---- the presets (docs/binding-models.md, "Limits", cites each value) ----------- */

typedef struct preset {
    const char *name;
    uint32_t v[L_COUNT]; /* 0: the API does not count it */
} preset;

#define NONE AGAL_LIMIT_NONE
/*  varying: vectors components variables | uniform vectors: vertex fragment |
 *  texture units: vertex fragment | attributes | colour attachments */
static const preset presets[] = {
    {"webgl1", {8, 0, 0, 128, 16, NONE, 8, 8, 1}},            /* OpenGL ES 2.0 tables 6.18-6.20 */
    {"webgl2", {15, 60, 0, 256, 224, 16, 16, 16, 4}},         /* OpenGL ES 3.0 */
    {"gl33", {0, 60, 0, 256, 256, 16, 16, 16, 8}},            /* OpenGL 3.3 core */
    {"vulkan", {0, 64, 0, 1024, 1024, 16, 16, 16, 4}},        /* Vulkan 1.0 required limits */
    {"webgpu", {0, 0, 16, 4096, 4096, 16, 16, 16, 8}},        /* WebGPU's defaults */
    {"webgpu-compat", {0, 0, 15, 1024, 1024, 16, 16, 16, 4}}, /* its compatibility mode */
    {"wgpu-gl31", {0, 31, 0, 1024, 1024, 16, 16, 16, 4}},     /* wgpu downlevel_webgl2_defaults */
};
#undef NONE

const char *agal_limits_preset_name(size_t i) { return i < AGAL_COUNTOF(presets) ? presets[i].name : NULL; }

bool agal_limits_preset(const char *name, agal_limits *out)
{
    if (!name || !out || out->size < sizeof(uint32_t)) return false;
    for (size_t i = 0; i < AGAL_COUNTOF(presets); i++) {
        if (strcmp(presets[i].name, name) != 0) continue;
        agal_limits full = agal_limits_init();
        full.name = presets[i].name;
        for (unsigned id = 0; id < L_COUNT; id++) *field(&full, (limit_id)id) = presets[i].v[id];
        agal_result_write(out, &full, sizeof full);
        return true;
    }
    return false;
}

/* ---- the JSON form: one flat object ------------------------------------------- */

/* A count: an integer 0 .. 65535; 0 is stored as AGAL_LIMIT_NONE (the device has none). */
static agal_status count(agal_json_reader *r, uint32_t *out)
{
    uint32_t v;
    if (!agal_json_uint(r, 65535, &v)) return agal_json_error(r, "a count is an integer from 0 to 65535", NULL);
    *out = v ? v : AGAL_LIMIT_NONE;
    return AGAL_OK;
}

static agal_status name_value(agal_json_reader *r, agal_limits *l)
{
    size_t first, len;
    agal_status st = agal_json_string(r, &first, &len);
    char *name = st == AGAL_OK ? agal_alloc(r->ctx, len + 1) : NULL;
    if (st != AGAL_OK || !name) return st != AGAL_OK ? st : AGAL_ERR_NOMEM;
    memcpy(name, r->s + first, len);
    name[len] = 0;
    l->name = name;
    return AGAL_OK;
}

static agal_status member(agal_json_reader *r, agal_limits *l)
{
    size_t first, len;
    agal_status st = agal_json_string(r, &first, &len);
    if (st != AGAL_OK) return st;
    size_t key_at = first - 1;
    if (!agal_json_take(r, ':')) return agal_json_error(r, "':' was expected", NULL);
    if (len == 4 && !memcmp(r->s + first, "name", 4)) return name_value(r, l);
    for (unsigned id = 0; id < L_COUNT; id++)
        if (strlen(rows[id].key) == len && !memcmp(r->s + first, rows[id].key, len))
            return count(r, field(l, (limit_id)id));
    r->at = key_at;
    const agal_diag proto = {.token = -1, .offset = (long)key_at};
    return agal_report(r->ctx, &proto, "limits JSON, byte %zu: unknown key \"%.*s\"", key_at, (int)len, r->s + first);
}

static agal_status object(agal_json_reader *r, agal_limits *l)
{
    if (!agal_json_take(r, '{')) return agal_json_error(r, "an object was expected", NULL);
    if (agal_json_take(r, '}')) return AGAL_OK;
    do {
        agal_status st = member(r, l);
        if (st != AGAL_OK) return st;
    } while (agal_json_take(r, ','));
    return agal_json_take(r, '}') ? AGAL_OK : agal_json_error(r, "',' or '}' was expected", NULL);
}

agal_status agal_limits_from_json(agal_context *ctx, const char *text, size_t len, agal_limits *out)
{
    if (!ctx || (!text && len) || !out) return AGAL_ERR_ARG;
    agal_status st = agal_result_check(ctx, out->size, "agal_limits");
    if (st != AGAL_OK) return st;
    agal_limits full = agal_limits_init();
    agal_json_reader r = {.ctx = ctx, .doc = "limits JSON", .s = text, .n = len};
    st = object(&r, &full);
    agal_json_skip_space(&r);
    if (st == AGAL_OK && r.at < r.n) st = agal_json_error(&r, "text follows the object", NULL);
    if (st == AGAL_OK) agal_result_write(out, &full, sizeof full);
    return st;
}

/* ---- the refusal ------------------------------------------------------------------ */

agal_status agal_limits_read(agal_context *ctx, const agal_limits *src, agal_limits *out)
{
    *out = agal_limits_init();
    return src ? agal_options_read(ctx, out, sizeof *out, src, "agal_limits") : AGAL_OK;
}

static uint32_t highest_bit_plus_one(unsigned bits)
{
    uint32_t n = 0;
    for (; bits; bits >>= 1) n++;
    return n;
}

static bool glsl_family(agal_target t)
{
    return t == AGAL_TARGET_GLSL || t == AGAL_TARGET_ESSL3 || t == AGAL_TARGET_ESSL1;
}

/* The uniform vectors a GLSL-family translation declares beside the constants: its
 * y flip, where the IR reads it (the binding's yflip), a vector as ES 1.00's
 * packing gives a float a row. SPIR-V's is a specialization constant and WGSL's an
 * override, which count against nothing. */
static uint32_t yflip_vectors(agal_target target, const agal_ir *ir)
{
    return glsl_family(target) && ir->info.yflip ? 1 : 0;
}

/* The varyings a stage declares: vectors (one a varying: no two packed slots could
 * share one, lower_pack_varyings.c, so ES 1.00's A.7 packing needs as many rows),
 * the components declared (4 a varying unpacked, each slot's width packed) and the
 * highest location + 1, as WebGPU numbers inter-stage variables. */
static void declared_varyings(const agal_ir *ir, const agal_binding *b, uint32_t need[L_COUNT])
{
    uint32_t n = (uint32_t)b->nvaryings;
    if (!ir->packing.on) {
        need[L_VARYING_VECTORS] = n;
        need[L_VARYING_COMPONENTS] = 4 * n;
        need[L_INTERSTAGE_VARIABLES] = n ? b->varyings[n - 1].location + 1u : 0;
        return;
    }
    for (unsigned s = 0; s < 16; s++) {
        if (!(ir->info.packed >> s & 1)) continue;
        need[L_VARYING_VECTORS]++;
        need[L_VARYING_COMPONENTS] += ir->packing.width[s];
        need[L_INTERSTAGE_VARIABLES] = s + 1u;
    }
}

/* What one stage's translation needs of each limit, counted from what it declares:
 * registers whose number is their slot (va, fs, oc) need 1 + the highest; varyings
 * as declared_varyings counts them; constants those read (1 + the highest), or the
 * whole register file for a relative read, and the GLSL family's y-flip uniform. */
static void needs(const agal_ir *ir, const agal_binding *b, uint32_t need[L_COUNT])
{
    memset(need, 0, L_COUNT * sizeof *need);
    bool vs = b->stage == AGAL_VERTEX;
    declared_varyings(ir, b, need);
    uint32_t *uniforms = &need[vs ? L_VERTEX_UNIFORM_VECTORS : L_FRAGMENT_UNIFORM_VECTORS];
    if (b->constants) *uniforms = b->constants->indirect ? b->constants->count : ir->info.constants_read;
    *uniforms += yflip_vectors(b->target, ir);
    if (b->nsamplers)
        need[vs ? L_VERTEX_TEXTURE_UNITS : L_FRAGMENT_TEXTURE_UNITS] = b->samplers[b->nsamplers - 1].num + 1u;
    if (b->nattributes) need[L_VERTEX_ATTRIBUTES] = b->attributes[b->nattributes - 1].location + 1u;
    need[L_COLOR_ATTACHMENTS] = highest_bit_plus_one(b->outputs);
}

static agal_status refuse(agal_context *ctx, agal_stage stage, limit_id id, uint32_t need, uint32_t allow,
                          const char *name)
{
    const agal_diag proto = {.flash_id = 3613, .token = -1, .offset = -1, .stage = stage, .value = (long)need};
    agal_status st = agal_report(ctx, &proto, "%s program: %u %s needed, the limits allow %u%s%s%s",
                                 stage == AGAL_VERTEX ? "vertex" : "fragment", (unsigned)need, rows[id].noun,
                                 (unsigned)allow, name ? " (" : "", name ? name : "", name ? ")" : "");
    return st == AGAL_ERR_NOMEM ? st : AGAL_ERR_UNSUPPORTED;
}

agal_status agal_limits_fit(agal_context *ctx, const agal_limits *lim, const agal_ir *ir, const agal_binding *b)
{
    uint32_t need[L_COUNT];
    needs(ir, b, need);
    for (unsigned id = 0; id < L_COUNT; id++) {
        uint32_t limit = value(lim, (limit_id)id);
        uint32_t allow = limit == AGAL_LIMIT_NONE ? 0 : limit;
        if (limit && need[id] > allow) return refuse(ctx, b->stage, (limit_id)id, need[id], allow, lim->name);
    }
    return AGAL_OK;
}

/* Packing only where it is needed keeps every translation that fits as it is: the
 * host's upload changes only for a stage that could not be drawn otherwise. */
agal_status agal_limits_pack_constants(const agal_limits *lim, agal_target target, agal_ir *ir)
{
    limit_id id = ir->prog->stage == AGAL_VERTEX ? L_VERTEX_UNIFORM_VECTORS : L_FRAGMENT_UNIFORM_VECTORS;
    uint32_t limit = value(lim, id), allow = limit == AGAL_LIMIT_NONE ? 0 : limit;
    if (!limit || target == AGAL_TARGET_IR || ir->info.constants_read + yflip_vectors(target, ir) <= allow)
        return AGAL_OK;
    return agal_ir_lower_on_demand(ir, "lower_constant_ranges");
}
