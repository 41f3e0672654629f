/* harness_api.h: what the project's own harness needs from the library and no
 * emulator should. Not exported from the shared library; the tools link the static
 * one. */
#ifndef AGAL_HARNESS_API_H
#define AGAL_HARNESS_API_H

#include "agal/agal.h"
#include "agal/interp.h"
#include "ir.h" /* agal_ir_conventions */

/* SPIR-V whose vertex outputs are captured by transform feedback (op at Offset 0 of
 * XfbBuffer 0, the k-th written varying at 16 * (1 + k), XfbStride 16 * (1 +
 * nvaryings); TransformFeedback capability, so not for plain Vulkan 1.0). */
agal_status agal_translate_spirv_xfb(agal_context *ctx, const agal_program *prog, const agal_translate_options *opt,
                                     const uint32_t **words, size_t *nwords);

/* What a translation for target with clip does to op and ddy (lower_conventions.c),
 * for the harness's reading of what a GPU wrote. */
void agal_target_conventions(agal_target target, agal_clip clip, agal_ir_conventions *out);

/* agal_interp_run, with what token i writes moved, in each written component of each
 * running invocation, by up to err[i][0] + err[i][1] * |value| (uniform, drawn from
 * seed, i, the invocation's index and the component): `agalrun compare` learns from
 * such runs how far the error a GPU may make in one token (sin's 2^-11, a filtered
 * texel's) moves each output downstream. err: prog->ntokens pairs; {0, 0} leaves a
 * token exact. */
agal_status agal_interp_run_perturbed(agal_context *ctx, const agal_program *prog, const agal_interp_env *env,
                                      const agal_interp_invocation *in, size_t n, agal_interp_result *out,
                                      const float (*err)[2], uint64_t seed);

#endif
