/* counting_alloc.h: the one counting allocator hook of the tests and agal-bench,
 * for agal_context_new(counting_alloc_hook, &counter).
 *
 * It counts the calls that allocate or resize, the frees, the bytes and blocks
 * held through it (osize says what a free or resize gives back) and the most bytes
 * held at once; and it can refuse allocations: after fail_after more successful
 * ones, every allocation or resize fails (< 0: none does), as a machine out of
 * memory would. Frees always succeed. */
#ifndef COUNTING_ALLOC_H
#define COUNTING_ALLOC_H

#include <stddef.h>

typedef struct counting_alloc {
    size_t calls;    /* allocations and resizes that succeeded */
    size_t reallocs; /* of them, resizes of a block held */
    size_t frees;    /* blocks given back */
    size_t refused;  /* allocations and resizes failed on purpose */
    size_t live;     /* bytes held now */
    size_t peak;     /* the most bytes held at once */
    size_t blocks;   /* blocks held now */
    long fail_after; /* successful calls left before every one fails; < 0: never fail */
} counting_alloc;

/* Zero counts; allocations fail after fail_after more (< 0: never). */
void counting_alloc_init(counting_alloc *c, long fail_after);
/* The hook (agal_alloc_fn); ud is the counting_alloc. */
void *counting_alloc_hook(void *ud, void *ptr, size_t osize, size_t nsize);
/* Starts a measurement: calls, resizes, frees and refusals counted from now, the
 * peak from the bytes held now. */
void counting_alloc_mark(counting_alloc *c);

#endif
