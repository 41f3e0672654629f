/* emit.h: the back ends below the translate driver (translate.c). Each takes an IR
 * (from agal_ir_pipeline, with ir->info gathered) and options that only the
 * library's own callers set: the upload call (centroid varyings) and the project's
 * harness (transform feedback). */
#ifndef AGAL_EMIT_H
#define AGAL_EMIT_H

#include "harness_api.h"
#include "ir.h"

/* The GLSL family's dialects (glsl.c writes all three from one walk). */
typedef enum agal_glsl_dialect {
    AGAL_GLSL_330 = 0, /* GLSL 330 core: desktop GL 3.3 */
    AGAL_GLSL_ESSL300, /* GLSL ES 3.00: WebGL 2, OpenGL ES 3.0 */
    AGAL_GLSL_ESSL100  /* GLSL ES 1.00: WebGL 1, OpenGL ES 2.0 */
} agal_glsl_dialect;

typedef struct agal_emit_options {
    agal_translate_options pub; /* what the caller asked for (defaults when NULL) */
    uint16_t centroid_varyings; /* bit n: v<n> is interpolated at the centroid */
    agal_glsl_dialect dialect;  /* GLSL: which one */
    agal_names names;           /* GLSL: every name set (agal_names_resolve) */
    /* The harness only: SPIR-V TransformFeedback capture of op and the written
     * varyings (XfbBuffer 0, op at Offset 0, the k-th written varying at 16*(1+k),
     * XfbStride 16*(1+nvaryings)). Not valid for plain Vulkan 1.0 Shader capability. */
    bool xfb;
    /* debug_info: the program's disassembly, the source the output's lines name
     * (the driver makes it; SPIR-V's OpSource carries it). */
    const char *source;
} agal_emit_options;

/* GLSL's source string number of main's statements under debug_info (`#line N 1`),
 * so a driver's line in string 1 is a token's line and in string 0 the text's own. */
enum { AGAL_GLSL_BODY_STRING = 1 };

/* spirv.c: the module, in ctx's arena. */
agal_status agal_spirv_emit(agal_context *ctx, const agal_ir *ir, const agal_emit_options *opt, const uint32_t **words,
                            size_t *nwords);
/* spirv.c: the same into caller memory: at most cap words to buf, *nwords the
 * module's size; AGAL_ERR_LIMIT when cap is too small. */
agal_status agal_spirv_emit_to(agal_context *ctx, const agal_ir *ir, const agal_emit_options *opt, uint32_t *buf,
                               size_t cap, size_t *nwords);
/* glsl.c: the text of opt->dialect. ir must come from the pipeline
 * with keep_copies for one statement per AGAL instruction; tests pass other IRs. */
agal_status agal_glsl_emit(agal_context *ctx, const agal_ir *ir, const agal_emit_options *opt, const char **text,
                           size_t *len);

/* wgsl.c: WGSL for WebGPU. ir as for agal_glsl_emit (keep_copies). */
agal_status agal_wgsl_emit(agal_context *ctx, const agal_ir *ir, const agal_emit_options *opt, const char **text,
                           size_t *len);

/* translate.c: the driver. One stage's IR for a target (its IR options: the
 * table) and clip option, with the varyings of unread (bit n: v<n>) no output,
 * and a pair's varyings packed by packing (NULL: not packed). */
agal_status agal_translate_pipeline(agal_context *ctx, const agal_program *prog, agal_target target, agal_clip clip,
                                    uint16_t unread, const agal_ir_packing *packing, agal_ir **out);
/* The mapping of op a translation for target makes with the clip option: the
 * target's own for AGAL_CLIP_DEFAULT (as given for a target the library has not). */
agal_clip agal_target_clip(agal_target target, agal_clip clip);
/* The translation of ir (from agal_translate_pipeline for the same target) and its
 * binding into *out (every field; out->size is not read). */
agal_status agal_translate_ir(agal_context *ctx, const agal_ir *ir, agal_target target, const agal_emit_options *eo,
                              agal_shader *out);

/* debug_info.c: out's source map, read off its words or text (debug_info). */
agal_status agal_source_map(agal_context *ctx, agal_target target, agal_shader *out);

/* limits.c: the caller's limits (NULL: unlimited) read by the ABI rule, and whether
 * one stage's translation (ir, and b its binding) fits them: AGAL_OK, or
 * AGAL_ERR_UNSUPPORTED with the one diagnostic, Flash's 3613, naming the limit. */
agal_status agal_limits_read(agal_context *ctx, const agal_limits *src, agal_limits *out);
agal_status agal_limits_fit(agal_context *ctx, const agal_limits *lim, const agal_ir *ir, const agal_binding *b);
/* limits.c: where ir's direct constant reads reach past its stage's uniform-vector
 * limit on target (the GLSL family's y-flip uniform counted), packs them
 * (agal_lower_constant_ranges) before the back end writes them. */
agal_status agal_limits_pack_constants(const agal_limits *lim, agal_target target, agal_ir *ir);

#endif
