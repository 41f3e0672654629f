/* fuzz_scene.c: libFuzzer target over the scene reader of `agalrun replay`: the JSON,
 * every call's arguments as AS3 values, the Context3D state machine and its
 * draw-time checks, and the memory limit, on a backend that draws nothing but
 * holds the state machine to what it promises a backend (tools/replay.h): writes
 * inside each buffer and texture level, draws of indices the index buffer has,
 * every stream the program reads set, a texture for every sampler it samples,
 * reads of a configured back buffer. It must never crash, leak, read out of bounds
 * or take more memory than the limit allows. Build with -Dfuzz=true (clang).
 *
 * Input: the scene's JSON text. */
#include "agal/stage3d.h"
#include "replay.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Small enough that fuzzed sizes stay fast under ASan. */
enum { FUZZ_MEMORY_LIMIT = 64 << 20 };

typedef struct null_object null_object;
struct null_object {
    null_object *next;
};

struct rb_buffer {
    null_object link;
    size_t size;
};

struct rb_texture {
    null_object link;
    replay_texture_desc d;
};

struct rb_program {
    null_object link;
};

typedef struct null_backend {
    replay_backend base;
    null_object *objects;
    uint32_t width, height; /* 0 until configured */
} null_backend;

static void *object(null_backend *n, size_t size)
{
    null_object *o = calloc(1, size);
    if (!o) return snprintf(n->base.err, sizeof n->base.err, "out of memory"), NULL;
    o->next = n->objects;
    n->objects = o;
    return o;
}

static replay_backend *null_open(const replay_open_options *o, char *err, size_t errsize)
{
    (void)o;
    null_backend *n = calloc(1, sizeof *n);
    if (!n) snprintf(err, errsize, "out of memory");
    return n ? &n->base : NULL;
}

static void null_close(replay_backend *b)
{
    null_backend *n = (null_backend *)b;
    for (null_object *o = n->objects, *next; o; o = next) {
        next = o->next;
        free(o);
    }
    free(n);
}

static int null_configure(replay_backend *b, uint32_t w, uint32_t h, int aa, bool ds)
{
    null_backend *n = (null_backend *)b;
    (void)aa, (void)ds;
    /* Never a size the library's checks refuse (agal_check_back_buffer). */
    agal_context3d_state s;
    agal_context3d_state_init(&s, AGAL_C3D_STANDARD_EXTENDED);
    uint32_t lo = s.limits.back_buffer_min, hi = s.limits.back_buffer_max;
    if (w < lo || h < lo || w > hi || h > hi) abort();
    n->width = w;
    n->height = h;
    return 0;
}

static rb_buffer *null_buffer_new(replay_backend *b, size_t size, bool index)
{
    (void)index;
    if (!size) abort();
    rb_buffer *buf = object((null_backend *)b, sizeof *buf);
    if (buf) buf->size = size;
    return buf;
}

static int null_buffer_write(replay_backend *b, rb_buffer *buf, size_t offset, const void *data, size_t size)
{
    (void)b;
    if (offset > buf->size || size > buf->size - offset) abort();
    volatile uint8_t sink = size ? ((const uint8_t *)data)[size - 1] : 0; /* the data is readable */
    (void)sink;
    return 0;
}

static rb_texture *null_texture_new(replay_backend *b, const replay_texture_desc *d)
{
    if (!d->width || !d->height || !d->levels || d->levels > agal_stage3d_levels(d->width, d->height)) abort();
    rb_texture *t = object((null_backend *)b, sizeof *t);
    if (t) t->d = *d;
    return t;
}

static uint32_t level_size(uint32_t s, unsigned level) { return s >> level ? s >> level : 1; }

static int null_texture_write(replay_backend *b, rb_texture *t, unsigned face, unsigned level, uint32_t w, uint32_t h,
                              const void *texels)
{
    (void)b;
    if (face >= (t->d.kind == REPLAY_TEX_CUBE ? 6u : 1u) || level >= t->d.levels || !w || !h ||
        w > level_size(t->d.width, level) || h > level_size(t->d.height, level))
        abort();
    size_t texel = t->d.format == AGAL_TEXTURE_RGBA_HALF_FLOAT ? 8 : 4;
    volatile uint8_t sink = ((const uint8_t *)texels)[(size_t)w * h * texel - 1];
    (void)sink;
    return 0;
}

static int null_texture_mipmaps(replay_backend *b, rb_texture *t)
{
    (void)b, (void)t;
    return 0;
}

static rb_program *null_program_new(replay_backend *b, const agal_upload_result *r)
{
    if (!r->shaders[AGAL_VERTEX].nwords || !r->shaders[AGAL_FRAGMENT].nwords) abort();
    return object((null_backend *)b, sizeof(rb_program));
}

static void check_target(const null_backend *n, const replay_target *t)
{
    if (t->back_buffer ? !n->width || t->width != n->width || t->height != n->height
                       : !t->ncolor || t->ncolor > REPLAY_TARGETS || !t->color[0])
        abort();
}

static int null_clear(replay_backend *b, const replay_target *t, const float rgba[4], float depth, uint32_t stencil,
                      unsigned mask)
{
    (void)rgba;
    check_target((null_backend *)b, t);
    if (!(depth >= 0 && depth <= 1) || stencil > 255 || !mask || mask > 7) abort();
    return 0;
}

static int null_draw(replay_backend *b, const replay_draw *d)
{
    check_target((null_backend *)b, d->target);
    if (!d->program || !d->upload || !d->index || (uint64_t)d->first + d->count > d->index->size / 2) abort();
    for (size_t i = 0; i < d->upload->nattributes; i++)
        if (!d->streams[d->upload->attributes[i].location].buffer) abort();
    for (size_t i = 0; i < d->upload->nsamplers; i++)
        if (!d->texture[d->upload->samplers[i].num]) abort();
    return 0;
}

static int null_read(replay_backend *b, uint8_t *rgba)
{
    null_backend *n = (null_backend *)b;
    if (!n->width) abort();
    memset(rgba, 0x80, (size_t)n->width * n->height * 4); /* the buffer is that large */
    return 0;
}

static const replay_backend_ops null_ops = {
    .name = "null",
    .target = AGAL_TARGET_SPIRV,
    .open = null_open,
    .close = null_close,
    .configure = null_configure,
    .buffer_new = null_buffer_new,
    .buffer_write = null_buffer_write,
    .texture_new = null_texture_new,
    .texture_write = null_texture_write,
    .texture_mipmaps = null_texture_mipmaps,
    .program_new = null_program_new,
    .clear = null_clear,
    .draw = null_draw,
    .read = null_read,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *json = malloc(size + 1);
    if (!json) return 0;
    memcpy(json, data, size);
    json[size] = 0;
    replay_open_options o = {.memory_limit = FUZZ_MEMORY_LIMIT};
    replay_result r;
    replay_run(json, size, "fuzz", &null_ops, &o, &r);
    if (r.status > REPLAY_FAILED) abort();
    for (size_t i = 0; i < r.nimages; i++)
        if (!r.images[i].rgba || !r.images[i].width || !r.images[i].height) abort();
    replay_result_free(&r);
    free(json);
    return 0;
}
