/* interp.h: the reference interpreter, the oracle every back end is compared
 * with, and its software textures. */
#ifndef AGAL_INTERP_H
#define AGAL_INTERP_H

#include "agal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== interpreter (interp.c, texture.c) ==================================== */

/* The reference interpreter: the oracle every backend is compared with. It runs a
 * decoded program in float32 over invocations (vertex: one at a time; fragment:
 * 2x2 quads, so ddx/ddy and the implicit texture LOD are exact differences inside
 * the quad) and samples textures in software. Conventions (fine derivatives, LOD
 * formula, texel centres, cube faces, NaN rules, killed lanes): the comments at
 * the top of interp.c and texture.c. It allocates nothing (only diagnostics go to
 * ctx) and never fails on a program agal_decode accepted; unexpected register
 * numbers read 0 and are not written, so no program can make it crash. */

enum {
    AGAL_INTERP_MAX_INPUTS = 16, /* va0..va15 (AGAL3); fragment varyings use v0..v9 */
    AGAL_INTERP_MAX_VARYINGS = 10,
    AGAL_INTERP_MAX_COLORS = 4,
    AGAL_INTERP_MAX_TEMPS = 26
};

/* A texture bound to sampler fs<sampler>, as float RGBA texels (the token's format
 * field, dxt1/dxt5/video, is ignored: the caller passes decoded texels).
 * images[level * faces + face] (faces = 1 for 2D, 6 for cube in the order +x, -x,
 * +y, -y, +z, -z) points at max(1, width >> level) * max(1, height >> level) texels
 * of 4 floats, row-major; texel (i, j) is at index j * w + i and its centre at
 * s = (i + 0.5) / w, t = (j + 0.5) / h: row 0 is t = 0 (the first row uploaded). */
typedef struct agal_texture {
    unsigned sampler;       /* fs number */
    uint8_t dim;            /* AGAL_DIM_2D or AGAL_DIM_CUBE (must match the token's) */
    uint32_t width, height; /* level 0; a cube has width == height */
    uint32_t levels;        /* mip levels given, 1 .. floor(log2(max(width, height))) + 1 */
    const float *const *images;
} agal_texture;

/* What every invocation shares: the constants (vc or fc; registers at or past
 * nconstants read 0), the textures (at most one per sampler number) and the
 * sampler slots they are sampled through. */
typedef struct agal_interp_env {
    const float (*constants)[4];
    size_t nconstants;
    const agal_texture *textures;
    size_t ntextures;
    /* The Context3D's sampler slots at the draw (agal_sampler_slots, "the runtime"
     * below): every tex and ted samples with agal_slots_resolve(slots, token), its
     * wrap, filter and mipmap from the slot, the rest from the token, as Flash does.
     * NULL: a new Context3D after setProgram of this program (agal_slots_init, then
     * agal_slots_set_program), so a token without ignoresampler samples with its
     * own state and one with ignoresampler with clamp, nearest, mipnone. */
    const struct agal_sampler_slots *slots;
    /* false (the reference): fine derivatives, each lane differences its own row
     * (ddx) and column (ddy). true: coarse, every lane of the quad takes the top
     * row's ddx and the left column's ddy, for comparing with a GPU whose dFdx/OpDPdx
     * is coarse. Applies to ddx/ddy and to tex's implicit LOD. */
    bool coarse_derivatives;
} agal_interp_env;

/* One invocation's inputs: vertex attributes va<i> = in[i] and the instance id
 * (iid reads (id, id, id, id)); fragment varyings v<i> = in[i]. */
typedef struct agal_interp_invocation {
    float in[AGAL_INTERP_MAX_INPUTS][4];
    uint32_t instance_id;
} agal_interp_invocation;

/* One invocation's outputs. Registers the program never writes stay 0; which ones
 * it writes: agal_program_writes. killed: a fragment whose kil fired (its other
 * fields are what it computed while it kept running as a helper lane). */
typedef struct agal_interp_result {
    float op[4];                          /* vertex position */
    float v[AGAL_INTERP_MAX_VARYINGS][4]; /* vertex varyings */
    float oc[AGAL_INTERP_MAX_COLORS][4];  /* fragment colours */
    float fd;                             /* fragment depth */
    bool killed;
} agal_interp_result;

/* Runs prog over n invocations in[0..n-1], writing out[0..n-1]. Fragment programs
 * need n to be a multiple of 4: each 4 consecutive invocations form a 2x2 quad in
 * the order top-left, top-right, bottom-left, bottom-right. Returns AGAL_ERR_ARG
 * (with a diagnostic) for a bad call: n, a missing texture or one of the wrong
 * dimension, an inconsistent texture description, a slot holding a value no
 * AGAL_WRAP_* / AGAL_FILTER_* / AGAL_MIP_* names; AGAL_ERR_INVALID for broken block
 * structure (which agal_decode never lets through). Outputs are the raw AGAL values:
 * no clip-space fix is applied to op. */
AGAL_API agal_status agal_interp_run(agal_context *ctx, const agal_program *prog, const agal_interp_env *env,
                                     const agal_interp_invocation *in, size_t n, agal_interp_result *out);

/* One step of a traced run: invocation `invocation` ran token `token` (from 0), a
 * write, after which its destination register holds value (all four components;
 * the token's mask says which it wrote). Blocks' tokens, kil and the tokens a
 * branch skipped in that invocation are no steps. */
typedef void (*agal_interp_trace_fn)(void *ud, size_t invocation, uint32_t token, const float value[4]);
/* As agal_interp_run, calling trace(ud, ...) after each step of each invocation, in
 * the order they run (a fragment quad's four lanes token by token). */
AGAL_API agal_status agal_interp_run_traced(agal_context *ctx, const agal_program *prog, const agal_interp_env *env,
                                            const agal_interp_invocation *in, size_t n, agal_interp_result *out,
                                            agal_interp_trace_fn trace, void *ud);

#ifdef __cplusplus
}
#endif

#endif
