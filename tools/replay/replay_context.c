/* replay_context.c: the Context3D state machine of the replay: its objects, the
 * render target, what a draw checks before it draws (each in Flash's words, in the
 * order docs/format.md section 8 gives), clears, and the back buffer read back as
 * images. replay_run.c runs a scene's calls over it.
 *
 * Context3D's state starts as Flash documents it: no blending (one, zero), every
 * colour written, no culling, depth written and tested lessEqual (Direct3D's
 * default, which Flash's reference leaves unsaid: decided), stencil always/keep
 * with reference 0 and masks 255, no scissor, every sampler slot clamp, nearest,
 * mipnone, every constant register 0. */
#include "agal/interp.h"
#include "agal/stage3d.h"
#include "replay_ctx.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ------------------------------------------------------------------ */

static void note_call(rcall *k, replay_status st)
{
    replay_result *r = k->c->out;
    r->status = st;
    snprintf(r->method, sizeof r->method, "%s", k->method ? k->method : "");
}

int rthrow_error(rcall *k, const agal_flash_error *e)
{
    replay_result *r = k->c->out;
    agal_flash_line(e, r->thrown, sizeof r->thrown);
    r->thrown_id = e->id;
    note_call(k, REPLAY_THROWN);
    return R_THROWN;
}

int rthrow(rcall *k, int id, ...)
{
    agal_flash_error e = {.id = id};
    const char *a;
    va_list ap;
    va_start(ap, id);
    for (size_t n = 0; n < 4 && (a = va_arg(ap, const char *)); n++) snprintf(e.args[n], sizeof e.args[n], "%s", a);
    va_end(ap);
    return rthrow_error(k, &e);
}

int rfail(rcall *k, const char *fmt, ...)
{
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (k->method) fprintf(stderr, "%s: call %zu (%s): %s\n", k->c->name, k->c->out->call, k->method, msg);
    else fprintf(stderr, "%s: %s\n", k->c->name, msg);
    note_call(k, REPLAY_FAILED);
    return R_FAILED;
}

int rbackend(rcall *k) { return rfail(k, "%s: %s", k->c->ops->name, k->c->be->err); }

/* ---- objects ------------------------------------------------------------------ */

robj *robj_find(replay_ctx *c, const char *name)
{
    for (size_t i = c->nobjects; i-- > 0;) /* the newest of a name wins */
        if (!strcmp(c->objects[i]->name, name)) return c->objects[i];
    return NULL;
}

/* Flash's limit on live objects of a kind (Adobe's reference: 4096 each). */
enum { RESOURCE_LIMIT = 4096 };

robj *robj_new(rcall *k, robj_kind kind)
{
    replay_ctx *c = k->c;
    const cJSON *as = cJSON_GetObjectItemCaseSensitive(k->json, "as");
    if (!cJSON_IsString(as) || !as->valuestring[0]) {
        rfail(k, "a create call needs \"as\": the new object's name");
        return NULL;
    }
    if (++c->created[kind] > RESOURCE_LIMIT) {
        rthrow(k, 3691, NULL);
        return NULL;
    }
    if (c->nobjects == c->objects_cap) {
        size_t cap = c->objects_cap ? 2 * c->objects_cap : 16;
        robj **grown = realloc(c->objects, cap * sizeof *grown);
        if (!grown) return rfail(k, "out of memory"), NULL;
        c->objects = grown;
        c->objects_cap = cap;
    }
    robj *o = calloc(1, sizeof *o);
    char *name = o ? strdup(as->valuestring) : NULL;
    if (!name) {
        free(o);
        return rfail(k, "out of memory"), NULL;
    }
    o->name = name;
    o->kind = kind;
    c->objects[c->nobjects++] = o;
    return o;
}

void robj_free(robj *o)
{
    if (o->kind == OBJ_INDEX_BUFFER) free(o->u.ib.indices);
    free(o->name);
    free(o);
}

/* ---- profiles ------------------------------------------------------------------ */

agal_profile rprofile_registers(rprofile p)
{
    return p >= PROF_STANDARD_EXTENDED      ? AGAL_PROFILE_STANDARD_EXTENDED
           : p >= PROF_STANDARD_CONSTRAINED ? AGAL_PROFILE_STANDARD
                                            : AGAL_PROFILE_BASELINE;
}

bool rprofile_at_least(rprofile p, rprofile min) { return p >= min; }

/* ---- the render target -------------------------------------------------------- */

bool rtarget_is_texture(const replay_ctx *c)
{
    for (int i = 0; i < REPLAY_TARGETS; i++)
        if (c->slots[i].texture) return true;
    return false;
}

void rtarget_describe(const replay_ctx *c, replay_target *t)
{
    *t = (replay_target){.back_buffer = !rtarget_is_texture(c)};
    if (t->back_buffer) {
        t->depth_stencil = c->depth_stencil;
        t->width = c->width;
        t->height = c->height;
        return;
    }
    for (unsigned i = 0; i < REPLAY_TARGETS && c->slots[i].texture; i++) {
        t->color[i] = c->slots[i].texture->u.tex.rb;
        t->face[i] = c->slots[i].face;
        t->ncolor = i + 1;
    }
    const robj *tex = c->slots[0].texture;
    t->depth_stencil = c->slots[0].depth_stencil;
    t->anti_alias = c->slots[0].anti_alias;
    t->width = tex ? tex->u.tex.desc.width : 0;
    t->height = tex ? tex->u.tex.desc.height : 0;
}

static char *num(char buf[16], long v)
{
    snprintf(buf, 16, "%ld", v);
    return buf;
}

/* 3728, 3729, 3730: the texture slots; 3774: their number against the program's
 * colour outputs; 3776: a depth output with no depth buffer. */
static int check_targets(rcall *k, const replay_target *t)
{
    const replay_ctx *c = k->c;
    if (!t->back_buffer) {
        for (int i = 1; i < REPLAY_TARGETS; i++)
            if (c->slots[i].texture && !c->slots[0].texture) return rthrow(k, 3728, NULL);
        for (unsigned i = 1; i < t->ncolor; i++) {
            const rslot *a = &c->slots[0], *b = &c->slots[i];
            if (!b->texture) return rthrow(k, 3728, NULL);
            if (b->texture->u.tex.desc.width != a->texture->u.tex.desc.width ||
                b->texture->u.tex.desc.height != a->texture->u.tex.desc.height ||
                b->depth_stencil != a->depth_stencil || b->anti_alias != a->anti_alias)
                return rthrow(k, 3729, NULL);
            for (unsigned j = 0; j < i; j++)
                if (c->slots[j].texture == b->texture && c->slots[j].face == b->face) return rthrow(k, 3730, NULL);
        }
    }
    unsigned outputs = agal_interp_written(c->program->u.program.upload->fragment, AGAL_REG_OUTPUT), n = 0;
    while (n < 4 && (outputs & (1u << n))) n++;
    if (n != (t->back_buffer ? 1 : t->ncolor)) return rthrow(k, 3774, NULL);
    if (c->program->u.program.upload->writes_depth && !t->depth_stencil) return rthrow(k, 3776, NULL);
    return R_OK;
}

/* ---- draw-time checks: the library's, over the replay's state --------------------- */

static bool is_target(const replay_ctx *c, const robj *t)
{
    for (int i = 0; i < REPLAY_TARGETS; i++)
        if (c->slots[i].texture == t) return true;
    return false;
}

/* A bound texture as agal_check_draw_textures reads it. A face drawn to has every
 * level: its mip maps are made from level 0 before it is sampled (refresh_mipmaps). */
static agal_draw_texture describe_texture(const replay_ctx *c, const robj *t)
{
    agal_draw_texture d = {.object = t};
    if (!t) return d;
    d.kind = (agal_texture_kind)t->u.tex.desc.kind;
    d.format = t->u.tex.format;
    d.render_target = is_target(c, t);
    unsigned faces = t->u.tex.desc.kind == REPLAY_TEX_CUBE ? 6 : 1;
    uint32_t all = (uint32_t)((1ull << t->u.tex.desc.levels) - 1);
    d.has_level0 = d.has_all_levels = true;
    for (unsigned f = 0; f < faces; f++) {
        uint32_t have = t->u.tex.rendered && (t->u.tex.defined[f] & 1) ? all : t->u.tex.defined[f];
        d.has_level0 &= (have & 1) != 0;
        d.has_all_levels &= (have & all) == all;
    }
    return d;
}

/* agal_check_draw_textures; fills the resolved sampler states. */
static int check_samplers(rcall *k, agal_sampler resolved[REPLAY_SAMPLERS])
{
    replay_ctx *c = k->c;
    agal_draw_texture tex[16];
    for (int i = 0; i < 16; i++) tex[i] = describe_texture(c, i < REPLAY_SAMPLERS ? c->textures[i] : NULL);
    agal_flash_error e;
    return agal_check_draw_textures(c->program->u.program.upload->fragment, &c->sampler_slots, tex, resolved, &e)
               ? rthrow_error(k, &e)
               : R_OK;
}

/* The largest index the draw reads. */
static uint32_t max_index(const robj *ib, uint32_t first, uint32_t count)
{
    uint32_t m = 0;
    for (uint32_t i = first; i < first + count; i++) m = ib->u.ib.indices[i] > m ? ib->u.ib.indices[i] : m;
    return m;
}

/* agal_check_draw_streams; fills d->streams with the streams the program reads. */
static int check_streams(rcall *k, const robj *ib, uint32_t first, uint32_t count, uint32_t instances, replay_draw *d)
{
    replay_ctx *c = k->c;
    agal_draw_stream st[AGAL_DRAW_STREAMS];
    for (unsigned i = 0; i < AGAL_DRAW_STREAMS; i++) {
        const rstream *s = &c->streams[i];
        const robj *vb = i < REPLAY_STREAMS ? s->buffer : NULL;
        st[i] = (agal_draw_stream){.set = vb != NULL, .offset = s->offset, .format = s->format};
        if (vb) {
            st[i].data32_per_vertex = vb->u.vb.data32;
            st[i].vertices = vb->u.vb.vertices;
            st[i].instances_per_element = vb->u.vb.instances_per_element;
        }
    }
    const agal_program *vp = c->program->u.program.upload->vertex;
    agal_flash_error e;
    if (agal_check_draw_streams(vp, st, count, count ? max_index(ib, first, count) : 0, instances, &e))
        return rthrow_error(k, &e);
    unsigned used = agal_program_reads(vp, AGAL_REG_ATTRIBUTE);
    for (unsigned i = 0; i < REPLAY_STREAMS; i++) {
        const robj *vb = c->streams[i].buffer;
        if (!(used >> i & 1) || !vb) continue;
        d->streams[i] = (replay_stream){.buffer = vb->u.vb.rb,
                                        .stride = 4 * vb->u.vb.data32,
                                        .offset = 4 * (uint32_t)c->streams[i].offset,
                                        .format = c->streams[i].format,
                                        .divisor = vb->u.vb.instances_per_element};
    }
    return R_OK;
}

/* ---- drawTriangles ------------------------------------------------------------- */

/* Flash's limit on draws between presents (Adobe's reference). */
enum { DRAW_LIMIT = 32768 };

/* 3698, 3692 (the back buffer), 3600, 3602, 3603 (the index range). */
static int check_call(rcall *k, const robj *ib, int32_t first, int32_t *triangles)
{
    replay_ctx *c = k->c;
    char a[16], b[16], n[16];
    if (!rtarget_is_texture(c) && !c->configured) return rthrow(k, 3698, NULL);
    if (!rtarget_is_texture(c) && !c->cleared) return rthrow(k, 3692, NULL);
    if (!c->program || !c->program->u.program.upload) return rthrow(k, 3600, NULL);
    if (first < 0 || *triangles < -1) return rthrow(k, 3602, num(a, *triangles), num(b, first), NULL);
    /* -1 draws every whole triangle from firstIndex on. */
    int64_t tri = *triangles == -1 ? ((int64_t)ib->u.ib.count - first) / 3 : *triangles;
    if (tri < 0 || first + 3 * tri > ib->u.ib.count)
        return rthrow(k, 3603, num(a, (long)tri), num(b, first), num(n, ib->u.ib.count), NULL);
    *triangles = (int32_t)tri;
    return R_OK;
}

/* The render targets drawn to have their levels 1.. out of date (Flash makes a
 * target's mip maps itself: they are made again before it is sampled with mips). */
static void mark_rendered(replay_ctx *c)
{
    for (int i = 0; i < REPLAY_TARGETS; i++) {
        robj *t = c->slots[i].texture;
        if (!t) continue;
        t->u.tex.rendered = true;
        t->u.tex.defined[c->slots[i].face] |= 1;
    }
}

/* A texture about to be sampled with mipmapping after it was rendered to. */
static int refresh_mipmaps(rcall *k, robj *t, const agal_sampler *s)
{
    if (!t->u.tex.rendered || s->mipmap == AGAL_MIP_NONE || t->u.tex.desc.levels == 1) return R_OK;
    if (k->c->ops->texture_mipmaps(k->c->be, t->u.tex.rb)) return rbackend(k);
    t->u.tex.rendered = false;
    uint32_t all = (uint32_t)((1ull << t->u.tex.desc.levels) - 1);
    for (int f = 0; f < 6; f++) t->u.tex.defined[f] = t->u.tex.defined[f] & 1 ? all : t->u.tex.defined[f];
    return R_OK;
}

int rdraw(rcall *k, robj *ib, int32_t first, int32_t triangles, int32_t instances)
{
    replay_ctx *c = k->c;
    replay_target t;
    replay_draw d = {.target = &t, .first = (uint32_t)first, .instances = (uint32_t)instances, .state = &c->state};
    int rc;
    if ((rc = check_call(k, ib, first, &triangles))) return rc;
    rtarget_describe(c, &t);
    if ((rc = check_targets(k, &t))) return rc;
    d.count = 3 * (uint32_t)triangles;
    d.upload = c->program->u.program.upload;
    if ((rc = check_samplers(k, d.sampler)) || (rc = check_streams(k, ib, d.first, d.count, d.instances, &d)))
        return rc;
    d.scissor = c->scissor_set && agal_stage3d_scissor(c->scissor[0], c->scissor[1], c->scissor[2], c->scissor[3],
                                                       t.width, t.height, &d.scissor_rect);
    if (d.scissor && (!d.scissor_rect.width || !d.scissor_rect.height)) return rthrow(k, 3706, NULL);
    if (++c->draws > DRAW_LIMIT) return rthrow(k, 3690, NULL);
    if (!d.count || !d.instances) return R_OK;
    for (size_t i = 0; i < d.upload->nsamplers; i++) {
        unsigned n = d.upload->samplers[i].num;
        if ((rc = refresh_mipmaps(k, c->textures[n], &d.sampler[n]))) return rc;
        d.texture[n] = c->textures[n]->u.tex.rb;
    }
    d.program = c->program->u.program.rb;
    d.index = ib->u.ib.rb;
    d.vc = (const float(*)[4])c->vc;
    d.fc = (const float(*)[4])c->fc;
    if (c->ops->draw(c->be, &d)) return rbackend(k);
    mark_rendered(c);
    return R_OK;
}

/* ---- clear ------------------------------------------------------------------------ */

int rclear(rcall *k, const double rgba[4], double depth, uint32_t stencil, uint32_t mask)
{
    replay_ctx *c = k->c;
    replay_target t;
    rtarget_describe(c, &t);
    if (t.back_buffer && !c->configured) return rthrow(k, 3698, NULL);
    float color[4];
    for (int i = 0; i < 4; i++) color[i] = agal_stage3d_clear_channel(rgba[i]);
    /* Out-of-range values are clamped (Adobe's reference): depth to [0, 1], stencil to 255. */
    float z = depth > 0 ? (depth < 1 ? (float)depth : 1.0f) : 0.0f;
    mask &= REPLAY_CLEAR_COLOR | (t.depth_stencil ? REPLAY_CLEAR_DEPTH | REPLAY_CLEAR_STENCIL : 0u);
    if (t.back_buffer) c->cleared = true;
    if (mask && c->ops->clear(c->be, &t, color, z, stencil > 255 ? 255 : stencil, mask)) return rbackend(k);
    if (mask & REPLAY_CLEAR_COLOR) mark_rendered(c);
    return R_OK;
}

/* ---- images ----------------------------------------------------------------------- */

uint8_t *rread_back_buffer(rcall *k)
{
    replay_ctx *c = k->c;
    if (!c->configured) return rthrow(k, 3698, NULL), NULL;
    uint8_t *px = malloc((size_t)c->width * c->height * 4);
    if (!px) return rfail(k, "out of memory"), NULL;
    if (c->ops->read(c->be, px)) {
        free(px);
        return rbackend(k), NULL;
    }
    for (size_t i = 0; i < (size_t)c->width * c->height; i++) px[4 * i + 3] = 255; /* the stage shows it opaque */
    return px;
}

int radd_image(rcall *k, uint8_t *rgba, uint32_t w, uint32_t h)
{
    replay_result *r = k->c->out;
    replay_image *grown = realloc(r->images, (r->nimages + 1) * sizeof *grown);
    if (!grown) {
        free(rgba);
        return rfail(k, "out of memory");
    }
    r->images = grown;
    r->images[r->nimages++] = (replay_image){w, h, rgba, k->method};
    return R_OK;
}
