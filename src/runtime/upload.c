/* upload.c: what an emulator calls for Program3D.upload.
 *
 * agal_upload decodes both programs in Flash's order (vertex, fragment, linkage:
 * the first failure is the one Flash throws), builds the fragment program's IR
 * first to learn which varyings it really reads after optimization, builds the
 * vertex program's without the others (lower_unread_varyings.c), emits both for the
 * target, and describes what the two translations declare: the uniform blocks,
 * the samplers, the attributes and the connecting varyings. */
#include "emit.h"

#include <stdio.h>

/* ---- the version --------------------------------------------------------------- */

const char *agal_version(void) { return AGAL_VERSION; }

/* ---- the upload ---------------------------------------------------------------- */

/* One stage's IR for the target: GLSL keeps an AGAL mov as its own statement. */
static agal_status stage_ir(agal_context *ctx, const agal_program *p, agal_target target, uint16_t unread, agal_ir **ir)
{
    const agal_ir_options iro = {.keep_copies = target != AGAL_TARGET_SPIRV, .unread_varyings = unread};
    return agal_ir_pipeline(ctx, p, &iro, ir);
}

static agal_status emit(agal_context *ctx, const agal_ir *ir, agal_target target, agal_emit_options *eo,
                        agal_upload_result *r)
{
    agal_upload_code *code = &r->code[ir->prog->stage];
    if (target == AGAL_TARGET_SPIRV) return agal_spirv_emit(ctx, ir, eo, &code->words, &code->nwords);
    unsigned ext = 0;
    eo->dialect = target == AGAL_TARGET_ESSL3   ? AGAL_GLSL_ESSL300
                  : target == AGAL_TARGET_ESSL1 ? AGAL_GLSL_ESSL100
                                                : AGAL_GLSL_330;
    eo->extensions = &ext;
    agal_status st = agal_glsl_emit(ctx, ir, eo, &code->text, &code->len);
    r->extensions |= ext;
    return st;
}

/* The uniform block of a stage that reads constants. */
static void add_block(agal_upload_result *r, const agal_ir *ir, agal_target target)
{
    const agal_program *p = ir->prog;
    agal_upload_block *b = &r->blocks[r->nblocks++];
    b->stage = p->stage;
    b->binding = p->stage == AGAL_VERTEX ? AGAL_VC_BINDING : AGAL_FC_BINDING;
    b->count = agal_reg_count(p->profile, p->stage, AGAL_REG_CONSTANT);
    if (target == AGAL_TARGET_ESSL1 && !agal_ir_reads_indirect(ir)) b->count = agal_ir_constants_read(ir);
    b->size = 16u * b->count;
    b->name = target == AGAL_TARGET_ESSL1 ? agal_reg_name(p->stage, AGAL_REG_CONSTANT)
              : p->stage == AGAL_VERTEX   ? AGAL_GLSL_VC_BLOCK
                                          : AGAL_GLSL_FC_BLOCK;
}

/* The samplers the fragment translation declares (a sample that survived). */
static agal_status samplers(agal_context *ctx, const agal_ir *ir, bool separate, agal_upload_result *r)
{
    agal_upload_sampler found[16];
    bool have[16] = {false};
    for (uint32_t v = 1; v < ir->ninsts; v++) {
        const agal_ir_inst *in = &ir->insts[v];
        if (in->op != IR_TEX) continue;
        unsigned n = in->smp.num & 15;
        if (!have[n]) {
            found[n] = (agal_upload_sampler){.num = in->smp.num,
                                             .binding = AGAL_SAMPLER_BINDING + n,
                                             .sampler_binding = separate ? AGAL_SEPARATE_SAMPLER_BINDING + n
                                                                         : AGAL_SAMPLER_BINDING + n,
                                             .token = in->smp};
            found[n].token.bias = 0; /* per token; the state is the sampler's */
            have[n] = true;
        }
        if (in->aop == AGAL_OP_TED) found[n].uses_ted = true;
        else found[n].uses_tex = true;
    }
    agal_upload_sampler *list = agal_alloc(ctx, 16 * sizeof *list);
    if (!list) return AGAL_ERR_NOMEM;
    for (unsigned n = 0; n < 16; n++) {
        if (!have[n]) continue;
        /* The GLSL uniform of fs<n> is the register's name. */
        char *name = agal_alloc(ctx, 8);
        if (!name) return AGAL_ERR_NOMEM;
        snprintf(name, 8, "%s%u", agal_reg_name(AGAL_FRAGMENT, AGAL_REG_SAMPLER), n);
        found[n].name = name;
        list[r->nsamplers++] = found[n];
    }
    r->samplers = list;
    return AGAL_OK;
}

/* The attributes the vertex translation declares, with the components read. */
static agal_status attributes(agal_context *ctx, const agal_ir *ir, const agal_reflection *vr, agal_upload_result *r)
{
    uint16_t live = agal_ir_inputs_read(ir, AGAL_REG_ATTRIBUTE);
    agal_upload_attribute *list = agal_alloc(ctx, 16 * sizeof *list);
    if (!list) return AGAL_ERR_NOMEM;
    for (unsigned n = 0; n < 16; n++)
        if (live >> n & 1) list[r->nattributes++] = (agal_upload_attribute){(uint8_t)n, (uint8_t)vr->attribute_mask[n]};
    r->attributes = list;
    return AGAL_OK;
}

static agal_status varyings(agal_context *ctx, uint16_t read, uint16_t centroid, agal_upload_result *r)
{
    agal_upload_varying *list = agal_alloc(ctx, 16 * sizeof *list);
    if (!list) return AGAL_ERR_NOMEM;
    for (unsigned n = 0; n < 16; n++)
        if (read >> n & 1) list[r->nvaryings++] = (agal_upload_varying){(uint8_t)n, (centroid >> n & 1) != 0};
    r->varyings = list;
    return AGAL_OK;
}

/* Flash raises 3612 for a ByteArray that is not little-endian, before reading it
 * but after an empty one's 3615 (agal_decode's). */
static agal_status endian_error(agal_context *ctx, agal_stage stage)
{
    const agal_diag proto = {.flash_id = 3612, .token = -1, .offset = -1, .stage = stage};
    return agal_report(ctx, &proto, "the %s program is not a little-endian ByteArray",
                       stage == AGAL_VERTEX ? "vertex" : "fragment");
}

/* 3725: the program's AGAL version is above what the Context3D's profile takes
 * (agal_profile's values are those versions). Read from the header as the validator
 * will read it; a header the validator refuses is left to it. */
static agal_status version_error(agal_context *ctx, const uint8_t *b, size_t n, agal_profile context, agal_stage stage)
{
    if (context == AGAL_PROFILE_AUTO || n < 5 || b[0] != AGAL_MAGIC) return AGAL_OK;
    uint32_t v = (uint32_t)b[1] | (uint32_t)b[2] << 8 | (uint32_t)b[3] << 16 | (uint32_t)b[4] << 24;
    if (v <= (uint32_t)context || v > 3) return AGAL_OK;
    const agal_diag proto = {.flash_id = 3725, .token = -1, .offset = -1, .stage = stage, .value = (long)v};
    return agal_report(ctx, &proto, "AGAL version %u is above the Context3D profile's %u", (unsigned)v,
                       (unsigned)context);
}

static agal_status decode_one(agal_context *ctx, const void *b, size_t n, bool big_endian, agal_decode_options o,
                              const agal_program **out)
{
    agal_stage stage = o.slot == AGAL_SLOT_FRAGMENT ? AGAL_FRAGMENT : AGAL_VERTEX;
    if (n > 0 && big_endian) return endian_error(ctx, stage);
    return agal_decode(ctx, b, n, &o, out);
}

static agal_status decode_pair(agal_context *ctx, const void *vb, size_t vn, const void *fb, size_t fn,
                               const agal_upload_options *opt, agal_upload_result *r)
{
    agal_decode_options vo = {.profile = opt->profile, .lenient = opt->lenient, .slot = AGAL_SLOT_VERTEX};
    agal_decode_options fo = vo;
    fo.slot = AGAL_SLOT_FRAGMENT;
    agal_status st = version_error(ctx, vb, vn, opt->context_profile, AGAL_VERTEX);
    if (st == AGAL_OK) st = version_error(ctx, fb, fn, opt->context_profile, AGAL_FRAGMENT);
    if (st == AGAL_OK) st = decode_one(ctx, vb, vn, opt->big_endian || opt->vertex_big_endian, vo, &r->vertex);
    if (st == AGAL_OK) st = decode_one(ctx, fb, fn, opt->big_endian || opt->fragment_big_endian, fo, &r->fragment);
    if (st == AGAL_OK) st = agal_link(ctx, r->vertex, r->fragment);
    return st;
}

agal_status agal_upload(agal_context *ctx, const void *vertex, size_t vertex_size, const void *fragment,
                        size_t fragment_size, const agal_upload_options *opt, agal_upload_result *out)
{
    static const agal_upload_options defaults;
    if (!ctx || !out || (!vertex && vertex_size) || (!fragment && fragment_size)) return AGAL_ERR_ARG;
    if (!opt) opt = &defaults;
    if ((unsigned)opt->target > AGAL_TARGET_ESSL1 || (unsigned)opt->context_profile > AGAL_PROFILE_STANDARD_EXTENDED)
        return AGAL_ERR_ARG;
    memset(out, 0, sizeof *out);
    out->target = opt->target;
    agal_diag_clear(ctx); /* the upload's diagnostics are its own */
    agal_status st = decode_pair(ctx, vertex, vertex_size, fragment, fragment_size, opt, out);
    agal_ir *fir = NULL, *vir = NULL;
    if (st == AGAL_OK) st = stage_ir(ctx, out->fragment, opt->target, 0, &fir);
    uint16_t read = fir ? agal_ir_inputs_read(fir, AGAL_REG_VARYING) : 0;
    if (st == AGAL_OK) st = stage_ir(ctx, out->vertex, opt->target, (uint16_t)~read, &vir);
    if (st != AGAL_OK) return st;
    agal_emit_options eo = {
        .pub = {.clip = opt->clip, .strip_names = opt->strip_names, .separate_samplers = opt->separate_samplers},
        .centroid_varyings = agal_ir_centroid_varyings(fir)};
    if ((st = emit(ctx, vir, opt->target, &eo, out)) != AGAL_OK) return st;
    if ((st = emit(ctx, fir, opt->target, &eo, out)) != AGAL_OK) return st;
    agal_reflection vr, fr;
    if ((st = agal_reflect(ctx, out->vertex, &vr)) != AGAL_OK ||
        (st = agal_reflect(ctx, out->fragment, &fr)) != AGAL_OK)
        return st;
    if (agal_ir_reads_constants(vir)) add_block(out, vir, opt->target);
    if (agal_ir_reads_constants(fir)) add_block(out, fir, opt->target);
    if ((st = samplers(ctx, fir, opt->separate_samplers, out)) != AGAL_OK ||
        (st = attributes(ctx, vir, &vr, out)) != AGAL_OK ||
        (st = varyings(ctx, read, eo.centroid_varyings, out)) != AGAL_OK)
        return st;
    out->writes_depth = fr.writes_depth;
    out->uses_kil = fr.uses_kil;
    out->uses_iid = vr.uses_iid;
    out->uses_derivatives = fr.uses_derivatives;
    return AGAL_OK;
}
