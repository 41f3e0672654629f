/* shapes.h: AGAL programs of a chosen size in the shapes that stress a translator's
 * time and stack (issue: linear time and bounded stack on every valid program):
 * straight-line code, single-component chains, swizzle chains, rotating write
 * masks, dot-product chains, relative reads, and deep blocks. Every program is
 * valid AGAL2 (decoded leniently past the profile's token limit), written as text
 * in Adobe's syntax. agal-bench times them; test_stack translates them on a small
 * stack. */
#ifndef SHAPES_H
#define SHAPES_H

#include "agal/agal.h"

#include <stddef.h>

typedef enum shape {
    SHAPE_STRAIGHT,  /* add vt0, vt0, vcK: a chain of whole writes, the baseline */
    SHAPE_COMPONENT, /* add vt0.x, vt0.y, vcK: each write one component of a chain */
    SHAPE_SWIZZLE,   /* mov vt0, vt0.yzwx: a chain of swizzles */
    SHAPE_MASKS,     /* add vt0.<x|y|z|w|xy|...>, vt0, vcK: rotating masks */
    SHAPE_DOT,       /* dp4 vt0.x, vt0, vt0 */
    SHAPE_RELATIVE,  /* add vt0, vt0, vc[va0.x+K] */
    SHAPE_BLOCKS,    /* blocks nested four deep, over and over */
    SHAPE_COUNT
} shape;

/* The shape's name ("straight-line", ...). */
const char *shape_name(shape s);
/* The text of a vertex (or, for the blocks, fragment) program of about `tokens`
 * tokens (exactly, but for the blocks' last group), NUL-terminated, malloc'd; *stage
 * says which. NULL when out of memory. */
char *shape_text(shape s, unsigned tokens, agal_stage *stage);

#endif
