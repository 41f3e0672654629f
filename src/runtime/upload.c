/* upload.c: what an emulator calls for Program3D.upload.
 *
 * agal_upload decodes both programs in Flash's order (vertex, fragment, linkage:
 * the first failure is the one Flash throws), builds the fragment program's IR
 * first to learn which varyings it really reads after optimization, builds the
 * vertex program's without the others (lower_unread_varyings.c), and has the
 * translate driver emit and describe both (translate.c); the pair's lists are
 * views of the two bindings. */
#include "emit.h"

#include <stdio.h>

/* ---- the version --------------------------------------------------------------- */

const char *agal_version(void) { return AGAL_VERSION; }

/* ---- the upload ---------------------------------------------------------------- */

/* The pair's view of the two bindings (agal_upload_result): the same arrays, not a
 * second description; and what the tokens use (agal_reflect's flags, without the
 * rest of a reflection), as Flash's checks count them. */
static void pair_view(agal_upload_result *r)
{
    const agal_binding *vb = &r->shaders[AGAL_VERTEX].binding, *fb = &r->shaders[AGAL_FRAGMENT].binding;
    if (vb->constants) r->blocks[r->nblocks++] = *vb->constants;
    if (fb->constants) r->blocks[r->nblocks++] = *fb->constants;
    r->samplers = fb->samplers, r->nsamplers = fb->nsamplers;
    r->attributes = vb->attributes, r->nattributes = vb->nattributes;
    r->varyings = fb->varyings, r->nvaryings = fb->nvaryings;
    r->extensions = vb->extensions | fb->extensions;
    agal_token_uses vu, fu;
    agal_token_uses_of(r->vertex, &vu);
    agal_token_uses_of(r->fragment, &fu);
    r->tokens.writes_depth = fu.writes_depth;
    r->tokens.uses_kil = fu.uses_kil;
    r->tokens.uses_iid = vu.uses_iid;
    r->tokens.uses_derivatives = fu.uses_derivatives;
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
    uint32_t v = agal_header_version(b, n);
    if (context == AGAL_PROFILE_AUTO || v <= (uint32_t)context || v > 3) return AGAL_OK;
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
    agal_decode_options vo = {
        .size = sizeof vo, .profile = opt->profile, .lenient = opt->lenient, .slot = AGAL_SLOT_VERTEX};
    agal_decode_options fo = vo;
    fo.slot = AGAL_SLOT_FRAGMENT;
    agal_status st = version_error(ctx, vb, vn, opt->context_profile, AGAL_VERTEX);
    if (st == AGAL_OK) st = version_error(ctx, fb, fn, opt->context_profile, AGAL_FRAGMENT);
    if (st == AGAL_OK) st = decode_one(ctx, vb, vn, opt->vertex_big_endian, vo, &r->vertex);
    if (st == AGAL_OK) st = decode_one(ctx, fb, fn, opt->fragment_big_endian, fo, &r->fragment);
    if (st == AGAL_OK) st = agal_link(ctx, r->vertex, r->fragment);
    return st;
}

/* The pair against the device's limits, the vertex program's need first (Flash's
 * order); a pair that does not fit returns no translation, so no text reaches a
 * driver that would reject it. */
static agal_status fit_pair(agal_context *ctx, const agal_limits *limits, const agal_ir *vir, const agal_ir *fir,
                            agal_upload_result *r)
{
    agal_status st = agal_limits_fit(ctx, limits, vir, &r->shaders[AGAL_VERTEX].binding);
    if (st == AGAL_OK) st = agal_limits_fit(ctx, limits, fir, &r->shaders[AGAL_FRAGMENT].binding);
    if (st != AGAL_OK) memset(r->shaders, 0, sizeof r->shaders);
    return st;
}

/* The components of each varying a program's tokens read (fragment) or write
 * (vertex), dead code included, as agal_reflect counts them (agal_source_read_mask,
 * the validator's rule); centroid bit n: v<n> is a centroid sample's coordinate. */
static void varying_masks(const agal_program *p, uint8_t mask[16], uint16_t *centroid)
{
    memset(mask, 0, 16);
    for (uint32_t i = 0; i < p->ntokens; i++) {
        const agal_token *t = &p->tokens[i];
        const agal_opinfo *info = agal_opinfo_get(t->op);
        if (!info) continue;
        if ((info->operands & AGAL_OPND_D) && t->dst.type == AGAL_REG_VARYING && t->dst.num < 16)
            mask[t->dst.num] |= t->dst.mask;
        const agal_source *src[2] = {&t->a, &t->b};
        for (int k = 0; k < 2; k++) {
            const agal_source *s = src[k];
            if (!(info->operands & (k ? AGAL_OPND_B : AGAL_OPND_A)) || s->type != AGAL_REG_VARYING || s->indirect)
                continue;
            for (unsigned r = 0; r < agal_source_rows(info, k) && s->num + r < 16; r++)
                mask[s->num + r] |= (uint8_t)agal_source_read_mask(t, s);
        }
        if ((info->operands & AGAL_OPND_S) && (t->s.special & AGAL_SPECIAL_CENTROID) && t->a.type == AGAL_REG_VARYING &&
            !t->a.indirect && t->a.num < 16)
            *centroid |= (uint16_t)(1u << t->a.num);
    }
}

/* Under limits, the pair's varyings packed (lower_pack_varyings.c) by what the
 * tokens read and write (dead code counts, so nothing a program may read is left
 * behind; what the optimizer then finds unread the vertex program drops). */
static void plan_packing(const agal_upload_result *r, bool centre_only, agal_ir_packing *out)
{
    uint8_t read[16], written[16];
    uint16_t centroid = 0, none = 0;
    varying_masks(r->fragment, read, &centroid);
    varying_masks(r->vertex, written, &none);
    agal_pack_plan(read, written, centre_only ? 0 : centroid, out);
}

/* The varyings a packed fragment program does not read once optimized (bit n):
 * their rebuilt values are gone, so the vertex program need not write them. */
static uint16_t unread_packed(const agal_ir *fir)
{
    uint16_t bits = 0;
    for (unsigned n = 0; n < 16; n++)
        if (!fir->unpacked[n] || fir->insts[fir->unpacked[n]].op == IR_NOP) bits |= (uint16_t)(1u << n);
    return bits;
}

/* Both stages for the target: the fragment program first, so the vertex program
 * writes only the varyings it reads, each centroid where a sample asks for it and
 * the targets may be multisampled;
 * under limits, both with the pair's varyings packed (the pass drops what no
 * fragment program reads). */
static agal_status translate_pair(agal_context *ctx, const agal_upload_options *opt, const agal_limits *limits,
                                  agal_upload_result *r)
{
    agal_ir *fir = NULL, *vir = NULL;
    agal_ir_packing packing;
    const agal_ir_packing *pack = opt->limits ? &packing : NULL;
    bool centre_only = agal_upload_centre_only(opt);
    if (pack) plan_packing(r, centre_only, &packing);
    agal_status st = agal_translate_pipeline(ctx, r->fragment, opt->target, opt->clip, 0, pack, &fir);
    uint16_t unread = st != AGAL_OK ? 0 : pack ? unread_packed(fir) : (uint16_t)~fir->info.inputs;
    if (st == AGAL_OK) st = agal_translate_pipeline(ctx, r->vertex, opt->target, opt->clip, unread, pack, &vir);
    if (st == AGAL_OK) st = agal_limits_pack_constants(limits, opt->target, fir);
    if (st == AGAL_OK) st = agal_limits_pack_constants(limits, opt->target, vir);
    if (st != AGAL_OK) return st;
    agal_emit_options eo = {.pub = {.target = opt->target,
                                    .clip = opt->clip,
                                    .strip_names = opt->strip_names,
                                    .debug_info = opt->debug_info,
                                    .debug_info_nonsemantic = opt->debug_info_nonsemantic,
                                    .separate_samplers = opt->separate_samplers},
                            .centroid_varyings = centre_only ? 0 : fir->info.centroid_varyings};
    if ((st = agal_names_resolve(ctx, opt->names, &eo.names)) != AGAL_OK) return st;
    r->shaders[AGAL_VERTEX].size = r->shaders[AGAL_FRAGMENT].size = sizeof(agal_shader);
    if ((st = agal_translate_ir(ctx, vir, opt->target, &eo, &r->shaders[AGAL_VERTEX])) != AGAL_OK) return st;
    if ((st = agal_translate_ir(ctx, fir, opt->target, &eo, &r->shaders[AGAL_FRAGMENT])) != AGAL_OK) return st;
    return fit_pair(ctx, limits, vir, fir, r);
}

agal_status agal_upload(agal_context *ctx, const void *vertex, size_t vertex_size, const void *fragment,
                        size_t fragment_size, const agal_upload_options *opt, agal_upload_result *out)
{
    if (!ctx || !out || (!vertex && vertex_size) || (!fragment && fragment_size)) return AGAL_ERR_ARG;
    agal_diag_clear(ctx); /* the upload's diagnostics are its own */
    agal_upload_options o;
    memset(&o, 0, sizeof o);
    agal_limits limits;
    agal_status st = agal_options_read(ctx, &o, sizeof o, opt, "agal_upload_options");
    if (st == AGAL_OK) st = agal_result_check(ctx, out->size, "agal_upload_result");
    if (st == AGAL_OK) st = agal_limits_read(ctx, o.limits, &limits);
    if (st != AGAL_OK) return st;
    if ((unsigned)o.target > AGAL_TARGET_WGSL || o.target == AGAL_TARGET_IR ||
        (unsigned)o.context_profile > AGAL_PROFILE_STANDARD_EXTENDED || (unsigned)o.clip > AGAL_CLIP_CONTROL ||
        o.samples > 16 || (o.samples & (o.samples - 1)))
        return AGAL_ERR_ARG;
    agal_upload_result r;
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    r.target = o.target;
    st = decode_pair(ctx, vertex, vertex_size, fragment, fragment_size, &o, &r);
    if (st == AGAL_OK) r.program_id = agal_pipeline_program_id(vertex, vertex_size, fragment, fragment_size, &o);
    if (st == AGAL_OK) st = translate_pair(ctx, &o, &limits, &r);
    if (st == AGAL_OK) pair_view(&r);
    /* A failed upload still names the programs it decoded. */
    agal_result_write(out, &r, sizeof r);
    return st;
}
