/* webgpu_page.c: the page of WebGPU draws (harness_web.h; the runner and the job
 * format: tools/gpu/webgpu_runner.js, compiled in as webgpu_runner.h). A draw's
 * bind group layout is written from its upload's bindings, as a WebGPU runtime
 * makes it from agal_upload (docs/binding-models.md, "WGSL binding model"), and each
 * sampler's state from the token's resolved state, so the browser tests both.
 * It is not the library's layout JSON (src/runtime/reflect_json.c): a draw's layout
 * is the harness's (harness_layout_of), from an upload for any target or from none
 * (transform feedback, hand-written shaders), and each entry also tells the runner
 * what to bind: the constants, the texture unit, the sampler's descriptor, a view of
 * the bound texture's dimension. */
#include "harness_web.h"

#include "agal/vulkan.h"

#include "webgpu_runner.h" /* webgpu_runner_js: tools/gpu/webgpu_runner.js as a C string */

#include <stdio.h>
#include <string.h>

/* GPUShaderStage's bits. */
enum { VISIBLE_VERTEX = 1, VISIBLE_FRAGMENT = 2 };

void webgpu_page_begin(web_text *t) { web_page_begin(t, "webgpu", 0); }

void webgpu_page_end(web_text *t) { web_page_finish(t, webgpu_runner_js); }

static const char *address_mode(VkSamplerAddressMode m)
{
    return m == VK_SAMPLER_ADDRESS_MODE_REPEAT ? "repeat" : "clamp-to-edge";
}

static const char *filter_name(int linear) { return linear ? "linear" : "nearest"; }

/* The GPUSamplerDescriptor of a resolved state: <agal/vulkan.h>'s Vulkan sampler
 * for it (a cube clamps, mipnone samples level 0 only) in WebGPU's words, without
 * anisotropy, as the harness's other samplers (the anisotropic filters filter
 * linearly). The token's LOD bias is in the shader. */
static void sampler_descriptor(web_text *t, const agal_sampler *s)
{
    VkSamplerCreateInfo v = agal_vk_sampler_info(s, 0.0f);
    web_printf(t,
               "{\"magFilter\": \"%s\", \"minFilter\": \"%s\", \"mipmapFilter\": \"%s\", \"addressModeU\": \"%s\", "
               "\"addressModeV\": \"%s\", \"addressModeW\": \"%s\", \"lodMinClamp\": 0, \"lodMaxClamp\": %s}",
               filter_name(v.magFilter == VK_FILTER_LINEAR), filter_name(v.minFilter == VK_FILTER_LINEAR),
               filter_name(v.mipmapMode == VK_SAMPLER_MIPMAP_MODE_LINEAR), address_mode(v.addressModeU),
               address_mode(v.addressModeV), address_mode(v.addressModeW), v.maxLod == 0.0f ? "0" : "32");
}

/* The sampler's binding: an upload's for WGSL (separate), else the WGSL model's. */
static uint32_t sampler_binding(const agal_binding_sampler *s)
{
    return s->sampler_binding != s->binding ? s->sampler_binding : (uint32_t)AGAL_SEPARATE_SAMPLER_BINDING + s->num;
}

static void layout_entries(web_text *t, const harness_draw *d, const agal_upload_result *layout)
{
    web_puts(t, ", \"layout\": [");
    const char *sep = "";
    for (size_t i = 0; i < layout->nblocks; i++, sep = ", ") {
        const agal_binding_block *b = &layout->blocks[i];
        web_printf(t,
                   "%s{\"binding\": %u, \"visibility\": %d, \"buffer\": {\"type\": \"uniform\", \"minBindingSize\": "
                   "%u}, \"data\": \"%s\"}",
                   sep, (unsigned)b->binding, b->stage == AGAL_VERTEX ? VISIBLE_VERTEX : VISIBLE_FRAGMENT,
                   (unsigned)b->size, b->stage == AGAL_VERTEX ? "vc" : "fc");
    }
    for (size_t i = 0; i < layout->nsamplers; i++, sep = ", ") {
        const agal_binding_sampler *s = &layout->samplers[i];
        const harness_texture *x = s->num < HARNESS_MAX_TEXTURES ? &d->tex[s->num] : NULL;
        bool cube = x && x->present ? x->cube : s->token.dim == AGAL_DIM_CUBE;
        web_printf(
            t,
            "%s{\"binding\": %u, \"visibility\": %d, \"texture\": {\"sampleType\": \"float\", \"viewDimension\": "
            "\"%s\"}, \"unit\": %u}",
            sep, (unsigned)s->binding, VISIBLE_FRAGMENT, cube ? "cube" : "2d", (unsigned)s->num);
        web_printf(t,
                   ", {\"binding\": %u, \"visibility\": %d, \"sampler\": {\"type\": \"filtering\"}, \"unit\": %u, "
                   "\"descriptor\": ",
                   (unsigned)sampler_binding(s), VISIBLE_FRAGMENT, (unsigned)s->num);
        sampler_descriptor(t, x && x->present ? &x->sampler : &s->token);
        web_puts(t, "}");
    }
    web_puts(t, "]");
}

static void textures(web_text *t, const harness_draw *d)
{
    web_puts(t, ", \"textures\": [");
    const char *sep = "";
    for (unsigned i = 0; i < HARNESS_MAX_TEXTURES; i++) {
        const harness_texture *x = &d->tex[i];
        if (!x->present) continue;
        web_printf(t, "%s{\"unit\": %u, \"cube\": %s, \"size\": %u, \"levels\": %u, \"texels\": ", sep, i,
                   x->cube ? "true" : "false", x->size, x->levels);
        web_hex_floats(t, x->texels, harness_texture_floats(x));
        web_puts(t, "}");
        sep = ", ";
    }
    web_puts(t, "]");
}

void webgpu_page_draw(web_text *t, const harness_draw *d)
{
    web_puts(t, t->items++ ? ",\n{" : "{");
    web_page_draw_inputs(t, d);
    harness_layout own;
    layout_entries(t, d, harness_layout_of(d, &own));
    textures(t, d);
    web_page_draw_outputs(t, d);
}
