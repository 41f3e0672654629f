/* vulkan_upload.c: a Stage3D emulator's Program3D on Vulkan, complete (docs/emulator-guide.md).
 *
 * The first part is what an emulator writes: Program3D.upload through agal_upload,
 * the pipeline of a draw's state, the sampler of a slot, the descriptor set. The
 * second part is the headless frame around it: any Vulkan 1.0 device, buffers, one
 * frame of a textured, tinted, culled quad, the 8x8 back buffer printed.
 *
 * usage: vulkan_upload VERTEX.bin FRAGMENT.bin
 * tests/embed/test_examples.py builds it against the installed headers and the library
 * alone and runs it under the validation layer (lavapipe), every pixel checked. */

#include <agal/agal.h>
#include <agal/interp.h>
#include <agal/stage3d.h>
#include <agal/vulkan.h>

#include <stdio.h>

/* What an emulator keeps for a Program3D. */
typedef struct program3d {
    agal_context *ctx;        /* owns the upload's results */
    agal_upload_result up;    /* shaders and binding layout */
    VkShaderModule module[2]; /* [AGAL_VERTEX], [AGAL_FRAGMENT] */
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
} program3d;

/* Program3D.upload(vertexProgram, fragmentProgram); false: throw what Flash throws. */
static bool program_upload(VkDevice dev, program3d *p, const void *vertex, size_t vsize, const void *fragment,
                           size_t fsize)
{
    p->ctx = agal_context_new(NULL, NULL);
    p->up = agal_upload_result_init();
    if (agal_upload(p->ctx, vertex, vsize, fragment, fsize, NULL, &p->up) != AGAL_OK) {
        agal_flash_error e;
        agal_flash_error_of(agal_diag_get(p->ctx, 0), &e);
        char line[600];
        agal_flash_line(&e, line, sizeof line);
        fprintf(stderr, "%s\n", line); /* Error: Error #3646: ... */
        return false;
    }
    for (int s = 0; s < 2; s++) {
        VkShaderModuleCreateInfo mi = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                       .codeSize = 4 * p->up.shaders[s].nwords,
                                       .pCode = p->up.shaders[s].words};
        vkCreateShaderModule(dev, &mi, NULL, &p->module[s]);
    }
    VkDescriptorSetLayoutBinding b[AGAL_VK_MAX_BINDINGS];
    VkDescriptorSetLayoutCreateInfo li = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                          .bindingCount = agal_vk_layout_bindings(&p->up, b, AGAL_VK_MAX_BINDINGS),
                                          .pBindings = b};
    vkCreateDescriptorSetLayout(dev, &li, NULL, &p->set_layout);
    VkPipelineLayoutCreateInfo pli = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1, .pSetLayouts = &p->set_layout};
    vkCreatePipelineLayout(dev, &pli, NULL, &p->layout);
    return true;
}

static void program_dispose(VkDevice dev, program3d *p)
{
    vkDestroyPipelineLayout(dev, p->layout, NULL);
    vkDestroyDescriptorSetLayout(dev, p->set_layout, NULL);
    vkDestroyShaderModule(dev, p->module[0], NULL);
    vkDestroyShaderModule(dev, p->module[1], NULL);
    agal_context_free(p->ctx);
}

/* The Context3D state a pipeline depends on (an emulator caches pipelines by it). */
typedef struct draw_state {
    agal_vertex_format format[16]; /* setVertexBufferAt(i, buffer, 0, format): a buffer a stream */
    agal_triangle_face cull;       /* setCulling */
    agal_blend_factor src, dst;    /* setBlendFactors */
} draw_state;

static VkPipeline make_pipeline(VkDevice dev, VkRenderPass pass, const program3d *p, const draw_state *s)
{
    VkVertexInputBindingDescription vb[16];
    VkVertexInputAttributeDescription va[16];
    agal_vk_stream streams[16];
    for (int i = 0; i < 16; i++) /* a buffer a stream, the format's size its stride */
        streams[i] = (agal_vk_stream){agal_vk_vertex_format_size(s->format[i]), 0, s->format[i], false};
    uint32_t n = agal_vk_vertex_input(&p->up, streams, vb, va);
    VkPipelineShaderStageCreateInfo st[2] = {{.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                              .stage = VK_SHADER_STAGE_VERTEX_BIT,
                                              .module = p->module[AGAL_VERTEX],
                                              .pName = "main"},
                                             {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                              .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
                                              .module = p->module[AGAL_FRAGMENT],
                                              .pName = "main"}};
    VkPipelineVertexInputStateCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
                                               .vertexBindingDescriptionCount = n,
                                               .pVertexBindingDescriptions = vb,
                                               .vertexAttributeDescriptionCount = n,
                                               .pVertexAttributeDescriptions = va};
    VkPipelineInputAssemblyStateCreateInfo ia = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
                                                 .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
    VkPipelineViewportStateCreateInfo vp = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, .viewportCount = 1, .scissorCount = 1};
    /* Stage3D's front faces, to the back buffer and to a texture alike */
    VkPipelineRasterizationStateCreateInfo rs = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
                                                 .polygonMode = VK_POLYGON_MODE_FILL,
                                                 .cullMode = agal_vk_cull_mode(s->cull),
                                                 .frontFace = AGAL_VK_FRONT_FACE,
                                                 .lineWidth = 1.0f};
    VkPipelineMultisampleStateCreateInfo ms = {.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
                                               .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
    VkPipelineColorBlendAttachmentState blend = agal_vk_blend(s->src, s->dst, true, true, true, true);
    VkPipelineColorBlendStateCreateInfo cb = {.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
                                              .attachmentCount = 1,
                                              .pAttachments = &blend};
    VkDynamicState dyn[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo ds = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, .dynamicStateCount = 2, .pDynamicStates = dyn};
    VkGraphicsPipelineCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
                                       .stageCount = 2,
                                       .pStages = st,
                                       .pVertexInputState = &vi,
                                       .pInputAssemblyState = &ia,
                                       .pViewportState = &vp,
                                       .pRasterizationState = &rs,
                                       .pMultisampleState = &ms,
                                       .pColorBlendState = &cb,
                                       .pDynamicState = &ds,
                                       .layout = p->layout,
                                       .renderPass = pass};
    VkPipeline pipe = VK_NULL_HANDLE;
    vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &pi, NULL, &pipe);
    return pipe;
}

/* setProgram and setSamplerStateAt write the slots; at a draw, fs<i> samples with
 * the state its slot holds. */
static VkSampler make_sampler(VkDevice dev, const agal_sampler_slots *slots, const agal_binding_sampler *s)
{
    agal_sampler state = agal_slots_resolve(slots, &s->token);
    VkSamplerCreateInfo si = agal_vk_sampler_info(&state, 0.0f); /* or maxSamplerAnisotropy */
    VkSampler sampler = VK_NULL_HANDLE;
    vkCreateSampler(dev, &si, NULL, &sampler);
    return sampler;
}

/* The draw's descriptor set: each constant block (vc, fc) from its buffer, each
 * fs<i> from the texture set with setTextureAt(i) and the sampler of slot i. */
static VkDescriptorSet bind_resources(VkDevice dev, VkDescriptorPool pool, const program3d *p, const VkBuffer block[2],
                                      const VkImageView *texture, const VkSampler *sampler)
{
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = pool,
                                      .descriptorSetCount = 1,
                                      .pSetLayouts = &p->set_layout};
    VkDescriptorSet set = VK_NULL_HANDLE;
    vkAllocateDescriptorSets(dev, &ai, &set);
    VkDescriptorBufferInfo bi[2]; /* [AGAL_VERTEX]: vc, [AGAL_FRAGMENT]: fc */
    for (int i = 0; i < 2; i++) bi[i] = (VkDescriptorBufferInfo){block[i], 0, VK_WHOLE_SIZE};
    VkDescriptorImageInfo ii[16];
    for (int i = 0; i < 16; i++)
        ii[i] = (VkDescriptorImageInfo){sampler[i], texture[i], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    VkWriteDescriptorSet w[AGAL_VK_MAX_BINDINGS];
    uint32_t n = agal_vk_descriptor_writes(&p->up, set, bi, ii, w);
    vkUpdateDescriptorSets(dev, n, w, 0, NULL);
    return set;
}

/* ---- a headless frame around it: any Vulkan 1.0 device, an 8x8 back buffer ---- */
#include <stdlib.h>
#include <string.h>

typedef struct gpu {
    VkInstance instance;
    VkPhysicalDevice phys;
    VkDevice dev;
    VkQueue queue;
    uint32_t family;
} gpu;

static bool gpu_open(gpu *g)
{
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_0};
    VkInstanceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
    uint32_t n = 1, nq = 16;
    if (vkCreateInstance(&ci, NULL, &g->instance) || vkEnumeratePhysicalDevices(g->instance, &n, &g->phys) < 0 || !n)
        return false;
    VkQueueFamilyProperties qf[16];
    vkGetPhysicalDeviceQueueFamilyProperties(g->phys, &nq, qf);
    while (g->family < nq && !(qf[g->family].queueFlags & VK_QUEUE_GRAPHICS_BIT)) g->family++;
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = g->family,
                                  .queueCount = 1,
                                  .pQueuePriorities = &prio};
    VkDeviceCreateInfo di = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1, .pQueueCreateInfos = &qi};
    if (g->family == nq || vkCreateDevice(g->phys, &di, NULL, &g->dev)) return false;
    vkGetDeviceQueue(g->dev, g->family, 0, &g->queue);
    return true;
}

static VkDeviceMemory memory(const gpu *g, VkMemoryRequirements req, VkMemoryPropertyFlags want)
{
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(g->phys, &mp);
    uint32_t t = 0;
    while (t < mp.memoryTypeCount &&
           !((req.memoryTypeBits >> t & 1) && (mp.memoryTypes[t].propertyFlags & want) == want))
        t++;
    VkMemoryAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size, .memoryTypeIndex = t};
    VkDeviceMemory m = VK_NULL_HANDLE;
    vkAllocateMemory(g->dev, &ai, NULL, &m);
    return m;
}

typedef struct buffer {
    VkBuffer buf;
    VkDeviceMemory mem;
} buffer;

/* A host-visible buffer of size bytes holding data (zeros for NULL). */
static buffer make_buffer(const gpu *g, VkBufferUsageFlags usage, const void *data, size_t size)
{
    buffer b = {0};
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size, .usage = usage};
    vkCreateBuffer(g->dev, &bi, NULL, &b.buf);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(g->dev, b.buf, &req);
    b.mem = memory(g, req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    vkBindBufferMemory(g->dev, b.buf, b.mem, 0);
    void *p;
    vkMapMemory(g->dev, b.mem, 0, VK_WHOLE_SIZE, 0, &p);
    if (data) memcpy(p, data, size);
    else memset(p, 0, size);
    vkUnmapMemory(g->dev, b.mem);
    return b;
}

typedef struct image {
    VkImage img;
    VkDeviceMemory mem;
    VkImageView view;
} image;

static image make_image(const gpu *g, VkFormat format, uint32_t w, uint32_t h, VkImageUsageFlags usage)
{
    image im = {0};
    VkImageCreateInfo ii = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                            .imageType = VK_IMAGE_TYPE_2D,
                            .format = format,
                            .extent = {w, h, 1},
                            .mipLevels = 1,
                            .arrayLayers = 1,
                            .samples = VK_SAMPLE_COUNT_1_BIT,
                            .tiling = VK_IMAGE_TILING_OPTIMAL,
                            .usage = usage};
    vkCreateImage(g->dev, &ii, NULL, &im.img);
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(g->dev, im.img, &req);
    im.mem = memory(g, req, 0);
    vkBindImageMemory(g->dev, im.img, im.mem, 0);
    VkImageViewCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                .image = im.img,
                                .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                .format = format,
                                .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    vkCreateImageView(g->dev, &vi, NULL, &im.view);
    return im;
}

static void buffer_free(const gpu *g, buffer *b)
{
    vkDestroyBuffer(g->dev, b->buf, NULL);
    vkFreeMemory(g->dev, b->mem, NULL);
}

static void image_free(const gpu *g, image *im)
{
    vkDestroyImageView(g->dev, im->view, NULL);
    vkDestroyImage(g->dev, im->img, NULL);
    vkFreeMemory(g->dev, im->mem, NULL);
}

static void layout_barrier(VkCommandBuffer cmd, VkImage img, VkImageLayout from, VkImageLayout to, VkAccessFlags src,
                           VkAccessFlags dst, VkPipelineStageFlags ss, VkPipelineStageFlags ds)
{
    VkImageMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                              .srcAccessMask = src,
                              .dstAccessMask = dst,
                              .oldLayout = from,
                              .newLayout = to,
                              .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                              .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                              .image = img,
                              .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    vkCmdPipelineBarrier(cmd, ss, ds, 0, 0, NULL, 0, NULL, 1, &b);
}

static void *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    void *data = f ? malloc(1 << 18) : NULL;
    *size = data ? fread(data, 1, 1 << 18, f) : 0;
    if (f) fclose(f);
    return data;
}

enum { W = 8 };

int main(int argc, char **argv)
{
    size_t vn, fn;
    void *vbytes = argc == 3 ? read_file(argv[1], &vn) : NULL, *fbytes = vbytes ? read_file(argv[2], &fn) : NULL;
    gpu g = {0};
    program3d prog;
    if (!fbytes || !gpu_open(&g))
        return fprintf(stderr, "usage: example VERTEX.bin FRAGMENT.bin (a Vulkan device)\n"), 2;
    if (!program_upload(g.dev, &prog, vbytes, vn, fbytes, fn)) return 1;

    /* configureBackBuffer(8, 8): RGBA8, read back at the end */
    image target = make_image(&g, VK_FORMAT_R8G8B8A8_UNORM, W, W,
                              VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    VkAttachmentDescription ad = {.format = VK_FORMAT_R8G8B8A8_UNORM,
                                  .samples = VK_SAMPLE_COUNT_1_BIT,
                                  .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                  .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
                                  .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                  .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                  .finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
    VkAttachmentReference ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription sub = {
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS, .colorAttachmentCount = 1, .pColorAttachments = &ref};
    VkSubpassDependency dep = {0,
                               VK_SUBPASS_EXTERNAL,
                               VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                               VK_PIPELINE_STAGE_TRANSFER_BIT,
                               VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                               VK_ACCESS_TRANSFER_READ_BIT,
                               0};
    VkRenderPassCreateInfo rpi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                  .attachmentCount = 1,
                                  .pAttachments = &ad,
                                  .subpassCount = 1,
                                  .pSubpasses = &sub,
                                  .dependencyCount = 1,
                                  .pDependencies = &dep};
    VkRenderPass pass;
    vkCreateRenderPass(g.dev, &rpi, NULL, &pass);
    VkFramebufferCreateInfo fbi = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
                                   .renderPass = pass,
                                   .attachmentCount = 1,
                                   .pAttachments = &target.view,
                                   .width = W,
                                   .height = W,
                                   .layers = 1};
    VkFramebuffer fbo;
    vkCreateFramebuffer(g.dev, &fbi, NULL, &fbo);

    /* setVertexBufferAt(0, positions, 0, float3), (1, uvs, 0, float2): two clockwise
     * triangles over the screen; setCulling(back); setBlendFactors(one, zero) */
    static const float pos[6][3] = {{-1, -1, 0.5f}, {1, 1, 0.5f},  {1, -1, 0.5f},
                                    {-1, -1, 0.5f}, {-1, 1, 0.5f}, {1, 1, 0.5f}};
    static const float uv[6][2] = {{0, 1}, {1, 0}, {1, 1}, {0, 1}, {0, 0}, {1, 0}};
    draw_state state = {.format = {AGAL_VERTEX_FLOAT_3, AGAL_VERTEX_FLOAT_2},
                        .cull = AGAL_FACE_BACK,
                        .src = AGAL_BLEND_ONE,
                        .dst = AGAL_BLEND_ZERO};
    buffer vbuf[2] = {make_buffer(&g, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, pos, sizeof pos),
                      make_buffer(&g, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, uv, sizeof uv)};
    /* setProgramConstantsFromMatrix("vertex", 0, new Matrix3D(), false): vc0..vc3 the
     * identity (m44 op, va0, vc0); fc0 a tint. A block holds the registers its
     * ranges name (the whole file, unless the limits packed them). */
    static const double identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    static float vc[250][4], fc[200][4] = {{1, 0.5f, 0.25f, 1}}, block[250][4];
    agal_stage3d_constants_from_matrix(prog.up.vertex->profile, AGAL_VERTEX, 0, identity, false, vc);
    buffer ubo[2] = {0};
    VkBuffer blocks[2] = {0};
    for (size_t i = 0; i < prog.up.nblocks; i++) {
        const agal_binding_block *b = &prog.up.blocks[i];
        agal_binding_block_gather(b, b->stage == AGAL_VERTEX ? vc[0] : fc[0], block[0]);
        ubo[b->stage] = make_buffer(&g, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, block, b->size);
        blocks[b->stage] = ubo[b->stage].buf;
    }
    /* createTexture(2, 2, bgra) and an upload of BitmapData's ARGB words, first row at v = 0 */
    static const uint32_t argb[4] = {0xffff0000, 0xff00ff00, 0xff0000ff, 0xffffffff};
    image tex = make_image(&g, agal_vk_texture_format(AGAL_TEXTURE_BGRA), 2, 2,
                           VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    buffer staging = make_buffer(&g, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, argb, sizeof argb);
    /* setTextureAt(0, tex); setProgram(prog): the slots take the tokens' sampler state */
    agal_sampler_slots slots;
    agal_slots_init(&slots);
    agal_slots_set_program(&slots, prog.up.fragment);
    VkImageView views[16] = {tex.view};
    VkSampler samplers[16] = {0};
    for (size_t i = 0; i < prog.up.nsamplers; i++)
        samplers[prog.up.samplers[i].num] = make_sampler(g.dev, &slots, &prog.up.samplers[i]);
    VkDescriptorPoolSize ps[3];
    VkDescriptorPoolCreateInfo dpi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                      .maxSets = 1,
                                      .poolSizeCount = agal_vk_pool_sizes(&prog.up, ps),
                                      .pPoolSizes = ps};
    VkDescriptorPool pool;
    vkCreateDescriptorPool(g.dev, &dpi, NULL, &pool);
    VkDescriptorSet set = bind_resources(g.dev, pool, &prog, blocks, views, samplers);
    VkPipeline pipe = make_pipeline(g.dev, pass, &prog, &state);

    /* the frame: the texture's upload, clear, drawTriangles, present (read back) */
    VkCommandPoolCreateInfo cpi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = g.family};
    VkCommandPool cpool;
    vkCreateCommandPool(g.dev, &cpi, NULL, &cpool);
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = cpool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
    VkCommandBuffer cmd;
    vkAllocateCommandBuffers(g.dev, &cai, &cmd);
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    vkBeginCommandBuffer(cmd, &begin);
    layout_barrier(cmd, tex.img, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                   VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    VkBufferImageCopy in = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, .imageExtent = {2, 2, 1}};
    vkCmdCopyBufferToImage(cmd, staging.buf, tex.img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &in);
    layout_barrier(cmd, tex.img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                   VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT);
    VkClearValue clear = {.color = {{0, 0, 0, 1}}};
    VkRenderPassBeginInfo rb = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                .renderPass = pass,
                                .framebuffer = fbo,
                                .renderArea = {{0, 0}, {W, W}},
                                .clearValueCount = 1,
                                .pClearValues = &clear};
    vkCmdBeginRenderPass(cmd, &rb, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
    VkViewport viewport = {0, 0, W, W, 0, 1}; /* the shader fixes Stage3D's y: a positive height */
    VkRect2D scissor = {{0, 0}, {W, W}};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, prog.layout, 0, 1, &set, 0, NULL);
    for (size_t i = 0; i < prog.up.nattributes; i++) {
        uint32_t loc = prog.up.attributes[i].location;
        VkDeviceSize off = 0;
        if (loc < 2) vkCmdBindVertexBuffers(cmd, loc, 1, &vbuf[loc].buf, &off);
    }
    vkCmdDraw(cmd, 6, 1, 0, 0);
    vkCmdEndRenderPass(cmd);
    buffer readback = make_buffer(&g, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL, W * W * 4);
    VkBufferImageCopy out = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, .imageExtent = {W, W, 1}};
    vkCmdCopyImageToBuffer(cmd, target.img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buf, 1, &out);
    VkMemoryBarrier host = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                            .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                            .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, NULL, 0,
                         NULL);
    vkEndCommandBuffer(cmd);
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
    vkQueueSubmit(g.queue, 1, &si, VK_NULL_HANDLE);
    vkQueueWaitIdle(g.queue);

    /* the back buffer, top row first, RRGGBBAA a pixel */
    uint8_t *px;
    vkMapMemory(g.dev, readback.mem, 0, VK_WHOLE_SIZE, 0, (void **)&px);
    for (int y = 0; y < W; y++, putchar('\n'))
        for (int x = 0; x < W; x++)
            printf("%02x%02x%02x%02x ", px[4 * (y * W + x)], px[4 * (y * W + x) + 1], px[4 * (y * W + x) + 2],
                   px[4 * (y * W + x) + 3]);
    vkUnmapMemory(g.dev, readback.mem);

    vkDestroyPipeline(g.dev, pipe, NULL);
    vkDestroyDescriptorPool(g.dev, pool, NULL);
    for (int i = 0; i < 16; i++) vkDestroySampler(g.dev, samplers[i], NULL);
    vkDestroyCommandPool(g.dev, cpool, NULL);
    vkDestroyFramebuffer(g.dev, fbo, NULL);
    vkDestroyRenderPass(g.dev, pass, NULL);
    buffer *bufs[6] = {&vbuf[0], &vbuf[1], &ubo[0], &ubo[1], &staging, &readback};
    for (int i = 0; i < 6; i++) buffer_free(&g, bufs[i]);
    image_free(&g, &tex);
    image_free(&g, &target);
    program_dispose(g.dev, &prog);
    vkDestroyDevice(g.dev, NULL);
    vkDestroyInstance(g.instance, NULL);
    free(vbytes);
    free(fbytes);
    return 0;
}
