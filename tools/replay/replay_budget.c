/* replay_budget.c: the replay's memory limit (docs/decisions.md, "Context3D"). Flash throws
 * 3691 "Resource limit for this resource type exceeded." when a GPU's memory for a
 * kind of resource runs out (Adobe's reference: "the amount of memory allocated to
 * textures [vertex buffers, index buffers] is exceeded"), at a size no record gives;
 * the replay stops instead at a limit of its own for buffers, textures, back buffers
 * and the images it keeps together, so that a scene of a few kilobytes cannot take
 * the machine's memory. Each create call and configureBackBuffer counts what it will
 * hold before anything is allocated: the GPU resource, the replay's host copy, and
 * the transient host memory its uploads and read-backs take. */
#include "agal/stage3d.h"
#include "replay_ctx.h"

#include <inttypes.h>

/* The samples a surface of antiAlias aa takes (the count asked for: the helpers
 * take the smallest count the device has not below it). */
static uint64_t samples(int aa) { return agal_stage3d_samples(aa); }

/* Bytes a depth-stencil texel takes: D24S8, or D32S8 where a Vulkan device lacks it. */
enum { DEPTH_STENCIL_BYTES = 8 };

int rbudget_take(rcall *k, uint64_t held, uint64_t transient)
{
    replay_ctx *c = k->c;
    uint64_t left = c->memory_limit - c->memory_used;
    if (held <= left && transient <= left - held) {
        c->memory_used += held;
        return R_OK;
    }
    char line[200];
    agal_flash_message(&(agal_flash_error){.id = 3691}, line, sizeof line);
    return rfail(k,
                 "%s (the replay's memory limit: this call needs %" PRIu64 " bytes, %" PRIu64 " of %" PRIu64
                 " are in use; --memory-limit BYTES)",
                 line, held + transient, c->memory_used, c->memory_limit);
}

void rbudget_give(replay_ctx *c, uint64_t held) { c->memory_used -= held < c->memory_used ? held : c->memory_used; }

uint64_t rbudget_texture(const replay_texture_desc *d)
{
    uint64_t texel = d->format == AGAL_TEXTURE_RGBA_HALF_FLOAT ? 8 : 4, bytes = 0;
    for (uint32_t l = 0; l < d->levels; l++) {
        uint64_t w = d->width >> l ? d->width >> l : 1, h = d->height >> l ? d->height >> l : 1;
        bytes += w * h * texel;
    }
    return bytes * (d->kind == REPLAY_TEX_CUBE ? 6 : 1);
}

uint64_t rbudget_texture_transient(const replay_texture_desc *d)
{
    /* Level 0 twice: the zeros a backend fills it with, or an upload's texels and
     * its staging copy. */
    return 2 * (uint64_t)d->width * d->height * (d->format == AGAL_TEXTURE_RGBA_HALF_FLOAT ? 8 : 4);
}

uint64_t rbudget_back_buffer(uint32_t w, uint32_t h, int aa, bool depth_stencil)
{
    uint64_t px = (uint64_t)w * h, s = samples(aa);
    return px * (4 * s + (depth_stencil ? DEPTH_STENCIL_BYTES * s : 0) + (s > 1 ? 4 : 0));
}

uint64_t rbudget_back_buffer_transient(uint32_t w, uint32_t h)
{
    /* A read-back: the driver's copy and the replay's RGBA, then the image kept. */
    return (uint64_t)w * h * 4 * 3;
}

uint64_t rbudget_target(const robj *t, int aa, bool depth_stencil)
{
    /* Its multisample colour when antialiased, its depth-stencil (slot 0's is the
     * target's, and every slot has slot 0's size: 3729). */
    uint64_t s = samples(aa), px = (uint64_t)t->u.tex.desc.width * t->u.tex.desc.height;
    uint64_t texel = t->u.tex.desc.format == AGAL_TEXTURE_RGBA_HALF_FLOAT ? 8 : 4;
    return (s > 1 ? px * texel * s : 0) + (depth_stencil ? px * DEPTH_STENCIL_BYTES * s : 0);
}
