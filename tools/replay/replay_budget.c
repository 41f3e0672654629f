/* replay_budget.c: the replay's memory limit (docs/decisions.md, "Context3D"). Flash throws
 * 3691 "Resource limit for this resource type exceeded." when a GPU's memory for a
 * kind of resource runs out (Adobe's reference: "the amount of memory allocated to
 * textures [vertex buffers, index buffers] is exceeded"), at a size no record gives;
 * the replay stops instead at a limit of its own for buffers, textures, back buffers
 * and the images it keeps together, so that a scene of a few kilobytes cannot take
 * the machine's memory. Each create call and configureBackBuffer counts what it will
 * hold before anything is allocated, with one rule: what the replay keeps of a
 * resource, plus what the backend's driver holds for it (replay_holdings, stated by
 * each backend), fits in what is left, and so does the transient memory its
 * creation, uploads and read-backs take on top. */
#include "agal/stage3d.h"
#include "replay_ctx.h"

#include <inttypes.h>

/* The samples a surface of antiAlias aa takes (the count asked for: the helpers
 * take the smallest count the device has not below it). */
static uint64_t samples(int aa) { return agal_stage3d_samples(aa); }

static const replay_holdings *holdings(const replay_ctx *c) { return &c->be->holdings; }

static uint64_t texel_bytes(agal_texture_format f) { return f == AGAL_TEXTURE_RGBA_HALF_FLOAT ? 8 : 4; }

int rbudget_take(rcall *k, rcost cost)
{
    replay_ctx *c = k->c;
    agal_flash_error e;
    if (!agal_check_memory(c->memory_limit, c->memory_used, cost.held, cost.transient, &e)) {
        c->memory_used += cost.held;
        return R_OK;
    }
    char line[200];
    agal_flash_message(&e, line, sizeof line);
    return rfail(k,
                 "%s (the replay's memory limit: this call needs %" PRIu64 " bytes, %" PRIu64 " of %" PRIu64
                 " are in use; --memory-limit BYTES)",
                 line, cost.held + cost.transient, c->memory_used, c->memory_limit);
}

void rbudget_give(replay_ctx *c, uint64_t held) { c->memory_used -= held < c->memory_used ? held : c->memory_used; }

rcost rbudget_buffer(const replay_ctx *c, uint64_t bytes, uint64_t kept)
{
    const replay_holdings *h = holdings(c);
    return (rcost){bytes * h->buffer + kept, bytes * h->fill};
}

rcost rbudget_texture(const replay_ctx *c, const replay_texture_desc *d)
{
    const replay_holdings *h = holdings(c);
    uint64_t texel = texel_bytes(d->format), bytes = 0;
    for (uint32_t l = 0; l < d->levels; l++) {
        uint64_t w = d->width >> l ? d->width >> l : 1, hh = d->height >> l ? d->height >> l : 1;
        bytes += w * hh * texel;
    }
    bytes *= d->kind == REPLAY_TEX_CUBE ? 6 : 1;
    /* One face of level 0 at a time: the zeros the driver fills it from, or an
     * upload's texels as the replay converts them and the driver's copy of them. */
    uint64_t level0 = (uint64_t)d->width * d->height * texel;
    uint64_t upload = level0 * (1 + h->upload), fill = level0 * h->fill;
    return (rcost){bytes * h->texture, upload > fill ? upload : fill};
}

/* The RGBA a read of the back buffer takes through the driver. */
static uint64_t read_back(const replay_ctx *c, uint64_t pixels) { return pixels * 4 * holdings(c)->read_back; }

rcost rbudget_back_buffer(const replay_ctx *c, uint32_t w, uint32_t h, int aa, bool depth_stencil)
{
    const replay_holdings *hs = holdings(c);
    uint64_t px = (uint64_t)w * h, s = samples(aa);
    uint64_t color = 4 * s + (s > 1 ? 4 : 0), depth = depth_stencil ? hs->depth_stencil_bytes * s : 0;
    /* Its first read: the driver's, the replay's RGBA, then the image kept. */
    return (rcost){px * (color + depth) * hs->surface, read_back(c, px) + px * 4 * 2};
}

rcost rbudget_present(const replay_ctx *c)
{
    /* The image kept is the RGBA read. */
    uint64_t px = (uint64_t)c->width * c->height;
    return (rcost){px * 4, read_back(c, px)};
}

rcost rbudget_draw_to_bitmap(const replay_ctx *c, uint64_t bitmap_bytes)
{
    /* The bitmap kept; the RGBA read, copied into it and freed. */
    uint64_t px = (uint64_t)c->width * c->height;
    return (rcost){bitmap_bytes, read_back(c, px) + px * 4};
}

uint64_t rbudget_target(const replay_ctx *c, const robj *t, int aa, bool depth_stencil)
{
    /* Its multisample colour when antialiased, its depth-stencil (slot 0's is the
     * target's, and every slot has slot 0's size: 3729). */
    const replay_holdings *h = holdings(c);
    uint64_t s = samples(aa), px = (uint64_t)t->u.tex.desc.width * t->u.tex.desc.height;
    uint64_t color = s > 1 ? texel_bytes(t->u.tex.desc.format) * s : 0;
    return px * (color + (depth_stencil ? h->depth_stencil_bytes * s : 0)) * h->surface;
}
