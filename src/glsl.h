/* glsl.h: the GLSL emitter's entry below agal_translate_glsl (glsl.c), for tests.
 *
 * agal_translate_glsl builds the IR with keep_copies (one statement per mov) and
 * calls agal_glsl_emit. Tests call it on other IR shapes too: with copies folded a
 * value can outlive its register or be joined from another register's value, which
 * exercises the emitter's general paths (copies into temporaries, moves before a
 * join) that AGAL's own data flow rarely needs. */
#ifndef AGAL_GLSL_H
#define AGAL_GLSL_H

#include "ir.h"

/* GLSL 330 text of ir (built from ir->prog); the options and results as
 * agal_translate_glsl. */
agal_status agal_glsl_emit(agal_context *ctx, const agal_ir *ir, const agal_translate_options *opt,
                           const char **text, size_t *len);

#endif
