/* bench.h: what the parts of agal-bench share: the statistics (min, median, max of
 * a round's figures), the Vulkan-ready GLSL of the glslang baseline
 * (bench_glsl.c), and the driver measurements (bench_driver.c, agal-bench --driver). */
#ifndef AGAL_BENCH_H
#define AGAL_BENCH_H

#include "agal/agal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include "clock.h"

typedef struct mmm {
    double min, med, max;
} mmm;

static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v in place; the median of an even count is the mean of the middle two. */
static inline double median(double *v, size_t n)
{
    if (n == 0) return 0;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static inline mmm summarize(double *v, size_t n)
{
    mmm m = {0, 0, 0};
    if (n == 0) return m;
    m.med = median(v, n);
    m.min = v[0];
    m.max = v[n - 1];
    return m;
}

/* ---- bench_glsl.c ---- */

/* GLSL 330 from our emitter (Vulkan clip) as glslang's Vulkan rules take it:
 * malloc'd, NULL out of memory. */
char *bench_vulkan_glsl(const char *src);

/* ---- bench_driver.c ---- */

/* One corpus pair: its name (the files' common stem) and both programs, decoded. */
typedef struct bench_pair {
    const char *name;
    const agal_program *vp, *fp;
} bench_pair;

/* agal-bench --driver: the driver's creation and first-draw times of each pair in
 * four versions, rounds times; prints the figures and ends with the two ratio lines.
 * false when a pair could not be measured (the reason printed). */
bool bench_driver(const bench_pair *pairs, size_t npairs, unsigned rounds);

#endif
