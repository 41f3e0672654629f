/* clock.h: the tools' one clock (agal-bench's timings, the harness's draw and
 * browser times), header-only so that the harness libraries and agal-bench share it
 * without linking each other. */
#ifndef AGAL_TOOL_CLOCK_H
#define AGAL_TOOL_CLOCK_H

#include <time.h>

/* A monotonic clock, in seconds. */
static inline double tool_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
