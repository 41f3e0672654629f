/* emit.h: the back ends below the public translate calls. Each takes an IR (from
 * agal_ir_pipeline) and options that only the library's own callers set: the
 * upload call (centroid varyings) and the project's harness (transform feedback). */
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
    unsigned *extensions;       /* GLSL ES 1.00: receives the AGAL_EXT_* the text requires */
    agal_gl_binding *binding;   /* GLSL: receives what the text declares (may be NULL) */
    /* The harness only: SPIR-V TransformFeedback capture of op and the written
     * varyings (XfbBuffer 0, op at Offset 0, the k-th written varying at 16*(1+k),
     * XfbStride 16*(1+nvaryings)). Not valid for plain Vulkan 1.0 Shader capability. */
    bool xfb;
} agal_emit_options;

/* spirv.c: the module, in ctx's arena (the words of agal_translate_spirv). */
agal_status agal_spirv_emit(agal_context *ctx, const agal_ir *ir, const agal_emit_options *opt, const uint32_t **words,
                            size_t *nwords);
/* glsl.c: GLSL 330 text (agal_translate_glsl's). ir must come from the pipeline
 * with keep_copies for one statement per AGAL instruction; tests pass other IRs. */
agal_status agal_glsl_emit(agal_context *ctx, const agal_ir *ir, const agal_emit_options *opt, const char **text,
                           size_t *len);

/* ---- what an IR reads (ir.c) ------------------------------------------------ */

/* Bit n: a live instruction reads va<n> or v<n> (type), after the pipeline. */
uint16_t agal_ir_inputs_read(const agal_ir *ir, agal_regtype type);
/* Whether a live instruction reads a constant register; reads one relative to an
 * index; and 1 + the highest constant register read directly (0 for none). */
bool agal_ir_reads_constants(const agal_ir *ir);
bool agal_ir_reads_indirect(const agal_ir *ir);
unsigned agal_ir_constants_read(const agal_ir *ir);
/* Bit n: v<n> is the coordinate of a sample whose token has the centroid flag. */
uint16_t agal_ir_centroid_varyings(const agal_ir *ir);

#endif
