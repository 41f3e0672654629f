/* replay_context.c: the Context3D state machine of the replay: its objects, the
 * render target, its state described as the library's checks read it
 * (agal_context3d_state: a draw's checks are agal_check_draw's, in Flash's words and
 * order), clears, and the back buffer read back as images. replay_run.c runs a
 * scene's calls over it.
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

int rthrow_id(rcall *k, int id)
{
    const agal_flash_error e = {.id = id};
    return rthrow_error(k, &e);
}

int rthrow_null(rcall *k, const char *param)
{
    agal_flash_error e;
    agal_check_non_null(NULL, param, &e);
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

robj *robj_new(rcall *k, robj_kind kind)
{
    replay_ctx *c = k->c;
    const cJSON *as = cJSON_GetObjectItemCaseSensitive(k->json, "as");
    if (!cJSON_IsString(as) || !as->valuestring[0]) {
        rfail(k, "a create call needs \"as\": the new object's name");
        return NULL;
    }
    c->created[kind]++; /* the create call's checks counted the others (agal_check_object_count) */
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

/* ---- draw-time checks: the library's, over the replay's state --------------------- */

static bool is_target(const replay_ctx *c, const robj *t)
{
    for (int i = 0; i < REPLAY_TARGETS; i++)
        if (c->slots[i].texture == t) return true;
    return false;
}

/* A bound texture as agal_check_draw_textures reads it. A face drawn to has every
 * level: its mip maps are made from level 0 before it is sampled (refresh_mipmaps). */
agal_draw_texture rdescribe_texture(const replay_ctx *c, const robj *t)
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

_Static_assert((int)OBJ_VERTEX_BUFFER == AGAL_RESOURCE_VERTEX_BUFFER &&
                   (int)OBJ_INDEX_BUFFER == AGAL_RESOURCE_INDEX_BUFFER && (int)OBJ_PROGRAM == AGAL_RESOURCE_PROGRAM &&
                   (int)OBJ_TEXTURE == AGAL_RESOURCE_TEXTURE,
               "created[] counts objects as agal_context3d_state.objects does");

/* The replay's Context3D as the library's checks read it (agal_context3d_state). */
void rdescribe_state(const replay_ctx *c, agal_context3d_state *s)
{
    agal_context3d_state_init(s, c->profile);
    memcpy(s->objects, c->created, sizeof s->objects);
    s->configured = c->configured, s->cleared = c->cleared;
    s->width = c->width, s->height = c->height, s->depth_and_stencil = c->depth_stencil;
    const agal_upload_result *up = c->program ? c->program->u.program.upload : NULL;
    s->vertex = up ? up->vertex : NULL, s->fragment = up ? up->fragment : NULL;
    for (int i = 0; i < REPLAY_TARGETS; i++) {
        const rslot *slot = &c->slots[i];
        if (!slot->texture) continue;
        s->target_formats[i] = slot->texture->u.tex.desc.format;
        s->targets[i] = (agal_draw_target){slot->texture,
                                           slot->texture->u.tex.desc.width,
                                           slot->texture->u.tex.desc.height,
                                           slot->face,
                                           slot->depth_stencil,
                                           slot->anti_alias};
    }
    for (unsigned i = 0; i < REPLAY_STREAMS; i++) {
        const rstream *st = &c->streams[i];
        s->streams[i] = (agal_draw_stream){.set = st->buffer != NULL, .offset = st->offset, .format = st->format};
        if (st->buffer) {
            s->streams[i].data32_per_vertex = st->buffer->u.vb.data32;
            s->streams[i].vertices = st->buffer->u.vb.vertices;
            s->streams[i].instances_per_element = st->buffer->u.vb.instances_per_element;
        }
    }
    for (int i = 0; i < REPLAY_SAMPLERS; i++) s->textures[i] = rdescribe_texture(c, c->textures[i]);
    s->slots = &c->sampler_slots;
    s->scissor = c->scissor_set;
    memcpy(s->scissor_rect, c->scissor, sizeof s->scissor_rect);
    s->draws = c->draws;
    s->render = c->state;
    s->anti_alias = c->anti_alias;
}

/* The streams the program reads, for the backend. */
static void draw_streams(const replay_ctx *c, replay_draw *d)
{
    unsigned used = agal_program_reads(d->upload->vertex, AGAL_REG_ATTRIBUTE);
    for (unsigned i = 0; i < REPLAY_STREAMS; i++) {
        const robj *vb = c->streams[i].buffer;
        if (!(used >> i & 1) || !vb) continue;
        d->streams[i] = (replay_stream){.buffer = vb->u.vb.rb,
                                        .stride = 4 * vb->u.vb.data32,
                                        .offset = 4 * (uint32_t)c->streams[i].offset,
                                        .format = c->streams[i].format,
                                        .divisor = vb->u.vb.instances_per_element};
    }
}

/* ---- the pipelines' statistics ------------------------------------------------------ */

/* Adds k to the set *keys (n of them) unless it holds it; false when out of memory. */
static bool key_set_add(agal_pipeline_key **keys, size_t *n, const agal_pipeline_key *k)
{
    for (size_t i = 0; i < *n; i++)
        if (agal_pipeline_key_equal(&(*keys)[i], k)) return true;
    agal_pipeline_key *grown = realloc(*keys, (*n + 1) * sizeof *grown);
    if (!grown) return false;
    *keys = grown;
    grown[(*n)++] = *k;
    return true;
}

/* A draw with the full key k, as the backend bakes it. */
static bool count_key(replay_ctx *c, const agal_pipeline_key *k)
{
    agal_pipeline_key baked;
    agal_pipeline_key_baked(k, c->be->dynamic, &baked);
    c->frame_draws++;
    return key_set_add(&c->frame_keys, &c->nframe_keys, &baked) && key_set_add(&c->run_keys, &c->nrun_keys, &baked);
}

bool rframe_end(replay_ctx *c)
{
    replay_result *r = c->out;
    const replay_pipeline_counts *now = &c->be->pipelines, *then = &c->frame_start;
    replay_frame_stats f = {
        .draws = c->frame_draws,
        .keys = (uint32_t)c->nframe_keys,
        .pipelines = {now->created - then->created, now->cache_hits - then->cache_hits, now->ms - then->ms}};
    replay_frame_stats *grown = realloc(r->frames, (r->nframes + 1) * sizeof *grown);
    if (!grown) return false;
    r->frames = grown;
    r->frames[r->nframes++] = f;
    r->total.draws += f.draws;
    r->total.keys = (uint32_t)c->nrun_keys;
    r->total.pipelines = *now;
    c->frame_start = *now;
    c->frame_draws = 0;
    c->nframe_keys = 0;
    return true;
}

/* ---- drawTriangles ------------------------------------------------------------- */

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

/* replay_open_options.probe after a call that wrote t's colour (a clear, a draw). */
static int probe(rcall *k, const replay_draw *d, const replay_target *t);

int rdraw(rcall *k, robj *ib, int32_t first, int32_t triangles, int32_t instances)
{
    replay_ctx *c = k->c;
    agal_context3d_state s;
    rdescribe_state(c, &s);
    const agal_draw_call call = {ib->u.ib.indices, ib->u.ib.count, first, triangles, instances};
    agal_draw_plan plan;
    agal_flash_error e;
    if (agal_check_draw(&s, &call, &plan, &e)) return rthrow_error(k, &e);
    c->draws++;
    replay_target t;
    rtarget_describe(c, &t);
    replay_draw d = {.target = &t,
                     .upload = c->program->u.program.upload,
                     .first = plan.first,
                     .count = plan.count,
                     .instances = plan.instances,
                     .state = &c->state,
                     .scissor = plan.scissor,
                     .scissor_rect = plan.scissor_rect};
    memcpy(d.sampler, plan.samplers, sizeof d.sampler);
    draw_streams(c, &d);
    if (!d.count || !d.instances) return R_OK;
    int rc;
    for (size_t i = 0; i < d.upload->nsamplers; i++) {
        unsigned n = d.upload->samplers[i].num;
        if ((rc = refresh_mipmaps(k, c->textures[n], &d.sampler[n]))) return rc;
        d.texture[n] = c->textures[n]->u.tex.rb;
    }
    d.program = c->program->u.program.rb;
    d.index = ib->u.ib.rb;
    d.vc = (const float(*)[4])c->vc;
    d.fc = (const float(*)[4])c->fc;
    agal_pipeline_key_make(d.upload, &s, &d.key);
    if (c->ops->draw(c->be, &d)) return rbackend(k);
    mark_rendered(c);
    if (!count_key(c, &d.key)) return rfail(k, "out of memory");
    return probe(k, &d, &t);
}

/* ---- clear ------------------------------------------------------------------------ */

int rclear(rcall *k, const double rgba[4], double depth, uint32_t stencil, uint32_t mask)
{
    replay_ctx *c = k->c;
    replay_target t;
    rtarget_describe(c, &t);
    agal_context3d_state s;
    agal_flash_error e;
    rdescribe_state(c, &s);
    if (agal_check_clear(&s, &e)) return rthrow_error(k, &e);
    float color[4];
    for (int i = 0; i < 4; i++) color[i] = agal_stage3d_clear_channel(rgba[i]);
    /* Out-of-range values are clamped (Adobe's reference): depth to [0, 1], stencil to 255. */
    float z = depth > 0 ? (depth < 1 ? (float)depth : 1.0f) : 0.0f;
    mask &= REPLAY_CLEAR_COLOR | (t.depth_stencil ? REPLAY_CLEAR_DEPTH | REPLAY_CLEAR_STENCIL : 0u);
    if (t.back_buffer) c->cleared = true;
    if (mask && c->ops->clear(c->be, &t, color, z, stencil > 255 ? 255 : stencil, mask)) return rbackend(k);
    if (mask & REPLAY_CLEAR_COLOR) mark_rendered(c);
    return mask & REPLAY_CLEAR_COLOR ? probe(k, NULL, &t) : R_OK;
}

/* ---- images ----------------------------------------------------------------------- */

uint8_t *rread_back_buffer(rcall *k)
{
    replay_ctx *c = k->c;
    /* present and drawToBitmapData have checked it (agal_check_present, agal_check_draw_to_bitmap). */
    if (!c->configured) return rfail(k, "the back buffer is read before it is configured"), NULL;
    uint8_t *px = malloc((size_t)c->width * c->height * 4);
    if (!px) return rfail(k, "out of memory"), NULL;
    if (c->ops->read(c->be, px)) {
        free(px);
        return rbackend(k), NULL;
    }
    for (size_t i = 0; i < (size_t)c->width * c->height; i++) px[4 * i + 3] = 255; /* the stage shows it opaque */
    return px;
}

static const char *texture_name(const robj *t) { return t ? t->name : NULL; }

/* The textures a draw's fs sample, by name. */
static void sampled_names(const replay_ctx *c, const replay_draw *d, replay_probe *p)
{
    for (size_t i = 0; d && i < d->upload->nsamplers; i++) {
        unsigned n = d->upload->samplers[i].num;
        p->sampled[n] = texture_name(c->textures[n]);
    }
}

static int probe(rcall *k, const replay_draw *d, const replay_target *t)
{
    replay_ctx *c = k->c;
    if (!c->probe) return R_OK;
    uint8_t *rgba = t->back_buffer ? rread_back_buffer(k) : NULL;
    if (t->back_buffer && !rgba) return R_FAILED;
    replay_probe p = {c->out->call, k->method, d, rgba, c->width, c->height, c->out->nimages, .replaced = !d};
    for (unsigned i = 0; i < t->ncolor; i++) {
        p.written[i] = texture_name(c->slots[i].texture);
        p.replaced &= c->slots[i].texture->u.tex.desc.kind != REPLAY_TEX_CUBE;
    }
    sampled_names(c, d, &p);
    c->probe(c->probe_user, &p);
    free(rgba);
    return R_OK;
}

int rprobe_texture(rcall *k, const robj *t, bool made)
{
    replay_ctx *c = k->c;
    if (!c->probe) return R_OK;
    replay_probe p = {.call = c->out->call,
                      .method = k->method,
                      .width = c->width,
                      .height = c->height,
                      .nimages = c->out->nimages,
                      .written = {t->name},
                      .replaced = made};
    c->probe(c->probe_user, &p);
    return R_OK;
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
