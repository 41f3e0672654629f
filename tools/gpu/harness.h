/* harness.h: thin Vulkan 1.x and OpenGL 3.3 runners for differential testing.
 *
 * Both runners take one draw, described by harness_draw, in the binding model of
 * the project's emitters (docs/binding-models.md: "SPIR-V binding model", "GLSL 330 binding model"):
 *   va<i>  vertex attribute location i, one vec4 float per vertex (binding i)
 *   vc     std140 vec4 array, Vulkan set 0 binding 0 / GL block agal_vc_block -> 0
 *   fc     std140 vec4 array, Vulkan set 0 binding 1 / GL block agal_fc_block -> 1
 *   fs<i>  Vulkan: a combined image sampler at binding 2+i, or with separate samplers
 *          the image there and the sampler at 18+i; GL: uniform fs<i> on unit i
 *   oc<i>  RGBA32F colour attachment i
 *   depth  D32 float attachment, cleared to 1, test ALWAYS with write (fd or op.z/w)
 * and return what the GPU produced: every oc, depth, and the transform-feedback
 * record of each vertex (op then the captured varyings, vec4 each). The mapping of
 * Stage3D's state to each API (samplers, layouts, GL program set-up, culling, the
 * render-to-texture flip) is the installed helpers' <agal/vulkan.h> and <agal/gl.h>,
 * so the harness tests them as an emulator uses them.
 *
 * Rows of the returned images run top to bottom in Stage3D terms: row 0 is the edge
 * that op.y = +w reaches. Vulkan gets that from the emitter's y negation; the GL
 * runner renders as on screen (agal_yflip left at 1) and flips rows on readback.
 * A draw's `pre` pass renders to a texture the draw then samples on the GPU, as
 * Context3D.setRenderToTexture does: Vulkan with the same state as the back buffer,
 * GL with agal_gl_yflip(true) and agal_gl_front_face(true).
 *
 * Pixels a fragment program discards keep the clear colour HARNESS_CLEAR in every
 * oc; harness_discarded() tests for it.
 */
#ifndef AGAL_HARNESS_H
#define AGAL_HARNESS_H

#include "agal/agal.h"
#include "agal/stage3d.h"
#include "clock.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HARNESS_MAX_ATTRIBS 16
#define HARNESS_MAX_TEXTURES 16
#define HARNESS_MAX_OUTPUTS 4
/* Clear value of every colour attachment: a value no test program computes by
 * accident, so a pixel still holding it in oc0 was discarded. */
#define HARNESS_CLEAR (-7777.25f)

/* A square RGBA32F texture with a full or partial mip chain. Texels are stored face
 * after face (cube faces in the order +X -X +Y -Y +Z -Z), each face level after
 * level from the base, each level row by row (row 0 = t 0), 4 floats a texel. */
typedef struct harness_texture {
    bool present;
    bool cube;
    unsigned size;   /* base level width = height, a power of two */
    unsigned levels; /* 1..log2(size)+1 */
    const float *texels;
    /* What it is sampled with: the token resolved through its slot's state
     * (agal_slots_resolve), to agal_vk_sampler_info / agal_gl_sampler_params. */
    agal_sampler sampler;
    /* Sampled from the draw's pre pass (its oc0, pre->width square, one level)
     * instead of texels: render to texture. */
    bool rendered;
} harness_texture;

/* Offset in floats of (face, level) in harness_texture.texels. */
size_t harness_texture_offset(const harness_texture *t, unsigned face, unsigned level);
/* Floats in harness_texture.texels. */
size_t harness_texture_floats(const harness_texture *t);

typedef struct harness_draw {
    /* Vulkan: SPIR-V words; fragment NULL = vertex only (rasteriser discard). */
    const uint32_t *vs_spirv, *fs_spirv;
    size_t vs_words, fs_words;
    /* GL: GLSL 330 source; fragment NULL = vertex only. */
    const char *vs_glsl, *fs_glsl;

    unsigned nverts;                           /* triangle list, not indexed */
    unsigned ninstances;                       /* >= 1 */
    const float *attribs[HARNESS_MAX_ATTRIBS]; /* nverts * 4 floats, NULL = unused */

    const float *vc, *fc; /* nvc / nfc vec4s; the block sizes the shaders declare */
    unsigned nvc, nfc;
    harness_texture tex[HARNESS_MAX_TEXTURES];

    unsigned noc;            /* colour outputs oc0..noc-1 (fragment draws) */
    bool depth_less;         /* depth test LESS (a scene) instead of ALWAYS (one layer) */
    agal_triangle_face cull; /* setCulling: the faces culled, Stage3D's front face */
    unsigned width, height;

    /* The descriptor bindings and GL names the shaders declare: an upload's
     * (agal_upload; its blocks and samplers, combined or separate), or NULL for the
     * harness's own (harness_layout_of) for shaders agal_upload did not make: the
     * transform-feedback SPIR-V, hand-written ones. */
    const agal_upload_result *layout;
    /* Render to texture: first draw pre (one oc, no capture, no pre of its own)
     * into a texture that every `rendered` texture of this draw samples. */
    const struct harness_draw *pre;
    /* GL: the pair was uploaded with AGAL_CLIP_CONTROL: drawn under glClipControl
     * (agal_gl_clip_origin, GL_ZERO_TO_ONE), front faces clockwise (GL 4.5). */
    bool clip_control;

    /* Transform feedback: capture op and the varyings v<capture_regs[k]>, in that
     * (ascending) order, per vertex, instance after instance. */
    bool capture;
    unsigned ncapture;
    uint8_t capture_regs[16];
} harness_draw;

typedef struct harness_result {
    float *color[HARNESS_MAX_OUTPUTS]; /* width*height*4 each (malloc), NULL when not drawn */
    float *depth;                      /* width*height */
    float *xfb;                        /* ninstances*nverts*(1+ncapture)*4 */
    size_t xfb_floats;
    /* What the driver took for the draw (not its pre pass), in seconds: compile_s
     * makes the shaders (Vulkan: vkCreateShaderModule + vkCreateGraphicsPipelines;
     * GL: glCompileShader + glLinkProgram until its status is known), draw_s runs
     * the draw until the GPU is done (Vulkan: submit to fence, the pre pass and the
     * readback copies in the same command buffer; GL: the draw call to glFinish). A
     * driver that compiles at first use (llvmpipe, most GL drivers) pays it in draw_s:
     * agal-bench --driver reports both. */
    double compile_s, draw_s;
} harness_result;

void harness_result_free(harness_result *r);

/* The harness's own layout, in agal_upload's terms so one path binds both: vc (for
 * the vertex stage) and fc (fragment) when given, and a combined image sampler
 * fs<i> for each present texture. */
typedef struct harness_layout {
    agal_upload_result r;
    agal_binding_sampler samplers[HARNESS_MAX_TEXTURES];
    char names[HARNESS_MAX_TEXTURES][8];
} harness_layout;
/* An upload's shaders (both targets' fields: the runner takes its own) and layout
 * in d. */
void harness_draw_upload(harness_draw *d, const agal_upload_result *up);
/* d->layout, or the harness's own built in own. */
const agal_upload_result *harness_layout_of(const harness_draw *d, harness_layout *own);
/* A stage's constants as the draw's layout declares them: d->vc (d->fc) as they are
 * where register n is vec4 n, else (an upload held to limits, which packed them)
 * gathered into scratch by the block's ranges (agal_binding_block_gather); *n the
 * vec4s. NULL where the draw has none. */
enum { HARNESS_MAX_CONSTANTS = 256 }; /* above AGAL's largest file, vc's 250 */
const float *harness_constants(const harness_draw *d, agal_stage stage, float (*scratch)[4], unsigned *n);
/* Checks what a runner needs of a draw and its pre pass (gl: the GLSL sources, else
 * the SPIR-V): 0, or -1 with the reason in err. */
int harness_check_draw(const harness_draw *d, bool gl, char *err, size_t errsize);
/* Keeps every shared object loaded now (drivers included) mapped until exit, so
 * sanitizer reports of driver leaks name their library, not an unmapped address.
 * The runners call it once they have a device. */
void harness_pin_libraries(void);
static inline bool harness_discarded(const harness_result *r, size_t pixel)
{
    return r->color[0] && r->color[0][4 * pixel] == HARNESS_CLEAR && r->color[0][4 * pixel + 1] == HARNESS_CLEAR;
}

/* ---- harness_vk.c ---- */

typedef struct harness_vk harness_vk;
/* validation: enable VK_LAYER_KHRONOS_validation and count every warning/error it
 * reports (harness_vk_messages). Returns NULL and a reason in err on failure. */
harness_vk *harness_vk_create(bool validation, char *err, size_t errsize);
/* The same on a device that takes SPIR-V with NonSemantic.Shader.DebugInfo.100
 * (agal2spv -gnonsemantic): VK_KHR_shader_non_semantic_info enabled where the device
 * lists it, else Vulkan 1.3 (the instance asks for 1.3, where it is core); NULL, and
 * err naming the device, where it has neither. */
harness_vk *harness_vk_create_nonsemantic(bool validation, char *err, size_t errsize);
/* Returns the validation messages seen over the runner's life, teardown included. */
unsigned harness_vk_destroy(harness_vk *h);
/* 0 on success; otherwise -1 and a reason in err. */
int harness_vk_run(harness_vk *h, const harness_draw *d, harness_result *out, char *err, size_t errsize);
/* Validation messages seen so far (each also printed to stderr). */
unsigned harness_vk_messages(const harness_vk *h);
const char *harness_vk_device_name(const harness_vk *h);

/* ---- harness_gl.c ---- */

typedef struct harness_gl harness_gl;
/* A headless GL 3.3+ core context through EGL (surfaceless, else device, else the
 * default display). debug: count GL debug-output errors (harness_gl_messages). */
harness_gl *harness_gl_create(bool debug, char *err, size_t errsize);
void harness_gl_destroy(harness_gl *h);
int harness_gl_run(harness_gl *h, const harness_draw *d, harness_result *out, char *err, size_t errsize);
unsigned harness_gl_messages(const harness_gl *h);
const char *harness_gl_renderer(const harness_gl *h);
/* Runs a draw in whatever GL context is current (agalview's window): same as
 * harness_gl_run without the EGL part. */
int harness_gl_run_current(const harness_draw *d, harness_result *out, char *err, size_t errsize);

#endif
