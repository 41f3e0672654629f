/* headers_check.c: every installed header in one translation unit, compiled as C
 * (c99, c11, c17) and as C++ (c++11, c++17, c++20) by gcc and clang with -Wall
 * -Wextra -Werror -pedantic (tests/embed/test_headers.py), then linked against the
 * static library and run. Every helper and every AGAL_API function is referenced
 * (all_helpers.inc, which the driver writes from the headers, so a new one is
 * covered unlisted); the pure helpers are called and their results checked, the same
 * as C and as C++. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include <vulkan/vulkan.h>

#include <agal/agal.h>
#include <agal/interp.h>
#include <agal/stage3d.h>
#include <agal/text.h>
#include <agal/gl.h>
#include <agal/vulkan.h>

#include <stdio.h>
#include <string.h>

static int failures;
#define EXPECT(cond) \
    do { \
        if (!(cond)) { \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
            failures++; \
        } \
    } while (0)

/* Each helper's and API function's address: each is declared and instantiates. */
static size_t referenced(void)
{
    const void *const all[] = {
#include "all_helpers.inc"
    };
    size_t n = 0;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) n += all[i] != NULL;
    return n;
}

static void pure_helpers(void)
{
    agal_sampler s;
    memset(&s, 0, sizeof s);
    s.dim = AGAL_DIM_2D;
    s.filter = AGAL_FILTER_LINEAR;
    s.mipmap = AGAL_MIP_LINEAR;
    s.wrap = AGAL_WRAP_REPEAT;
    VkSamplerCreateInfo vi = agal_vk_sampler_info(&s, 16.0f);
    EXPECT(vi.sType == VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO && vi.magFilter == VK_FILTER_LINEAR &&
           vi.mipmapMode == VK_SAMPLER_MIPMAP_MODE_LINEAR && vi.addressModeU == VK_SAMPLER_ADDRESS_MODE_REPEAT &&
           vi.pNext == NULL && vi.anisotropyEnable == VK_FALSE);
    agal_gl_sampler gs = agal_gl_sampler_params(&s, 0.0f);
    EXPECT(gs.min_filter == GL_LINEAR_MIPMAP_LINEAR && gs.wrap_s == GL_REPEAT && gs.max_anisotropy == 1.0f);
    VkPipelineColorBlendAttachmentState b =
        agal_vk_blend(AGAL_BLEND_SOURCE_ALPHA, AGAL_BLEND_ONE_MINUS_SOURCE_ALPHA, true, true, true, false);
    EXPECT(b.blendEnable == VK_TRUE && b.srcColorBlendFactor == VK_BLEND_FACTOR_SRC_ALPHA &&
           b.colorWriteMask == (VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT));
    VkStencilOpState st[2];
    agal_vk_stencil_faces(AGAL_FACE_FRONT, AGAL_COMPARE_EQUAL, AGAL_STENCIL_INCREMENT_SATURATE, AGAL_STENCIL_KEEP,
                          AGAL_STENCIL_ZERO, 7, 255, 15, st);
    EXPECT(st[0].compareOp == VK_COMPARE_OP_EQUAL && st[0].reference == 7 && st[1].compareOp == VK_COMPARE_OP_ALWAYS);
    agal_rect r;
    EXPECT(agal_stage3d_scissor(-4.4, 2.6, 100, 50, 64, 64, &r) && r.x == 0 && r.width == 64);
    VkRect2D vr = agal_vk_scissor(&r);
    EXPECT(vr.offset.x == r.x && vr.extent.width == r.width && vr.extent.height == r.height);
    agal_gl_vertex_format vf = agal_gl_vertex_format_of(AGAL_VERTEX_FLOAT_3);
    EXPECT(vf.size == 3 && vf.type == GL_FLOAT && vf.normalized == GL_FALSE);
    agal_gl_texture_format tf = agal_gl_texture_format_of(AGAL_TEXTURE_BGRA);
    EXPECT(tf.internal_format == GL_RGBA8 && tf.format == GL_BGRA);
    EXPECT(agal_stage3d_levels(256, 64) == 9 && agal_stage3d_clear_channel(0.3) == 76.0f / 255.0f);
    EXPECT(strcmp(agal_version(), "") != 0);
}

int main(void)
{
    size_t n = referenced();
    pure_helpers();
    printf("%zu helpers and functions referenced, %d failures\n", n, failures);
    return failures != 0 || n < 80;
}
