/* nonsemantic.h: NonSemantic.Shader.DebugInfo.100 for the SPIR-V writer (spirv.c),
 * with debug_info_nonsemantic (docs/debug-info.md, "A shader debugger").
 *
 * The writer keeps its own words, by the module section each belongs to, and
 * hands the function's instructions back as words for spirv.c to place: it calls
 * nothing of spirv.c (no call cycle), and spirv.c splices its sections in once the
 * function is written. Its ids come from the module's counter (next_id). */
#ifndef AGAL_SPIRV_NONSEMANTIC_H
#define AGAL_SPIRV_NONSEMANTIC_H

#include "internal.h"

typedef struct agal_spv_ns agal_spv_ns;

/* The most words one call below writes to out: a DebugScope (6) and a DebugLine (10). */
enum { AGAL_SPV_NS_MAX_WORDS = 16 };

/* A run of words of one module section. */
typedef struct agal_spv_words {
    const uint32_t *w;
    size_t n;
} agal_spv_words;

/* The sections the writer adds to (SPIR-V's logical layout): OpExtension after the
 * capabilities, the OpExtInstImport, its OpStrings (the debug section), and its
 * types, constants and module-level OpExtInsts after every other global. */
enum { AGAL_SPV_NS_EXTENSION, AGAL_SPV_NS_IMPORT, AGAL_SPV_NS_STRINGS, AGAL_SPV_NS_GLOBALS, AGAL_SPV_NS_SECTIONS };

/* Begins the debug info of a module whose source is text, named by OpString file,
 * with void_type its OpTypeVoid; max_line the largest line a DebugLine will name.
 * NULL when out of memory. */
agal_spv_ns *agal_spv_ns_new(agal_context *ctx, uint32_t *next_id, uint32_t file, uint32_t void_type, const char *text,
                             uint32_t max_line);
/* The entry block's first words (after its OpLabel, block the label's id): the
 * function's DebugScope and DebugFunctionDefinition of function. Returns the
 * number of words written to out. */
size_t agal_spv_ns_function(agal_spv_ns *ns, uint32_t block, uint32_t function, uint32_t *out);
/* Before the code of source line line (from 1; 0: code of no line) in block (its
 * label's id, never before a phi of it): the function's DebugScope if the block has
 * none yet, then DebugLine, or DebugNoLine for line 0. Returns the words written. */
size_t agal_spv_ns_line(agal_spv_ns *ns, uint32_t block, uint32_t line, uint32_t *out);
/* Finishes the module-level words; AGAL_OK, or the first failure (out of memory). */
agal_status agal_spv_ns_finish(agal_spv_ns *ns, agal_spv_words sections[AGAL_SPV_NS_SECTIONS]);

#endif
