/* toolio.h: what the command-line programs share: whole files in and out ("-" is
 * stdin/stdout), printing diagnostics, and programs from bytecode or .agal text. */
#ifndef TOOLIO_H
#define TOOLIO_H

#include "agal.h"

#include <stdbool.h>
#include <stddef.h>

/* The whole file, malloc'd and NUL-terminated (so text parsers may rely on it);
 * NULL when it cannot be read. */
char *tool_read_file(const char *path, size_t *len);
/* Writes size bytes to path (NULL or "-": stdout); false on any error. */
bool tool_write_file(const char *path, const void *data, size_t size);
/* Prints the context's diagnostics as "file: token 3 (mov): error 3648: ..." and
 * clears them. */
void tool_print_diags(agal_context *ctx, const char *file);
/* Prints the context's diagnostics as Flash Player's error lines ("Error #3646:
 * AGAL validation failed: ..."), one a line, and clears them. */
void tool_print_flash(agal_context *ctx);
/* Assembles .agal text (flags: agal_assemble's). Stage and version come from the
 * caller when given (stage >= 0, version != 0), else from the text's `// stage:`
 * and `// agal-version:` comments; the version defaults to 1, as in Adobe's
 * assembler. Prints the warnings (what Adobe's assembler ignored) and the error.
 * Returns 0, 1 (invalid text) or 2 (no stage known). *bytes lives in ctx. */
int tool_assemble(agal_context *ctx, const char *name, const char *text, size_t len, int stage, uint32_t version,
                  unsigned flags, const uint8_t **bytes, size_t *size);
/* True for a path ending in ".agal". */
bool tool_is_agal_text(const char *path);

typedef struct tool_program_opts {
    bool lenient;          /* agal_decode_options.lenient */
    agal_profile profile;  /* AGAL_PROFILE_AUTO: the version's */
    agal_slot slot;        /* the Program3D.upload argument it stands for (Flash's messages name it) */
    int stage;             /* text: the stage (overrides `// stage:`), -1 from the text */
    uint32_t version;      /* text: the version (overrides `// agal-version:`), 0 from the text (else 1) */
    bool flash;            /* print errors as Flash Player's lines (tool_print_flash) */
} tool_program_opts;

/* Loads and decodes a program: AGAL bytecode, or AGAL text when the path ends in
 * .agal (or a stage or version is given and the file does not start with AGAL's
 * magic byte). Prints diagnostics (assembler warnings too) prefixed with path.
 * Returns 0, 1 (invalid program or text) or 2 (unreadable file, no stage, out of
 * memory). */
int tool_load_program(agal_context *ctx, const char *path, const tool_program_opts *opt, const agal_program **out);

#endif
