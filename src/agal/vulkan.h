/* <agal/vulkan.h>: from what Stage3D says to what Vulkan takes. Header-only (every
 * function static inline), needing <vulkan/vulkan.h> (Vulkan-Headers) and the
 * library's agal.h; nothing here calls Vulkan, so it works with any loader.
 *
 * The binding model (docs/binding-models.md, "SPIR-V binding model"): descriptor set 0 holds vc
 * (binding 0) and fc (binding 1) as uniform buffers, fs<i> as a combined image
 * sampler at 2 + i, or with separate samplers the image at 2 + i and the sampler at
 * 18 + i; va<i> is vertex input location i; oc<i> colour attachment i.
 *
 * Orientation: with the default clip mapping (y negated in the shader) the back
 * buffer and every render target come out as Stage3D draws them, first row at the
 * top, with no flip and no change of state between them (docs/format.md section 7;
 * tests/gpu/test_runtime.c renders a culled pass into a texture and samples it).
 * Stage3D's front faces are clockwise on screen: AGAL_VK_FRONT_FACE. */
#ifndef AGAL_VULKAN_H
#define AGAL_VULKAN_H

#include "stage3d.h"

#include <vulkan/vulkan.h>

#include <string.h>

/* The front face of every Stage3D draw, to the back buffer or to a texture. */
#define AGAL_VK_FRONT_FACE VK_FRONT_FACE_CLOCKWISE

/* The most descriptor bindings an upload declares: vc, fc, and 16 samplers that
 * may each be an image and a sampler. */
#define AGAL_VK_MAX_BINDINGS (2 + 2 * 16)

static inline VkSamplerAddressMode agal_vk_address_mode(unsigned wrap, bool v_axis)
{
    bool repeat = wrap == AGAL_WRAP_REPEAT || (wrap == AGAL_WRAP_CLAMP_U_REPEAT_V && v_axis) ||
                  (wrap == AGAL_WRAP_REPEAT_U_CLAMP_V && !v_axis);
    return repeat ? VK_SAMPLER_ADDRESS_MODE_REPEAT : VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
}

/* The sampler a draw samples with: `s` is the resolved state (agal_slots_resolve),
 * max_anisotropy the device's maxSamplerAnisotropy with samplerAnisotropy enabled,
 * or 0 without it (anisotropic filters then filter linearly). A cube map clamps (a
 * cube has no wrap). mipnone samples level 0 only (maxLod 0; the filters are equal,
 * so the magnification test does not matter). The token's LOD bias is applied in
 * the shader, never here. */
static inline VkSamplerCreateInfo agal_vk_sampler_info(const agal_sampler *s, float max_anisotropy)
{
    VkFilter filter = s->filter == AGAL_FILTER_NEAREST ? VK_FILTER_NEAREST : VK_FILTER_LINEAR;
    bool cube = s->dim == AGAL_DIM_CUBE;
    /* Field by field, here and below: the headers compile as C and as C++11, which
     * has neither designated initializers nor compound literals. */
    VkSamplerCreateInfo info;
    memset(&info, 0, sizeof info);
    info.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
    info.magFilter = filter;
    info.minFilter = filter;
    info.mipmapMode = s->mipmap == AGAL_MIP_LINEAR ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
    info.addressModeU = cube ? VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE : agal_vk_address_mode(s->wrap, false);
    info.addressModeV = cube ? VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE : agal_vk_address_mode(s->wrap, true);
    info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    info.minLod = 0.0f;
    info.maxLod = s->mipmap == AGAL_MIP_NONE ? 0.0f : VK_LOD_CLAMP_NONE;
    info.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
    if (s->filter >= AGAL_FILTER_ANISO2X && max_anisotropy >= 2.0f) {
        float want = (float)(2u << (s->filter - AGAL_FILTER_ANISO2X)); /* 2x, 4x, 8x, 16x */
        info.anisotropyEnable = VK_TRUE;
        info.maxAnisotropy = want < max_anisotropy ? want : max_anisotropy;
    }
    return info;
}

/* The descriptor-set layout bindings (set 0) of an upload's translations: returns
 * how many there are (at most AGAL_VK_MAX_BINDINGS) and writes the first `cap`. */
static inline uint32_t agal_vk_layout_bindings(const agal_upload_result *r, VkDescriptorSetLayoutBinding *out,
                                               uint32_t cap)
{
    uint32_t n = 0;
#define AGAL_VK_PUT(b, type, stage) \
    do { \
        if (n < cap) { \
            out[n].binding = (b); \
            out[n].descriptorType = (type); \
            out[n].descriptorCount = 1; \
            out[n].stageFlags = (VkShaderStageFlags)(stage); \
            out[n].pImmutableSamplers = NULL; \
        } \
        n++; \
    } while (0)
    for (size_t i = 0; i < r->nblocks; i++)
        AGAL_VK_PUT(r->blocks[i].binding, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                    r->blocks[i].stage == AGAL_VERTEX ? VK_SHADER_STAGE_VERTEX_BIT : VK_SHADER_STAGE_FRAGMENT_BIT);
    for (size_t i = 0; i < r->nsamplers; i++) {
        const agal_binding_sampler *s = &r->samplers[i];
        if (s->sampler_binding == s->binding) {
            AGAL_VK_PUT(s->binding, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_SHADER_STAGE_FRAGMENT_BIT);
        } else {
            AGAL_VK_PUT(s->binding, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, VK_SHADER_STAGE_FRAGMENT_BIT);
            AGAL_VK_PUT(s->sampler_binding, VK_DESCRIPTOR_TYPE_SAMPLER, VK_SHADER_STAGE_FRAGMENT_BIT);
        }
    }
#undef AGAL_VK_PUT
    return n;
}

/* The descriptor pool sizes one descriptor set of an upload takes (the types of
 * agal_vk_layout_bindings): how many, at most 3 and at least 1 (a pool needs a size
 * even where the pair binds nothing). */
static inline uint32_t agal_vk_pool_sizes(const agal_upload_result *r, VkDescriptorPoolSize out[3])
{
    uint32_t combined = 0, images = 0;
    for (size_t i = 0; i < r->nsamplers; i++) {
        if (r->samplers[i].sampler_binding == r->samplers[i].binding) combined++;
        else images++;
    }
    uint32_t n = 0;
    const struct {
        VkDescriptorType type;
        uint32_t count;
    } want[4] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, (uint32_t)r->nblocks},
                 {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, combined},
                 {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, images},
                 {VK_DESCRIPTOR_TYPE_SAMPLER, images}};
    for (int i = 0; i < 4; i++) {
        if (!want[i].count || n == 3) continue;
        out[n].type = want[i].type;
        out[n++].descriptorCount = want[i].count;
    }
    if (n == 0) {
        out[0].type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
        out[n++].descriptorCount = 1;
    }
    return n;
}

/* One write of one descriptor: info is the VkDescriptorBufferInfo of a uniform
 * buffer, else a VkDescriptorImageInfo (a sampler write reads only its sampler, an
 * image write only its view and layout). */
static inline VkWriteDescriptorSet agal_vk_write(VkDescriptorSet set, uint32_t binding, VkDescriptorType type,
                                                 const void *info)
{
    VkWriteDescriptorSet w;
    memset(&w, 0, sizeof w);
    w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    w.dstSet = set;
    w.dstBinding = binding;
    w.descriptorCount = 1;
    w.descriptorType = type;
    if (type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER) w.pBufferInfo = (const VkDescriptorBufferInfo *)info;
    else w.pImageInfo = (const VkDescriptorImageInfo *)info;
    return w;
}

/* The writes of an upload's descriptor set: each constant block from
 * blocks[stage] (AGAL_VERTEX: vc, AGAL_FRAGMENT: fc), each fs<n> from images[n] (the
 * texture set with setTextureAt(n), its layout, the sampler of slot n): combined, or
 * an image and a sampler with separate samplers. Returns how many, at most
 * AGAL_VK_MAX_BINDINGS, written to out. */
static inline uint32_t agal_vk_descriptor_writes(const agal_upload_result *r, VkDescriptorSet set,
                                                 const VkDescriptorBufferInfo blocks[2],
                                                 const VkDescriptorImageInfo images[16], VkWriteDescriptorSet *out)
{
    uint32_t n = 0;
    for (size_t i = 0; i < r->nblocks; i++)
        out[n++] =
            agal_vk_write(set, r->blocks[i].binding, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &blocks[r->blocks[i].stage]);
    for (size_t i = 0; i < r->nsamplers; i++) {
        const agal_binding_sampler *s = &r->samplers[i];
        const VkDescriptorImageInfo *info = &images[s->num & 15];
        if (s->sampler_binding == s->binding) {
            out[n++] = agal_vk_write(set, s->binding, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, info);
        } else {
            out[n++] = agal_vk_write(set, s->binding, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, info);
            out[n++] = agal_vk_write(set, s->sampler_binding, VK_DESCRIPTOR_TYPE_SAMPLER, info);
        }
    }
    return n;
}

/* ---- fixed-function state (Context3D) ---------------------------------------- */

static inline VkBlendFactor agal_vk_blend_factor(agal_blend_factor f)
{
    switch (f) {
    case AGAL_BLEND_ZERO: return VK_BLEND_FACTOR_ZERO;
    case AGAL_BLEND_ONE: return VK_BLEND_FACTOR_ONE;
    case AGAL_BLEND_SOURCE_COLOR: return VK_BLEND_FACTOR_SRC_COLOR;
    case AGAL_BLEND_ONE_MINUS_SOURCE_COLOR: return VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR;
    case AGAL_BLEND_SOURCE_ALPHA: return VK_BLEND_FACTOR_SRC_ALPHA;
    case AGAL_BLEND_ONE_MINUS_SOURCE_ALPHA: return VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    case AGAL_BLEND_DESTINATION_COLOR: return VK_BLEND_FACTOR_DST_COLOR;
    case AGAL_BLEND_ONE_MINUS_DESTINATION_COLOR: return VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR;
    case AGAL_BLEND_DESTINATION_ALPHA: return VK_BLEND_FACTOR_DST_ALPHA;
    case AGAL_BLEND_ONE_MINUS_DESTINATION_ALPHA: return VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA;
    }
    return VK_BLEND_FACTOR_ONE;
}

/* setBlendFactors(src, dst) and setColorMask(red, green, blue, alpha) as one colour
 * attachment's state: the same factors for colour and alpha, added; (one, zero) is
 * no blending. */
static inline VkPipelineColorBlendAttachmentState agal_vk_blend(agal_blend_factor src, agal_blend_factor dst, bool red,
                                                                bool green, bool blue, bool alpha)
{
    VkPipelineColorBlendAttachmentState b;
    b.blendEnable = !(src == AGAL_BLEND_ONE && dst == AGAL_BLEND_ZERO);
    b.srcColorBlendFactor = agal_vk_blend_factor(src);
    b.dstColorBlendFactor = agal_vk_blend_factor(dst);
    b.colorBlendOp = VK_BLEND_OP_ADD;
    b.srcAlphaBlendFactor = agal_vk_blend_factor(src);
    b.dstAlphaBlendFactor = agal_vk_blend_factor(dst);
    b.alphaBlendOp = VK_BLEND_OP_ADD;
    b.colorWriteMask = (red ? (VkColorComponentFlags)VK_COLOR_COMPONENT_R_BIT : 0u) |
                       (green ? (VkColorComponentFlags)VK_COLOR_COMPONENT_G_BIT : 0u) |
                       (blue ? (VkColorComponentFlags)VK_COLOR_COMPONENT_B_BIT : 0u) |
                       (alpha ? (VkColorComponentFlags)VK_COLOR_COMPONENT_A_BIT : 0u);
    return b;
}

static inline VkCompareOp agal_vk_compare_op(agal_compare_mode m)
{
    switch (m) {
    case AGAL_COMPARE_NEVER: return VK_COMPARE_OP_NEVER;
    case AGAL_COMPARE_LESS: return VK_COMPARE_OP_LESS;
    case AGAL_COMPARE_EQUAL: return VK_COMPARE_OP_EQUAL;
    case AGAL_COMPARE_LESS_EQUAL: return VK_COMPARE_OP_LESS_OR_EQUAL;
    case AGAL_COMPARE_GREATER: return VK_COMPARE_OP_GREATER;
    case AGAL_COMPARE_NOT_EQUAL: return VK_COMPARE_OP_NOT_EQUAL;
    case AGAL_COMPARE_GREATER_EQUAL: return VK_COMPARE_OP_GREATER_OR_EQUAL;
    case AGAL_COMPARE_ALWAYS: return VK_COMPARE_OP_ALWAYS;
    }
    return VK_COMPARE_OP_ALWAYS;
}

static inline VkStencilOp agal_vk_stencil_op(agal_stencil_action a)
{
    switch (a) {
    case AGAL_STENCIL_KEEP: return VK_STENCIL_OP_KEEP;
    case AGAL_STENCIL_ZERO: return VK_STENCIL_OP_ZERO;
    case AGAL_STENCIL_SET: return VK_STENCIL_OP_REPLACE; /* the reference value */
    case AGAL_STENCIL_INCREMENT_SATURATE: return VK_STENCIL_OP_INCREMENT_AND_CLAMP;
    case AGAL_STENCIL_DECREMENT_SATURATE: return VK_STENCIL_OP_DECREMENT_AND_CLAMP;
    case AGAL_STENCIL_INVERT: return VK_STENCIL_OP_INVERT;
    case AGAL_STENCIL_INCREMENT_WRAP: return VK_STENCIL_OP_INCREMENT_AND_WRAP;
    case AGAL_STENCIL_DECREMENT_WRAP: return VK_STENCIL_OP_DECREMENT_AND_WRAP;
    }
    return VK_STENCIL_OP_KEEP;
}

/* setStencilActions(face, compare, bothPass, depthFail, depthPassStencilFail) for
 * one face; reference and masks come from setStencilReferenceValue(ref, read,
 * write). */
static inline VkStencilOpState agal_vk_stencil(agal_compare_mode compare, agal_stencil_action both_pass,
                                               agal_stencil_action depth_fail, agal_stencil_action stencil_fail,
                                               uint32_t reference, uint32_t read_mask, uint32_t write_mask)
{
    VkStencilOpState s;
    s.failOp = agal_vk_stencil_op(stencil_fail);
    s.passOp = agal_vk_stencil_op(both_pass);
    s.depthFailOp = agal_vk_stencil_op(depth_fail);
    s.compareOp = agal_vk_compare_op(compare);
    s.compareMask = read_mask;
    s.writeMask = write_mask;
    s.reference = reference;
    return s;
}

/* setStencilActions and setStencilReferenceValue for both faces: front and back
 * (front[0], back[1]) each get the actions where triangleFace names them, else pass
 * and keep (agal_stage3d_stencil_face). Enable the stencil test whenever the target
 * has a stencil buffer: the defaults (always, keep) leave it unchanged. */
static inline void agal_vk_stencil_faces(agal_triangle_face face, agal_compare_mode compare,
                                         agal_stencil_action both_pass, agal_stencil_action depth_fail,
                                         agal_stencil_action stencil_fail, uint32_t reference, uint32_t read_mask,
                                         uint32_t write_mask, VkStencilOpState out[2])
{
    for (int i = 0; i < 2; i++)
        out[i] = agal_stage3d_stencil_face(face, i == 0)
                     ? agal_vk_stencil(compare, both_pass, depth_fail, stencil_fail, reference, read_mask, write_mask)
                     : agal_vk_stencil(AGAL_COMPARE_ALWAYS, AGAL_STENCIL_KEEP, AGAL_STENCIL_KEEP, AGAL_STENCIL_KEEP,
                                       reference, read_mask, write_mask);
}

/* setCulling(face), with AGAL_VK_FRONT_FACE as the front face. */
static inline VkCullModeFlags agal_vk_cull_mode(agal_triangle_face f)
{
    switch (f) {
    case AGAL_FACE_NONE: return VK_CULL_MODE_NONE;
    case AGAL_FACE_FRONT: return VK_CULL_MODE_FRONT_BIT;
    case AGAL_FACE_BACK: return VK_CULL_MODE_BACK_BIT;
    case AGAL_FACE_FRONT_AND_BACK: return VK_CULL_MODE_FRONT_AND_BACK;
    }
    return VK_CULL_MODE_NONE;
}

/* setVertexBufferAt's format: Vulkan fills missing components with (0, 0, 1) as
 * Stage3D does; bytes4 is four normalised bytes, x first. */
static inline VkFormat agal_vk_vertex_format(agal_vertex_format f)
{
    switch (f) {
    case AGAL_VERTEX_FLOAT_1: return VK_FORMAT_R32_SFLOAT;
    case AGAL_VERTEX_FLOAT_2: return VK_FORMAT_R32G32_SFLOAT;
    case AGAL_VERTEX_FLOAT_3: return VK_FORMAT_R32G32B32_SFLOAT;
    case AGAL_VERTEX_FLOAT_4: return VK_FORMAT_R32G32B32A32_SFLOAT;
    case AGAL_VERTEX_BYTES_4: return VK_FORMAT_R8G8B8A8_UNORM;
    }
    return VK_FORMAT_UNDEFINED;
}

/* Bytes a vertex of that format takes in the buffer. */
static inline uint32_t agal_vk_vertex_format_size(agal_vertex_format f)
{
    return f == AGAL_VERTEX_BYTES_4 ? 4u : 4u * (1u + (uint32_t)f);
}

/* A stream as setVertexBufferAt(index, buffer, bufferOffset, format) sets it. */
typedef struct agal_vk_stream {
    uint32_t stride; /* the buffer's data32PerVertex * 4 */
    uint32_t offset; /* bufferOffset * 4: bytes into each vertex */
    agal_vertex_format format;
    bool per_instance; /* a createVertexBufferForInstances buffer: one element an instance */
} agal_vk_stream;

/* The vertex input state of an upload: for each va<n> the vertex program reads, a
 * binding n and an attribute at location n from streams[n] (n < 16). Returns how
 * many of each, written to bindings and attributes (16 each at most). A stream with
 * instancesPerElement above 1 also needs VK_EXT_vertex_attribute_divisor's divisor. */
static inline uint32_t agal_vk_vertex_input(const agal_upload_result *r, const agal_vk_stream streams[16],
                                            VkVertexInputBindingDescription *bindings,
                                            VkVertexInputAttributeDescription *attributes)
{
    uint32_t n = 0;
    for (size_t i = 0; i < r->nattributes; i++) {
        uint32_t loc = r->attributes[i].location & 15u;
        const agal_vk_stream *s = &streams[loc];
        bindings[n].binding = loc;
        bindings[n].stride = s->stride;
        bindings[n].inputRate = s->per_instance ? VK_VERTEX_INPUT_RATE_INSTANCE : VK_VERTEX_INPUT_RATE_VERTEX;
        attributes[n].location = loc;
        attributes[n].binding = loc;
        attributes[n].format = agal_vk_vertex_format(s->format);
        attributes[n].offset = s->offset;
        n++;
    }
    return n;
}

/* The depth-stencil attachment of configureBackBuffer(..., true) and of
 * setRenderToTexture(..., true): 24-bit depth and 8-bit stencil, as Flash's D3D
 * targets, or where a device lacks it (Vulkan requires one of the two) 32-bit float
 * depth and 8-bit stencil. */
static inline VkFormat agal_vk_depth_stencil_format(bool has_d24s8)
{
    return has_d24s8 ? VK_FORMAT_D24_UNORM_S8_UINT : VK_FORMAT_D32_SFLOAT_S8_UINT;
}

/* The sample count of an antiAlias value (agal_stage3d_samples) on a device that
 * has `supported` (framebufferColorSampleCounts & ...DepthSampleCounts): the
 * smallest it has not below the request, else the largest. */
static inline VkSampleCountFlagBits agal_vk_samples(int anti_alias, VkSampleCountFlags supported)
{
    unsigned want = agal_stage3d_samples(anti_alias), best = 1;
    for (unsigned n = 1; n <= 64; n *= 2) {
        if (!(supported & n)) continue;
        if (n >= want) return (VkSampleCountFlagBits)n;
        best = n;
    }
    return (VkSampleCountFlagBits)best;
}

/* clear(red, green, blue, alpha) as vkCmdClearAttachments takes it, each channel
 * truncated to 8 bits as Flash shows it (agal_stage3d_clear_channel). clear ignores
 * the colour mask and the scissor: clear the whole target. */
static inline VkClearColorValue agal_vk_clear_color(double red, double green, double blue, double alpha)
{
    VkClearColorValue c;
    c.float32[0] = agal_stage3d_clear_channel(red);
    c.float32[1] = agal_stage3d_clear_channel(green);
    c.float32[2] = agal_stage3d_clear_channel(blue);
    c.float32[3] = agal_stage3d_clear_channel(alpha);
    return c;
}

/* setScissorRectangle's clipped rectangle (agal_stage3d_scissor) as a scissor: the
 * back buffer and every render target have their first row at the top. */
static inline VkRect2D agal_vk_scissor(const agal_rect *r)
{
    VkRect2D s;
    s.offset.x = r->x;
    s.offset.y = r->y;
    s.extent.width = r->width;
    s.extent.height = r->height;
    return s;
}

/* A CubeTexture's side (0..5: +x, -x, +y, -y, +z, -z) is the image's array layer. */

/* createTexture's format as the image format its texels upload to: bgra as
 * B8G8R8A8 (BitmapData's ARGB words in memory), the ATF formats as BC1/BC3 (where
 * textureCompressionBC is available), rgbaHalfFloat as RGBA16F. The packed 16-bit
 * formats have no recorded byte layout: VK_FORMAT_UNDEFINED, convert them to bgra. */
static inline VkFormat agal_vk_texture_format(agal_texture_format f)
{
    switch (f) {
    case AGAL_TEXTURE_BGRA: return VK_FORMAT_B8G8R8A8_UNORM;
    case AGAL_TEXTURE_COMPRESSED: return VK_FORMAT_BC1_RGB_UNORM_BLOCK;
    case AGAL_TEXTURE_COMPRESSED_ALPHA: return VK_FORMAT_BC3_UNORM_BLOCK;
    case AGAL_TEXTURE_RGBA_HALF_FLOAT: return VK_FORMAT_R16G16B16A16_SFLOAT;
    case AGAL_TEXTURE_BGRA_PACKED:
    case AGAL_TEXTURE_BGR_PACKED: return VK_FORMAT_UNDEFINED;
    }
    return VK_FORMAT_UNDEFINED;
}

/* ---- a pipeline from its key (agal_pipeline_key, docs/pipeline.md) ----------------- */

/* The pieces of a VkGraphicsPipelineCreateInfo a baked key (agal_pipeline_key_baked
 * with AGAL_DYNAMIC_VULKAN or AGAL_DYNAMIC_VULKAN_EXTENDED) gives. The create
 * infos point into the struct itself: fill it where it stays until the pipeline is
 * created. */
typedef struct agal_vk_pipeline_state {
    VkVertexInputBindingDescription bindings[16];
    VkVertexInputAttributeDescription attributes[16];
    VkVertexInputBindingDivisorDescriptionEXT divisors[16];
    VkPipelineVertexInputDivisorStateCreateInfoEXT divisor_info; /* chained when a divisor is above 1 */
    VkPipelineVertexInputStateCreateInfo vertex_input;
    VkPipelineInputAssemblyStateCreateInfo input_assembly;
    VkPipelineViewportStateCreateInfo viewport;
    VkPipelineRasterizationStateCreateInfo rasterization;
    VkPipelineMultisampleStateCreateInfo multisample;
    VkPipelineDepthStencilStateCreateInfo depth_stencil;
    VkPipelineColorBlendAttachmentState blend[4];
    VkPipelineColorBlendStateCreateInfo color_blend;
    VkDynamicState dynamic[16];
    VkPipelineDynamicStateCreateInfo dynamic_info;
} agal_vk_pipeline_state;

/* The dynamic states of a key's `dynamic` bits, after the viewport and scissor
 * every Stage3D pipeline sets per draw: returns how many, written to out (16 at
 * most). Set their values per draw from the full key (vkCmdSetStencilReference
 * with stencil_ref, ...). */
static inline uint32_t agal_vk_dynamic_states(uint32_t dynamic, VkDynamicState out[16])
{
    uint32_t n = 0;
    out[n++] = VK_DYNAMIC_STATE_VIEWPORT;
    out[n++] = VK_DYNAMIC_STATE_SCISSOR;
    if (dynamic & AGAL_DYNAMIC_STENCIL_REFERENCE) out[n++] = VK_DYNAMIC_STATE_STENCIL_REFERENCE;
    if (dynamic & AGAL_DYNAMIC_STENCIL_MASKS) {
        out[n++] = VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK;
        out[n++] = VK_DYNAMIC_STATE_STENCIL_WRITE_MASK;
    }
    if (dynamic & AGAL_DYNAMIC_CULL) out[n++] = VK_DYNAMIC_STATE_CULL_MODE_EXT;
    if (dynamic & AGAL_DYNAMIC_DEPTH) {
        out[n++] = VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE_EXT;
        out[n++] = VK_DYNAMIC_STATE_DEPTH_COMPARE_OP_EXT;
    }
    if (dynamic & AGAL_DYNAMIC_STENCIL_OPS) out[n++] = VK_DYNAMIC_STATE_STENCIL_OP_EXT;
    if (dynamic & AGAL_DYNAMIC_STRIDE) out[n++] = VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE_EXT;
    return n;
}

/* One binding and one attribute a stream the key reads, at its location: each
 * stream has its own buffer, stride and rate. The attribute's offset is the key's
 * (0 in a key baked with AGAL_DYNAMIC_OFFSETS: bind the buffer at bufferOffset * 4
 * instead, as agalrun replay does). Returns how many divisors above 1
 * (VK_EXT_vertex_attribute_divisor) it wrote. */
static inline uint32_t agal_vk_key_vertex_input(const agal_pipeline_key *k, agal_vk_pipeline_state *p)
{
    uint32_t n = 0, ndiv = 0;
    for (uint32_t loc = 0; loc < 16; loc++) {
        const agal_pipeline_stream *s = &k->streams[loc];
        if (!s->format) continue;
        p->bindings[n].binding = loc;
        p->bindings[n].stride = 4u * s->stride;
        p->bindings[n].inputRate = s->divisor ? VK_VERTEX_INPUT_RATE_INSTANCE : VK_VERTEX_INPUT_RATE_VERTEX;
        p->attributes[n].location = loc;
        p->attributes[n].binding = loc;
        p->attributes[n].format = agal_vk_vertex_format((agal_vertex_format)(s->format - 1));
        p->attributes[n].offset = 4u * s->offset;
        n++;
        if (s->divisor > 1) {
            p->divisors[ndiv].binding = loc;
            p->divisors[ndiv++].divisor = s->divisor;
        }
    }
    p->vertex_input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
    p->vertex_input.vertexBindingDescriptionCount = p->vertex_input.vertexAttributeDescriptionCount = n;
    p->vertex_input.pVertexBindingDescriptions = p->bindings;
    p->vertex_input.pVertexAttributeDescriptions = p->attributes;
    p->divisor_info.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT;
    p->divisor_info.vertexBindingDivisorCount = ndiv;
    p->divisor_info.pVertexBindingDivisors = p->divisors;
    if (ndiv) p->vertex_input.pNext = &p->divisor_info;
    return ndiv;
}

/* Depth and stencil: tested whenever the target has a depth-stencil buffer (the
 * defaults, lessEqual with the mask on and always/keep, change nothing drawn
 * before a clear). */
static inline void agal_vk_key_depth_stencil(const agal_pipeline_key *k, agal_vk_pipeline_state *p)
{
    VkStencilOpState faces[2];
    agal_vk_stencil_faces((agal_triangle_face)k->stencil_face, (agal_compare_mode)k->stencil_compare,
                          (agal_stencil_action)k->stencil_both_pass, (agal_stencil_action)k->stencil_depth_fail,
                          (agal_stencil_action)k->stencil_fail, k->stencil_ref, k->stencil_read, k->stencil_write,
                          faces);
    p->depth_stencil.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
    p->depth_stencil.depthTestEnable = p->depth_stencil.stencilTestEnable = k->depth_stencil ? VK_TRUE : VK_FALSE;
    p->depth_stencil.depthWriteEnable = k->depth_mask ? VK_TRUE : VK_FALSE;
    p->depth_stencil.depthCompareOp = agal_vk_compare_op((agal_compare_mode)k->depth_compare);
    if (k->depth_stencil) {
        p->depth_stencil.front = faces[0];
        p->depth_stencil.back = faces[1];
    }
}

/* Every piece from the baked key k; samples is the count the device gives the
 * target's (agal_vk_samples). */
static inline void agal_vk_pipeline_state_fill(agal_vk_pipeline_state *p, const agal_pipeline_key *k,
                                               VkSampleCountFlagBits samples)
{
    memset(p, 0, sizeof *p);
    agal_vk_key_vertex_input(k, p);
    p->input_assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
    p->input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    p->viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
    p->viewport.viewportCount = p->viewport.scissorCount = 1;
    p->rasterization.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
    p->rasterization.polygonMode = VK_POLYGON_MODE_FILL;
    p->rasterization.cullMode = agal_vk_cull_mode((agal_triangle_face)k->cull);
    p->rasterization.frontFace = AGAL_VK_FRONT_FACE;
    p->rasterization.lineWidth = 1.0f;
    p->multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
    p->multisample.rasterizationSamples = samples;
    agal_vk_key_depth_stencil(k, p);
    uint32_t ncolor = 0;
    while (ncolor < 4 && k->colors[ncolor]) ncolor++;
    for (uint32_t i = 0; i < ncolor; i++)
        p->blend[i] = agal_vk_blend((agal_blend_factor)k->blend_src, (agal_blend_factor)k->blend_dst, k->color_mask & 1,
                                    k->color_mask >> 1 & 1, k->color_mask >> 2 & 1, k->color_mask >> 3 & 1);
    p->color_blend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
    p->color_blend.attachmentCount = ncolor;
    p->color_blend.pAttachments = p->blend;
    p->dynamic_info.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
    p->dynamic_info.dynamicStateCount = agal_vk_dynamic_states(k->dynamic, p->dynamic);
    p->dynamic_info.pDynamicStates = p->dynamic;
}

/* The create info of p's pieces with the program's two stages, its layout and a
 * render pass compatible with the key's target. */
static inline VkGraphicsPipelineCreateInfo agal_vk_pipeline_info(const agal_vk_pipeline_state *p,
                                                                 const VkPipelineShaderStageCreateInfo stages[2],
                                                                 VkPipelineLayout layout, VkRenderPass pass)
{
    VkGraphicsPipelineCreateInfo ci;
    memset(&ci, 0, sizeof ci);
    ci.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
    ci.stageCount = 2;
    ci.pStages = stages;
    ci.pVertexInputState = &p->vertex_input;
    ci.pInputAssemblyState = &p->input_assembly;
    ci.pViewportState = &p->viewport;
    ci.pRasterizationState = &p->rasterization;
    ci.pMultisampleState = &p->multisample;
    ci.pDepthStencilState = &p->depth_stencil;
    ci.pColorBlendState = &p->color_blend;
    ci.pDynamicState = &p->dynamic_info;
    ci.layout = layout;
    ci.renderPass = pass;
    return ci;
}

#endif
