/* context3d.c: Context3D's checks, in Flash's order and with Flash's ids
 * (docs/format.md section 8), over what the emulator describes of its state
 * (agal_context3d_state): the draw's (the call, the render targets, the textures,
 * the streams, the scissor, the draw limit), present's, the index arguments of the
 * set* calls, setRenderToTexture's. The calls that make and fill resources are
 * resources.c's. agalrun replay calls them, so its error cases test them. */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>

int agal_check_fail(agal_flash_error *err, int id, int nargs, ...)
{
    memset(err, 0, sizeof *err);
    err->id = id;
    va_list ap;
    va_start(ap, nargs);
    for (int i = 0; i < nargs && i < 3; i++) snprintf(err->args[i], sizeof err->args[i], "%ld", va_arg(ap, long));
    va_end(ap);
    return id;
}

static uint32_t format_words(agal_vertex_format f) { return f == AGAL_VERTEX_BYTES_4 ? 1 : (uint32_t)f + 1; }

static int check_stream(const agal_draw_stream *s, long i, uint32_t count, uint32_t max_index, uint32_t instances,
                        agal_flash_error *err)
{
    if (!s->set) return agal_check_fail(err, 3611, 1, i);
    if (s->offset < 0 || (uint64_t)(uint32_t)s->offset + format_words(s->format) > s->data32_per_vertex)
        return agal_check_fail(err, 3610, 1, i);
    uint32_t per = s->instances_per_element;
    if (!per && count && max_index >= s->vertices) return agal_check_fail(err, 3609, 1, i);
    if (per && i == 0) return agal_check_fail(err, 3792, 1, i);
    if (per && (uint64_t)s->vertices * per < instances) return agal_check_fail(err, 3785, 1, i);
    return 0;
}

int agal_check_draw_streams(const agal_program *vertex, const agal_draw_stream streams[AGAL_DRAW_STREAMS],
                            uint32_t count, uint32_t max_index, uint32_t instances, agal_flash_error *err)
{
    unsigned used = agal_program_reads(vertex, AGAL_REG_ATTRIBUTE);
    for (long i = 0; i < AGAL_DRAW_STREAMS; i++) {
        int id = 0;
        if (!(used >> i & 1)) id = streams[i].set ? agal_check_fail(err, 3607, 1, i) : 0;
        else id = check_stream(&streams[i], i, count, max_index, instances, err);
        if (id) return id;
    }
    return 0;
}

/* The sampler token of each fs the fragment program samples, from its tokens. */
static unsigned sampled(const agal_program *fp, agal_sampler tokens[16])
{
    unsigned used = 0;
    for (uint32_t i = 0; i < fp->ntokens; i++) {
        const agal_token *t = &fp->tokens[i];
        if ((t->op != AGAL_OP_TEX && t->op != AGAL_OP_TED) || t->s.num >= 16) continue;
        tokens[t->s.num] = t->s;
        used |= 1u << t->s.num;
    }
    return used;
}

/* The token's format field for a texture created with format f. */
static unsigned token_format(agal_texture_format f)
{
    return f == AGAL_TEXTURE_COMPRESSED         ? AGAL_FMT_DXT1
           : f == AGAL_TEXTURE_COMPRESSED_ALPHA ? AGAL_FMT_DXT5
                                                : AGAL_FMT_RGBA;
}

static int check_texture(const agal_draw_texture *t, const agal_sampler *s, long i, agal_flash_error *err)
{
    if (!t->object) return agal_check_fail(err, 3663, 1, i);
    if (t->render_target) return agal_check_fail(err, 3604, 1, i);
    if ((s->dim == AGAL_DIM_CUBE) != (t->kind == AGAL_TEXTURE_KIND_CUBE)) return agal_check_fail(err, 3606, 1, i);
    if (s->format != token_format(t->format)) return agal_check_fail(err, 3763, 1, i);
    if (t->kind != AGAL_TEXTURE_KIND_2D && s->wrap != AGAL_WRAP_CLAMP) return agal_check_fail(err, 3753, 0);
    if (t->kind == AGAL_TEXTURE_KIND_RECTANGLE && (s->mipmap != AGAL_MIP_NONE || s->bias != 0))
        return agal_check_fail(err, 3755, 0);
    if (!(s->mipmap == AGAL_MIP_NONE ? t->has_level0 : t->has_all_levels)) return agal_check_fail(err, 3700, 0);
    return 0;
}

int agal_check_draw_textures(const agal_program *fragment, const agal_sampler_slots *slots,
                             const agal_draw_texture textures[16], agal_sampler resolved[16], agal_flash_error *err)
{
    agal_sampler tokens[16], state[16];
    unsigned used = sampled(fragment, tokens);
    for (long i = 0; i < 16; i++) {
        if (!(used >> i & 1)) {
            if (textures[i].object) return agal_check_fail(err, 3697, 1, i);
            continue;
        }
        state[i] = agal_slots_resolve(slots, &tokens[i]);
        if (resolved) resolved[i] = state[i];
        int id = check_texture(&textures[i], &state[i], i, err);
        if (id) return id;
    }
    for (long i = 0; i < 16; i++)
        for (long j = i + 1; j < 16; j++) {
            if (!(used >> i & 1) || !(used >> j & 1) || textures[i].object != textures[j].object) continue;
            const agal_sampler *p = &state[i], *q = &state[j];
            if (p->wrap != q->wrap || p->filter != q->filter || p->mipmap != q->mipmap)
                return agal_check_fail(err, 3695, 2, i, j);
        }
    return 0;
}

/* ---- the whole draw --------------------------------------------------------------- */

/* Flash's limit on draws between presents (Adobe's reference). */
enum { DRAW_LIMIT = 32768 };

static bool to_texture(const agal_context3d_state *s)
{
    for (int i = 0; i < AGAL_DRAW_TARGETS; i++)
        if (s->targets[i].texture) return true;
    return false;
}

/* 3698, 3692 (the back buffer), 3600, 3602, 3603 (the index range); the range drawn. */
static int check_call(const agal_context3d_state *s, const agal_draw_call *call, agal_draw_plan *plan,
                      agal_flash_error *err)
{
    if (!to_texture(s) && !s->configured) return agal_check_fail(err, 3698, 0);
    if (!to_texture(s) && !s->cleared) return agal_check_fail(err, 3692, 0);
    if (!s->vertex || !s->fragment) return agal_check_fail(err, 3600, 0);
    if (call->first < 0 || call->triangles < -1)
        return agal_check_fail(err, 3602, 2, (long)call->triangles, (long)call->first);
    int64_t tri = call->triangles == -1 ? ((int64_t)call->nindices - call->first) / 3 : call->triangles;
    if (tri < 0 || call->first + 3 * tri > call->nindices)
        return agal_check_fail(err, 3603, 3, (long)tri, (long)call->first, (long)call->nindices);
    plan->first = (uint32_t)call->first;
    plan->count = 3 * (uint32_t)tri;
    plan->instances = call->instances > 0 ? (uint32_t)call->instances : 0;
    return 0;
}

/* 3728 (a slot set with slot 0 not), 3729, 3730: the texture slots. The targets
 * are slot 0 and those set after it without a gap. */
static int check_slots(const agal_context3d_state *s, unsigned *ntargets, agal_flash_error *err)
{
    const agal_draw_target *t = s->targets;
    if (!t[0].texture) return agal_check_fail(err, 3728, 0);
    unsigned n = 1;
    while (n < AGAL_DRAW_TARGETS && t[n].texture) n++;
    for (unsigned i = 1; i < n; i++) {
        if (t[i].width != t[0].width || t[i].height != t[0].height ||
            t[i].depth_and_stencil != t[0].depth_and_stencil || t[i].anti_alias != t[0].anti_alias)
            return agal_check_fail(err, 3729, 0);
        for (unsigned j = 0; j < i; j++)
            if (t[j].texture == t[i].texture && t[j].surface == t[i].surface) return agal_check_fail(err, 3730, 0);
    }
    *ntargets = n;
    return 0;
}

/* The render targets: the slots, then 3774 (colour outputs against targets) and
 * 3776 (fd with no depth buffer). */
static int check_targets(const agal_context3d_state *s, agal_flash_error *err)
{
    unsigned ntargets = 1;
    bool depth = s->depth_and_stencil;
    if (to_texture(s)) {
        int id = check_slots(s, &ntargets, err);
        if (id) return id;
        depth = s->targets[0].depth_and_stencil;
    }
    unsigned outputs = agal_program_writes(s->fragment, AGAL_REG_OUTPUT), n = 0;
    while (n < 4 && (outputs & (1u << n))) n++;
    if (n != ntargets) return agal_check_fail(err, 3774, 0);
    if (agal_program_writes(s->fragment, AGAL_REG_DEPTH) && !depth) return agal_check_fail(err, 3776, 0);
    return 0;
}

/* The largest index the draw reads. */
static uint32_t max_index(const agal_draw_call *call, const agal_draw_plan *plan)
{
    uint32_t m = 0;
    for (uint32_t i = plan->first; i < plan->first + plan->count; i++) m = call->indices[i] > m ? call->indices[i] : m;
    return m;
}

/* 3706: a scissor rectangle that leaves nothing of the target. */
static int check_scissor(const agal_context3d_state *s, agal_draw_plan *plan, agal_flash_error *err)
{
    uint32_t w = to_texture(s) ? s->targets[0].width : s->width, h = to_texture(s) ? s->targets[0].height : s->height;
    const double *r = s->scissor_rect;
    plan->scissor = s->scissor && agal_stage3d_scissor(r[0], r[1], r[2], r[3], w, h, &plan->scissor_rect);
    return plan->scissor && (!plan->scissor_rect.width || !plan->scissor_rect.height) ? agal_check_fail(err, 3706, 0)
                                                                                      : 0;
}

int agal_check_draw(const agal_context3d_state *s, const agal_draw_call *call, agal_draw_plan *plan,
                    agal_flash_error *err)
{
    memset(plan, 0, sizeof *plan);
    int id = check_call(s, call, plan, err);
    if (!id) id = check_targets(s, err);
    if (!id) id = agal_check_draw_textures(s->fragment, s->slots, s->textures, plan->samplers, err);
    if (!id) {
        uint32_t top = plan->count ? max_index(call, plan) : 0;
        id = agal_check_draw_streams(s->vertex, s->streams, plan->count, top, plan->instances, err);
    }
    if (!id) id = check_scissor(s, plan, err);
    if (!id && s->draws >= DRAW_LIMIT) id = agal_check_fail(err, 3690, 0);
    return id;
}

/* ---- the other calls ------------------------------------------------------------- */

int agal_check_draw_instanced(const agal_context3d_state *s, agal_flash_error *err)
{
    return s->profile < AGAL_C3D_STANDARD_EXTENDED ? agal_check_fail(err, 3787, 0) : 0;
}

int agal_check_present(const agal_context3d_state *s, agal_flash_error *err)
{
    if (!s->configured) return agal_check_fail(err, 3698, 0);
    /* Two presents need a clear between them (Adobe's reference), as a draw does. */
    return s->cleared ? 0 : agal_check_fail(err, 3692, 0);
}

static int check_index(const agal_context3d_state *s, agal_stage stage, agal_regtype type, int32_t index,
                       agal_flash_error *err)
{
    unsigned n = agal_reg_count(agal_context3d_registers(s->profile), stage, type);
    return index < 0 || (unsigned)index >= n ? agal_check_fail(err, 2006, 0) : 0;
}

int agal_check_stream_index(const agal_context3d_state *s, int32_t index, agal_flash_error *err)
{
    return check_index(s, AGAL_VERTEX, AGAL_REG_ATTRIBUTE, index, err);
}

int agal_check_sampler_index(const agal_context3d_state *s, int32_t index, agal_flash_error *err)
{
    return check_index(s, AGAL_FRAGMENT, AGAL_REG_SAMPLER, index, err);
}

int agal_check_render_to_texture(const agal_context3d_state *s, const agal_draw_texture *texture, int32_t surface,
                                 int32_t index, agal_flash_error *err)
{
    if (index < 0 || index >= AGAL_DRAW_TARGETS) return agal_check_fail(err, 3770, 0);
    if (index > 0 && s->profile < AGAL_C3D_STANDARD) return agal_check_fail(err, 3760, 0);
    if (!texture || !texture->object) return 0;
    if (texture->kind == AGAL_TEXTURE_KIND_CUBE && (surface < 0 || surface > 5)) return agal_check_fail(err, 3772, 0);
    if (texture->kind == AGAL_TEXTURE_KIND_RECTANGLE && surface != 0) return agal_check_fail(err, 3773, 0);
    if (texture->kind == AGAL_TEXTURE_KIND_2D && surface != 0) return agal_check_fail(err, 3771, 0);
    bool compressed = texture->format == AGAL_TEXTURE_COMPRESSED || texture->format == AGAL_TEXTURE_COMPRESSED_ALPHA;
    return compressed ? agal_check_fail(err, 3746, 0) : 0;
}
