/* limits_count.h: what a translation uses of a device, counted from its text or
 * module by the target's own rule, independently of the library's count (limits.c):
 * the proof of issue 34 (test_limits_glslang.c) holds each translation a preset
 * accepts to these counts.
 * - GLSL ES 1.00 (Appendix A.7): a vec4 array of N takes N rows, a float a row of its
 *   own beside vec4s; a varying vec4 a row; sampler fs<n> texture unit n; attribute
 *   va<n> location n; gl_FragData[n] draw buffer n.
 * - GLSL ES 3.00 and GLSL 330: the same, varyings also counted in components
 *   (4 a vec4), inputs and outputs by their layout locations.
 * - WGSL: the uniform array's length, a texture per fs<n>, vertex inputs and the
 *   inter-stage variables by @location (wgpu's GL backend: 4 components each).
 * - SPIR-V: Location decorations of Input and Output variables, the length of the
 *   constant block's array (ArrayStride 16), the UniformConstant bindings. */
#ifndef LIMITS_COUNT_H
#define LIMITS_COUNT_H

#include "agal/agal.h"

/* A stage's use, in agal_limits' terms (0: none used). */
typedef struct limits_use {
    uint32_t uniform_vectors, texture_units, attributes, colour_attachments;
    uint32_t varying_vectors, varying_components, interstage_variables; /* vertex outputs */
} limits_use;

/* Counts a translation for target: text (the GLSL family, WGSL) or words (SPIR-V). */
void limits_count(agal_target target, agal_stage stage, const char *text, const uint32_t *words, size_t nwords,
                  limits_use *out);

/* Checks use against lim (a field 0 is no limit, AGAL_LIMIT_NONE allows none);
 * false with the first excess written into why. */
bool limits_use_fits(const limits_use *use, agal_stage stage, const agal_limits *lim, char *why, size_t whysize);

#endif
