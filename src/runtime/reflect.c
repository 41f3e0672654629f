/* reflect.c: what a program uses, for a runtime's resource binding, and its JSON.
 *
 * Worked out from the tokens (not the IR), so it also describes code the optimizer
 * drops: a runtime must bind what the program names. A component counts as read
 * when the operation uses it (agal_source_read_mask, the validator's rule too). */
#include "internal.h"

#include <stdio.h>

enum { MAX_CONST = 256 };

typedef struct refl {
    agal_context *ctx;
    const agal_program *prog;
    agal_reflection *r;
    uint8_t constants[MAX_CONST]; /* 1 = read */
    agal_reflect_sampler smp[16];
    bool have_smp[16];
} refl;

static void mark_constants(refl *f, unsigned first, unsigned count)
{
    for (unsigned i = first; i < first + count && i < MAX_CONST; i++) f->constants[i] = 1;
}

/* rows consecutive registers from num (agal_source_rows), each in mask. */
static void read_reg(refl *f, unsigned type, unsigned num, unsigned mask, unsigned rows)
{
    agal_reflection *r = f->r;
    for (unsigned n = num; n < num + rows; n++) {
        switch (type) {
        case AGAL_REG_CONSTANT: mark_constants(f, n, 1); break;
        case AGAL_REG_ATTRIBUTE:
            if (n < 16) r->attribute_mask[n] |= (uint16_t)mask;
            break;
        case AGAL_REG_VARYING:
            if (n < 16) r->varying_mask[n] |= (uint16_t)mask;
            break;
        case AGAL_REG_IID: r->uses_iid = true; break;
        default: break;
        }
    }
}

static void read_source(refl *f, const agal_source *s, unsigned mask, unsigned rows)
{
    if (!s->indirect) {
        read_reg(f, s->type, s->num, mask, rows);
        return;
    }
    /* The address is known only at run time: the whole constant file may be read
     * (marked once: a program of relative reads would mark it at every token). */
    if (!f->r->constants_indirect)
        mark_constants(f, 0, agal_reg_count(f->prog->profile, f->prog->stage, AGAL_REG_CONSTANT));
    f->r->constants_indirect = true;
    read_reg(f, s->index_type, s->index_num, 1u << (s->index_comp & 3), 1);
}

static void write_dest(refl *f, const agal_dest *d)
{
    agal_reflection *r = f->r;
    if (d->type == AGAL_REG_OUTPUT && d->num < 4) r->output_mask[d->num] |= d->mask;
    else if (d->type == AGAL_REG_VARYING && d->num < 16) r->varying_mask[d->num] |= d->mask;
    else if (d->type == AGAL_REG_DEPTH) r->writes_depth = true;
}

static void token(refl *f, const agal_token *t)
{
    const agal_opinfo *info = agal_opinfo_get(t->op);
    if (!info) return;
    if (info->operands & AGAL_OPND_A) read_source(f, &t->a, agal_source_read_mask(t, &t->a), agal_source_rows(info, 0));
    if (info->operands & AGAL_OPND_B) read_source(f, &t->b, agal_source_read_mask(t, &t->b), agal_source_rows(info, 1));
    if (info->operands & AGAL_OPND_D) write_dest(f, &t->dst);
    if (info->operands & AGAL_OPND_S) {
        unsigned n = t->s.num & 15;
        if (!f->have_smp[n]) f->smp[n] = (agal_reflect_sampler){.num = t->s.num, .s = t->s};
        f->have_smp[n] = true;
        if (t->op == AGAL_OP_TED) f->smp[n].uses_ted = true;
        else f->smp[n].uses_tex = true;
    }
    if (info->flags & AGAL_OPF_DERIV) f->r->uses_derivatives = true;
    if (t->op == AGAL_OP_KIL) f->r->uses_kil = true;
}

static agal_status collect(refl *f)
{
    size_t nr = 0;
    for (unsigned i = 0; i < MAX_CONST; i++) nr += f->constants[i] && (i == 0 || !f->constants[i - 1]);
    agal_range *ranges = agal_zalloc(f->ctx, (nr ? nr : 1) * sizeof *ranges);
    agal_reflect_sampler *smp = agal_zalloc(f->ctx, 16 * sizeof *smp);
    if (!ranges || !smp) return AGAL_ERR_NOMEM;
    size_t k = 0;
    for (unsigned i = 0; i < MAX_CONST; i++) {
        if (!f->constants[i]) continue;
        if (i == 0 || !f->constants[i - 1]) ranges[k++] = (agal_range){(uint16_t)i, 0};
        ranges[k - 1].count++;
    }
    size_t ns = 0;
    for (unsigned i = 0; i < 16; i++)
        if (f->have_smp[i]) smp[ns++] = f->smp[i];
    f->r->constants = ranges;
    f->r->nconstants = nr;
    f->r->samplers = smp;
    f->r->nsamplers = ns;
    return AGAL_OK;
}

agal_status agal_reflect(agal_context *ctx, const agal_program *prog, agal_reflection *out)
{
    if (!ctx || !prog || !out) return AGAL_ERR_ARG;
    memset(out, 0, sizeof *out);
    out->version = prog->version;
    out->stage = prog->stage;
    out->profile = prog->profile;
    out->ntokens = prog->ntokens;
    refl f = {.ctx = ctx, .prog = prog, .r = out};
    for (uint32_t i = 0; i < prog->ntokens; i++) token(&f, &prog->tokens[i]);
    return collect(&f);
}

/* ---- JSON ------------------------------------------------------------------- */

static const char *pick(const char *const *names, size_t n, unsigned v) { return v < n ? names[v] : "unknown"; }

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

/* "gl": what a GL / WebGL runtime binds for one GLSL-family translation (its
 * agal_binding). */
static void gl_constants_json(agal_strbuf *b, const agal_binding *g)
{
    const agal_binding_block *k = g->constants;
    const char *name = agal_reg_name(g->stage, AGAL_REG_CONSTANT);
    if (!k) agal_sb_put(b, "null");
    else if (g->target != AGAL_TARGET_ESSL1)
        agal_sb_printf(b, "{\"name\": \"%s\", \"count\": %u, \"block\": \"%s\", \"binding\": %u, \"indirect\": %s}",
                       name, k->count, k->name, k->binding, k->indirect ? "true" : "false");
    else
        agal_sb_printf(b, "{\"name\": \"%s\", \"count\": %u, \"block\": null, \"indirect\": %s}", name, k->count,
                       k->indirect ? "true" : "false");
}

/* Bit n: the binding declares v<n> (centroid: declared centroid, which GLSL ES 1.00
 * cannot). */
static unsigned varying_mask(const agal_binding *g, bool centroid)
{
    unsigned m = 0;
    for (size_t i = 0; i < g->nvaryings; i++)
        if (!centroid || (g->varyings[i].centroid && g->target != AGAL_TARGET_ESSL1))
            m |= 1u << g->varyings[i].location;
    return m;
}

static void gl_json(agal_strbuf *b, const agal_binding *g)
{
    static const char *const targets[] = {"spv", "glsl", "essl3", "essl1"};
    bool es1 = g->target == AGAL_TARGET_ESSL1;
    agal_sb_printf(b, ",\n  \"gl\": {\n    \"target\": \"%s\",\n    \"constants\": ", pick(targets, 4, g->target));
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
    agal_sb_put(b, "],\n    \"varyings\": ");
    name_list(b, "v", varying_mask(g, false));
    agal_sb_put(b, ",\n    \"centroid\": ");
    name_list(b, "v", varying_mask(g, true));
    agal_sb_put(b, ",\n    \"outputs\": [");
    bool first = true;
    for (unsigned n = 0; n < 4; n++) {
        if (!(g->outputs >> n & 1)) continue;
        if (!es1) agal_sb_printf(b, "%s{\"name\": \"oc%u\", \"location\": %u}", first ? "" : ", ", n, n);
        else if (g->outputs == 1) agal_sb_put(b, "{\"name\": \"gl_FragColor\"}");
        else agal_sb_printf(b, "%s{\"name\": \"gl_FragData[%u]\"}", first ? "" : ", ", n);
        first = false;
    }
    agal_sb_printf(b, "],\n    \"depth\": %s,\n    \"instance_id\": %s,\n    \"extensions\": [",
                   g->writes_depth ? (es1 ? "\"gl_FragDepthEXT\"" : "\"gl_FragDepth\"") : "null",
                   g->uses_iid ? "\"gl_InstanceID\"" : "null");
    first = true;
    for (unsigned bit = 1; bit <= AGAL_EXT_DRAW_BUFFERS; bit <<= 1) {
        if (!(g->extensions & bit)) continue;
        agal_sb_printf(b, "%s{\"glsl\": \"%s\", \"webgl\": \"%s\"}", first ? "" : ", ", agal_extension_name(bit, false),
                       agal_extension_name(bit, true));
        first = false;
    }
    agal_sb_put(b, "]\n  }");
}

/* "webgpu": what a WebGPU runtime binds for a WGSL translation: "entries" in the
 * shape of GPUBindGroupLayoutDescriptor's (visibility as GPUShaderStage's bits, 1
 * vertex, 2 fragment; "name" the WGSL variable, which WebGPU ignores), so
 * `device.createBindGroupLayout({entries})` takes it as it is, for group 0. */
static void webgpu_entries_json(agal_strbuf *b, const agal_binding *g)
{
    enum { VISIBLE_VERTEX = 1, VISIBLE_FRAGMENT = 2 };
    const agal_binding_block *k = g->constants;
    const char *sep = "";
    agal_sb_put(b, "[");
    if (k) {
        agal_sb_printf(b,
                       "\n      {\"binding\": %u, \"visibility\": %d, \"buffer\": {\"type\": \"uniform\", "
                       "\"minBindingSize\": %u}, \"name\": \"%s\"}",
                       k->binding, g->stage == AGAL_VERTEX ? VISIBLE_VERTEX : VISIBLE_FRAGMENT, k->size, k->name);
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
    agal_sb_put(b, k || g->nsamplers ? "\n    ]" : "]");
}

static void webgpu_json(agal_strbuf *b, const agal_binding *g)
{
    agal_sb_put(b, ",\n  \"webgpu\": {\n    \"group\": 0,\n    \"entries\": ");
    webgpu_entries_json(b, g);
    agal_sb_put(b, ",\n    \"attributes\": [");
    for (size_t i = 0; i < g->nattributes; i++)
        agal_sb_printf(b, "%s{\"name\": \"va%u\", \"location\": %u}", i ? ", " : "", g->attributes[i].location,
                       g->attributes[i].location);
    agal_sb_put(b, "],\n    \"varyings\": [");
    for (size_t i = 0; i < g->nvaryings; i++)
        agal_sb_printf(b, "%s{\"name\": \"v%u\", \"location\": %u, \"centroid\": %s}", i ? ", " : "",
                       g->varyings[i].location, g->varyings[i].location, g->varyings[i].centroid ? "true" : "false");
    agal_sb_put(b, "],\n    \"outputs\": [");
    bool first = true;
    for (unsigned n = 0; n < 4; n++) {
        if (!(g->outputs >> n & 1)) continue;
        agal_sb_printf(b, "%s{\"name\": \"oc%u\", \"location\": %u}", first ? "" : ", ", n, n);
        first = false;
    }
    /* the flip is a pipeline-overridable constant: GPUProgrammableStage.constants */
    agal_sb_printf(b, "],\n    \"depth\": %s,\n    \"instance_index\": %s,\n    \"yflip\": %s\n  }",
                   g->writes_depth ? "\"frag_depth\"" : "null", g->uses_iid ? "\"iid\"" : "null",
                   g->yflip ? "{\"override\": \"agal_yflip\", \"id\": 0}" : "null");
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
    if (r->gl && r->gl->target == AGAL_TARGET_WGSL) webgpu_json(&b, r->gl);
    else if (r->gl) gl_json(&b, r->gl);
    agal_sb_put(&b, "\n}\n");
    return b.err ? NULL : b.p;
}
