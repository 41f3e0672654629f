/* replay_calls.c: every call a scene may make (docs/replay.md), one
 * function each, in the order of Adobe's ActionScript 3 reference: its arguments
 * with the AS3 defaults, the checks Flash makes of them and what it changes. Every
 * check is the library's (agal_check_*, <agal/stage3d.h>, over replay_context.c's
 * description of the state), as an emulator calls them: the replay throws the
 * agal_flash_error a check fills and no Flash id of its own. */
#include "agal/stage3d.h"
#include "replay_ctx.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRY(x) \
    do { \
        int rc_ = (x); \
        if (rc_) return rc_; \
    } while (0)

/* ---- Context3D: the back buffer --------------------------------------------------- */

/* The library's check of a call's state (present, clear) and of an index argument. */
static int check(rcall *k, int (*fn)(const agal_context3d_state *, agal_flash_error *))
{
    agal_context3d_state s;
    agal_flash_error e;
    rdescribe_state(k->c, &s);
    return fn(&s, &e) ? rthrow_error(k, &e) : R_OK;
}

static int check_index(rcall *k, int (*fn)(const agal_context3d_state *, int32_t, agal_flash_error *), int32_t index)
{
    agal_context3d_state s;
    agal_flash_error e;
    rdescribe_state(k->c, &s);
    return fn(&s, index, &e) ? rthrow_error(k, &e) : R_OK;
}

static int configure_back_buffer(rcall *k)
{
    replay_ctx *c = k->c;
    int32_t w, h, aa;
    bool ds, best, zoom;
    TRY(args_count(k, 3, 6));
    TRY(arg_int(k, 0, 0, &w));
    TRY(arg_int(k, 1, 0, &h));
    TRY(arg_int(k, 2, 0, &aa));
    TRY(arg_bool(k, 3, true, &ds));
    TRY(arg_bool(k, 4, false, &best)); /* HiDPI sizes: a window matter, not the image's */
    TRY(arg_bool(k, 5, false, &zoom));
    agal_context3d_state s;
    agal_flash_error e;
    rdescribe_state(c, &s);
    if (agal_check_back_buffer(&s, w, h, &e)) return rthrow_error(k, &e);
    rbudget_give(c, c->back_buffer_bytes);
    c->back_buffer_bytes = 0;
    rcost bytes = rbudget_back_buffer(c, (uint32_t)w, (uint32_t)h, aa, ds);
    TRY(rbudget_take(k, bytes));
    c->back_buffer_bytes = bytes.held;
    if (c->ops->configure(c->be, (uint32_t)w, (uint32_t)h, aa, ds)) return rbackend(k);
    c->configured = true;
    c->cleared = false;
    c->width = (uint32_t)w;
    c->height = (uint32_t)h;
    c->anti_alias = aa;
    c->depth_stencil = ds;
    return R_OK;
}

static int clear(rcall *k)
{
    double rgba[4], depth;
    uint32_t stencil, mask;
    TRY(args_count(k, 0, 7));
    for (unsigned i = 0; i < 4; i++) TRY(arg_number(k, i, i == 3 ? 1 : 0, &rgba[i]));
    TRY(arg_number(k, 4, 1, &depth));
    TRY(arg_uint(k, 5, 0, &stencil));
    TRY(arg_uint(k, 6, 0xFFFFFFFFu, &mask));
    return rclear(k, rgba, depth, stencil, mask);
}

static int present(rcall *k)
{
    replay_ctx *c = k->c;
    TRY(args_count(k, 0, 0));
    TRY(check(k, agal_check_present));
    TRY(rbudget_take(k, rbudget_present(c)));
    uint8_t *px = rread_back_buffer(k);
    if (!px) return c->out->status == REPLAY_THROWN ? R_THROWN : R_FAILED;
    TRY(radd_image(k, px, c->width, c->height));
    if (!rframe_end(c)) return rfail(k, "out of memory");
    c->cleared = false;
    memset(c->slots, 0, sizeof c->slots); /* present resets the target, as setRenderToBackBuffer */
    c->draws = 0;
    return R_OK;
}

/* drawToBitmapData(destination, srcRect, destPoint): the back buffer (the one being
 * drawn, not the one shown) copied into the bitmap, unscaled and clipped to both;
 * the image is the bitmap afterwards. A srcRect or destPoint given outside its
 * bounds (or NaN) is 3802; the defaults (the bitmap's size at 0, 0) are clipped. */
static int draw_to_bitmap_data(rcall *k)
{
    replay_ctx *c = k->c;
    rbitmap b;
    double src[4], dst[2] = {0, 0};
    bool has_src, has_dst;
    TRY(args_count(k, 1, 3));
    TRY(arg_bitmap(k, 0, "destination", &b));
    int rc = arg_rect(k, 1, src, &has_src);
    if (!rc) rc = arg_point(k, 2, dst, &has_dst);
    if (!has_src) src[0] = src[1] = 0, src[2] = b.width, src[3] = b.height;
    if (!rc) {
        agal_context3d_state s;
        agal_flash_error e;
        rdescribe_state(c, &s);
        if (agal_check_draw_to_bitmap(&s, b.width, b.height, has_src ? src : NULL, has_dst ? dst : NULL, &e))
            rc = rthrow_error(k, &e);
    }
    if (!rc) rc = rbudget_take(k, rbudget_draw_to_bitmap(c, (uint64_t)b.width * b.height * 4));
    uint8_t *px = rc ? NULL : rread_back_buffer(k);
    if (!px) {
        free(b.argb);
        return rc ? rc : c->out->status == REPLAY_THROWN ? R_THROWN : R_FAILED;
    }
    uint32_t sx = (uint32_t)src[0], sy = (uint32_t)src[1], dx = (uint32_t)dst[0], dy = (uint32_t)dst[1];
    for (uint32_t j = 0; j < (uint32_t)src[3] && sy + j < c->height && dy + j < b.height; j++)
        for (uint32_t i = 0; i < (uint32_t)src[2] && sx + i < c->width && dx + i < b.width; i++) {
            const uint8_t *p = px + 4 * ((size_t)(sy + j) * c->width + sx + i);
            b.argb[(size_t)(dy + j) * b.width + dx + i] = 0xFF000000u | (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 |
                                                          p[2];
        }
    free(px);
    uint8_t *out = malloc((size_t)b.width * b.height * 4);
    for (size_t p = 0; out && p < (size_t)b.width * b.height; p++) {
        uint32_t v = b.argb[p];
        out[4 * p] = (uint8_t)(v >> 16), out[4 * p + 1] = (uint8_t)(v >> 8), out[4 * p + 2] = (uint8_t)v;
        out[4 * p + 3] = 255;
    }
    uint32_t w = b.width, h = b.height;
    free(b.argb);
    return out ? radd_image(k, out, w, h) : rfail(k, "out of memory");
}

/* ---- Context3D: buffers and programs --------------------------------------------- */

/* Context3DBufferUsage, which changes nothing the replay shows. */
static int buffer_usage(rcall *k, unsigned i)
{
    unsigned usage;
    return arg_enum(k, i, AGAL_S3D_BUFFER_USAGE, "bufferUsage", "staticDraw", &usage);
}

/* The library's checks of a create call's arguments (agal_check_buffer). */
static int check_buffer(rcall *k, agal_buffer_desc b)
{
    agal_context3d_state s;
    agal_flash_error e;
    rdescribe_state(k->c, &s);
    return agal_check_buffer(&s, &b, &e) ? rthrow_error(k, &e) : R_OK;
}

/* createVertexBuffer and createVertexBufferForInstances. */
static int new_vertex_buffer(rcall *k, agal_buffer_call call, int32_t n, int32_t d32, int32_t instances)
{
    replay_ctx *c = k->c;
    TRY(check_buffer(k, (agal_buffer_desc){call, n, d32, instances}));
    uint64_t bytes = (uint64_t)n * (uint64_t)d32 * 4;
    TRY(rbudget_take(k, rbudget_buffer(c, bytes, 0)));
    robj *o = robj_new(k, OBJ_VERTEX_BUFFER);
    if (!o) return c->out->status == REPLAY_THROWN ? R_THROWN : R_FAILED;
    o->u.vb.vertices = (uint32_t)n;
    o->u.vb.data32 = (uint32_t)d32;
    o->u.vb.instances_per_element = (uint32_t)instances;
    if (!(o->u.vb.rb = c->ops->buffer_new(c->be, (size_t)n * (size_t)d32 * 4, false))) return rbackend(k);
    return R_OK;
}

static int create_vertex_buffer(rcall *k)
{
    int32_t n, d32;
    TRY(args_count(k, 2, 3));
    TRY(arg_int(k, 0, 0, &n));
    TRY(arg_int(k, 1, 0, &d32));
    TRY(buffer_usage(k, 2));
    return new_vertex_buffer(k, AGAL_CREATE_VERTEX_BUFFER, n, d32, 0);
}

static int create_vertex_buffer_for_instances(rcall *k)
{
    int32_t n, d32, per;
    TRY(args_count(k, 3, 4));
    TRY(arg_int(k, 0, 0, &n));
    TRY(arg_int(k, 1, 0, &d32));
    TRY(arg_int(k, 2, 0, &per));
    TRY(buffer_usage(k, 3));
    return new_vertex_buffer(k, AGAL_CREATE_VERTEX_BUFFER_FOR_INSTANCES, n, d32, per);
}

static int create_index_buffer(rcall *k)
{
    replay_ctx *c = k->c;
    int32_t n;
    TRY(args_count(k, 1, 2));
    TRY(arg_int(k, 0, 0, &n));
    TRY(buffer_usage(k, 1));
    TRY(check_buffer(k, (agal_buffer_desc){AGAL_CREATE_INDEX_BUFFER, n, 0, 0}));
    TRY(rbudget_take(k, rbudget_buffer(c, 2 * (uint64_t)n, 2 * (uint64_t)n)));
    robj *o = robj_new(k, OBJ_INDEX_BUFFER);
    if (!o) return c->out->status == REPLAY_THROWN ? R_THROWN : R_FAILED;
    o->u.ib.count = (uint32_t)n;
    if (!(o->u.ib.indices = calloc((size_t)n, sizeof(uint16_t)))) return rfail(k, "out of memory");
    if (!(o->u.ib.rb = c->ops->buffer_new(c->be, (size_t)n * 2, true))) return rbackend(k);
    return R_OK;
}

static int create_program(rcall *k)
{
    agal_context3d_state s;
    agal_flash_error e;
    TRY(args_count(k, 0, 0));
    rdescribe_state(k->c, &s);
    if (agal_check_object_count(&s, AGAL_RESOURCE_PROGRAM, &e)) return rthrow_error(k, &e);
    return robj_new(k, OBJ_PROGRAM) ? R_OK : k->c->out->status == REPLAY_THROWN ? R_THROWN : R_FAILED;
}

/* ---- Context3D: textures ----------------------------------------------------------- */

/* The library's checks of a texture's create call (agal_check_texture), then the
 * texture made. */
static int new_texture(rcall *k, const agal_texture_desc *t)
{
    replay_ctx *c = k->c;
    agal_context3d_state s;
    agal_flash_error e;
    rdescribe_state(c, &s);
    if (agal_check_texture(&s, t, &e)) return rthrow_error(k, &e);
    uint32_t w = (uint32_t)t->width, h = (uint32_t)t->height;
    /* What the backend stores: the packed formats widened to BGRA, the compressed
     * ones uncompressed (docs/decisions.md, "Context3D"). */
    agal_texture_format stored = t->format == AGAL_TEXTURE_RGBA_HALF_FLOAT ? t->format : AGAL_TEXTURE_BGRA;
    replay_texture_desc desc = {(replay_texture_kind)t->kind, stored, w, h,
                                t->kind == AGAL_TEXTURE_KIND_RECTANGLE ? 1 : agal_stage3d_levels(w, h)};
    TRY(rbudget_take(k, rbudget_texture(c, &desc)));
    robj *o = robj_new(k, OBJ_TEXTURE);
    if (!o) return c->out->status == REPLAY_THROWN ? R_THROWN : R_FAILED;
    o->u.tex.format = t->format;
    o->u.tex.desc = desc;
    if (!(o->u.tex.rb = c->ops->texture_new(c->be, &o->u.tex.desc))) return rbackend(k);
    return rprobe_texture(k, o, true);
}

static int create_texture(rcall *k)
{
    int32_t w, h, streaming;
    bool rtt;
    unsigned f;
    TRY(args_count(k, 4, 5));
    TRY(arg_int(k, 0, 0, &w));
    TRY(arg_int(k, 1, 0, &h));
    TRY(arg_bool(k, 3, false, &rtt));
    TRY(arg_int(k, 4, 0, &streaming));
    TRY(arg_enum(k, 2, AGAL_S3D_TEXTURE_FORMAT, "textureFormat", NULL, &f));
    return new_texture(k, &(agal_texture_desc){AGAL_TEXTURE_KIND_2D, w, h, (agal_texture_format)f, streaming});
}

static int create_cube_texture(rcall *k)
{
    int32_t size, streaming;
    bool rtt;
    unsigned f;
    TRY(args_count(k, 3, 4));
    TRY(arg_int(k, 0, 0, &size));
    TRY(arg_bool(k, 2, false, &rtt));
    TRY(arg_int(k, 3, 0, &streaming));
    TRY(arg_enum(k, 1, AGAL_S3D_TEXTURE_FORMAT, "textureFormat", NULL, &f));
    return new_texture(k, &(agal_texture_desc){AGAL_TEXTURE_KIND_CUBE, size, size, (agal_texture_format)f, streaming});
}

static int create_rectangle_texture(rcall *k)
{
    int32_t w, h;
    bool rtt;
    unsigned f;
    TRY(args_count(k, 4, 4));
    TRY(arg_int(k, 0, 0, &w));
    TRY(arg_int(k, 1, 0, &h));
    TRY(arg_enum(k, 2, AGAL_S3D_TEXTURE_FORMAT, "textureFormat", NULL, &f));
    TRY(arg_bool(k, 3, false, &rtt));
    return new_texture(k, &(agal_texture_desc){AGAL_TEXTURE_KIND_RECTANGLE, w, h, (agal_texture_format)f, 0});
}

/* ---- Context3D: state ----------------------------------------------------------------- */

static int set_vertex_buffer_at(rcall *k)
{
    replay_ctx *c = k->c;
    int32_t index, offset;
    robj *vb;
    unsigned format = AGAL_VERTEX_FLOAT_4;
    TRY(args_count(k, 2, 4));
    TRY(arg_int(k, 0, 0, &index));
    TRY(arg_object(k, 1, OBJ_VERTEX_BUFFER, "buffer", true, &vb));
    TRY(arg_int(k, 2, 0, &offset));
    /* The format is read only for a buffer: null with any string unsets the stream (recorded). */
    if (vb) TRY(arg_enum(k, 3, AGAL_S3D_VERTEX_FORMAT, "vertexStreamFormat", "float4", &format));
    TRY(check_index(k, agal_check_stream_index, index));
    c->streams[index] = (rstream){vb, offset, (agal_vertex_format)format};
    return R_OK;
}

static int set_program(rcall *k)
{
    replay_ctx *c = k->c;
    robj *p;
    TRY(args_count(k, 1, 1));
    TRY(arg_object(k, 0, OBJ_PROGRAM, "program", true, &p));
    c->program = p;
    /* setProgram writes the tokens' sampler state into the slots (docs/format.md section 7). */
    if (p && p->u.program.upload) agal_slots_set_program(&c->sampler_slots, p->u.program.upload->fragment);
    return R_OK;
}

/* A program type's constant file and the profile's register limits, for the
 * library's register arithmetic (agal_stage3d_constants_from_*), whose error it
 * throws. */
static float (*constant_file(replay_ctx *c, unsigned type))[4] { return type == AGAL_VERTEX ? c->vc : c->fc; }

static int set_program_constants_from_vector(rcall *k)
{
    replay_ctx *c = k->c;
    unsigned type;
    int32_t first, n;
    const cJSON *data;
    uint32_t len;
    TRY(args_count(k, 3, 4));
    TRY(arg_enum(k, 0, AGAL_S3D_PROGRAM_TYPE, "programType", NULL, &type));
    TRY(arg_int(k, 1, 0, &first));
    TRY(arg_vector(k, 2, "data", &data, &len));
    TRY(arg_int(k, 3, -1, &n));
    double *values = malloc((len ? len : 1) * sizeof *values);
    if (!values) return rfail(k, "out of memory");
    for (uint32_t i = 0; i < len; i++) values[i] = vector_number(data, i);
    int id = agal_stage3d_constants_from_vector(agal_context3d_registers(c->profile), (agal_stage)type, first, values,
                                                len, n, constant_file(c, type));
    free(values);
    return id ? rthrow_id(k, id) : R_OK;
}

static int set_program_constants_from_matrix(rcall *k)
{
    replay_ctx *c = k->c;
    unsigned type;
    int32_t first;
    double raw[16];
    bool transposed;
    TRY(args_count(k, 3, 4));
    TRY(arg_enum(k, 0, AGAL_S3D_PROGRAM_TYPE, "programType", NULL, &type));
    TRY(arg_int(k, 1, 0, &first));
    TRY(arg_matrix(k, 2, "matrix", raw));
    TRY(arg_bool(k, 3, false, &transposed));
    int id = agal_stage3d_constants_from_matrix(agal_context3d_registers(c->profile), (agal_stage)type, first, raw,
                                                transposed, constant_file(c, type));
    return id ? rthrow_id(k, id) : R_OK;
}

static int set_program_constants_from_byte_array(rcall *k)
{
    replay_ctx *c = k->c;
    unsigned type;
    int32_t first, n;
    uint32_t offset;
    rbytes b;
    TRY(args_count(k, 5, 5));
    TRY(arg_enum(k, 0, AGAL_S3D_PROGRAM_TYPE, "programType", NULL, &type));
    TRY(arg_int(k, 1, 0, &first));
    TRY(arg_int(k, 2, 0, &n));
    TRY(arg_bytes(k, 3, "data", &b));
    int rc = arg_uint(k, 4, 0, &offset);
    int id = rc ? 0
                : agal_stage3d_constants_from_bytes(agal_context3d_registers(c->profile), (agal_stage)type, first, n,
                                                    b.data, b.len, offset, constant_file(c, type));
    free(b.data);
    return rc ? rc : id ? rthrow_id(k, id) : R_OK;
}

static int set_texture_at(rcall *k)
{
    replay_ctx *c = k->c;
    int32_t sampler;
    robj *t;
    TRY(args_count(k, 2, 2));
    TRY(arg_int(k, 0, 0, &sampler));
    TRY(arg_object(k, 1, OBJ_TEXTURE, "texture", true, &t));
    TRY(check_index(k, agal_check_sampler_index, sampler));
    c->textures[sampler] = t;
    return R_OK;
}

static int set_sampler_state_at(rcall *k)
{
    replay_ctx *c = k->c;
    int32_t sampler;
    unsigned wrap, filter, mip;
    TRY(args_count(k, 4, 4));
    TRY(arg_int(k, 0, 0, &sampler));
    TRY(arg_enum(k, 1, AGAL_S3D_WRAP_MODE, "wrap", NULL, &wrap));
    TRY(arg_enum(k, 2, AGAL_S3D_TEXTURE_FILTER, "filter", NULL, &filter));
    TRY(arg_enum(k, 3, AGAL_S3D_MIP_FILTER, "mipfilter", NULL, &mip));
    TRY(check_index(k, agal_check_sampler_index, sampler));
    agal_slots_set_state(&c->sampler_slots, (unsigned)sampler,
                         (agal_sampler_state){(uint8_t)wrap, (uint8_t)filter, (uint8_t)mip});
    return R_OK;
}

static int set_blend_factors(rcall *k)
{
    unsigned src, dst;
    TRY(args_count(k, 2, 2));
    TRY(arg_enum(k, 0, AGAL_S3D_BLEND_FACTOR, "sourceFactor", NULL, &src));
    TRY(arg_enum(k, 1, AGAL_S3D_BLEND_FACTOR, "destinationFactor", NULL, &dst));
    k->c->state.blend_src = (agal_blend_factor)src;
    k->c->state.blend_dst = (agal_blend_factor)dst;
    return R_OK;
}

static int set_color_mask(rcall *k)
{
    bool m[4];
    TRY(args_count(k, 4, 4));
    for (unsigned i = 0; i < 4; i++) TRY(arg_bool(k, i, true, &m[i]));
    memcpy(k->c->state.color_mask, m, sizeof m);
    return R_OK;
}

static int set_culling(rcall *k)
{
    unsigned face;
    TRY(args_count(k, 1, 1));
    TRY(arg_enum(k, 0, AGAL_S3D_TRIANGLE_FACE, "triangleFaceToCull", NULL, &face));
    k->c->state.cull = (agal_triangle_face)face;
    return R_OK;
}

static int set_depth_test(rcall *k)
{
    bool mask;
    unsigned cmp;
    TRY(args_count(k, 2, 2));
    TRY(arg_bool(k, 0, true, &mask));
    TRY(arg_enum(k, 1, AGAL_S3D_COMPARE_MODE, "passCompareMode", NULL, &cmp));
    k->c->state.depth_mask = mask;
    k->c->state.depth_compare = (agal_compare_mode)cmp;
    return R_OK;
}

static int set_stencil_actions(rcall *k)
{
    unsigned face, cmp, pass, depth_fail, fail;
    TRY(args_count(k, 0, 5));
    TRY(arg_enum(k, 0, AGAL_S3D_TRIANGLE_FACE, "triangleFace", "frontAndBack", &face));
    TRY(arg_enum(k, 1, AGAL_S3D_COMPARE_MODE, "compareMode", "always", &cmp));
    TRY(arg_enum(k, 2, AGAL_S3D_STENCIL_ACTION, "actionOnBothPass", "keep", &pass));
    TRY(arg_enum(k, 3, AGAL_S3D_STENCIL_ACTION, "actionOnDepthFail", "keep", &depth_fail));
    TRY(arg_enum(k, 4, AGAL_S3D_STENCIL_ACTION, "actionOnDepthPassStencilFail", "keep", &fail));
    replay_state *s = &k->c->state;
    s->stencil_face = (agal_triangle_face)face;
    s->stencil_compare = (agal_compare_mode)cmp;
    s->stencil_both_pass = (agal_stencil_action)pass;
    s->stencil_depth_fail = (agal_stencil_action)depth_fail;
    s->stencil_fail = (agal_stencil_action)fail;
    return R_OK;
}

/* Only the low 8 bits of each count: the stencil buffer has 8 (Adobe's reference). */
static int set_stencil_reference_value(rcall *k)
{
    uint32_t ref, read, write;
    TRY(args_count(k, 1, 3));
    TRY(arg_uint(k, 0, 0, &ref));
    TRY(arg_uint(k, 1, 255, &read));
    TRY(arg_uint(k, 2, 255, &write));
    replay_state *s = &k->c->state;
    s->stencil_ref = ref & 255;
    s->stencil_read = read & 255;
    s->stencil_write = write & 255;
    return R_OK;
}

static int set_scissor_rectangle(rcall *k)
{
    replay_ctx *c = k->c;
    TRY(args_count(k, 1, 1));
    return arg_rect(k, 0, c->scissor, &c->scissor_set);
}

/* setRenderToTexture(texture, enableDepthAndStencil, antiAlias, surfaceSelector,
 * colorOutputIndex): one slot; null texture unsets the slot (slot 0: back to the
 * back buffer, every slot off). */
static int set_render_to_texture(rcall *k)
{
    replay_ctx *c = k->c;
    robj *t;
    bool ds;
    int32_t aa, surface, index;
    TRY(args_count(k, 1, 5));
    TRY(arg_object(k, 0, OBJ_TEXTURE, "texture", true, &t));
    TRY(arg_bool(k, 1, false, &ds));
    TRY(arg_int(k, 2, 0, &aa));
    TRY(arg_int(k, 3, 0, &surface));
    TRY(arg_int(k, 4, 0, &index));
    agal_context3d_state s;
    rdescribe_state(c, &s);
    const agal_draw_texture tex = rdescribe_texture(c, t);
    agal_flash_error e;
    if (agal_check_render_to_texture(&s, &tex, surface, index, &e)) return rthrow_error(k, &e);
    if (!t) {
        if (index == 0) memset(c->slots, 0, sizeof c->slots);
        else c->slots[index] = (rslot){0};
        return R_OK;
    }
    uint64_t bytes = rbudget_target(c, t, aa, ds);
    if (bytes > t->u.tex.target_bytes) { /* the backend remakes them for the largest */
        TRY(rbudget_take(k, (rcost){bytes - t->u.tex.target_bytes, 0}));
        t->u.tex.target_bytes = bytes;
    }
    c->slots[index] = (rslot){t, (unsigned)surface, ds, aa};
    return R_OK;
}

static int set_render_to_back_buffer(rcall *k)
{
    TRY(args_count(k, 0, 0));
    memset(k->c->slots, 0, sizeof k->c->slots);
    return R_OK;
}

static int draw_triangles(rcall *k)
{
    robj *ib;
    int32_t first, n;
    TRY(args_count(k, 1, 3));
    TRY(arg_object(k, 0, OBJ_INDEX_BUFFER, "indexBuffer", false, &ib));
    TRY(arg_int(k, 1, 0, &first));
    TRY(arg_int(k, 2, -1, &n));
    return rdraw(k, ib, first, n, 1);
}

static int draw_triangles_instanced(rcall *k)
{
    robj *ib;
    int32_t instances, first, n;
    TRY(args_count(k, 2, 4));
    TRY(arg_object(k, 0, OBJ_INDEX_BUFFER, "indexBuffer", false, &ib));
    TRY(arg_int(k, 1, 0, &instances));
    TRY(arg_int(k, 2, 0, &first));
    TRY(arg_int(k, 3, -1, &n));
    agal_context3d_state s;
    agal_flash_error e;
    rdescribe_state(k->c, &s);
    if (agal_check_draw_instanced(&s, &e)) return rthrow_error(k, &e);
    /* Flash documents no limit; the replay draws at most 2^20 instances, so that a
     * scene cannot keep the device busy for hours. */
    if (instances > 1 << 20) return rfail(k, "draws more instances (%d) than the replay does (2^20)", instances);
    return rdraw(k, ib, first, n, instances > 0 ? instances : 0);
}

/* ---- VertexBuffer3D, IndexBuffer3D ---------------------------------------------------- */

/* A buffer as it was created, for the library's upload check. */
static agal_buffer_desc buffer_of(const robj *o)
{
    if (o->kind == OBJ_INDEX_BUFFER) return (agal_buffer_desc){AGAL_CREATE_INDEX_BUFFER, (int32_t)o->u.ib.count, 0, 0};
    agal_buffer_call call = o->u.vb.instances_per_element ? AGAL_CREATE_VERTEX_BUFFER_FOR_INSTANCES
                                                          : AGAL_CREATE_VERTEX_BUFFER;
    return (agal_buffer_desc){call, (int32_t)o->u.vb.vertices, (int32_t)o->u.vb.data32,
                              (int32_t)o->u.vb.instances_per_element};
}

/* The library's check of an upload into the call's buffer (agal_check_buffer_upload). */
static int check_buffer_upload(rcall *k, agal_buffer_upload up)
{
    const agal_buffer_desc b = buffer_of(k->on);
    agal_flash_error e;
    return agal_check_buffer_upload(&b, &up, &e) ? rthrow_error(k, &e) : R_OK;
}

/* uploadFromVector(data, start, count) of either buffer. */
static int vector_upload_args(rcall *k, const cJSON **data, uint32_t *len, int32_t *start, int32_t *n)
{
    TRY(args_count(k, 3, 3));
    TRY(arg_vector(k, 0, "data", data, len));
    TRY(arg_int(k, 1, 0, start));
    return arg_int(k, 2, 0, n);
}

/* uploadFromByteArray(data, byteArrayOffset, start, count) of either buffer; b.data
 * is the caller's to free whatever it returns. */
static int bytes_upload_args(rcall *k, rbytes *b, int32_t *offset, int32_t *start, int32_t *n)
{
    *b = (rbytes){0};
    TRY(args_count(k, 4, 4));
    TRY(arg_bytes(k, 0, "data", b));
    TRY(arg_int(k, 1, 0, offset));
    TRY(arg_int(k, 2, 0, start));
    return arg_int(k, 3, 0, n);
}

static int vertex_upload_from_vector(rcall *k)
{
    robj *vb = k->on;
    const cJSON *data;
    uint32_t len;
    int32_t start, n;
    TRY(vector_upload_args(k, &data, &len, &start, &n));
    TRY(check_buffer_upload(k, (agal_buffer_upload){.start = start, .count = n, .length = len}));
    uint64_t values = (uint64_t)n * vb->u.vb.data32;
    float *f = malloc(values ? values * 4 : 1);
    if (!f) return rfail(k, "out of memory");
    for (uint32_t i = 0; i < values; i++) f[i] = (float)vector_number(data, i);
    int rc = k->c->ops->buffer_write(k->c->be, vb->u.vb.rb, (size_t)start * vb->u.vb.data32 * 4, f, values * 4);
    free(f);
    return rc ? rbackend(k) : R_OK;
}

/* A ByteArray upload (from_bytes) of the call's buffer. */
static agal_buffer_upload bytes_upload(const rbytes *b, int32_t offset, int32_t start, int32_t n)
{
    return (agal_buffer_upload){
        .from_bytes = true, .start = start, .count = n, .length = b->len, .byte_offset = offset};
}

static int vertex_upload_from_byte_array(rcall *k)
{
    robj *vb = k->on;
    rbytes b;
    int32_t offset, start, n;
    int rc = bytes_upload_args(k, &b, &offset, &start, &n);
    if (!rc) rc = check_buffer_upload(k, bytes_upload(&b, offset, start, n));
    uint64_t bytes = rc ? 0 : (uint64_t)n * vb->u.vb.data32 * 4;
    /* The bytes as they are: little-endian floats, whatever the endian flag (as constants). */
    if (!rc &&
        k->c->ops->buffer_write(k->c->be, vb->u.vb.rb, (size_t)start * vb->u.vb.data32 * 4, b.data + offset, bytes))
        rc = rbackend(k);
    free(b.data);
    return rc;
}

static int index_write(rcall *k, uint32_t start, uint32_t count)
{
    robj *ib = k->on;
    if (k->c->ops->buffer_write(k->c->be, ib->u.ib.rb, (size_t)start * 2, ib->u.ib.indices + start, (size_t)count * 2))
        return rbackend(k);
    return R_OK;
}

static int index_upload_from_vector(rcall *k)
{
    robj *ib = k->on;
    const cJSON *data;
    uint32_t len;
    int32_t start, n;
    TRY(vector_upload_args(k, &data, &len, &start, &n));
    TRY(check_buffer_upload(k, (agal_buffer_upload){.start = start, .count = n, .length = len}));
    /* Only the low 16 bits of each index (Adobe's reference). */
    for (int32_t i = 0; i < n; i++) ib->u.ib.indices[start + i] = (uint16_t)as3_uint(vector_number(data, (uint32_t)i));
    return index_write(k, (uint32_t)start, (uint32_t)n);
}

static int index_upload_from_byte_array(rcall *k)
{
    robj *ib = k->on;
    rbytes b;
    int32_t offset, start, n;
    int rc = bytes_upload_args(k, &b, &offset, &start, &n);
    if (!rc) rc = check_buffer_upload(k, bytes_upload(&b, offset, start, n));
    for (int32_t i = 0; !rc && i < n; i++) {
        const uint8_t *p = b.data + offset + 2 * i;
        ib->u.ib.indices[start + i] = (uint16_t)(p[0] | p[1] << 8);
    }
    free(b.data);
    return rc ? rc : index_write(k, (uint32_t)start, (uint32_t)n);
}

/* ---- Program3D ------------------------------------------------------------------------------ */

/* Program3D.upload(vertexProgram, fragmentProgram): agal_upload for the backend's
 * target, the Context3D's profile and the device's limits, which throws Flash's
 * errors in Flash's order: 3725, then each program's emptiness, endianness and
 * validation, then linkage, then 3613 for a pair the limits cannot hold, whose
 * diagnostic (the limit, the need, the allowance) Flash's line does not carry and
 * the replay logs. */
static int upload(rcall *k)
{
    replay_ctx *c = k->c;
    rbytes v = {0}, f = {0};
    TRY(args_count(k, 2, 2));
    int rc = arg_program(k, 0, AGAL_VERTEX, &v);
    if (!rc) rc = arg_program(k, 1, AGAL_FRAGMENT, &f);
    agal_upload_result *r = rc ? NULL : agal_alloc(c->agal, sizeof *r);
    agal_upload_options opt = {.size = sizeof(agal_upload_options),
                               .target = c->ops->target,
                               .vertex_big_endian = v.big_endian,
                               .fragment_big_endian = f.big_endian,
                               .context_profile = agal_context3d_registers(c->profile),
                               .limits = c->limits,
                               /* a driver's refusal names the AGAL token (replay_gl.c) */
                               .debug_info = true};
    if (!rc && !r) rc = rfail(k, "out of memory");
    if (r) *r = agal_upload_result_init();
    if (!rc && agal_upload(c->agal, v.data, v.len, f.data, f.len, &opt, r)) {
        const agal_diag *d = agal_diag_get(c->agal, 0);
        if (!d || !d->flash_id) {
            rc = rfail(k, "agal_upload failed: %s", d ? d->message : "out of memory");
        } else {
            agal_flash_error e;
            agal_flash_error_of(d, &e);
            if (d->flash_id == 3613) fprintf(stderr, "%s: %s\n", c->name, d->message);
            rc = rthrow_error(k, &e);
        }
    }
    free(v.data);
    free(f.data);
    if (rc) return rc;
    if (!(k->on->u.program.rb = c->ops->program_new(c->be, r))) return rbackend(k);
    k->on->u.program.upload = r;
    return R_OK;
}

/* ---- textures -------------------------------------------------------------------------------- */

/* Premultiplied by alpha, as BitmapData stores its pixels and Flash uploads them
 * (decided: rounded to nearest). */
static uint8_t premultiply(uint32_t c, uint32_t a) { return (uint8_t)((c * a + 127) / 255); }

/* A value of [0, 1] as a half float, rounded to nearest. */
static uint16_t half_unorm(float f)
{
    if (!(f > 0)) return 0;
    int e;
    float m = frexpf(f, &e);                                   /* f = m 2^e, m in [0.5, 1) */
    int biased = e + 14;                                       /* half: (1 + frac / 1024) 2^(biased - 15) */
    if (biased <= 0) return (uint16_t)lrintf(f * 16777216.0f); /* subnormal: frac 2^-24 */
    uint32_t frac = (uint32_t)lrintf((2 * m - 1) * 1024);
    return (uint16_t)(((uint32_t)biased << 10) + frac); /* frac 1024 carries into the exponent */
}

/* w x h ARGB words as the texels a texture stores: BGRA bytes or four halves. */
static void *bitmap_texels(const rbitmap *b, agal_texture_format stored)
{
    size_t n = (size_t)b->width * b->height;
    uint8_t *px = malloc(n * (stored == AGAL_TEXTURE_RGBA_HALF_FLOAT ? 8 : 4));
    for (size_t p = 0; px && p < n; p++) {
        uint32_t v = b->argb[p], a = v >> 24;
        uint8_t bgra[4] = {premultiply(v & 255, a), premultiply(v >> 8 & 255, a), premultiply(v >> 16 & 255, a),
                           (uint8_t)a};
        if (stored != AGAL_TEXTURE_RGBA_HALF_FLOAT) {
            memcpy(px + 4 * p, bgra, 4);
            continue;
        }
        uint16_t rgba[4] = {half_unorm(bgra[2] / 255.0f), half_unorm(bgra[1] / 255.0f), half_unorm(bgra[0] / 255.0f),
                            half_unorm(bgra[3] / 255.0f)};
        memcpy(px + 8 * p, rgba, 8);
    }
    return px;
}

/* A ByteArray's texels as stored: the packed formats widened to BGRA from
 * little-endian 16-bit words, A4R4G4B4 and R5G6B5 as Direct3D lays them out (the
 * names list B in the low bits; decided), the others as they are. */
static void *byte_texels(const uint8_t *src, size_t n, agal_texture_format f)
{
    size_t out_bytes = n * (f == AGAL_TEXTURE_RGBA_HALF_FLOAT ? 8 : 4);
    uint8_t *px = malloc(out_bytes ? out_bytes : 1);
    if (!px || (f != AGAL_TEXTURE_BGRA_PACKED && f != AGAL_TEXTURE_BGR_PACKED)) {
        if (px) memcpy(px, src, out_bytes);
        return px;
    }
    for (size_t p = 0; p < n; p++) {
        unsigned w = src[2 * p] | src[2 * p + 1] << 8;
        uint8_t *q = px + 4 * p;
        if (f == AGAL_TEXTURE_BGRA_PACKED) {
            q[0] = (uint8_t)((w & 15) * 17), q[1] = (uint8_t)((w >> 4 & 15) * 17);
            q[2] = (uint8_t)((w >> 8 & 15) * 17), q[3] = (uint8_t)((w >> 12) * 17);
        } else {
            q[0] = (uint8_t)((w & 31) * 255 / 31), q[1] = (uint8_t)((w >> 5 & 63) * 255 / 63);
            q[2] = (uint8_t)((w >> 11) * 255 / 31), q[3] = 255;
        }
    }
    return px;
}

/* The side and level arguments of a texture upload, each kind's own (0 where it
 * has none). */
static int face_and_level(rcall *k, unsigned side_arg, unsigned level_arg, agal_texture_upload *up)
{
    replay_texture_kind kind = k->on->u.tex.desc.kind;
    up->side = up->level = 0;
    if (kind == REPLAY_TEX_CUBE) TRY(arg_uint(k, side_arg, 0, &up->side));
    return kind == REPLAY_TEX_RECTANGLE ? R_OK : arg_uint(k, level_arg, 0, &up->level);
}

/* The library's check of an upload into the call's texture (agal_check_texture_upload). */
static int check_texture_upload(rcall *k, const agal_texture_upload *up)
{
    const robj *t = k->on;
    const agal_texture_desc d = {(agal_texture_kind)t->u.tex.desc.kind, (int32_t)t->u.tex.desc.width,
                                 (int32_t)t->u.tex.desc.height, t->u.tex.format, 0};
    agal_flash_error e;
    return agal_check_texture_upload(&d, up, &e) ? rthrow_error(k, &e) : R_OK;
}

static int texture_write(rcall *k, unsigned face, uint32_t level, uint32_t w, uint32_t h, void *texels)
{
    robj *t = k->on;
    if (!texels) return rfail(k, "out of memory");
    int rc = k->c->ops->texture_write(k->c->be, t->u.tex.rb, face, level, w, h, texels);
    free(texels);
    if (rc) return rbackend(k);
    t->u.tex.defined[face] |= 1u << level;
    return rprobe_texture(k, t, false);
}

static uint32_t level_size(uint32_t s, uint32_t level) { return s >> level ? s >> level : 1; }

/* uploadFromBitmapData: Texture (source, miplevel), CubeTexture (source, side,
 * miplevel), RectangleTexture (source). A bitmap smaller than the level fills its
 * top left corner, the rest keeps what it held (black: observed); a larger one is
 * ArgumentError #2015. */
static int texture_upload_from_bitmap_data(rcall *k)
{
    robj *t = k->on;
    replay_texture_kind kind = t->u.tex.desc.kind;
    agal_texture_upload up = {0};
    rbitmap b;
    TRY(kind == REPLAY_TEX_CUBE ? args_count(k, 2, 3)
        : kind == REPLAY_TEX_2D ? args_count(k, 1, 2)
                                : args_count(k, 1, 1));
    TRY(arg_bitmap(k, 0, "source", &b));
    up.bitmap_width = b.width, up.bitmap_height = b.height;
    int rc = face_and_level(k, 1, kind == REPLAY_TEX_CUBE ? 2 : 1, &up);
    if (!rc) rc = check_texture_upload(k, &up);
    void *texels = rc ? NULL : bitmap_texels(&b, t->u.tex.desc.format);
    free(b.argb);
    return rc ? rc : texture_write(k, up.side, up.level, b.width, b.height, texels);
}

/* uploadFromByteArray: Texture (data, offset, miplevel), CubeTexture (data, offset,
 * side, miplevel), RectangleTexture (data, offset): the whole level. */
static int texture_upload_from_byte_array(rcall *k)
{
    robj *t = k->on;
    replay_texture_kind kind = t->u.tex.desc.kind;
    agal_texture_upload up = {.from_bytes = true};
    uint32_t offset;
    rbytes b;
    TRY(kind == REPLAY_TEX_CUBE ? args_count(k, 3, 4)
        : kind == REPLAY_TEX_2D ? args_count(k, 2, 3)
                                : args_count(k, 2, 2));
    TRY(arg_bytes(k, 0, "data", &b));
    int rc = arg_uint(k, 1, 0, &offset);
    up.length = b.len, up.byte_offset = offset;
    if (!rc) rc = face_and_level(k, 2, kind == REPLAY_TEX_CUBE ? 3 : 2, &up);
    if (!rc) rc = check_texture_upload(k, &up);
    /* The level is one the texture has, with its bytes in the data, once the check passed. */
    uint32_t w = rc ? 1 : level_size(t->u.tex.desc.width, up.level);
    uint32_t h = rc ? 1 : level_size(t->u.tex.desc.height, up.level);
    void *texels = rc ? NULL : byte_texels(b.data + offset, (size_t)w * h, t->u.tex.format);
    free(b.data);
    return rc ? rc : texture_write(k, up.side, up.level, w, h, texels);
}

static int texture_upload_compressed(rcall *k)
{
    return rfail(k,
                 "the replay does not decode ATF: upload the texels with uploadFromBitmapData or uploadFromByteArray");
}

/* ---- the table ------------------------------------------------------------------------------ */

typedef struct call_row {
    const char *method;
    int on; /* -1: Context3D; else the robj_kind it is a method of */
    int (*run)(rcall *k);
} call_row;

static const call_row calls[] = {
    {"configureBackBuffer", -1, configure_back_buffer},
    {"clear", -1, clear},
    {"createVertexBuffer", -1, create_vertex_buffer},
    {"createVertexBufferForInstances", -1, create_vertex_buffer_for_instances},
    {"createIndexBuffer", -1, create_index_buffer},
    {"createProgram", -1, create_program},
    {"createTexture", -1, create_texture},
    {"createCubeTexture", -1, create_cube_texture},
    {"createRectangleTexture", -1, create_rectangle_texture},
    {"setVertexBufferAt", -1, set_vertex_buffer_at},
    {"setProgram", -1, set_program},
    {"setProgramConstantsFromVector", -1, set_program_constants_from_vector},
    {"setProgramConstantsFromMatrix", -1, set_program_constants_from_matrix},
    {"setProgramConstantsFromByteArray", -1, set_program_constants_from_byte_array},
    {"setTextureAt", -1, set_texture_at},
    {"setSamplerStateAt", -1, set_sampler_state_at},
    {"setBlendFactors", -1, set_blend_factors},
    {"setColorMask", -1, set_color_mask},
    {"setCulling", -1, set_culling},
    {"setDepthTest", -1, set_depth_test},
    {"setStencilActions", -1, set_stencil_actions},
    {"setStencilReferenceValue", -1, set_stencil_reference_value},
    {"setScissorRectangle", -1, set_scissor_rectangle},
    {"setRenderToTexture", -1, set_render_to_texture},
    {"setRenderToBackBuffer", -1, set_render_to_back_buffer},
    {"drawTriangles", -1, draw_triangles},
    {"drawTrianglesInstanced", -1, draw_triangles_instanced},
    {"present", -1, present},
    {"drawToBitmapData", -1, draw_to_bitmap_data},
    {"uploadFromVector", OBJ_VERTEX_BUFFER, vertex_upload_from_vector},
    {"uploadFromByteArray", OBJ_VERTEX_BUFFER, vertex_upload_from_byte_array},
    {"uploadFromVector", OBJ_INDEX_BUFFER, index_upload_from_vector},
    {"uploadFromByteArray", OBJ_INDEX_BUFFER, index_upload_from_byte_array},
    {"upload", OBJ_PROGRAM, upload},
    {"uploadFromBitmapData", OBJ_TEXTURE, texture_upload_from_bitmap_data},
    {"uploadFromByteArray", OBJ_TEXTURE, texture_upload_from_byte_array},
    {"uploadCompressedTextureFromByteArray", OBJ_TEXTURE, texture_upload_compressed},
};

/* A call's keys: "call", "on", "as", "args", "comment". */
static int call_shape(rcall *k, const cJSON *json, const cJSON **on)
{
    const cJSON *method = cJSON_GetObjectItemCaseSensitive(json, "call");
    if (!cJSON_IsObject(json) || !cJSON_IsString(method)) return rfail(k, "a call is {\"call\": NAME, ...}");
    k->method = method->valuestring;
    for (const cJSON *e = json->child; e; e = e->next)
        if (strcmp(e->string, "call") && strcmp(e->string, "on") && strcmp(e->string, "as") &&
            strcmp(e->string, "args") && strcmp(e->string, "comment"))
            return rfail(k, "unknown key \"%s\"", e->string);
    k->args = cJSON_GetObjectItemCaseSensitive(json, "args");
    if (k->args && !cJSON_IsArray(k->args)) return rfail(k, "\"args\" is not an array");
    *on = cJSON_GetObjectItemCaseSensitive(json, "on");
    if (*on && !cJSON_IsString(*on)) return rfail(k, "\"on\" is not an object's name");
    return R_OK;
}

int replay_call(replay_ctx *c, const cJSON *json)
{
    rcall k = {.c = c, .json = json};
    const cJSON *on = NULL;
    TRY(call_shape(&k, json, &on));
    if (on && !(k.on = robj_find(c, on->valuestring))) return rfail(&k, "no object is named '%s'", on->valuestring);
    int kind = k.on ? (int)k.on->kind : -1;
    bool known = false;
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        if (strcmp(calls[i].method, k.method)) continue;
        known = true;
        if (calls[i].on == kind) return calls[i].run(&k);
    }
    if (!known) return rfail(&k, "is not a call the replay knows");
    return kind < 0 ? rfail(&k, "is a method of an object: give \"on\"")
                    : rfail(&k, "is not a method of '%s'", on->valuestring);
}
