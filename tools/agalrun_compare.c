/* agalrun_compare.c: `agalrun compare`, differential testing of the two emitters
 * against the reference interpreter on real drivers (tools/harness*.c).
 *
 *   agalrun compare VERTEX FRAGMENT [--seed N]   one pair (.agal text or bytecode)
 *   agalrun compare --corpus DIR [--seed N]      every DIR/NAME.vert.agal + NAME.frag.agal
 *   agalrun compare --random N [--seed S]        N generated pairs (tests/gen.h gen_pair)
 *   options: --vk-only, --gl-only, --no-validation, --verbose,
 *            --inject-fault (add 0.05 to oc0.y of every pixel: the run must fail),
 *            --require-coverage (random: fail unless every opcode the version and
 *            stage allow appeared in some generated program; always reported)
 * Exit 0 only when every backend agrees with the interpreter on every output.
 *
 * Each pair runs as two draws per backend:
 *  1. Vertex: the vertex program on 6 seeded vertices (attributes and vc uniform in
 *     [-2, 2]), 2 instances (3 when it reads iid), op and every varying it writes
 *     captured with transform feedback. The emitters' default clip fix is kept (the
 *     programs are the ones a runtime gets) and applied to the interpreter's op
 *     before comparing: Vulkan y -> -y (exact), GL z -> 2z - w.
 *  2. Fragment: the fragment program on an 8x8 target, fed by a generated
 *     pass-through vertex program (AGAL, translated by the same emitters):
 *     op = va0 over a full-screen quad with z = 0.5 + 0.2 X + 0.1 Y, and each varying
 *     the fragment program reads v<i> = m44(va0, vc[4i..4i+3]), random rows. The
 *     varyings are therefore linear over the screen (w = 1: no perspective), and the
 *     interpreter gets them exactly at pixel centres, in 2x2 quads TL, TR, BL, BR.
 *     Compared: every oc, depth (fd, or the interpolated z), and discard.
 *     Textures: one per sampler number, with the token's filter/mipmap/wrap; smooth
 *     seeded texels; 2D 8x8 with a box-filtered 4-level chain, cube 16x16 x 5 levels
 *     with a constant border ring (cube_face_levels: seamless vs per-face filtering).
 *     Cube lookups at a face tie are undefined (cube_ties) and not compared.
 * Random pairs use every opcode with the generator's safe_domain guards (gen.h):
 * no infinities or undefined-domain inputs arise. As a safety net (hand-written
 * pairs, corpus), an output whose reference is inf or NaN is outside the defined
 * domains and counted as "undefined" instead of compared.
 *
 * Tolerances (the comparison rule, see agree()): |backend - reference| <= atol +
 * rtol * |reference| + 2 * spread. atol/rtol are the largest of the program's
 * tokens (token_tolerance(), with the GLSL 4.50 / Vulkan precision rule each rests on),
 * spread is how far the interpreter's own result moves when its inputs are
 * perturbed by a few parts in 10^5 (4 seeded perturbations). spread is the
 * condition estimate that makes discontinuities safe: an output whose reference
 * jumps under a tiny perturbation (a comparison, frc, sgn, a branch, kil, a nearest
 * texel or an indirect address near its threshold, cancellation in a dot product)
 * has a large spread and is counted as "near threshold" instead of failing. The
 * derivative rule: GL and Vulkan allow fine or coarse dFdx/OpDPdx, so a fragment
 * result that misses the fine reference is retried against the coarse one. GL's
 * quads have their rows the other way up (window y up: a coarse derivative's first
 * row is our bottom one; llvmpipe GL's texture LOD does this), so for GL a third
 * reading takes the coarse derivatives from the bottom row, for programs without
 * ddx/ddy (whose ddy that reading would negate).
 *
 * A failing generated pair is shrunk (tokens deleted one at a time while the pair
 * still validates, links and still fails) and printed: both programs, the inputs
 * and each backend's values next to the interpreter's.
 */
#include "agalrun.h"
#include "harness_api.h"
#include "gen.h"
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>

/* NPERTURB reference runs with perturbed inputs; fragment programs get two more,
 * with every tex's LOD bias moved by -/+ LOD_SHIFT eighths (GPUs approximate the
 * implicit LOD: the spec allows rho between the max and the sum of the derivative
 * lengths, and log2 approximations), so a mip level boundary counts as a threshold. */
enum { NVERTS = 6, SIZE = 8, NPIX = SIZE * SIZE, NPERTURB = 4, FPERTURB = NPERTURB + 2, LOD_SHIFT = 2,
       TEX_SIZE = 8, TEX_LEVELS = 4, CUBE_SIZE = 16, CUBE_LEVELS = 5 };
static const double PERTURB = 3e-5;

typedef struct tolerance {
    double atol, rtol;
} tolerance;

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
 * (<= ~0.3 for our 8x8 chains): 1.2e-2 (lavapipe measured up to 8.7e-3). */
static tolerance token_tolerance(const agal_token *t)
{
    switch (t->op) {
    case AGAL_OP_SIN: case AGAL_OP_COS: return (tolerance){ 1.0 / 2048, 1e-5 };
    case AGAL_OP_EXP: return (tolerance){ 1e-5, 1e-4 };
    case AGAL_OP_POW: return (tolerance){ 1e-5, 1e-3 };
    case AGAL_OP_TEX: case AGAL_OP_TED:
        return (tolerance){ t->s.mipmap == AGAL_MIP_LINEAR ? 1.2e-2 : 4e-3, 1e-4 };
    default: return (tolerance){ 1e-5, 1e-5 };
    }
}

static tolerance program_tolerance(const agal_program *p)
{
    tolerance t = { 1e-5, 1e-5 };
    for (uint32_t i = 0; i < p->ntokens; i++) {
        tolerance o = token_tolerance(&p->tokens[i]);
        t.atol = fmax(t.atol, o.atol);
        t.rtol = fmax(t.rtol, o.rtol);
    }
    return t;
}

/* ---- options, state ------------------------------------------------------------- */

typedef struct options {
    bool vk, gl, validation, verbose;
    bool fault; /* --inject-fault: move backend values by 0.05 (the tests' proof that a difference fails) */
    bool coverage; /* --require-coverage: random mode fails unless every opcode appeared */
    uint64_t seed;
} options;

typedef struct backends {
    harness_vk *vk;
    harness_gl *gl;
} backends;

typedef struct stats {
    unsigned pairs, failed, compared, near, undefined, skipped_runs;
} stats;

static uint64_t mix(uint64_t a, uint64_t b)
{
    gen_rng r;
    gen_rng_seed(&r, a * 0x9e3779b97f4a7c15ull ^ b);
    return ((uint64_t)gen_rng_next(&r) << 32) | gen_rng_next(&r);
}

static float uniform(gen_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)(gen_rng_next(r) >> 8) / 16777216.0f;
}

/* ---- inputs ------------------------------------------------------------------------- */

typedef struct texture_set {
    harness_texture h[HARNESS_MAX_TEXTURES];
    agal_texture t[HARNESS_MAX_TEXTURES];
    const float *images[HARNESS_MAX_TEXTURES][6 * CUBE_LEVELS];
    float *texels[HARNESS_MAX_TEXTURES];
    size_t n;
} texture_set;

/* Cube faces: every level sampled from the same smooth function at its own texel
 * centres, and the border ring of every face and level set to 0.5. GPUs filter
 * cubes seamlessly across faces (Vulkan always), the interpreter clamps within the
 * face (texture.c); with equal border texels on both sides of every edge the two
 * readings agree, so linear cube lookups near edges compare exactly. */
static void cube_face_levels(float *dst, const harness_texture *h, unsigned f, float coef[4][4])
{
    for (unsigned l = 0; l < h->levels; l++) {
        unsigned sz = h->size >> l;
        float *lv = dst + harness_texture_offset(h, f, l);
        for (unsigned j = 0; j < sz; j++)
            for (unsigned i = 0; i < sz; i++) {
                bool border = i == 0 || j == 0 || i == sz - 1 || j == sz - 1;
                float s = (i + 0.5f) / sz, t = (j + 0.5f) / sz, u = (float)f / 6.0f;
                for (int c = 0; c < 4; c++)
                    lv[(j * sz + i) * 4 + c] =
                        border ? 0.5f
                               : 0.5f + 0.4f * sinf(coef[c][0] * s + coef[c][1] * t + coef[c][2] * u + coef[c][3]);
            }
    }
}

/* Smooth texels: per channel 0.5 + 0.4 sin(a s + b t + c u + d) over the face's
 * texel centres (cube: the direction), low frequency so neighbours differ by <= ~0.1;
 * levels are box-filtered from the level above, as a runtime's mip chain. */
static void fill_texture(float *dst, const harness_texture *h, gen_rng *r)
{
    float coef[4][4];
    for (int c = 0; c < 4; c++)
        for (int k = 0; k < 4; k++)
            coef[c][k] = uniform(r, -2.0f, 2.0f);
    unsigned faces = h->cube ? 6 : 1;
    for (unsigned f = 0; f < faces; f++) {
        float *base = dst + harness_texture_offset(h, f, 0);
        for (unsigned j = 0; j < h->size; j++)
            for (unsigned i = 0; i < h->size; i++) {
                float s = (i + 0.5f) / h->size, t = (j + 0.5f) / h->size, u = (float)f / 6.0f;
                for (int c = 0; c < 4; c++)
                    base[(j * h->size + i) * 4 + c] =
                        0.5f + 0.4f * sinf(coef[c][0] * s + coef[c][1] * t + coef[c][2] * u + coef[c][3]);
            }
        if (h->cube) {
            cube_face_levels(dst, h, f, coef);
            continue;
        }
        for (unsigned l = 1; l < h->levels; l++) {
            unsigned s = h->size >> l;
            const float *up = dst + harness_texture_offset(h, f, l - 1);
            float *lv = dst + harness_texture_offset(h, f, l);
            for (unsigned j = 0; j < s; j++)
                for (unsigned i = 0; i < s; i++)
                    for (int c = 0; c < 4; c++) {
                        unsigned w = 2 * s, a = (2 * j * w + 2 * i) * 4 + c;
                        lv[(j * s + i) * 4 + c] =
                            0.25f * (up[a] + up[a + 4] + up[a + w * 4] + up[a + w * 4 + 4]);
                    }
        }
    }
}

static void textures_free(texture_set *ts)
{
    for (int i = 0; i < HARNESS_MAX_TEXTURES; i++)
        free(ts->texels[i]);
    memset(ts, 0, sizeof *ts);
}

/* One texture per sampler number the program uses, with the token's state. */
static int make_textures(texture_set *ts, const agal_program *p, gen_rng *r)
{
    memset(ts, 0, sizeof *ts);
    for (uint32_t k = 0; k < p->ntokens; k++) {
        const agal_token *t = &p->tokens[k];
        if (t->op != AGAL_OP_TEX && t->op != AGAL_OP_TED)
            continue;
        unsigned n = t->s.num;
        if (n >= HARNESS_MAX_TEXTURES || ts->h[n].present)
            continue;
        harness_texture *h = &ts->h[n];
        bool cube = t->s.dim == AGAL_DIM_CUBE;
        *h = (harness_texture){ .present = true, .cube = cube, .size = cube ? CUBE_SIZE : TEX_SIZE,
                                .levels = cube ? CUBE_LEVELS : TEX_LEVELS, .filter = t->s.filter, .mipmap = t->s.mipmap,
                                .wrap = t->s.wrap };
        ts->texels[n] = malloc(harness_texture_floats(h) * sizeof(float));
        if (!ts->texels[n])
            return -1;
        fill_texture(ts->texels[n], h, r);
        h->texels = ts->texels[n];
        unsigned faces = h->cube ? 6 : 1;
        for (unsigned l = 0; l < h->levels; l++)
            for (unsigned f = 0; f < faces; f++)
                ts->images[n][l * faces + f] = ts->texels[n] + harness_texture_offset(h, f, l);
        ts->t[ts->n++] = (agal_texture){ .sampler = n, .dim = t->s.dim, .width = h->size, .height = h->size,
                                         .levels = h->levels, .images = ts->images[n] };
    }
    return 0;
}

/* Registers of a type a program reads, directly or as an index. */
static unsigned read_mask(const agal_program *p, agal_regtype type)
{
    unsigned m = 0;
    for (uint32_t k = 0; k < p->ntokens; k++) {
        const agal_token *t = &p->tokens[k];
        const agal_opinfo *info = agal_opinfo_get(t->op);
        const agal_source *s[2] = { &t->a, &t->b };
        bool used[2] = { info && (info->operands & AGAL_OPND_A), info && (info->operands & AGAL_OPND_B) };
        for (int i = 0; i < 2; i++) {
            if (!used[i])
                continue;
            /* a matrix operand B reads rows num .. num + rows - 1 */
            unsigned rows = i == 1 && info ? agal_opinfo_rows(info) : 0;
            for (unsigned row = 0; row < (rows ? rows : 1); row++)
                if (!s[i]->indirect && s[i]->type == type && s[i]->num + row < 16)
                    m |= 1u << (s[i]->num + row);
            if (s[i]->indirect && s[i]->index_type == type && s[i]->index_num < 16)
                m |= 1u << s[i]->index_num;
        }
    }
    return m;
}

static bool uses_op(const agal_program *p, unsigned flag)
{
    for (uint32_t k = 0; k < p->ntokens; k++) {
        const agal_opinfo *info = agal_opinfo_get(p->tokens[k].op);
        if (info && (info->flags & flag))
            return true;
    }
    return false;
}

/* ---- comparison ------------------------------------------------------------------------- */

/* undefined: values the interpreter computes as inf or NaN, outside the domains
 * where Stage3D (and GLSL) define results (src/agal.md section 4): not compared. */
typedef struct verdict {
    unsigned compared, near, bad, undefined;
} verdict;

/* Reference value, its spread under perturbation, the backend's value. */
static bool agree(double ref, double spread, double got, tolerance t)
{
    /* a non-finite reference is counted as undefined by the callers, never compared */
    if (isinf(got))
        return isinf(spread) || isnan(spread);
    if (isnan(got))
        return isnan(spread) || isinf(spread);
    return fabs(got - ref) <= t.atol + t.rtol * fabs(ref) + 2 * spread;
}

/* A smooth output moves by about PERTURB times its condition number; one that moves
 * by more than 1e-3 (relative) sits at a discontinuity or is badly conditioned:
 * counted as "near a threshold" (and given that much room by agree()). */
static bool near_threshold(double ref, double spread)
{
    return !(spread <= 1e-3 * (1 + fabs(ref)));
}

static double spread_of(const float *base, const float *const *pert, size_t idx)
{
    double s = 0;
    for (int k = 0; k < NPERTURB; k++) {
        double d = fabs((double)pert[k][idx] - base[idx]);
        if (isnan(d))
            return NAN;
        s = fmax(s, d);
    }
    return s;
}

/* ---- translation --------------------------------------------------------------------- */

typedef struct shaders {
    const uint32_t *spv;
    size_t nspv;
    const char *glsl;
} shaders;

static int translate(agal_context *ctx, const agal_program *p, bool xfb, shaders *out, const char *what)
{
    agal_status st = xfb ? agal_translate_spirv_xfb(ctx, p, NULL, &out->spv, &out->nspv)
                         : agal_translate_spirv(ctx, p, NULL, &out->spv, &out->nspv);
    if (st ||
        agal_translate_glsl(ctx, p, NULL, &out->glsl, NULL)) {
        char buf[512];
        size_t n = agal_diag_count(ctx);
        fprintf(stderr, "compare: %s: translation failed\n", what);
        for (size_t i = 0; i < n; i++) {
            agal_diag_format(agal_diag_get(ctx, i), what, buf, sizeof buf);
            fprintf(stderr, "  %s\n", buf);
        }
        return -1;
    }
    return 0;
}

/* ---- the case: everything one pair's two draws need ------------------------------- */

typedef struct pair_case {
    const agal_program *vp, *fp;
    uint64_t seed;
    /* vertex draw */
    unsigned ninst;
    float attr[HARNESS_MAX_ATTRIBS][NVERTS][4];
    unsigned attr_mask;
    float (*vc)[4];
    unsigned nvc;
    /* fragment draw */
    float (*fc)[4];
    unsigned nfc;
    float (*pvc)[4]; /* pass-through vc: varying rows */
    float quad[6][4];
    float var[NPIX][AGAL_INTERP_MAX_INPUTS][4]; /* varyings at pixel centres, row-major pixels */
    float zpix[NPIX];
    unsigned var_mask;
    texture_set tex;
} pair_case;

static void case_free(pair_case *c)
{
    free(c->vc);
    free(c->fc);
    free(c->pvc);
    textures_free(&c->tex);
}

static int case_make(pair_case *c, const agal_program *vp, const agal_program *fp, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->vp = vp;
    c->fp = fp;
    c->seed = seed;
    gen_rng r;
    gen_rng_seed(&r, seed);
    c->attr_mask = read_mask(vp, AGAL_REG_ATTRIBUTE);
    c->ninst = read_mask(vp, AGAL_REG_IID) || vp->version >= 3 ? 3 : 2;
    for (int a = 0; a < HARNESS_MAX_ATTRIBS; a++)
        for (int v = 0; v < NVERTS; v++)
            for (int k = 0; k < 4; k++)
                c->attr[a][v][k] = uniform(&r, -2, 2);
    c->nvc = agal_reg_count(vp->profile, AGAL_VERTEX, AGAL_REG_CONSTANT);
    c->nfc = agal_reg_count(fp->profile, AGAL_FRAGMENT, AGAL_REG_CONSTANT);
    c->vc = calloc(c->nvc, sizeof *c->vc);
    c->fc = calloc(c->nfc, sizeof *c->fc);
    c->pvc = calloc(c->nvc, sizeof *c->pvc);
    if (!c->vc || !c->fc || !c->pvc)
        return -1;
    for (unsigned i = 0; i < c->nvc; i++)
        for (int k = 0; k < 4; k++)
            c->vc[i][k] = uniform(&r, -2, 2);
    for (unsigned i = 0; i < c->nfc; i++)
        for (int k = 0; k < 4; k++)
            c->fc[i][k] = uniform(&r, -2, 2);
    /* The safe-domain generator's guard constants (gen.h), in both stages' last
     * register (every pair gets them: a fixed register is as good as a random one). */
    memcpy(c->vc[gen_safe_register(vp->profile, AGAL_VERTEX)], gen_safe_values, sizeof gen_safe_values);
    memcpy(c->fc[gen_safe_register(fp->profile, AGAL_FRAGMENT)], gen_safe_values, sizeof gen_safe_values);
    for (unsigned i = 0; i < 4 * AGAL_INTERP_MAX_VARYINGS && i < c->nvc; i++)
        for (int k = 0; k < 4; k++)
            c->pvc[i][k] = uniform(&r, -1, 1);
    c->var_mask = read_mask(fp, AGAL_REG_VARYING);
    static const float corners[6][2] = { { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, -1 }, { 1, 1 }, { -1, 1 } };
    for (int v = 0; v < 6; v++) {
        float X = corners[v][0], Y = corners[v][1];
        float q[4] = { X, Y, 0.5f + 0.2f * X + 0.1f * Y, 1 };
        memcpy(c->quad[v], q, sizeof q);
    }
    for (int py = 0; py < SIZE; py++)
        for (int px = 0; px < SIZE; px++) {
            double X = (2.0 * px + 1) / SIZE - 1, Y = 1 - (2.0 * py + 1) / SIZE;
            double p[4] = { X, Y, 0.5 + 0.2 * X + 0.1 * Y, 1 };
            int i = py * SIZE + px;
            c->zpix[i] = (float)p[2];
            for (int v = 0; v < AGAL_INTERP_MAX_VARYINGS; v++)
                for (int k = 0; k < 4; k++) {
                    const float *row = c->pvc[4 * v + k];
                    c->var[i][v][k] = (float)(row[0] * p[0] + row[1] * p[1] + row[2] * p[2] + row[3] * p[3]);
                }
        }
    return make_textures(&c->tex, fp, &r);
}

/* The pass-through vertex program: m44 v<i>, va0, vc[4i] for each varying read,
 * mov op, va0; in the fragment program's version. */
static int passthrough(agal_context *ctx, const pair_case *c, const agal_program **out)
{
    agal_token toks[AGAL_INTERP_MAX_VARYINGS + 1];
    unsigned n = 0;
    memset(toks, 0, sizeof toks);
    for (unsigned v = 0; v < AGAL_INTERP_MAX_VARYINGS; v++) {
        if (!(c->var_mask & (1u << v)))
            continue;
        agal_token *t = &toks[n++];
        t->op = AGAL_OP_M44;
        t->dst = (agal_dest){ AGAL_REG_VARYING, 0xf, (uint16_t)v };
        t->a = (agal_source){ .type = AGAL_REG_ATTRIBUTE, .swizzle = AGAL_SWIZZLE_IDENTITY };
        t->b = (agal_source){ .type = AGAL_REG_CONSTANT, .swizzle = AGAL_SWIZZLE_IDENTITY, .num = (uint16_t)(4 * v) };
    }
    agal_token *t = &toks[n++];
    t->op = AGAL_OP_MOV;
    t->dst = (agal_dest){ AGAL_REG_OUTPUT, 0xf, 0 };
    t->a = (agal_source){ .type = AGAL_REG_ATTRIBUTE, .swizzle = AGAL_SWIZZLE_IDENTITY };
    uint8_t bytes[AGAL_HEADER_SIZE + (AGAL_INTERP_MAX_VARYINGS + 1) * AGAL_TOKEN_SIZE];
    uint32_t ver = c->fp->version;
    uint8_t hdr[AGAL_HEADER_SIZE] = { AGAL_MAGIC, (uint8_t)ver, 0, 0, 0, AGAL_TYPE_ID, AGAL_VERTEX };
    memcpy(bytes, hdr, sizeof hdr);
    for (unsigned i = 0; i < n; i++)
        agal_token_encode(&toks[i], bytes + AGAL_HEADER_SIZE + i * AGAL_TOKEN_SIZE);
    agal_decode_options o = { .profile = c->fp->profile };
    return agal_decode(ctx, bytes, AGAL_HEADER_SIZE + n * AGAL_TOKEN_SIZE, &o, out) ? -1 : 0;
}

/* ---- reference runs ------------------------------------------------------------------- */

static float perturb(float x, gen_rng *r)
{
    return x + (float)(PERTURB * (fabs(x) + 0.25) * uniform(r, -1, 1));
}

/* Vertex reference: k = 0 the given inputs, k > 0 perturbed ones. out: per
 * (instance, vertex) the xfb record layout (op, varyings in ascending order). */
static int ref_vertex(agal_context *ctx, const pair_case *c, int k, bool vulkan, float *out, unsigned nvar,
                      const uint8_t *vars)
{
    gen_rng r;
    gen_rng_seed(&r, mix(c->seed, 100 + (uint64_t)k));
    float (*vc)[4] = malloc(c->nvc * sizeof *vc);
    agal_interp_invocation *inv = calloc(NVERTS * c->ninst, sizeof *inv);
    agal_interp_result *res = calloc(NVERTS * c->ninst, sizeof *res);
    int rc = -1;
    if (!vc || !inv || !res)
        goto done;
    for (unsigned i = 0; i < c->nvc; i++)
        for (int q = 0; q < 4; q++)
            vc[i][q] = k ? perturb(c->vc[i][q], &r) : c->vc[i][q];
    for (unsigned in = 0; in < c->ninst; in++)
        for (int v = 0; v < NVERTS; v++) {
            agal_interp_invocation *iv = &inv[in * NVERTS + v];
            iv->instance_id = in;
            for (int a = 0; a < HARNESS_MAX_ATTRIBS; a++)
                for (int q = 0; q < 4; q++)
                    iv->in[a][q] = k ? perturb(c->attr[a][v][q], &r) : c->attr[a][v][q];
        }
    agal_interp_env env = { .constants = (const float(*)[4])vc, .nconstants = c->nvc };
    if (agal_interp_run(ctx, c->vp, &env, inv, NVERTS * c->ninst, res))
        goto done;
    for (unsigned i = 0; i < NVERTS * c->ninst; i++) {
        float *rec = out + i * 4 * (1 + nvar);
        const float *op = res[i].op;
        float fixed[4] = { op[0], vulkan ? -op[1] : op[1], vulkan ? op[2] : 2 * op[2] - op[3], op[3] };
        memcpy(rec, fixed, sizeof fixed);
        for (unsigned j = 0; j < nvar; j++)
            memcpy(rec + 4 * (1 + j), res[i].v[vars[j]], 16);
    }
    rc = 0;
done:
    free(vc);
    free(inv);
    free(res);
    return rc;
}

/* Fragment reference over the 8x8 pixels: out colours [oc][pixel][4], depth, kill. */
typedef struct frag_ref {
    float color[HARNESS_MAX_OUTPUTS][NPIX * 4];
    float depth[NPIX];
    float killed[NPIX];
    bool undefined[NPIX]; /* a cube lookup on a face edge (see cube_ties) */
} frag_ref;

/* mode: 0 fine derivatives; 1 coarse (the quad's top row and left column); 2 coarse
 * with the quad's rows swapped, as GL sees it (window y up: its first row is our
 * bottom one). Mode 2 only reads tex LODs right: ddy changes sign there. */
static int ref_fragment(agal_context *ctx, const pair_case *c, const agal_program *fp, int k, int mode,
                        frag_ref *out)
{
    bool coarse = mode != 0, up = mode == 2;
    bool perturbed = k >= 1 && k <= NPERTURB;
    gen_rng r;
    gen_rng_seed(&r, mix(c->seed, 200 + (uint64_t)k));
    float (*fc)[4] = malloc(c->nfc * sizeof *fc);
    agal_interp_invocation *inv = calloc(NPIX, sizeof *inv);
    agal_interp_result *res = calloc(NPIX, sizeof *res);
    int rc = -1;
    if (!fc || !inv || !res)
        goto done;
    for (unsigned i = 0; i < c->nfc; i++)
        for (int q = 0; q < 4; q++)
            fc[i][q] = perturbed ? perturb(c->fc[i][q], &r) : c->fc[i][q];
    /* quad order: TL, TR, BL, BR */
    unsigned pix[NPIX];
    for (int qy = 0, n = 0; qy < SIZE / 2; qy++)
        for (int qx = 0; qx < SIZE / 2; qx++)
            for (int l = 0; l < 4; l++, n++)
                pix[n] = (unsigned)((2 * qy + (up ? 1 - l / 2 : l / 2)) * SIZE + 2 * qx + l % 2);
    for (int n = 0; n < NPIX; n++)
        for (int v = 0; v < AGAL_INTERP_MAX_VARYINGS; v++)
            for (int q = 0; q < 4; q++)
                inv[n].in[v][q] = perturbed ? perturb(c->var[pix[n]][v][q], &r) : c->var[pix[n]][v][q];
    agal_interp_env env = { .constants = (const float(*)[4])fc, .nconstants = c->nfc,
                            .textures = c->tex.t, .ntextures = c->tex.n, .coarse_derivatives = coarse };
    if (agal_interp_run(ctx, fp, &env, inv, NPIX, res))
        goto done;
    bool fd = agal_interp_written(fp, AGAL_REG_DEPTH) != 0;
    for (int n = 0; n < NPIX; n++) {
        unsigned p = pix[n];
        for (int o = 0; o < HARNESS_MAX_OUTPUTS; o++)
            memcpy(out->color[o] + 4 * p, res[n].oc[o], 16);
        out->depth[p] = fd ? res[n].fd : c->zpix[p];
        out->killed[p] = res[n].killed ? 1.0f : 0.0f;
    }
    rc = 0;
done:
    free(fc);
    free(inv);
    free(res);
    return rc;
}

/* ---- reporting ----------------------------------------------------------------------------- */

static void print_program(agal_context *ctx, const char *title, const agal_program *p)
{
    const char *text = NULL;
    printf("---- %s (AGAL%u)\n", title, (unsigned)p->version);
    if (agal_disassemble_program(ctx, p, 0, &text) == AGAL_OK && text)
        printf("%s", text);
    else
        printf("(%u tokens, not disassemblable)\n", (unsigned)p->ntokens);
}

static void print_vec(const char *name, const float *v)
{
    printf("  %-8s %12.7g %12.7g %12.7g %12.7g\n", name, v[0], v[1], v[2], v[3]);
}

static void print_inputs(const pair_case *c, bool vertex)
{
    printf("---- inputs (seed %llu)\n", (unsigned long long)c->seed);
    if (vertex) {
        for (int a = 0; a < HARNESS_MAX_ATTRIBS; a++)
            if (c->attr_mask & (1u << a))
                for (int v = 0; v < NVERTS; v++) {
                    char name[16];
                    snprintf(name, sizeof name, "va%d[%d]", a, v);
                    print_vec(name, c->attr[a][v]);
                }
        for (unsigned i = 0; i < 8 && i < c->nvc; i++) {
            char name[16];
            snprintf(name, sizeof name, "vc%u", i);
            print_vec(name, c->vc[i]);
        }
        printf("  (vc8..vc%u seeded the same way; %u instances)\n", c->nvc - 1, c->ninst);
    } else {
        for (unsigned i = 0; i < 8 && i < c->nfc; i++) {
            char name[16];
            snprintf(name, sizeof name, "fc%u", i);
            print_vec(name, c->fc[i]);
        }
        printf("  varyings: v<i> = m44((X, Y, 0.5 + 0.2X + 0.1Y, 1), rows below) at pixel centres\n");
        for (unsigned v = 0; v < AGAL_INTERP_MAX_VARYINGS; v++)
            if (c->var_mask & (1u << v))
                for (int k = 0; k < 4; k++) {
                    char name[16];
                    snprintf(name, sizeof name, "v%u row%d", v, k);
                    print_vec(name, c->pvc[4 * v + k]);
                }
        for (int i = 0; i < HARNESS_MAX_TEXTURES; i++)
            if (c->tex.h[i].present)
                printf("  fs%d: %s %ux%u, %u levels, filter %u mipmap %u wrap %u, smooth seeded texels\n", i,
                       c->tex.h[i].cube ? "cube" : "2d", c->tex.h[i].size, c->tex.h[i].size, c->tex.h[i].levels, c->tex.h[i].filter,
                       c->tex.h[i].mipmap, c->tex.h[i].wrap);
    }
}

/* ---- the vertex draw ------------------------------------------------------------------------- */

typedef struct backend_out {
    const char *name;
    bool vulkan;
    harness_result r;
    bool ok;
} backend_out;

static int run_backend(backends *b, bool vulkan, const harness_draw *d, harness_result *r)
{
    char err[1024];
    int rc = vulkan ? harness_vk_run(b->vk, d, r, err, sizeof err) : harness_gl_run(b->gl, d, r, err, sizeof err);
    if (rc)
        fprintf(stderr, "compare: %s: %s\n", vulkan ? "vulkan" : "gl", err);
    return rc;
}

static unsigned varyings_written(const agal_program *p, uint8_t *vars)
{
    unsigned m = agal_interp_written(p, AGAL_REG_VARYING), n = 0;
    for (unsigned i = 0; i < 16; i++)
        if (m & (1u << i))
            vars[n++] = (uint8_t)i;
    return n;
}

static verdict check_vertex(agal_context *ctx, const pair_case *c, const harness_result *r, bool vulkan,
                            bool print)
{
    verdict v = { 0 };
    uint8_t vars[16];
    unsigned nvar = varyings_written(c->vp, vars);
    size_t n = (size_t)NVERTS * c->ninst * 4 * (1 + nvar);
    float *ref[1 + NPERTURB];
    for (int k = 0; k <= NPERTURB; k++) {
        ref[k] = calloc(n, sizeof(float));
        if (ref[k])
            ref_vertex(ctx, c, k, vulkan, ref[k], nvar, vars);
    }
    tolerance t = program_tolerance(c->vp);
    for (size_t i = 0; i < n && ref[NPERTURB]; i++) {
        if (!isfinite(ref[0][i])) {
            v.undefined++;
            continue;
        }
        double sp = spread_of(ref[0], (const float *const *)ref + 1, i);
        /* op.z under GL's fix mixes z and w: scale by both. */
        bool ok = agree(ref[0][i], sp, r->xfb[i], t);
        v.compared++;
        if (near_threshold(ref[0][i], sp))
            v.near++;
        if (!ok) {
            v.bad++;
            if (print && v.bad <= 24) {
                size_t rec = i / (4 * (1 + nvar)), slot = (i / 4) % (1 + nvar);
                char name[16];
                if (slot == 0)
                    snprintf(name, sizeof name, "op");
                else
                    snprintf(name, sizeof name, "v%u", (unsigned)vars[slot - 1]);
                printf("  instance %zu vertex %zu %s.%c: interpreter %.9g (spread %.3g)  %s %.9g\n",
                       rec / NVERTS, rec % NVERTS, name, "xyzw"[i % 4], ref[0][i], sp,
                       vulkan ? "vulkan" : "gl", r->xfb[i]);
            }
        }
    }
    for (int k = 0; k <= NPERTURB; k++)
        free(ref[k]);
    return v;
}

static int vertex_draw(agal_context *ctx, backends *b, const pair_case *c, bool vulkan, harness_result *r)
{
    shaders s;
    if (translate(ctx, c->vp, true, &s, "vertex program"))
        return -1;
    harness_draw d = { .vs_spirv = s.spv, .vs_words = s.nspv, .vs_glsl = s.glsl, .nverts = NVERTS,
                       .ninstances = c->ninst, .vc = &c->vc[0][0], .nvc = c->nvc, .capture = true };
    for (int a = 0; a < HARNESS_MAX_ATTRIBS; a++)
        if (c->attr_mask & (1u << a))
            d.attribs[a] = &c->attr[a][0][0];
    d.ncapture = varyings_written(c->vp, d.capture_regs);
    return run_backend(b, vulkan, &d, r);
}

/* ---- the fragment draw ------------------------------------------------------------------------ */

static int fragment_draw(agal_context *ctx, backends *b, const pair_case *c, bool vulkan, harness_result *r)
{
    const agal_program *pt;
    shaders vs, fs;
    if (passthrough(ctx, c, &pt) || translate(ctx, pt, false, &vs, "pass-through vertex program") ||
        translate(ctx, c->fp, false, &fs, "fragment program"))
        return -1;
    harness_draw d = { .vs_spirv = vs.spv, .vs_words = vs.nspv, .vs_glsl = vs.glsl, .fs_spirv = fs.spv,
                       .fs_words = fs.nspv, .fs_glsl = fs.glsl, .nverts = 6, .ninstances = 1,
                       .vc = &c->pvc[0][0], .nvc = c->nvc, .fc = &c->fc[0][0], .nfc = c->nfc,
                       .width = SIZE, .height = SIZE };
    d.attribs[0] = &c->quad[0][0];
    unsigned ocs = agal_interp_written(c->fp, AGAL_REG_OUTPUT);
    while (d.noc < HARNESS_MAX_OUTPUTS && (ocs & (1u << d.noc)))
        d.noc++;
    if (d.noc == 0)
        d.noc = 1;
    memcpy(d.tex, c->tex.h, sizeof d.tex);
    return run_backend(b, vulkan, &d, r);
}

/* Compares one pixel; returns the number of bad components. */
static unsigned check_pixel(const pair_case *c, const harness_result *r, const frag_ref *ref,
                            const frag_ref *pert, unsigned noc, int p, tolerance t, verdict *v, bool print,
                            const char *name)
{
    unsigned bad = 0;
    bool killed = ref->killed[p] != 0, got_killed = harness_discarded(r, (size_t)p);
    bool kill_unstable = false;
    for (int k = 0; k < FPERTURB; k++)
        kill_unstable |= pert[k].killed[p] != ref->killed[p];
    if (ref->undefined[p]) {
        v->near++;
        return 0;
    }
    v->compared++;
    if (killed != got_killed) {
        if (kill_unstable) {
            v->near++;
            return 0;
        }
        if (print)
            printf("  pixel (%d,%d): interpreter %s, %s %s\n", p % SIZE, p / SIZE, killed ? "discards" : "keeps",
                   name, got_killed ? "discards" : "keeps");
        return 1;
    }
    if (killed)
        return 0;
    for (unsigned o = 0; o < noc; o++)
        for (int q = 0; q < 4; q++) {
            size_t i = (size_t)p * 4 + q;
            if (!isfinite(ref->color[o][i])) {
                v->undefined++;
                continue;
            }
            double sp = 0;
            for (int k = 0; k < FPERTURB; k++)
                sp = fmax(sp, fabs((double)pert[k].color[o][i] - ref->color[o][i]));
            v->compared++;
            if (near_threshold(ref->color[o][i], sp))
                v->near++;
            if (!agree(ref->color[o][i], sp, r->color[o][i], t)) {
                bad++;
                if (print)
                    printf("  pixel (%d,%d) oc%u.%c: interpreter %.9g (spread %.3g)  %s %.9g\n", p % SIZE, p / SIZE,
                           o, "xyzw"[q], ref->color[o][i], sp, name, r->color[o][i]);
            }
        }
    /* Depth: D32F after the [0, 1] clamp of the depth range; outside it the written
     * value is undefined in Vulkan, so only values inside are compared. */
    double dref = ref->depth[p], sp = 0;
    for (int k = 0; k < FPERTURB; k++)
        sp = fmax(sp, fabs((double)pert[k].depth[p] - dref));
    if (dref >= 0 && dref <= 1) {
        v->compared++;
        if (!agree(dref, sp, r->depth[p], (tolerance){ fmax(t.atol, 1e-5), t.rtol })) {
            bad++;
            if (print)
                printf("  pixel (%d,%d) depth: interpreter %.9g (spread %.3g)  %s %.9g\n", p % SIZE, p / SIZE, dref,
                       sp, name, r->depth[p]);
        }
    }
    return bad;
}

static const agal_program *rebuild(agal_context *ctx, const agal_token *toks, uint32_t n, agal_stage stage,
                                   uint32_t version, agal_profile profile, bool lenient);

/* The fragment program with every tex's LOD bias moved by delta eighths (ted's
 * LOD is explicit and stays). Falls back to the program itself. */
static const agal_program *lod_shifted(agal_context *ctx, const agal_program *p, int delta)
{
    agal_token *toks = agal_alloc(ctx, sizeof *toks * (p->ntokens ? p->ntokens : 1));
    if (!toks)
        return p;
    for (uint32_t i = 0; i < p->ntokens; i++) {
        toks[i] = p->tokens[i];
        if (toks[i].op == AGAL_OP_TEX) {
            int b = toks[i].s.bias + delta;
            toks[i].s.bias = (int8_t)(b > 127 ? 127 : b < -128 ? -128 : b);
        }
    }
    const agal_program *q = rebuild(ctx, toks, p->ntokens, p->stage, p->version, p->profile, p->lenient);
    agal_diag_clear(ctx);
    return q ? q : p;
}

/* Cube lookups whose direction has two largest components of equal magnitude: GL
 * 4.6 section 8.13 leaves the face of such a direction to the implementation, so
 * those pixels are undefined (and with them the implicit LOD, which is taken on the
 * chosen face); so is a zero direction. A quad whose lanes select different faces
 * is compared: the cube LOD rule (texture.c, Vulkan's cube map derivatives) uses
 * only the sampling lane's face and the raw directions' differences, which both
 * drivers follow (random seed 1 pair 298, which once needed such quads left out,
 * agrees). For each cube tex/ted, the interpreter runs the
 * program up to that token with `mov oc0, <its coordinate operand>` in its place
 * (open blocks closed; lenient, since the output may sit in a block). */
static void cube_ties(agal_context *ctx, const pair_case *c, bool undefined[NPIX])
{
    const agal_program *p = c->fp;
    for (uint32_t k = 0; k < p->ntokens; k++) {
        const agal_token *t = &p->tokens[k];
        if (!(t->op == AGAL_OP_TEX || t->op == AGAL_OP_TED) || t->s.dim != AGAL_DIM_CUBE)
            continue;
        agal_token *toks = agal_alloc(ctx, sizeof *toks * (k + 6));
        if (!toks)
            return;
        /* Earlier output writes go: they cannot change the coordinate, and oc0
         * may be written only once. */
        unsigned depth = 0;
        uint32_t n = 0;
        for (uint32_t i = 0; i < k; i++) {
            const agal_opinfo *info = agal_opinfo_get(p->tokens[i].op);
            bool writes_output = info && (info->operands & AGAL_OPND_D) &&
                                 (p->tokens[i].dst.type == AGAL_REG_OUTPUT || p->tokens[i].dst.type == AGAL_REG_DEPTH);
            if (!writes_output)
                toks[n++] = p->tokens[i];
            depth += info && (info->flags & AGAL_OPF_IF);
            depth -= info && (info->flags & AGAL_OPF_ENDIF);
        }
        toks[n] = (agal_token){ .op = AGAL_OP_MOV, .dst = { AGAL_REG_OUTPUT, 0xf, 0 }, .a = t->a };
        n++;
        while (depth-- > 0 && n < k + 6) /* depth <= 4 */
            toks[n++] = (agal_token){ .op = AGAL_OP_EIF };
        const agal_program *q = rebuild(ctx, toks, n, p->stage, p->version, p->profile, true);
        if (!q) /* cannot observe the coordinate: treat every pixel as undefined */
            for (int px = 0; px < NPIX; px++)
                undefined[px] = true;
        agal_diag_clear(ctx);
        frag_ref *coord = q ? calloc(1, sizeof *coord) : NULL;
        if (coord && ref_fragment(ctx, c, q, 0, 0, coord) == 0)
            for (int px = 0; px < NPIX; px++) {
                float a[3] = { fabsf(coord->color[0][4 * px]), fabsf(coord->color[0][4 * px + 1]),
                               fabsf(coord->color[0][4 * px + 2]) };
                float m = fmaxf(a[0], fmaxf(a[1], a[2]));
                int ties = (a[0] >= m * (1 - 1e-4f)) + (a[1] >= m * (1 - 1e-4f)) + (a[2] >= m * (1 - 1e-4f));
                if (ties > 1 || !(m > 0))
                    undefined[px] = true;
            }
        free(coord);
        agal_diag_clear(ctx);
    }
}

static verdict check_fragment(agal_context *ctx, const pair_case *c, const harness_result *r, const char *name,
                              bool print)
{
    verdict v = { 0 };
    frag_ref *ref = calloc(3 * (1 + FPERTURB), sizeof *ref);
    if (!ref) {
        v.bad = 1;
        return v;
    }
    tolerance t = program_tolerance(c->fp);
    unsigned noc = 0, ocs = agal_interp_written(c->fp, AGAL_REG_OUTPUT);
    while (noc < HARNESS_MAX_OUTPUTS && (ocs & (1u << noc)))
        noc++;
    bool deriv = uses_op(c->fp, AGAL_OPF_DERIV | AGAL_OPF_TEXTURE);
    int modes = !deriv ? 1 : strcmp(name, "gl") == 0 && !uses_op(c->fp, AGAL_OPF_DERIV) ? 3 : 2;
    const agal_program *shifted[2] = { lod_shifted(ctx, c->fp, -LOD_SHIFT), lod_shifted(ctx, c->fp, LOD_SHIFT) };
    for (int mode = 0; mode < modes; mode++)
        for (int k = 0; k <= FPERTURB; k++) {
            const agal_program *fp = k > NPERTURB ? shifted[k - NPERTURB - 1] : c->fp;
            if (ref_fragment(ctx, c, fp, k, mode, &ref[mode * (1 + FPERTURB) + k])) {
                v.bad = 1;
                free(ref);
                return v;
            }
        }
    cube_ties(ctx, c, ref[0].undefined);
    memcpy(ref[1 + FPERTURB].undefined, ref[0].undefined, sizeof ref[0].undefined);
    memcpy(ref[2 * (1 + FPERTURB)].undefined, ref[0].undefined, sizeof ref[0].undefined);
    for (int p = 0; p < NPIX; p++) {
        verdict pv = { 0 };
        unsigned bad = check_pixel(c, r, &ref[0], &ref[1], noc, p, t, &pv, false, name);
        if (bad && deriv) { /* the coarse-derivative reading of the same program */
            verdict cv = { 0 };
            if (check_pixel(c, r, &ref[1 + FPERTURB], &ref[2 + FPERTURB], noc, p, t, &cv, false, name) == 0) {
                bad = 0;
                pv = cv;
            }
        }
        if (bad && modes == 3) { /* GL's coarse quad: rows the other way up */
            verdict cv = { 0 };
            if (check_pixel(c, r, &ref[2 * (1 + FPERTURB)], &ref[2 * (1 + FPERTURB) + 1], noc, p, t, &cv, false,
                            name) == 0) {
                bad = 0;
                pv = cv;
            }
        }
        if (bad && print)
            check_pixel(c, r, &ref[0], &ref[1], noc, p, t, &pv, true, name);
        v.compared += pv.compared;
        v.near += pv.near;
        v.undefined += pv.undefined;
        v.bad += bad;
    }
    free(ref);
    return v;
}

/* ---- one pair ------------------------------------------------------------------------------------ */

/* Runs the pair on every enabled backend. Returns 0 agree, 1 disagree, 2 could not run. */
static int run_pair(agal_context *ctx, backends *b, const options *o, const agal_program *vp,
                    const agal_program *fp, uint64_t seed, bool print, stats *st)
{
    pair_case c;
    if (case_make(&c, vp, fp, seed)) {
        case_free(&c);
        return 2;
    }
    int result = 0;
    for (int bk = 0; bk < 2; bk++) {
        bool vulkan = bk == 0;
        if ((vulkan && !b->vk) || (!vulkan && !b->gl))
            continue;
        const char *name = vulkan ? "vulkan" : "gl";
        harness_result r;
        if (vertex_draw(ctx, b, &c, vulkan, &r)) {
            result = 2;
            continue;
        }
        verdict vv = check_vertex(ctx, &c, &r, vulkan, false);
        if (vv.bad && print) {
            printf("==== vertex outputs disagree on %s (%u of %u components)\n", name, vv.bad, vv.compared);
            print_program(ctx, "vertex program", vp);
            print_inputs(&c, true);
            check_vertex(ctx, &c, &r, vulkan, true);
        }
        harness_result_free(&r);
        if (fragment_draw(ctx, b, &c, vulkan, &r)) {
            result = 2;
            continue;
        }
        for (int px = 0; o->fault && r.color[0] && px < NPIX; px++)
            r.color[0][4 * px + 1] += 0.05f; /* every pixel's oc0.y */
        verdict fv = check_fragment(ctx, &c, &r, name, false);
        if (fv.bad && print) {
            printf("==== fragment outputs disagree on %s (%u of %u)\n", name, fv.bad, fv.compared);
            print_program(ctx, "fragment program", fp);
            print_inputs(&c, false);
            check_fragment(ctx, &c, &r, name, true);
        }
        harness_result_free(&r);
        if (st) {
            st->compared += vv.compared + fv.compared;
            st->near += vv.near + fv.near;
            st->undefined += vv.undefined + fv.undefined;
        }
        if ((vv.bad || fv.bad) && result == 0)
            result = 1;
        if (o->verbose)
            printf("  %s: vertex %u/%u near %u, fragment %u/%u near %u\n", name, vv.compared - vv.bad, vv.compared,
                   vv.near, fv.compared - fv.bad, fv.compared, fv.near);
    }
    case_free(&c);
    return result;
}

/* ---- shrinking ------------------------------------------------------------------------------------- */

/* Decodes tokens as a program of stage/version (strict validation). */
static const agal_program *rebuild(agal_context *ctx, const agal_token *toks, uint32_t n, agal_stage stage,
                                   uint32_t version, agal_profile profile, bool lenient)
{
    size_t size = AGAL_HEADER_SIZE + (size_t)n * AGAL_TOKEN_SIZE;
    uint8_t *bytes = agal_alloc(ctx, size);
    if (!bytes)
        return NULL;
    uint8_t hdr[AGAL_HEADER_SIZE] = { AGAL_MAGIC, (uint8_t)version, 0, 0, 0, AGAL_TYPE_ID, (uint8_t)stage };
    memcpy(bytes, hdr, sizeof hdr);
    for (uint32_t i = 0; i < n; i++)
        agal_token_encode(&toks[i], bytes + AGAL_HEADER_SIZE + i * AGAL_TOKEN_SIZE);
    agal_decode_options o = { .profile = profile, .lenient = lenient };
    const agal_program *p = NULL;
    return agal_decode(ctx, bytes, size, &o, &p) == AGAL_OK ? p : NULL;
}

/* Deletes one token at a time (then pairs of tokens, for blocks) from either
 * program while the pair still validates, links and still disagrees; repeats until
 * nothing more can go. The programs live in ctx. */
static void shrink(agal_context *ctx, backends *b, const options *o, const agal_program **vp,
                   const agal_program **fp, uint64_t seed)
{
    bool progress = true;
    unsigned tries = 0;
    while (progress && tries < 400) {
        progress = false;
        for (int which = 0; which < 2; which++) {
            const agal_program *p = which ? *fp : *vp;
            for (uint32_t span = 1; span <= 2 && !progress; span++)
                for (uint32_t i = 0; i + span <= p->ntokens && !progress; i++) {
                    agal_token *toks = agal_alloc(ctx, sizeof *toks * (p->ntokens ? p->ntokens : 1));
                    if (!toks)
                        return;
                    uint32_t n = 0;
                    for (uint32_t k = 0; k < p->ntokens; k++)
                        if (k < i || k >= i + span)
                            toks[n++] = p->tokens[k];
                    const agal_program *q = rebuild(ctx, toks, n, p->stage, p->version, p->profile, false);
                    agal_diag_clear(ctx);
                    if (!q)
                        continue;
                    const agal_program *nv = which ? *vp : q, *nf = which ? q : *fp;
                    if (agal_link(ctx, nv, nf) != AGAL_OK) {
                        agal_diag_clear(ctx);
                        continue;
                    }
                    tries++;
                    if (run_pair(ctx, b, o, nv, nf, seed, false, NULL) == 1) {
                        *vp = nv;
                        *fp = nf;
                        progress = true;
                    }
                }
        }
    }
}

/* ---- drivers ------------------------------------------------------------------------------------------ */

static int report(agal_context *ctx, backends *b, const options *o, const agal_program *vp, const agal_program *fp,
                  uint64_t seed, const char *label, stats *st)
{
    st->pairs++;
    int rc = run_pair(ctx, b, o, vp, fp, seed, false, st);
    if (rc == 0) {
        if (o->verbose)
            printf("%s: ok\n", label);
        return 0;
    }
    st->failed++;
    if (rc == 2) {
        printf("%s: FAILED to run (see stderr)\n", label);
        return 1;
    }
    printf("%s: FAILED (seed %llu)\n", label, (unsigned long long)seed);
    run_pair(ctx, b, o, vp, fp, seed, true, NULL);
    return 1;
}

static int compare_files(agal_context *ctx, backends *b, const options *o, const char *vpath, const char *fpath,
                         stats *st)
{
    const agal_program *vp, *fp;
    tool_program_opts po = {.stage = AGAL_VERTEX, .slot = AGAL_SLOT_VERTEX};
    if (tool_load_program(ctx, vpath, &po, &vp))
        return 1;
    po.stage = AGAL_FRAGMENT;
    po.slot = AGAL_SLOT_FRAGMENT;
    if (tool_load_program(ctx, fpath, &po, &fp))
        return 1;
    if (agal_link(ctx, vp, fp) != AGAL_OK) {
        fprintf(stderr, "compare: %s + %s do not link\n", vpath, fpath);
        return 1;
    }
    char label[1024];
    snprintf(label, sizeof label, "%s + %s", vpath, fpath);
    return report(ctx, b, o, vp, fp, o->seed, label, st);
}

static int compare_corpus(agal_context *ctx, backends *b, const options *o, const char *dir, stats *st)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "compare: cannot open %s\n", dir);
        return 2;
    }
    char *names[512];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 512) {
        size_t len = strlen(e->d_name);
        if (len > 10 && !strcmp(e->d_name + len - 10, ".vert.agal"))
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    for (size_t i = 1; i < n; i++) /* sorted, for a stable order */
        for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        char vp[1024], fp[1024];
        snprintf(vp, sizeof vp, "%s/%s", dir, names[i]);
        snprintf(fp, sizeof fp, "%s/%.*s.frag.agal", dir, (int)(strlen(names[i]) - 10), names[i]);
        rc |= compare_files(ctx, b, o, vp, fp, st);
        agal_context_reset(ctx);
        free(names[i]);
    }
    return rc;
}

static const agal_program *decode_gen(agal_context *ctx, const gen_program *g)
{
    static const size_t cap = GEN_MAX_BYTES;
    uint8_t *bytes = agal_alloc(ctx, cap);
    size_t size = bytes ? gen_program_encode(g, bytes, cap) : 0;
    const agal_program *p = NULL;
    if (!size || agal_decode(ctx, bytes, size, NULL, &p) != AGAL_OK)
        return NULL;
    return p;
}

/* Prints the opcodes of each version/stage that no generated program used (among
 * those the version and stage allow); returns how many there were. */
static unsigned coverage_report(uint64_t seen[3][2], unsigned count)
{
    unsigned missing = 0;
    for (uint32_t v = 1; v <= 3 && v <= count; v++)
        for (int stage = 0; stage < 2; stage++) {
            unsigned nops = 0, miss = 0;
            char list[256] = "";
            for (unsigned op = 0; op < AGAL_OP_LIMIT; op++) {
                const agal_opinfo *info = agal_opinfo_get(op);
                if (!info || !info->name || info->min_version > v ||
                    ((info->flags & AGAL_OPF_FRAGMENT) && stage == AGAL_VERTEX))
                    continue;
                nops++;
                if (!(seen[v - 1][stage] & GEN_OP(op))) {
                    miss++;
                    size_t n = strlen(list);
                    snprintf(list + n, sizeof list - n, " %s", info->name);
                }
            }
            printf("coverage: AGAL%u %s: %u of %u opcodes%s%s\n", (unsigned)v, stage ? "fragment" : "vertex",
                   nops - miss, nops, miss ? ", missing:" : "", list);
            missing += miss;
        }
    return missing;
}

static int compare_random(agal_context *ctx, backends *b, const options *o, unsigned count, stats *st)
{
    gen_program *gv = malloc(sizeof *gv), *gf = malloc(sizeof *gf);
    int rc = 0;
    /* Every opcode; the generator's guards keep inputs inside the defined domains
     * (src/agal.md section 4) and magnitudes bounded, given inputs of magnitude <= 4
     * (attributes, constants in [-2, 2], varyings <= 3.8, texels in [0, 1], iid < 3)
     * and the guard constants case_make sets. */
    gen_options go = { .max_tokens = 40, .safe_domain = true, .plain_samplers = true };
    uint64_t seen[3][2] = { { 0 } };
    for (unsigned i = 0; gv && gf && i < count; i++) {
        uint64_t seed = mix(o->seed, i);
        uint32_t version = 1 + i % 3;
        if (!gen_pair(gv, gf, seed, version, &go)) {
            printf("random pair %u: generator refused (seed %llu)\n", i, (unsigned long long)seed);
            rc = 1;
            continue;
        }
        const agal_program *vp = decode_gen(ctx, gv), *fp = decode_gen(ctx, gf);
        if (!vp || !fp) {
            printf("random pair %u: generated program does not decode (seed %llu)\n", i, (unsigned long long)seed);
            rc = 1;
            agal_context_reset(ctx);
            continue;
        }
        for (uint32_t k = 0; k < vp->ntokens; k++)
            seen[version - 1][AGAL_VERTEX] |= GEN_OP(vp->tokens[k].op);
        for (uint32_t k = 0; k < fp->ntokens; k++)
            seen[version - 1][AGAL_FRAGMENT] |= GEN_OP(fp->tokens[k].op);
        st->pairs++;
        int r = run_pair(ctx, b, o, vp, fp, seed, false, st);
        if (r == 1) {
            st->failed++;
            rc = 1;
            printf("random pair %u (AGAL%u, seed %llu): FAILED; shrinking %u+%u tokens\n", i, version,
                   (unsigned long long)seed, (unsigned)vp->ntokens, (unsigned)fp->ntokens);
            shrink(ctx, b, o, &vp, &fp, seed);
            printf("random pair %u shrunk to %u+%u tokens:\n", i, (unsigned)vp->ntokens, (unsigned)fp->ntokens);
            run_pair(ctx, b, o, vp, fp, seed, true, NULL);
        } else if (r == 2) {
            st->failed++;
            rc = 1;
            printf("random pair %u (AGAL%u, seed %llu): FAILED to run\n", i, version, (unsigned long long)seed);
            print_program(ctx, "vertex program", vp);
            print_program(ctx, "fragment program", fp);
        } else if (o->verbose) {
            printf("random pair %u (AGAL%u): ok\n", i, version);
        }
        agal_context_reset(ctx);
    }
    free(gv);
    free(gf);
    if (coverage_report(seen, count) && o->coverage)
        rc = 1;
    return rc;
}

static int usage(void)
{
    fprintf(stderr, "usage: agalrun compare VERTEX FRAGMENT [--seed N]\n"
                    "       agalrun compare --corpus DIR [--seed N]\n"
                    "       agalrun compare --random N [--seed S]\n"
                    "options: --vk-only --gl-only --no-validation --verbose --inject-fault\n"
                    "         --require-coverage (random: fail unless every opcode appeared)\n");
    return 2;
}

int agalrun_compare(int argc, char **argv)
{
    options o = { .vk = true, .gl = true, .validation = true, .seed = 1 };
    const char *files[2] = { 0 }, *corpus = NULL;
    long random = -1;
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--seed") && i + 1 < argc)
            o.seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(a, "--corpus") && i + 1 < argc)
            corpus = argv[++i];
        else if (!strcmp(a, "--random") && i + 1 < argc)
            random = strtol(argv[++i], NULL, 0);
        else if (!strcmp(a, "--vk-only"))
            o.gl = false;
        else if (!strcmp(a, "--gl-only"))
            o.vk = false;
        else if (!strcmp(a, "--no-validation"))
            o.validation = false;
        else if (!strcmp(a, "--verbose"))
            o.verbose = true;
        else if (!strcmp(a, "--inject-fault"))
            o.fault = true;
        else if (!strcmp(a, "--require-coverage"))
            o.coverage = true;
        else if (a[0] != '-' && nfiles < 2)
            files[nfiles++] = a;
        else
            return usage();
    }
    if (!corpus && random < 0 && nfiles != 2)
        return usage();
    char err[512];
    backends b = { 0 };
    if (o.vk && !(b.vk = harness_vk_create(o.validation, err, sizeof err))) {
        fprintf(stderr, "compare: %s\n", err);
        return 2;
    }
    if (o.gl && !(b.gl = harness_gl_create(o.validation, err, sizeof err))) {
        fprintf(stderr, "compare: %s\n", err);
        harness_vk_destroy(b.vk);
        return 2;
    }
    printf("compare: %s%s%s\n", b.vk ? harness_vk_device_name(b.vk) : "", b.vk && b.gl ? " (vulkan), " : "",
           b.gl ? harness_gl_renderer(b.gl) : "");
    agal_context *ctx = agal_context_new(NULL, NULL);
    stats st = { 0 };
    int rc = 2;
    if (ctx) {
        if (corpus)
            rc = compare_corpus(ctx, &b, &o, corpus, &st);
        else if (random >= 0)
            rc = compare_random(ctx, &b, &o, (unsigned)random, &st);
        else
            rc = compare_files(ctx, &b, &o, files[0], files[1], &st);
    }
    agal_context_free(ctx);
    unsigned gl_msgs = b.gl ? harness_gl_messages(b.gl) : 0;
    harness_gl_destroy(b.gl);
    unsigned vk_msgs = harness_vk_destroy(b.vk);
    printf("compare: %u pair(s), %u failed; %u values compared, %u near a threshold, %u undefined (inf/NaN "
           "reference, not compared); %u validation message(s)\n",
           st.pairs, st.failed, st.compared, st.near, st.undefined, vk_msgs + gl_msgs);
    if (rc == 0 && vk_msgs + gl_msgs)
        rc = 1;
    return rc;
}
