/* translated.h: one translation's words or text, for the tools and tests that want
 * only the module or the text of agal_translate. */
#ifndef TRANSLATED_H
#define TRANSLATED_H

#include "agal/agal.h"

/* agal_translate for target with opt's other fields (opt NULL: the defaults), for
 * the tools and tests that want only the module or the text: *words / *text live
 * in ctx. len may be NULL. */
agal_status tool_translate_words(agal_context *ctx, const agal_program *prog, const agal_translate_options *opt,
                                 const uint32_t **words, size_t *nwords);
agal_status tool_translate_text(agal_context *ctx, const agal_program *prog, agal_target target,
                                const agal_translate_options *opt, const char **text, size_t *len);

#endif
