/* counting_alloc.c: the counting, failing allocator hook (counting_alloc.h). */
#include "counting_alloc.h"

#include <stdlib.h>

void counting_alloc_init(counting_alloc *c, long fail_after) { *c = (counting_alloc){.fail_after = fail_after}; }

void *counting_alloc_hook(void *ud, void *ptr, size_t osize, size_t nsize)
{
    counting_alloc *c = ud;
    if (nsize == 0) {
        if (ptr) {
            c->frees++;
            c->blocks--;
            c->live -= osize;
        }
        free(ptr);
        return NULL;
    }
    if (c->fail_after >= 0 && c->fail_after-- == 0) {
        c->fail_after = 0; /* and every later call fails too */
        c->refused++;
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (!p) return NULL;
    c->calls++;
    if (ptr) {
        c->reallocs++;
        c->live -= osize;
    } else {
        c->blocks++;
    }
    c->live += nsize;
    if (c->live > c->peak) c->peak = c->live;
    return p;
}

void counting_alloc_mark(counting_alloc *c)
{
    c->calls = c->reallocs = c->frees = c->refused = 0;
    c->peak = c->live;
}
