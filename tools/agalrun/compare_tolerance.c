/* compare_tolerance.c: `agalrun compare`'s error bounds per token and its
 * comparison rule (the method: agalrun_compare.c). */
#include "compare.h"

#include <math.h>

/* Per-token error bounds, from the GLSL 4.50 spec section 4.7.1 (which Vulkan's
 * "Precision and Operation of SPIR-V Instructions" follows), with room for chains of
 * up to ~50 operations. Plain arithmetic: correctly rounded or within 2.5 ULP (div),
 * 3 ULP (log2 outside [0.5, 2]), 2 ULP (inversesqrt): 1e-5 relative covers ~80 such
 * steps. sin/cos: absolute 2^-11 inside [-pi, pi]. exp2: 3 + 2|x| ULP; pow is
 * inherited from exp2(y * log2(x)), so its error scales with |y log2 x|.
 * Texture filtering is fixed point on GPUs: texel weights have
 * subTexelPrecisionBits (Vulkan minimum 4, lavapipe and NVIDIA 8), so a bilinear
 * sample is off by up to 2^-9 of the neighbouring-texel difference (<= ~0.15 in
 * our smooth textures) plus the LOD approximations the spec allows; 4e-3 covers it.
 * Linear mip blending has mipmapPrecisionBits (4, the minimum, on lavapipe): the
 * level weight is off by up to 2^-5, times the difference between adjacent levels
 * (<= ~0.3 for our 8x8 chains): 1.2e-2 (docs/harness.md has what lavapipe makes). */
static tolerance token_tolerance(const agal_token *t)
{
    switch (t->op) {
    case AGAL_OP_SIN:
    case AGAL_OP_COS: return (tolerance){1.0 / 2048, 1e-5};
    case AGAL_OP_EXP: return (tolerance){1e-5, 1e-4};
    case AGAL_OP_POW: return (tolerance){1e-5, 1e-3};
    case AGAL_OP_TEX:
    case AGAL_OP_TED: return (tolerance){t->s.mipmap == AGAL_MIP_LINEAR ? 1.2e-2 : 4e-3, 1e-4};
    default: return (tolerance){1e-5, 1e-5};
    }
}

void cmp_token_errors(const agal_program *p, float (*err)[2])
{
    for (uint32_t i = 0; i < p->ntokens; i++) {
        tolerance t = token_tolerance(&p->tokens[i]);
        agal_opcode op = p->tokens[i].op;
        bool own = op == AGAL_OP_SIN || op == AGAL_OP_COS || op == AGAL_OP_EXP || op == AGAL_OP_POW;
        err[i][0] = own ? (float)t.atol : 0.0f;
        err[i][1] = own ? (float)t.rtol : 0.0f;
    }
}

tolerance cmp_program_tolerance(const agal_program *p)
{
    tolerance t = {1e-5, 1e-5};
    for (uint32_t i = 0; i < p->ntokens; i++) {
        tolerance o = token_tolerance(&p->tokens[i]);
        t.atol = fmax(t.atol, o.atol);
        t.rtol = fmax(t.rtol, o.rtol);
    }
    return t;
}

bool cmp_agree(double ref, double spread, double got, tolerance t)
{
    /* a non-finite reference is counted as undefined by the callers, never compared */
    if (isinf(got)) return isinf(spread) || isnan(spread);
    if (isnan(got)) return isnan(spread) || isinf(spread);
    return fabs(got - ref) <= t.atol + t.rtol * fabs(ref) + 2 * spread;
}

/* A smooth output moves by about PERTURB times its condition number; one that moves
 * by more than 1e-3 (relative) sits at a discontinuity or is badly conditioned:
 * counted as "near a threshold" (and given that much room by cmp_agree()). */
bool cmp_near_threshold(double ref, double spread) { return !(spread <= 1e-3 * (1 + fabs(ref))); }

double cmp_spread_of(const float *base, const float *const *pert, size_t idx)
{
    double s = 0;
    for (int k = 0; k < NPERTURB; k++) {
        double d = fabs((double)pert[k][idx] - base[idx]);
        if (isnan(d)) return NAN;
        s = fmax(s, d);
    }
    return s;
}
