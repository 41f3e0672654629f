/* context3d.c: Context3D's draw-time checks of the streams and the textures, in
 * Flash's order and with Flash's ids (docs/format.md section 8), over what the
 * emulator describes of its state. agalrun replay draws through them. */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>

/* Fills err with id and up to two numbers as its message arguments; returns id. */
static int fail(agal_flash_error *err, int id, int nargs, ...)
{
    memset(err, 0, sizeof *err);
    err->id = id;
    va_list ap;
    va_start(ap, nargs);
    for (int i = 0; i < nargs && i < 2; i++) snprintf(err->args[i], sizeof err->args[i], "%ld", va_arg(ap, long));
    va_end(ap);
    return id;
}

static uint32_t format_words(agal_vertex_format f) { return f == AGAL_VERTEX_BYTES_4 ? 1 : (uint32_t)f + 1; }

static int check_stream(const agal_draw_stream *s, long i, uint32_t count, uint32_t max_index, uint32_t instances,
                        agal_flash_error *err)
{
    if (!s->set) return fail(err, 3611, 1, i);
    if (s->offset < 0 || (uint64_t)(uint32_t)s->offset + format_words(s->format) > s->data32_per_vertex)
        return fail(err, 3610, 1, i);
    uint32_t per = s->instances_per_element;
    if (!per && count && max_index >= s->vertices) return fail(err, 3609, 1, i);
    if (per && i == 0) return fail(err, 3792, 1, i);
    if (per && (uint64_t)s->vertices * per < instances) return fail(err, 3785, 1, i);
    return 0;
}

int agal_check_draw_streams(const agal_program *vertex, const agal_draw_stream streams[AGAL_DRAW_STREAMS],
                            uint32_t count, uint32_t max_index, uint32_t instances, agal_flash_error *err)
{
    unsigned used = agal_program_reads(vertex, AGAL_REG_ATTRIBUTE);
    for (long i = 0; i < AGAL_DRAW_STREAMS; i++) {
        int id = 0;
        if (!(used >> i & 1)) id = streams[i].set ? fail(err, 3607, 1, i) : 0;
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
    if (!t->object) return fail(err, 3663, 1, i);
    if (t->render_target) return fail(err, 3604, 1, i);
    if ((s->dim == AGAL_DIM_CUBE) != (t->kind == AGAL_TEXTURE_KIND_CUBE)) return fail(err, 3606, 1, i);
    if (s->format != token_format(t->format)) return fail(err, 3763, 1, i);
    if (t->kind != AGAL_TEXTURE_KIND_2D && s->wrap != AGAL_WRAP_CLAMP) return fail(err, 3753, 0);
    if (t->kind == AGAL_TEXTURE_KIND_RECTANGLE && (s->mipmap != AGAL_MIP_NONE || s->bias != 0))
        return fail(err, 3755, 0);
    if (!(s->mipmap == AGAL_MIP_NONE ? t->has_level0 : t->has_all_levels)) return fail(err, 3700, 0);
    return 0;
}

int agal_check_draw_textures(const agal_program *fragment, const agal_sampler_slots *slots,
                             const agal_draw_texture textures[16], agal_sampler resolved[16], agal_flash_error *err)
{
    agal_sampler tokens[16], state[16];
    unsigned used = sampled(fragment, tokens);
    for (long i = 0; i < 16; i++) {
        if (!(used >> i & 1)) {
            if (textures[i].object) return fail(err, 3697, 1, i);
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
            if (p->wrap != q->wrap || p->filter != q->filter || p->mipmap != q->mipmap) return fail(err, 3695, 2, i, j);
        }
    return 0;
}
