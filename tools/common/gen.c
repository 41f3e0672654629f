/* gen.c: seeded random valid AGAL programs (see gen.h for what they cover).
 *
 * The program is a tree walked once: top-level statements, with the output writes
 * ("obligations": op, the varyings, each oc piece, fd) placed between them at depth
 * 0 and any left at the end. Each instruction is built by picking an opcode and
 * then operands that keep the rules; when no operand fits (no temporary written
 * yet, two constants), another opcode is tried, and `mov temp, constant` is the
 * fallback that always fits. */
#include "agal/text.h"
#include "gen.h"
#include "tokbuild.h"

#include <math.h>
#include <string.h>

void gen_rng_seed(gen_rng *r, uint64_t seed) { r->state = seed; }

uint32_t gen_rng_next(gen_rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

unsigned gen_rng_below(gen_rng *r, unsigned n) { return (unsigned)(((uint64_t)gen_rng_next(r) * n) >> 32); }

typedef struct obligation {
    uint8_t type, num, mask;
} obligation;

typedef struct gstate {
    gen_rng rng;
    gen_program *p;
    const gen_options *opt;
    agal_profile profile;
    unsigned ntemps, nconst, nattr, nvary, nsamplers, max_depth, depth;
    uint16_t vary_read;     /* fragment: varyings it may read */
    uint8_t vary_comps[16]; /* fragment: the components of each it may read (partial_varyings) */
    uint8_t written[32];    /* temp components written on every path so far */
    double bound[32];       /* safe_domain: magnitude bound of each temporary on every path */
    uint16_t kreg;          /* safe_domain: the guards' constant register */
    bool smp_set[16];
    obligation ob[40];
    unsigned nob, next_ob;
} gstate;

static unsigned below(gstate *g, unsigned n) { return gen_rng_below(&g->rng, n); }
static bool chance(gstate *g, unsigned percent) { return below(g, 100) < percent; }
static bool vertex(const gstate *g) { return g->p->stage == AGAL_VERTEX; }

static agal_token *emit(gstate *g, const agal_token *t)
{
    agal_token *d = &g->p->tokens[g->p->ntokens++];
    *d = *t;
    return d;
}

/* ---- sources -------------------------------------------------------------- */

/* What an operand slot needs. */
typedef struct need {
    unsigned lanes;    /* source lanes read (before swizzle) */
    unsigned rows;     /* matrix operand: rows, identity swizzle */
    bool scalar;       /* scalar swizzle (conditions, kil) */
    bool no_const;     /* the other source is a constant */
    bool no_indirect;  /* conditions */
    bool varying_only; /* tex/ted coordinates inside a block */
} need;

/* A random swizzle whose components all come from `from` (a nonempty mask). */
static uint8_t swizzle_from(gstate *g, unsigned from, bool scalar)
{
    unsigned comps[4], n = 0;
    for (unsigned c = 0; c < 4; c++)
        if (from & (1u << c)) comps[n++] = c;
    if (scalar) return (uint8_t)(comps[below(g, n)] * 0x55u);
    if (from == 15 && chance(g, 40)) return AGAL_SWIZZLE_IDENTITY;
    uint8_t s = 0;
    for (unsigned c = 0; c < 4; c++) s |= (uint8_t)(comps[below(g, n)] << (2 * c));
    return s;
}

static bool pick_temp(gstate *g, const need *n, agal_source *s)
{
    unsigned cand[32], k = 0, rows = n->rows ? n->rows : 1;
    for (unsigned t = 0; t + rows <= g->ntemps && t < 32; t++) {
        bool ok = true;
        for (unsigned r = 0; r < rows && ok; r++)
            ok = n->rows ? (g->written[t + r] & n->lanes) == n->lanes : g->written[t + r] != 0;
        if (ok) cand[k++] = t;
    }
    if (!k) return false;
    *s = (agal_source){.type = AGAL_REG_TEMP, .num = (uint16_t)cand[below(g, k)]};
    s->swizzle = n->rows ? AGAL_SWIZZLE_IDENTITY : swizzle_from(g, g->written[s->num], n->scalar);
    return true;
}

/* A register of a file with `count` registers, leaving room for a matrix's rows. */
static bool pick_num(gstate *g, unsigned count, unsigned rows, uint16_t *num)
{
    rows = rows ? rows : 1;
    if (count < rows) return false;
    unsigned span = count - rows + 1;
    *num = (uint16_t)(chance(g, 70) && span > 8 ? below(g, 8) : below(g, span));
    return true;
}

static bool pick_varying(gstate *g, const need *n, agal_source *s)
{
    unsigned cand[16], k = 0, rows = n->rows ? n->rows : 1;
    for (unsigned v = 0; v + rows <= g->nvary; v++) {
        unsigned want = ((1u << rows) - 1) << v;
        if ((g->vary_read & want) == want) cand[k++] = v;
    }
    if (!k || (rows > 1 && g->opt->partial_varyings)) return false; /* a matrix reads rows whole */
    *s = (agal_source){.type = AGAL_REG_VARYING, .num = (uint16_t)cand[below(g, k)]};
    for (unsigned r = 0; r < rows; r++) g->p->varyings |= (uint16_t)(1u << (s->num + r));
    return true;
}

/* vc[index.c + offset]: the index from va, vc, vt (a written component) or iid. */
static bool pick_indirect(gstate *g, agal_source *s)
{
    *s = (agal_source){.type = AGAL_REG_CONSTANT, .indirect = true, .num = (uint16_t)below(g, 256)};
    if (chance(g, 50)) s->num = (uint16_t)below(g, 16);
    switch (below(g, g->p->version >= 3 ? 4 : 3)) {
    case 0:
        s->index_type = AGAL_REG_ATTRIBUTE;
        s->index_num = (uint16_t)below(g, g->nattr);
        s->index_comp = (uint8_t)below(g, 4);
        g->p->attributes |= (uint16_t)(1u << s->index_num);
        return true;
    case 1:
        s->index_type = AGAL_REG_CONSTANT;
        s->index_num = (uint16_t)below(g, g->nconst);
        s->index_comp = (uint8_t)below(g, 4);
        return true;
    case 2: {
        need n = {.scalar = true};
        agal_source t;
        if (!pick_temp(g, &n, &t)) return false;
        s->index_type = AGAL_REG_TEMP;
        s->index_num = t.num;
        s->index_comp = (uint8_t)(t.swizzle & 3);
        return true;
    }
    default:
        s->index_type = AGAL_REG_IID;
        s->index_comp = (uint8_t)below(g, 4);
        g->p->uses_iid = true;
        return true;
    }
}

/* Source kinds, tried from a random start so each gets its share. */
enum { K_TEMP, K_CONST, K_ATTR, K_VARY, K_IID, K_INDIRECT, K_KINDS };

static bool pick_kind(gstate *g, unsigned kind, const need *n, agal_source *s)
{
    bool v = vertex(g);
    switch (kind) {
    case K_TEMP: return pick_temp(g, n, s);
    case K_CONST:
        if (n->no_const) return false;
        *s = (agal_source){.type = AGAL_REG_CONSTANT};
        return pick_num(g, g->nconst, n->rows, &s->num);
    case K_ATTR:
        if (!v) return false;
        *s = (agal_source){.type = AGAL_REG_ATTRIBUTE};
        if (!pick_num(g, g->nattr, n->rows, &s->num)) return false;
        for (unsigned r = 0; r < (n->rows ? n->rows : 1); r++) g->p->attributes |= (uint16_t)(1u << (s->num + r));
        return true;
    case K_VARY: return !v && pick_varying(g, n, s);
    case K_IID:
        if (!v || g->p->version < 3 || n->rows) return false;
        *s = (agal_source){.type = AGAL_REG_IID};
        g->p->uses_iid = true;
        return true;
    default:
        if (!v || n->no_const || n->no_indirect || g->opt->no_indirect) return false;
        if (!pick_indirect(g, s)) return false;
        g->p->uses_indirect = true;
        return true;
    }
}

/* partial_varyings: a varying the fragment program has not read yet, so that it
 * reads them all (9 or 10, more than 8 vectors unpacked). */
static bool pick_unread_varying(gstate *g, const need *n, agal_source *s)
{
    unsigned cand[16], k = 0;
    uint16_t unread = (uint16_t)(g->vary_read & ~g->p->varyings);
    if (!g->opt->partial_varyings || vertex(g) || n->rows > 1 || !unread || !chance(g, 60)) return false;
    for (unsigned v = 0; v < g->nvary; v++)
        if (unread >> v & 1) cand[k++] = v;
    *s = (agal_source){.type = AGAL_REG_VARYING, .num = (uint16_t)cand[below(g, k)]};
    g->p->varyings |= (uint16_t)(1u << s->num);
    return true;
}

static bool pick_source(gstate *g, const need *n, agal_source *s)
{
    if (pick_unread_varying(g, n, s)) {
    } else if (n->varying_only) {
        if (!pick_varying(g, n, s)) return false;
    } else {
        /* Temporaries half the time, so values flow; the other kinds share the rest. */
        unsigned start = chance(g, 50) ? K_TEMP : below(g, K_KINDS), k;
        for (k = 0; k < K_KINDS; k++)
            if (pick_kind(g, (start + k) % K_KINDS, n, s)) break;
        if (k == K_KINDS) return false;
    }
    unsigned from = s->type == AGAL_REG_VARYING && g->opt->partial_varyings ? g->vary_comps[s->num & 15] : 15;
    if (s->type != AGAL_REG_TEMP) s->swizzle = n->rows ? AGAL_SWIZZLE_IDENTITY : swizzle_from(g, from, n->scalar);
    return true;
}

static bool same_source(const agal_source *a, const agal_source *b)
{
    return a->type == b->type && a->num == b->num && a->swizzle == b->swizzle && a->indirect == b->indirect &&
           (!a->indirect ||
            (a->index_type == b->index_type && a->index_num == b->index_num && a->index_comp == b->index_comp));
}

/* ---- samplers ------------------------------------------------------------- */

static void new_sampler(gstate *g, unsigned num, bool ted)
{
    bool plain = g->opt->plain_samplers;
    agal_sampler s = {.num = (uint16_t)num};
    s.dim = chance(g, 70) ? AGAL_DIM_2D : AGAL_DIM_CUBE;
    s.format = plain ? AGAL_FMT_RGBA : (uint8_t)below(g, 4);
    s.special = plain || chance(g, 60) ? 0 : (uint8_t)below(g, 8);
    s.wrap = s.dim == AGAL_DIM_CUBE ? AGAL_WRAP_CLAMP : (uint8_t)below(g, 4);
    s.mipmap = ted ? (uint8_t)(1 + below(g, 2)) : (uint8_t)below(g, 3);
    s.filter = (uint8_t)below(g, 6);
    g->smp_set[num] = true;
    g->p->sampler[num] = s;
    g->p->samplers |= (uint16_t)(1u << num);
}

/* A sampler for tex/ted: every number keeps its first settings; ted needs mipmaps. */
static bool pick_sampler(gstate *g, bool ted, agal_sampler *out)
{
    for (int tries = 0; tries < 8; tries++) {
        unsigned num = chance(g, 70) ? below(g, 4) : below(g, g->nsamplers);
        if (!g->smp_set[num]) new_sampler(g, num, ted);
        if (ted && g->p->sampler[num].mipmap == AGAL_MIP_NONE) continue;
        *out = g->p->sampler[num];
        if (!ted && chance(g, 40)) out->bias = (int8_t)(below(g, 256) - 128);
        return true;
    }
    return false;
}

/* ---- instructions --------------------------------------------------------- */

static bool op_allowed(const gstate *g, unsigned op)
{
    const agal_opinfo *info = agal_opinfo_get(op);
    if (!info || info->min_version > g->p->version || (g->opt->exclude_ops & GEN_OP(op))) return false;
    if ((info->flags & AGAL_OPF_FRAGMENT) && vertex(g)) return false;
    if (info->flags & (AGAL_OPF_IF | AGAL_OPF_ELSE | AGAL_OPF_ENDIF)) return false;
    if (g->depth && (info->flags & AGAL_OPF_DERIV)) return false;
    if (g->depth && (info->flags & AGAL_OPF_TEXTURE) && !g->vary_read) return false;
    return true;
}

/* Source lanes an operand slot reads (the validator's rule: scalar 1, texture
 * coordinates xy/xyz (+w for ted), width 3/4, else the destination mask). */
static unsigned lanes_of(const agal_opinfo *info, unsigned mask, const agal_sampler *s, int which)
{
    if (which == 1 && agal_opinfo_rows(info)) return info->width == 3 ? 7 : 15;
    if (info->flags & AGAL_OPF_SCALAR) return 1;
    if (info->flags & AGAL_OPF_TEXTURE)
        return (s->dim == AGAL_DIM_CUBE ? 7u : 3u) | (info->code == AGAL_OP_TED ? 8u : 0u);
    if (info->width) return info->width == 3 ? 7 : 15;
    return mask;
}

static bool build_sources(gstate *g, const agal_opinfo *info, agal_token *t)
{
    unsigned f = info->flags;
    if ((info->operands & AGAL_OPND_S) && !pick_sampler(g, info->code == AGAL_OP_TED, &t->s)) return false;
    need na = {.lanes = lanes_of(info, t->dst.mask, &t->s, 0),
               .scalar = (f & AGAL_OPF_SCALAR) != 0,
               .no_indirect = (f & AGAL_OPF_IF) != 0,
               .varying_only = (f & AGAL_OPF_TEXTURE) && g->depth > 0};
    if ((info->operands & AGAL_OPND_A) && !pick_source(g, &na, &t->a)) return false;
    if (!(info->operands & AGAL_OPND_B)) return true;
    need nb = {.lanes = lanes_of(info, t->dst.mask, &t->s, 1),
               .rows = agal_opinfo_rows(info),
               .scalar = na.scalar,
               .no_indirect = na.no_indirect,
               .no_const = t->a.type == AGAL_REG_CONSTANT};
    for (int tries = 0; tries < 4; tries++) {
        if (!pick_source(g, &nb, &t->b)) return false;
        if (!(f & AGAL_OPF_IF) || !same_source(&t->a, &t->b)) return true;
    }
    return false;
}

/* ---- safe domain: magnitude bounds and guards ------------------------------ */

const float gen_safe_values[4] = {0.5f, 8.0f, -8.0f, 0.25f};
enum { K_OFFSET, K_HIGH, K_LOW, K_SCALE };
/* Bound of a source that is not a temporary: the inputs, or the guard constant. */
#define SAFE_IN 8.0
#define SAFE_CLAMP 8.0

unsigned gen_safe_register(agal_profile profile, agal_stage stage)
{
    return agal_reg_count(profile, stage, AGAL_REG_CONSTANT) - 1;
}

static double src_bound(const gstate *g, const agal_source *s, unsigned rows)
{
    if (s->type != AGAL_REG_TEMP || s->indirect) return SAFE_IN;
    double b = 0;
    for (unsigned r = 0; r < (rows ? rows : 1) && s->num + r < 32; r++) b = fmax(b, g->bound[s->num + r]);
    return b;
}

/* Bound of an operation's result from its sources' bounds, given the guards (the
 * divisor of rcp/div >= 0.5, log/sqt/rsq/pow arguments >= 0.5, pow exponent in
 * [-2, 2]); only meaningful in safe_domain programs. */
static double result_bound(unsigned op, double a, double b)
{
    double c = gen_safe_values[K_OFFSET];
    switch (op) {
    case AGAL_OP_MOV:
    case AGAL_OP_NEG:
    case AGAL_OP_ABS: return a;
    case AGAL_OP_MIN:
    case AGAL_OP_MAX: return fmax(a, b);
    case AGAL_OP_ADD:
    case AGAL_OP_SUB: return a + b;
    case AGAL_OP_MUL: return a * b;
    case AGAL_OP_DIV: return a / c;
    case AGAL_OP_RCP: return 1 / c;
    case AGAL_OP_SQT: return sqrt(a);
    case AGAL_OP_RSQ: return 1 / sqrt(c);
    case AGAL_OP_LOG: return fmax(-log2(c), log2(fmax(a, 1)));
    case AGAL_OP_EXP: return exp2(a);
    case AGAL_OP_POW: return fmax(a * a, 1 / (c * c));
    case AGAL_OP_CRS: return 2 * a * b;
    case AGAL_OP_DP3:
    case AGAL_OP_M33: return 3 * a * b;
    case AGAL_OP_DP4:
    case AGAL_OP_M44:
    case AGAL_OP_M34: return 4 * a * b;
    case AGAL_OP_DDX:
    case AGAL_OP_DDY: return 2 * a;
    default: return 1; /* frc sat sgn sin cos nrm tex ted and the comparisons */
    }
}

static void set_bound(gstate *g, unsigned t, unsigned mask, double b)
{
    if (t < 32) g->bound[t] = mask == 15 ? b : fmax(g->bound[t], b);
}

static void record(gstate *g, const agal_token *t)
{
    const agal_opinfo *info = agal_opinfo_get(t->op);
    if ((info->operands & AGAL_OPND_D) && t->dst.type == AGAL_REG_TEMP) {
        g->written[t->dst.num] |= t->dst.mask;
        double a = (info->operands & AGAL_OPND_A) ? src_bound(g, &t->a, 0) : 0;
        double b = (info->operands & AGAL_OPND_B) ? src_bound(g, &t->b, agal_opinfo_rows(info)) : 0;
        set_bound(g, t->dst.num, t->dst.mask, result_bound(t->op, a, b));
    }
    if (t->op == AGAL_OP_KIL) g->p->uses_kil = true;
}

/* What one source slot's guard does, in this order: clamp to [-8, 8] (temporaries
 * only: nothing else can exceed 8), abs + 0.5, times 0.25. */
typedef struct slot_guard {
    bool clamp, domain, scale;
} slot_guard;

static bool any_guard(slot_guard s) { return s.clamp || s.domain || s.scale; }

/* Tokens the guard takes: times 0.25 of a constant needs a mov first (no two constants). */
static unsigned guard_cost(const agal_source *s, slot_guard gd)
{
    bool raw_const = s->type == AGAL_REG_CONSTANT && !gd.clamp && !gd.domain;
    return (gd.clamp ? 2u : 0u) + (gd.domain ? 2u : 0u) + (gd.scale ? (raw_const ? 2u : 1u) : 0u);
}

static double guarded_bound(double b, slot_guard gd)
{
    if (gd.clamp) b = fmin(b, SAFE_CLAMP);
    if (gd.domain) b += gen_safe_values[K_OFFSET];
    if (gd.scale) b *= gen_safe_values[K_SCALE];
    return b;
}

static void emit_guard(gstate *g, agal_opcode op, uint16_t ts, const agal_source *a, int kcomp, double bound)
{
    agal_token t = {.op = op, .dst = {.type = AGAL_REG_TEMP, .mask = 15, .num = ts}, .a = *a};
    if (kcomp >= 0) t.b = (agal_source){.type = AGAL_REG_CONSTANT, .num = g->kreg, .swizzle = (uint8_t)(kcomp * 0x55)};
    emit(g, &t);
    g->written[ts] = 15;
    g->bound[ts] = bound;
}

/* Emits the guard chain for source s into scratch temporary ts and points s at it. */
static void emit_slot(gstate *g, agal_source *s, slot_guard gd, uint16_t ts)
{
    double b = src_bound(g, s, 0);
    agal_source cur = *s, scratch = {.type = AGAL_REG_TEMP, .num = ts, .swizzle = AGAL_SWIZZLE_IDENTITY};
    if (gd.clamp) {
        b = fmin(b, SAFE_CLAMP);
        emit_guard(g, AGAL_OP_MIN, ts, &cur, K_HIGH, b);
        emit_guard(g, AGAL_OP_MAX, ts, &scratch, K_LOW, b);
        cur = scratch;
    }
    if (gd.domain) {
        emit_guard(g, AGAL_OP_ABS, ts, &cur, -1, b);
        b += gen_safe_values[K_OFFSET];
        emit_guard(g, AGAL_OP_ADD, ts, &scratch, K_OFFSET, b);
        cur = scratch;
    }
    if (gd.scale) {
        if (cur.type == AGAL_REG_CONSTANT) {
            emit_guard(g, AGAL_OP_MOV, ts, &cur, -1, b);
            cur = scratch;
        }
        b *= gen_safe_values[K_SCALE];
        emit_guard(g, AGAL_OP_MUL, ts, &cur, K_SCALE, b);
    }
    *s = scratch;
}

/* Temporaries the instruction reads (a guard's scratch register must not be one). */
static uint32_t temps_read(const agal_opinfo *info, const agal_token *t)
{
    uint32_t m = 0;
    const agal_source *s[2] = {&t->a, &t->b};
    bool used[2] = {(info->operands & AGAL_OPND_A) != 0, (info->operands & AGAL_OPND_B) != 0};
    for (int i = 0; i < 2; i++) {
        if (!used[i]) continue;
        unsigned rows = i == 1 ? agal_opinfo_rows(info) : 0;
        if (s[i]->type == AGAL_REG_TEMP && !s[i]->indirect)
            for (unsigned r = 0; r < (rows ? rows : 1); r++) m |= 1u << ((s[i]->num + r) & 31);
        if (s[i]->indirect && s[i]->index_type == AGAL_REG_TEMP) m |= 1u << (s[i]->index_num & 31);
    }
    return m;
}

static bool pick_scratch(gstate *g, uint32_t avoid, uint16_t *ts)
{
    unsigned cand[32], k = 0;
    for (unsigned t = 0; t < g->ntemps && t < 32; t++)
        if (!(avoid & (1u << t))) cand[k++] = t;
    if (!k) return false;
    *ts = (uint16_t)cand[below(g, k)];
    return true;
}

/* safe_domain: the guards t needs (see gen.h), emitted before it with its sources
 * pointed at their scratch temporaries. False, with nothing emitted, when they do
 * not fit in room - 1 tokens or a matrix operand would need one. */
static bool guard(gstate *g, agal_token *t, unsigned room)
{
    const agal_opinfo *info = agal_opinfo_get(t->op);
    if (!(info->operands & AGAL_OPND_D)) return room >= 1; /* kil, conditions: no result */
    bool has_a = (info->operands & AGAL_OPND_A) != 0, has_b = (info->operands & AGAL_OPND_B) != 0;
    unsigned rows = agal_opinfo_rows(info);
    double ba = has_a ? src_bound(g, &t->a, 0) : 0, bb = has_b ? src_bound(g, &t->b, rows) : 0;
    slot_guard ga = {0}, gb = {0};
    switch (t->op) {
    case AGAL_OP_RCP:
    case AGAL_OP_SQT:
    case AGAL_OP_RSQ:
    case AGAL_OP_LOG:
    case AGAL_OP_NRM: ga.domain = true; break;
    case AGAL_OP_DIV: gb.domain = true; break;
    case AGAL_OP_POW:
        ga.domain = true;
        ga.clamp = ba > SAFE_CLAMP;
        gb.clamp = bb > SAFE_CLAMP;
        gb.scale = bb > 2;
        break;
    case AGAL_OP_EXP:
    case AGAL_OP_SIN:
    case AGAL_OP_COS:
    case AGAL_OP_TEX:
    case AGAL_OP_TED: ga.clamp = ba > SAFE_CLAMP; break;
    default: break;
    }
    /* Magnitude: clamp the large temporaries when the result could pass the limit. */
    if (result_bound(t->op, guarded_bound(ba, ga), guarded_bound(bb, gb)) > GEN_SAFE_LIMIT) {
        if (has_a && ba > SAFE_CLAMP) ga.clamp = true;
        if (has_b && bb > SAFE_CLAMP) {
            if (rows) return false;
            gb.clamp = true;
        }
        if (result_bound(t->op, guarded_bound(ba, ga), guarded_bound(bb, gb)) > GEN_SAFE_LIMIT) return false;
    }
    unsigned cost = (any_guard(ga) ? guard_cost(&t->a, ga) : 0) + (any_guard(gb) ? guard_cost(&t->b, gb) : 0);
    if (cost + 1 > room) return false;
    uint32_t avoid = temps_read(info, t);
    uint16_t ta = 0, tb = 0;
    if (any_guard(ga) && !pick_scratch(g, avoid, &ta)) return false;
    if (any_guard(gb) && !pick_scratch(g, avoid | (any_guard(ga) ? 1u << ta : 0u), &tb)) return false;
    if (any_guard(ga)) emit_slot(g, &t->a, ga, ta);
    if (any_guard(gb)) emit_slot(g, &t->b, gb, tb);
    return true;
}

/* A nonzero write mask (without w for nrm, crs, m33, m34). */
static uint8_t random_mask(gstate *g, bool no_w) { return (uint8_t)(1 + below(g, no_w ? 7 : 15)); }

/* One instruction with a destination (dest given, or NULL for a random temp). */
static bool try_instr(gstate *g, unsigned op, const agal_dest *dest, unsigned room, agal_token *t)
{
    const agal_opinfo *info = agal_opinfo_get(op);
    memset(t, 0, sizeof *t);
    t->op = (agal_opcode)op;
    if (info->operands & AGAL_OPND_D) {
        if (dest) {
            if ((info->flags & AGAL_OPF_NO_W) && (dest->mask & 8)) return false;
            t->dst = *dest;
        } else {
            t->dst.type = AGAL_REG_TEMP;
            pick_num(g, g->ntemps, 0, &t->dst.num);
            t->dst.mask = random_mask(g, (info->flags & AGAL_OPF_NO_W) != 0);
        }
    } else if (dest) {
        return false;
    }
    if (!build_sources(g, info, t)) return false;
    return !g->opt->safe_domain || guard(g, t, room);
}

/* `op dest, constant` with a one-source opcode, which always fits: mov unless the
 * options exclude it, then another allowed one-source opcode (mov again if the
 * options exclude them all). */
static void fallback(gstate *g, const agal_dest *dest, agal_token *t)
{
    unsigned ops[AGAL_OP_LIMIT], n = 0;
    uint8_t mask = dest ? dest->mask : 15;
    for (unsigned op = 0; op < AGAL_OP_LIMIT; op++) {
        const agal_opinfo *info = agal_opinfo_get(op);
        if (!op_allowed(g, op) || info->operands != AGAL_OPND_DA) continue;
        if ((info->flags & AGAL_OPF_NO_W) && dest && (mask & 8)) continue;
        if (g->opt->safe_domain &&
            (op == AGAL_OP_RCP || op == AGAL_OP_SQT || op == AGAL_OP_RSQ || op == AGAL_OP_LOG || op == AGAL_OP_NRM))
            continue; /* unguarded here: only ops defined for every constant */
        ops[n++] = op;
    }
    unsigned op = n && (g->opt->exclude_ops & GEN_OP(AGAL_OP_MOV)) ? ops[below(g, n)] : AGAL_OP_MOV;
    memset(t, 0, sizeof *t);
    t->op = (agal_opcode)op;
    if ((agal_opinfo_get(op)->flags & AGAL_OPF_NO_W) && !dest) mask = 7;
    t->dst = dest ? *dest : (agal_dest){.type = AGAL_REG_TEMP, .num = (uint16_t)below(g, 4), .mask = mask};
    t->a = (agal_source){.type = AGAL_REG_CONSTANT, .num = (uint16_t)below(g, 8), .swizzle = AGAL_SWIZZLE_IDENTITY};
}

/* One instruction (with its safe_domain guards, within room tokens, room >= 1);
 * returns the tokens emitted. */
static unsigned gen_instr(gstate *g, const agal_dest *dest, unsigned room)
{
    agal_token t;
    unsigned ops[AGAL_OP_LIMIT], n = 0, start = g->p->ntokens;
    for (unsigned op = 0; op < AGAL_OP_LIMIT; op++)
        if (op_allowed(g, op)) ops[n++] = op;
    bool ok = false;
    for (int tries = 0; tries < 24 && n && !ok; tries++) ok = try_instr(g, ops[below(g, n)], dest, room, &t);
    if (!ok) fallback(g, dest, &t);
    record(g, emit(g, &t));
    return g->p->ntokens - start;
}

/* ---- blocks and bodies ---------------------------------------------------- */

static unsigned gen_stmt(gstate *g, unsigned budget);

static void gen_body(gstate *g, unsigned budget)
{
    unsigned used = 0;
    while (used < budget) used += gen_stmt(g, budget - used);
}

static void emit_simple(gstate *g, agal_opcode op)
{
    agal_token t = {.op = op};
    emit(g, &t);
}

static void gen_condition(gstate *g)
{
    static const agal_opcode conds[] = {AGAL_OP_IFE, AGAL_OP_INE, AGAL_OP_IFG, AGAL_OP_IFL};
    unsigned n = 0;
    agal_opcode ok[4];
    for (unsigned i = 0; i < 4; i++)
        if (!(g->opt->exclude_ops & GEN_OP(conds[i]))) ok[n++] = conds[i];
    agal_token t;
    for (int tries = 0; tries < 16; tries++)
        if (try_instr(g, ok[below(g, n)], NULL, 1, &t)) {
            emit(g, &t);
            return;
        }
    /* Nothing fits (a fragment program with no varyings and no temporary written
     * yet, where two constants would break 3625): write a temporary first and
     * compare a constant with it. */
    memset(&t, 0, sizeof t);
    t.op = ok[0];
    t.a = (agal_source){.type = AGAL_REG_CONSTANT};
    agal_token w;
    fallback(g, NULL, &w);
    record(g, emit(g, &w));
    t.b = (agal_source){.type = AGAL_REG_TEMP, .num = w.dst.num};
    emit(g, &t);
}

static bool blocks_allowed(const gstate *g)
{
    if (g->p->version < 2 || g->depth >= g->max_depth) return false;
    return (g->opt->exclude_ops & GEN_OPS_BLOCKS) != GEN_OPS_BLOCKS;
}

/* if (cond) { then } [else { else }] with at most `budget` tokens (>= 3, or >= 4 when
 * the condition may need a helper write). A component written inside counts after
 * the block only when both branches write it. */
static unsigned gen_block(gstate *g, unsigned budget)
{
    unsigned start = g->p->ntokens;
    gen_condition(g);
    unsigned used = g->p->ntokens - start;
    unsigned inner = budget - used - 1; /* minus eif */
    uint8_t before[32], after_then[32];
    double bound_before[32], bound_then[32];
    memcpy(before, g->written, sizeof before);
    memcpy(bound_before, g->bound, sizeof bound_before);
    g->depth++;
    g->p->uses_blocks = true;
    bool has_else = inner >= 3 && chance(g, 50);
    unsigned tb = has_else ? 1 + below(g, inner - 2) : inner;
    unsigned eb = has_else ? inner - 1 - tb : 0;
    gen_body(g, tb);
    if (has_else) {
        memcpy(after_then, g->written, sizeof after_then);
        memcpy(bound_then, g->bound, sizeof bound_then);
        memcpy(g->written, before, sizeof before);
        memcpy(g->bound, bound_before, sizeof bound_before);
        emit_simple(g, AGAL_OP_ELS);
        gen_body(g, eb);
        for (unsigned i = 0; i < 32; i++) g->written[i] &= after_then[i];
        for (unsigned i = 0; i < 32; i++) g->bound[i] = fmax(g->bound[i], bound_then[i]);
    } else {
        memcpy(g->written, before, sizeof before);
        for (unsigned i = 0; i < 32; i++) g->bound[i] = fmax(g->bound[i], bound_before[i]);
    }
    g->depth--;
    emit_simple(g, AGAL_OP_EIF);
    return g->p->ntokens - start;
}

static unsigned gen_stmt(gstate *g, unsigned budget)
{
    if (budget >= 4 && blocks_allowed(g) && chance(g, 18)) {
        unsigned b = 4 + below(g, (budget - 4 < 12 ? budget - 4 : 12) + 1);
        return gen_block(g, b);
    }
    return gen_instr(g, NULL, budget);
}

/* ---- outputs -------------------------------------------------------------- */

static void add_obligation(gstate *g, uint8_t type, uint8_t num, uint8_t mask)
{
    g->ob[g->nob++] = (obligation){type, num, mask};
}

/* All four components, in one write or two disjoint ones. */
static void oblige_full(gstate *g, uint8_t type, uint8_t num)
{
    if (chance(g, 60)) {
        add_obligation(g, type, num, 15);
        return;
    }
    uint8_t m = (uint8_t)(1 + below(g, 14));
    add_obligation(g, type, num, m);
    add_obligation(g, type, num, (uint8_t)(15 ^ m));
}

static void plan_outputs(gstate *g)
{
    const gen_options *o = g->opt;
    unsigned vmask = (1u << g->nvary) - 1;
    if (vertex(g)) {
        oblige_full(g, AGAL_REG_OUTPUT, 0);
        uint16_t vs = o->no_varyings ? 0
                      : o->varyings  ? (uint16_t)(o->varyings & vmask)
                                     : (uint16_t)(gen_rng_next(&g->rng) & vmask & (chance(g, 20) ? 0xffffu : 0x0fu));
        for (unsigned i = 0; i < g->nvary; i++)
            if (vs & (1u << i)) oblige_full(g, AGAL_REG_VARYING, (uint8_t)i);
        g->p->varyings = vs;
    } else {
        g->vary_read = o->no_varyings ? 0 : o->varyings ? (uint16_t)(o->varyings & vmask) : (uint16_t)vmask;
        for (unsigned i = 0, threes = 0; i < 16 && o->partial_varyings; i++) {
            unsigned k = 1 + below(g, threes < 4 ? 3 : 2); /* 1 to 3 components, x first */
            threes += k == 3;
            g->vary_comps[i] = (uint8_t)((1u << k) - 1u);
        }
        unsigned noc = g->p->version >= 2 && chance(g, 30) ? 1 + below(g, 4) : 1;
        g->p->noc = noc;
        for (unsigned i = 0; i < noc; i++) oblige_full(g, AGAL_REG_OUTPUT, (uint8_t)i);
        if (g->p->version >= 2 && !o->no_fd && chance(g, 25)) {
            add_obligation(g, AGAL_REG_DEPTH, 0, 1);
            g->p->writes_fd = true;
        }
    }
    /* Shuffle, so outputs are written in any order. */
    for (unsigned i = g->nob; i > 1; i--) {
        unsigned j = below(g, i);
        obligation tmp = g->ob[i - 1];
        g->ob[i - 1] = g->ob[j];
        g->ob[j] = tmp;
    }
}

/* The most guard tokens one instruction takes (pow: clamp + abs + add, clamp + mul). */
enum { GUARD_MAX = 7 };

static void emit_obligation(gstate *g)
{
    const obligation *o = &g->ob[g->next_ob++];
    agal_dest d = {.type = o->type, .num = o->num, .mask = o->mask};
    gen_instr(g, &d, GUARD_MAX + 1); /* gen_program_make left room for the guards */
}

/* ---- the program ---------------------------------------------------------- */

static void setup(gstate *g, gen_program *p, uint64_t seed, agal_stage stage, uint32_t version, const gen_options *opt)
{
    memset(g, 0, sizeof *g);
    p->ntokens = 0;
    memset(p->sampler, 0, sizeof p->sampler);
    p->attributes = p->varyings = p->samplers = 0;
    p->noc = 0;
    p->writes_fd = p->uses_kil = p->uses_iid = p->uses_indirect = p->uses_blocks = false;
    p->stage = stage;
    p->version = version;
    g->p = p;
    g->opt = opt;
    gen_rng_seed(&g->rng, seed * 0x2545F4914F6CDD1Dull + (uint64_t)stage * 131 + version);
    g->profile = (agal_profile)version;
    g->ntemps = agal_reg_count(g->profile, stage, AGAL_REG_TEMP);
    g->nconst = agal_reg_count(g->profile, stage, AGAL_REG_CONSTANT);
    g->nattr = agal_reg_count(g->profile, stage, AGAL_REG_ATTRIBUTE);
    g->nvary = agal_reg_count(g->profile, stage, AGAL_REG_VARYING);
    g->nsamplers = agal_reg_count(g->profile, stage, AGAL_REG_SAMPLER);
    g->max_depth = opt->max_depth && opt->max_depth < 4 ? opt->max_depth : 4;
    g->kreg = (uint16_t)gen_safe_register(g->profile, stage);
}

bool gen_program_make(gen_program *p, uint64_t seed, agal_stage stage, uint32_t version, const gen_options *opt)
{
    static const gen_options defaults = {0};
    if (!p || version < 1 || version > 3 || stage > AGAL_FRAGMENT) return false;
    if (!opt) opt = &defaults;
    gstate g;
    setup(&g, p, seed, stage, version, opt);
    plan_outputs(&g);
    unsigned limit = agal_token_limit(g.profile);
    unsigned maxt = opt->max_tokens ? opt->max_tokens : 48, mint = opt->min_tokens ? opt->min_tokens : 1;
    if (maxt > limit) maxt = limit;
    /* safe_domain: each output write may bring its guards. */
    if (opt->safe_domain && maxt + GUARD_MAX * g.nob > limit)
        maxt = limit > GUARD_MAX * g.nob ? limit - GUARD_MAX * g.nob : 0;
    if (mint > maxt) mint = maxt;
    if (g.nob > maxt) return false;
    unsigned target = mint + below(&g, maxt - mint + 1);
    if (target < g.nob) target = g.nob;
    /* Body statements; a block's condition may need one helper write, so leave room. */
    unsigned body = target - g.nob, used = 0;
    while (used < body) {
        if (g.next_ob < g.nob && chance(&g, 20)) emit_obligation(&g);
        unsigned left = body - used;
        used += gen_stmt(&g, left);
    }
    while (g.next_ob < g.nob) emit_obligation(&g);
    return true;
}

bool gen_pair(gen_program *vp, gen_program *fp, uint64_t seed, uint32_t version, const gen_options *opt)
{
    static const gen_options defaults = {0};
    gen_options o = opt ? *opt : defaults;
    o.varyings = o.partial_varyings ? (seed & 1 ? 0x3ff : 0x1ff) : 0; /* 9 or 10 */
    o.no_indirect |= o.partial_varyings; /* relative reads need the whole file: no pair would fit WebGL 1 */
    o.no_varyings = false;
    if (!gen_program_make(vp, seed, AGAL_VERTEX, version, &o)) return false;
    o.varyings = vp->varyings;
    o.no_varyings = vp->varyings == 0;
    return gen_program_make(fp, seed ^ 0x5DEECE66Dull, AGAL_FRAGMENT, version, &o);
}

size_t gen_program_encode(const gen_program *p, uint8_t *buf, size_t cap)
{
    size_t size = AGAL_HEADER_SIZE + (size_t)p->ntokens * AGAL_TOKEN_SIZE;
    if (cap < size) return 0;
    put_header(buf, p->stage, p->version);
    for (uint32_t i = 0; i < p->ntokens; i++) agal_token_encode(&p->tokens[i], buf + AGAL_HEADER_SIZE + 24 * (size_t)i);
    return size;
}
