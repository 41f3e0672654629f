/* replay_vk.c: the replay's Vulkan backend (replay.h), drawing the SPIR-V
 * translations (agal_upload, AGAL_TARGET_SPIRV) offscreen with the mappings of
 * <agal/vulkan.h>. Any Vulkan 1.1 device works: lavapipe in CI (VK_DRIVER_FILES),
 * a GPU's driver elsewhere.
 *
 * Kept plain, for reading: every clear, draw, upload and read back is one command
 * buffer, submitted and waited for, opening with a full memory barrier, so no
 * operation can see another half done. Every image stays in the GENERAL layout
 * from its creation on. Pipelines and render passes are cached by their state;
 * framebuffers, descriptor sets and samplers live for one operation.
 *
 * Orientation (docs/format.md section 7): the translations negate op.y, so the back
 * buffer and every render target come out with their first row at the top and
 * Stage3D's front faces are clockwise (AGAL_VK_FRONT_FACE) on both: no flip. */
#include "agal/stage3d.h"
#include <vulkan/vulkan.h>

#include "agal/vulkan.h"
#include "replay.h"
#include "replay_pcache.h"
#include "vk_device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct vk_image {
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view; /* every level and layer: the sampled view, or the attachment of a one-level image */
    VkFormat format;
    VkSampleCountFlagBits samples;
    uint32_t width, height, levels, layers;
} vk_image;

struct rb_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void *map;
    rb_buffer *next;
};

struct rb_texture {
    vk_image image;
    VkImageView face[6]; /* level 0 of each layer, as a colour attachment */
    replay_texture_desc d;
    vk_image depth;       /* as a render target: slot 0's depth-stencil */
    vk_image multisample; /* antialiased render target: the colour drawn, resolved into the texture */
    rb_texture *next;
};

struct rb_program {
    VkShaderModule vs, fs;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    rb_program *next;
};

typedef struct pass_key {
    VkFormat color[REPLAY_TARGETS], depth; /* depth VK_FORMAT_UNDEFINED: none */
    uint32_t ncolor;
    VkSampleCountFlagBits samples;
} pass_key;

typedef struct vk_backend {
    replay_backend base;
    vk_device vk;
    VkCommandBuffer cmd;
    VkFence fence;
    VkDescriptorPool descriptors;
    VkFormat depth_format;
    VkSampleCountFlags sample_counts;
    float max_anisotropy; /* 0: no samplerAnisotropy */
    bool divisor;         /* VK_EXT_vertex_attribute_divisor */
    /* The back buffer: colour (multisampled when samples > 1), its resolve, depth-stencil. */
    vk_image color, resolved, depth;
    bool depth_stencil;
    rb_buffer *ubo[2]; /* vc, fc */
    /* What one operation made, destroyed after its submit. */
    VkFramebuffer framebuffer;
    VkSampler samplers[REPLAY_SAMPLERS];
    unsigned nsamplers;
    rb_buffer *staging;
    /* Caches and objects, destroyed at close. */
    struct {
        pass_key key;
        VkRenderPass pass;
    } * passes;
    size_t npasses;
    /* One pipeline per baked key (agal_pipeline_key_baked with AGAL_DYNAMIC_VULKAN):
     * the stencil reference and masks are set per draw. */
    struct {
        agal_pipeline_key key;
        VkPipeline pipeline;
    } * pipelines;
    size_t npipelines;
    /* --no-pipeline-cache: the one pipeline kept, for the last draw's full key. */
    bool rebuild;
    agal_pipeline_key last_key;
    VkPipeline last;
    /* --pipeline-cache FILE: the driver's cache, and the baked keys made with it. */
    const char *cache_path;
    VkPipelineCache cache;
    rpcache records;
    rb_buffer *buffers;
    rb_texture *textures;
    rb_program *programs;
} vk_backend;

static int fail(vk_backend *v, const char *what, VkResult r)
{
    snprintf(v->base.err, sizeof v->base.err, "%s failed (VkResult %d)", what, (int)r);
    return -1;
}

#define VK_TRY(call, what) \
    do { \
        VkResult r_ = (call); \
        if (r_ != VK_SUCCESS) return fail(v, what, r_); \
    } while (0)

/* ---- instance and device -------------------------------------------------------------- */

/* Only what the replay needs: anisotropic filtering and instance divisors. */
static int create_device(vk_backend *v)
{
    VkPhysicalDeviceFeatures have;
    const VkPhysicalDeviceLimits *limits = &v->vk.props.limits;
    VkFormatProperties d24;
    vkGetPhysicalDeviceFeatures(v->vk.phys, &have);
    vkGetPhysicalDeviceFormatProperties(v->vk.phys, VK_FORMAT_D24_UNORM_S8_UINT, &d24);
    v->depth_format =
        agal_vk_depth_stencil_format(d24.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT);
    v->base.holdings.depth_stencil_bytes = v->depth_format == VK_FORMAT_D24_UNORM_S8_UINT ? 4 : 8;
    v->sample_counts = limits->framebufferColorSampleCounts & limits->framebufferDepthSampleCounts;
    v->max_anisotropy = have.samplerAnisotropy ? limits->maxSamplerAnisotropy : 0;
    v->divisor = vk_device_has_extension(v->vk.phys, VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME);
    VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT div = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT,
        .vertexAttributeInstanceRateDivisor = VK_TRUE};
    VkPhysicalDeviceFeatures want = {.samplerAnisotropy = have.samplerAnisotropy};
    const char *ext = VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME;
    if (vk_device_create(&v->vk, &ext, v->divisor, v->divisor ? &div : NULL, &want, v->base.err, sizeof v->base.err))
        return -1;
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .commandPool = v->vk.pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                      .commandBufferCount = 1};
    VK_TRY(vkAllocateCommandBuffers(v->vk.dev, &ai, &v->cmd), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VK_TRY(vkCreateFence(v->vk.dev, &fi, NULL, &v->fence), "vkCreateFence");
    /* One draw's descriptors: the two constant blocks and every sampler. */
    VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2},
                                    {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, REPLAY_SAMPLERS}};
    VkDescriptorPoolCreateInfo dp = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 2, .pPoolSizes = sizes};
    VK_TRY(vkCreateDescriptorPool(v->vk.dev, &dp, NULL, &v->descriptors), "vkCreateDescriptorPool");
    return 0;
}

static rb_buffer *host_buffer(vk_backend *v, size_t size, VkBufferUsageFlags usage);
static void vk_close(replay_backend *b);

/* What the driver holds (replay.h; measured on lavapipe, whose device memory is
 * host memory: docs/replay.md, "Memory"): a buffer's host-visible memory, an image's
 * device memory, one copy each. New images are cleared on the device and new
 * buffers through their mapping, from no host zeros; an upload goes through a
 * staging buffer of its texels, a read-back through a host buffer of the RGBA. The
 * depth-stencil format is the device's (create_device). */
static const replay_holdings vk_holdings = {
    .buffer = 1, .texture = 1, .surface = 1, .fill = 0, .upload = 1, .read_back = 1, .depth_stencil_bytes = 8};

/* --pipeline-cache FILE: the driver's cache from the blob of the records read at
 * open (the driver checks it against its own header: a blob from another device or
 * driver version is ignored, not an error). */
static int open_pipeline_cache(vk_backend *v)
{
    if (!v->cache_path) return 0;
    VkPipelineCacheCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
                                    .initialDataSize = v->records.blob_size,
                                    .pInitialData = v->records.blob};
    VK_TRY(vkCreatePipelineCache(v->vk.dev, &ci, NULL, &v->cache), "vkCreatePipelineCache");
    return 0;
}

/* Saves the cache: the driver's data and every baked key made. */
static void save_pipeline_cache(vk_backend *v)
{
    size_t size = 0;
    free(v->records.blob);
    v->records.blob = NULL;
    v->records.blob_size = 0;
    if (vkGetPipelineCacheData(v->vk.dev, v->cache, &size, NULL) == VK_SUCCESS && size &&
        (v->records.blob = malloc(size)))
        if (vkGetPipelineCacheData(v->vk.dev, v->cache, &size, v->records.blob) == VK_SUCCESS)
            v->records.blob_size = size;
    char err[512];
    if (!rpcache_save(v->cache_path, "vulkan", &v->records, err, sizeof err))
        fprintf(stderr, "agalrun replay: %s\n", err);
}

static replay_backend *vk_open(const replay_open_options *o, char *err, size_t errsize)
{
    vk_backend *v = calloc(1, sizeof *v);
    if (!v) return snprintf(err, errsize, "out of memory"), NULL;
    v->base.ops = &replay_vk_ops;
    v->base.holdings = vk_holdings;
    v->base.dynamic = AGAL_DYNAMIC_VULKAN;
    vk_device_options vo = {.app_name = "agalrun replay", .validation = o->validation};
    v->rebuild = o->rebuild_pipelines;
    v->cache_path = o->pipeline_cache;
    /* The file first: a bad one fails before any driver is loaded. */
    int rc = v->cache_path && !rpcache_load(v->cache_path, "vulkan", &v->records, v->base.err, sizeof v->base.err);
    if (!rc) rc = vk_device_pick(&v->vk, &vo, NULL, v->base.err, sizeof v->base.err);
    if (!rc) rc = create_device(v);
    if (!rc) rc = open_pipeline_cache(v);
    for (int i = 0; !rc && i < 2; i++)
        if (!(v->ubo[i] = host_buffer(v, (size_t)REPLAY_MAX_CONSTANTS * 16, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT)))
            rc = -1;
    if (rc) {
        snprintf(err, errsize, "%s", v->base.err);
        vk_close(&v->base);
        return NULL;
    }
    return &v->base;
}

/* ---- memory, buffers, images ------------------------------------------------------------ */

static int memory_for(vk_backend *v, VkMemoryRequirements req, VkMemoryPropertyFlags want, VkDeviceMemory *out)
{
    VK_TRY(vk_device_alloc(&v->vk, req, want, out), "vkAllocateMemory");
    return 0;
}

static void buffer_free(vk_backend *v, rb_buffer *b)
{
    if (!b) return;
    vkDestroyBuffer(v->vk.dev, b->buffer, NULL);
    vkFreeMemory(v->vk.dev, b->memory, NULL);
    free(b);
}

/* A host-visible, coherent, mapped buffer: written with memcpy, read by the device. */
static rb_buffer *host_buffer(vk_backend *v, size_t size, VkBufferUsageFlags usage)
{
    rb_buffer *b = calloc(1, sizeof *b);
    if (!b) return fail(v, "out of memory", VK_ERROR_OUT_OF_HOST_MEMORY), NULL;
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size ? size : 4, .usage = usage};
    VkMemoryRequirements req;
    VkResult r = vkCreateBuffer(v->vk.dev, &bi, NULL, &b->buffer);
    if (r == VK_SUCCESS) {
        vkGetBufferMemoryRequirements(v->vk.dev, b->buffer, &req);
        r = memory_for(v, req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, &b->memory)
                ? VK_ERROR_OUT_OF_DEVICE_MEMORY
                : VK_SUCCESS;
    }
    if (r == VK_SUCCESS) r = vkBindBufferMemory(v->vk.dev, b->buffer, b->memory, 0);
    if (r == VK_SUCCESS) r = vkMapMemory(v->vk.dev, b->memory, 0, VK_WHOLE_SIZE, 0, &b->map);
    if (r != VK_SUCCESS) {
        buffer_free(v, b);
        return fail(v, "creating a buffer", r), NULL;
    }
    memset(b->map, 0, size);
    return b;
}

static int begin(vk_backend *v);
static int submit(vk_backend *v, const char *what);

static bool is_depth(VkFormat f) { return f == VK_FORMAT_D24_UNORM_S8_UINT || f == VK_FORMAT_D32_SFLOAT_S8_UINT; }

static void image_free(vk_backend *v, vk_image *im)
{
    vkDestroyImageView(v->vk.dev, im->view, NULL);
    vkDestroyImage(v->vk.dev, im->image, NULL);
    vkFreeMemory(v->vk.dev, im->memory, NULL);
    memset(im, 0, sizeof *im);
}

static VkImageView image_view(vk_backend *v, const vk_image *im, VkImageViewType type, uint32_t layer, uint32_t layers,
                              uint32_t levels)
{
    VkImageAspectFlags aspect = is_depth(im->format) ? VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT
                                                     : VK_IMAGE_ASPECT_COLOR_BIT;
    VkImageViewCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                .image = im->image,
                                .viewType = type,
                                .format = im->format,
                                .subresourceRange = {aspect, 0, levels, layer, layers}};
    VkImageView view = VK_NULL_HANDLE;
    VkResult r = vkCreateImageView(v->vk.dev, &vi, NULL, &view);
    if (r != VK_SUCCESS) fail(v, "vkCreateImageView", r);
    return view;
}

/* A device image in the GENERAL layout, every texel 0, with a view of all of it. */
static int image_new(vk_backend *v, vk_image *im, VkFormat format, uint32_t w, uint32_t h, uint32_t levels,
                     uint32_t layers, VkSampleCountFlagBits samples, VkImageUsageFlags usage)
{
    *im = (vk_image){.format = format, .samples = samples, .width = w, .height = h, .levels = levels, .layers = layers};
    VkImageCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                            .flags = layers == 6 ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0,
                            .imageType = VK_IMAGE_TYPE_2D,
                            .format = format,
                            .extent = {w, h, 1},
                            .mipLevels = levels,
                            .arrayLayers = layers,
                            .samples = samples,
                            .tiling = VK_IMAGE_TILING_OPTIMAL,
                            .usage = usage | VK_IMAGE_USAGE_TRANSFER_DST_BIT};
    VkMemoryRequirements req;
    VK_TRY(vkCreateImage(v->vk.dev, &ci, NULL, &im->image), "vkCreateImage");
    vkGetImageMemoryRequirements(v->vk.dev, im->image, &req);
    if (memory_for(v, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &im->memory)) return -1;
    VK_TRY(vkBindImageMemory(v->vk.dev, im->image, im->memory, 0), "vkBindImageMemory");
    VkImageViewType type = layers == 6 ? VK_IMAGE_VIEW_TYPE_CUBE : VK_IMAGE_VIEW_TYPE_2D;
    bool viewed = usage & (VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                           VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
    if (viewed && !(im->view = image_view(v, im, type, 0, layers, levels))) return -1;
    bool depth = is_depth(format);
    VkImageSubresourceRange all = {depth ? VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT
                                         : VK_IMAGE_ASPECT_COLOR_BIT,
                                   0, levels, 0, layers};
    if (begin(v)) return -1;
    VkImageMemoryBarrier to_general = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                                       .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                       .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                                       .newLayout = VK_IMAGE_LAYOUT_GENERAL,
                                       .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                       .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                       .image = im->image,
                                       .subresourceRange = all};
    vkCmdPipelineBarrier(v->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL,
                         1, &to_general);
    VkClearColorValue zero = {{0, 0, 0, 0}};
    VkClearDepthStencilValue far = {1, 0};
    if (depth) vkCmdClearDepthStencilImage(v->cmd, im->image, VK_IMAGE_LAYOUT_GENERAL, &far, 1, &all);
    else vkCmdClearColorImage(v->cmd, im->image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &all);
    return submit(v, "creating an image");
}

/* ---- command buffers ------------------------------------------------------------------ */

/* Every earlier write is visible to every later access. */
static void full_barrier(vk_backend *v)
{
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                          .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
                          .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT};
    vkCmdPipelineBarrier(v->cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &mb, 0,
                         NULL, 0, NULL);
}

static int begin(vk_backend *v)
{
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VK_TRY(vkResetCommandBuffer(v->cmd, 0), "vkResetCommandBuffer");
    VK_TRY(vkBeginCommandBuffer(v->cmd, &bi), "vkBeginCommandBuffer");
    full_barrier(v);
    return 0;
}

/* Submits, waits, and destroys what the operation made for itself. */
static int submit(vk_backend *v, const char *what)
{
    VkResult r = vkEndCommandBuffer(v->cmd);
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &v->cmd};
    if (r == VK_SUCCESS) r = vkQueueSubmit(v->vk.queue, 1, &si, v->fence);
    if (r == VK_SUCCESS) r = vkWaitForFences(v->vk.dev, 1, &v->fence, VK_TRUE, UINT64_MAX);
    vkResetFences(v->vk.dev, 1, &v->fence);
    vkResetDescriptorPool(v->vk.dev, v->descriptors, 0);
    vkDestroyFramebuffer(v->vk.dev, v->framebuffer, NULL);
    v->framebuffer = VK_NULL_HANDLE;
    for (unsigned i = 0; i < v->nsamplers; i++) vkDestroySampler(v->vk.dev, v->samplers[i], NULL);
    v->nsamplers = 0;
    buffer_free(v, v->staging);
    v->staging = NULL;
    if (r != VK_SUCCESS) return fail(v, what, r);
    if (v->vk.messages) {
        snprintf(v->base.err, sizeof v->base.err, "%s: %u validation message(s)", what, v->vk.messages);
        return -1;
    }
    return 0;
}

/* ---- the back buffer ------------------------------------------------------------------------ */

static int vk_configure(replay_backend *b, uint32_t w, uint32_t h, int anti_alias, bool depth_stencil)
{
    vk_backend *v = (vk_backend *)b;
    vkDeviceWaitIdle(v->vk.dev);
    image_free(v, &v->color);
    image_free(v, &v->resolved);
    image_free(v, &v->depth);
    VkSampleCountFlagBits samples = agal_vk_samples(anti_alias, v->sample_counts);
    VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    v->depth_stencil = depth_stencil;
    if (image_new(v, &v->color, VK_FORMAT_R8G8B8A8_UNORM, w, h, 1, 1, samples, usage)) return -1;
    if (samples > 1 && image_new(v, &v->resolved, VK_FORMAT_R8G8B8A8_UNORM, w, h, 1, 1, VK_SAMPLE_COUNT_1_BIT,
                                 VK_IMAGE_USAGE_TRANSFER_SRC_BIT))
        return -1;
    if (depth_stencil &&
        image_new(v, &v->depth, v->depth_format, w, h, 1, 1, samples, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT))
        return -1;
    return 0;
}

static int vk_read(replay_backend *b, uint8_t *rgba)
{
    vk_backend *v = (vk_backend *)b;
    uint32_t w = v->color.width, h = v->color.height;
    rb_buffer *out = host_buffer(v, (size_t)w * h * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    if (!out || begin(v)) return buffer_free(v, out), -1;
    VkImageSubresourceLayers layer = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    const vk_image *src = &v->color;
    if (v->color.samples > 1) {
        VkImageResolve res = {layer, {0, 0, 0}, layer, {0, 0, 0}, {w, h, 1}};
        vkCmdResolveImage(v->cmd, v->color.image, VK_IMAGE_LAYOUT_GENERAL, v->resolved.image, VK_IMAGE_LAYOUT_GENERAL,
                          1, &res);
        full_barrier(v);
        src = &v->resolved;
    }
    VkBufferImageCopy copy = {.imageSubresource = layer, .imageExtent = {w, h, 1}};
    vkCmdCopyImageToBuffer(v->cmd, src->image, VK_IMAGE_LAYOUT_GENERAL, out->buffer, 1, &copy);
    full_barrier(v);
    int rc = submit(v, "reading the back buffer");
    if (!rc) memcpy(rgba, out->map, (size_t)w * h * 4); /* already first row first */
    buffer_free(v, out);
    return rc;
}

/* ---- buffers, textures, programs ----------------------------------------------------------- */

static rb_buffer *vk_buffer_new(replay_backend *b, size_t size, bool index)
{
    vk_backend *v = (vk_backend *)b;
    rb_buffer *buf = host_buffer(v, size, index ? VK_BUFFER_USAGE_INDEX_BUFFER_BIT : VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    if (buf) buf->next = v->buffers, v->buffers = buf;
    return buf;
}

/* The device reads a host buffer only in later submissions, each of which waits for
 * the one before: writing it now cannot race a draw. */
static int vk_buffer_write(replay_backend *b, rb_buffer *buf, size_t offset, const void *data, size_t size)
{
    (void)b;
    memcpy((uint8_t *)buf->map + offset, data, size);
    return 0;
}

static void texture_free(vk_backend *v, rb_texture *t)
{
    for (int f = 0; f < 6; f++) vkDestroyImageView(v->vk.dev, t->face[f], NULL);
    image_free(v, &t->image);
    image_free(v, &t->depth);
    image_free(v, &t->multisample);
    free(t);
}

static rb_texture *vk_texture_new(replay_backend *b, const replay_texture_desc *d)
{
    vk_backend *v = (vk_backend *)b;
    rb_texture *t = calloc(1, sizeof *t);
    if (!t) return fail(v, "out of memory", VK_ERROR_OUT_OF_HOST_MEMORY), NULL;
    t->d = *d;
    t->next = v->textures;
    v->textures = t;
    uint32_t layers = d->kind == REPLAY_TEX_CUBE ? 6 : 1;
    VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                              VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    if (image_new(v, &t->image, agal_vk_texture_format(d->format), d->width, d->height, d->levels, layers,
                  VK_SAMPLE_COUNT_1_BIT, usage))
        return NULL;
    for (uint32_t f = 0; f < layers; f++)
        if (!(t->face[f] = image_view(v, &t->image, VK_IMAGE_VIEW_TYPE_2D, f, 1, 1))) return NULL;
    return t;
}

static unsigned texel_size(agal_texture_format f) { return f == AGAL_TEXTURE_RGBA_HALF_FLOAT ? 8 : 4; }

static int vk_texture_write(replay_backend *b, rb_texture *t, unsigned face, unsigned level, uint32_t w, uint32_t h,
                            const void *texels)
{
    vk_backend *v = (vk_backend *)b;
    size_t size = (size_t)w * h * texel_size(t->d.format);
    if (!(v->staging = host_buffer(v, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT)) || begin(v)) return -1;
    memcpy(v->staging->map, texels, size);
    VkBufferImageCopy copy = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, face, 1},
                              .imageExtent = {w, h, 1}};
    vkCmdCopyBufferToImage(v->cmd, v->staging->buffer, t->image.image, VK_IMAGE_LAYOUT_GENERAL, 1, &copy);
    return submit(v, "a texture upload");
}

/* Levels 1.. again, each a linear blit of the one above. */
static int vk_texture_mipmaps(replay_backend *b, rb_texture *t)
{
    vk_backend *v = (vk_backend *)b;
    if (begin(v)) return -1;
    for (uint32_t l = 1; l < t->d.levels; l++) {
        int32_t sw = (int32_t)(t->d.width >> (l - 1)), sh = (int32_t)(t->d.height >> (l - 1));
        VkImageBlit blit = {{VK_IMAGE_ASPECT_COLOR_BIT, l - 1, 0, t->image.layers},
                            {{0, 0, 0}, {sw ? sw : 1, sh ? sh : 1, 1}},
                            {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, t->image.layers},
                            {{0, 0, 0}, {sw > 1 ? sw / 2 : 1, sh > 1 ? sh / 2 : 1, 1}}};
        vkCmdBlitImage(v->cmd, t->image.image, VK_IMAGE_LAYOUT_GENERAL, t->image.image, VK_IMAGE_LAYOUT_GENERAL, 1,
                       &blit, VK_FILTER_LINEAR);
        full_barrier(v);
    }
    return submit(v, "making a render target's mip maps");
}

static VkShaderModule shader(vk_backend *v, const agal_shader *code)
{
    VkShaderModuleCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = code->nwords * 4, .pCode = code->words};
    VkShaderModule m = VK_NULL_HANDLE;
    VkResult r = vkCreateShaderModule(v->vk.dev, &ci, NULL, &m);
    if (r != VK_SUCCESS) fail(v, "vkCreateShaderModule", r);
    return m;
}

static rb_program *vk_program_new(replay_backend *b, const agal_upload_result *r)
{
    vk_backend *v = (vk_backend *)b;
    rb_program *p = calloc(1, sizeof *p);
    if (!p) return fail(v, "out of memory", VK_ERROR_OUT_OF_HOST_MEMORY), NULL;
    p->next = v->programs;
    v->programs = p;
    /* The bindings the translations declare: vc, fc, each fs<i> (agal_vk_layout_bindings). */
    VkDescriptorSetLayoutBinding bindings[AGAL_VK_MAX_BINDINGS];
    VkDescriptorSetLayoutCreateInfo li = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                          .bindingCount = agal_vk_layout_bindings(r, bindings, AGAL_VK_MAX_BINDINGS),
                                          .pBindings = bindings};
    VkResult res = vkCreateDescriptorSetLayout(v->vk.dev, &li, NULL, &p->set_layout);
    VkPipelineLayoutCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1, .pSetLayouts = &p->set_layout};
    if (res == VK_SUCCESS) res = vkCreatePipelineLayout(v->vk.dev, &pi, NULL, &p->layout);
    if (res != VK_SUCCESS) return fail(v, "creating a pipeline layout", res), NULL;
    if (!(p->vs = shader(v, &r->shaders[AGAL_VERTEX])) || !(p->fs = shader(v, &r->shaders[AGAL_FRAGMENT]))) return NULL;
    return p;
}

/* ---- render passes ---------------------------------------------------------------------- */

/* A render pass that keeps what its attachments hold (Stage3D draws onto what is
 * there), every attachment in the GENERAL layout before, during and after. */
static VkRenderPass render_pass(vk_backend *v, const pass_key *key)
{
    for (size_t i = 0; i < v->npasses; i++)
        if (!memcmp(&v->passes[i].key, key, sizeof *key)) return v->passes[i].pass;
    VkAttachmentDescription att[REPLAY_TARGETS + 1];
    VkAttachmentReference ref[REPLAY_TARGETS + 1];
    uint32_t n = 0;
    for (; n < key->ncolor + (key->depth != VK_FORMAT_UNDEFINED); n++) {
        att[n] = (VkAttachmentDescription){0,
                                           n < key->ncolor ? key->color[n] : key->depth,
                                           key->samples,
                                           VK_ATTACHMENT_LOAD_OP_LOAD,
                                           VK_ATTACHMENT_STORE_OP_STORE,
                                           VK_ATTACHMENT_LOAD_OP_LOAD,
                                           VK_ATTACHMENT_STORE_OP_STORE,
                                           VK_IMAGE_LAYOUT_GENERAL,
                                           VK_IMAGE_LAYOUT_GENERAL};
        ref[n] = (VkAttachmentReference){n, VK_IMAGE_LAYOUT_GENERAL};
    }
    VkSubpassDescription sub = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                                .colorAttachmentCount = key->ncolor,
                                .pColorAttachments = ref,
                                .pDepthStencilAttachment = n > key->ncolor ? &ref[key->ncolor] : NULL};
    VkRenderPassCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                 .attachmentCount = n,
                                 .pAttachments = att,
                                 .subpassCount = 1,
                                 .pSubpasses = &sub};
    VkRenderPass pass = VK_NULL_HANDLE;
    void *grown = realloc(v->passes, (v->npasses + 1) * sizeof *v->passes);
    if (!grown) return fail(v, "out of memory", VK_ERROR_OUT_OF_HOST_MEMORY), VK_NULL_HANDLE;
    v->passes = grown;
    VkResult r = vkCreateRenderPass(v->vk.dev, &ci, NULL, &pass);
    if (r != VK_SUCCESS) return fail(v, "vkCreateRenderPass", r), VK_NULL_HANDLE;
    v->passes[v->npasses].key = *key;
    v->passes[v->npasses++].pass = pass;
    return pass;
}

/* What a clear or a draw renders into. */
typedef struct vk_pass {
    VkRenderPass pass;
    VkSampleCountFlagBits samples;
    uint32_t ncolor;
    bool depth;
} vk_pass;

/* The multisample colour or the depth-stencil image an antialiased or depth-tested
 * texture target needs, (re)made for its sample count. */
static int target_image(vk_backend *v, vk_image *im, VkFormat f, uint32_t w, uint32_t h, VkSampleCountFlagBits samples,
                        VkImageUsageFlags usage)
{
    if (im->image && im->samples == samples) return 0;
    vkDeviceWaitIdle(v->vk.dev);
    image_free(v, im);
    return image_new(v, im, f, w, h, 1, 1, samples, usage);
}

/* A texture target's images beside its textures, made before the operation's
 * command buffer opens: each image is made by a command buffer of its own. */
static int prepare_target(vk_backend *v, const replay_target *t)
{
    if (t->back_buffer) return 0;
    VkSampleCountFlagBits samples = agal_vk_samples(t->anti_alias, v->sample_counts);
    for (uint32_t i = 0; samples > 1 && i < t->ncolor; i++) {
        rb_texture *c = t->color[i];
        if (target_image(v, &c->multisample, c->image.format, c->d.width, c->d.height, samples,
                         VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT))
            return -1;
    }
    return t->depth_stencil ? target_image(v, &t->color[0]->depth, v->depth_format, t->width, t->height, samples,
                                           VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT)
                            : 0;
}

/* The attachments of target t; begins the render pass in the open command buffer. */
static int begin_pass(vk_backend *v, const replay_target *t, vk_pass *p)
{
    pass_key key;
    VkImageView views[REPLAY_TARGETS + 1];
    memset(&key, 0, sizeof key);
    key.samples = t->back_buffer ? v->color.samples : agal_vk_samples(t->anti_alias, v->sample_counts);
    key.ncolor = t->back_buffer ? 1 : t->ncolor;
    for (uint32_t i = 0; i < key.ncolor; i++) {
        rb_texture *c = t->back_buffer ? NULL : t->color[i];
        key.color[i] = c ? c->image.format : v->color.format;
        views[i] = !c ? v->color.view : key.samples > 1 ? c->multisample.view : c->face[t->face[i]];
    }
    const vk_image *depth = !t->depth_stencil ? NULL : t->back_buffer ? &v->depth : &t->color[0]->depth;
    key.depth = depth ? v->depth_format : VK_FORMAT_UNDEFINED;
    if (depth) views[key.ncolor] = depth->view;
    *p = (vk_pass){.pass = render_pass(v, &key), .samples = key.samples, .ncolor = key.ncolor, .depth = depth};
    if (!p->pass) return -1;
    VkFramebufferCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
                                  .renderPass = p->pass,
                                  .attachmentCount = key.ncolor + (depth != NULL),
                                  .pAttachments = views,
                                  .width = t->width,
                                  .height = t->height,
                                  .layers = 1};
    VK_TRY(vkCreateFramebuffer(v->vk.dev, &fi, NULL, &v->framebuffer), "vkCreateFramebuffer");
    VkRenderPassBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                .renderPass = p->pass,
                                .framebuffer = v->framebuffer,
                                .renderArea = {{0, 0}, {t->width, t->height}}};
    vkCmdBeginRenderPass(v->cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
    return 0;
}

/* Ends the render pass; an antialiased texture target resolves into its textures. */
static void end_pass(vk_backend *v, const replay_target *t, const vk_pass *p)
{
    vkCmdEndRenderPass(v->cmd);
    if (t->back_buffer || p->samples == VK_SAMPLE_COUNT_1_BIT) return;
    full_barrier(v);
    for (uint32_t i = 0; i < t->ncolor; i++) {
        VkImageResolve res = {{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                              {0, 0, 0},
                              {VK_IMAGE_ASPECT_COLOR_BIT, 0, t->face[i], 1},
                              {0, 0, 0},
                              {t->width, t->height, 1}};
        vkCmdResolveImage(v->cmd, t->color[i]->multisample.image, VK_IMAGE_LAYOUT_GENERAL, t->color[i]->image.image,
                          VK_IMAGE_LAYOUT_GENERAL, 1, &res);
    }
}

static int vk_clear(replay_backend *b, const replay_target *t, const float rgba[4], float depth, uint32_t stencil,
                    unsigned mask)
{
    vk_backend *v = (vk_backend *)b;
    vk_pass p;
    if (prepare_target(v, t) || begin(v) || begin_pass(v, t, &p)) return -1;
    VkClearAttachment att[REPLAY_TARGETS + 1];
    uint32_t n = 0;
    for (uint32_t i = 0; (mask & REPLAY_CLEAR_COLOR) && i < p.ncolor; i++) {
        att[n] = (VkClearAttachment){.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT, .colorAttachment = i};
        memcpy(att[n++].clearValue.color.float32, rgba, 4 * sizeof(float));
    }
    VkImageAspectFlags ds = (mask & REPLAY_CLEAR_DEPTH ? VK_IMAGE_ASPECT_DEPTH_BIT : 0u) |
                            (mask & REPLAY_CLEAR_STENCIL ? VK_IMAGE_ASPECT_STENCIL_BIT : 0u);
    if (p.depth && ds) att[n++] = (VkClearAttachment){.aspectMask = ds, .clearValue.depthStencil = {depth, stencil}};
    /* The whole target: clear ignores the scissor and the colour mask. */
    VkClearRect rect = {{{0, 0}, {t->width, t->height}}, 0, 1};
    if (n) vkCmdClearAttachments(v->cmd, n, att, 1, &rect);
    end_pass(v, t, &p);
    return submit(v, "clear");
}

/* ---- a draw ------------------------------------------------------------------------------ */

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* The pipeline of a baked key, with the draw's program and the pass's render pass
 * (both fixed by the key: its program id, its target); counted as made from
 * nothing or from the cache file's record. */
static VkPipeline create_pipeline(vk_backend *v, const agal_pipeline_key *k, const rb_program *prog, const vk_pass *p)
{
    agal_vk_pipeline_state ps;
    agal_vk_pipeline_state_fill(&ps, k, p->samples);
    if (ps.divisor_info.vertexBindingDivisorCount && !v->divisor) {
        snprintf(v->base.err, sizeof v->base.err, "instancesPerElement above 1 needs VK_EXT_vertex_attribute_divisor");
        return VK_NULL_HANDLE;
    }
    VkPipelineShaderStageCreateInfo stages[2] = {{.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                                  .stage = VK_SHADER_STAGE_VERTEX_BIT,
                                                  .module = prog->vs,
                                                  .pName = "main"},
                                                 {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                                  .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
                                                  .module = prog->fs,
                                                  .pName = "main"}};
    VkGraphicsPipelineCreateInfo ci = agal_vk_pipeline_info(&ps, stages, prog->layout, p->pass);
    VkPipeline pipe = VK_NULL_HANDLE;
    double start = now_ms();
    VkResult r = vkCreateGraphicsPipelines(v->vk.dev, v->cache, 1, &ci, NULL, &pipe);
    v->base.pipelines.ms += now_ms() - start;
    if (r != VK_SUCCESS) return fail(v, "vkCreateGraphicsPipelines", r), VK_NULL_HANDLE;
    if (v->cache_path && rpcache_find(&v->records, k)) v->base.pipelines.cache_hits++;
    else v->base.pipelines.created++;
    if (v->cache_path && !rpcache_add(&v->records, k, 0, NULL, 0))
        return vkDestroyPipeline(v->vk.dev, pipe, NULL), fail(v, "out of memory", VK_ERROR_OUT_OF_HOST_MEMORY),
               VK_NULL_HANDLE;
    return pipe;
}

/* --no-pipeline-cache: a new pipeline whenever the full key changes. The last one is
 * no longer in use: every operation waits for its submit. */
static VkPipeline rebuilt_pipeline(vk_backend *v, const replay_draw *d, const agal_pipeline_key *baked,
                                   const vk_pass *p)
{
    if (v->last && agal_pipeline_key_equal(&v->last_key, &d->key)) return v->last;
    vkDestroyPipeline(v->vk.dev, v->last, NULL);
    v->last = create_pipeline(v, baked, d->program, p);
    v->last_key = d->key;
    return v->last;
}

static VkPipeline pipeline(vk_backend *v, const replay_draw *d, const vk_pass *p)
{
    agal_pipeline_key k;
    agal_pipeline_key_baked(&d->key, v->base.dynamic, &k);
    if (v->rebuild) return rebuilt_pipeline(v, d, &k, p);
    for (size_t i = 0; i < v->npipelines; i++)
        if (agal_pipeline_key_equal(&v->pipelines[i].key, &k)) return v->pipelines[i].pipeline;
    void *grown = realloc(v->pipelines, (v->npipelines + 1) * sizeof *v->pipelines);
    if (!grown) return fail(v, "out of memory", VK_ERROR_OUT_OF_HOST_MEMORY), VK_NULL_HANDLE;
    v->pipelines = grown;
    VkPipeline pipe = create_pipeline(v, &k, d->program, p);
    if (!pipe) return VK_NULL_HANDLE;
    v->pipelines[v->npipelines].key = k;
    v->pipelines[v->npipelines++].pipeline = pipe;
    return pipe;
}

/* The dynamic state of AGAL_DYNAMIC_VULKAN, from the draw's full key. */
static void set_dynamic_state(vk_backend *v, const agal_pipeline_key *k)
{
    vkCmdSetStencilReference(v->cmd, VK_STENCIL_FACE_FRONT_AND_BACK, k->stencil_ref);
    vkCmdSetStencilCompareMask(v->cmd, VK_STENCIL_FACE_FRONT_AND_BACK, k->stencil_read);
    vkCmdSetStencilWriteMask(v->cmd, VK_STENCIL_FACE_FRONT_AND_BACK, k->stencil_write);
}

/* The draw's descriptor set: the constant blocks from the host buffers, each
 * sampler with its resolved state (agal_vk_sampler_info). */
static int bind_descriptors(vk_backend *v, const replay_draw *d)
{
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = v->descriptors,
                                      .descriptorSetCount = 1,
                                      .pSetLayouts = &d->program->set_layout};
    VkDescriptorSet set;
    VK_TRY(vkAllocateDescriptorSets(v->vk.dev, &ai, &set), "vkAllocateDescriptorSets");
    VkWriteDescriptorSet w[2 + REPLAY_SAMPLERS];
    VkDescriptorBufferInfo bufs[2];
    VkDescriptorImageInfo imgs[REPLAY_SAMPLERS];
    uint32_t n = 0;
    for (size_t i = 0; i < d->upload->nblocks; i++) {
        const agal_binding_block *blk = &d->upload->blocks[i];
        /* the registers as the block holds them (limits may pack them) */
        agal_binding_block_gather(blk, &(blk->stage == AGAL_VERTEX ? d->vc : d->fc)[0][0], (float *)v->ubo[i]->map);
        bufs[i] = (VkDescriptorBufferInfo){v->ubo[i]->buffer, 0, blk->size};
        w[n++] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                        .dstSet = set,
                                        .dstBinding = blk->binding,
                                        .descriptorCount = 1,
                                        .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                                        .pBufferInfo = &bufs[i]};
    }
    for (size_t i = 0; i < d->upload->nsamplers; i++) {
        const agal_binding_sampler *s = &d->upload->samplers[i];
        VkSamplerCreateInfo si = agal_vk_sampler_info(&d->sampler[s->num], v->max_anisotropy);
        VK_TRY(vkCreateSampler(v->vk.dev, &si, NULL, &v->samplers[v->nsamplers]), "vkCreateSampler");
        imgs[i] = (VkDescriptorImageInfo){v->samplers[v->nsamplers++], d->texture[s->num]->image.view,
                                          VK_IMAGE_LAYOUT_GENERAL};
        w[n++] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                        .dstSet = set,
                                        .dstBinding = s->binding,
                                        .descriptorCount = 1,
                                        .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                        .pImageInfo = &imgs[i]};
    }
    vkUpdateDescriptorSets(v->vk.dev, n, w, 0, NULL);
    vkCmdBindDescriptorSets(v->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, d->program->layout, 0, 1, &set, 0, NULL);
    return 0;
}

static int vk_draw(replay_backend *b, const replay_draw *d)
{
    vk_backend *v = (vk_backend *)b;
    const replay_target *t = d->target;
    vk_pass p;
    if (prepare_target(v, t) || begin(v) || begin_pass(v, t, &p)) return -1;
    VkPipeline pipe = pipeline(v, d, &p);
    if (!pipe) return -1;
    vkCmdBindPipeline(v->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
    set_dynamic_state(v, &d->key);
    VkViewport vp = {0, 0, (float)t->width, (float)t->height, 0, 1};
    VkRect2D sc = d->scissor ? agal_vk_scissor(&d->scissor_rect) : (VkRect2D){{0, 0}, {t->width, t->height}};
    vkCmdSetViewport(v->cmd, 0, 1, &vp);
    vkCmdSetScissor(v->cmd, 0, 1, &sc);
    if (bind_descriptors(v, d)) return -1;
    for (size_t i = 0; i < d->upload->nattributes; i++) {
        uint32_t loc = d->upload->attributes[i].location;
        VkDeviceSize offset = d->streams[loc].offset;
        vkCmdBindVertexBuffers(v->cmd, loc, 1, &d->streams[loc].buffer->buffer, &offset);
    }
    vkCmdBindIndexBuffer(v->cmd, d->index->buffer, 0, VK_INDEX_TYPE_UINT16);
    vkCmdDrawIndexed(v->cmd, d->count, d->instances, d->first, 0, 0);
    end_pass(v, t, &p);
    return submit(v, "drawTriangles");
}

/* ---- close ------------------------------------------------------------------------------- */

static void vk_close(replay_backend *b)
{
    vk_backend *v = (vk_backend *)b;
    if (v->vk.dev) {
        vkDeviceWaitIdle(v->vk.dev);
        for (size_t i = 0; i < v->npipelines; i++) vkDestroyPipeline(v->vk.dev, v->pipelines[i].pipeline, NULL);
        vkDestroyPipeline(v->vk.dev, v->last, NULL);
        if (v->cache) save_pipeline_cache(v);
        vkDestroyPipelineCache(v->vk.dev, v->cache, NULL);
        for (size_t i = 0; i < v->npasses; i++) vkDestroyRenderPass(v->vk.dev, v->passes[i].pass, NULL);
        for (rb_program *p = v->programs, *n; p; p = n) {
            n = p->next;
            vkDestroyShaderModule(v->vk.dev, p->vs, NULL);
            vkDestroyShaderModule(v->vk.dev, p->fs, NULL);
            vkDestroyPipelineLayout(v->vk.dev, p->layout, NULL);
            vkDestroyDescriptorSetLayout(v->vk.dev, p->set_layout, NULL);
            free(p);
        }
        for (rb_texture *t = v->textures, *n; t; t = n) {
            n = t->next;
            texture_free(v, t);
        }
        for (rb_buffer *p = v->buffers, *n; p; p = n) {
            n = p->next;
            buffer_free(v, p);
        }
        for (int i = 0; i < 2; i++) buffer_free(v, v->ubo[i]);
        buffer_free(v, v->staging);
        image_free(v, &v->color);
        image_free(v, &v->resolved);
        image_free(v, &v->depth);
        vkDestroyDescriptorPool(v->vk.dev, v->descriptors, NULL);
        vkDestroyFence(v->vk.dev, v->fence, NULL);
    }
    vk_device_close(&v->vk);
    free(v->pipelines);
    free(v->passes);
    rpcache_free(&v->records);
    free(v);
}

const replay_backend_ops replay_vk_ops = {
    .name = "vulkan",
    .target = AGAL_TARGET_SPIRV,
    .open = vk_open,
    .close = vk_close,
    .configure = vk_configure,
    .buffer_new = vk_buffer_new,
    .buffer_write = vk_buffer_write,
    .texture_new = vk_texture_new,
    .texture_write = vk_texture_write,
    .texture_mipmaps = vk_texture_mipmaps,
    .program_new = vk_program_new,
    .clear = vk_clear,
    .draw = vk_draw,
    .read = vk_read,
};
