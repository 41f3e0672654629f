/* reflect_json.c: the reflection as JSON (agal_reflect_json: what the tokens use,
 * reflect.c, and a translation's binding), and the one JSON writer of an
 * agal_binding (what one translation declares, translate.c). Every reader's JSON of
 * a binding is written here: the reflection's "gl" part (the GLSL family and
 * SPIR-V) and "webgpu" part (WGSL), which `agal2spv --reflect` and the snapshots
 * print, and the web package's bindings (web/agal_web.c, web/agal2spv.d.ts's
 * Binding), whose WebGPU bind group layout is the "webgpu" part's entries, written
 * by the same function. */
#include "internal.h"

static const char *pick(const char *const *names, size_t n, unsigned v) { return v < n ? names[v] : "unknown"; }

/* GPUShaderStage's bits. */
enum { VISIBLE_VERTEX = 1, VISIBLE_FRAGMENT = 2 };

/* ---- the WebGPU bind group layout ---------------------------------------------- */

/* One binding's entries, each after sep: its constants' uniform buffer, then per
 * sampler its texture and its sampler ("name" the WGSL variable, which WebGPU
 * ignores). Returns the separator of the next entry. */
static const char *layout_entries(agal_strbuf *b, const agal_binding *g, const char *sep)
{
    const agal_binding_block *k = g->constants;
    if (k) {
        agal_sb_printf(b,
                       "%s\n      {\"binding\": %u, \"visibility\": %d, \"buffer\": {\"type\": \"uniform\", "
                       "\"minBindingSize\": %u}, \"name\": \"%s\"}",
                       sep, k->binding, g->stage == AGAL_VERTEX ? VISIBLE_VERTEX : VISIBLE_FRAGMENT, k->size, k->name);
        sep = ",";
    }
    for (size_t i = 0; i < g->nsamplers; i++, sep = ",") {
        const agal_binding_sampler *s = &g->samplers[i];
        agal_sb_printf(b,
                       "%s\n      {\"binding\": %u, \"visibility\": %d, \"texture\": {\"sampleType\": \"float\", "
                       "\"viewDimension\": \"%s\"}, \"name\": \"fs%u\"},",
                       sep, s->binding, VISIBLE_FRAGMENT, s->token.dim == AGAL_DIM_CUBE ? "cube" : "2d", s->num);
        agal_sb_printf(b,
                       "\n      {\"binding\": %u, \"visibility\": %d, \"sampler\": {\"type\": \"filtering\"}, "
                       "\"name\": \"fs%u_sampler\"}",
                       s->sampler_binding, VISIBLE_FRAGMENT, s->num);
    }
    return sep;
}

/* The entries of n WGSL bindings (an upload's: vertex, then fragment), in the shape
 * of GPUBindGroupLayoutDescriptor's "entries", for group 0: `createBindGroupLayout
 * ({entries})` takes them as they are. */
static void layout_entries_json(agal_strbuf *b, const agal_binding *const *g, size_t n)
{
    const char *sep = "";
    agal_sb_put(b, "[");
    for (size_t i = 0; i < n; i++) sep = layout_entries(b, g[i], sep);
    agal_sb_put(b, *sep ? "\n    ]" : "]");
}

void agal_binding_layout_json(agal_strbuf *b, const agal_binding *const *g, size_t n)
{
    agal_sb_put(b, "{\"entries\": ");
    layout_entries_json(b, g, n);
    agal_sb_put(b, "}");
}

/* ---- the reflection's part ----------------------------------------------------- */

/* ["va0", "va3"]-style lists of the registers a bit mask names. */
static void name_list(agal_strbuf *b, const char *prefix, unsigned mask)
{
    bool first = true;
    agal_sb_put(b, "[");
    for (unsigned n = 0; n < 16; n++) {
        if (!(mask >> n & 1)) continue;
        agal_sb_printf(b, "%s\"%s%u\"", first ? "" : ", ", prefix, n);
        first = false;
    }
    agal_sb_put(b, "]");
}

/* Register n in vec4 n: the block's one range covers it (no "ranges" key). */
static bool identity_ranges(const agal_binding_block *k)
{
    return k->nranges == 1 && k->ranges[0].first == 0 && k->ranges[0].offset == 0 && k->ranges[0].count == k->count;
}

/* `, "ranges": [{"first": F, "count": N, "offset": O}, ...]` where the limits packed
 * the constants; nothing where register n is vec4 n, so the JSON of a translation
 * without limits is what it was (one range {0, count, 0} is implied). */
static void ranges_json(agal_strbuf *b, const agal_binding_block *k, const char *sep)
{
    if (identity_ranges(k)) return;
    agal_sb_printf(b, ",%s\"ranges\":%s[", sep, sep);
    for (size_t i = 0; i < k->nranges; i++)
        agal_sb_printf(b, "%s{\"first\":%s%u,%s\"count\":%s%u,%s\"offset\":%s%u}", i ? (*sep ? ", " : ",") : "", sep,
                       (unsigned)k->ranges[i].first, sep, sep, (unsigned)k->ranges[i].count, sep, sep,
                       (unsigned)k->ranges[i].offset);
    agal_sb_put(b, "]");
}

/* "gl": what a GL / WebGL runtime binds for one GLSL-family (or SPIR-V) translation. */
static void gl_constants_json(agal_strbuf *b, const agal_binding *g)
{
    const agal_binding_block *k = g->constants;
    const char *name = agal_reg_name(g->stage, AGAL_REG_CONSTANT);
    if (!k) {
        agal_sb_put(b, "null");
        return;
    }
    if (g->target != AGAL_TARGET_ESSL1)
        agal_sb_printf(b, "{\"name\": \"%s\", \"count\": %u, \"block\": \"%s\", \"binding\": %u, \"indirect\": %s",
                       name, k->count, k->name, k->binding, k->indirect ? "true" : "false");
    else
        agal_sb_printf(b, "{\"name\": \"%s\", \"count\": %u, \"block\": null, \"indirect\": %s", name, k->count,
                       k->indirect ? "true" : "false");
    ranges_json(b, k, " ");
    agal_sb_put(b, "}");
}

/* Bit n: the binding declares v<n>, or packed, agal_pack<n> (centroid: declared
 * centroid, which GLSL ES 1.00 cannot). */
static unsigned varying_mask(const agal_binding *g, bool centroid)
{
    unsigned m = 0;
    for (size_t i = 0; i < g->nvaryings; i++)
        if (!centroid || (g->varyings[i].centroid && g->target != AGAL_TARGET_ESSL1))
            m |= 1u << (g->varyings[i].packed ? g->varyings[i].slot : g->varyings[i].location);
    return m;
}

static bool packed(const agal_binding *g) { return g->nvaryings && g->varyings[0].packed; }

/* A packed pair's (lower_pack_varyings.c): where each AGAL varying went,
 * `, "packed": [{"varying": "v3", "into": "agal_pack1", "component": 2, "carried": "xy",
 * "width": 4}]`. */
static void packed_json(agal_strbuf *b, const agal_binding *g, const char *indent)
{
    if (!packed(g)) return;
    agal_sb_printf(b, ",\n%s\"packed\": [", indent);
    for (size_t i = 0; i < g->nvaryings; i++) {
        const agal_binding_varying *v = &g->varyings[i];
        char carried[5] = {0};
        for (unsigned c = 0, k = 0; c < 4; c++)
            if (v->carried >> c & 1) carried[k++] = "xyzw"[c];
        agal_sb_printf(b,
                       "%s{\"varying\": \"v%u\", \"into\": \"" AGAL_GLSL_PACK_PREFIX
                       "%u\", \"component\": %u, \"carried\": \"%s\", \"width\": %u}",
                       i ? ", " : "", v->location, v->slot, v->component, carried, v->width);
    }
    agal_sb_put(b, "]");
}

static void gl_outputs_json(agal_strbuf *b, const agal_binding *g)
{
    bool es1 = g->target == AGAL_TARGET_ESSL1, first = true;
    agal_sb_put(b, ",\n    \"outputs\": [");
    for (unsigned n = 0; n < 4; n++) {
        if (!(g->outputs >> n & 1)) continue;
        if (!es1) agal_sb_printf(b, "%s{\"name\": \"oc%u\", \"location\": %u}", first ? "" : ", ", n, n);
        else if (g->outputs == 1) agal_sb_put(b, "{\"name\": \"gl_FragColor\"}");
        else agal_sb_printf(b, "%s{\"name\": \"gl_FragData[%u]\"}", first ? "" : ", ", n);
        first = false;
    }
    agal_sb_put(b, "]");
}

static void gl_json(agal_strbuf *b, const agal_binding *g)
{
    static const char *const targets[] = {"spv", "glsl", "essl3", "essl1"};
    bool es1 = g->target == AGAL_TARGET_ESSL1;
    agal_sb_printf(b, ",\n  \"gl\": {\n    \"target\": \"%s\",\n    \"constants\": ",
                   pick(targets, AGAL_COUNTOF(targets), g->target));
    gl_constants_json(b, g);
    agal_sb_printf(b, ",\n    \"yflip\": %s,\n    \"samplers\": [", g->yflip ? "\"agal_yflip\"" : "null");
    for (size_t i = 0; i < g->nsamplers; i++) {
        unsigned n = g->samplers[i].num;
        agal_sb_printf(b, "%s{\"name\": \"fs%u\", \"unit\": %u, \"type\": \"%s\"}", i ? ", " : "", n, n,
                       g->samplers[i].token.dim == AGAL_DIM_CUBE ? "samplerCube" : "sampler2D");
    }
    agal_sb_put(b, "],\n    \"attributes\": [");
    for (size_t i = 0; i < g->nattributes; i++) {
        unsigned n = g->attributes[i].location;
        /* ES 1.00 has no layout qualifiers: the runtime binds or queries the location */
        if (es1) agal_sb_printf(b, "%s{\"name\": \"va%u\", \"location\": null}", i ? ", " : "", n);
        else agal_sb_printf(b, "%s{\"name\": \"va%u\", \"location\": %u}", i ? ", " : "", n, n);
    }
    const char *vname = packed(g) ? AGAL_GLSL_PACK_PREFIX : "v";
    agal_sb_put(b, "],\n    \"varyings\": ");
    name_list(b, vname, varying_mask(g, false));
    agal_sb_put(b, ",\n    \"centroid\": ");
    name_list(b, vname, varying_mask(g, true));
    packed_json(b, g, "    ");
    gl_outputs_json(b, g);
    agal_sb_printf(b, ",\n    \"depth\": %s,\n    \"instance_id\": %s,\n    \"extensions\": [",
                   g->writes_depth ? (es1 ? "\"gl_FragDepthEXT\"" : "\"gl_FragDepth\"") : "null",
                   g->uses_iid ? "\"gl_InstanceID\"" : "null");
    bool first = true;
    for (unsigned bit = 1; bit <= AGAL_EXT_DRAW_BUFFERS; bit <<= 1) {
        if (!(g->extensions & bit)) continue;
        agal_sb_printf(b, "%s{\"glsl\": \"%s\", \"webgl\": \"%s\"}", first ? "" : ", ", agal_extension_name(bit, false),
                       agal_extension_name(bit, true));
        first = false;
    }
    agal_sb_put(b, "]\n  }");
}

/* "webgpu": what a WebGPU runtime binds for a WGSL translation: the bind group
 * layout's entries, the locations, and the flip as a pipeline-overridable constant
 * (GPUProgrammableStage.constants). */
static void webgpu_json(agal_strbuf *b, const agal_binding *g)
{
    agal_sb_put(b, ",\n  \"webgpu\": {\n    \"group\": 0,\n    \"entries\": ");
    layout_entries_json(b, &g, 1);
    agal_sb_put(b, ",\n    \"attributes\": [");
    for (size_t i = 0; i < g->nattributes; i++)
        agal_sb_printf(b, "%s{\"name\": \"va%u\", \"location\": %u}", i ? ", " : "", g->attributes[i].location,
                       g->attributes[i].location);
    agal_sb_put(b, "],\n    \"varyings\": [");
    unsigned declared = varying_mask(g, false), centroid = varying_mask(g, true);
    for (unsigned n = 0, first = 1; n < 16; n++) {
        if (!(declared >> n & 1)) continue;
        agal_sb_printf(b, "%s{\"name\": \"%s%u\", \"location\": %u, \"centroid\": %s}", first ? "" : ", ",
                       packed(g) ? AGAL_GLSL_PACK_PREFIX : "v", n, n, centroid >> n & 1 ? "true" : "false");
        first = 0;
    }
    agal_sb_put(b, "]");
    packed_json(b, g, "    ");
    agal_sb_put(b, ",\n    \"outputs\": [");
    bool first = true;
    for (unsigned n = 0; n < 4; n++) {
        if (!(g->outputs >> n & 1)) continue;
        agal_sb_printf(b, "%s{\"name\": \"oc%u\", \"location\": %u}", first ? "" : ", ", n, n);
        first = false;
    }
    agal_sb_printf(b, "],\n    \"depth\": %s,\n    \"instance_index\": %s,\n    \"yflip\": %s\n  }",
                   g->writes_depth ? "\"frag_depth\"" : "null", g->uses_iid ? "\"iid\"" : "null",
                   g->yflip ? "{\"override\": \"agal_yflip\", \"id\": 0}" : "null");
}

static void binding_reflect_json(agal_strbuf *b, const agal_binding *g)
{
    if (g->target == AGAL_TARGET_WGSL) webgpu_json(b, g);
    else gl_json(b, g);
}

/* ---- the web package's binding ---------------------------------------------------
 * Written piece by piece, without printf: the web package writes a binding with
 * every translation, and a formatted print per field was a large part of a
 * translation's time in the browser (docs/benchmark.md). Each key comes with the
 * separator before it (",\"count\":"). */

static void key_uint(agal_strbuf *b, const char *key, unsigned v)
{
    agal_sb_put(b, key);
    agal_sb_uint(b, v);
}

static void key_bool(agal_strbuf *b, const char *key, bool v)
{
    agal_sb_put(b, key);
    agal_sb_put(b, v ? "true" : "false");
}

/* "key":"text" (a name or a word: nothing to escape). */
static void key_string(agal_strbuf *b, const char *key, const char *text)
{
    agal_sb_put(b, key);
    agal_sb_putc(b, '"');
    agal_sb_put(b, text ? text : ""); /* a sampler field's value with no name */
    agal_sb_putc(b, '"');
}

static void web_sampler(agal_strbuf *b, const agal_binding_sampler *s, bool first)
{
    key_uint(b, first ? "{\"num\":" : ",{\"num\":", s->num);
    key_uint(b, ",\"binding\":", s->binding);
    key_uint(b, ",\"samplerBinding\":", s->sampler_binding);
    key_string(b, ",\"name\":", s->name);
    key_string(b, ",\"dim\":", agal_sampler_option_name(AGAL_SMP_DIM, s->token.dim));
    /* the token's state, which Flash's setProgram gives the slot (Context3D's names) */
    key_string(b, ",\"wrap\":", agal_sampler_option_name(AGAL_SMP_WRAP, s->token.wrap));
    key_string(b, ",\"filter\":", agal_sampler_option_name(AGAL_SMP_FILTER, s->token.filter));
    key_string(b, ",\"mipmap\":", agal_sampler_option_name(AGAL_SMP_MIPMAP, s->token.mipmap));
    key_bool(b, ",\"ignoreSampler\":", (s->token.special & AGAL_SPECIAL_IGNORESAMPLER) != 0);
    key_bool(b, ",\"tex\":", s->uses_tex);
    key_bool(b, ",\"ted\":", s->uses_ted);
    agal_sb_putc(b, '}');
}

static void web_constants(agal_strbuf *b, const agal_binding_block *k)
{
    if (!k) {
        agal_sb_put(b, "null");
        return;
    }
    key_uint(b, "{\"binding\":", k->binding);
    key_uint(b, ",\"count\":", k->count);
    key_uint(b, ",\"size\":", k->size);
    key_string(b, ",\"name\":", k->name);
    key_bool(b, ",\"indirect\":", k->indirect);
    ranges_json(b, k, "");
    agal_sb_putc(b, '}');
}

static void web_locations(agal_strbuf *b, const agal_binding *g)
{
    agal_sb_put(b, ",\"attributes\":[");
    for (size_t i = 0; i < g->nattributes; i++) {
        key_uint(b, i ? ",{\"location\":" : "{\"location\":", g->attributes[i].location);
        key_uint(b, ",\"mask\":", g->attributes[i].mask);
        agal_sb_putc(b, '}');
    }
    agal_sb_put(b, "],\"varyings\":[");
    for (size_t i = 0; i < g->nvaryings; i++) {
        key_uint(b, i ? ",{\"location\":" : "{\"location\":", g->varyings[i].location);
        key_bool(b, ",\"centroid\":", g->varyings[i].centroid);
        if (g->varyings[i].packed) { /* where it went (lower_pack_varyings.c) */
            key_uint(b, ",\"packed\":true,\"slot\":", g->varyings[i].slot);
            key_uint(b, ",\"component\":", g->varyings[i].component);
            key_uint(b, ",\"carried\":", g->varyings[i].carried);
            key_uint(b, ",\"width\":", g->varyings[i].width);
        }
        agal_sb_putc(b, '}');
    }
    agal_sb_putc(b, ']');
}

void agal_binding_json(agal_strbuf *b, const agal_binding *g, bool with_layout)
{
    key_string(b, "{\"stage\":", g->stage == AGAL_VERTEX ? "vertex" : "fragment");
    agal_sb_put(b, ",\"constants\":");
    web_constants(b, g->constants);
    agal_sb_put(b, ",\"samplers\":[");
    for (size_t i = 0; i < g->nsamplers; i++) web_sampler(b, &g->samplers[i], i == 0);
    agal_sb_putc(b, ']');
    web_locations(b, g);
    key_uint(b, ",\"outputs\":", g->outputs);
    key_bool(b, ",\"yflip\":", g->yflip);
    key_bool(b, ",\"writesDepth\":", g->writes_depth);
    key_bool(b, ",\"kil\":", g->uses_kil);
    key_bool(b, ",\"instanceId\":", g->uses_iid);
    key_bool(b, ",\"derivatives\":", g->uses_derivatives);
    agal_sb_put(b, ",\"extensions\":[");
    for (unsigned bit = 1, first = 1; bit <= AGAL_EXT_DRAW_BUFFERS; bit <<= 1)
        if (g->extensions & bit) {
            key_string(b, first ? "" : ",", agal_extension_name(bit, true));
            first = 0;
        }
    agal_sb_putc(b, ']');
    if (with_layout) {
        agal_sb_put(b, ",\"bindGroupLayout\":");
        agal_binding_layout_json(b, &g, 1);
    }
    agal_sb_putc(b, '}');
}

/* ---- the reflection ------------------------------------------------------------ */

static void masks(agal_strbuf *b, const char *key, const char *reg, const uint16_t *m, unsigned n, bool last)
{
    char s[5];
    bool first = true;
    agal_sb_printf(b, "  \"%s\": [", key);
    for (unsigned i = 0; i < n; i++) {
        if (!m[i]) continue;
        agal_sb_printf(b, "%s{\"register\": \"%s%u\", \"mask\": \"%s\"}", first ? "" : ", ", reg, i,
                       agal_mask_letters(s, m[i]));
        first = false;
    }
    agal_sb_printf(b, "]%s\n", last ? "" : ",");
}

static const char *option(agal_sampler_field f, unsigned v)
{
    const char *name = agal_sampler_option_name(f, v);
    return name ? name : "unknown";
}

static void sampler_json(agal_strbuf *b, const agal_reflect_sampler *s, bool last)
{
    const agal_sampler *x = &s->s;
    agal_sb_printf(b, "    {\"register\": \"fs%u\", \"binding\": %u, \"dimension\": \"%s\", \"format\": \"%s\", ",
                   s->num, 2u + s->num, option(AGAL_SMP_DIM, x->dim), option(AGAL_SMP_FORMAT, x->format));
    agal_sb_printf(
        b, "\"filter\": \"%s\", \"mipmap\": \"%s\", \"wrap\": \"%s\", \"bias\": ", option(AGAL_SMP_FILTER, x->filter),
        option(AGAL_SMP_MIPMAP, x->mipmap), option(AGAL_SMP_WRAP, x->wrap));
    agal_sb_number(b, x->bias / 8.0, 6);
    agal_sb_put(b, ", ");
    agal_sb_printf(b, "\"centroid\": %s, \"single\": %s, \"ignoresampler\": %s, \"tex\": %s, \"ted\": %s}%s\n",
                   x->special & AGAL_SPECIAL_CENTROID ? "true" : "false",
                   x->special & AGAL_SPECIAL_SINGLE ? "true" : "false",
                   x->special & AGAL_SPECIAL_IGNORESAMPLER ? "true" : "false", s->uses_tex ? "true" : "false",
                   s->uses_ted ? "true" : "false", last ? "" : ",");
}

char *agal_reflect_json(agal_context *ctx, const agal_reflection *r)
{
    static const char *const profiles[] = {"auto", "baseline", "standard", "standard_extended"};
    agal_strbuf b = {.ctx = ctx};
    bool vertex = r->stage == AGAL_VERTEX;
    agal_sb_printf(&b, "{\n  \"version\": %u,\n  \"stage\": \"%s\",\n  \"profile\": \"%s\",\n  \"tokens\": %u,\n",
                   r->version, vertex ? "vertex" : "fragment", pick(profiles, 4, r->profile), r->ntokens);
    agal_sb_printf(&b, "  \"constants\": [");
    for (size_t i = 0; i < r->nconstants; i++)
        agal_sb_printf(&b, "%s{\"first\": %u, \"count\": %u}", i ? ", " : "", r->constants[i].first,
                       r->constants[i].count);
    agal_sb_printf(&b, "],\n  \"constants_indirect\": %s,\n", r->constants_indirect ? "true" : "false");
    masks(&b, "attributes", "va", r->attribute_mask, 16, false);
    masks(&b, "varyings", "v", r->varying_mask, 16, false);
    uint16_t out[4] = {r->output_mask[0], r->output_mask[1], r->output_mask[2], r->output_mask[3]};
    if (vertex) {
        char s[5];
        agal_sb_printf(&b, "  \"outputs\": [%s%s%s],\n", out[0] ? "{\"register\": \"op\", \"mask\": \"" : "",
                       out[0] ? agal_mask_letters(s, out[0]) : "", out[0] ? "\"}" : "");
    } else {
        masks(&b, "outputs", "oc", out, 4, false);
    }
    agal_sb_printf(&b, "  \"samplers\": [%s", r->nsamplers ? "\n" : "");
    for (size_t i = 0; i < r->nsamplers; i++) sampler_json(&b, &r->samplers[i], i + 1 == r->nsamplers);
    agal_sb_printf(&b, "%s],\n", r->nsamplers ? "  " : "");
    agal_sb_printf(&b, "  \"derivatives\": %s,\n  \"kil\": %s,\n  \"depth_output\": %s,\n  \"iid\": %s",
                   r->uses_derivatives ? "true" : "false", r->uses_kil ? "true" : "false",
                   r->writes_depth ? "true" : "false", r->uses_iid ? "true" : "false");
    if (r->gl) binding_reflect_json(&b, r->gl);
    agal_sb_put(&b, "\n}\n");
    return b.err ? NULL : b.p;
}

/* ---- a translation's source map ------------------------------------------------ */

/* s as a JSON string. */
static void json_string(agal_strbuf *b, const char *s)
{
    agal_sb_putc(b, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') agal_sb_printf(b, "\\%c", c);
        else if (c == '\n') agal_sb_put(b, "\\n");
        else if (c < 0x20) agal_sb_printf(b, "\\u%04x", c);
        else agal_sb_putc(b, (char)c);
    }
    agal_sb_putc(b, '"');
}

/* A program assembled from text: the token's line and column there (null for code
 * of no token, or a token the table lacks). */
static void put_source_pos(agal_strbuf *b, const agal_shader *sh, uint32_t token)
{
    if (token < sh->nsource_pos)
        agal_sb_printf(b, ", \"source_line\": %u, \"source_column\": %u", sh->source_pos[token].line,
                       sh->source_pos[token].column);
    else agal_sb_put(b, ", \"source_line\": null, \"source_column\": null");
}

char *agal_source_map_json(agal_context *ctx, const agal_shader *sh)
{
    if (!ctx || !sh || !sh->source) return NULL;
    agal_strbuf b = {.ctx = ctx};
    agal_sb_printf(&b, "{\n  \"version\": 1,\n  \"out\": \"%s\",\n  \"source\": ", sh->words ? "word" : "line");
    json_string(&b, sh->source);
    agal_sb_put(&b, ",\n  \"map\": [");
    for (size_t i = 0; i < sh->nsource_map; i++) {
        const agal_source_loc *l = &sh->source_map[i];
        agal_sb_printf(&b, "%s\n    {\"out\": %u, ", i ? "," : "", l->out);
        if (l->token == AGAL_NO_TOKEN) agal_sb_put(&b, "\"token\": null, \"line\": null");
        else agal_sb_printf(&b, "\"token\": %u, \"line\": %u", l->token, agal_token_line(l->token));
        if (sh->source_pos) put_source_pos(&b, sh, l->token);
        agal_sb_putc(&b, '}');
    }
    agal_sb_put(&b, sh->nsource_map ? "\n  ]\n}\n" : "]\n}\n");
    return b.err ? NULL : b.p;
}
