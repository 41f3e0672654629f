/* shapes.c: the programs of shapes.h. */
#include "shapes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *shape_name(shape s)
{
    static const char *const names[SHAPE_COUNT] = {"straight-line",  "component chain",   "swizzle chain",
                                                   "rotating masks", "dot-product chain", "relative reads",
                                                   "deep blocks"};
    return s < SHAPE_COUNT ? names[s] : "?";
}

enum { LINE = 64 };

/* One body line i of a vertex shape (tokens 1 .. n-2: the first line writes vt0, the
 * last two write op and v0). */
static int vertex_line(shape s, unsigned i, char *out)
{
    static const char *const masks[] = {"x", "y", "z", "w", "xy", "zw", "xz", "yzw"};
    static const char *const swizzles[] = {"yzwx", "wxyz", "xxyy", "zwzw"};
    unsigned k = 1 + i % 200; /* a constant other than vc0 */
    switch (s) {
    case SHAPE_STRAIGHT: return sprintf(out, "add vt0, vt0, vc%u\n", k);
    case SHAPE_COMPONENT: return sprintf(out, "add vt0.%c, vt0.%c, vc%u\n", "xyzw"[i % 4], "xyzw"[(i + 1) % 4], k);
    case SHAPE_SWIZZLE: return sprintf(out, "mov vt0, vt0.%s\n", swizzles[i % 4]);
    case SHAPE_MASKS: return sprintf(out, "add vt0.%s, vt0, vc%u\n", masks[i % 8], k);
    case SHAPE_DOT: return sprintf(out, "dp4 vt0.%c, vt0, vt0\n", "xyzw"[i % 4]);
    case SHAPE_RELATIVE: return sprintf(out, "add vt0, vt0, vc[va0.x+%u]\n", i % 200);
    default: return 0;
    }
}

/* Blocks four deep with a write in two branches: eleven tokens a group. */
static int block_group(unsigned i, char *out)
{
    return sprintf(out,
                   "ifg ft0.x, fc0.x\nifg ft0.y, fc0.y\nifl ft0.z, fc0.z\nine ft0.w, fc0.w\n"
                   "add ft0, ft0, fc%u\neif\neif\nels\nsub ft0, ft0, fc%u\neif\neif\n",
                   1 + i % 60, 1 + (i + 7) % 60);
}

char *shape_text(shape s, unsigned tokens, agal_stage *stage)
{
    if (tokens < 4) tokens = 4;
    char *text = malloc((size_t)(tokens + 4) * LINE);
    if (!text) return NULL;
    char *p = text;
    if (s == SHAPE_BLOCKS) {
        *stage = AGAL_FRAGMENT;
        p += sprintf(p, "mov ft0, v0\n");
        for (unsigned i = 0; 1 + 11 * (i + 1) + 1 <= tokens; i++) p += block_group(i, p);
        sprintf(p, "mov oc, ft0\n");
        return text;
    }
    *stage = AGAL_VERTEX;
    p += sprintf(p, "mov vt0, va0\n");
    for (unsigned i = 0; i + 3 < tokens; i++) p += vertex_line(s, i, p);
    sprintf(p, "mov op, va0\nmov v0, vt0\n");
    return text;
}
