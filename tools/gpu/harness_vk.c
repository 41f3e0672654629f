/* harness_vk.c: run one draw of SPIR-V shaders offscreen on a Vulkan device and read
 * back every output (see harness.h). Deliberately plain: everything a draw needs is
 * created, used once and destroyed, so a failing draw cannot poison the next one.
 *
 * Instance and device are Vulkan 1.1 (vkGetPhysicalDeviceFeatures2 to enable the
 * transformFeedback feature of VK_EXT_transform_feedback); the shaders are SPIR-V 1.0
 * as the emitter writes them. Any device works: lavapipe in CI (select it with
 * VK_DRIVER_FILES), the real driver on a machine with a GPU. Samplers, descriptor
 * layouts, culling and front face come from <agal/vulkan.h>, as an emulator's do.
 */
#include "agal/stage3d.h"
#include "harness.h"
#include "vk_device.h"

#include "agal/vulkan.h"

#include <spirv/unified1/spirv.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct harness_vk {
    vk_device vk;
    bool has_xfb;
    bool has_nonsemantic; /* SPV_KHR_non_semantic_info may be drawn */
    PFN_vkCmdBindTransformFeedbackBuffersEXT bind_xfb;
    PFN_vkCmdBeginTransformFeedbackEXT begin_xfb;
    PFN_vkCmdEndTransformFeedbackEXT end_xfb;
};

static void set_err(char *err, size_t n, const char *what, VkResult r)
{
    if (err && n) snprintf(err, n, "vulkan: %s failed (VkResult %d)", what, (int)r);
}

#define VK_TRY(call, what) \
    do { \
        VkResult vr_ = (call); \
        if (vr_ != VK_SUCCESS) { \
            set_err(err, errsize, what, vr_); \
            goto fail; \
        } \
    } while (0)

/* ---- instance, device ---------------------------------------------------- */

/* Transform feedback where the device has it (the capture draws), and for a
 * nonsemantic harness VK_KHR_shader_non_semantic_info where the device lists it
 * (else it is Vulkan 1.3's core), nothing else, so validation sees the same device
 * everywhere. */
static int create_device(harness_vk *h, bool nonsemantic, char *err, size_t errsize)
{
    VkPhysicalDeviceTransformFeedbackFeaturesEXT xfbf = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT};
    h->has_xfb = vk_device_has_extension(h->vk.phys, VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME);
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                    .pNext = h->has_xfb ? &xfbf : NULL};
    vkGetPhysicalDeviceFeatures2(h->vk.phys, &f2);
    h->has_xfb = h->has_xfb && xfbf.transformFeedback;
    VkPhysicalDeviceTransformFeedbackFeaturesEXT want_xfb = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT, .transformFeedback = VK_TRUE};
    VkPhysicalDeviceFeatures want = {0};
    const char *ext[2];
    uint32_t next = 0;
    if (h->has_xfb) ext[next++] = VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME;
    bool listed = nonsemantic && vk_device_has_extension(h->vk.phys, VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME);
    if (listed) ext[next++] = VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME;
    h->has_nonsemantic = listed || (nonsemantic && h->vk.props.apiVersion >= VK_API_VERSION_1_3);
    if (vk_device_create(&h->vk, ext, next, h->has_xfb ? &want_xfb : NULL, &want, err, errsize)) return -1;
    if (h->has_xfb) {
        h->bind_xfb = (PFN_vkCmdBindTransformFeedbackBuffersEXT)vkGetDeviceProcAddr(
            h->vk.dev, "vkCmdBindTransformFeedbackBuffersEXT");
        h->begin_xfb =
            (PFN_vkCmdBeginTransformFeedbackEXT)vkGetDeviceProcAddr(h->vk.dev, "vkCmdBeginTransformFeedbackEXT");
        h->end_xfb = (PFN_vkCmdEndTransformFeedbackEXT)vkGetDeviceProcAddr(h->vk.dev, "vkCmdEndTransformFeedbackEXT");
        h->has_xfb = h->bind_xfb && h->begin_xfb && h->end_xfb;
    }
    return 0;
}

static harness_vk *create(bool validation, bool nonsemantic, char *err, size_t errsize)
{
    harness_vk *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    /* A device with transform feedback wins (the capture draws need it). */
    vk_device_options o = {.app_name = "agal2spv harness",
                           .validation = validation,
                           .performance_messages = true,
                           .api_version = nonsemantic ? VK_API_VERSION_1_3 : 0};
    if (vk_device_pick(&h->vk, &o, VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME, err, errsize) ||
        create_device(h, nonsemantic, err, errsize)) {
        harness_vk_destroy(h);
        return NULL;
    }
    harness_pin_libraries();
    return h;
}

harness_vk *harness_vk_create(bool validation, char *err, size_t errsize)
{
    return create(validation, false, err, errsize);
}

harness_vk *harness_vk_create_nonsemantic(bool validation, char *err, size_t errsize)
{
    harness_vk *h = create(validation, true, err, errsize);
    if (h && !h->has_nonsemantic) {
        snprintf(err, errsize, "vulkan: %s has neither VK_KHR_shader_non_semantic_info nor Vulkan 1.3",
                 h->vk.props.deviceName);
        harness_vk_destroy(h);
        return NULL;
    }
    return h;
}

unsigned harness_vk_destroy(harness_vk *h)
{
    if (!h) return 0;
    unsigned n = vk_device_close(&h->vk);
    free(h);
    return n;
}

unsigned harness_vk_messages(const harness_vk *h) { return h->vk.messages; }
const char *harness_vk_device_name(const harness_vk *h) { return h->vk.props.deviceName; }

/* ---- per-draw objects ------------------------------------------------------ */

typedef struct vk_buf {
    VkBuffer buf;
    VkDeviceMemory mem;
    VkDeviceSize size;
} vk_buf;

typedef struct vk_img {
    VkImage img;
    VkDeviceMemory mem;
    VkImageView view;
} vk_img;

/* Everything one draw creates, destroyed together by draw_free. */
typedef struct vk_draw {
    const harness_draw *d;
    bool to_texture;           /* a pre pass: oc0 is sampled by the next draw, not read back */
    const struct vk_draw *pre; /* the pre pass whose oc0 the `rendered` textures sample */
    uint32_t inputs;           /* the given attributes the vertex shader declares (vertex_inputs) */
    vk_buf attr[HARNESS_MAX_ATTRIBS], ubo[2], xfb, staging[HARNESS_MAX_TEXTURES];
    vk_buf readback[HARNESS_MAX_OUTPUTS + 1];
    vk_img tex[HARNESS_MAX_TEXTURES], att[HARNESS_MAX_OUTPUTS + 1];
    VkSampler sampler[HARNESS_MAX_TEXTURES];
    VkShaderModule vs, fs;
    VkDescriptorSetLayout dsl;
    VkDescriptorPool dpool;
    VkDescriptorSet set;
    VkPipelineLayout layout;
    VkRenderPass pass;
    VkFramebuffer fb;
    VkPipeline pipe;
    VkCommandBuffer cmd;
    VkFence fence;
    double compile_s; /* setup_pipeline's shader modules and pipeline */
} vk_draw;

/* A host-visible coherent buffer, filled from data when data is not NULL (zeroed
 * otherwise). All the harness's buffers are small; device-local copies buy nothing. */
static VkResult make_buffer(harness_vk *h, vk_buf *b, VkDeviceSize size, VkBufferUsageFlags usage, const void *data,
                            size_t data_size)
{
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = size ? size : 16,
                             .usage = usage,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    VkResult r = vkCreateBuffer(h->vk.dev, &bi, NULL, &b->buf);
    if (r != VK_SUCCESS) return r;
    b->size = bi.size;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(h->vk.dev, b->buf, &req);
    r = vk_device_alloc(&h->vk, req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                        &b->mem);
    if (r != VK_SUCCESS) return r;
    r = vkBindBufferMemory(h->vk.dev, b->buf, b->mem, 0);
    if (r != VK_SUCCESS) return r;
    void *p;
    r = vkMapMemory(h->vk.dev, b->mem, 0, VK_WHOLE_SIZE, 0, &p);
    if (r != VK_SUCCESS) return r;
    memset(p, 0, (size_t)b->size);
    if (data) memcpy(p, data, data_size);
    vkUnmapMemory(h->vk.dev, b->mem);
    return VK_SUCCESS;
}

static VkResult read_buffer(harness_vk *h, const vk_buf *b, void *out, size_t size)
{
    void *p;
    VkResult r = vkMapMemory(h->vk.dev, b->mem, 0, VK_WHOLE_SIZE, 0, &p);
    if (r == VK_SUCCESS) {
        memcpy(out, p, size);
        vkUnmapMemory(h->vk.dev, b->mem);
    }
    return r;
}

static VkResult make_image(harness_vk *h, vk_img *im, VkFormat fmt, unsigned w, unsigned hgt, unsigned levels,
                           bool cube, VkImageUsageFlags usage, VkImageAspectFlags aspect)
{
    VkImageCreateInfo ii = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                            .flags = cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0,
                            .imageType = VK_IMAGE_TYPE_2D,
                            .format = fmt,
                            .extent = {w, hgt, 1},
                            .mipLevels = levels,
                            .arrayLayers = cube ? 6 : 1,
                            .samples = VK_SAMPLE_COUNT_1_BIT,
                            .tiling = VK_IMAGE_TILING_OPTIMAL,
                            .usage = usage,
                            .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
                            .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
    VkResult r = vkCreateImage(h->vk.dev, &ii, NULL, &im->img);
    if (r != VK_SUCCESS) return r;
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(h->vk.dev, im->img, &req);
    r = vk_device_alloc(&h->vk, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &im->mem);
    if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY) /* some drivers: no device-local type fits */
        r = vk_device_alloc(&h->vk, req, 0, &im->mem);
    if (r != VK_SUCCESS) return r;
    r = vkBindImageMemory(h->vk.dev, im->img, im->mem, 0);
    if (r != VK_SUCCESS) return r;
    VkImageViewCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                .image = im->img,
                                .viewType = cube ? VK_IMAGE_VIEW_TYPE_CUBE : VK_IMAGE_VIEW_TYPE_2D,
                                .format = fmt,
                                .subresourceRange = {aspect, 0, levels, 0, cube ? 6 : 1}};
    return vkCreateImageView(h->vk.dev, &vi, NULL, &im->view);
}

static void free_buf(harness_vk *h, vk_buf *b)
{
    if (b->buf) vkDestroyBuffer(h->vk.dev, b->buf, NULL);
    if (b->mem) vkFreeMemory(h->vk.dev, b->mem, NULL);
}

static void free_img(harness_vk *h, vk_img *im)
{
    if (im->view) vkDestroyImageView(h->vk.dev, im->view, NULL);
    if (im->img) vkDestroyImage(h->vk.dev, im->img, NULL);
    if (im->mem) vkFreeMemory(h->vk.dev, im->mem, NULL);
}

static void draw_free(harness_vk *h, vk_draw *v)
{
    VkDevice d = h->vk.dev;
    for (int i = 0; i < HARNESS_MAX_ATTRIBS; i++) free_buf(h, &v->attr[i]);
    for (int i = 0; i < HARNESS_MAX_TEXTURES; i++) {
        free_buf(h, &v->staging[i]);
        free_img(h, &v->tex[i]);
        if (v->sampler[i]) vkDestroySampler(d, v->sampler[i], NULL);
    }
    for (int i = 0; i < HARNESS_MAX_OUTPUTS + 1; i++) {
        free_buf(h, &v->readback[i]);
        free_img(h, &v->att[i]);
    }
    free_buf(h, &v->ubo[0]);
    free_buf(h, &v->ubo[1]);
    free_buf(h, &v->xfb);
    if (v->pipe) vkDestroyPipeline(d, v->pipe, NULL);
    if (v->fb) vkDestroyFramebuffer(d, v->fb, NULL);
    if (v->pass) vkDestroyRenderPass(d, v->pass, NULL);
    if (v->layout) vkDestroyPipelineLayout(d, v->layout, NULL);
    if (v->dpool) vkDestroyDescriptorPool(d, v->dpool, NULL);
    if (v->dsl) vkDestroyDescriptorSetLayout(d, v->dsl, NULL);
    if (v->vs) vkDestroyShaderModule(d, v->vs, NULL);
    if (v->fs) vkDestroyShaderModule(d, v->fs, NULL);
    if (v->cmd) vkFreeCommandBuffers(d, h->vk.pool, 1, &v->cmd);
    if (v->fence) vkDestroyFence(d, v->fence, NULL);
}

/* ---- textures and samplers -------------------------------------------------- */

/* The resolved state of the texture's slot as <agal/vulkan.h> maps it. Anisotropic
 * filters filter linearly here: the device's anisotropy is not enabled (nor required
 * of a device) and the reference interpreter does not model it. */
static VkResult make_sampler(harness_vk *h, const harness_texture *t, VkSampler *out)
{
    VkSamplerCreateInfo si = agal_vk_sampler_info(&t->sampler, 0.0f);
    return vkCreateSampler(h->vk.dev, &si, NULL, out);
}

static void image_barrier(VkCommandBuffer cmd, VkImage img, VkImageAspectFlags aspect, unsigned levels, unsigned layers,
                          VkImageLayout from, VkImageLayout to, VkAccessFlags src, VkAccessFlags dst,
                          VkPipelineStageFlags sstage, VkPipelineStageFlags dstage)
{
    VkImageMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                              .srcAccessMask = src,
                              .dstAccessMask = dst,
                              .oldLayout = from,
                              .newLayout = to,
                              .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                              .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                              .image = img,
                              .subresourceRange = {aspect, 0, levels, 0, layers}};
    vkCmdPipelineBarrier(cmd, sstage, dstage, 0, 0, NULL, 0, NULL, 1, &b);
}

/* Texture i's sampler, and the upload of its texels (staging buffer -> every face
 * and level) unless it is rendered by the pre pass. */
static int setup_texture(harness_vk *h, vk_draw *v, const harness_texture *t, int i, char *err, size_t errsize)
{
    VkFormatProperties fp;
    vkGetPhysicalDeviceFormatProperties(h->vk.phys, VK_FORMAT_R32G32B32A32_SFLOAT, &fp);
    if (t->sampler.filter != AGAL_FILTER_NEAREST &&
        !(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT)) {
        snprintf(err, errsize, "vulkan: the device cannot filter RGBA32F linearly");
        return -1;
    }
    VK_TRY(make_sampler(h, t, &v->sampler[i]), "vkCreateSampler");
    if (t->rendered) /* the pre pass's oc0: SHADER_READ_ONLY_OPTIMAL when its pass ends */
        return 0;
    size_t bytes = harness_texture_floats(t) * sizeof(float);
    unsigned layers = t->cube ? 6 : 1;
    VK_TRY(make_buffer(h, &v->staging[i], bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, t->texels, bytes),
           "texture staging buffer");
    VK_TRY(make_image(h, &v->tex[i], VK_FORMAT_R32G32B32A32_SFLOAT, t->size, t->size, t->levels, t->cube,
                      VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_IMAGE_ASPECT_COLOR_BIT),
           "texture image");
    image_barrier(v->cmd, v->tex[i].img, VK_IMAGE_ASPECT_COLOR_BIT, t->levels, layers, VK_IMAGE_LAYOUT_UNDEFINED,
                  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    VkBufferImageCopy regions[6 * 16];
    unsigned n = 0;
    for (unsigned f = 0; f < layers; f++)
        for (unsigned l = 0; l < t->levels && l < 16; l++) {
            unsigned s = t->size >> l;
            regions[n++] = (VkBufferImageCopy){.bufferOffset = harness_texture_offset(t, f, l) * sizeof(float),
                                               .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, f, 1},
                                               .imageExtent = {s, s, 1}};
        }
    vkCmdCopyBufferToImage(v->cmd, v->staging[i].buf, v->tex[i].img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, n, regions);
    image_barrier(v->cmd, v->tex[i].img, VK_IMAGE_ASPECT_COLOR_BIT, t->levels, layers,
                  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                  VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                  VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT);
    return 0;
fail:
    return -1;
}

/* ---- descriptors ------------------------------------------------------------ */

/* The image view texture n is sampled through: its own, or the pre pass's oc0. */
static VkImageView texture_view(const vk_draw *v, unsigned n)
{
    return v->d->tex[n].rendered ? v->pre->att[0].view : v->tex[n].view;
}

/* Pool sizes for the layout's bindings: one a descriptor type they use. */
/* Set 0 as the layout says (agal_vk_layout_bindings): the constant blocks, and each
 * sampler as a combined image sampler or as an image and a sampler. */
static int setup_descriptors(harness_vk *h, vk_draw *v, const harness_draw *d, char *err, size_t errsize)
{
    harness_layout own;
    const agal_upload_result *L = harness_layout_of(d, &own);
    VkDescriptorSetLayoutBinding b[AGAL_VK_MAX_BINDINGS];
    uint32_t nb = agal_vk_layout_bindings(L, b, AGAL_VK_MAX_BINDINGS);
    VkDescriptorSetLayoutCreateInfo li = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = nb, .pBindings = b};
    VK_TRY(vkCreateDescriptorSetLayout(h->vk.dev, &li, NULL, &v->dsl), "vkCreateDescriptorSetLayout");
    VkDescriptorPoolSize ps[3];
    VkDescriptorPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .maxSets = 1,
                                     .poolSizeCount = agal_vk_pool_sizes(L, ps),
                                     .pPoolSizes = ps};
    VK_TRY(vkCreateDescriptorPool(h->vk.dev, &pi, NULL, &v->dpool), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = v->dpool,
                                      .descriptorSetCount = 1,
                                      .pSetLayouts = &v->dsl};
    VK_TRY(vkAllocateDescriptorSets(h->vk.dev, &ai, &v->set), "vkAllocateDescriptorSets");

    VkDescriptorBufferInfo bufs[2] = {{0}}; /* [AGAL_VERTEX]: vc, [AGAL_FRAGMENT]: fc */
    VkDescriptorImageInfo imgs[16] = {{0}};
    VkWriteDescriptorSet w[AGAL_VK_MAX_BINDINGS];
    for (size_t i = 0; i < L->nblocks; i++) {
        float scratch[HARNESS_MAX_CONSTANTS][4];
        unsigned n;
        const float *data = harness_constants(d, L->blocks[i].stage, scratch, &n);
        size_t bytes = (size_t)n * 16;
        VK_TRY(make_buffer(h, &v->ubo[i], bytes, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, data, data ? bytes : 0),
               "uniform buffer");
        bufs[L->blocks[i].stage] = (VkDescriptorBufferInfo){v->ubo[i].buf, 0, VK_WHOLE_SIZE};
    }
    for (size_t i = 0; i < L->nsamplers; i++) {
        unsigned n = L->samplers[i].num;
        if (setup_texture(h, v, &d->tex[n], (int)n, err, errsize)) return -1;
        imgs[n & 15] =
            (VkDescriptorImageInfo){v->sampler[n], texture_view(v, n), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    }
    uint32_t nw = agal_vk_descriptor_writes(L, v->set, bufs, imgs, w);
    vkUpdateDescriptorSets(h->vk.dev, nw, w, 0, NULL);
    VkPipelineLayoutCreateInfo pli = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1, .pSetLayouts = &v->dsl};
    VK_TRY(vkCreatePipelineLayout(h->vk.dev, &pli, NULL, &v->layout), "vkCreatePipelineLayout");
    return 0;
fail:
    return -1;
}

/* ---- render pass, pipeline ---------------------------------------------------- */

static bool drawing(const harness_draw *d) { return d->fs_spirv != NULL; }

static int setup_targets(harness_vk *h, vk_draw *v, const harness_draw *d, char *err, size_t errsize)
{
    VkAttachmentDescription ad[HARNESS_MAX_OUTPUTS + 1];
    VkAttachmentReference cref[HARNESS_MAX_OUTPUTS], dref;
    VkImageView views[HARNESS_MAX_OUTPUTS + 1];
    uint32_t na = 0, noc = drawing(d) ? d->noc : 0;
    /* A pre pass's oc0 ends the pass ready to be sampled by the next draw. */
    VkImageUsageFlags use = v->to_texture ? VK_IMAGE_USAGE_SAMPLED_BIT : VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    VkImageLayout final = v->to_texture ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL
                                        : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    for (uint32_t i = 0; i < noc; i++) {
        VK_TRY(make_image(h, &v->att[i], VK_FORMAT_R32G32B32A32_SFLOAT, d->width, d->height, 1, false,
                          VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | use, VK_IMAGE_ASPECT_COLOR_BIT),
               "colour attachment");
        ad[na] = (VkAttachmentDescription){0,
                                           VK_FORMAT_R32G32B32A32_SFLOAT,
                                           VK_SAMPLE_COUNT_1_BIT,
                                           VK_ATTACHMENT_LOAD_OP_CLEAR,
                                           VK_ATTACHMENT_STORE_OP_STORE,
                                           VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                           VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                           VK_IMAGE_LAYOUT_UNDEFINED,
                                           final};
        cref[i] = (VkAttachmentReference){na, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
        views[na++] = v->att[i].view;
    }
    if (drawing(d)) {
        VK_TRY(make_image(h, &v->att[HARNESS_MAX_OUTPUTS], VK_FORMAT_D32_SFLOAT, d->width, d->height, 1, false,
                          VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                          VK_IMAGE_ASPECT_DEPTH_BIT),
               "depth attachment");
        ad[na] = (VkAttachmentDescription){0,
                                           VK_FORMAT_D32_SFLOAT,
                                           VK_SAMPLE_COUNT_1_BIT,
                                           VK_ATTACHMENT_LOAD_OP_CLEAR,
                                           VK_ATTACHMENT_STORE_OP_STORE,
                                           VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                           VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                           VK_IMAGE_LAYOUT_UNDEFINED,
                                           VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
        dref = (VkAttachmentReference){na, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
        views[na++] = v->att[HARNESS_MAX_OUTPUTS].view;
    }
    VkSubpassDescription sub = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                                .colorAttachmentCount = noc,
                                .pColorAttachments = cref,
                                .pDepthStencilAttachment = drawing(d) ? &dref : NULL};
    /* Attachment writes must be visible to the copies recorded after the pass, or
     * for a pre pass to the next draw's fragment shader. */
    VkSubpassDependency dep = {0,
                               VK_SUBPASS_EXTERNAL,
                               VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                                   VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
                               v->to_texture ? VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT : VK_PIPELINE_STAGE_TRANSFER_BIT,
                               VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                               v->to_texture ? VK_ACCESS_SHADER_READ_BIT : VK_ACCESS_TRANSFER_READ_BIT,
                               0};
    VkRenderPassCreateInfo rpi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                  .attachmentCount = na,
                                  .pAttachments = ad,
                                  .subpassCount = 1,
                                  .pSubpasses = &sub,
                                  .dependencyCount = 1,
                                  .pDependencies = &dep};
    VK_TRY(vkCreateRenderPass(h->vk.dev, &rpi, NULL, &v->pass), "vkCreateRenderPass");
    VkFramebufferCreateInfo fbi = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
                                   .renderPass = v->pass,
                                   .attachmentCount = na,
                                   .pAttachments = views,
                                   .width = d->width ? d->width : 1,
                                   .height = d->height ? d->height : 1,
                                   .layers = 1};
    VK_TRY(vkCreateFramebuffer(h->vk.dev, &fbi, NULL, &v->fb), "vkCreateFramebuffer");
    return 0;
fail:
    return -1;
}

static VkResult make_module(harness_vk *h, const uint32_t *words, size_t n, VkShaderModule *out)
{
    VkShaderModuleCreateInfo mi = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = n * 4, .pCode = words};
    return vkCreateShaderModule(h->vk.dev, &mi, NULL, out);
}

static int setup_pipeline(harness_vk *h, vk_draw *v, const harness_draw *d, char *err, size_t errsize)
{
    VkPipelineShaderStageCreateInfo st[2] = {{.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                              .stage = VK_SHADER_STAGE_VERTEX_BIT,
                                              .pName = "main"},
                                             {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                              .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
                                              .pName = "main"}};
    double t0 = tool_seconds();
    VK_TRY(make_module(h, d->vs_spirv, d->vs_words, &v->vs), "vertex vkCreateShaderModule");
    st[0].module = v->vs;
    if (drawing(d)) {
        VK_TRY(make_module(h, d->fs_spirv, d->fs_words, &v->fs), "fragment vkCreateShaderModule");
        st[1].module = v->fs;
    }
    VkVertexInputBindingDescription vb[HARNESS_MAX_ATTRIBS];
    VkVertexInputAttributeDescription va[HARNESS_MAX_ATTRIBS];
    uint32_t nva = 0;
    for (uint32_t i = 0; i < HARNESS_MAX_ATTRIBS; i++)
        if (v->inputs >> i & 1) {
            vb[nva] = (VkVertexInputBindingDescription){i, 16, VK_VERTEX_INPUT_RATE_VERTEX};
            va[nva] = (VkVertexInputAttributeDescription){i, i, VK_FORMAT_R32G32B32A32_SFLOAT, 0};
            nva++;
        }
    VkPipelineVertexInputStateCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
                                               .vertexBindingDescriptionCount = nva,
                                               .pVertexBindingDescriptions = vb,
                                               .vertexAttributeDescriptionCount = nva,
                                               .pVertexAttributeDescriptions = va};
    VkPipelineInputAssemblyStateCreateInfo ia = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
                                                 .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
    VkViewport vp = {0, 0, (float)d->width, (float)d->height, 0.0f, 1.0f};
    VkRect2D sc = {{0, 0}, {d->width, d->height}};
    VkPipelineViewportStateCreateInfo vps = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
                                             .viewportCount = 1,
                                             .pViewports = &vp,
                                             .scissorCount = 1,
                                             .pScissors = &sc};
    VkPipelineRasterizationStateCreateInfo rs = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
                                                 .rasterizerDiscardEnable = !drawing(d),
                                                 .polygonMode = VK_POLYGON_MODE_FILL,
                                                 .cullMode = agal_vk_cull_mode(d->cull),
                                                 .frontFace = AGAL_VK_FRONT_FACE,
                                                 .lineWidth = 1.0f};
    VkPipelineMultisampleStateCreateInfo ms = {.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
                                               .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
    VkPipelineDepthStencilStateCreateInfo ds = {.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
                                                .depthTestEnable = VK_TRUE,
                                                .depthWriteEnable = VK_TRUE,
                                                .depthCompareOp = d->depth_less ? VK_COMPARE_OP_LESS
                                                                                : VK_COMPARE_OP_ALWAYS};
    VkPipelineColorBlendAttachmentState cba[HARNESS_MAX_OUTPUTS];
    for (int i = 0; i < HARNESS_MAX_OUTPUTS; i++) cba[i] = (VkPipelineColorBlendAttachmentState){.colorWriteMask = 0xf};
    VkPipelineColorBlendStateCreateInfo cb = {.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
                                              .attachmentCount = d->noc,
                                              .pAttachments = cba};
    VkGraphicsPipelineCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
                                       .stageCount = drawing(d) ? 2 : 1,
                                       .pStages = st,
                                       .pVertexInputState = &vi,
                                       .pInputAssemblyState = &ia,
                                       .pRasterizationState = &rs,
                                       .layout = v->layout,
                                       .renderPass = v->pass,
                                       .subpass = 0};
    if (drawing(d)) {
        pi.pViewportState = &vps;
        pi.pMultisampleState = &ms;
        pi.pDepthStencilState = &ds;
        pi.pColorBlendState = &cb;
    }
    VK_TRY(vkCreateGraphicsPipelines(h->vk.dev, VK_NULL_HANDLE, 1, &pi, NULL, &v->pipe), "vkCreateGraphicsPipelines");
    v->compile_s = tool_seconds() - t0; /* the state structs above cost nothing next to it */
    return 0;
fail:
    return -1;
}

/* ---- recording and readback --------------------------------------------------- */

static size_t xfb_floats(const harness_draw *d) { return (size_t)d->nverts * d->ninstances * (1 + d->ncapture) * 4; }

static int setup_buffers(harness_vk *h, vk_draw *v, const harness_draw *d, char *err, size_t errsize)
{
    for (int i = 0; i < HARNESS_MAX_ATTRIBS; i++)
        if (v->inputs >> i & 1)
            VK_TRY(make_buffer(h, &v->attr[i], (VkDeviceSize)d->nverts * 16, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                               d->attribs[i], (size_t)d->nverts * 16),
                   "vertex buffer");
    if (d->capture)
        VK_TRY(make_buffer(h, &v->xfb, xfb_floats(d) * 4, VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT, NULL, 0),
               "transform feedback buffer");
    size_t pixels = (size_t)d->width * d->height;
    if (drawing(d) && !v->to_texture) {
        for (unsigned i = 0; i < d->noc; i++)
            VK_TRY(make_buffer(h, &v->readback[i], pixels * 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL, 0),
                   "readback buffer");
        VK_TRY(make_buffer(h, &v->readback[HARNESS_MAX_OUTPUTS], pixels * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL, 0),
               "depth readback buffer");
    }
    return 0;
fail:
    return -1;
}

static void record_pass(harness_vk *h, vk_draw *v, const harness_draw *d)
{
    VkClearValue clear[HARNESS_MAX_OUTPUTS + 1];
    uint32_t nclear = 0;
    if (drawing(d)) {
        for (unsigned i = 0; i < d->noc; i++)
            clear[nclear++].color = (VkClearColorValue){{HARNESS_CLEAR, HARNESS_CLEAR, HARNESS_CLEAR, HARNESS_CLEAR}};
        clear[nclear++].depthStencil = (VkClearDepthStencilValue){1.0f, 0};
    }
    VkRenderPassBeginInfo rb = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                .renderPass = v->pass,
                                .framebuffer = v->fb,
                                .renderArea = {{0, 0}, {d->width ? d->width : 1, d->height ? d->height : 1}},
                                .clearValueCount = nclear,
                                .pClearValues = clear};
    vkCmdBeginRenderPass(v->cmd, &rb, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(v->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, v->pipe);
    vkCmdBindDescriptorSets(v->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, v->layout, 0, 1, &v->set, 0, NULL);
    for (uint32_t i = 0; i < HARNESS_MAX_ATTRIBS; i++)
        if (v->inputs >> i & 1) {
            VkDeviceSize off = 0;
            vkCmdBindVertexBuffers(v->cmd, i, 1, &v->attr[i].buf, &off);
        }
    if (d->capture) {
        VkDeviceSize off = 0, size = v->xfb.size;
        h->bind_xfb(v->cmd, 0, 1, &v->xfb.buf, &off, &size);
        h->begin_xfb(v->cmd, 0, 0, NULL, NULL);
    }
    vkCmdDraw(v->cmd, d->nverts, d->ninstances, 0, 0);
    if (d->capture) h->end_xfb(v->cmd, 0, 0, NULL, NULL);
    vkCmdEndRenderPass(v->cmd);
}

static void record_readback(vk_draw *v, const harness_draw *d)
{
    VkBufferImageCopy r = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                           .imageExtent = {d->width, d->height, 1}};
    if (drawing(d)) {
        for (unsigned i = 0; i < d->noc; i++)
            vkCmdCopyImageToBuffer(v->cmd, v->att[i].img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, v->readback[i].buf, 1,
                                   &r);
        r.imageSubresource.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT;
        vkCmdCopyImageToBuffer(v->cmd, v->att[HARNESS_MAX_OUTPUTS].img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                               v->readback[HARNESS_MAX_OUTPUTS].buf, 1, &r);
    }
    /* Transform feedback writes and copies become visible to the host after the fence. */
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                          .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT |
                                           (d->capture ? VK_ACCESS_TRANSFORM_FEEDBACK_WRITE_BIT_EXT : 0),
                          .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(
        v->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | (d->capture ? VK_PIPELINE_STAGE_TRANSFORM_FEEDBACK_BIT_EXT : 0),
        VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
}

static int collect(harness_vk *h, vk_draw *v, const harness_draw *d, harness_result *out, char *err, size_t errsize)
{
    size_t pixels = (size_t)d->width * d->height;
    if (drawing(d)) {
        for (unsigned i = 0; i < d->noc; i++) {
            out->color[i] = malloc(pixels * 16);
            if (!out->color[i]) goto nomem;
            VK_TRY(read_buffer(h, &v->readback[i], out->color[i], pixels * 16), "vkMapMemory");
        }
        out->depth = malloc(pixels * 4);
        if (!out->depth) goto nomem;
        VK_TRY(read_buffer(h, &v->readback[HARNESS_MAX_OUTPUTS], out->depth, pixels * 4), "vkMapMemory");
    }
    if (d->capture) {
        out->xfb_floats = xfb_floats(d);
        out->xfb = malloc(out->xfb_floats * 4);
        if (!out->xfb) goto nomem;
        VK_TRY(read_buffer(h, &v->xfb, out->xfb, out->xfb_floats * 4), "vkMapMemory");
    }
    return 0;
nomem:
    snprintf(err, errsize, "out of memory");
fail:
    return -1;
}

static int check_draw(const harness_vk *h, const harness_draw *d, char *err, size_t errsize)
{
    if (harness_check_draw(d, false, err, errsize)) return -1;
    if (d->capture && !h->has_xfb) {
        snprintf(err, errsize, "vulkan: the device has no transform feedback");
        return -1;
    }
    return 0;
}

/* The vertex input locations a SPIR-V module declares: its Input variables'
 * Location decorations (built-ins have none; decorations precede variables). */
static uint32_t vertex_inputs(const uint32_t *w, size_t n)
{
    uint32_t ids[64], locs[64], nloc = 0, mask = 0;
    for (size_t i = 5; i < n && w[i] >> 16; i += w[i] >> 16) {
        unsigned op = w[i] & 0xffff, len = w[i] >> 16;
        if (op == SpvOpDecorate && len >= 4 && i + 3 < n && w[i + 2] == SpvDecorationLocation && nloc < 64) {
            ids[nloc] = w[i + 1];
            locs[nloc++] = w[i + 3];
        }
        if (op == SpvOpVariable && len >= 4 && i + 3 < n && w[i + 3] == SpvStorageClassInput)
            for (uint32_t k = 0; k < nloc; k++)
                if (ids[k] == w[i + 2] && locs[k] < 32) mask |= 1u << locs[k];
    }
    return mask;
}

/* Creates what draw v needs and records its pass into cmd. The attributes bound are
 * the given ones the vertex shader declares: one it does not read would be a
 * validation warning, and the transform-feedback SPIR-V's set is known only here. */
static int record_draw(harness_vk *h, vk_draw *v, char *err, size_t errsize)
{
    const harness_draw *d = v->d;
    uint32_t declared = vertex_inputs(d->vs_spirv, d->vs_words);
    for (unsigned i = 0; i < HARNESS_MAX_ATTRIBS; i++)
        if (d->attribs[i]) v->inputs |= declared & (1u << i);
    if (setup_buffers(h, v, d, err, errsize) || setup_descriptors(h, v, d, err, errsize) ||
        setup_targets(h, v, d, err, errsize) || setup_pipeline(h, v, d, err, errsize))
        return -1;
    record_pass(h, v, d);
    return 0;
}

int harness_vk_run(harness_vk *h, const harness_draw *d, harness_result *out, char *err, size_t errsize)
{
    memset(out, 0, sizeof *out);
    if (check_draw(h, d, err, errsize)) return -1;
    vk_draw v = {.d = d}, pre = {.d = d->pre, .to_texture = true};
    int rc = -1;
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .commandPool = h->vk.pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                      .commandBufferCount = 1};
    VK_TRY(vkAllocateCommandBuffers(h->vk.dev, &ai, &v.cmd), "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VK_TRY(vkBeginCommandBuffer(v.cmd, &bi), "vkBeginCommandBuffer");
    /* Render to texture: the pre pass first, in the same command buffer. */
    pre.cmd = v.cmd;
    v.pre = d->pre ? &pre : NULL;
    if ((d->pre && record_draw(h, &pre, err, errsize)) || record_draw(h, &v, err, errsize)) goto fail;
    record_readback(&v, d);
    VK_TRY(vkEndCommandBuffer(v.cmd), "vkEndCommandBuffer");
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VK_TRY(vkCreateFence(h->vk.dev, &fi, NULL, &v.fence), "vkCreateFence");
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &v.cmd};
    double t0 = tool_seconds();
    VK_TRY(vkQueueSubmit(h->vk.queue, 1, &si, v.fence), "vkQueueSubmit");
    VK_TRY(vkWaitForFences(h->vk.dev, 1, &v.fence, VK_TRUE, 10ull * 1000 * 1000 * 1000), "vkWaitForFences");
    out->draw_s = tool_seconds() - t0;
    out->compile_s = v.compile_s;
    rc = collect(h, &v, d, out, err, errsize);
fail:
    if (rc) harness_result_free(out);
    pre.cmd = VK_NULL_HANDLE; /* v's */
    draw_free(h, &pre);
    draw_free(h, &v);
    return rc;
}
