/* test_resources.c: Context3D's resource checks (resources.c) on agalrun replay's
 * error cases, without a GPU. Each case of tests/gpu/replay_errors.json (its
 * prelude, its calls, its repeated call) runs through a small model of Context3D
 * that makes only the library's calls: the argument checks (agal_check_enum,
 * agal_check_non_null), the back buffer, buffers, textures, programs and their
 * counts, the uploads (Program3D.upload is agal_upload), clear, present,
 * drawToBitmapData, setRenderToTexture, the index arguments and the constant
 * registers. The case's last call must throw Flash's exact line and no earlier
 * call may throw. A draw past its null check and profile needs its programs'
 * streams and textures (test_context3d.c checks those), so a case may stop at a
 * draw and at nothing else; every id the resource checks throw must be covered by
 * at least one case. Then what the JSON cannot show: the limits per profile,
 * changed limits and ignore_resource_limits.
 *
 *   test_resources replay_errors.json */
#include "check.h"

#include "agal/agal.h"
#include "agal/stage3d.h"
#include "agal/text.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_OBJECTS = 64, MAX_CONSTANTS = 256 };

typedef struct object {
    const char *name; /* the scene's "as" */
    bool texture;     /* else a buffer */
    agal_buffer_desc buffer;
    agal_texture_desc tex;
} object;

typedef struct model {
    agal_context *ctx; /* Program3D.upload's */
    agal_context3d_state s;
    object objects[MAX_OBJECTS];
    size_t nobjects;
    int ncalls;          /* run so far */
    const char *stopped; /* the call the model does not know, if any */
    float vc[MAX_CONSTANTS][4], fc[MAX_CONSTANTS][4];
} model;

/* What a call came to: it passed, it threw (the model's error), or the model does
 * not know it (the case is not covered). */
typedef enum outcome { PASSED, THREW, UNKNOWN } outcome;

typedef struct call {
    const char *method;
    const cJSON *args, *as;
    object *on;
    agal_flash_error e;
} call;

/* ---- arguments, as agalrun replay reads them (replay_scene.c) ------------------------- */

static const cJSON *arg(const call *k, int i) { return k->args ? cJSON_GetArrayItem(k->args, i) : NULL; }

static double number(const call *k, int i, double def)
{
    const cJSON *j = arg(k, i);
    return cJSON_IsNumber(j) ? j->valuedouble : def;
}

/* ECMAScript's ToInt32, as an int parameter takes a Number. */
static int32_t int_arg(const call *k, int i, int32_t def)
{
    double v = number(k, i, def);
    if (!isfinite(v)) return 0;
    return (int32_t)(uint32_t)(int64_t)fmod(trunc(v), 4294967296.0);
}

static const char *string_arg(const call *k, int i, const char *def)
{
    const cJSON *j = arg(k, i);
    return !j ? def : cJSON_IsString(j) ? j->valuestring : NULL; /* null: NULL */
}

/* An argument that must not be null: the JSON value, or NULL for null. */
static const cJSON *present(const call *k, int i)
{
    const cJSON *j = arg(k, i);
    return cJSON_IsNull(j) ? NULL : j;
}

static outcome thrown(int id) { return id ? THREW : PASSED; }

static outcome enum_arg(call *k, int i, agal_stage3d_enum which, const char *param, const char *def, unsigned *v)
{
    return thrown(agal_check_enum(which, string_arg(k, i, def), param, v, &k->e));
}

static outcome non_null(call *k, int i, const char *param)
{
    return thrown(agal_check_non_null(present(k, i), param, &k->e));
}

static const char *base64_text(const cJSON *j)
{
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "base64"));
}

/* A ByteArray's bytes: its base64's decoded length. */
static uint64_t byte_length(const cJSON *j)
{
    const char *b = base64_text(j);
    size_t n = b ? strlen(b) : 0;
    uint64_t len = n / 4 * 3;
    for (size_t i = n; i > 0 && b[i - 1] == '='; i--) len--;
    return len;
}

/* The bytes of base64 text (len: byte_length's). */
static void base64_decode(const char *text, uint8_t *out)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    uint32_t acc = 0;
    int bits = 0;
    for (const char *c = text; *c && *c != '='; c++) {
        const char *d = strchr(digits, *c);
        acc = acc << 6 | (uint32_t)(d ? d - digits : 0);
        if ((bits += 6) >= 8) *out++ = (uint8_t)(acc >> (bits -= 8));
    }
}

static void bitmap_size(const cJSON *j, uint32_t *w, uint32_t *h)
{
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(j, "bitmap");
    *w = (uint32_t)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(b, "width"));
    *h = (uint32_t)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(b, "height"));
}

static object *find(model *m, const char *name)
{
    for (size_t i = m->nobjects; name && i-- > 0;)
        if (!strcmp(m->objects[i].name, name)) return &m->objects[i];
    return NULL;
}

static void add(model *m, const call *k, object o)
{
    if (m->nobjects == MAX_OBJECTS || !cJSON_IsString(k->as)) return;
    o.name = k->as->valuestring;
    m->objects[m->nobjects++] = o;
}

/* ---- Context3D ------------------------------------------------------------------------------ */

static outcome configure_back_buffer(model *m, call *k)
{
    int32_t w = int_arg(k, 0, 0), h = int_arg(k, 1, 0);
    if (agal_check_back_buffer(&m->s, w, h, &k->e)) return THREW;
    m->s.configured = true, m->s.cleared = false;
    m->s.width = (uint32_t)w, m->s.height = (uint32_t)h;
    return PASSED;
}

static outcome clear(model *m, call *k)
{
    if (agal_check_clear(&m->s, &k->e)) return THREW;
    bool back_buffer = true;
    for (int i = 0; i < AGAL_DRAW_TARGETS; i++) back_buffer &= !m->s.targets[i].texture;
    m->s.cleared = m->s.cleared || back_buffer;
    return PASSED;
}

static outcome present_call(model *m, call *k)
{
    if (agal_check_present(&m->s, &k->e)) return THREW;
    m->s.cleared = false;
    memset(m->s.targets, 0, sizeof m->s.targets); /* present renders to the back buffer again */
    return PASSED;
}

static outcome draw_to_bitmap_data(model *m, call *k)
{
    if (non_null(k, 0, "destination")) return THREW;
    uint32_t w, h;
    bitmap_size(arg(k, 0), &w, &h);
    const cJSON *rect = cJSON_GetObjectItemCaseSensitive(present(k, 1), "rect");
    const cJSON *point = cJSON_GetObjectItemCaseSensitive(present(k, 2), "point");
    double r[4], p[2];
    for (int i = 0; i < 4; i++) r[i] = cJSON_GetNumberValue(cJSON_GetArrayItem(rect, i));
    for (int i = 0; i < 2; i++) p[i] = cJSON_GetNumberValue(cJSON_GetArrayItem(point, i));
    return thrown(agal_check_draw_to_bitmap(&m->s, w, h, rect ? r : NULL, point ? p : NULL, &k->e));
}

static outcome new_buffer(model *m, call *k, agal_buffer_desc b, int usage_arg)
{
    unsigned usage;
    if (enum_arg(k, usage_arg, AGAL_S3D_BUFFER_USAGE, "bufferUsage", "staticDraw", &usage)) return THREW;
    if (agal_check_buffer(&m->s, &b, &k->e)) return THREW;
    m->s.objects[b.call == AGAL_CREATE_INDEX_BUFFER ? AGAL_RESOURCE_INDEX_BUFFER : AGAL_RESOURCE_VERTEX_BUFFER]++;
    add(m, k, (object){.buffer = b});
    return PASSED;
}

static outcome create_vertex_buffer(model *m, call *k)
{
    return new_buffer(m, k, (agal_buffer_desc){AGAL_CREATE_VERTEX_BUFFER, int_arg(k, 0, 0), int_arg(k, 1, 0), 0}, 2);
}

static outcome create_vertex_buffer_for_instances(model *m, call *k)
{
    agal_buffer_desc b = {AGAL_CREATE_VERTEX_BUFFER_FOR_INSTANCES, int_arg(k, 0, 0), int_arg(k, 1, 0),
                          int_arg(k, 2, 0)};
    return new_buffer(m, k, b, 3);
}

static outcome create_index_buffer(model *m, call *k)
{
    return new_buffer(m, k, (agal_buffer_desc){AGAL_CREATE_INDEX_BUFFER, int_arg(k, 0, 0), 0, 0}, 1);
}

static outcome create_program(model *m, call *k)
{
    if (agal_check_object_count(&m->s, AGAL_RESOURCE_PROGRAM, &k->e)) return THREW;
    m->s.objects[AGAL_RESOURCE_PROGRAM]++;
    return PASSED;
}

static outcome new_texture(model *m, call *k, agal_texture_kind kind, int format_arg, int32_t w, int32_t h,
                           int32_t streaming)
{
    unsigned f;
    if (enum_arg(k, format_arg, AGAL_S3D_TEXTURE_FORMAT, "textureFormat", NULL, &f)) return THREW;
    agal_texture_desc t = {kind, w, h, (agal_texture_format)f, streaming};
    if (agal_check_texture(&m->s, &t, &k->e)) return THREW;
    m->s.objects[AGAL_RESOURCE_TEXTURE]++;
    add(m, k, (object){.texture = true, .tex = t});
    return PASSED;
}

static outcome create_texture(model *m, call *k)
{
    return new_texture(m, k, AGAL_TEXTURE_KIND_2D, 2, int_arg(k, 0, 0), int_arg(k, 1, 0), int_arg(k, 4, 0));
}

static outcome create_cube_texture(model *m, call *k)
{
    int32_t size = int_arg(k, 0, 0);
    return new_texture(m, k, AGAL_TEXTURE_KIND_CUBE, 1, size, size, int_arg(k, 3, 0));
}

static outcome create_rectangle_texture(model *m, call *k)
{
    return new_texture(m, k, AGAL_TEXTURE_KIND_RECTANGLE, 2, int_arg(k, 0, 0), int_arg(k, 1, 0), 0);
}

/* setCulling, setBlendFactors, setDepthTest, setStencilActions: their strings. */
static outcome enum_args(call *k, const agal_stage3d_enum *which, const char *const *params,
                         const char *const *defaults, int n)
{
    unsigned v;
    for (int i = 0; i < n; i++)
        if (enum_arg(k, i, which[i], params[i], defaults ? defaults[i] : NULL, &v)) return THREW;
    return PASSED;
}

static outcome set_culling(model *m, call *k)
{
    (void)m;
    return enum_args(k, (agal_stage3d_enum[]){AGAL_S3D_TRIANGLE_FACE}, (const char *[]){"triangleFaceToCull"}, NULL, 1);
}

static outcome set_blend_factors(model *m, call *k)
{
    (void)m;
    return enum_args(k, (agal_stage3d_enum[]){AGAL_S3D_BLEND_FACTOR, AGAL_S3D_BLEND_FACTOR},
                     (const char *[]){"sourceFactor", "destinationFactor"}, NULL, 2);
}

static outcome set_depth_test(model *m, call *k)
{
    unsigned v;
    (void)m;
    return enum_arg(k, 1, AGAL_S3D_COMPARE_MODE, "passCompareMode", NULL, &v);
}

static outcome set_stencil_actions(model *m, call *k)
{
    (void)m;
    return enum_args(k,
                     (agal_stage3d_enum[]){AGAL_S3D_TRIANGLE_FACE, AGAL_S3D_COMPARE_MODE, AGAL_S3D_STENCIL_ACTION,
                                           AGAL_S3D_STENCIL_ACTION, AGAL_S3D_STENCIL_ACTION},
                     (const char *[]){"triangleFace", "compareMode", "actionOnBothPass", "actionOnDepthFail",
                                      "actionOnDepthPassStencilFail"},
                     (const char *[]){"frontAndBack", "always", "keep", "keep", "keep"}, 5);
}

/* setSamplerStateAt(sampler, wrap, filter, mipfilter): the strings, then the index. */
static outcome set_sampler_state_at(model *m, call *k)
{
    const char *params[] = {"wrap", "filter", "mipfilter"};
    agal_stage3d_enum which[] = {AGAL_S3D_WRAP_MODE, AGAL_S3D_TEXTURE_FILTER, AGAL_S3D_MIP_FILTER};
    unsigned v;
    for (int i = 0; i < 3; i++)
        if (enum_arg(k, i + 1, which[i], params[i], NULL, &v)) return THREW;
    return thrown(agal_check_sampler_index(&m->s, int_arg(k, 0, 0), &k->e));
}

static outcome set_vertex_buffer_at(model *m, call *k)
{
    unsigned v;
    /* The format is read only for a buffer: null with any string unsets the stream. */
    if (present(k, 1) && enum_arg(k, 3, AGAL_S3D_VERTEX_FORMAT, "vertexStreamFormat", "float4", &v)) return THREW;
    return thrown(agal_check_stream_index(&m->s, int_arg(k, 0, 0), &k->e));
}

static outcome set_texture_at(model *m, call *k)
{
    return thrown(agal_check_sampler_index(&m->s, int_arg(k, 0, 0), &k->e));
}

/* setProgramConstantsFrom*: the program type, the data, then the registers. */
static outcome constants(model *m, call *k, agal_stage *stage, float (**regs)[4])
{
    unsigned type;
    if (enum_arg(k, 0, AGAL_S3D_PROGRAM_TYPE, "programType", NULL, &type)) return THREW;
    *stage = (agal_stage)type;
    *regs = type == AGAL_VERTEX ? m->vc : m->fc;
    return PASSED;
}

static outcome constants_id(call *k, int id)
{
    memset(&k->e, 0, sizeof k->e);
    k->e.id = id;
    return thrown(id);
}

static outcome set_program_constants_from_vector(model *m, call *k)
{
    agal_stage stage;
    float(*regs)[4];
    if (constants(m, k, &stage, &regs) || non_null(k, 2, "data")) return THREW;
    const cJSON *data = arg(k, 2);
    double values[4 * MAX_CONSTANTS];
    uint32_t len = (uint32_t)cJSON_GetArraySize(data);
    if (len > 4 * MAX_CONSTANTS) return UNKNOWN;
    for (uint32_t i = 0; i < len; i++) values[i] = cJSON_GetNumberValue(cJSON_GetArrayItem(data, (int)i));
    agal_profile p = agal_context3d_registers(m->s.profile);
    return constants_id(
        k, agal_stage3d_constants_from_vector(p, stage, int_arg(k, 1, 0), values, len, int_arg(k, 3, -1), regs));
}

static outcome set_program_constants_from_matrix(model *m, call *k)
{
    agal_stage stage;
    float(*regs)[4];
    if (constants(m, k, &stage, &regs) || non_null(k, 2, "matrix")) return THREW;
    const cJSON *raw = cJSON_GetObjectItemCaseSensitive(arg(k, 2), "matrix3d");
    double v[16];
    for (int i = 0; i < 16; i++) v[i] = cJSON_GetNumberValue(cJSON_GetArrayItem(raw, i));
    agal_profile p = agal_context3d_registers(m->s.profile);
    return constants_id(
        k, agal_stage3d_constants_from_matrix(p, stage, int_arg(k, 1, 0), v, cJSON_IsTrue(arg(k, 3)), regs));
}

static outcome set_program_constants_from_byte_array(model *m, call *k)
{
    agal_stage stage;
    float(*regs)[4];
    if (constants(m, k, &stage, &regs) || non_null(k, 3, "data")) return THREW;
    /* The check reads only the length: zeros stand for the bytes. */
    uint64_t len = byte_length(arg(k, 3));
    uint8_t *bytes = calloc(len ? len : 1, 1);
    agal_profile p = agal_context3d_registers(m->s.profile);
    int id = bytes ? agal_stage3d_constants_from_bytes(p, stage, int_arg(k, 1, 0), int_arg(k, 2, 0), bytes, len,
                                                       (uint32_t)int_arg(k, 4, 0), regs)
                   : 0;
    free(bytes);
    return bytes ? constants_id(k, id) : UNKNOWN;
}

/* A program argument of Program3D.upload: AGAL text ({"agal", "version"},
 * assembled as agalrun replay assembles it) or a ByteArray; *bytes is malloc'd. */
static outcome program_arg(model *m, call *k, int i, agal_stage stage, uint8_t **bytes, size_t *n, bool *big)
{
    const cJSON *j = present(k, i), *text = cJSON_GetObjectItemCaseSensitive(j, "agal");
    if (non_null(k, i, stage == AGAL_VERTEX ? "vertexProgram" : "fragmentProgram")) return THREW;
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(j, "version");
    const uint8_t *assembled;
    const char *endian = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "endian"));
    *big = endian && !strcmp(endian, "bigEndian");
    *n = text ? 0 : (size_t)byte_length(j);
    if (text && agal_assemble(m->ctx, cJSON_GetStringValue(text), strlen(cJSON_GetStringValue(text)), stage,
                              version ? (uint32_t)cJSON_GetNumberValue(version) : 1, 0, &assembled, n))
        return UNKNOWN;
    if (!(*bytes = malloc(*n ? *n : 1))) return UNKNOWN;
    if (text) memcpy(*bytes, assembled, *n);
    else base64_decode(base64_text(j), *bytes);
    return PASSED;
}

/* Program3D.upload(vertexProgram, fragmentProgram): agal_upload with the profile's
 * 3725, then each program's, then the linkage's errors (to GLSL: any target does). */
static outcome program_upload(model *m, call *k)
{
    uint8_t *v = NULL, *f = NULL;
    size_t vn = 0, fn = 0;
    agal_upload_options opt = agal_upload_options_init();
    outcome o = program_arg(m, k, 0, AGAL_VERTEX, &v, &vn, &opt.vertex_big_endian);
    if (o == PASSED) o = program_arg(m, k, 1, AGAL_FRAGMENT, &f, &fn, &opt.fragment_big_endian);
    opt.target = AGAL_TARGET_GLSL;
    opt.context_profile = agal_context3d_registers(m->s.profile);
    agal_upload_result r = agal_upload_result_init();
    if (o == PASSED && agal_upload(m->ctx, v, vn, f, fn, &opt, &r)) {
        const agal_diag *d = agal_diag_get(m->ctx, 0);
        if (d && d->flash_id) agal_flash_error_of(d, &k->e);
        o = d && d->flash_id ? THREW : UNKNOWN;
    }
    free(v);
    free(f);
    return o;
}

/* drawTriangles(indexBuffer, ...): its argument's null check; the draw's own checks
 * need decoded programs. */
static outcome draw_triangles(model *m, call *k)
{
    (void)m;
    return non_null(k, 0, "indexBuffer") ? THREW : UNKNOWN;
}

static outcome draw_triangles_instanced(model *m, call *k)
{
    if (non_null(k, 0, "indexBuffer") || agal_check_draw_instanced(&m->s, &k->e)) return THREW;
    return UNKNOWN;
}

/* setRenderToTexture(texture, enableDepthAndStencil, antiAlias, surfaceSelector,
 * colorOutputIndex): its checks, then the slot (null: unset; slot 0 every slot). */
static outcome set_render_to_texture(model *m, call *k)
{
    object *t = find(m, string_arg(k, 0, NULL));
    agal_draw_texture d = {.object = t};
    if (t) d.kind = t->tex.kind, d.format = t->tex.format;
    int32_t surface = int_arg(k, 3, 0), index = int_arg(k, 4, 0);
    if (agal_check_render_to_texture(&m->s, &d, surface, index, &k->e)) return THREW;
    if (!t) {
        if (index == 0) memset(m->s.targets, 0, sizeof m->s.targets);
        else m->s.targets[index] = (agal_draw_target){0};
        return PASSED;
    }
    m->s.targets[index] = (agal_draw_target){t,
                                             (uint32_t)t->tex.width,
                                             (uint32_t)t->tex.height,
                                             (uint32_t)surface,
                                             cJSON_IsTrue(arg(k, 1)),
                                             int_arg(k, 2, 0)};
    return PASSED;
}

/* ---- buffers and textures ------------------------------------------------------------------ */

static outcome buffer_upload_from_vector(model *m, call *k)
{
    (void)m;
    if (non_null(k, 0, "data")) return THREW;
    agal_buffer_upload up = {
        .start = int_arg(k, 1, 0), .count = int_arg(k, 2, 0), .length = (uint64_t)cJSON_GetArraySize(arg(k, 0))};
    return thrown(agal_check_buffer_upload(&k->on->buffer, &up, &k->e));
}

static outcome buffer_upload_from_byte_array(model *m, call *k)
{
    (void)m;
    if (non_null(k, 0, "data")) return THREW;
    agal_buffer_upload up = {.from_bytes = true,
                             .start = int_arg(k, 2, 0),
                             .count = int_arg(k, 3, 0),
                             .length = byte_length(arg(k, 0)),
                             .byte_offset = int_arg(k, 1, 0)};
    return thrown(agal_check_buffer_upload(&k->on->buffer, &up, &k->e));
}

/* A texture upload's side and level arguments, from index i on: each kind's own. */
static void side_and_level(const call *k, int i, agal_texture_upload *up)
{
    agal_texture_kind kind = k->on->tex.kind;
    if (kind == AGAL_TEXTURE_KIND_CUBE) up->side = (uint32_t)int_arg(k, i++, 0);
    if (kind != AGAL_TEXTURE_KIND_RECTANGLE) up->level = (uint32_t)int_arg(k, i, 0);
}

static outcome texture_upload_from_bitmap_data(model *m, call *k)
{
    (void)m;
    if (non_null(k, 0, "source")) return THREW;
    agal_texture_upload up = {0};
    bitmap_size(arg(k, 0), &up.bitmap_width, &up.bitmap_height);
    side_and_level(k, 1, &up);
    return thrown(agal_check_texture_upload(&k->on->tex, &up, &k->e));
}

static outcome texture_upload_from_byte_array(model *m, call *k)
{
    (void)m;
    if (non_null(k, 0, "data")) return THREW;
    agal_texture_upload up = {.from_bytes = true, .length = byte_length(arg(k, 0)), .byte_offset = int_arg(k, 1, 0)};
    side_and_level(k, 2, &up);
    return thrown(agal_check_texture_upload(&k->on->tex, &up, &k->e));
}

/* Calls whose effect no resource check reads, and that throw nothing in the cases. */
static outcome no_effect(model *m, call *k)
{
    (void)m, (void)k;
    return PASSED;
}

/* ---- the calls ------------------------------------------------------------------------------- */

typedef struct call_row {
    const char *method;
    int on; /* -1: Context3D's; 0: a buffer's; 1: a texture's; 2: a program's */
    outcome (*run)(model *m, call *k);
} call_row;

static const call_row calls[] = {
    {"configureBackBuffer", -1, configure_back_buffer},
    {"clear", -1, clear},
    {"present", -1, present_call},
    {"drawToBitmapData", -1, draw_to_bitmap_data},
    {"createVertexBuffer", -1, create_vertex_buffer},
    {"createVertexBufferForInstances", -1, create_vertex_buffer_for_instances},
    {"createIndexBuffer", -1, create_index_buffer},
    {"createProgram", -1, create_program},
    {"createTexture", -1, create_texture},
    {"createCubeTexture", -1, create_cube_texture},
    {"createRectangleTexture", -1, create_rectangle_texture},
    {"setCulling", -1, set_culling},
    {"setBlendFactors", -1, set_blend_factors},
    {"setDepthTest", -1, set_depth_test},
    {"setStencilActions", -1, set_stencil_actions},
    {"setSamplerStateAt", -1, set_sampler_state_at},
    {"setVertexBufferAt", -1, set_vertex_buffer_at},
    {"setTextureAt", -1, set_texture_at},
    {"setProgramConstantsFromVector", -1, set_program_constants_from_vector},
    {"setProgramConstantsFromMatrix", -1, set_program_constants_from_matrix},
    {"setProgramConstantsFromByteArray", -1, set_program_constants_from_byte_array},
    {"drawTriangles", -1, draw_triangles},
    {"drawTrianglesInstanced", -1, draw_triangles_instanced},
    {"setRenderToTexture", -1, set_render_to_texture},
    {"setProgram", -1, no_effect},
    {"setScissorRectangle", -1, no_effect},
    {"uploadFromVector", 0, buffer_upload_from_vector},
    {"uploadFromByteArray", 0, buffer_upload_from_byte_array},
    {"uploadFromBitmapData", 1, texture_upload_from_bitmap_data},
    {"uploadFromByteArray", 1, texture_upload_from_byte_array},
};

static outcome run_call(model *m, const cJSON *json, agal_flash_error *e)
{
    m->ncalls++;
    call k = {.method = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(json, "call")),
              .args = cJSON_GetObjectItemCaseSensitive(json, "args"),
              .as = cJSON_GetObjectItemCaseSensitive(json, "as")};
    const char *on = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(json, "on"));
    k.on = on ? find(m, on) : NULL;
    /* Programs are not kept: only their count and upload matter here. */
    if (on && !k.on && k.method && !strcmp(k.method, "upload")) {
        outcome o = program_upload(m, &k);
        *e = k.e;
        return o;
    }
    if (on && !k.on) return UNKNOWN;
    int kind = !k.on ? -1 : k.on->texture ? 1 : 0;
    for (size_t i = 0; k.method && i < sizeof calls / sizeof *calls; i++) {
        if (strcmp(calls[i].method, k.method) || calls[i].on != kind) continue;
        outcome o = calls[i].run(m, &k);
        *e = k.e;
        m->stopped = o == UNKNOWN ? k.method : NULL;
        return o;
    }
    m->stopped = k.method;
    return UNKNOWN;
}

/* ---- the cases ---------------------------------------------------------------------------- */

typedef struct tally {
    unsigned covered, skipped;
    unsigned ids_covered[4000]; /* per Flash id */
} tally;

/* Runs one call `times` times; false when the case ends (a throw or an unknown call). */
static bool run_calls(model *m, const cJSON *list, int times, outcome *last, agal_flash_error *e)
{
    for (int t = 0; t < times; t++)
        for (const cJSON *c = list ? list->child : NULL; c; c = c->next) {
            if (*last != PASSED) return false;
            *last = run_call(m, c, e);
        }
    return *last == PASSED;
}

/* The last call of each case must be the one that threw: a case whose throw came
 * early would still match its line, so count the calls. */
static int count_calls(const cJSON *preludes, const cJSON *c)
{
    const cJSON *repeat = cJSON_GetObjectItemCaseSensitive(c, "repeat");
    int n = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
                preludes, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "prelude")))) +
            cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(c, "calls"));
    return n + (repeat ? (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(repeat, "times")) : 0);
}

static void run_case(agal_context *ctx, const cJSON *preludes, const cJSON *c, tally *t)
{
    const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "name"));
    const char *want = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "line"));
    const char *profile = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "profile"));
    const cJSON *prelude = cJSON_GetObjectItemCaseSensitive(
        preludes, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "prelude")));
    const cJSON *repeat = cJSON_GetObjectItemCaseSensitive(c, "repeat");
    unsigned p = AGAL_C3D_BASELINE;
    CHECK(name && want && agal_stage3d_find(AGAL_S3D_PROFILE, profile, &p), "a case's name, line and profile");
    static model m; /* large: the constant files */
    memset(&m, 0, sizeof m);
    m.ctx = ctx;
    agal_context_reset(ctx);
    agal_context3d_state_init(&m.s, (agal_context3d_profile)p);
    outcome last = PASSED;
    agal_flash_error e = {0};
    cJSON *one = cJSON_CreateArray();
    if (repeat) cJSON_AddItemReferenceToArray(one, cJSON_GetObjectItemCaseSensitive(repeat, "call"));
    int times = repeat ? (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(repeat, "times")) : 0;
    if (run_calls(&m, prelude, 1, &last, &e) &&
        run_calls(&m, cJSON_GetObjectItemCaseSensitive(c, "calls"), 1, &last, &e))
        run_calls(&m, one, times, &last, &e);
    cJSON_Delete(one);
    if (last == UNKNOWN) {
        /* Only a draw's own checks are out of the model's reach. */
        bool draw = m.stopped && (!strcmp(m.stopped, "drawTriangles") || !strcmp(m.stopped, "drawTrianglesInstanced"));
        CHECK(draw, "%s: the model stopped at %s", name, m.stopped ? m.stopped : "an upload");
        t->skipped++;
        return;
    }
    char line[512] = "(nothing thrown)";
    if (last == THREW) agal_flash_line(&e, line, sizeof line);
    /* Flash's line, thrown by the case's last call (run_calls stops at the first throw). */
    CHECK(last == THREW && !strcmp(line, want ? want : ""), "%s: %s\n  want %s", name, line, want);
    CHECK(m.ncalls == count_calls(preludes, c), "%s: call %d of %d threw", name, m.ncalls, count_calls(preludes, c));
    t->covered++;
    if (last == THREW && e.id > 0 && e.id < 4000) t->ids_covered[e.id]++;
}

/* The ids resources.c throws (docs/format.md section 8, "What the other calls check"). */
static const int resource_ids[] = {2007, 2008, 2015, 3669, 3670, 3671, 3673, 3674, 3681, 3682, 3683, 3691, 3698,
                                   3705, 3711, 3745, 3759, 3762, 3766, 3780, 3781, 3782, 3784, 3787, 3802};

static void replay_cases(const char *path)
{
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "%s", path);
    if (!f) return;
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    cJSON *root = cJSON_Parse(text);
    const cJSON *cases = cJSON_GetObjectItemCaseSensitive(root, "cases");
    const cJSON *preludes = cJSON_GetObjectItemCaseSensitive(root, "preludes");
    CHECK(cJSON_GetArraySize(cases) >= 50, "too few cases in %s", path);
    static tally t;
    agal_context *ctx = agal_context_new(NULL, NULL);
    for (const cJSON *c = cases ? cases->child : NULL; c; c = c->next) run_case(ctx, preludes, c, &t);
    agal_context_free(ctx);
    for (size_t i = 0; i < sizeof resource_ids / sizeof *resource_ids; i++)
        CHECK(t.ids_covered[resource_ids[i]] > 0, "no case covers #%d", resource_ids[i]);
    printf("replay_errors.json: %u cases through the library's calls, %u stopped at a draw's own checks\n", t.covered,
           t.skipped);
    cJSON_Delete(root);
}

/* ---- what the cases cannot show ------------------------------------------------------------- */

static void expect(int got, const agal_flash_error *e, const char *want, const char *what)
{
    char line[512] = "no error";
    if (got) agal_flash_line(e, line, sizeof line);
    CHECK(want ? got == e->id && !strcmp(line, want) : got == 0, "%s: %s\n  want %s", what, line, want ? want : "none");
}

static void limits(void)
{
    agal_context3d_state s;
    agal_flash_error e;
    agal_texture_desc big = {AGAL_TEXTURE_KIND_2D, 4096, 4096, AGAL_TEXTURE_BGRA, 0};
    agal_context3d_state_init(&s, AGAL_C3D_BASELINE);
    CHECK(s.limits.objects == 4096 && s.limits.texture_size == 2048 && s.limits.back_buffer_max == 16384);
    expect(agal_check_texture(&s, &big, &e), &e, "ArgumentError: Error #3683: Texture too big (max is 2048x2048).",
           "4096 in baseline");
    agal_context3d_state_init(&s, AGAL_C3D_BASELINE_EXTENDED);
    CHECK(s.limits.texture_size == 4096 && s.profile == AGAL_C3D_BASELINE_EXTENDED && !s.configured);
    expect(agal_check_texture(&s, &big, &e), &e, NULL, "4096 in baselineExtended");
    big.width = 8192;
    expect(agal_check_texture(&s, &big, &e), &e, "ArgumentError: Error #3683: Texture too big (max is 4096x4096).",
           "8192 in baselineExtended");

    /* A limit the emulator lowers is the one checked and named. */
    s.limits.back_buffer_max = 4096;
    expect(agal_check_back_buffer(&s, 4096, 4097, &e), &e,
           "Error: Error #3781: Requested height of backbuffer is not in allowed range 32 to 4096.", "a lower limit");
    s.limits.rectangle_size = 1024;
    agal_texture_desc rect = {AGAL_TEXTURE_KIND_RECTANGLE, 2048, 16, AGAL_TEXTURE_BGRA, 0};
    expect(agal_check_texture(&s, &rect, &e), &e,
           "ArgumentError: Error #3766: RectangleTexture too big (max is the larger of 1024x1024 or the size of the "
           "backbuffer).",
           "a rectangle past a lower limit");
    s.width = 2048; /* the back buffer's size allows it */
    expect(agal_check_texture(&s, &rect, &e), &e, NULL, "a rectangle within the back buffer");
}

static void resource_limits(void)
{
    agal_context3d_state s;
    agal_flash_error e;
    agal_context3d_state_init(&s, AGAL_C3D_STANDARD);
    agal_buffer_desc vb = {AGAL_CREATE_VERTEX_BUFFER, 4, 4, 0};
    s.objects[AGAL_RESOURCE_VERTEX_BUFFER] = 4095;
    expect(agal_check_buffer(&s, &vb, &e), &e, NULL, "the 4096th vertex buffer");
    s.objects[AGAL_RESOURCE_VERTEX_BUFFER] = 4096;
    expect(agal_check_buffer(&s, &vb, &e), &e, "Error: Error #3691: Resource limit for this resource type exceeded.",
           "the 4097th vertex buffer");
    /* Each kind its own count. */
    expect(agal_check_object_count(&s, AGAL_RESOURCE_PROGRAM, &e), &e, NULL, "a program beside 4096 buffers");
    /* The argument checks come first. */
    vb.count = 0;
    CHECK(agal_check_buffer(&s, &vb, &e) == 3671);
    vb.count = 4;
    s.limits.ignore_resource_limits = true;
    expect(agal_check_buffer(&s, &vb, &e), &e, NULL, "ignoreResourceLimits: no count");
    agal_texture_desc t = {AGAL_TEXTURE_KIND_2D, 8192, 4, AGAL_TEXTURE_BGRA, 0};
    s.objects[AGAL_RESOURCE_TEXTURE] = 5000;
    CHECK(agal_check_texture(&s, &t, &e) == 3683, "ignoreResourceLimits keeps the size limits: %d", e.id);
}

/* A runtime's own memory budget: held and transient both fit, to the byte. */
static void memory_budget(void)
{
    agal_flash_error e;
    const char *line = "Error: Error #3691: Resource limit for this resource type exceeded.";
    uint64_t gib = (uint64_t)1 << 30;
    expect(agal_check_memory(gib, gib - 96, 64, 32, &e), &e, NULL, "held and transient filling the budget");
    expect(agal_check_memory(gib, gib - 96, 64, 33, &e), &e, line, "one transient byte past it");
    expect(agal_check_memory(gib, gib - 96, 97, 0, &e), &e, line, "one held byte past it");
    expect(agal_check_memory(gib, gib + 1, 1, 0, &e), &e, line, "a budget already overdrawn");
    expect(agal_check_memory(UINT64_MAX, 1, UINT64_MAX, UINT64_MAX, &e), &e, line, "sums that would wrap");
}

static void uploads(void)
{
    agal_flash_error e;
    agal_texture_desc half = {AGAL_TEXTURE_KIND_2D, 4, 2, AGAL_TEXTURE_RGBA_HALF_FLOAT, 0};
    agal_texture_upload up = {.from_bytes = true, .level = 1, .length = 2 * 1 * 8 + 4, .byte_offset = 4};
    expect(agal_check_texture_upload(&half, &up, &e), &e, NULL, "level 1 of 4x2 half floats: 2x1 texels of 8 bytes");
    up.byte_offset = 5;
    CHECK(agal_check_texture_upload(&half, &up, &e) == 3669, "a byte short");
    up.byte_offset = (int64_t)up.length; /* at the end: outside even for nothing */
    up.level = 2;
    CHECK(agal_check_texture_upload(&half, &up, &e) == 3669, "an offset at the data's end");
    up.level = 3;
    CHECK(agal_check_texture_upload(&half, &up, &e) == 3674, "4x2 has 3 levels");
    agal_texture_desc rect = {AGAL_TEXTURE_KIND_RECTANGLE, 4, 2, AGAL_TEXTURE_BGRA, 0};
    agal_texture_upload bitmap = {.level = 1, .bitmap_width = 1, .bitmap_height = 1};
    CHECK(agal_check_texture_upload(&rect, &bitmap, &e) == 3674, "a rectangle texture has one level");
    bitmap.level = 0, bitmap.bitmap_width = 5;
    CHECK(agal_check_texture_upload(&rect, &bitmap, &e) == 2015, "a bitmap wider than the texture");

    agal_buffer_desc vb = {AGAL_CREATE_VERTEX_BUFFER, 4, 3, 0};
    agal_buffer_upload v = {.start = 1, .count = 3, .length = 9};
    expect(agal_check_buffer_upload(&vb, &v, &e), &e, NULL, "vertices 1..3 of 4, 9 numbers");
    v.length = 8;
    expect(agal_check_buffer_upload(&vb, &v, &e), &e, "RangeError: Error #3669: Bad input size.", "8 numbers");
    agal_buffer_desc ib = {AGAL_CREATE_INDEX_BUFFER, 6, 0, 0};
    agal_buffer_upload b = {.from_bytes = true, .start = 0, .count = 6, .length = 14, .byte_offset = 2};
    expect(agal_check_buffer_upload(&ib, &b, &e), &e, NULL, "6 indices of 2 bytes after 2");
    b.byte_offset = 3;
    CHECK(agal_check_buffer_upload(&ib, &b, &e) == 3669, "a byte short");
}

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: test_resources replay_errors.json");
    if (argc == 2) replay_cases(argv[1]);
    limits();
    resource_limits();
    memory_budget();
    uploads();
    return failures != 0;
}
