/* divergence.h: agalrun replay --first-divergence (agalrun_divergence.c). */
#ifndef AGALRUN_DIVERGENCE_H
#define AGALRUN_DIVERGENCE_H

#include "replay.h"

typedef struct divergence_args {
    const char *scene, *json; /* the scene's name and text (len bytes, NUL-terminated) */
    size_t len;
    const replay_backend_ops *ops;
    const replay_open_options *open; /* the first run's */
    const char *reference;           /* REF.png, the size of the image */
    size_t frame;                    /* the image compared (from 1; 0: the last) */
    const int32_t *at;               /* the pixel followed; NULL: the first differing in row order */
    unsigned tolerance;              /* a channel off by more differs */
} divergence_args;

/* Names the first call after which the pixel went off the reference for good, on
 * stdout; first is the scene's run. Exit status: 0 no divergence, 1 one named, 2
 * usage, I/O or a failed replay. */
int agalrun_first_divergence(const divergence_args *a, const replay_result *first);

#endif
