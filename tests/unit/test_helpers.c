/* test_helpers.c: the installed helper headers <agal/vulkan.h> and <agal/gl.h> and
 * the Context3D value names (stage3d.c), against tables written here by hand from
 * Adobe's ActionScript 3 reference (the strings), the Vulkan and GL specifications
 * (the enums) and docs/format.md section 7 (orientation, vertex formats). Each helper
 * is compared with the table, not with a second copy of its own switch. The
 * GL-calling parts (agal_gl_sampler_apply, agal_gl_program_setup) run in the
 * harness and in the examples (examples/vulkan_upload.c, gl_upload.c). */
#define GL_GLEXT_PROTOTYPES 1
#include "agal/stage3d.h"
#include "private.h"
#include "agal/text.h"
#include <GL/glcorearb.h>

#include "agal/gl.h"
#include "agal/vulkan.h"
#include "check.h"

#include <math.h>
#include <string.h>

/* ---- the AS3 strings ---------------------------------------------------------------- */

typedef struct named {
    agal_stage3d_enum which;
    unsigned value;
    const char *as3;
} named;

static const named as3_names[] = {
    {AGAL_S3D_BLEND_FACTOR, AGAL_BLEND_ZERO, "zero"},
    {AGAL_S3D_BLEND_FACTOR, AGAL_BLEND_ONE, "one"},
    {AGAL_S3D_BLEND_FACTOR, AGAL_BLEND_SOURCE_COLOR, "sourceColor"},
    {AGAL_S3D_BLEND_FACTOR, AGAL_BLEND_ONE_MINUS_SOURCE_COLOR, "oneMinusSourceColor"},
    {AGAL_S3D_BLEND_FACTOR, AGAL_BLEND_SOURCE_ALPHA, "sourceAlpha"},
    {AGAL_S3D_BLEND_FACTOR, AGAL_BLEND_ONE_MINUS_SOURCE_ALPHA, "oneMinusSourceAlpha"},
    {AGAL_S3D_BLEND_FACTOR, AGAL_BLEND_DESTINATION_COLOR, "destinationColor"},
    {AGAL_S3D_BLEND_FACTOR, AGAL_BLEND_ONE_MINUS_DESTINATION_COLOR, "oneMinusDestinationColor"},
    {AGAL_S3D_BLEND_FACTOR, AGAL_BLEND_DESTINATION_ALPHA, "destinationAlpha"},
    {AGAL_S3D_BLEND_FACTOR, AGAL_BLEND_ONE_MINUS_DESTINATION_ALPHA, "oneMinusDestinationAlpha"},
    {AGAL_S3D_COMPARE_MODE, AGAL_COMPARE_NEVER, "never"},
    {AGAL_S3D_COMPARE_MODE, AGAL_COMPARE_LESS, "less"},
    {AGAL_S3D_COMPARE_MODE, AGAL_COMPARE_EQUAL, "equal"},
    {AGAL_S3D_COMPARE_MODE, AGAL_COMPARE_LESS_EQUAL, "lessEqual"},
    {AGAL_S3D_COMPARE_MODE, AGAL_COMPARE_GREATER, "greater"},
    {AGAL_S3D_COMPARE_MODE, AGAL_COMPARE_NOT_EQUAL, "notEqual"},
    {AGAL_S3D_COMPARE_MODE, AGAL_COMPARE_GREATER_EQUAL, "greaterEqual"},
    {AGAL_S3D_COMPARE_MODE, AGAL_COMPARE_ALWAYS, "always"},
    {AGAL_S3D_STENCIL_ACTION, AGAL_STENCIL_KEEP, "keep"},
    {AGAL_S3D_STENCIL_ACTION, AGAL_STENCIL_ZERO, "zero"},
    {AGAL_S3D_STENCIL_ACTION, AGAL_STENCIL_SET, "set"},
    {AGAL_S3D_STENCIL_ACTION, AGAL_STENCIL_INCREMENT_SATURATE, "incrementSaturate"},
    {AGAL_S3D_STENCIL_ACTION, AGAL_STENCIL_DECREMENT_SATURATE, "decrementSaturate"},
    {AGAL_S3D_STENCIL_ACTION, AGAL_STENCIL_INVERT, "invert"},
    {AGAL_S3D_STENCIL_ACTION, AGAL_STENCIL_INCREMENT_WRAP, "incrementWrap"},
    {AGAL_S3D_STENCIL_ACTION, AGAL_STENCIL_DECREMENT_WRAP, "decrementWrap"},
    {AGAL_S3D_TRIANGLE_FACE, AGAL_FACE_NONE, "none"},
    {AGAL_S3D_TRIANGLE_FACE, AGAL_FACE_FRONT, "front"},
    {AGAL_S3D_TRIANGLE_FACE, AGAL_FACE_BACK, "back"},
    {AGAL_S3D_TRIANGLE_FACE, AGAL_FACE_FRONT_AND_BACK, "frontAndBack"},
    {AGAL_S3D_VERTEX_FORMAT, AGAL_VERTEX_FLOAT_1, "float1"},
    {AGAL_S3D_VERTEX_FORMAT, AGAL_VERTEX_FLOAT_2, "float2"},
    {AGAL_S3D_VERTEX_FORMAT, AGAL_VERTEX_FLOAT_3, "float3"},
    {AGAL_S3D_VERTEX_FORMAT, AGAL_VERTEX_FLOAT_4, "float4"},
    {AGAL_S3D_VERTEX_FORMAT, AGAL_VERTEX_BYTES_4, "bytes4"},
    {AGAL_S3D_TEXTURE_FORMAT, AGAL_TEXTURE_BGRA, "bgra"},
    {AGAL_S3D_TEXTURE_FORMAT, AGAL_TEXTURE_BGRA_PACKED, "bgraPacked4444"},
    {AGAL_S3D_TEXTURE_FORMAT, AGAL_TEXTURE_BGR_PACKED, "bgrPacked565"},
    {AGAL_S3D_TEXTURE_FORMAT, AGAL_TEXTURE_COMPRESSED, "compressed"},
    {AGAL_S3D_TEXTURE_FORMAT, AGAL_TEXTURE_COMPRESSED_ALPHA, "compressedAlpha"},
    {AGAL_S3D_TEXTURE_FORMAT, AGAL_TEXTURE_RGBA_HALF_FLOAT, "rgbaHalfFloat"},
    {AGAL_S3D_PROGRAM_TYPE, AGAL_VERTEX, "vertex"},
    {AGAL_S3D_PROGRAM_TYPE, AGAL_FRAGMENT, "fragment"},
    {AGAL_S3D_WRAP_MODE, AGAL_WRAP_CLAMP, "clamp"},
    {AGAL_S3D_WRAP_MODE, AGAL_WRAP_REPEAT, "repeat"},
    {AGAL_S3D_WRAP_MODE, AGAL_WRAP_CLAMP_U_REPEAT_V, "clamp_u_repeat_v"},
    {AGAL_S3D_WRAP_MODE, AGAL_WRAP_REPEAT_U_CLAMP_V, "repeat_u_clamp_v"},
    {AGAL_S3D_TEXTURE_FILTER, AGAL_FILTER_NEAREST, "nearest"},
    {AGAL_S3D_TEXTURE_FILTER, AGAL_FILTER_LINEAR, "linear"},
    {AGAL_S3D_TEXTURE_FILTER, AGAL_FILTER_ANISO2X, "anisotropic2x"},
    {AGAL_S3D_TEXTURE_FILTER, AGAL_FILTER_ANISO4X, "anisotropic4x"},
    {AGAL_S3D_TEXTURE_FILTER, AGAL_FILTER_ANISO8X, "anisotropic8x"},
    {AGAL_S3D_TEXTURE_FILTER, AGAL_FILTER_ANISO16X, "anisotropic16x"},
    {AGAL_S3D_MIP_FILTER, AGAL_MIP_NONE, "mipnone"},
    {AGAL_S3D_MIP_FILTER, AGAL_MIP_NEAREST, "mipnearest"},
    {AGAL_S3D_MIP_FILTER, AGAL_MIP_LINEAR, "miplinear"},
    {AGAL_S3D_PROFILE, AGAL_C3D_BASELINE_CONSTRAINED, "baselineConstrained"},
    {AGAL_S3D_PROFILE, AGAL_C3D_BASELINE, "baseline"},
    {AGAL_S3D_PROFILE, AGAL_C3D_BASELINE_EXTENDED, "baselineExtended"},
    {AGAL_S3D_PROFILE, AGAL_C3D_STANDARD_CONSTRAINED, "standardConstrained"},
    {AGAL_S3D_PROFILE, AGAL_C3D_STANDARD, "standard"},
    {AGAL_S3D_PROFILE, AGAL_C3D_STANDARD_EXTENDED, "standardExtended"},
    {AGAL_S3D_PROFILE, AGAL_C3D_ENHANCED, "enhanced"},
    {AGAL_S3D_BUFFER_USAGE, AGAL_BUFFER_STATIC_DRAW, "staticDraw"},
    {AGAL_S3D_BUFFER_USAGE, AGAL_BUFFER_DYNAMIC_DRAW, "dynamicDraw"},
};

static void test_names(void)
{
    unsigned per_class[AGAL_S3D_ENUMS] = {0};
    for (size_t i = 0; i < sizeof as3_names / sizeof *as3_names; i++) {
        const named *n = &as3_names[i];
        unsigned v = 99;
        const char *got = agal_stage3d_name(n->which, n->value);
        CHECK(got && !strcmp(got, n->as3), "class %d value %u: %s, want %s", n->which, n->value, got ? got : "NULL",
              n->as3);
        CHECK(agal_stage3d_find(n->which, n->as3, &v) && v == n->value, "find %s: %u", n->as3, v);
        per_class[n->which]++;
    }
    /* Each class has exactly the values listed: the next one has no name. */
    for (unsigned c = 0; c < AGAL_S3D_ENUMS; c++) {
        CHECK(per_class[c] > 0, "class %u untested", c);
        CHECK(!agal_stage3d_name((agal_stage3d_enum)c, per_class[c]), "class %u has a value %u", c, per_class[c]);
    }
    unsigned v = 7;
    /* Flash compares the strings exactly: another case or a neighbour's is no value. */
    CHECK(!agal_stage3d_find(AGAL_S3D_BLEND_FACTOR, "SourceAlpha", &v) && v == 7);
    CHECK(!agal_stage3d_find(AGAL_S3D_BLEND_FACTOR, "sourceAlpha ", &v));
    CHECK(!agal_stage3d_find(AGAL_S3D_COMPARE_MODE, "keep", &v));
    CHECK(!agal_stage3d_find(AGAL_S3D_MIP_FILTER, "nomip", &v)); /* an AGAL text alias, not AS3 */
    CHECK(!agal_stage3d_find(AGAL_S3D_TRIANGLE_FACE, "", &v));
    CHECK(!agal_stage3d_find(AGAL_S3D_TRIANGLE_FACE, NULL, &v));
    CHECK(!agal_stage3d_find(AGAL_S3D_ENUMS, "zero", &v));
    CHECK(!agal_stage3d_name(AGAL_S3D_ENUMS, 0) && !agal_stage3d_name(AGAL_S3D_BLEND_FACTOR, 1000));
}

/* ---- fixed-function mappings ----------------------------------------------------------- */

static void test_blend_compare_stencil(void)
{
    static const struct {
        agal_blend_factor f;
        VkBlendFactor vk;
        GLenum gl;
    } blend[] = {
        {AGAL_BLEND_ZERO, VK_BLEND_FACTOR_ZERO, GL_ZERO},
        {AGAL_BLEND_ONE, VK_BLEND_FACTOR_ONE, GL_ONE},
        {AGAL_BLEND_SOURCE_COLOR, VK_BLEND_FACTOR_SRC_COLOR, GL_SRC_COLOR},
        {AGAL_BLEND_ONE_MINUS_SOURCE_COLOR, VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR, GL_ONE_MINUS_SRC_COLOR},
        {AGAL_BLEND_SOURCE_ALPHA, VK_BLEND_FACTOR_SRC_ALPHA, GL_SRC_ALPHA},
        {AGAL_BLEND_ONE_MINUS_SOURCE_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA},
        {AGAL_BLEND_DESTINATION_COLOR, VK_BLEND_FACTOR_DST_COLOR, GL_DST_COLOR},
        {AGAL_BLEND_ONE_MINUS_DESTINATION_COLOR, VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR, GL_ONE_MINUS_DST_COLOR},
        {AGAL_BLEND_DESTINATION_ALPHA, VK_BLEND_FACTOR_DST_ALPHA, GL_DST_ALPHA},
        {AGAL_BLEND_ONE_MINUS_DESTINATION_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA, GL_ONE_MINUS_DST_ALPHA},
    };
    for (size_t i = 0; i < sizeof blend / sizeof *blend; i++) {
        CHECK(agal_vk_blend_factor(blend[i].f) == blend[i].vk, "blend %d", blend[i].f);
        CHECK(agal_gl_blend_factor(blend[i].f) == blend[i].gl, "blend %d", blend[i].f);
    }
    VkPipelineColorBlendAttachmentState b = agal_vk_blend(AGAL_BLEND_ONE, AGAL_BLEND_ZERO, true, true, true, true);
    CHECK(!b.blendEnable && b.colorWriteMask == 0xF);
    b = agal_vk_blend(AGAL_BLEND_SOURCE_ALPHA, AGAL_BLEND_ONE_MINUS_SOURCE_ALPHA, true, false, true, false);
    CHECK(b.blendEnable && b.srcColorBlendFactor == VK_BLEND_FACTOR_SRC_ALPHA &&
          b.dstAlphaBlendFactor == VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA && b.colorBlendOp == VK_BLEND_OP_ADD &&
          b.alphaBlendOp == VK_BLEND_OP_ADD);
    CHECK(b.colorWriteMask == (VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_B_BIT), "mask %u", b.colorWriteMask);

    static const struct {
        agal_compare_mode m;
        VkCompareOp vk;
        GLenum gl;
    } cmp[] = {
        {AGAL_COMPARE_NEVER, VK_COMPARE_OP_NEVER, GL_NEVER},
        {AGAL_COMPARE_LESS, VK_COMPARE_OP_LESS, GL_LESS},
        {AGAL_COMPARE_EQUAL, VK_COMPARE_OP_EQUAL, GL_EQUAL},
        {AGAL_COMPARE_LESS_EQUAL, VK_COMPARE_OP_LESS_OR_EQUAL, GL_LEQUAL},
        {AGAL_COMPARE_GREATER, VK_COMPARE_OP_GREATER, GL_GREATER},
        {AGAL_COMPARE_NOT_EQUAL, VK_COMPARE_OP_NOT_EQUAL, GL_NOTEQUAL},
        {AGAL_COMPARE_GREATER_EQUAL, VK_COMPARE_OP_GREATER_OR_EQUAL, GL_GEQUAL},
        {AGAL_COMPARE_ALWAYS, VK_COMPARE_OP_ALWAYS, GL_ALWAYS},
    };
    for (size_t i = 0; i < sizeof cmp / sizeof *cmp; i++) {
        CHECK(agal_vk_compare_op(cmp[i].m) == cmp[i].vk, "compare %d", cmp[i].m);
        CHECK(agal_gl_compare(cmp[i].m) == cmp[i].gl, "compare %d", cmp[i].m);
    }

    static const struct {
        agal_stencil_action a;
        VkStencilOp vk;
        GLenum gl;
    } st[] = {
        {AGAL_STENCIL_KEEP, VK_STENCIL_OP_KEEP, GL_KEEP},
        {AGAL_STENCIL_ZERO, VK_STENCIL_OP_ZERO, GL_ZERO},
        {AGAL_STENCIL_SET, VK_STENCIL_OP_REPLACE, GL_REPLACE},
        {AGAL_STENCIL_INCREMENT_SATURATE, VK_STENCIL_OP_INCREMENT_AND_CLAMP, GL_INCR},
        {AGAL_STENCIL_DECREMENT_SATURATE, VK_STENCIL_OP_DECREMENT_AND_CLAMP, GL_DECR},
        {AGAL_STENCIL_INVERT, VK_STENCIL_OP_INVERT, GL_INVERT},
        {AGAL_STENCIL_INCREMENT_WRAP, VK_STENCIL_OP_INCREMENT_AND_WRAP, GL_INCR_WRAP},
        {AGAL_STENCIL_DECREMENT_WRAP, VK_STENCIL_OP_DECREMENT_AND_WRAP, GL_DECR_WRAP},
    };
    for (size_t i = 0; i < sizeof st / sizeof *st; i++) {
        CHECK(agal_vk_stencil_op(st[i].a) == st[i].vk, "stencil %d", st[i].a);
        CHECK(agal_gl_stencil_op(st[i].a) == st[i].gl, "stencil %d", st[i].a);
    }
    /* setStencilActions' argument order: bothPass, depthFail, depthPassStencilFail. */
    VkStencilOpState s =
        agal_vk_stencil(AGAL_COMPARE_EQUAL, AGAL_STENCIL_SET, AGAL_STENCIL_INVERT, AGAL_STENCIL_ZERO, 5, 0xF0, 0x0F);
    CHECK(s.passOp == VK_STENCIL_OP_REPLACE && s.depthFailOp == VK_STENCIL_OP_INVERT &&
          s.failOp == VK_STENCIL_OP_ZERO && s.compareOp == VK_COMPARE_OP_EQUAL && s.reference == 5 &&
          s.compareMask == 0xF0 && s.writeMask == 0x0F);
}

static void test_faces_and_formats(void)
{
    static const struct {
        agal_triangle_face f;
        VkCullModeFlags vk;
        GLenum gl;
    } cull[] = {
        {AGAL_FACE_NONE, VK_CULL_MODE_NONE, 0},
        {AGAL_FACE_FRONT, VK_CULL_MODE_FRONT_BIT, GL_FRONT},
        {AGAL_FACE_BACK, VK_CULL_MODE_BACK_BIT, GL_BACK},
        {AGAL_FACE_FRONT_AND_BACK, VK_CULL_MODE_FRONT_AND_BACK, GL_FRONT_AND_BACK},
    };
    for (size_t i = 0; i < sizeof cull / sizeof *cull; i++) {
        CHECK(agal_vk_cull_mode(cull[i].f) == cull[i].vk, "cull %d", cull[i].f);
        CHECK(agal_gl_cull_face(cull[i].f) == cull[i].gl, "cull %d", cull[i].f);
    }
    /* Clockwise on screen is Stage3D's front (section 7): Vulkan's framebuffer is y
     * down on both targets; GL's back buffer is y up, a texture drawn flipped. */
    CHECK(AGAL_VK_FRONT_FACE == VK_FRONT_FACE_CLOCKWISE);
    CHECK(agal_gl_front_face(false) == GL_CW && agal_gl_front_face(true) == GL_CCW);
    CHECK(agal_gl_yflip(false) == 1.0f && agal_gl_yflip(true) == -1.0f);
    CHECK(agal_gl_clip_origin(false) == GL_LOWER_LEFT && agal_gl_clip_origin(true) == GL_UPPER_LEFT);

    static const struct {
        agal_vertex_format f;
        VkFormat vk;
        uint32_t bytes;
        GLint size;
        GLenum type;
        GLboolean norm;
    } vf[] = {
        {AGAL_VERTEX_FLOAT_1, VK_FORMAT_R32_SFLOAT, 4, 1, GL_FLOAT, GL_FALSE},
        {AGAL_VERTEX_FLOAT_2, VK_FORMAT_R32G32_SFLOAT, 8, 2, GL_FLOAT, GL_FALSE},
        {AGAL_VERTEX_FLOAT_3, VK_FORMAT_R32G32B32_SFLOAT, 12, 3, GL_FLOAT, GL_FALSE},
        {AGAL_VERTEX_FLOAT_4, VK_FORMAT_R32G32B32A32_SFLOAT, 16, 4, GL_FLOAT, GL_FALSE},
        {AGAL_VERTEX_BYTES_4, VK_FORMAT_R8G8B8A8_UNORM, 4, 4, GL_UNSIGNED_BYTE, GL_TRUE},
    };
    for (size_t i = 0; i < sizeof vf / sizeof *vf; i++) {
        agal_gl_vertex_format g = agal_gl_vertex_format_of(vf[i].f);
        CHECK(agal_vk_vertex_format(vf[i].f) == vf[i].vk, "vertex format %d", vf[i].f);
        CHECK(agal_vk_vertex_format_size(vf[i].f) == vf[i].bytes, "vertex format %d", vf[i].f);
        CHECK(g.size == vf[i].size && g.type == vf[i].type && g.normalized == vf[i].norm, "vertex format %d", vf[i].f);
    }

    static const struct {
        agal_texture_format f;
        VkFormat vk;
        GLint internal;
        GLenum format, type;
    } tf[] = {
        {AGAL_TEXTURE_BGRA, VK_FORMAT_B8G8R8A8_UNORM, GL_RGBA8, GL_BGRA, GL_UNSIGNED_BYTE},
        {AGAL_TEXTURE_BGRA_PACKED, VK_FORMAT_UNDEFINED, 0, 0, 0},
        {AGAL_TEXTURE_BGR_PACKED, VK_FORMAT_UNDEFINED, 0, 0, 0},
        {AGAL_TEXTURE_COMPRESSED, VK_FORMAT_BC1_RGB_UNORM_BLOCK, 0x83F0, 0, 0},
        {AGAL_TEXTURE_COMPRESSED_ALPHA, VK_FORMAT_BC3_UNORM_BLOCK, 0x83F3, 0, 0},
        {AGAL_TEXTURE_RGBA_HALF_FLOAT, VK_FORMAT_R16G16B16A16_SFLOAT, GL_RGBA16F, GL_RGBA, GL_HALF_FLOAT},
    };
    for (size_t i = 0; i < sizeof tf / sizeof *tf; i++) {
        agal_gl_texture_format g = agal_gl_texture_format_of(tf[i].f);
        CHECK(agal_vk_texture_format(tf[i].f) == tf[i].vk, "texture format %d", tf[i].f);
        CHECK(g.internal_format == tf[i].internal && g.format == tf[i].format && g.type == tf[i].type,
              "texture format %d", tf[i].f);
    }
}

/* ---- samplers --------------------------------------------------------------------------- */

/* Whether each axis repeats, per wrap value: u then v. */
static const bool repeats[4][2] = {{false, false}, {true, true}, {false, true}, {true, false}};

static void test_sampler(unsigned dim, unsigned wrap, unsigned filter, unsigned mip, float max_aniso)
{
    agal_sampler s = {.dim = (uint8_t)dim, .wrap = (uint8_t)wrap, .filter = (uint8_t)filter, .mipmap = (uint8_t)mip};
    VkSamplerCreateInfo v = agal_vk_sampler_info(&s, max_aniso);
    agal_gl_sampler g = agal_gl_sampler_params(&s, max_aniso);
    bool cube = dim == AGAL_DIM_CUBE, linear = filter != AGAL_FILTER_NEAREST;
    VkSamplerAddressMode vu = !cube && repeats[wrap][0] ? VK_SAMPLER_ADDRESS_MODE_REPEAT
                                                        : VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    VkSamplerAddressMode vv = !cube && repeats[wrap][1] ? VK_SAMPLER_ADDRESS_MODE_REPEAT
                                                        : VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    CHECK(v.sType == VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO && v.addressModeU == vu && v.addressModeV == vv &&
              v.addressModeW == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
          "vk wrap dim %u wrap %u", dim, wrap);
    CHECK(g.wrap_s == (!cube && repeats[wrap][0] ? GL_REPEAT : GL_CLAMP_TO_EDGE) &&
              g.wrap_t == (!cube && repeats[wrap][1] ? GL_REPEAT : GL_CLAMP_TO_EDGE) && g.wrap_r == GL_CLAMP_TO_EDGE,
          "gl wrap dim %u wrap %u", dim, wrap);
    VkFilter vf = linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
    CHECK(v.magFilter == vf && v.minFilter == vf, "vk filter %u", filter);
    CHECK(v.mipmapMode == (mip == AGAL_MIP_LINEAR ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST));
    CHECK(v.minLod == 0.0f && v.maxLod == (mip == AGAL_MIP_NONE ? 0.0f : VK_LOD_CLAMP_NONE) && v.mipLodBias == 0.0f,
          "vk lod mip %u", mip);
    static const GLint gl_min[2][3] = {{GL_NEAREST, GL_NEAREST_MIPMAP_NEAREST, GL_NEAREST_MIPMAP_LINEAR},
                                       {GL_LINEAR, GL_LINEAR_MIPMAP_NEAREST, GL_LINEAR_MIPMAP_LINEAR}};
    CHECK(g.mag_filter == (linear ? GL_LINEAR : GL_NEAREST) && g.min_filter == gl_min[linear][mip],
          "gl filter %u mip %u", filter, mip);
    CHECK(mip == AGAL_MIP_NONE ? g.max_lod == 0.0f : g.max_lod >= 16.0f, "gl lod mip %u", mip);
    /* Anisotropic Nx asks for N, within the device's limit; without the feature, linear. */
    float want = filter >= AGAL_FILTER_ANISO2X ? (float)(2u << (filter - AGAL_FILTER_ANISO2X)) : 0.0f;
    float expect = want > 0 && max_aniso >= 2.0f ? fminf(want, max_aniso) : 0.0f;
    CHECK(expect > 0 ? v.anisotropyEnable == VK_TRUE && v.maxAnisotropy == expect : v.anisotropyEnable == VK_FALSE,
          "vk aniso filter %u max %g", filter, (double)max_aniso);
    CHECK(g.max_anisotropy == (expect > 0 ? expect : 1.0f), "gl aniso filter %u max %g", filter, (double)max_aniso);
}

static void test_samplers(void)
{
    static const float limits[] = {0.0f, 1.0f, 4.0f, 16.0f};
    for (unsigned dim = 0; dim < 2; dim++)
        for (unsigned wrap = 0; wrap < 4; wrap++)
            for (unsigned filter = 0; filter < 6; filter++)
                for (unsigned mip = 0; mip < 3; mip++)
                    for (unsigned l = 0; l < 4; l++) test_sampler(dim, wrap, filter, mip, limits[l]);
    /* Spot values, so that a table above mirrored wrongly in both places shows. */
    agal_sampler s = {.dim = AGAL_DIM_2D,
                      .wrap = AGAL_WRAP_CLAMP_U_REPEAT_V,
                      .filter = AGAL_FILTER_ANISO8X,
                      .mipmap = AGAL_MIP_LINEAR};
    VkSamplerCreateInfo v = agal_vk_sampler_info(&s, 16.0f);
    CHECK(v.addressModeU == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE && v.addressModeV == VK_SAMPLER_ADDRESS_MODE_REPEAT &&
          v.maxAnisotropy == 8.0f && v.mipmapMode == VK_SAMPLER_MIPMAP_MODE_LINEAR);
}

/* ---- an upload's descriptor layout ----------------------------------------------------- */

static const char vertex_text[] = "m44 op, va0, vc0\nmov v0, va1\n";
static const char fragment_text[] = "tex ft0, v0, fs3 <2d,linear,repeat>\ntex ft1, v0, fs1 <cube,nearest>\n"
                                    "add oc, ft0, ft1\n";

static void assemble(agal_context *ctx, agal_stage stage, const char *text, const uint8_t **bytes, size_t *n)
{
    CHECK(agal_assemble(ctx, text, strlen(text), stage, 1, 0, bytes, n) == AGAL_OK, "assemble");
}

static void test_layout(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    const uint8_t *vb = NULL, *fb = NULL;
    size_t vn = 0, fn = 0;
    assemble(ctx, AGAL_VERTEX, vertex_text, &vb, &vn);
    assemble(ctx, AGAL_FRAGMENT, fragment_text, &fb, &fn);
    for (int separate = 0; separate < 2; separate++) {
        agal_upload_options o = {
            .size = sizeof(agal_upload_options), .target = AGAL_TARGET_SPIRV, .separate_samplers = separate};
        agal_upload_result r = agal_upload_result_init();
        CHECK(agal_upload(ctx, vb, vn, fb, fn, &o, &r) == AGAL_OK, "upload");
        VkDescriptorSetLayoutBinding b[AGAL_VK_MAX_BINDINGS];
        uint32_t n = agal_vk_layout_bindings(&r, b, AGAL_VK_MAX_BINDINGS);
        /* vc (vertex), then fs1 and fs3 in number order; fc is not read. */
        CHECK(n == (separate ? 5u : 3u), "bindings %u", n);
        if (n < 3) continue;
        CHECK(b[0].binding == 0 && b[0].descriptorType == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER &&
              b[0].stageFlags == VK_SHADER_STAGE_VERTEX_BIT && b[0].descriptorCount == 1);
        if (!separate) {
            CHECK(b[1].binding == 3 && b[1].descriptorType == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER &&
                  b[1].stageFlags == VK_SHADER_STAGE_FRAGMENT_BIT);
            CHECK(b[2].binding == 5 && b[2].descriptorType == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER);
        } else if (n == 5) {
            CHECK(b[1].binding == 3 && b[1].descriptorType == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE);
            CHECK(b[2].binding == 19 && b[2].descriptorType == VK_DESCRIPTOR_TYPE_SAMPLER);
            CHECK(b[3].binding == 5 && b[3].descriptorType == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE);
            CHECK(b[4].binding == 21 && b[4].descriptorType == VK_DESCRIPTOR_TYPE_SAMPLER);
        }
        /* A short array gets what fits and the count of what is needed. */
        VkDescriptorSetLayoutBinding one[2] = {{0}, {.binding = 77}};
        CHECK(agal_vk_layout_bindings(&r, one, 1) == n && one[0].binding == 0 && one[1].binding == 77);
        CHECK(r.nsamplers == 2 && !strcmp(r.samplers[0].name, "fs1") && !strcmp(r.samplers[1].name, "fs3"));
        CHECK(r.nblocks == 1 && !strcmp(r.blocks[0].name, AGAL_GLSL_VC_BLOCK) && r.target == AGAL_TARGET_SPIRV);
    }
    agal_upload_options es1 = {.size = sizeof(agal_upload_options), .target = AGAL_TARGET_ESSL1};
    agal_upload_result r = agal_upload_result_init();
    CHECK(agal_upload(ctx, vb, vn, fb, fn, &es1, &r) == AGAL_OK && r.nblocks == 1 && !strcmp(r.blocks[0].name, "vc") &&
          r.target == AGAL_TARGET_ESSL1);
    agal_context_free(ctx);
}

/* ---- Context3D's arithmetic and what the replay added ----------------------------- */

static void test_context3d(void)
{
    /* clear truncates to 8 bits (0.3 -> 76: observed), after clamping. */
    static const struct {
        double v;
        unsigned byte;
    } clears[] = {{0.3, 76}, {0.5, 127}, {0.999, 254}, {1, 255}, {2, 255}, {-1, 0}, {0, 0}};
    for (size_t i = 0; i < sizeof clears / sizeof *clears; i++)
        CHECK(agal_stage3d_clear_channel(clears[i].v) * 255.0f == (float)clears[i].byte, "clear %g", clears[i].v);
    CHECK(agal_stage3d_clear_channel(NAN) == 0.0f);
    VkClearColorValue cc = agal_vk_clear_color(0.3, 0.5, 2, -1);
    CHECK(cc.float32[0] * 255.0f == 76.0f && cc.float32[1] * 255.0f == 127.0f && cc.float32[2] == 1.0f &&
          cc.float32[3] == 0.0f);
    CHECK(agal_stage3d_levels(1, 1) == 1 && agal_stage3d_levels(64, 64) == 7 && agal_stage3d_levels(256, 4) == 9);
    /* antiAlias -> samples: 0 1, 2 2, 3 2, 4 4, 8 8, 16 16, 100 16; each API then rounds up to what it has. */
    static const int aa[] = {0, 1, 2, 3, 4, 7, 8, 16, 100, -5};
    static const unsigned want[] = {1, 1, 2, 2, 4, 4, 8, 16, 16, 1};
    for (size_t i = 0; i < sizeof aa / sizeof *aa; i++)
        CHECK(agal_stage3d_samples(aa[i]) == want[i], "antiAlias %d: %u", aa[i], agal_stage3d_samples(aa[i]));
    VkSampleCountFlags lavapipe = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
    CHECK(agal_vk_samples(0, lavapipe) == VK_SAMPLE_COUNT_1_BIT &&
          agal_vk_samples(2, lavapipe) == VK_SAMPLE_COUNT_4_BIT &&
          agal_vk_samples(16, lavapipe) == VK_SAMPLE_COUNT_4_BIT && agal_vk_samples(4, 0x7F) == VK_SAMPLE_COUNT_4_BIT);
    CHECK(agal_gl_samples(0, 4) == 0 && agal_gl_samples(2, 4) == 2 && agal_gl_samples(16, 4) == 4 &&
          agal_gl_samples(4, 0) == 0);
    CHECK(agal_vk_depth_stencil_format(true) == VK_FORMAT_D24_UNORM_S8_UINT &&
          agal_vk_depth_stencil_format(false) == VK_FORMAT_D32_SFLOAT_S8_UINT);
    CHECK(AGAL_GL_DEPTH_STENCIL_FORMAT == GL_DEPTH24_STENCIL8);
    CHECK(agal_gl_cube_face(0) == GL_TEXTURE_CUBE_MAP_POSITIVE_X &&
          agal_gl_cube_face(5) == GL_TEXTURE_CUBE_MAP_NEGATIVE_Z);
}

static void test_scissor(void)
{
    agal_rect r;
    /* Zero width or height: no scissor (observed); a negative one too. */
    CHECK(!agal_stage3d_scissor(8, 8, 0, 40, 64, 64, &r) && !agal_stage3d_scissor(8, 8, 10, -1, 64, 64, &r));
    CHECK(!agal_stage3d_scissor(NAN, 0, NAN, 10, 64, 64, &r));
    CHECK(agal_stage3d_scissor(16.4, 16.6, 8.2, 8.3, 64, 64, &r) && r.x == 16 && r.y == 17 && r.width == 9 &&
              r.height == 8,
          "%d %d %u %u", r.x, r.y, r.width, r.height);
    CHECK(agal_stage3d_scissor(56, -8, 100, 16, 64, 64, &r) && r.x == 56 && r.y == 0 && r.width == 8 && r.height == 8);
    CHECK(agal_stage3d_scissor(100, 100, 10, 10, 64, 64, &r) && r.width == 0 && r.height == 0); /* Flash's 3706 */
    VkRect2D vr = agal_vk_scissor(&(agal_rect){16, 32, 8, 4});
    CHECK(vr.offset.x == 16 && vr.offset.y == 32 && vr.extent.width == 8 && vr.extent.height == 4);
    GLint box[4];
    /* The back buffer is drawn with GL's origin at the bottom left; a texture is drawn flipped. */
    agal_gl_scissor_box(&(agal_rect){16, 32, 8, 4}, 64, false, box);
    CHECK(box[0] == 16 && box[1] == 28 && box[2] == 8 && box[3] == 4, "%d %d", box[0], box[1]);
    agal_gl_scissor_box(&(agal_rect){16, 32, 8, 4}, 64, true, box);
    CHECK(box[0] == 16 && box[1] == 32);
}

static void test_stencil_faces(void)
{
    static const struct {
        agal_triangle_face f;
        bool front, back;
    } faces[] = {{AGAL_FACE_NONE, false, false},
                 {AGAL_FACE_FRONT, true, false},
                 {AGAL_FACE_BACK, false, true},
                 {AGAL_FACE_FRONT_AND_BACK, true, true}};
    for (size_t i = 0; i < sizeof faces / sizeof *faces; i++) {
        CHECK(agal_stage3d_stencil_face(faces[i].f, true) == faces[i].front, "face %d", faces[i].f);
        CHECK(agal_stage3d_stencil_face(faces[i].f, false) == faces[i].back, "face %d", faces[i].f);
        VkStencilOpState s[2];
        agal_vk_stencil_faces(faces[i].f, AGAL_COMPARE_EQUAL, AGAL_STENCIL_SET, AGAL_STENCIL_INVERT, AGAL_STENCIL_ZERO,
                              3, 0xF0, 0x0F, s);
        for (int k = 0; k < 2; k++) {
            bool on = k == 0 ? faces[i].front : faces[i].back;
            /* A face the actions do not name passes and keeps; the masks and reference stay. */
            CHECK(s[k].compareOp == (on ? VK_COMPARE_OP_EQUAL : VK_COMPARE_OP_ALWAYS) &&
                      s[k].passOp == (on ? VK_STENCIL_OP_REPLACE : VK_STENCIL_OP_KEEP) &&
                      s[k].depthFailOp == (on ? VK_STENCIL_OP_INVERT : VK_STENCIL_OP_KEEP) &&
                      s[k].failOp == (on ? VK_STENCIL_OP_ZERO : VK_STENCIL_OP_KEEP) && s[k].reference == 3 &&
                      s[k].compareMask == 0xF0 && s[k].writeMask == 0x0F,
                  "face %d side %d", faces[i].f, k);
        }
    }
}

/* Context3D's errors: Flash's lines (recorded from its message table, and its classes
 * where recorded: 2008 ArgumentError, 3780 Error), written out here whole. */
static void test_flash_errors(void)
{
    static const struct {
        int id;
        const char *args[3];
        const char *cls, *line;
    } lines[] = {
        {3692, {NULL}, "Error", "Error #3692: All buffers need to be cleared every frame before drawing."},
        {3611, {"2"}, "Error", "Error #3611: Stream 2 is read by the current vertex program but not set."},
        {3603,
         {"2", "3", "6"},
         "RangeError",
         "Error #3603: Not enough indices in this buffer. 2 triangles at offset 3, but there are only 6 indices in "
         "buffer."},
        {3780,
         {"32", "16384"},
         "Error",
         "Error #3780: Requested width of backbuffer is not in allowed range 32 to 16384."},
        {2008,
         {"triangleFaceToCull"},
         "ArgumentError",
         "Error #2008: Parameter triangleFaceToCull must be one of the accepted values."},
        {2007, {"indexBuffer"}, "TypeError", "Error #2007: Parameter indexBuffer must be non-null."},
        {3683, {"2048"}, "ArgumentError", "Error #3683: Texture too big (max is 2048x2048)."},
        {3725,
         {"", "2"},
         "Error",
         "Error #3725: The requested AGAL version (2) is not valid under the Context3D profile. For example AGAL "
         "version 2 requires standard profile."},
        {3610, {"0"}, "RangeError", "Error #3610: Stream 0 vertex offset is out of bounds"},
        {3669, {NULL}, "RangeError", "Error #3669: Bad input size."},
    };
    char buf[512], want[600];
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        agal_flash_error e = {.id = lines[i].id};
        for (int k = 0; k < 3; k++)
            if (lines[i].args[k]) snprintf(e.args[k], sizeof e.args[k], "%s", lines[i].args[k]);
        int n = agal_flash_message(&e, buf, sizeof buf);
        CHECK(!strcmp(buf, lines[i].line) && n == (int)strlen(lines[i].line), "%d: %s", lines[i].id, buf);
        CHECK(!strcmp(agal_flash_class(&e), lines[i].cls), "%d: %s", lines[i].id, agal_flash_class(&e));
        CHECK(agal_flash_template(lines[i].id) != NULL);
        /* String(e): the class, then the message. */
        snprintf(want, sizeof want, "%s: %s", lines[i].cls, lines[i].line);
        n = agal_flash_line(&e, buf, sizeof buf);
        CHECK(!strcmp(buf, want) && n == (int)strlen(want), "%d: %s", lines[i].id, buf);
    }
    /* Missing arguments are empty; an id the table lacks is "Error #id", an Error; id 0
     * is our own message; truncation keeps snprintf's count. */
    agal_flash_message(&(agal_flash_error){.id = 3611}, buf, sizeof buf);
    CHECK(!strcmp(buf, "Error #3611: Stream  is read by the current vertex program but not set."), "%s", buf);
    const agal_flash_error unknown = {.id = 1}, ours = {.id = 0, .message = "out of memory"};
    CHECK(agal_flash_message(&unknown, buf, sizeof buf) == 8 && !strcmp(buf, "Error #1"));
    CHECK(!strcmp(agal_flash_class(&unknown), "Error") && !agal_flash_template(1));
    CHECK(agal_flash_line(&unknown, buf, sizeof buf) == 15 && !strcmp(buf, "Error: Error #1"), "%s", buf);
    CHECK(agal_flash_line(&ours, buf, sizeof buf) == 27 && !strcmp(buf, "Error: Error: out of memory"), "%s", buf);
    const agal_flash_error draw = {.id = 3692};
    char small[8];
    CHECK(agal_flash_message(&draw, small, sizeof small) == 71 && !strcmp(small, "Error #"));
    CHECK(agal_flash_line(&draw, small, sizeof small) == 78 && !strcmp(small, "Error: "));
    CHECK(agal_flash_line(&draw, small, 3) == 78 && !strcmp(small, "Er"));
    CHECK(agal_flash_line(&draw, NULL, 0) == 78);
    /* The upload errors keep their classes; 3615 naming no program (an empty one) is an
     * ArgumentError. */
    CHECK(!strcmp(agal_flash_class(&(agal_flash_error){.id = 3612}), "ArgumentError") &&
          !strcmp(agal_flash_class(&(agal_flash_error){.id = 3646}), "Error"));
    CHECK(!strcmp(agal_flash_class(&(agal_flash_error){.id = 3615}), "ArgumentError") &&
          !strcmp(agal_flash_class(&(agal_flash_error){.id = 3615, .args = {"vertex"}}), "Error"));
}

/* setProgramConstants*: the registers written, Flash's errors in Flash's order, and
 * nothing written on an error. */
static void test_constants(void)
{
    static float regs[128][4];
    double raw[16];
    for (int i = 0; i < 16; i++) raw[i] = i;
    CHECK(agal_stage3d_constants_from_matrix(AGAL_PROFILE_BASELINE, AGAL_VERTEX, 4, raw, false, regs) == 0);
    CHECK(regs[4][0] == 0 && regs[4][3] == 3 && regs[5][0] == 4 && regs[7][3] == 15, "a column a register");
    CHECK(agal_stage3d_constants_from_matrix(AGAL_PROFILE_BASELINE, AGAL_VERTEX, 4, raw, true, regs) == 0);
    CHECK(regs[4][0] == 0 && regs[4][1] == 4 && regs[4][2] == 8 && regs[4][3] == 12 && regs[5][0] == 1,
          "transposed: rawData[0, 4, 8, 12] first (recorded)");
    CHECK(agal_stage3d_constants_from_matrix(AGAL_PROFILE_BASELINE, AGAL_VERTEX, 125, raw, false, regs) == 2006,
          "past baseline's 128 vertex registers");
    CHECK(agal_stage3d_constants_from_matrix(AGAL_PROFILE_BASELINE, AGAL_FRAGMENT, 27, raw, false, regs) == 2006,
          "past baseline's 28 fragment registers");
    double v[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    memset(regs, 0, sizeof regs);
    CHECK(agal_stage3d_constants_from_vector(AGAL_PROFILE_BASELINE, AGAL_FRAGMENT, 0, v, 9, -1, regs) == 0 &&
              regs[1][3] == 8 && regs[2][0] == 0,
          "-1: the whole registers the data holds");
    CHECK(agal_stage3d_constants_from_vector(AGAL_PROFILE_BASELINE, AGAL_FRAGMENT, 0, v, 9, 3, regs) == 3669,
          "3 registers from 9 numbers");
    CHECK(agal_stage3d_constants_from_vector(AGAL_PROFILE_BASELINE, AGAL_FRAGMENT, 27, v, 9, 3, regs) == 3669,
          "3669 before 2006");
    CHECK(agal_stage3d_constants_from_vector(AGAL_PROFILE_BASELINE, AGAL_FRAGMENT, -1, v, 9, 1, regs) == 2006);
    uint8_t bytes[36] = {0};
    const float one = 1.0f, half = -0.5f;
    uint32_t u1, u2;
    memcpy(&u1, &one, 4);
    memcpy(&u2, &half, 4);
    for (int k = 0; k < 4; k++) bytes[4 + k] = (uint8_t)(u1 >> 8 * k), bytes[4 + 16 + k] = (uint8_t)(u2 >> 8 * k);
    memset(regs, 0, sizeof regs);
    CHECK(agal_stage3d_constants_from_bytes(AGAL_PROFILE_STANDARD, AGAL_VERTEX, 2, 2, bytes, sizeof bytes, 4, regs) ==
                  0 &&
              regs[2][0] == 1.0f && regs[3][0] == -0.5f && regs[2][1] == 0,
          "little-endian floats from the offset");
    CHECK(agal_stage3d_constants_from_bytes(AGAL_PROFILE_STANDARD, AGAL_VERTEX, 2, 3, bytes, sizeof bytes, 4, regs) ==
              3669,
          "32 bytes hold 2 registers");
    CHECK(agal_stage3d_constants_from_bytes(AGAL_PROFILE_STANDARD, AGAL_VERTEX, 2, 1, bytes, sizeof bytes, 36, regs) ==
              3669,
          "an offset at the end");
    CHECK(agal_stage3d_constants_from_bytes(AGAL_PROFILE_STANDARD, AGAL_VERTEX, 250, 1, bytes, sizeof bytes, 0, regs) ==
              2006,
          "past standard's 250 vertex registers");
}

/* The sampler key: equal exactly when the sampling state is equal. */
static void test_sampler_key(void)
{
    agal_sampler a, b;
    memset(&a, 0, sizeof a);
    a.wrap = AGAL_WRAP_REPEAT, a.filter = AGAL_FILTER_LINEAR, a.mipmap = AGAL_MIP_NEAREST, a.dim = AGAL_DIM_2D;
    b = a;
    b.format = AGAL_FMT_DXT5, b.bias = -8, b.special = 4;
    CHECK(agal_sampler_state_key(&a) == agal_sampler_state_key(&b), "format, bias and flags change no key");
    unsigned distinct = 0;
    uint32_t seen[2 * 8 * 3 * 8];
    for (unsigned dim = 0; dim < 2; dim++)
        for (unsigned f = 0; f < 8; f++)
            for (unsigned m = 0; m < 3; m++)
                for (unsigned w = 0; w < 8; w++) {
                    b.dim = (uint8_t)dim, b.filter = (uint8_t)f, b.mipmap = (uint8_t)m, b.wrap = (uint8_t)w;
                    uint32_t k = agal_sampler_state_key(&b);
                    bool dup = false;
                    for (unsigned i = 0; i < distinct; i++) dup |= seen[i] == k;
                    if (!dup) seen[distinct++] = k;
                }
    CHECK(distinct == 2 * 8 * 3 * 8, "only %u distinct keys", distinct);
}

/* Vulkan's per-draw glue from an upload: pool sizes, descriptor writes, vertex input. */
static void test_vk_draw_glue(void)
{
    agal_upload_result r = agal_upload_result_init();
    memset(&r, 0, sizeof r);
    VkDescriptorPoolSize ps[3];
    CHECK(agal_vk_pool_sizes(&r, ps) == 1 && ps[0].descriptorCount == 1, "an empty pair still sizes its pool");
    agal_binding_sampler smp[2];
    memset(smp, 0, sizeof smp);
    smp[0].num = 1, smp[0].binding = smp[0].sampler_binding = 3;     /* combined */
    smp[1].num = 4, smp[1].binding = 6, smp[1].sampler_binding = 22; /* separate */
    agal_binding_attribute attrs[2] = {{0, 0xf}, {3, 0x3}};
    r.nblocks = 1;
    r.blocks[0].stage = AGAL_FRAGMENT, r.blocks[0].binding = AGAL_FC_BINDING;
    r.samplers = smp, r.nsamplers = 2, r.attributes = attrs, r.nattributes = 2;
    uint32_t n = agal_vk_pool_sizes(&r, ps);
    CHECK(n == 3 && ps[0].type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER && ps[0].descriptorCount == 1 &&
              ps[1].type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER && ps[2].type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
          "pool sizes: %u", n);
    VkDescriptorBufferInfo blocks[2];
    VkDescriptorImageInfo images[16];
    memset(blocks, 0, sizeof blocks);
    memset(images, 0, sizeof images);
    VkWriteDescriptorSet w[AGAL_VK_MAX_BINDINGS];
    n = agal_vk_descriptor_writes(&r, VK_NULL_HANDLE, blocks, images, w);
    CHECK(n == 4 && w[0].dstBinding == AGAL_FC_BINDING && w[0].pBufferInfo == &blocks[AGAL_FRAGMENT] &&
              w[1].dstBinding == 3 && w[1].pImageInfo == &images[1] &&
              w[2].descriptorType == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE && w[3].dstBinding == 22 &&
              w[3].descriptorType == VK_DESCRIPTOR_TYPE_SAMPLER && w[3].pImageInfo == &images[4],
          "descriptor writes: %u", n);
    agal_vk_stream streams[16];
    memset(streams, 0, sizeof streams);
    streams[0].stride = 20, streams[0].offset = 8, streams[0].format = AGAL_VERTEX_FLOAT_3;
    streams[3].stride = 4, streams[3].format = AGAL_VERTEX_BYTES_4, streams[3].per_instance = true;
    VkVertexInputBindingDescription vb[16];
    VkVertexInputAttributeDescription va[16];
    n = agal_vk_vertex_input(&r, streams, vb, va);
    CHECK(n == 2 && vb[0].binding == 0 && vb[0].stride == 20 && va[0].offset == 8 &&
              va[0].format == VK_FORMAT_R32G32B32_SFLOAT && vb[1].binding == 3 &&
              vb[1].inputRate == VK_VERTEX_INPUT_RATE_INSTANCE && va[1].location == 3 &&
              va[1].format == VK_FORMAT_R8G8B8A8_UNORM,
          "vertex input: %u", n);
}

/* A baked key's pipeline pieces (agal_vk_pipeline_state_fill), against the Vulkan
 * values written here. */
static void test_vk_pipeline_state(void)
{
    agal_pipeline_key k;
    memset(&k, 0, sizeof k);
    k.version = AGAL_PIPELINE_KEY_VERSION;
    k.streams[0] = (agal_pipeline_stream){AGAL_VERTEX_FLOAT_3 + 1, 2, 5, 0, 0};
    k.streams[4] = (agal_pipeline_stream){AGAL_VERTEX_BYTES_4 + 1, 0, 1, 0, 3};
    k.blend_src = AGAL_BLEND_SOURCE_ALPHA, k.blend_dst = AGAL_BLEND_ONE_MINUS_SOURCE_ALPHA, k.color_mask = 0x5;
    k.cull = AGAL_FACE_BACK, k.depth_stencil = 1, k.depth_compare = AGAL_COMPARE_GREATER, k.depth_mask = 0;
    k.stencil_face = AGAL_FACE_FRONT, k.stencil_compare = AGAL_COMPARE_EQUAL, k.stencil_both_pass = AGAL_STENCIL_SET;
    k.stencil_ref = 9, k.stencil_read = 0xf0, k.stencil_write = 0x0f;
    k.colors[0] = AGAL_TEXTURE_BGRA + 1, k.colors[1] = AGAL_TEXTURE_RGBA_HALF_FLOAT + 1;
    agal_vk_pipeline_state p;
    agal_vk_pipeline_state_fill(&p, &k, VK_SAMPLE_COUNT_4_BIT);
    CHECK(p.vertex_input.vertexAttributeDescriptionCount == 2 && p.bindings[0].binding == 0 &&
              p.bindings[0].stride == 20 && p.attributes[0].offset == 8 &&
              p.attributes[0].format == VK_FORMAT_R32G32B32_SFLOAT && p.bindings[1].binding == 4 &&
              p.bindings[1].inputRate == VK_VERTEX_INPUT_RATE_INSTANCE &&
              p.attributes[1].format == VK_FORMAT_R8G8B8A8_UNORM,
          "vertex input from the key");
    CHECK(p.vertex_input.pNext == &p.divisor_info && p.divisor_info.vertexBindingDivisorCount == 1 &&
          p.divisors[0].binding == 4 && p.divisors[0].divisor == 3);
    CHECK(p.rasterization.cullMode == VK_CULL_MODE_BACK_BIT && p.rasterization.frontFace == VK_FRONT_FACE_CLOCKWISE &&
          p.multisample.rasterizationSamples == VK_SAMPLE_COUNT_4_BIT &&
          p.input_assembly.topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
    CHECK(p.depth_stencil.depthTestEnable && !p.depth_stencil.depthWriteEnable &&
          p.depth_stencil.depthCompareOp == VK_COMPARE_OP_GREATER && p.depth_stencil.stencilTestEnable &&
          p.depth_stencil.front.compareOp == VK_COMPARE_OP_EQUAL &&
          p.depth_stencil.front.passOp == VK_STENCIL_OP_REPLACE &&
          p.depth_stencil.back.compareOp == VK_COMPARE_OP_ALWAYS && p.depth_stencil.front.reference == 9 &&
          p.depth_stencil.front.compareMask == 0xf0 && p.depth_stencil.back.writeMask == 0x0f);
    CHECK(p.color_blend.attachmentCount == 2 && p.blend[1].blendEnable &&
          p.blend[1].srcColorBlendFactor == VK_BLEND_FACTOR_SRC_ALPHA &&
          p.blend[1].colorWriteMask == (VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_B_BIT));
    CHECK(p.dynamic_info.dynamicStateCount == 2 && p.dynamic[0] == VK_DYNAMIC_STATE_VIEWPORT,
          "a full key: no state dynamic");
    agal_pipeline_key b;
    agal_pipeline_key_baked(&k, AGAL_DYNAMIC_VULKAN_EXTENDED, &b);
    agal_vk_pipeline_state_fill(&p, &b, VK_SAMPLE_COUNT_1_BIT);
    const VkDynamicState want[] = {VK_DYNAMIC_STATE_VIEWPORT,
                                   VK_DYNAMIC_STATE_SCISSOR,
                                   VK_DYNAMIC_STATE_STENCIL_REFERENCE,
                                   VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK,
                                   VK_DYNAMIC_STATE_STENCIL_WRITE_MASK,
                                   VK_DYNAMIC_STATE_CULL_MODE_EXT,
                                   VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE_EXT,
                                   VK_DYNAMIC_STATE_DEPTH_COMPARE_OP_EXT,
                                   VK_DYNAMIC_STATE_STENCIL_OP_EXT,
                                   VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE_EXT};
    uint32_t n = p.dynamic_info.dynamicStateCount;
    CHECK(n == sizeof want / sizeof want[0] && !memcmp(p.dynamic, want, sizeof want), "extended: %u dynamic states", n);
    CHECK(p.bindings[0].stride == 0 && p.attributes[0].offset == 0, "strides and offsets are set per draw");
}

int main(void)
{
    test_vk_draw_glue();
    test_vk_pipeline_state();
    test_constants();
    test_sampler_key();
    test_names();
    test_blend_compare_stencil();
    test_faces_and_formats();
    test_samplers();
    test_layout();
    test_context3d();
    test_scissor();
    test_stencil_faces();
    test_flash_errors();
    if (!failures) printf("helpers: all passed\n");
    return failures != 0;
}
