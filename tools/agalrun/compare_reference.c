/* compare_reference.c: `agalrun compare`'s reference runs of the interpreter,
 * exact and perturbed, and the cube lookups it leaves undefined (the method:
 * agalrun_compare.c). */
#include "agal/interp.h"
#include "agal/text.h"
#include "compare.h"
#include "harness_api.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A perturbed input moves by up to PERTURB (|x| + 0.25). */
static const double PERTURB = 3e-5;

static float perturb(float x, gen_rng *r) { return x + (float)(PERTURB * (fabs(x) + 0.25) * cmp_uniform(r, -1, 1)); }

/* A malloc'd copy of n constant registers, perturbed when asked. */
static float (*constants(const float (*src)[4], unsigned n, bool perturbed, gen_rng *r))[4]
{
    float(*c)[4] = malloc((n ? n : 1) * sizeof *c);
    for (unsigned i = 0; c && i < n; i++)
        for (int q = 0; q < 4; q++) c[i][q] = perturbed ? perturb(src[i][q], r) : src[i][q];
    return c;
}

/* Runs p: exactly, or perturbed with each token's own error bound (cmp_token_errors). */
static int interpret(agal_context *ctx, const agal_program *p, const agal_interp_env *env,
                     const agal_interp_invocation *in, size_t n, agal_interp_result *out, bool perturbed, uint64_t seed)
{
    if (!perturbed) return agal_interp_run(ctx, p, env, in, n, out) ? -1 : 0;
    float(*err)[2] = malloc((p->ntokens ? p->ntokens : 1) * sizeof *err);
    if (!err) return -1;
    cmp_token_errors(p, err);
    agal_status st = agal_interp_run_perturbed(ctx, p, env, in, n, out, (const float(*)[2])err, seed);
    free(err);
    return st ? -1 : 0;
}

/* Vertex reference: k = 0 the given inputs, k > 0 perturbed ones. out: per
 * (instance, vertex) the xfb record layout (op, varyings in ascending order). */
int cmp_ref_vertex(agal_context *ctx, const pair_case *c, int k, agal_target target, float *out, unsigned nvar,
                   const uint8_t *vars)
{
    gen_rng r;
    gen_rng_seed(&r, cmp_mix(c->seed, 100 + (uint64_t)k));
    float(*vc)[4] = constants((const float(*)[4])c->vc, c->nvc, k != 0, &r);
    agal_interp_invocation *inv = calloc(NVERTS * c->ninst, sizeof *inv);
    agal_interp_result *res = calloc(NVERTS * c->ninst, sizeof *res);
    int rc = -1;
    if (!vc || !inv || !res) goto done;
    for (unsigned in = 0; in < c->ninst; in++)
        for (int v = 0; v < NVERTS; v++) {
            agal_interp_invocation *iv = &inv[in * NVERTS + v];
            iv->instance_id = in;
            for (int a = 0; a < HARNESS_MAX_ATTRIBS; a++)
                for (int q = 0; q < 4; q++) iv->in[a][q] = k ? perturb(c->attr[a][v][q], &r) : c->attr[a][v][q];
        }
    agal_interp_env env = {.constants = (const float(*)[4])vc, .nconstants = c->nvc};
    if (interpret(ctx, c->vp, &env, inv, NVERTS * c->ninst, res, k != 0, cmp_mix(c->seed, 300 + (uint64_t)k)))
        goto done;
    /* op as the translation writes it out, drawn on screen (flip 1): the library's
     * rule, not a copy of it. */
    agal_ir_conventions conv;
    agal_target_conventions(target, AGAL_CLIP_DEFAULT, &conv);
    for (unsigned i = 0; i < NVERTS * c->ninst; i++) {
        float *rec = out + i * 4 * (1 + nvar);
        agal_conventions_position(&conv, 1.0f, res[i].op, rec);
        for (unsigned j = 0; j < nvar; j++) memcpy(rec + 4 * (1 + j), res[i].v[vars[j]], 16);
    }
    rc = 0;
done:
    free(vc);
    free(inv);
    free(res);
    return rc;
}

/* mode: 0 fine derivatives; 1 coarse (the quad's top row and left column); 2 coarse
 * with the quad's rows swapped, as GL sees it (window y up: its first row is our
 * bottom one). Mode 2 turns ddy over: run it on cmp_ddy_negated's program. */
int cmp_ref_fragment(agal_context *ctx, const pair_case *c, const agal_program *fp, int k, int mode, frag_ref *out)
{
    bool coarse = mode != 0, up = mode == 2;
    bool perturbed = k >= 1 && k <= NPERTURB;
    gen_rng r;
    gen_rng_seed(&r, cmp_mix(c->seed, 200 + (uint64_t)k));
    float(*fc)[4] = constants((const float(*)[4])c->fc, c->nfc, perturbed, &r);
    agal_interp_invocation *inv = calloc(NPIX, sizeof *inv);
    agal_interp_result *res = calloc(NPIX, sizeof *res);
    int rc = -1;
    if (!fc || !inv || !res) goto done;
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
    agal_interp_env env = {.constants = (const float(*)[4])fc,
                           .nconstants = c->nfc,
                           .textures = c->tex.t,
                           .ntextures = c->tex.n,
                           .coarse_derivatives = coarse};
    if (interpret(ctx, fp, &env, inv, NPIX, res, perturbed, cmp_mix(c->seed, 400 + (uint64_t)k))) goto done;
    bool fd = agal_program_writes(fp, AGAL_REG_DEPTH) != 0;
    for (int n = 0; n < NPIX; n++) {
        unsigned p = pix[n];
        for (int o = 0; o < HARNESS_MAX_OUTPUTS; o++) memcpy(out->color[o] + 4 * p, res[n].oc[o], 16);
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

/* The fragment program with every tex's LOD bias moved by delta eighths (ted's
 * LOD is explicit and stays). Falls back to the program itself. */
const agal_program *cmp_lod_shifted(agal_context *ctx, const agal_program *p, int delta)
{
    agal_token *toks = agal_alloc(ctx, sizeof *toks * (p->ntokens ? p->ntokens : 1));
    if (!toks) return p;
    for (uint32_t i = 0; i < p->ntokens; i++) {
        toks[i] = p->tokens[i];
        if (toks[i].op == AGAL_OP_TEX) {
            int b = toks[i].s.bias + delta;
            toks[i].s.bias = (int8_t)(b > 127 ? 127 : b < -128 ? -128 : b);
        }
    }
    const agal_program *q = cmp_rebuild(ctx, toks, p->ntokens, p->stage, p->version, p->profile, p->lenient);
    agal_diag_clear(ctx);
    return q ? q : p;
}

/* A temporary no token of p names (written, read or as an index), or -1. */
static int free_temp(const agal_program *p)
{
    unsigned n = agal_reg_count(p->profile, p->stage, AGAL_REG_TEMP);
    uint64_t used[4] = {0};
    for (uint32_t i = 0; i < p->ntokens; i++) {
        const agal_token *t = &p->tokens[i];
        const agal_source *src[2] = {&t->a, &t->b};
        if (t->dst.type == AGAL_REG_TEMP && t->dst.num < 256) used[t->dst.num / 64] |= 1ull << (t->dst.num % 64);
        for (int k = 0; k < 2; k++) {
            unsigned rows = k == 1 ? agal_opinfo_rows(agal_opinfo_get(t->op)) : 0;
            for (unsigned r = 0; r < (rows ? rows : 1); r++)
                if (src[k]->type == AGAL_REG_TEMP && !src[k]->indirect && src[k]->num + r < 256)
                    used[(src[k]->num + r) / 64] |= 1ull << ((src[k]->num + r) % 64);
            if (src[k]->indirect && src[k]->index_type == AGAL_REG_TEMP && src[k]->index_num < 256)
                used[src[k]->index_num / 64] |= 1ull << (src[k]->index_num % 64);
        }
    }
    for (int r = (int)n - 1; r >= 0 && r < 256; r--)
        if (!(used[r / 64] >> (r % 64) & 1)) return r;
    return -1;
}

/* The fragment program with every ddy's result negated: `ddy D, A` becomes `ddy
 * ftF, A` and `neg D, ftF` on D's mask (ftF a temporary the program does not name),
 * so that the reading whose quads have their rows swapped (cmp_ref_fragment mode 2,
 * where ddy is top - bottom) takes ddy the right way up. NULL when no temporary is
 * free or the result does not validate (lenient: the token limit may be passed). */
const agal_program *cmp_ddy_negated(agal_context *ctx, const agal_program *p)
{
    int f = free_temp(p);
    agal_token *toks = f >= 0 ? agal_alloc(ctx, sizeof *toks * (2 * p->ntokens + 1)) : NULL;
    if (!toks) return NULL;
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->ntokens; i++) {
        agal_token t = p->tokens[i];
        if (t.op != AGAL_OP_DDY) {
            toks[n++] = t;
            continue;
        }
        agal_dest d = t.dst;
        t.dst = (agal_dest){AGAL_REG_TEMP, d.mask, (uint16_t)f};
        toks[n++] = t;
        toks[n++] = (agal_token){.op = AGAL_OP_NEG,
                                 .dst = d,
                                 .a = {.type = AGAL_REG_TEMP, .swizzle = AGAL_SWIZZLE_IDENTITY, .num = (uint16_t)f}};
    }
    const agal_program *q = cmp_rebuild(ctx, toks, n, p->stage, p->version, p->profile, true);
    agal_diag_clear(ctx);
    return q;
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
void cmp_cube_ties(agal_context *ctx, const pair_case *c, bool undefined[NPIX])
{
    const agal_program *p = c->fp;
    for (uint32_t k = 0; k < p->ntokens; k++) {
        const agal_token *t = &p->tokens[k];
        if (!(t->op == AGAL_OP_TEX || t->op == AGAL_OP_TED) || t->s.dim != AGAL_DIM_CUBE) continue;
        agal_token *toks = agal_alloc(ctx, sizeof *toks * (k + 6));
        if (!toks) return;
        /* Earlier output writes go: they cannot change the coordinate, and oc0
         * may be written only once. */
        unsigned depth = 0;
        uint32_t n = 0;
        for (uint32_t i = 0; i < k; i++) {
            const agal_opinfo *info = agal_opinfo_get(p->tokens[i].op);
            bool writes_output = info && (info->operands & AGAL_OPND_D) &&
                                 (p->tokens[i].dst.type == AGAL_REG_OUTPUT || p->tokens[i].dst.type == AGAL_REG_DEPTH);
            if (!writes_output) toks[n++] = p->tokens[i];
            depth += info && (info->flags & AGAL_OPF_IF);
            depth -= info && (info->flags & AGAL_OPF_ENDIF);
        }
        toks[n] = (agal_token){.op = AGAL_OP_MOV, .dst = {AGAL_REG_OUTPUT, 0xf, 0}, .a = t->a};
        n++;
        while (depth-- > 0 && n < k + 6) /* depth <= 4 */
            toks[n++] = (agal_token){.op = AGAL_OP_EIF};
        const agal_program *q = cmp_rebuild(ctx, toks, n, p->stage, p->version, p->profile, true);
        if (!q) /* cannot observe the coordinate: treat every pixel as undefined */
            for (int px = 0; px < NPIX; px++) undefined[px] = true;
        agal_diag_clear(ctx);
        frag_ref *coord = q ? calloc(1, sizeof *coord) : NULL;
        if (coord && cmp_ref_fragment(ctx, c, q, 0, 0, coord) == 0)
            for (int px = 0; px < NPIX; px++) {
                float a[3] = {fabsf(coord->color[0][4 * px]), fabsf(coord->color[0][4 * px + 1]),
                              fabsf(coord->color[0][4 * px + 2])};
                float m = fmaxf(a[0], fmaxf(a[1], a[2]));
                int ties = (a[0] >= m * (1 - 1e-4f)) + (a[1] >= m * (1 - 1e-4f)) + (a[2] >= m * (1 - 1e-4f));
                if (ties > 1 || !(m > 0)) undefined[px] = true;
            }
        free(coord);
        agal_diag_clear(ctx);
    }
}
