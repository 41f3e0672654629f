/* resources.c: Context3D's checks of the calls that make, fill and read resources
 * (docs/format.md section 8), in Flash's order and with Flash's ids, beside the
 * draw's (context3d.c): the enumeration strings and null arguments, the back
 * buffer, createVertexBuffer / createIndexBuffer / createVertexBufferForInstances,
 * the three texture calls, the object counts, the uploads, clear and
 * drawToBitmapData. The limits they count are the state's (agal_context3d_limits),
 * Flash's per profile from agal_context3d_state_init. agalrun replay calls them,
 * so its error cases (tests/gpu/replay_errors.json) test them, and
 * tests/unit/test_resources.c runs the same cases without a GPU. */
#include "internal.h"

#include <stdio.h>

/* Fills err with id and one text argument (a parameter's name); returns id. */
static int fail_param(agal_flash_error *err, int id, const char *param)
{
    memset(err, 0, sizeof *err);
    err->id = id;
    snprintf(err->args[0], sizeof err->args[0], "%s", param ? param : "");
    return id;
}

/* Flash's limits (Adobe's reference; docs/format.md section 8). */
static agal_context3d_limits flash_limits(agal_context3d_profile profile)
{
    return (agal_context3d_limits){
        .objects = 4096,
        /* baselineExtended "increases the maximum 2D Texture ... size to 4096x4096". */
        .texture_size = profile >= AGAL_C3D_BASELINE_EXTENDED ? 4096 : 2048,
        .cube_size = 1024,
        .rectangle_size = 2048,
        .back_buffer_min = 32,
        .back_buffer_max = 16384,
        .vertices = 65535,
        .data32_per_vertex = 64,
        .indices = 0xEFFFF,
    };
}

void agal_context3d_state_init(agal_context3d_state *s, agal_context3d_profile profile)
{
    memset(s, 0, sizeof *s);
    s->profile = profile;
    s->limits = flash_limits(profile);
    s->render = agal_render_state_default();
}

/* ---- arguments ------------------------------------------------------------------ */

int agal_check_enum(agal_stage3d_enum which, const char *name, const char *param, unsigned *value,
                    agal_flash_error *err)
{
    if (!name) return fail_param(err, 2007, param);
    return agal_stage3d_find(which, name, value) ? 0 : fail_param(err, 2008, param);
}

int agal_check_non_null(const void *value, const char *param, agal_flash_error *err)
{
    return value ? 0 : fail_param(err, 2007, param);
}

/* ---- the back buffer --------------------------------------------------------------- */

int agal_check_back_buffer(const agal_context3d_state *s, int32_t width, int32_t height, agal_flash_error *err)
{
    long lo = (long)s->limits.back_buffer_min, hi = (long)s->limits.back_buffer_max;
    if (width < lo || width > hi) return agal_check_fail(err, 3780, 2, lo, hi);
    if (height < lo || height > hi) return agal_check_fail(err, 3781, 2, lo, hi);
    return 0;
}

static bool to_back_buffer(const agal_context3d_state *s)
{
    for (int i = 0; i < AGAL_DRAW_TARGETS; i++)
        if (s->targets[i].texture) return false;
    return true;
}

int agal_check_clear(const agal_context3d_state *s, agal_flash_error *err)
{
    return to_back_buffer(s) && !s->configured ? agal_check_fail(err, 3698, 0) : 0;
}

int agal_check_draw_to_bitmap(const agal_context3d_state *s, uint32_t bitmap_width, uint32_t bitmap_height,
                              const double src_rect[4], const double dest_point[2], agal_flash_error *err)
{
    if (!s->configured) return agal_check_fail(err, 3698, 0);
    const double *r = src_rect, *p = dest_point;
    /* Written so that NaN fails every comparison and so lies outside. */
    bool src_in =
        !r || (r[0] >= 0 && r[1] >= 0 && r[2] >= 0 && r[3] >= 0 && r[0] + r[2] <= s->width && r[1] + r[3] <= s->height);
    bool dst_in = !p || (p[0] >= 0 && p[1] >= 0 && p[0] < bitmap_width && p[1] < bitmap_height);
    return src_in && dst_in ? 0 : agal_check_fail(err, 3802, 0);
}

/* ---- creating ------------------------------------------------------------------------ */

int agal_check_object_count(const agal_context3d_state *s, agal_resource_kind kind, agal_flash_error *err)
{
    if (s->limits.ignore_resource_limits || (unsigned)kind >= AGAL_RESOURCE_KINDS) return 0;
    return s->objects[kind] >= s->limits.objects ? agal_check_fail(err, 3691, 0) : 0;
}

int agal_check_memory(uint64_t budget, uint64_t in_use, uint64_t held, uint64_t transient, agal_flash_error *err)
{
    uint64_t left = in_use < budget ? budget - in_use : 0;
    return held <= left && transient <= left - held ? 0 : agal_check_fail(err, 3691, 0);
}

static int check_buffer_size(const agal_context3d_limits *l, const agal_buffer_desc *b, agal_flash_error *err)
{
    if (b->call == AGAL_CREATE_INDEX_BUFFER) {
        if (b->count > 0 && (uint32_t)b->count > l->indices) return agal_check_fail(err, 3670, 0);
        return b->count <= 0 ? agal_check_fail(err, 3671, 0) : 0;
    }
    if ((b->data32_per_vertex > 0 && (uint32_t)b->data32_per_vertex > l->data32_per_vertex) ||
        (b->count > 0 && (uint32_t)b->count > l->vertices))
        return agal_check_fail(err, 3670, 0);
    return b->count <= 0 || b->data32_per_vertex <= 0 ? agal_check_fail(err, 3671, 0) : 0;
}

int agal_check_buffer(const agal_context3d_state *s, const agal_buffer_desc *b, agal_flash_error *err)
{
    if (b->call == AGAL_CREATE_VERTEX_BUFFER_FOR_INSTANCES) {
        if (s->profile < AGAL_C3D_STANDARD_EXTENDED) return agal_check_fail(err, 3787, 0);
        if (b->instances_per_element <= 0) return agal_check_fail(err, 3784, 0);
    }
    int id = check_buffer_size(&s->limits, b, err);
    if (id) return id;
    agal_resource_kind kind = b->call == AGAL_CREATE_INDEX_BUFFER ? AGAL_RESOURCE_INDEX_BUFFER
                                                                  : AGAL_RESOURCE_VERTEX_BUFFER;
    return agal_check_object_count(s, kind, err);
}

static bool power_of_two(int32_t v) { return v > 0 && !(v & (v - 1)); }

static bool compressed(agal_texture_format f)
{
    return f == AGAL_TEXTURE_COMPRESSED || f == AGAL_TEXTURE_COMPRESSED_ALPHA;
}

/* createTexture's and createCubeTexture's checks. */
static int check_mipmapped(const agal_context3d_state *s, const agal_texture_desc *t, agal_flash_error *err)
{
    const agal_context3d_limits *l = &s->limits;
    int32_t w = t->width, h = t->height;
    if (w <= 0 || h <= 0) return agal_check_fail(err, 3681, 0);
    if (!power_of_two(w) || !power_of_two(h)) return agal_check_fail(err, 3682, 0);
    if (t->streaming_levels < 0 || (uint32_t)t->streaming_levels > agal_stage3d_levels((uint32_t)w, (uint32_t)h))
        return agal_check_fail(err, 3711, 0);
    if (t->kind == AGAL_TEXTURE_KIND_2D && ((uint32_t)w > l->texture_size || (uint32_t)h > l->texture_size))
        return agal_check_fail(err, 3683, 1, (long)l->texture_size);
    if (t->kind == AGAL_TEXTURE_KIND_CUBE && (uint32_t)w > l->cube_size) return agal_check_fail(err, 3705, 0);
    if (compressed(t->format) && (w < 4 || h < 4)) return agal_check_fail(err, 3745, 0);
    /* Half floats are "float textures", which the standard profiles add (decided). */
    if (t->format == AGAL_TEXTURE_RGBA_HALF_FLOAT && s->profile < AGAL_C3D_STANDARD_CONSTRAINED)
        return agal_check_fail(err, 3759, 0);
    return 0;
}

/* createRectangleTexture's checks: a side may reach the back buffer's when that is
 * larger than rectangle_size. */
static int check_rectangle(const agal_context3d_state *s, const agal_texture_desc *t, agal_flash_error *err)
{
    uint32_t max = s->limits.rectangle_size;
    if (s->profile == AGAL_C3D_BASELINE_CONSTRAINED) return agal_check_fail(err, 3782, 0);
    if (t->width <= 0 || t->height <= 0) return agal_check_fail(err, 3681, 0);
    if (((uint32_t)t->width > max && (uint32_t)t->width > s->width) ||
        ((uint32_t)t->height > max && (uint32_t)t->height > s->height))
        return agal_check_fail(err, 3766, 1, (long)max);
    bool bgra = t->format == AGAL_TEXTURE_BGRA || t->format == AGAL_TEXTURE_BGRA_PACKED ||
                t->format == AGAL_TEXTURE_BGR_PACKED;
    return bgra ? 0 : agal_check_fail(err, 3762, 0);
}

int agal_check_texture(const agal_context3d_state *s, const agal_texture_desc *t, agal_flash_error *err)
{
    int id = t->kind == AGAL_TEXTURE_KIND_RECTANGLE ? check_rectangle(s, t, err) : check_mipmapped(s, t, err);
    return id ? id : agal_check_object_count(s, AGAL_RESOURCE_TEXTURE, err);
}

/* ---- uploads ------------------------------------------------------------------------- */

/* 3669 unless `need` bytes follow offset in length bytes; an offset at the end is
 * outside even for nothing (Adobe's reference: "Bad Input Size"). */
static int check_bytes(uint64_t length, int64_t offset, uint64_t need, agal_flash_error *err)
{
    bool inside = offset >= 0 && (uint64_t)offset < length && length - (uint64_t)offset >= need;
    return inside ? 0 : agal_check_fail(err, 3669, 0);
}

int agal_check_buffer_upload(const agal_buffer_desc *b, const agal_buffer_upload *up, agal_flash_error *err)
{
    bool index = b->call == AGAL_CREATE_INDEX_BUFFER;
    uint64_t size = b->count > 0 ? (uint64_t)b->count : 0, start = (uint64_t)up->start, n = (uint64_t)up->count;
    if (up->start < 0 || up->count < 0 || start + n > size) return agal_check_fail(err, 3669, 0);
    /* A vertex is data32PerVertex numbers (4 bytes each); an index one number of 2 bytes. */
    uint64_t numbers = index ? n : n * (uint64_t)(b->data32_per_vertex > 0 ? b->data32_per_vertex : 0);
    if (up->from_bytes) return check_bytes(up->length, up->byte_offset, index ? 2 * n : 4 * numbers, err);
    return up->length < numbers ? agal_check_fail(err, 3669, 0) : 0;
}

static uint32_t level_size(int32_t side, uint32_t level)
{
    uint32_t s = side > 0 ? (uint32_t)side : 0;
    return level < 32 && s >> level ? s >> level : 1;
}

/* Bytes a texel takes in a ByteArray: the compressed formats' texels as BGRA, as
 * agalrun replay takes them (it does not decode ATF: docs/decisions.md). */
static unsigned texel_bytes(agal_texture_format f)
{
    return f == AGAL_TEXTURE_RGBA_HALF_FLOAT                               ? 8
           : f == AGAL_TEXTURE_BGRA_PACKED || f == AGAL_TEXTURE_BGR_PACKED ? 2
                                                                           : 4;
}

int agal_check_texture_upload(const agal_texture_desc *t, const agal_texture_upload *up, agal_flash_error *err)
{
    uint32_t w = t->width > 0 ? (uint32_t)t->width : 0, h = t->height > 0 ? (uint32_t)t->height : 0;
    unsigned levels = t->kind == AGAL_TEXTURE_KIND_RECTANGLE ? 1 : agal_stage3d_levels(w, h);
    if (t->kind == AGAL_TEXTURE_KIND_CUBE && up->side > 5) return agal_check_fail(err, 3673, 0);
    if (up->level >= levels) return agal_check_fail(err, 3674, 0);
    uint32_t lw = level_size(t->width, up->level), lh = level_size(t->height, up->level);
    if (up->from_bytes)
        return check_bytes(up->length, up->byte_offset, (uint64_t)lw * lh * texel_bytes(t->format), err);
    return up->bitmap_width > lw || up->bitmap_height > lh ? agal_check_fail(err, 2015, 0) : 0;
}
