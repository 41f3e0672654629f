/* harness.c: what both runners share (texture layout, the harness's own binding
 * layout, draw checks, results, driver pinning). */
#define _GNU_SOURCE 1 /* dl_iterate_phdr, RTLD_NODELETE */
#include "agal/stage3d.h"
#include "harness.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int pin_one(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    if (info->dlpi_name && info->dlpi_name[0]) (void)dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    return 0;
}

/* The loaders unload drivers (and the LLVM they pull in) at teardown; what the
 * drivers leak at exit then has no module name, so no sanitizer suppression can
 * name it. Pinning every loaded object keeps them mapped until exit. The
 * RTLD_NOLOAD handles are deliberately never closed. */
void harness_pin_libraries(void) { dl_iterate_phdr(pin_one, NULL); }

size_t harness_texture_floats(const harness_texture *t) { return harness_texture_offset(t, t->cube ? 6 : 1, 0); }

size_t harness_texture_offset(const harness_texture *t, unsigned face, unsigned level)
{
    size_t per_face = 0, off = 0;
    for (unsigned l = 0; l < t->levels; l++) {
        size_t s = t->size >> l;
        if (l < level) off += s * s * 4;
        per_face += s * s * 4;
    }
    return per_face * face + off;
}

void harness_result_free(harness_result *r)
{
    for (int i = 0; i < HARNESS_MAX_OUTPUTS; i++) free(r->color[i]);
    free(r->depth);
    free(r->xfb);
    memset(r, 0, sizeof *r);
}

void harness_draw_upload(harness_draw *d, const agal_upload_result *up)
{
    d->vs_spirv = up->shaders[AGAL_VERTEX].words;
    d->vs_words = up->shaders[AGAL_VERTEX].nwords;
    d->fs_spirv = up->shaders[AGAL_FRAGMENT].words;
    d->fs_words = up->shaders[AGAL_FRAGMENT].nwords;
    d->vs_glsl = up->shaders[AGAL_VERTEX].text;
    d->fs_glsl = up->shaders[AGAL_FRAGMENT].text;
    d->layout = up;
}

const agal_upload_result *harness_layout_of(const harness_draw *d, harness_layout *own)
{
    if (d->layout) return d->layout;
    memset(own, 0, sizeof *own);
    agal_upload_result *r = &own->r;
    r->target = AGAL_TARGET_SPIRV;
    if (d->vc)
        r->blocks[r->nblocks++] =
            (agal_binding_block){AGAL_VERTEX, AGAL_VC_BINDING, d->nvc, 16 * d->nvc, AGAL_GLSL_VC_BLOCK, false, NULL, 0};
    if (d->fc)
        r->blocks[r->nblocks++] = (agal_binding_block){AGAL_FRAGMENT,      AGAL_FC_BINDING, d->nfc, 16 * d->nfc,
                                                       AGAL_GLSL_FC_BLOCK, false,           NULL,   0};
    for (unsigned i = 0; i < HARNESS_MAX_TEXTURES; i++) {
        if (!d->tex[i].present) continue;
        snprintf(own->names[i], sizeof own->names[i], "fs%u", i);
        own->samplers[r->nsamplers++] = (agal_binding_sampler){.num = (uint16_t)i,
                                                               .binding = AGAL_SAMPLER_BINDING + i,
                                                               .sampler_binding = AGAL_SAMPLER_BINDING + i,
                                                               .name = own->names[i],
                                                               .token = d->tex[i].sampler};
    }
    r->samplers = own->samplers;
    return r;
}

/* The upload's block for stage, where its ranges move a register (limits packed it). */
static const agal_binding_block *packed_block(const harness_draw *d, agal_stage stage)
{
    for (size_t i = 0; d->layout && i < d->layout->nblocks; i++) {
        const agal_binding_block *b = &d->layout->blocks[i];
        if (b->stage != stage) continue;
        bool moved = false;
        for (size_t k = 0; k < b->nranges; k++) moved |= b->ranges[k].first != b->ranges[k].offset;
        return moved ? b : NULL;
    }
    return NULL;
}

const float *harness_constants(const harness_draw *d, agal_stage stage, float (*scratch)[4], unsigned *n)
{
    const float *regs = stage == AGAL_VERTEX ? d->vc : d->fc;
    const agal_binding_block *b = regs ? packed_block(d, stage) : NULL;
    *n = stage == AGAL_VERTEX ? d->nvc : d->nfc;
    if (!b || b->count > HARNESS_MAX_CONSTANTS) return regs;
    agal_binding_block_gather(b, regs, &scratch[0][0]);
    *n = b->count;
    return &scratch[0][0];
}

static int draw_error(char *err, size_t errsize, const char *what)
{
    snprintf(err, errsize, "harness: %s", what);
    return -1;
}

int harness_check_draw(const harness_draw *d, bool gl, char *err, size_t errsize)
{
    bool vertex = gl ? d->vs_glsl != NULL : d->vs_spirv && d->vs_words;
    bool fragment = gl ? d->fs_glsl != NULL : d->fs_spirv != NULL;
    if (!vertex || d->nverts == 0 || d->ninstances == 0)
        return draw_error(err, errsize, "no vertex shader or no vertices");
    if (fragment && (d->noc == 0 || d->noc > HARNESS_MAX_OUTPUTS || !d->width || !d->height))
        return draw_error(err, errsize, "a fragment draw needs 1..4 outputs and a size");
    const harness_draw *pre = d->pre;
    if (pre && (pre->pre || pre->noc != 1 || pre->capture || pre->width != pre->height || !fragment ||
                !(gl ? pre->fs_glsl != NULL : pre->fs_spirv != NULL)))
        return draw_error(err, errsize, "a pre pass draws one oc into a square texture that a fragment draw samples");
    if (pre && harness_check_draw(pre, gl, err, errsize)) return -1;
    for (unsigned i = 0; i < HARNESS_MAX_TEXTURES; i++) {
        const harness_texture *t = &d->tex[i];
        if (t->present && t->rendered && (!pre || t->cube || t->size != pre->width || t->levels != 1))
            return draw_error(err, errsize, "a rendered texture is its pre pass's oc0: 2D, that size, one level");
    }
    for (size_t i = 0; d->layout && i < d->layout->nsamplers; i++) {
        unsigned n = d->layout->samplers[i].num;
        if (n >= HARNESS_MAX_TEXTURES || !d->tex[n].present)
            return draw_error(err, errsize, "the layout samples a sampler that has no texture");
    }
    return 0;
}
