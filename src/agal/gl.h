/* <agal/gl.h>: from what Stage3D says to what OpenGL 3.3 / OpenGL ES 3.0 take.
 * Header-only (every function static inline). Include your GL header or loader
 * first (<GL/glcorearb.h> with GL_GLEXT_PROTOTYPES, glad, epoxy...): the mappings
 * need its enums, and agal_gl_sampler_apply and agal_gl_program_setup call GL by
 * its usual names (a loader's macros work).
 *
 * The binding model (docs/binding-models.md, "GLSL 330 binding model"): vc and fc are the std140 blocks
 * AGAL_GLSL_VC_BLOCK / AGAL_GLSL_FC_BLOCK at uniform-buffer bindings 0 and 1 (GLSL
 * ES 1.00: plain arrays vc[], fc[] set with glUniform4fv), fs<i> samples texture
 * unit i, va<i> is attribute location i, oc<i> draw buffer i.
 *
 * Orientation: GL's window origin is the bottom left. To the back buffer, draw with
 * AGAL_GLSL_YFLIP = 1 and front faces clockwise (Stage3D's, on screen); to a texture,
 * with AGAL_GLSL_YFLIP = -1 (so the texture's first row is the top, as Stage3D
 * samples it) and, since the flip mirrors every triangle, front faces counter-
 * clockwise: agal_gl_yflip and agal_gl_front_face (docs/format.md section 7; measured
 * by tests/gpu/test_runtime.c, a culled pass rendered into a texture and sampled).
 * A pair uploaded with AGAL_CLIP_CONTROL has no flip in its vertex program: the
 * context clips as Stage3D does, glClipControl(agal_gl_clip_origin(to_texture),
 * GL_ZERO_TO_ONE) (GL 4.5; GL ES and WebGL: EXT_clip_control), the upper-left origin
 * turning a texture's image over without mirroring a triangle, so front faces stay
 * clockwise; a fragment program's ddy still reads the flip uniform. */
#ifndef AGAL_GL_H
#define AGAL_GL_H

#include "stage3d.h"

#ifndef GL_TEXTURE_2D
#error "include your OpenGL header or loader before <agal/gl.h>"
#endif

/* Core in GL 4.6, EXT_texture_filter_anisotropic before: the same value. */
#ifndef GL_TEXTURE_MAX_ANISOTROPY
#define GL_TEXTURE_MAX_ANISOTROPY 0x84FE
#endif
/* EXT_texture_compression_s3tc, for the ATF formats. */
#ifndef GL_COMPRESSED_RGB_S3TC_DXT1_EXT
#define GL_COMPRESSED_RGB_S3TC_DXT1_EXT 0x83F0
#endif
#ifndef GL_COMPRESSED_RGBA_S3TC_DXT5_EXT
#define GL_COMPRESSED_RGBA_S3TC_DXT5_EXT 0x83F3
#endif
/* glClipControl's origins (GL 2.0 has them for point sprites; EXT_clip_control's
 * _EXT names): the same values. */
#ifndef GL_LOWER_LEFT
#define GL_LOWER_LEFT 0x8CA1
#endif
#ifndef GL_UPPER_LEFT
#define GL_UPPER_LEFT 0x8CA2
#endif

/* The value of the AGAL_GLSL_YFLIP uniform. */
static inline float agal_gl_yflip(bool to_texture) { return to_texture ? -1.0f : 1.0f; }

/* glFrontFace's argument for Stage3D's front faces, drawn through the vertex
 * program's flip or not (agal_pipeline_key.yflip): to a texture but with
 * AGAL_CLIP_CONTROL, whose pairs take false for both targets. */
static inline GLenum agal_gl_front_face(bool flipped) { return flipped ? GL_CCW : GL_CW; }

/* glClipControl's origin for a pair uploaded with AGAL_CLIP_CONTROL (with
 * GL_ZERO_TO_ONE): the upper left for a texture, whose first row is then the top. */
static inline GLenum agal_gl_clip_origin(bool to_texture) { return to_texture ? GL_UPPER_LEFT : GL_LOWER_LEFT; }

/* What a GL emulator keeps per linked program for agal_gl_set_yflip: the y-flip
 * uniform's location, looked up once. Zero it when the program is (re)linked. */
typedef struct agal_gl_target_cache {
    GLuint program; /* the program the location belongs to; 0: not looked up */
    GLint yflip;    /* -1: the program declares no AGAL_GLSL_YFLIP */
} agal_gl_target_cache;

/* Per draw, for the current target (the back buffer, or a texture through
 * setRenderToTexture): the y flip uniform's value, with the program in use
 * (glUseProgram). The uniform's location is looked up once per program into c. */
static inline void agal_gl_set_yflip(agal_gl_target_cache *c, GLuint program, bool to_texture)
{
    if (c->program != program) {
        c->program = program;
        c->yflip = glGetUniformLocation(program, AGAL_GLSL_YFLIP);
    }
    if (c->yflip >= 0) glUniform1f(c->yflip, agal_gl_yflip(to_texture));
}

/* agal_gl_set_yflip and the front face, for a pair whose vertex program flips (any
 * clip but AGAL_CLIP_CONTROL, whose pairs take agal_gl_set_yflip,
 * glFrontFace(agal_gl_front_face(false)) and agal_gl_clip_origin). */
static inline void agal_gl_set_target(agal_gl_target_cache *c, GLuint program, bool to_texture)
{
    agal_gl_set_yflip(c, program, to_texture);
    glFrontFace(agal_gl_front_face(to_texture));
}

/* ---- samplers --------------------------------------------------------------------- */

typedef struct agal_gl_sampler {
    GLint min_filter, mag_filter;
    GLint wrap_s, wrap_t, wrap_r;
    GLfloat max_lod;        /* 0 for mipnone: level 0 only */
    GLfloat max_anisotropy; /* 1: off */
} agal_gl_sampler;

static inline GLint agal_gl_wrap(unsigned wrap, bool t_axis)
{
    bool repeat = wrap == AGAL_WRAP_REPEAT || (wrap == AGAL_WRAP_CLAMP_U_REPEAT_V && t_axis) ||
                  (wrap == AGAL_WRAP_REPEAT_U_CLAMP_V && !t_axis);
    return repeat ? GL_REPEAT : GL_CLAMP_TO_EDGE;
}

/* The sampler parameters of a resolved state (agal_slots_resolve): max_anisotropy
 * is GL_MAX_TEXTURE_MAX_ANISOTROPY where the context has anisotropic filtering, 0
 * where not (anisotropic filters then filter linearly). A cube map clamps and needs
 * glEnable(GL_TEXTURE_CUBE_MAP_SEAMLESS) on desktop GL (Stage3D's cube maps, like
 * Vulkan's, filter across faces). The LOD bias stays in the shader. */
static inline agal_gl_sampler agal_gl_sampler_params(const agal_sampler *s, float max_anisotropy)
{
    bool linear = s->filter != AGAL_FILTER_NEAREST, cube = s->dim == AGAL_DIM_CUBE;
    GLint min = linear ? GL_LINEAR : GL_NEAREST;
    if (s->mipmap == AGAL_MIP_NEAREST) min = linear ? GL_LINEAR_MIPMAP_NEAREST : GL_NEAREST_MIPMAP_NEAREST;
    if (s->mipmap == AGAL_MIP_LINEAR) min = linear ? GL_LINEAR_MIPMAP_LINEAR : GL_NEAREST_MIPMAP_LINEAR;
    /* Field by field: the headers compile as C and as C++11 (no designated
     * initializers, no compound literals). */
    agal_gl_sampler p;
    p.min_filter = min;
    p.mag_filter = linear ? GL_LINEAR : GL_NEAREST;
    p.wrap_s = cube ? GL_CLAMP_TO_EDGE : agal_gl_wrap(s->wrap, false);
    p.wrap_t = cube ? GL_CLAMP_TO_EDGE : agal_gl_wrap(s->wrap, true);
    p.wrap_r = GL_CLAMP_TO_EDGE;
    p.max_lod = s->mipmap == AGAL_MIP_NONE ? 0.0f : 1000.0f; /* GL's default */
    p.max_anisotropy = 1.0f;
    if (s->filter >= AGAL_FILTER_ANISO2X && max_anisotropy >= 2.0f) {
        float want = (float)(2u << (s->filter - AGAL_FILTER_ANISO2X));
        p.max_anisotropy = want < max_anisotropy ? want : max_anisotropy;
    }
    return p;
}

/* Sets a sampler object (glGenSamplers) to p. */
static inline void agal_gl_sampler_apply(GLuint sampler, const agal_gl_sampler *p)
{
    glSamplerParameteri(sampler, GL_TEXTURE_MIN_FILTER, p->min_filter);
    glSamplerParameteri(sampler, GL_TEXTURE_MAG_FILTER, p->mag_filter);
    glSamplerParameteri(sampler, GL_TEXTURE_WRAP_S, p->wrap_s);
    glSamplerParameteri(sampler, GL_TEXTURE_WRAP_T, p->wrap_t);
    glSamplerParameteri(sampler, GL_TEXTURE_WRAP_R, p->wrap_r);
    glSamplerParameterf(sampler, GL_TEXTURE_MIN_LOD, 0.0f);
    glSamplerParameterf(sampler, GL_TEXTURE_MAX_LOD, p->max_lod);
    if (p->max_anisotropy > 1.0f) glSamplerParameterf(sampler, GL_TEXTURE_MAX_ANISOTROPY, p->max_anisotropy);
}

/* A linked program of an upload's GLSL (GLSL 330 or ES 3.00; for ES 1.00 only the
 * sampler units): binds each constant block to its uniform-buffer binding and each
 * fs<i> to texture unit i. Leaves the program current (glUseProgram). A name the
 * driver dropped as unused is skipped. */
static inline void agal_gl_program_setup(GLuint program, const agal_upload_result *r)
{
    glUseProgram(program);
    for (size_t i = 0; i < r->nblocks && r->target != AGAL_TARGET_ESSL1; i++) {
        GLuint index = glGetUniformBlockIndex(program, r->blocks[i].name);
        if (index != GL_INVALID_INDEX) glUniformBlockBinding(program, index, r->blocks[i].binding);
    }
    for (size_t i = 0; i < r->nsamplers; i++) {
        GLint loc = glGetUniformLocation(program, r->samplers[i].name);
        if (loc >= 0) glUniform1i(loc, (GLint)r->samplers[i].num);
    }
}

/* ---- fixed-function state (Context3D) ------------------------------------------ */

static inline GLenum agal_gl_blend_factor(agal_blend_factor f)
{
    switch (f) {
    case AGAL_BLEND_ZERO: return GL_ZERO;
    case AGAL_BLEND_ONE: return GL_ONE;
    case AGAL_BLEND_SOURCE_COLOR: return GL_SRC_COLOR;
    case AGAL_BLEND_ONE_MINUS_SOURCE_COLOR: return GL_ONE_MINUS_SRC_COLOR;
    case AGAL_BLEND_SOURCE_ALPHA: return GL_SRC_ALPHA;
    case AGAL_BLEND_ONE_MINUS_SOURCE_ALPHA: return GL_ONE_MINUS_SRC_ALPHA;
    case AGAL_BLEND_DESTINATION_COLOR: return GL_DST_COLOR;
    case AGAL_BLEND_ONE_MINUS_DESTINATION_COLOR: return GL_ONE_MINUS_DST_COLOR;
    case AGAL_BLEND_DESTINATION_ALPHA: return GL_DST_ALPHA;
    case AGAL_BLEND_ONE_MINUS_DESTINATION_ALPHA: return GL_ONE_MINUS_DST_ALPHA;
    }
    return GL_ONE;
}

/* Depth test (glDepthFunc) and stencil test (glStencilFuncSeparate). */
static inline GLenum agal_gl_compare(agal_compare_mode m)
{
    switch (m) {
    case AGAL_COMPARE_NEVER: return GL_NEVER;
    case AGAL_COMPARE_LESS: return GL_LESS;
    case AGAL_COMPARE_EQUAL: return GL_EQUAL;
    case AGAL_COMPARE_LESS_EQUAL: return GL_LEQUAL;
    case AGAL_COMPARE_GREATER: return GL_GREATER;
    case AGAL_COMPARE_NOT_EQUAL: return GL_NOTEQUAL;
    case AGAL_COMPARE_GREATER_EQUAL: return GL_GEQUAL;
    case AGAL_COMPARE_ALWAYS: return GL_ALWAYS;
    }
    return GL_ALWAYS;
}

/* glStencilOpSeparate's arguments; AGAL_STENCIL_SET writes the reference value. */
static inline GLenum agal_gl_stencil_op(agal_stencil_action a)
{
    switch (a) {
    case AGAL_STENCIL_KEEP: return GL_KEEP;
    case AGAL_STENCIL_ZERO: return GL_ZERO;
    case AGAL_STENCIL_SET: return GL_REPLACE;
    case AGAL_STENCIL_INCREMENT_SATURATE: return GL_INCR;
    case AGAL_STENCIL_DECREMENT_SATURATE: return GL_DECR;
    case AGAL_STENCIL_INVERT: return GL_INVERT;
    case AGAL_STENCIL_INCREMENT_WRAP: return GL_INCR_WRAP;
    case AGAL_STENCIL_DECREMENT_WRAP: return GL_DECR_WRAP;
    }
    return GL_KEEP;
}

/* setStencilActions and setStencilReferenceValue on both faces (glStencilFuncSeparate,
 * glStencilOpSeparate, glStencilMaskSeparate): each face gets the actions where
 * triangleFace names it, else passes and keeps (agal_stage3d_stencil_face). GL_FRONT
 * is Stage3D's front face once glFrontFace(agal_gl_front_face(...)) is set. Enable
 * GL_STENCIL_TEST whenever the target has a stencil buffer. */
static inline void agal_gl_stencil_apply(agal_triangle_face face, agal_compare_mode compare,
                                         agal_stencil_action both_pass, agal_stencil_action depth_fail,
                                         agal_stencil_action stencil_fail, GLuint reference, GLuint read_mask,
                                         GLuint write_mask)
{
    for (int i = 0; i < 2; i++) {
        GLenum side = i == 0 ? GL_FRONT : GL_BACK;
        bool on = agal_stage3d_stencil_face(face, i == 0);
        glStencilFuncSeparate(side, agal_gl_compare(on ? compare : AGAL_COMPARE_ALWAYS), (GLint)reference, read_mask);
        glStencilOpSeparate(side, agal_gl_stencil_op(on ? stencil_fail : AGAL_STENCIL_KEEP),
                            agal_gl_stencil_op(on ? depth_fail : AGAL_STENCIL_KEEP),
                            agal_gl_stencil_op(on ? both_pass : AGAL_STENCIL_KEEP));
        glStencilMaskSeparate(side, write_mask);
    }
}

/* setBlendFactors(src, dst): the same factors for colour and alpha, added; (one,
 * zero) is no blending. */
static inline void agal_gl_blend_apply(agal_blend_factor src, agal_blend_factor dst)
{
    if (src == AGAL_BLEND_ONE && dst == AGAL_BLEND_ZERO) {
        glDisable(GL_BLEND);
        return;
    }
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFunc(agal_gl_blend_factor(src), agal_gl_blend_factor(dst));
}

/* setCulling(face) as glCullFace's argument; 0 for none (glDisable(GL_CULL_FACE)).
 * Pair it with agal_gl_front_face. */
static inline GLenum agal_gl_cull_face(agal_triangle_face f)
{
    switch (f) {
    case AGAL_FACE_NONE: return 0;
    case AGAL_FACE_FRONT: return GL_FRONT;
    case AGAL_FACE_BACK: return GL_BACK;
    case AGAL_FACE_FRONT_AND_BACK: return GL_FRONT_AND_BACK;
    }
    return 0;
}

/* glVertexAttribPointer's size, type and normalized for a setVertexBufferAt format
 * (GL fills missing components with (0, 0, 1) as Stage3D does). */
typedef struct agal_gl_vertex_format {
    GLint size;
    GLenum type;
    GLboolean normalized;
} agal_gl_vertex_format;

static inline agal_gl_vertex_format agal_gl_vertex_format_of(agal_vertex_format f)
{
    agal_gl_vertex_format v = {4, GL_UNSIGNED_BYTE, GL_TRUE}; /* bytes4 */
    if (f != AGAL_VERTEX_BYTES_4) {
        v.size = (GLint)f + 1;
        v.type = GL_FLOAT;
        v.normalized = GL_FALSE;
    }
    return v;
}

/* The depth-stencil buffer of configureBackBuffer(..., true) and of
 * setRenderToTexture(..., true): 24-bit depth, 8-bit stencil, as Flash's targets. */
#define AGAL_GL_DEPTH_STENCIL_FORMAT GL_DEPTH24_STENCIL8

/* glRenderbufferStorageMultisample's samples for an antiAlias value
 * (agal_stage3d_samples), 0 for none; GL gives the smallest count it has not below
 * the request, and max_samples (GL_MAX_SAMPLES) caps it. */
static inline GLsizei agal_gl_samples(int anti_alias, GLint max_samples)
{
    GLint n = (GLint)agal_stage3d_samples(anti_alias);
    n = n < max_samples ? n : max_samples;
    return n > 1 ? n : 0;
}

/* setScissorRectangle's clipped rectangle (agal_stage3d_scissor) as glScissor's x,
 * y, width, height on a target of target_height rows: the back buffer is drawn with
 * GL's origin at the bottom left, so its y counts up from the bottom; a texture is
 * drawn flipped (agal_gl_yflip), its first row at the top, so y stays. */
static inline void agal_gl_scissor_box(const agal_rect *r, uint32_t target_height, bool to_texture, GLint box[4])
{
    box[0] = r->x;
    box[1] = to_texture ? r->y : (GLint)target_height - r->y - (GLint)r->height;
    box[2] = (GLint)r->width;
    box[3] = (GLint)r->height;
}

/* A CubeTexture's side (0..5: +x, -x, +y, -y, +z, -z) as the face's texture target. */
static inline GLenum agal_gl_cube_face(unsigned side) { return GL_TEXTURE_CUBE_MAP_POSITIVE_X + side; }

/* glTexImage2D's internal format, format and type (glCompressedTexImage2D's
 * internal format for the ATF formats, type 0) of a createTexture format: bgra
 * uploads BitmapData's ARGB words as GL_BGRA bytes (desktop GL; GLES needs
 * EXT_texture_format_BGRA8888 or a swizzle). The packed 16-bit formats have no
 * recorded byte layout: all 0, convert them to bgra. */
typedef struct agal_gl_texture_format {
    GLint internal_format;
    GLenum format, type;
} agal_gl_texture_format;

static inline agal_gl_texture_format agal_gl_texture_format_of(agal_texture_format f)
{
    agal_gl_texture_format t = {0, 0, 0};
    switch (f) {
    case AGAL_TEXTURE_BGRA: t.internal_format = GL_RGBA8, t.format = GL_BGRA, t.type = GL_UNSIGNED_BYTE; break;
    case AGAL_TEXTURE_COMPRESSED: t.internal_format = GL_COMPRESSED_RGB_S3TC_DXT1_EXT; break;
    case AGAL_TEXTURE_COMPRESSED_ALPHA: t.internal_format = GL_COMPRESSED_RGBA_S3TC_DXT5_EXT; break;
    case AGAL_TEXTURE_RGBA_HALF_FLOAT:
        t.internal_format = GL_RGBA16F, t.format = GL_RGBA, t.type = GL_HALF_FLOAT;
        break;
    case AGAL_TEXTURE_BGRA_PACKED:
    case AGAL_TEXTURE_BGR_PACKED: break;
    }
    return t;
}

/* ---- a key's state (agal_pipeline_key, docs/pipeline.md) --------------------------- */

/* The fixed-function state of a full key, per draw: blending, colour mask, culling
 * with the front face of the key's flip, and depth and stencil, tested whenever
 * the target has a depth-stencil buffer (none: no depth or stencil test at all).
 * GL links only the program: every other field is state set here (AGAL_DYNAMIC_GL).
 * The y flip is the program's uniform (agal_gl_set_yflip); with AGAL_CLIP_CONTROL
 * the clip origin is the context's (agal_gl_clip_origin). */
static inline void agal_gl_key_apply(const agal_pipeline_key *k)
{
    agal_gl_blend_apply((agal_blend_factor)k->blend_src, (agal_blend_factor)k->blend_dst);
    glColorMask(k->color_mask & 1, k->color_mask >> 1 & 1, k->color_mask >> 2 & 1, k->color_mask >> 3 & 1);
    GLenum cull = agal_gl_cull_face((agal_triangle_face)k->cull);
    if (cull) {
        glEnable(GL_CULL_FACE);
        glCullFace(cull);
    } else {
        glDisable(GL_CULL_FACE);
    }
    glFrontFace(agal_gl_front_face(k->yflip != 0));
    if (!k->depth_stencil) {
        glDisable(GL_DEPTH_TEST);
        glDisable(GL_STENCIL_TEST);
        return;
    }
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(agal_gl_compare((agal_compare_mode)k->depth_compare));
    glDepthMask(k->depth_mask ? GL_TRUE : GL_FALSE);
    glEnable(GL_STENCIL_TEST);
    agal_gl_stencil_apply((agal_triangle_face)k->stencil_face, (agal_compare_mode)k->stencil_compare,
                          (agal_stencil_action)k->stencil_both_pass, (agal_stencil_action)k->stencil_depth_fail,
                          (agal_stencil_action)k->stencil_fail, k->stencil_ref, k->stencil_read, k->stencil_write);
}

#endif
