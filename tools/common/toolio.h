/* toolio.h: what the command-line programs share: whole files in and out ("-" is
 * stdin/stdout), numeric options, printing diagnostics, programs from bytecode or
 * .agal text, linking a pair, and a progress line.
 *
 * Exit status of every tool: 0 success, 1 invalid input (diagnostics on stderr),
 * 2 usage, I/O or internal error (always with a message on stderr). */
#ifndef TOOLIO_H
#define TOOLIO_H

#include "agal/agal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ---- input ------------------------------------------------------------------ */

/* The largest input each kind of file may be. Bytecode: no valid program is larger
 * than AGAL_MAX_PROGRAM_SIZE (7 + 24 * 8192 = 196615 bytes), so a larger file is
 * refused after reading one byte more. Text: the 8192 instructions of the largest
 * program take about 1 MiB even with the longest operands and every sampler option
 * (under 130 bytes a line), but comments and layout are free, so text gets 16 times
 * that; a file beyond it is not AGAL (a device, an image, a log) and is refused
 * after 16 MiB instead of being read until memory runs out. */
enum { TOOL_MAX_BINARY = AGAL_MAX_PROGRAM_SIZE, TOOL_MAX_TEXT = 16 << 20 };

/* The whole file, malloc'd and NUL-terminated (so text parsers may rely on it);
 * NULL when it cannot be read. No size limit, no message. */
char *tool_read_file(const char *path, size_t *len);
/* As tool_read_file, reading at most max bytes: a larger file is refused without
 * being read further. On failure prints "PATH: cannot read: REASON" or "PATH:
 * larger than MAX bytes, LIMIT" (limit: what the cap is, e.g. "the largest AGAL
 * program") and returns NULL. */
char *tool_read_input(const char *path, size_t max, const char *limit, size_t *len);
/* tool_read_input with the cap of AGAL bytecode (text false: TOOL_MAX_BINARY) or of
 * AGAL text (TOOL_MAX_TEXT). */
char *tool_read_agal(const char *path, bool text, size_t *len);

/* The names of dir's entries ending in suffix, sorted (strcmp), in a malloc'd
 * NULL-terminated array (free with tool_free_names). NULL, with "TOOL: DIR: REASON"
 * printed, when the directory cannot be read or holds no such name. */
char **tool_list_dir(const char *tool, const char *dir, const char *suffix, size_t *n);
void tool_free_names(char **names);

/* ---- output ----------------------------------------------------------------- */

/* A file being written. A regular file (or a new one) is written to a temporary
 * file in the same directory, which replaces the target only when everything was
 * written and closed: a failed write (a full disk, -o equal to the input) leaves the
 * target as it was. stdout ("-" or NULL) and what is not a regular file (a device,
 * a pipe) are written directly. */
typedef struct tool_output {
    FILE *f;            /* write here */
    const char *path;   /* the target as given ("-" for stdout) */
    char *target, *tmp; /* the file the temporary replaces (symlinks followed), the temporary; malloc'd */
} tool_output;

/* Opens the output; prints "TOOL: cannot write PATH: REASON" and returns false on
 * failure. */
bool tool_output_open(tool_output *o, const char *tool, const char *path);
/* Finishes the output: with ok (the caller's writes went well) and no stream error,
 * flushes, closes and renames the temporary over the target; otherwise removes the
 * temporary. Prints "TOOL: cannot write PATH: REASON" and returns false on any
 * failure (none printed when !ok: the caller said why). */
bool tool_output_close(tool_output *o, const char *tool, bool ok);
/* Writes size bytes to path (NULL or "-": stdout) through a tool_output; false
 * (with the message printed) on any error. */
bool tool_write_file(const char *tool, const char *path, const void *data, size_t size);
/* The exit status: rc, or 2 with "TOOL: cannot write stdout: REASON" when what
 * went to stdout could not all be written. Every tool's main returns through it. */
int tool_exit(const char *tool, int rc);

/* ---- options ---------------------------------------------------------------- */

/* A whole decimal number in [min, max] (no sign, no spaces, no other base); else
 * prints "TOOL: OPTION: 'TEXT' is not a whole number from MIN to MAX" and returns
 * false. */
bool tool_parse_uint(const char *tool, const char *option, const char *text, unsigned long long min,
                     unsigned long long max, unsigned long long *out);
/* The same for unsigned (max at most UINT_MAX). */
bool tool_parse_unsigned(const char *tool, const char *option, const char *text, unsigned min, unsigned max,
                         unsigned *out);
/* A finite decimal number in [min, max]; else prints "TOOL: OPTION: 'TEXT' is not a
 * number from MIN to MAX" and returns false. */
bool tool_parse_double(const char *tool, const char *option, const char *text, double min, double max, double *out);
/* A Stage3D profile: a Context3DProfile name ("baselineConstrained", "standard",
 * "enhanced"...) or the library's own (baseline, standard, standard_extended), as
 * agal_profile_find reads them; else prints "TOOL: --profile: 'TEXT' is not a
 * profile ..." and returns false. */
bool tool_parse_profile(const char *tool, const char *text, agal_profile *out);

/* ---- diagnostics and programs ------------------------------------------------- */

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
/* tool_assemble, with each token's place in the text (pos may be NULL). */
int tool_assemble_pos(agal_context *ctx, const char *name, const char *text, size_t len, int stage, uint32_t version,
                      unsigned flags, const uint8_t **bytes, size_t *size, const agal_source_pos **pos);
/* True for a path ending in ".agal". */
bool tool_is_agal_text(const char *path);

typedef struct tool_program_opts {
    bool lenient;         /* agal_decode_options.lenient */
    agal_profile profile; /* AGAL_PROFILE_AUTO: the version's */
    agal_slot slot;       /* the Program3D.upload argument it stands for (Flash's messages name it) */
    int stage;            /* text: the stage (overrides `// stage:`), -1 from the text */
    uint32_t version;     /* text: the version (overrides `// agal-version:`), 0 from the text (else 1) */
    bool flash;           /* print errors as Flash Player's lines (tool_print_flash) */
    bool slot_stage;      /* a place in a pair: a file not starting with the magic byte is text, and
                            * text without a `// stage:` line has the slot's stage (stage < 0) */
    /* Text: set to each token's place in it (agal_assemble_text_pos); NULL when not
     * wanted; *positions NULL for bytecode. */
    const agal_source_pos **positions;
} tool_program_opts;

/* Loads and decodes a program: AGAL bytecode, or AGAL text when the path ends in
 * .agal (or a stage, a version or slot_stage is given and the file does not start
 * with AGAL's magic byte); inputs beyond TOOL_MAX_BINARY / TOOL_MAX_TEXT are refused. Prints
 * diagnostics (assembler warnings too) prefixed with path. Returns 0, 1 (invalid
 * program or text) or 2 (unreadable or oversized file, no stage, out of memory). */
int tool_load_program(agal_context *ctx, const char *path, const tool_program_opts *opt, const agal_program **out);

/* The bytes of a program of n tokens: the header and each token encoded from its
 * fields (agal_token_encode), in ctx; a decoded program's again, for agal_upload.
 * NULL when out of memory. */
const uint8_t *tool_encode_tokens(agal_context *ctx, const agal_token *toks, uint32_t n, agal_stage stage,
                                  uint32_t version, size_t *size);

/* Links a vertex program (vpath) with a fragment program (fpath), as Flash's
 * Program3D.upload(vertex, fragment); both were loaded in their upload slots, so
 * a program of the other stage was refused there (3631, 3630). Returns 0 linked;
 * 1 they do not link (the diagnostics printed, as Flash's lines with flash); 2 with
 * "TOOL: ..." when out of memory. */
int tool_link_pair(agal_context *ctx, const char *tool, const char *vpath, const agal_program *vp, const char *fpath,
                   const agal_program *fp, bool flash);

/* ---- progress ------------------------------------------------------------------ */

/* A one-line counter on stderr ("compare: 37/300", rewritten in place with \r) for
 * long runs, shown only when stderr is a terminal: piped or redirected output (tests,
 * CI) sees nothing of it. */
typedef struct tool_progress {
    const char *label;
    unsigned total;
    bool on;   /* stderr is a terminal */
    int shown; /* characters of the line on screen (0: none) */
} tool_progress;

void tool_progress_start(tool_progress *p, const char *label, unsigned total);
/* Shows done/total. */
void tool_progress_show(tool_progress *p, unsigned done);
/* Clears the line (before printing something else, and at the end). */
void tool_progress_clear(tool_progress *p);

#endif
