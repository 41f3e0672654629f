/* harness_api.h: what the project's own harness needs from the library and no
 * emulator should: SPIR-V whose vertex outputs are captured by transform feedback
 * (op at Offset 0 of XfbBuffer 0, the k-th written varying at 16 * (1 + k),
 * XfbStride 16 * (1 + nvaryings); TransformFeedback capability, so not for plain
 * Vulkan 1.0). Not exported from the shared library; the tools link the static one. */
#ifndef AGAL_HARNESS_API_H
#define AGAL_HARNESS_API_H

#include "agal/agal.h"

agal_status agal_translate_spirv_xfb(agal_context *ctx, const agal_program *prog, const agal_translate_options *opt,
                                     const uint32_t **words, size_t *nwords);

#endif
