/* stage3d.h: the Stage3D runtime kit, for emulators: Program3D.upload in one call
 * (decode, link, translate, one binding layout), Flash's sampler slots, the values
 * of flash.display3D's enumeration classes, Context3D's arithmetic and the checks a
 * draw and the resource calls make, with Flash's ids. <agal/vulkan.h> and
 * <agal/gl.h> build on it. */
#ifndef AGAL_STAGE3D_H
#define AGAL_STAGE3D_H

#include "agal.h"

#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ==== the runtime: Program3D.upload in one call (upload.c), sampler slots (slots.c) === */

typedef struct agal_upload_options {
    uint32_t size;        /* sizeof(agal_upload_options): agal_upload_options_init() (agal.h, "ABI") */
    agal_target target;   /* SPIR-V, GLSL 330, GLSL ES 3.00 or 1.00, or WGSL (not the IR) */
    agal_profile profile; /* AGAL_PROFILE_AUTO: by each program's version */
    bool lenient;         /* agal_decode_options.lenient, for both programs */
    agal_clip clip;       /* as agal_translate_options */
    bool strip_names;
    bool separate_samplers;
    /* Each ByteArray's endian flag (`ByteArray.endian != Endian.LITTLE_ENDIAN`): Flash
     * throws 3612 (an ArgumentError) for such a ByteArray before reading a byte, but
     * only after an empty one's 3615 (recorded: an empty `new ByteArray()`, big-endian
     * by default, is 3615), in Flash's order: the vertex program's emptiness, its
     * endianness, its bytes, then the fragment program's. */
    bool vertex_big_endian, fragment_big_endian;
    /* The profile the Context3D was created with (agal_profile_find maps
     * Context3DProfile's names), or AGAL_PROFILE_AUTO for none: a program whose AGAL
     * version that profile does not take (baseline 1, standard 2, standard extended 3)
     * is Flash's 3725, checked before either program is validated, the vertex program
     * first (the replay's recorded order: docs/decisions.md). This is not `profile`,
     * which sets the register limits the programs are validated against. */
    agal_profile context_profile;
    const struct agal_names *names; /* as agal_translate_options */
    /* The device's limits (NULL: none): a pair that cannot fit them is refused as
     * agal_translate refuses a program, after both are translated, the vertex
     * program's need first, and no translation is returned. */
    const struct agal_limits *limits;
    /* As agal_translate_options (-g): the source in each translation, its
     * shaders[i].source and source_map set (docs/debug-info.md). */
    bool debug_info;
    /* Appended. As agal_translate_options: with debug_info and a SPIR-V target, also
     * NonSemantic.Shader.DebugInfo.100, for a device that has
     * VK_KHR_shader_non_semantic_info enabled. */
    bool debug_info_nonsemantic;
    /* Appended. The samples of the targets the pair is drawn to, or 0 for any: 1 where
     * every one is single-sampled (antiAlias 0, or a device without multisampling),
     * else 2, 4, 8 or 16 (agal_pipeline_key.samples); any other count is
     * AGAL_ERR_ARG. At 1 a centroid sample is a centre sample, so no varying is
     * declared centroid: the same pixels, from a shader WebGL's compilers take
     * less time over (docs/emulator-guide.md, "Centroid"). Such a pair is for
     * single-sampled targets only, and its program_id says so. */
    uint32_t samples;
} agal_upload_options;
AGAL_STRUCT_INIT(agal_upload_options)

/* The pair as a runtime binds it. Each stage's translation and binding is
 * shaders[stage] (an agal_translate result); the pair's lists below are views of
 * those bindings, for a runtime that builds one pipeline layout: the same arrays,
 * not copies. */
typedef struct agal_upload_result {
    uint32_t size;      /* sizeof(agal_upload_result): agal_upload_result_init() */
    agal_target target; /* the options' */
    const agal_program *vertex, *fragment;
    agal_shader shaders[2];       /* [AGAL_VERTEX], [AGAL_FRAGMENT] */
    agal_binding_block blocks[2]; /* the constants the pair reads, vc first */
    size_t nblocks;
    const agal_binding_sampler *samplers; /* the fragment binding's */
    size_t nsamplers;
    const agal_binding_attribute *attributes; /* the vertex binding's */
    size_t nattributes;
    const agal_binding_varying *varyings; /* the fragment binding's: those that connect */
    size_t nvaryings;
    /* What the programs' tokens use, dead code included (agal_reflect: fd, kil and
     * ddx/ddy of the fragment program, iid of the vertex program), as Flash's checks
     * count them. Not what a translation declares: that is shaders[stage].binding's
     * writes_depth, uses_kil, uses_iid, uses_derivatives, after the passes. */
    struct {
        bool writes_depth, uses_kil, uses_iid, uses_derivatives;
    } tokens;
    unsigned extensions; /* GLSL ES 1.00: the AGAL_EXT_* to enable, of both */
    /* Appended: the pair's identity in a pipeline key (agal_pipeline_program_id of
     * the upload's bytes and options), set once both programs decoded. */
    uint64_t program_id;
} agal_upload_result;
AGAL_STRUCT_INIT(agal_upload_result)

/* Program3D.upload: decodes the vertex and the fragment program (both under opt's
 * profile and leniency), links them, translates both for opt->target (the fragment
 * program first, so the vertex program writes only the varyings it reads) and
 * returns each stage's translation and binding, all in ctx's arena. The first
 * failure is the one Flash reports: 3725 (opt->context_profile), then the vertex
 * program's, then the fragment program's, then the linkage's (agal_flash_error_of
 * and agal_flash_line give Flash's line). The context's diagnostics are cleared first, so
 * agal_diag_get(ctx, 0) after a failed upload is the upload's own error. opt may be
 * NULL; out->size must be set. */
AGAL_API agal_status agal_upload(agal_context *ctx, const void *vertex, size_t vertex_size, const void *fragment,
                                 size_t fragment_size, const agal_upload_options *opt, agal_upload_result *out);

/* ---- sampler slots ----------------------------------------------------------
 * Flash keeps a sampler state (wrap, filter, mipmap) per slot; a draw samples with
 * the slot's state (docs/format.md section 7). setProgram writes the token's state
 * into every slot whose token lacks ignoresampler (slots of ignoresampler tokens keep
 * what they hold); setSamplerStateAt writes a slot at any time and lasts until the
 * next write; a slot never written holds clamp, nearest, mipnone. The token's
 * format, dimension, LOD bias and special flags always come from the token. */
typedef struct agal_sampler_state {
    uint8_t wrap, filter, mipmap; /* AGAL_WRAP_*, AGAL_FILTER_*, AGAL_MIP_* */
} agal_sampler_state;

enum { AGAL_SAMPLER_SLOTS = 16 };

typedef struct agal_sampler_slots {
    agal_sampler_state slot[AGAL_SAMPLER_SLOTS];
} agal_sampler_slots;

/* Every slot clamp, nearest, mipnone (a new Context3D). */
AGAL_API void agal_slots_init(agal_sampler_slots *slots);
/* Context3D.setProgram of a pair whose fragment program is `fragment`. */
AGAL_API void agal_slots_set_program(agal_sampler_slots *slots, const agal_program *fragment);
/* Context3D.setSamplerStateAt(slot, wrap, filter, mipfilter). Out-of-range values
 * and slots are ignored (the caller's AS3 layer throws for them). */
AGAL_API void agal_slots_set_state(agal_sampler_slots *slots, unsigned slot, agal_sampler_state state);
/* The sampler a draw samples token with: its wrap, filter and mipmap from the slot,
 * the rest from the token. */
AGAL_API agal_sampler agal_slots_resolve(const agal_sampler_slots *slots, const agal_sampler *token);

/* ==== Context3D's values (stage3d.c) ==========================================
 * The string constants of flash.display3D's enumeration classes, as C enums: what
 * an emulator's AS3 layer passes to setBlendFactors, setDepthTest, setStencilActions,
 * setCulling, setVertexBufferAt and createTexture. <agal/vulkan.h> and <agal/gl.h>
 * map them (and a resolved sampler) to each API; agal_stage3d_find turns the AS3
 * strings into them. */

typedef enum agal_blend_factor { /* Context3DBlendFactor */
                                 AGAL_BLEND_ZERO,
                                 AGAL_BLEND_ONE,
                                 AGAL_BLEND_SOURCE_COLOR,
                                 AGAL_BLEND_ONE_MINUS_SOURCE_COLOR,
                                 AGAL_BLEND_SOURCE_ALPHA,
                                 AGAL_BLEND_ONE_MINUS_SOURCE_ALPHA,
                                 AGAL_BLEND_DESTINATION_COLOR,
                                 AGAL_BLEND_ONE_MINUS_DESTINATION_COLOR,
                                 AGAL_BLEND_DESTINATION_ALPHA,
                                 AGAL_BLEND_ONE_MINUS_DESTINATION_ALPHA
} agal_blend_factor;

typedef enum agal_compare_mode { /* Context3DCompareMode (depth and stencil tests) */
                                 AGAL_COMPARE_NEVER,
                                 AGAL_COMPARE_LESS,
                                 AGAL_COMPARE_EQUAL,
                                 AGAL_COMPARE_LESS_EQUAL,
                                 AGAL_COMPARE_GREATER,
                                 AGAL_COMPARE_NOT_EQUAL,
                                 AGAL_COMPARE_GREATER_EQUAL,
                                 AGAL_COMPARE_ALWAYS
} agal_compare_mode;

typedef enum agal_stencil_action { /* Context3DStencilAction */
                                   AGAL_STENCIL_KEEP,
                                   AGAL_STENCIL_ZERO,
                                   AGAL_STENCIL_SET,
                                   AGAL_STENCIL_INCREMENT_SATURATE,
                                   AGAL_STENCIL_DECREMENT_SATURATE,
                                   AGAL_STENCIL_INVERT,
                                   AGAL_STENCIL_INCREMENT_WRAP,
                                   AGAL_STENCIL_DECREMENT_WRAP
} agal_stencil_action;

typedef enum agal_triangle_face { /* Context3DTriangleFace: which faces setCulling culls */
                                  AGAL_FACE_NONE,
                                  AGAL_FACE_FRONT,
                                  AGAL_FACE_BACK,
                                  AGAL_FACE_FRONT_AND_BACK
} agal_triangle_face;

typedef enum agal_vertex_format { /* Context3DVertexBufferFormat */
                                  AGAL_VERTEX_FLOAT_1,
                                  AGAL_VERTEX_FLOAT_2,
                                  AGAL_VERTEX_FLOAT_3,
                                  AGAL_VERTEX_FLOAT_4,
                                  AGAL_VERTEX_BYTES_4 /* four unsigned bytes normalised to [0, 1], x first in memory */
} agal_vertex_format;

typedef enum agal_texture_format {                           /* Context3DTextureFormat */
                                   AGAL_TEXTURE_BGRA,        /* 8-bit B, G, R, A in memory (BitmapData's ARGB words) */
                                   AGAL_TEXTURE_BGRA_PACKED, /* "bgraPacked4444" */
                                   AGAL_TEXTURE_BGR_PACKED,  /* "bgrPacked565" */
                                   AGAL_TEXTURE_COMPRESSED,  /* ATF, DXT1 on desktop */
                                   AGAL_TEXTURE_COMPRESSED_ALPHA, /* ATF, DXT5 on desktop */
                                   AGAL_TEXTURE_RGBA_HALF_FLOAT
} agal_texture_format;

typedef enum agal_context3d_profile { /* Context3DProfile, in the order of what each allows */
                                      AGAL_C3D_BASELINE_CONSTRAINED,
                                      AGAL_C3D_BASELINE,
                                      AGAL_C3D_BASELINE_EXTENDED,
                                      AGAL_C3D_STANDARD_CONSTRAINED,
                                      AGAL_C3D_STANDARD,
                                      AGAL_C3D_STANDARD_EXTENDED,
                                      AGAL_C3D_ENHANCED
} agal_context3d_profile;

typedef enum agal_buffer_usage { /* Context3DBufferUsage: a hint, which changes nothing drawn */
                                 AGAL_BUFFER_STATIC_DRAW,
                                 AGAL_BUFFER_DYNAMIC_DRAW
} agal_buffer_usage;

/* The register profile a Context3D profile validates programs against (docs/format.md
 * section 7): baseline* AGAL 1, standardConstrained and standard AGAL 2,
 * standardExtended and enhanced AGAL 3. */
static inline agal_profile agal_context3d_registers(agal_context3d_profile p)
{
    return p >= AGAL_C3D_STANDARD_EXTENDED      ? AGAL_PROFILE_STANDARD_EXTENDED
           : p >= AGAL_C3D_STANDARD_CONSTRAINED ? AGAL_PROFILE_STANDARD
                                                : AGAL_PROFILE_BASELINE;
}

/* The enumeration classes agal_stage3d_find and agal_stage3d_name know. The sampler
 * ones (Context3DWrapMode, Context3DTextureFilter, Context3DMipFilter) give the
 * AGAL_WRAP_*, AGAL_FILTER_* and AGAL_MIP_* values: their strings are the AGAL
 * sampler options' (agal_sampler_option_name). */
typedef enum agal_stage3d_enum {
    AGAL_S3D_BLEND_FACTOR,
    AGAL_S3D_COMPARE_MODE,
    AGAL_S3D_STENCIL_ACTION,
    AGAL_S3D_TRIANGLE_FACE,
    AGAL_S3D_VERTEX_FORMAT,
    AGAL_S3D_TEXTURE_FORMAT,
    AGAL_S3D_PROGRAM_TYPE /* agal_stage */,
    AGAL_S3D_WRAP_MODE,
    AGAL_S3D_TEXTURE_FILTER,
    AGAL_S3D_MIP_FILTER,
    AGAL_S3D_PROFILE /* agal_context3d_profile */,
    AGAL_S3D_BUFFER_USAGE,
    AGAL_S3D_ENUMS
} agal_stage3d_enum;

/* The AS3 string of a value ("oneMinusSourceAlpha"); NULL for a value out of range. */
AGAL_API const char *agal_stage3d_name(agal_stage3d_enum which, unsigned value);
/* The value of an AS3 string, exact and case-sensitive as Flash compares them; false
 * for a string the class does not define (Flash throws ArgumentError #2008 for it). */
AGAL_API bool agal_stage3d_find(agal_stage3d_enum which, const char *name, unsigned *value);

/* ---- Context3D's arithmetic, the same for every API ---------------------------
 * What <agal/vulkan.h> and <agal/gl.h> build on (docs/format.md section 8). */

/* A channel of clear(red, green, blue, alpha): clamped to [0, 1] (NaN as 0) and
 * truncated to 8 bits, as Flash shows it (0.3 gives 76, not 77: observed), as the
 * float an 8-bit UNORM target stores exactly. */
static inline float agal_stage3d_clear_channel(double v)
{
    v = v > 0 ? (v < 1 ? v : 1) : 0;
    return (float)(unsigned)(v * 255.0) / 255.0f;
}

/* Mip levels of a texture whose level 0 is w x h: log2(max(w, h)) + 1. */
static inline unsigned agal_stage3d_levels(uint32_t w, uint32_t h)
{
    unsigned n = 1;
    for (uint32_t s = w > h ? w : h; s > 1; s >>= 1) n++;
    return n;
}

/* The samples configureBackBuffer's (or setRenderToTexture's) antiAlias asks for:
 * the largest of 1, 2, 4, 8, 16 not above it ("the number of subsamples": 0 none, 2
 * minimal, 4 high, 16 very high). Each API's helper then takes the smallest count
 * the device has that is not below it (GL's rule for renderbuffers), else the
 * largest it has. */
static inline unsigned agal_stage3d_samples(int anti_alias)
{
    unsigned n = 1;
    while (n < 16 && (int)(n * 2) <= anti_alias) n *= 2;
    return n;
}

/* A rectangle in whole pixels, origin at the target's top left, y down. */
typedef struct agal_rect {
    int32_t x, y;
    uint32_t width, height;
} agal_rect;

/* setScissorRectangle(x, y, width, height) on a target of tw x th pixels. false
 * when there is no scissor: Flash ignores a rectangle of zero width or height
 * (observed; a negative one too, decided). Otherwise *out is the rectangle with its
 * edges rounded to the nearest pixel and clipped to the target; it is empty when
 * they do not meet (Flash's 3706 at the draw). */
static inline bool agal_stage3d_scissor(double x, double y, double w, double h, uint32_t tw, uint32_t th,
                                        agal_rect *out)
{
    if (!(w > 0 && h > 0)) return false;
    double e[4], lim[4];
    int32_t r[4];
    e[0] = x, e[1] = y, e[2] = x + w, e[3] = y + h;
    lim[0] = lim[2] = (double)tw, lim[1] = lim[3] = (double)th;
    for (int i = 0; i < 4; i++) {
        double v = e[i] > 0 ? (e[i] < lim[i] ? e[i] : lim[i]) : 0; /* clipped, NaN as 0 */
        r[i] = (int32_t)(v + 0.5);
    }
    out->x = r[0], out->y = r[1];
    out->width = (uint32_t)(r[2] - r[0]), out->height = (uint32_t)(r[3] - r[1]);
    return true;
}

/* A key for caching an API's sampler objects by resolved state (agal_slots_resolve):
 * two samplers get the same key exactly when they sample alike, whatever the
 * token's format, LOD bias (in the shader) and special flags. */
static inline uint32_t agal_sampler_state_key(const agal_sampler *s)
{
    return (uint32_t)s->wrap | (uint32_t)s->filter << 4 | (uint32_t)s->mipmap << 8 | (uint32_t)s->dim << 12;
}

/* ---- setProgramConstants*: the registers they write ----------------------------
 * Each writes registers first .. first + n - 1 of a stage's constant file `regs`
 * (agal_reg_count(profile, stage, AGAL_REG_CONSTANT) registers of 4 floats) and
 * returns 0, or the Flash id to throw, in Flash's order, having written nothing:
 * 3669 (RangeError) for too little data, then 2006 (RangeError; decided, Flash's
 * record is silent) for registers past the file. */

static inline int agal_stage3d_constant_range(agal_profile profile, agal_stage stage, int64_t first, int64_t n)
{
    int64_t count = agal_reg_count(profile, stage, AGAL_REG_CONSTANT);
    return first < 0 || n < 0 || first + n > count ? 2006 : 0;
}

/* setProgramConstantsFromMatrix(programType, firstRegister, matrix, transposedMatrix):
 * four registers from Matrix3D.rawData (column after column). Not transposed, a
 * column lands in a register; transposed, a row: rawData[0, 4, 8, 12] in the first
 * (recorded in Flash Player's screenshots). */
static inline int agal_stage3d_constants_from_matrix(agal_profile profile, agal_stage stage, int32_t first,
                                                     const double raw[16], bool transposed, float (*regs)[4])
{
    int id = agal_stage3d_constant_range(profile, stage, first, 4);
    for (int r = 0; r < 4 && !id; r++)
        for (int i = 0; i < 4; i++) regs[first + r][i] = (float)(transposed ? raw[4 * i + r] : raw[4 * r + i]);
    return id;
}

/* setProgramConstantsFromVector(programType, firstRegister, data, numRegisters): len
 * numbers; numRegisters -1 takes as many whole registers as they make. */
static inline int agal_stage3d_constants_from_vector(agal_profile profile, agal_stage stage, int32_t first,
                                                     const double *data, uint32_t len, int32_t num_registers,
                                                     float (*regs)[4])
{
    int64_t n = num_registers == -1 ? (int64_t)(len / 4) : num_registers;
    if (n < 0 || n * 4 > (int64_t)len) return 3669;
    int id = agal_stage3d_constant_range(profile, stage, first, n);
    for (int64_t i = 0; i < 4 * n && !id; i++) regs[first + i / 4][i % 4] = (float)data[i];
    return id;
}

/* setProgramConstantsFromByteArray(programType, firstRegister, numRegisters, data,
 * byteArrayOffset): little-endian floats whatever the ByteArray's endian flag
 * (recorded). */
static inline int agal_stage3d_constants_from_bytes(agal_profile profile, agal_stage stage, int32_t first,
                                                    int32_t num_registers, const uint8_t *bytes, size_t len,
                                                    uint32_t offset, float (*regs)[4])
{
    if (num_registers < 0 || offset >= len || len - offset < (uint64_t)num_registers * 16) return 3669;
    int id = agal_stage3d_constant_range(profile, stage, first, num_registers);
    for (uint32_t i = 0; i < 4 * (uint32_t)num_registers && !id; i++) {
        const uint8_t *p = bytes + offset + 4 * i;
        uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        memcpy(&regs[first + i / 4][i % 4], &u, 4);
    }
    return id;
}

/* setStencilActions(triangleFace, ...) acts on the faces it names; the other faces
 * pass the stencil test and keep the stored value (docs/decisions.md, "Context3D"). */
static inline bool agal_stage3d_stencil_face(agal_triangle_face actions_face, bool front)
{
    return actions_face == AGAL_FACE_FRONT_AND_BACK || actions_face == (front ? AGAL_FACE_FRONT : AGAL_FACE_BACK);
}

/* ---- Context3D's draw-time checks (context3d.c) --------------------------------
 * What drawTriangles and drawTrianglesInstanced check of the streams and the
 * textures bound, in Flash's order with Flash's ids (docs/format.md section 8): pure
 * functions over a small description the emulator fills from its own state. Each
 * returns 0, or the Flash id with *err filled (<agal/agal.h>): agal_flash_line gives
 * the line ActionScript prints ("Error: Error #3611: Stream 1 is read by ..."). */

/* setVertexBufferAt(index, buffer, bufferOffset, format) as the emulator holds it. */
typedef struct agal_draw_stream {
    bool set;       /* a buffer is set at this index */
    int32_t offset; /* bufferOffset, in 32-bit words */
    agal_vertex_format format;
    uint32_t data32_per_vertex;     /* the buffer's */
    uint32_t vertices;              /* the buffer's numVertices */
    uint32_t instances_per_element; /* createVertexBufferForInstances; 0: a per-vertex buffer */
} agal_draw_stream;

enum { AGAL_DRAW_STREAMS = 16 }; /* va0..va15 (8 below standardExtended) */

/* The streams of a draw of `vertex` (the uploaded vertex program) reading indices up
 * to max_index (none when count is 0) for `instances` instances: for each stream in
 * order, 3607 (set, not read: agal_program_reads), 3611 (read, not set), 3610 (the
 * format runs past the vertex), 3609 (an index past the buffer), 3792 (stream 0 per
 * instance), 3785 (too few instances in the buffer). */
AGAL_API int agal_check_draw_streams(const agal_program *vertex, const agal_draw_stream streams[AGAL_DRAW_STREAMS],
                                     uint32_t count, uint32_t max_index, uint32_t instances, agal_flash_error *err);

/* Which of createTexture, createCubeTexture, createRectangleTexture made a texture. */
typedef enum agal_texture_kind {
    AGAL_TEXTURE_KIND_2D,
    AGAL_TEXTURE_KIND_CUBE,
    AGAL_TEXTURE_KIND_RECTANGLE
} agal_texture_kind;

/* setTextureAt(sampler, texture) as the emulator holds it. */
typedef struct agal_draw_texture {
    const void *object; /* the texture (NULL: none set); the same texture, the same pointer */
    agal_texture_kind kind;
    agal_texture_format format; /* as created */
    bool render_target;         /* also a render target of this draw */
    bool has_level0;            /* every face has level 0 (rendered to counts) */
    bool has_all_levels;        /* every face has every level (a rendered face's are made) */
} agal_draw_texture;

/* The textures of a draw of `fragment` with the slots' state: for each sampler in
 * order, one the program samples: 3663 (none set), 3604 (it is a render target),
 * 3606 (2D against cube), 3763 (format against the token's), 3753 (a cube or
 * rectangle texture not clamped), 3755 (a rectangle texture with mipmapping or a
 * bias), 3700 (levels the sampling reads missing); one it does not: 3697 (a texture
 * set). Then 3695: one texture sampled with two states. Every use in the tokens
 * counts, also one the optimizer drops. resolved (may be NULL) receives each
 * sampled slot's state. */
AGAL_API int agal_check_draw_textures(const agal_program *fragment, const agal_sampler_slots *slots,
                                      const agal_draw_texture textures[16], agal_sampler resolved[16],
                                      agal_flash_error *err);

/* setRenderToTexture(texture, enableDepthAndStencil, antiAlias, surfaceSelector,
 * colorOutputIndex) as the emulator holds each colour output's slot. */
typedef struct agal_draw_target {
    const void *texture;    /* NULL: the slot is not set */
    uint32_t width, height; /* the texture's */
    uint32_t surface;       /* surfaceSelector: the cube face (0 otherwise) */
    bool depth_and_stencil; /* enableDepthAndStencil */
    int32_t anti_alias;
} agal_draw_target;

enum { AGAL_DRAW_TARGETS = 4 }; /* colorOutputIndex 0..3 */

/* The objects Context3D counts against its resource limit, one count a kind (as
 * agalrun replay counts them: a texture of any shape is a texture). */
typedef enum agal_resource_kind {
    AGAL_RESOURCE_VERTEX_BUFFER,
    AGAL_RESOURCE_INDEX_BUFFER,
    AGAL_RESOURCE_PROGRAM,
    AGAL_RESOURCE_TEXTURE,
    AGAL_RESOURCE_KINDS
} agal_resource_kind;

/* The limits the resource checks (resources.c) hold a call to: Flash's for the
 * profile from agal_context3d_state_init, each the largest value allowed. */
typedef struct agal_context3d_limits {
    uint32_t objects;           /* live objects of a kind (3691): 4096, Adobe's reference */
    uint32_t texture_size;      /* createTexture's side (3683): 2048, 4096 from baselineExtended */
    uint32_t cube_size;         /* createCubeTexture's side (3705): 1024 */
    uint32_t rectangle_size;    /* createRectangleTexture's side when the back buffer's is smaller (3766): 2048 */
    uint32_t back_buffer_min;   /* configureBackBuffer's smallest side (3780, 3781): 32 */
    uint32_t back_buffer_max;   /* and its largest: 16384 */
    uint32_t vertices;          /* a vertex buffer's numVertices (3670): 65535 */
    uint32_t data32_per_vertex; /* a vertex buffer's data32PerVertex (3670): 64 */
    uint32_t indices;           /* an index buffer's numIndices (3670): 0xEFFFF */
    /* AIR's Context3D.ignoreResourceLimits (AIR only; Flash Player has no such
     * property): the object counts are not checked, so no 3691. Every other limit
     * here is a rule of the call's arguments and still holds (docs/decisions.md,
     * "Context3D"). */
    bool ignore_resource_limits;
} agal_context3d_limits;

/* The fixed-function state of a Context3D, as its calls set it; a new Context3D's
 * is agal_render_state_default's. */
typedef struct agal_render_state {
    agal_blend_factor blend_src, blend_dst; /* setBlendFactors */
    bool color_mask[4];                     /* setColorMask: red, green, blue, alpha */
    agal_triangle_face cull;                /* setCulling */
    bool depth_mask;                        /* setDepthTest */
    agal_compare_mode depth_compare;
    agal_triangle_face stencil_face; /* setStencilActions */
    agal_compare_mode stencil_compare;
    agal_stencil_action stencil_both_pass, stencil_depth_fail, stencil_fail;
    uint32_t stencil_ref, stencil_read, stencil_write; /* setStencilReferenceValue: 8 bits each */
} agal_render_state;

/* A new Context3D's: blending (one, zero), every channel written, no culling,
 * depth written and compared lessEqual, stencil always and keep on both faces,
 * reference 0, masks 255. */
static inline agal_render_state agal_render_state_default(void)
{
    agal_render_state r;
    memset(&r, 0, sizeof r);
    r.blend_src = AGAL_BLEND_ONE;
    r.blend_dst = AGAL_BLEND_ZERO;
    r.color_mask[0] = r.color_mask[1] = r.color_mask[2] = r.color_mask[3] = true;
    r.cull = AGAL_FACE_NONE;
    r.depth_mask = true;
    r.depth_compare = AGAL_COMPARE_LESS_EQUAL;
    r.stencil_face = AGAL_FACE_FRONT_AND_BACK;
    r.stencil_compare = AGAL_COMPARE_ALWAYS;
    r.stencil_both_pass = r.stencil_depth_fail = r.stencil_fail = AGAL_STENCIL_KEEP;
    r.stencil_read = r.stencil_write = 255;
    return r;
}

/* What a Context3D's checks read of its state: the emulator fills it from its own
 * (agalrun replay does, tools/replay/replay_context.c), after
 * agal_context3d_state_init. */
typedef struct agal_context3d_state {
    agal_context3d_profile profile;              /* requestContext3D's */
    bool configured;                             /* configureBackBuffer was called */
    bool cleared;                                /* clear was called since the last present */
    uint32_t width, height;                      /* the back buffer's */
    bool depth_and_stencil;                      /* the back buffer's enableDepthAndStencil */
    const agal_program *vertex, *fragment;       /* setProgram's uploaded pair; NULL: none */
    agal_draw_target targets[AGAL_DRAW_TARGETS]; /* none set: the back buffer */
    agal_draw_stream streams[AGAL_DRAW_STREAMS];
    agal_draw_texture textures[AGAL_SAMPLER_SLOTS];
    const agal_sampler_slots *slots; /* setProgram's and setSamplerStateAt's states */
    bool scissor;                    /* setScissorRectangle with a rectangle (not null) */
    double scissor_rect[4];          /* its x, y, width, height */
    uint32_t draws;                  /* draws since the last present, this one not counted */
    /* Appended after 0.3.0: only the resource checks read them (the calls above read
     * no field past `draws`, so a caller built against 0.3.0 keeps working). */
    agal_context3d_limits limits;          /* agal_context3d_state_init's for the profile */
    uint32_t objects[AGAL_RESOURCE_KINDS]; /* live objects of each kind, a new one not counted */
    /* Appended after those: only the pipeline key reads them (agal_pipeline_key_make). */
    agal_render_state render;                              /* agal_render_state_default's at init */
    int32_t anti_alias;                                    /* configureBackBuffer's antiAlias */
    agal_texture_format target_formats[AGAL_DRAW_TARGETS]; /* each targets[i].texture's format */
} agal_context3d_state;

/* A new Context3D of `profile`: every field zero (nothing configured, set or
 * created) but the profile and Flash's limits for it. */
AGAL_API void agal_context3d_state_init(agal_context3d_state *s, agal_context3d_profile profile);

/* drawTriangles(indexBuffer, firstIndex, numTriangles) or drawTrianglesInstanced(
 * indexBuffer, numInstances, firstIndex, numTriangles). */
typedef struct agal_draw_call {
    const uint16_t *indices; /* the index buffer's content */
    uint32_t nindices;       /* its numIndices */
    int32_t first;           /* firstIndex */
    int32_t triangles;       /* numTriangles; -1: every whole triangle from first on */
    int32_t instances;       /* 1 for drawTriangles */
} agal_draw_call;

/* What a draw that passed its checks draws. */
typedef struct agal_draw_plan {
    uint32_t first, count;                     /* the indices drawn */
    uint32_t instances;                        /* 0 or more */
    agal_sampler samplers[AGAL_SAMPLER_SLOTS]; /* each sampled slot's resolved state */
    bool scissor;                              /* a scissor rectangle applies: scissor_rect */
    agal_rect scissor_rect;                    /* in the target's pixels (agal_stage3d_scissor) */
} agal_draw_plan;

/* The draw's checks, all of them in Flash's order: 3698 (the back buffer not
 * configured), 3692 (not cleared since present), 3600 (no program), 3602 and 3603
 * (the index range); the render targets: 3728 (a slot past an unset one), 3729
 * (targets of different sizes or options), 3730 (one surface twice), 3774 (colour
 * outputs against targets), 3776 (fd without a depth buffer); the textures
 * (agal_check_draw_textures), the streams (agal_check_draw_streams); 3706 (the
 * scissor rectangle outside the target), 3690 (more than 32768 draws between
 * presents). 0 with *plan filled, or the id with *err. */
AGAL_API int agal_check_draw(const agal_context3d_state *s, const agal_draw_call *call, agal_draw_plan *plan,
                             agal_flash_error *err);

/* drawTrianglesInstanced, before agal_check_draw: 3787 (below standardExtended). */
AGAL_API int agal_check_draw_instanced(const agal_context3d_state *s, agal_flash_error *err);

/* present(): 3698 (not configured), 3692 (no clear since the last present). */
AGAL_API int agal_check_present(const agal_context3d_state *s, agal_flash_error *err);

/* An index argument of setVertexBufferAt (a stream), setTextureAt or
 * setSamplerStateAt (a sampler) against the profile's registers: 2006. */
AGAL_API int agal_check_stream_index(const agal_context3d_state *s, int32_t index, agal_flash_error *err);
AGAL_API int agal_check_sampler_index(const agal_context3d_state *s, int32_t index, agal_flash_error *err);

/* setRenderToTexture's arguments, texture (NULL: unsetting the slot) as setTextureAt
 * would hold it: 3770 (colorOutputIndex outside 0..3), 3760 (an index past 0 below
 * the standard profile); for a texture, 3772 (a cube face outside 0..5), 3773 (a
 * rectangle texture's surface not 0), 3771 (a 2D texture's surface not 0), 3746 (a
 * compressed texture). */
AGAL_API int agal_check_render_to_texture(const agal_context3d_state *s, const agal_draw_texture *texture,
                                          int32_t surface, int32_t index, agal_flash_error *err);

/* ---- Context3D's resource checks (resources.c) -----------------------------------
 * What the calls that make, fill or read a resource check of their arguments, in
 * Flash's order with Flash's ids (docs/format.md section 8), before anything is made
 * or written: each returns 0, or the id with *err filled, as the draw checks do.
 * An emulator calls them first and throws agal_flash_class with agal_flash_message
 * for a nonzero id; agalrun replay does (tools/replay/replay_calls.c). */

/* A String argument holding one of an enumeration class's values (createTexture's
 * format, setCulling's face, createVertexBuffer's bufferUsage, ...): 2007
 * (TypeError; name NULL: ActionScript's null), then 2008 (ArgumentError: a string
 * the class does not define, compared exactly), both naming param; 0 with *value
 * set (agal_stage3d_find). */
AGAL_API int agal_check_enum(agal_stage3d_enum which, const char *name, const char *param, unsigned *value,
                             agal_flash_error *err);

/* Any other argument that must not be null (an object, a Vector, a ByteArray, a
 * BitmapData, a Matrix3D): 2007 (TypeError) naming param when value is NULL. */
AGAL_API int agal_check_non_null(const void *value, const char *param, agal_flash_error *err);

/* configureBackBuffer(width, height, ...): 3780 (width outside the limits'
 * back_buffer_min..back_buffer_max), then 3781 (height), each naming the range. */
AGAL_API int agal_check_back_buffer(const agal_context3d_state *s, int32_t width, int32_t height,
                                    agal_flash_error *err);

/* clear(): 3698 when it clears the back buffer (no render target set) before
 * configureBackBuffer. */
AGAL_API int agal_check_clear(const agal_context3d_state *s, agal_flash_error *err);

/* drawToBitmapData(destination, srcRect, destPoint) into a BitmapData of
 * bitmap_width x bitmap_height: 3698 (the back buffer not configured), then 3802 (a
 * srcRect given, src_rect not NULL, not inside the back buffer; a destPoint given,
 * dest_point not NULL, not inside the bitmap; NaN is outside). */
AGAL_API int agal_check_draw_to_bitmap(const agal_context3d_state *s, uint32_t bitmap_width, uint32_t bitmap_height,
                                       const double src_rect[4], const double dest_point[2], agal_flash_error *err);

/* A create call's object count: 3691 when s->objects[kind] has reached
 * s->limits.objects, unless s->limits.ignore_resource_limits. createProgram checks
 * only this; agal_check_buffer and agal_check_texture end with it. */
AGAL_API int agal_check_object_count(const agal_context3d_state *s, agal_resource_kind kind, agal_flash_error *err);

/* A create call (or configureBackBuffer, setRenderToTexture) against a runtime's own
 * memory budget for its resources: 3691 when `held` bytes from now on, with
 * `transient` more while the call runs, do not fit in what `budget` leaves beside
 * `in_use`. Flash throws 3691 when the GPU's memory for a kind of resource runs
 * out, at a size that depends on the GPU and that no record gives, so the budget is
 * the runtime's (agalrun replay's --memory-limit); ignore_resource_limits does not
 * lift it. */
AGAL_API int agal_check_memory(uint64_t budget, uint64_t in_use, uint64_t held, uint64_t transient,
                               agal_flash_error *err);

/* Which call makes a buffer. */
typedef enum agal_buffer_call {
    AGAL_CREATE_VERTEX_BUFFER,
    AGAL_CREATE_VERTEX_BUFFER_FOR_INSTANCES,
    AGAL_CREATE_INDEX_BUFFER
} agal_buffer_call;

/* A buffer's create call and its arguments. */
typedef struct agal_buffer_desc {
    agal_buffer_call call;
    int32_t count;                 /* numVertices or numIndices */
    int32_t data32_per_vertex;     /* vertex buffers */
    int32_t instances_per_element; /* createVertexBufferForInstances */
} agal_buffer_desc;

/* createVertexBuffer, createVertexBufferForInstances, createIndexBuffer (after
 * their bufferUsage's agal_check_enum): for instances 3787 (below standardExtended)
 * and 3784 (instancesPerElement not above 0); 3670 (more values a vertex or
 * vertices than the limits', or more indices), 3671 (a count or data32PerVertex not
 * above 0); then agal_check_object_count. */
AGAL_API int agal_check_buffer(const agal_context3d_state *s, const agal_buffer_desc *b, agal_flash_error *err);

/* A texture's create call and its arguments. */
typedef struct agal_texture_desc {
    agal_texture_kind kind;
    int32_t width, height;      /* a cube texture's size in both */
    agal_texture_format format; /* after agal_check_enum */
    int32_t streaming_levels;   /* createTexture's and createCubeTexture's; 0 for a rectangle */
} agal_texture_desc;

/* createTexture and createCubeTexture: 3681 (a side not above 0), 3682 (not a power
 * of two), 3711 (streamingLevels outside 0..the level count), 3683 (2D: a side past
 * texture_size, named) or 3705 (cube: past cube_size), 3745 (a compressed format
 * below 4x4), 3759 (rgbaHalfFloat below standardConstrained: decided);
 * createRectangleTexture: 3782 (baselineConstrained), 3681, 3766 (a side past both
 * rectangle_size, named, and the back buffer's), 3762 (a format not bgra or
 * packed). Then agal_check_object_count. */
AGAL_API int agal_check_texture(const agal_context3d_state *s, const agal_texture_desc *t, agal_flash_error *err);

/* uploadFromVector(data, start, count) or uploadFromByteArray(data, byteArrayOffset,
 * start, count) of a vertex or index buffer. */
typedef struct agal_buffer_upload {
    bool from_bytes;     /* uploadFromByteArray; else uploadFromVector */
    int32_t start;       /* startVertex or startOffset */
    int32_t count;       /* numVertices or count */
    uint64_t length;     /* the Vector's numbers, or the ByteArray's bytes */
    int64_t byte_offset; /* byteArrayOffset */
} agal_buffer_upload;

/* An upload into the buffer b describes: 3669 (RangeError) for start or count
 * negative or past the buffer's end, then fewer numbers than count vertices or
 * indices take, or (a ByteArray, little-endian floats or 16-bit indices) a
 * byteArrayOffset outside the data (at its end too: Adobe's reference) or fewer
 * bytes after it. */
AGAL_API int agal_check_buffer_upload(const agal_buffer_desc *b, const agal_buffer_upload *up, agal_flash_error *err);

/* uploadFromBitmapData(source, side, miplevel) or uploadFromByteArray(data,
 * byteArrayOffset, side, miplevel) of a texture (a Texture has no side, a
 * RectangleTexture neither side nor level: 0). */
typedef struct agal_texture_upload {
    bool from_bytes;                      /* uploadFromByteArray; else uploadFromBitmapData */
    uint32_t side, level;                 /* a cube's side; the mip level */
    uint32_t bitmap_width, bitmap_height; /* the BitmapData's */
    uint64_t length;                      /* the ByteArray's bytes */
    int64_t byte_offset;                  /* byteArrayOffset */
} agal_texture_upload;

/* An upload into the texture t describes: 3673 (a cube side past 5), 3674 (a level
 * the texture lacks: a rectangle texture has one), then 2015 (ArgumentError: a
 * bitmap larger than the level; a smaller one fills its corner) or 3669 (a
 * byteArrayOffset outside the data, or fewer bytes after it than the whole level:
 * 8 a texel for rgbaHalfFloat, 2 for the packed formats, 4 for the others). */
AGAL_API int agal_check_texture_upload(const agal_texture_desc *t, const agal_texture_upload *up,
                                       agal_flash_error *err);

/* ==== pipeline keys (pipeline.c) ==============================================
 * The canonical key of a draw's pipeline (docs/pipeline.md): what a driver bakes
 * into a VkPipeline, a GPURenderPipeline or a linked GL program, from the upload and
 * a Context3D's state. Fixed-size bytes, every byte set (reserved ones 0), so
 * memcmp and agal_pipeline_key_hash compare them; the same on every backend, and
 * its JSON form (agal_pipeline_key_json) is how a cache record stores it. A backend
 * caches on the baked key (agal_pipeline_key_baked): the full key with what its
 * API sets at draw time cleared. */

/* 2: the word-at-a-time hash (docs/pipeline.md, "Hashes"); 1's program ids and
 * records were FNV-1a's. */
enum { AGAL_PIPELINE_KEY_VERSION = 2 };

/* One vertex stream the program reads (setVertexBufferAt). */
typedef struct agal_pipeline_stream {
    uint8_t format;   /* agal_vertex_format + 1; 0: the program does not read the stream */
    uint8_t offset;   /* bufferOffset, in 32-bit words */
    uint8_t stride;   /* the buffer's data32PerVertex */
    uint8_t reserved; /* 0 */
    uint32_t divisor; /* instancesPerElement of an instance buffer; 0: one element a vertex */
} agal_pipeline_stream;

/* Bit 31 of a sampler entry: the program samples the slot; the low bits are then
 * agal_sampler_state_key of the resolved sampler (agal_slots_resolve). */
#define AGAL_PIPELINE_SAMPLED 0x80000000u

typedef struct agal_pipeline_key {
    uint32_t version; /* AGAL_PIPELINE_KEY_VERSION */
    uint32_t dynamic; /* 0 in a full key; a baked key's AGAL_DYNAMIC_* (those fields are 0) */
    uint64_t program; /* the pair: agal_upload_result.program_id */
    agal_pipeline_stream streams[AGAL_DRAW_STREAMS];
    uint32_t samplers[AGAL_SAMPLER_SLOTS]; /* AGAL_PIPELINE_SAMPLED | state key, or 0 */
    uint8_t blend_src, blend_dst;          /* agal_blend_factor */
    uint8_t color_mask;                    /* bit 0 red, 1 green, 2 blue, 3 alpha */
    uint8_t cull;                          /* agal_triangle_face culled */
    /* Depth and stencil: all 0 when the target has no depth-stencil buffer, which
     * makes them mean nothing. */
    uint8_t depth_compare, depth_mask; /* agal_compare_mode; 1: depth written */
    uint8_t stencil_face, stencil_compare;
    uint8_t stencil_both_pass, stencil_depth_fail, stencil_fail; /* agal_stencil_action */
    uint8_t stencil_ref, stencil_read, stencil_write;
    uint8_t to_texture;                /* 1: setRenderToTexture's targets; 0: the back buffer */
    uint8_t samples;                   /* agal_stage3d_samples of the target's antiAlias */
    uint8_t colors[AGAL_DRAW_TARGETS]; /* each colour target's agal_texture_format + 1 (the back
                                              buffer: AGAL_TEXTURE_BGRA + 1 in slot 0); 0: none */
    uint8_t depth_stencil;             /* 1: the target has a depth-stencil buffer */
    uint8_t yflip;                     /* 1: the vertex program flips the draw (to a texture: agal_gl_yflip -1), and so
                      its facing (agal_gl_front_face); 0 with AGAL_CLIP_CONTROL (agal_gl_clip_origin) */
    uint8_t reserved[2];               /* 0 */
} agal_pipeline_key;

/* The state an API can set at draw time instead of baking it, one bit a group of
 * key fields (docs/pipeline.md names each API's calls). */
typedef enum agal_pipeline_dynamic {
    AGAL_DYNAMIC_SAMPLERS = 1u << 0,          /* samplers: bound objects, not pipeline state */
    AGAL_DYNAMIC_STENCIL_REFERENCE = 1u << 1, /* stencil_ref */
    AGAL_DYNAMIC_STENCIL_MASKS = 1u << 2,     /* stencil_read, stencil_write */
    AGAL_DYNAMIC_YFLIP = 1u << 3,             /* yflip: GLSL's uniform */
    AGAL_DYNAMIC_CULL = 1u << 4,              /* cull */
    AGAL_DYNAMIC_DEPTH = 1u << 5,             /* depth_compare, depth_mask */
    AGAL_DYNAMIC_STENCIL_OPS = 1u << 6,       /* stencil_face, stencil_compare and the actions */
    AGAL_DYNAMIC_STRIDE = 1u << 7,            /* streams' stride */
    AGAL_DYNAMIC_BLEND = 1u << 8,             /* blend_src, blend_dst, color_mask */
    AGAL_DYNAMIC_VERTEX_INPUT = 1u << 9,      /* streams: format, offset, stride, divisor */
    AGAL_DYNAMIC_TARGET = 1u << 10,           /* to_texture, samples, colors, depth_stencil */
    AGAL_DYNAMIC_OFFSETS = 1u << 11           /* streams' offset: the offset the buffer is bound at */
} agal_pipeline_dynamic;

/* Each API's dynamic state. Every API binds a vertex buffer at an offset
 * (vkCmdBindVertexBuffers, setVertexBuffer, glVertexAttribPointer): a stream's
 * offset is dynamic on all. Vulkan 1.0: the stencil reference and masks
 * (VK_DYNAMIC_STATE_STENCIL_*); with VK_EXT_extended_dynamic_state (core in 1.3)
 * also cull, depth, stencil operations and strides. WebGPU: the stencil reference
 * (setStencilReference; Stage3D has no blend constant). GL: everything but the
 * program, which is the one object GL links. */
#define AGAL_DYNAMIC_VULKAN \
    (AGAL_DYNAMIC_SAMPLERS | AGAL_DYNAMIC_OFFSETS | AGAL_DYNAMIC_STENCIL_REFERENCE | AGAL_DYNAMIC_STENCIL_MASKS)
#define AGAL_DYNAMIC_VULKAN_EXTENDED \
    (AGAL_DYNAMIC_VULKAN | AGAL_DYNAMIC_CULL | AGAL_DYNAMIC_DEPTH | AGAL_DYNAMIC_STENCIL_OPS | AGAL_DYNAMIC_STRIDE)
#define AGAL_DYNAMIC_WEBGPU (AGAL_DYNAMIC_SAMPLERS | AGAL_DYNAMIC_OFFSETS | AGAL_DYNAMIC_STENCIL_REFERENCE)
#define AGAL_DYNAMIC_GL 0xfffu

/* The pair's identity: the layer's 64-bit hash (docs/pipeline.md, "Hashes") of
 * both programs' bytes and of the options that change a translation (target,
 * profile, lenient, clip, strip_names, separate_samplers, the names' strings,
 * whether samples is 1). agal_upload sets it in the result. opt may be NULL (the
 * defaults). */
AGAL_API uint64_t agal_pipeline_program_id(const void *vertex, size_t vertex_size, const void *fragment,
                                           size_t fragment_size, const agal_upload_options *opt);

/* The full key of a draw of the upload r with the state s: the streams r's vertex
 * program reads, the samplers r's fragment program samples (resolved with
 * s->slots, or the tokens' states when NULL), s->render, and the render target
 * (s->targets, else the back buffer). */
AGAL_API void agal_pipeline_key_make(const agal_upload_result *r, const agal_context3d_state *s,
                                     agal_pipeline_key *out);

/* The key with the fields in `dynamic` (AGAL_DYNAMIC_*) cleared and out->dynamic
 * set to it: what a backend with that dynamic state creates a pipeline for. */
AGAL_API void agal_pipeline_key_baked(const agal_pipeline_key *full, uint32_t dynamic, agal_pipeline_key *out);

/* The layer's 64-bit hash of the key's bytes; equal keys hash alike. */
AGAL_API uint64_t agal_pipeline_key_hash(const agal_pipeline_key *k);
static inline bool agal_pipeline_key_equal(const agal_pipeline_key *a, const agal_pipeline_key *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/* The key as one JSON object, one member a field (docs/pipeline.md): text in ctx's
 * arena, NUL-terminated; NULL when out of memory. */
AGAL_API char *agal_pipeline_key_json(agal_context *ctx, const agal_pipeline_key *k);
/* Reads agal_pipeline_key_json's form back: every member once, none other, each
 * value in its field's range, the version AGAL_PIPELINE_KEY_VERSION; otherwise
 * AGAL_ERR_INVALID with a diagnostic naming the byte and the member. */
AGAL_API agal_status agal_pipeline_key_from_json(agal_context *ctx, const char *text, size_t len,
                                                 agal_pipeline_key *out);

/* ---- prewarm: what an upload implies before any draw ----------------------------
 * From the programs alone (docs/emulator-guide.md, "Prewarming pipelines"). */
typedef struct agal_pipeline_prewarm {
    uint16_t attributes;                             /* bit n: va<n> is read */
    uint8_t attribute_components[AGAL_DRAW_STREAMS]; /* components read of each (1..4), 0 unread */
    uint16_t samplers;                               /* bit n: fs<n> is sampled */
    uint8_t sampler_dim[AGAL_SAMPLER_SLOTS];         /* AGAL_DIM_* of each */
    uint8_t sampler_format[AGAL_SAMPLER_SLOTS];      /* AGAL_FMT_* the token names */
    bool writes_depth;                               /* fd: the target needs a depth buffer */
    unsigned color_outputs;                          /* oc0.. written: 1 + the highest */
} agal_pipeline_prewarm;

/* What r's programs imply, and (key, may be NULL) the likely key: a new Context3D's
 * render state, each read stream as a float vector of the components it reads at
 * offset 0 in a buffer of that size, each sampler with its token's state, the back
 * buffer with a depth-stencil buffer, no antialiasing. */
AGAL_API void agal_pipeline_prewarm_of(const agal_upload_result *r, agal_pipeline_prewarm *out, agal_pipeline_key *key);

#ifdef __cplusplus
}
#endif

#endif
