/* interp.c: the reference interpreter, the oracle every backend is compared with.
 *
 * Run after agal_decode. agal_interp_run executes a program in float32 over
 * invocations: a vertex program one invocation at a time, a fragment program four
 * at a time as a 2x2 quad in lockstep, so derivatives are exact differences.
 *
 * Conventions (docs/format.md section 4 plus docs/decisions.md):
 *
 * Arithmetic is float32 throughout, with the C library's float functions:
 * add/sub/mul/div IEEE; rcp = 1.0f / x; sqt = sqrtf; rsq = 1.0f / sqrtf(x);
 * pow = powf; log = log2f; exp = exp2f; sin = sinf; cos = cosf; abs = fabsf;
 * neg = -x; frc = x - floorf(x). Dot products sum left to right, without fused
 * multiply-add: ((x*x' + y*y') + z*z') + w*w'. nrm divides each of x, y, z by
 * sqrtf(dot3(A, A)); crs is (ay*bz - az*by, az*bx - ax*bz, ax*by - ay*bx).
 * m33: D.c = dot3(A, B[c]), m34: D.c = dot4(A, B[c]) for c < 3; m44 for c < 4;
 * row B[k] is register B + k (indirect: address + k, each row checked alone), read
 * through B's swizzle (identity in valid programs). Only masked components are
 * written; dp3/dp4 write the dot to every masked component.
 *
 * NaN rules. min(a, b) = b < a ? b : a and max(a, b) = a < b ? b : a (GLSL's
 * definitions: with one NaN operand the result is the first operand, so min(NaN, 1)
 * is NaN and min(1, NaN) is 1). sat(x) = min(max(x, 0), 1) by those definitions
 * (sat(NaN) = NaN). sgn(x) = 1 if x > 0, -1 if x < 0, else 0 (sgn(NaN) = 0,
 * sgn(-0) = +0). Comparisons are IEEE: NaN is unequal to everything, so sne and
 * ine are true and sge, slt, seq, ife, ifg, ifl false. ifg is >=.
 *
 * Swizzle and mask: a componentwise op computes the four results from the swizzled
 * sources and stores the masked ones positionally (`mov ft1.zw, ft0.zw` copies
 * ft0.w into z and w). Conditions and kil read component x of the swizzled source.
 *
 * Registers: constants (vc/fc) come from the environment; registers at or past its
 * count, or past the profile's count, read 0. Temporaries start at 0, so in a
 * lenient program an unwritten temporary reads 0. iid reads (id, id, id, id).
 * Indirect vc[vt.c + k]: address = truncf(vt.c) + k, valid when 0 <= address <
 * the profile's vc count, otherwise the read is (0, 0, 0, 0); a non-finite index
 * is out of range.
 *
 * Blocks (ife/ine/ifg/ifl, els, eif) run with a per-lane execution mask, so the
 * lanes of one quad may take different branches.
 *
 * Derivatives are FINE: in a quad (0 top-left, 1 top-right, 2 bottom-left,
 * 3 bottom-right), ddx of lanes 0 and 1 is value(1) - value(0), of lanes 2 and 3
 * value(3) - value(2); ddy of lanes 0 and 2 is value(2) - value(0), of lanes 1 and
 * 3 value(3) - value(1). A GPU using coarse derivatives gives lanes 2 and 3 the
 * top row's ddx (and lanes 1 and 3 the left column's ddy), which agrees on inputs
 * linear in x and y; env->coarse_derivatives selects that instead. The source is read in all four lanes, also lanes a branch has
 * switched off (they hold their last values), as GPUs do. The implicit LOD of tex
 * uses the same fine differences (texture.c).
 *
 * Sampler state: each tex/ted samples with the wrap, filter and mipmap of its slot
 * (agal_slots_resolve on env->slots, or on a fresh Context3D's slots after
 * setProgram of this program: a token's own state, clamp/nearest/mipnone for an
 * ignoresampler token; docs/format.md section 7); dimension, bias and flags are the
 * token's.
 *
 * kil marks the lane killed when A.x (swizzled) < 0. A killed lane keeps running
 * as a helper lane (GL's helper invocations) so its quad's derivatives stay
 * defined; its result is flagged killed and its outputs are to be ignored.
 */
#include "harness_api.h"
#include "internal.h"

#include <math.h>

typedef struct f4 {
    float v[4];
} f4;

enum { STACK_MAX = 16, SAMPLERS_MAX = 16 };

typedef struct lane {
    f4 temp[AGAL_INTERP_MAX_TEMPS];
    f4 out[AGAL_INTERP_MAX_COLORS]; /* op is out[0] */
    f4 vary[AGAL_INTERP_MAX_VARYINGS];
    f4 depth;
    const agal_interp_invocation *in;
    bool killed;
} lane;

typedef struct machine {
    const agal_program *prog;
    const agal_interp_env *env;
    const agal_texture *tex[SAMPLERS_MAX];
    agal_sampler_slots slots; /* env's, or those of a fresh setProgram of prog */
    unsigned ncons;           /* readable constants: min(profile count, env count) */
    unsigned nlanes;
    const float (*err)[2]; /* agal_interp_run_perturbed's bounds per token, or NULL */
    uint64_t seed;
    size_t base; /* the invocation index of lanes[0] */
    lane lanes[4];
    agal_interp_trace_fn trace; /* agal_interp_run_traced's, or NULL */
    void *trace_ud;
} machine;

/* ---- float helpers -------------------------------------------------------- */

static float fmin_glsl(float a, float b) { return b < a ? b : a; }
static float fmax_glsl(float a, float b) { return a < b ? b : a; }

static float sgn(float x) { return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : 0.0f; }

static float dot3(f4 a, f4 b)
{
    float r = a.v[0] * b.v[0];
    r += a.v[1] * b.v[1];
    r += a.v[2] * b.v[2];
    return r;
}

static float dot4(f4 a, f4 b)
{
    float r = dot3(a, b);
    r += a.v[3] * b.v[3];
    return r;
}

static const f4 zero4;

static f4 load4(const float p[4])
{
    f4 r;
    memcpy(r.v, p, sizeof r.v);
    return r;
}

/* ---- operand access ------------------------------------------------------- */

static f4 read_reg(const machine *m, const lane *l, unsigned type, unsigned num)
{
    agal_stage stage = m->prog->stage;
    switch (type) {
    case AGAL_REG_ATTRIBUTE:
        if (stage == AGAL_VERTEX && num < AGAL_INTERP_MAX_INPUTS) return load4(l->in->in[num]);
        break;
    case AGAL_REG_CONSTANT:
        if (num < m->ncons) return load4(m->env->constants[num]);
        break;
    case AGAL_REG_TEMP:
        if (num < AGAL_INTERP_MAX_TEMPS) return l->temp[num];
        break;
    case AGAL_REG_VARYING:
        if (stage == AGAL_FRAGMENT && num < AGAL_INTERP_MAX_VARYINGS) return load4(l->in->in[num]);
        break;
    case AGAL_REG_IID:
        if (stage == AGAL_VERTEX) {
            float id = (float)l->in->instance_id;
            return (f4){{id, id, id, id}};
        }
        break;
    default: break;
    }
    return zero4;
}

/* Register number of an indirect operand's row, or -1 when out of range. */
static long indirect_address(const machine *m, const lane *l, const agal_source *s, unsigned row)
{
    float idx = read_reg(m, l, s->index_type, s->index_num).v[s->index_comp & 3];
    float t = truncf(idx);
    if (!(t >= -1e6f && t <= 1e6f)) return -1;
    long addr = (long)t + (long)s->num + (long)row;
    long count = (long)agal_reg_count(m->prog->profile, m->prog->stage, (agal_regtype)(s->type & 7));
    return addr >= 0 && addr < count ? addr : -1;
}

/* Source s (row `row` of a matrix operand), swizzled. */
static f4 read_source(const machine *m, const lane *l, const agal_source *s, unsigned row)
{
    f4 raw;
    if (s->indirect) {
        long addr = indirect_address(m, l, s, row);
        raw = addr < 0 ? zero4 : read_reg(m, l, s->type, (unsigned)addr);
    } else {
        raw = read_reg(m, l, s->type, (unsigned)s->num + row);
    }
    f4 r;
    for (unsigned c = 0; c < 4; c++) r.v[c] = raw.v[agal_swizzle_comp(s->swizzle, c)];
    return r;
}

static f4 *dest_reg(machine *m, lane *l, const agal_dest *d)
{
    agal_stage stage = m->prog->stage;
    switch (d->type) {
    case AGAL_REG_TEMP: return d->num < AGAL_INTERP_MAX_TEMPS ? &l->temp[d->num] : NULL;
    case AGAL_REG_OUTPUT:
        if (stage == AGAL_VERTEX) return d->num == 0 ? &l->out[0] : NULL;
        return d->num < AGAL_INTERP_MAX_COLORS ? &l->out[d->num] : NULL;
    case AGAL_REG_VARYING: return stage == AGAL_VERTEX && d->num < AGAL_INTERP_MAX_VARYINGS ? &l->vary[d->num] : NULL;
    case AGAL_REG_DEPTH: return stage == AGAL_FRAGMENT && d->num == 0 ? &l->depth : NULL;
    default: return NULL;
    }
}

/* Stores the masked components of r positionally. */
static void write_dest(machine *m, lane *l, const agal_dest *d, f4 r)
{
    f4 *p = dest_reg(m, l, d);
    if (!p) return;
    for (unsigned c = 0; c < 4; c++)
        if (d->mask & (1u << c)) p->v[c] = r.v[c];
}

/* ---- per-lane operations -------------------------------------------------- */

/* A componentwise op on one component: the row's C column (opcode_meaning.def). The
 * hand-written ops (dot, vector, matrix, texture, derivative) never come here. */
#define HAND 0.0f
#define SETCMP (agal_cmp_holds(cmp, a, b) ? 1.0f : 0.0f)
static float componentwise(agal_opcode op, float a, float b)
{
    switch (op) {
#define AGAL_OPCODE_MEANING(ID, c, glsl, spv, cmpv) \
    case AGAL_OP_##ID: { \
        const agal_cmp cmp = cmpv; \
        (void)cmp; \
        return c; \
    }
#include "opcode_meaning.def"
#undef AGAL_OPCODE_MEANING
    default: return 0.0f;
    }
}
#undef HAND
#undef SETCMP

static f4 matrix(const machine *m, const lane *l, const agal_token *t, f4 a, unsigned rows)
{
    f4 r = zero4;
    for (unsigned k = 0; k < rows; k++) {
        f4 row = read_source(m, l, &t->b, k);
        r.v[k] = t->op == AGAL_OP_M33 ? dot3(a, row) : dot4(a, row);
    }
    return r;
}

static f4 vector_op(const machine *m, const lane *l, const agal_token *t, const agal_opinfo *info, f4 a)
{
    f4 r = zero4;
    unsigned rows = agal_opinfo_rows(info);
    if (rows) return matrix(m, l, t, a, rows);
    f4 b = (info->operands & AGAL_OPND_B) ? read_source(m, l, &t->b, 0) : zero4;
    switch (t->op) {
    case AGAL_OP_NRM: {
        float len = sqrtf(dot3(a, a));
        for (int c = 0; c < 3; c++) r.v[c] = a.v[c] / len;
        break;
    }
    case AGAL_OP_CRS:
        r.v[0] = a.v[1] * b.v[2] - a.v[2] * b.v[1];
        r.v[1] = a.v[2] * b.v[0] - a.v[0] * b.v[2];
        r.v[2] = a.v[0] * b.v[1] - a.v[1] * b.v[0];
        break;
    case AGAL_OP_DP3:
    case AGAL_OP_DP4: {
        float d = t->op == AGAL_OP_DP3 ? dot3(a, b) : dot4(a, b);
        r = (f4){{d, d, d, d}};
        break;
    }
    default: break;
    }
    return r;
}

static void exec_lane(machine *m, lane *l, const agal_token *t, const agal_opinfo *info)
{
    f4 a = read_source(m, l, &t->a, 0);
    if (t->op == AGAL_OP_KIL) {
        if (a.v[0] < 0.0f) l->killed = true;
        return;
    }
    f4 r;
    if (!(info->flags & AGAL_OPF_CW)) {
        r = vector_op(m, l, t, info, a);
    } else {
        f4 b = (info->operands & AGAL_OPND_B) ? read_source(m, l, &t->b, 0) : zero4;
        for (int c = 0; c < 4; c++) r.v[c] = componentwise(t->op, a.v[c], b.v[c]);
    }
    write_dest(m, l, &t->dst, r);
}

/* ---- quad operations: derivatives and textures ---------------------------- */

static void exec_deriv(machine *m, const agal_token *t, unsigned exec)
{
    f4 src[4] = {zero4, zero4, zero4, zero4};
    for (unsigned k = 0; k < m->nlanes; k++) src[k] = read_source(m, &m->lanes[k], &t->a, 0);
    bool dx = t->op == AGAL_OP_DDX;
    for (unsigned k = 0; k < m->nlanes; k++) {
        if (!(exec & (1u << k))) continue;
        f4 r = zero4;
        if (m->nlanes == 4) {
            unsigned lo = m->env->coarse_derivatives ? 0 : dx ? (k & 2) : (k & 1), hi = lo + (dx ? 1 : 2);
            for (int c = 0; c < 4; c++) r.v[c] = src[hi].v[c] - src[lo].v[c];
        }
        write_dest(m, &m->lanes[k], &t->dst, r);
    }
}

static void exec_texture(machine *m, const agal_token *t, unsigned exec)
{
    const agal_texture *tex = t->s.num < SAMPLERS_MAX ? m->tex[t->s.num] : NULL;
    if (!tex) return; /* agal_interp_run checked every sampler before running */
    float coords[4][4] = {{0}};
    for (unsigned k = 0; k < m->nlanes; k++) {
        f4 a = read_source(m, &m->lanes[k], &t->a, 0);
        for (int c = 0; c < 4; c++) coords[k][c] = a.v[c];
    }
    agal_sampler st = agal_slots_resolve(&m->slots, &t->s);
    for (unsigned k = 0; k < m->nlanes; k++) {
        if (!(exec & (1u << k))) continue;
        float lambda = coords[k][3]; /* ted */
        if (t->op == AGAL_OP_TEX) {
            bool coarse = m->env->coarse_derivatives;
            lambda = m->nlanes == 4 ? agal_texture_quad_lod(tex, (const float(*)[4])coords, k, coarse) : 0.0f;
            lambda += (float)t->s.bias / 8.0f;
        }
        f4 r;
        agal_texture_sample(tex, &st, coords[k], lambda, r.v);
        write_dest(m, &m->lanes[k], &t->dst, r);
    }
}

/* ---- perturbed results (agal_interp_run_perturbed) ------------------------ */

/* A uniform draw in [-1, 1] from (seed, token, invocation, component): splitmix64's
 * finalizer over their mix, so every run with one seed moves the same values. */
static float draw(uint64_t seed, uint32_t token, size_t invocation, unsigned comp)
{
    uint64_t z =
        agal_mix64((seed ^ ((uint64_t)token << 40) ^ ((uint64_t)invocation << 2) ^ comp) + 0x9e3779b97f4a7c15ull);
    return (float)((double)(z >> 11) * 0x1p-52 - 1.0);
}

/* Moves what token i just wrote in the running lanes by up to its bound. */
static void perturb_result(machine *m, uint32_t i, unsigned exec)
{
    const agal_dest *d = &m->prog->tokens[i].dst;
    float abs_err = m->err[i][0], rel_err = m->err[i][1];
    if (abs_err == 0.0f && rel_err == 0.0f) return;
    for (unsigned k = 0; k < m->nlanes; k++) {
        f4 *p = (exec & (1u << k)) ? dest_reg(m, &m->lanes[k], d) : NULL;
        for (unsigned c = 0; p && c < 4; c++)
            if (d->mask & (1u << c)) p->v[c] += (abs_err + rel_err * fabsf(p->v[c])) * draw(m->seed, i, m->base + k, c);
    }
}

/* What token i left in its destination, for each running lane. */
static void trace_step(machine *m, uint32_t i, unsigned exec)
{
    for (unsigned k = 0; k < m->nlanes; k++)
        if (exec & (1u << k))
            m->trace(m->trace_ud, m->base + k, i, dest_reg(m, &m->lanes[k], &m->prog->tokens[i].dst)->v);
}

/* ---- control flow --------------------------------------------------------- */

typedef struct block {
    unsigned parent; /* lanes running when the block opened */
    unsigned taken;  /* lanes whose condition held */
} block;

static void run_group(machine *m)
{
    block stack[STACK_MAX];
    unsigned depth = 0, all = (1u << m->nlanes) - 1, exec = all;
    for (uint32_t i = 0; i < m->prog->ntokens; i++) {
        const agal_token *t = &m->prog->tokens[i];
        const agal_opinfo *info = agal_opinfo_get((uint32_t)t->op);
        if (!info) continue;
        if (info->flags & AGAL_OPF_IF) {
            unsigned taken = 0;
            for (unsigned k = 0; k < m->nlanes; k++) {
                f4 a = read_source(m, &m->lanes[k], &t->a, 0), b = read_source(m, &m->lanes[k], &t->b, 0);
                if (agal_cmp_holds(agal_op_cmp(t->op), a.v[0], b.v[0])) taken |= 1u << k;
            }
            stack[depth++] = (block){exec, taken};
            exec &= taken;
        } else if (info->flags & AGAL_OPF_ELSE) {
            exec = stack[depth - 1].parent & ~stack[depth - 1].taken;
        } else if (info->flags & AGAL_OPF_ENDIF) {
            exec = stack[--depth].parent;
        } else if (!exec) {
            continue;
        } else if (info->flags & AGAL_OPF_DERIV) {
            exec_deriv(m, t, exec);
        } else if (info->flags & AGAL_OPF_TEXTURE) {
            exec_texture(m, t, exec);
        } else {
            for (unsigned k = 0; k < m->nlanes; k++)
                if (exec & (1u << k)) exec_lane(m, &m->lanes[k], t, info);
        }
        bool wrote = exec && !(info->flags & (AGAL_OPF_IF | AGAL_OPF_ELSE | AGAL_OPF_ENDIF)) && t->op != AGAL_OP_KIL;
        if (wrote && m->err) perturb_result(m, i, exec);
        if (wrote && m->trace) trace_step(m, i, exec);
    }
}

/* ---- checks before running ------------------------------------------------ */

/* Block structure: the validator guarantees it, but the interpreter must not trust
 * a relaxed or future decoder with its stack. */
static agal_status check_blocks(agal_context *ctx, const agal_program *prog)
{
    unsigned depth = 0;
    bool had_else[STACK_MAX + 1] = {false};
    for (uint32_t i = 0; i < prog->ntokens; i++) {
        const agal_opinfo *info = agal_opinfo_get((uint32_t)prog->tokens[i].op);
        if (!info) continue;
        if (info->flags & AGAL_OPF_IF) {
            if (depth == STACK_MAX)
                return agal_error(ctx, 3624, (int)i, agal_token_offset((long)i), info->name,
                                  "blocks nested too deeply");
            had_else[++depth] = false;
        } else if (info->flags & (AGAL_OPF_ELSE | AGAL_OPF_ENDIF)) {
            if (!depth) return agal_error(ctx, 3623, (int)i, agal_token_offset((long)i), info->name, "no open block");
            if (info->flags & AGAL_OPF_ENDIF) {
                depth--;
            } else if (had_else[depth]) {
                return agal_error(ctx, 3752, (int)i, agal_token_offset((long)i), info->name, "second els in one block");
            } else {
                had_else[depth] = true;
            }
        }
    }
    if (depth) return agal_error(ctx, 3739, -1, -1, NULL, "a block is still open at the end of the program");
    return AGAL_OK;
}

/* Finds each sampled texture and checks it fits the token that samples it. */
static agal_status bind_textures(agal_context *ctx, machine *m)
{
    const agal_interp_env *env = m->env;
    for (size_t i = 0; i < env->ntextures; i++) {
        const agal_texture *tex = &env->textures[i];
        agal_status st = agal_texture_check(ctx, tex);
        if (st) return st == AGAL_ERR_INVALID ? AGAL_ERR_ARG : st;
        if (tex->sampler >= SAMPLERS_MAX || m->tex[tex->sampler])
            return agal_error(ctx, 0, -1, -1, NULL, "texture %zu: sampler fs%u is out of range or bound twice", i,
                              tex->sampler) == AGAL_ERR_NOMEM
                       ? AGAL_ERR_NOMEM
                       : AGAL_ERR_ARG;
        m->tex[tex->sampler] = tex;
    }
    for (uint32_t i = 0; i < m->prog->ntokens; i++) {
        const agal_token *t = &m->prog->tokens[i];
        const agal_opinfo *info = agal_opinfo_get((uint32_t)t->op);
        if (!info || !(info->flags & AGAL_OPF_TEXTURE)) continue;
        const agal_texture *tex = t->s.num < SAMPLERS_MAX ? m->tex[t->s.num] : NULL;
        const char *why = !tex                   ? "no texture is bound to it"
                          : tex->dim != t->s.dim ? "the bound texture's dimension differs"
                                                 : NULL;
        if (why)
            return agal_error(ctx, 0, (int)i, agal_token_offset((long)i), info->name, "samples fs%u but %s", t->s.num,
                              why) == AGAL_ERR_NOMEM
                       ? AGAL_ERR_NOMEM
                       : AGAL_ERR_ARG;
    }
    return AGAL_OK;
}

/* The slots every tex resolves through: the caller's (checked), or a fresh
 * Context3D's after setProgram of this program. */
static agal_status bind_slots(agal_context *ctx, machine *m)
{
    const agal_sampler_slots *given = m->env->slots;
    if (!given) {
        agal_slots_init(&m->slots);
        agal_slots_set_program(&m->slots, m->prog);
        return AGAL_OK;
    }
    for (unsigned i = 0; i < AGAL_SAMPLER_SLOTS; i++) {
        agal_sampler_state s = given->slot[i];
        if (!agal_sampler_state_valid(s))
            return agal_error(ctx, 0, -1, -1, NULL,
                              "sampler slot %u holds wrap %u, filter %u, mipmap %u: not a sampler state", i, s.wrap,
                              s.filter, s.mipmap) == AGAL_ERR_NOMEM
                       ? AGAL_ERR_NOMEM
                       : AGAL_ERR_ARG;
    }
    m->slots = *given;
    return AGAL_OK;
}

/* ---- entry points --------------------------------------------------------- */

static void store_result(const machine *m, const lane *l, agal_interp_result *r)
{
    memset(r, 0, sizeof *r);
    if (m->prog->stage == AGAL_VERTEX) {
        memcpy(r->op, l->out[0].v, sizeof r->op);
        for (unsigned i = 0; i < AGAL_INTERP_MAX_VARYINGS; i++) memcpy(r->v[i], l->vary[i].v, sizeof r->v[i]);
    } else {
        for (unsigned i = 0; i < AGAL_INTERP_MAX_COLORS; i++) memcpy(r->oc[i], l->out[i].v, sizeof r->oc[i]);
        r->fd = l->depth.v[0];
        r->killed = l->killed;
    }
}

static agal_status run(agal_context *ctx, const agal_program *prog, const agal_interp_env *env,
                       const agal_interp_invocation *in, size_t n, agal_interp_result *out, const float (*err)[2],
                       uint64_t seed, agal_interp_trace_fn trace, void *ud)
{
    static const agal_interp_env no_env = {0};
    if (!ctx || !prog || (n && (!in || !out))) return AGAL_ERR_ARG;
    if (!env) env = &no_env;
    if ((env->nconstants && !env->constants) || (env->ntextures && !env->textures)) return AGAL_ERR_ARG;
    bool fragment = prog->stage == AGAL_FRAGMENT;
    if (fragment && n % 4)
        return agal_error(ctx, 0, -1, -1, NULL, "%zu fragment invocations are not whole 2x2 quads", n) == AGAL_ERR_NOMEM
                   ? AGAL_ERR_NOMEM
                   : AGAL_ERR_ARG;
    agal_status st = check_blocks(ctx, prog);
    if (st) return st;
    /* A few KB on the stack rather than the arena, so callers running many batches
     * in one context do not grow it. */
    machine mach, *m = &mach;
    memset(m, 0, sizeof *m);
    m->prog = prog;
    m->env = env;
    m->err = err;
    m->seed = seed;
    m->trace = trace;
    m->trace_ud = ud;
    unsigned pc = agal_reg_count(prog->profile, prog->stage, AGAL_REG_CONSTANT);
    m->ncons = env->nconstants < pc ? (unsigned)env->nconstants : pc;
    if ((st = bind_textures(ctx, m)) != AGAL_OK || (st = bind_slots(ctx, m)) != AGAL_OK) return st;
    m->nlanes = fragment ? 4 : 1;
    for (size_t base = 0; base < n; base += m->nlanes) {
        memset(m->lanes, 0, sizeof m->lanes);
        for (unsigned k = 0; k < m->nlanes; k++) m->lanes[k].in = &in[base + k];
        m->base = base;
        run_group(m);
        for (unsigned k = 0; k < m->nlanes; k++) store_result(m, &m->lanes[k], &out[base + k]);
    }
    return AGAL_OK;
}

agal_status agal_interp_run(agal_context *ctx, const agal_program *prog, const agal_interp_env *env,
                            const agal_interp_invocation *in, size_t n, agal_interp_result *out)
{
    return run(ctx, prog, env, in, n, out, NULL, 0, NULL, NULL);
}

agal_status agal_interp_run_traced(agal_context *ctx, const agal_program *prog, const agal_interp_env *env,
                                   const agal_interp_invocation *in, size_t n, agal_interp_result *out,
                                   agal_interp_trace_fn trace, void *ud)
{
    if (!trace) return AGAL_ERR_ARG;
    return run(ctx, prog, env, in, n, out, NULL, 0, trace, ud);
}

agal_status agal_interp_run_perturbed(agal_context *ctx, const agal_program *prog, const agal_interp_env *env,
                                      const agal_interp_invocation *in, size_t n, agal_interp_result *out,
                                      const float (*err)[2], uint64_t seed)
{
    if (prog && prog->ntokens && !err) return AGAL_ERR_ARG;
    return run(ctx, prog, env, in, n, out, err, seed, NULL, NULL);
}
