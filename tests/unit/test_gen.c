/* test_gen: the random program generator makes only valid programs, and covers
 * what it promises.
 *
 * 2000 programs over both stages and versions 1..3 must pass agal_decode (strict),
 * 300 vertex/fragment pairs must pass agal_link, the same seed must give the same
 * bytes, and over the run every opcode the stage/version allows, every register
 * type it has, every index register kind, MRT outputs, fd and nested blocks must
 * have appeared (counted from the decoded tokens, not from the generator's flags).
 * safe_domain programs: valid, every opcode appears, and on the interpreter, with
 * inputs inside gen.h's contract, every output is finite and within GEN_SAFE_LIMIT
 * (the guards' promise, checked by running the programs, not by reading them). */
#include "agal/interp.h"
#include "agal/text.h"
#include "gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

typedef struct coverage {
    uint64_t ops;         /* opcodes seen */
    unsigned src_types;   /* register types read */
    unsigned dst_types;   /* register types written */
    unsigned index_types; /* index register types of indirect sources */
    unsigned max_oc;      /* highest oc number written + 1 */
    unsigned max_depth;
    unsigned cube, bias, specials, formats, filters, wraps, mips;
} coverage;

static void note_source(coverage *c, const agal_source *s)
{
    c->src_types |= 1u << s->type;
    if (s->indirect) c->index_types |= 1u << s->index_type;
}

static void cover(coverage *c, const agal_program *p)
{
    unsigned depth = 0;
    for (uint32_t i = 0; i < p->ntokens; i++) {
        const agal_token *t = &p->tokens[i];
        const agal_opinfo *info = agal_opinfo_get(t->op);
        c->ops |= GEN_OP(t->op);
        if (info->flags & AGAL_OPF_IF) depth++;
        if (info->flags & AGAL_OPF_ENDIF) depth--;
        if (depth > c->max_depth) c->max_depth = depth;
        if (info->operands & AGAL_OPND_D) {
            c->dst_types |= 1u << t->dst.type;
            if (t->dst.type == AGAL_REG_OUTPUT && p->stage == AGAL_FRAGMENT && t->dst.num + 1u > c->max_oc)
                c->max_oc = t->dst.num + 1u;
        }
        if (info->operands & AGAL_OPND_A) note_source(c, &t->a);
        if (info->operands & AGAL_OPND_B) note_source(c, &t->b);
        if (info->operands & AGAL_OPND_S) {
            c->cube |= t->s.dim == AGAL_DIM_CUBE;
            c->bias |= t->s.bias != 0;
            c->specials |= 1u << t->s.special;
            c->formats |= 1u << t->s.format;
            c->filters |= 1u << t->s.filter;
            c->wraps |= 1u << t->s.wrap;
            c->mips |= 1u << t->s.mipmap;
        }
    }
}

static uint64_t allowed_ops(agal_stage stage, uint32_t version)
{
    uint64_t m = 0;
    for (unsigned op = 0; op < AGAL_OP_LIMIT; op++) {
        const agal_opinfo *info = agal_opinfo_get(op);
        if (!info || info->min_version > version) continue;
        if ((info->flags & AGAL_OPF_FRAGMENT) && stage == AGAL_VERTEX) continue;
        m |= GEN_OP(op);
    }
    return m;
}

static void report(agal_context *ctx, const uint8_t *bytes, size_t size, uint64_t seed)
{
    char buf[512];
    for (size_t i = 0; i < agal_diag_count(ctx); i++) {
        agal_diag_format(agal_diag_get(ctx, i), NULL, buf, sizeof buf);
        fprintf(stderr, "  seed %llu: %s\n", (unsigned long long)seed, buf);
    }
    const char *text;
    if (agal_disassemble(ctx, bytes, size, 0, &text) == AGAL_OK) fprintf(stderr, "%s", text);
}

/* Generates, encodes and decodes one program; NULL (reported, ctx reset) when the
 * generator refuses or the program does not validate. *size: its byte count. */
static const agal_program *make_valid(agal_context *ctx, gen_program *gp, uint8_t *bytes, size_t *size, uint64_t seed,
                                      agal_stage stage, uint32_t version, const gen_options *opt, const char *what)
{
    CHECK(gen_program_make(gp, seed, stage, version, opt), "%s gen_program_make failed", what);
    *size = gen_program_encode(gp, bytes, GEN_MAX_BYTES);
    const agal_program *p;
    agal_status st = agal_decode(ctx, bytes, *size, NULL, &p);
    CHECK(st == AGAL_OK, "%s stage %d v%u seed %llu: generated program does not validate", what, stage, version,
          (unsigned long long)seed);
    if (st == AGAL_OK) return p;
    report(ctx, bytes, *size, seed);
    agal_context_reset(ctx);
    return NULL;
}

/* One (stage, version): n programs, all valid; coverage checked at the end. */
static void run_config(agal_context *ctx, gen_program *gp, uint8_t *bytes, agal_stage stage, uint32_t version, int n)
{
    coverage c = {0};
    for (int i = 0; i < n; i++) {
        uint64_t seed = (uint64_t)i * 7919 + version;
        gen_options opt = {0};
        if (i % 5 == 4) opt.max_tokens = agal_token_limit((agal_profile)version); /* long ones up to the limit */
        if (i % 5 == 4) opt.min_tokens = opt.max_tokens - 8;
        size_t size;
        const agal_program *p = make_valid(ctx, gp, bytes, &size, seed, stage, version, &opt, "plain");
        if (!p) continue;
        CHECK(p->ntokens <= agal_token_limit((agal_profile)version), "over the token limit");
        cover(&c, p);
        agal_context_reset(ctx);
    }
    uint64_t want = allowed_ops(stage, version);
    CHECK((c.ops & want) == want, "stage %d v%u: opcodes never generated: 0x%llx", stage, version,
          (unsigned long long)(want & ~c.ops));
    unsigned src = stage == AGAL_VERTEX ? (1u << AGAL_REG_ATTRIBUTE | 1u << AGAL_REG_CONSTANT | 1u << AGAL_REG_TEMP)
                                        : (1u << AGAL_REG_CONSTANT | 1u << AGAL_REG_TEMP | 1u << AGAL_REG_VARYING);
    if (stage == AGAL_VERTEX && version >= 3) src |= 1u << AGAL_REG_IID;
    CHECK((c.src_types & src) == src, "stage %d v%u: source types seen 0x%x, want 0x%x", stage, version, c.src_types,
          src);
    unsigned dst = 1u << AGAL_REG_TEMP | 1u << AGAL_REG_OUTPUT;
    if (stage == AGAL_VERTEX) dst |= 1u << AGAL_REG_VARYING;
    if (stage == AGAL_FRAGMENT && version >= 2) dst |= 1u << AGAL_REG_DEPTH;
    CHECK((c.dst_types & dst) == dst, "stage %d v%u: destination types seen 0x%x, want 0x%x", stage, version,
          c.dst_types, dst);
    if (stage == AGAL_VERTEX) {
        unsigned idx = 1u << AGAL_REG_ATTRIBUTE | 1u << AGAL_REG_CONSTANT | 1u << AGAL_REG_TEMP;
        if (version >= 3) idx |= 1u << AGAL_REG_IID;
        CHECK(c.index_types == idx, "v%u: index register types seen 0x%x, want 0x%x", version, c.index_types, idx);
    } else {
        CHECK(c.index_types == 0, "indirect addressing in a fragment program");
        CHECK(c.cube && c.bias, "fragment v%u: no cube sampler or no LOD bias", version);
        CHECK(c.formats == 0xf && c.specials == 0xff && c.filters == 0x3f && c.wraps == 0xf && c.mips == 7,
              "fragment v%u: sampler options not all seen (format 0x%x special 0x%x filter 0x%x wrap 0x%x mip 0x%x)",
              version, c.formats, c.specials, c.filters, c.wraps, c.mips);
        CHECK(c.max_oc == (version >= 2 ? 4u : 1u), "fragment v%u: highest oc written %u", version, c.max_oc);
    }
    CHECK(c.max_depth == (version >= 2 ? 4u : 0u), "stage %d v%u: deepest nesting %u", stage, version, c.max_depth);
}

static void run_pairs(agal_context *ctx, gen_program *vp, gen_program *fp, uint8_t *bytes)
{
    for (int i = 0; i < 300; i++) {
        uint32_t version = 1 + (uint32_t)(i % 3);
        CHECK(gen_pair(vp, fp, (uint64_t)i, version, NULL), "gen_pair failed");
        const agal_program *v, *f;
        size_t size = gen_program_encode(vp, bytes, GEN_MAX_BYTES);
        agal_status st = agal_decode(ctx, bytes, size, NULL, &v);
        CHECK(st == AGAL_OK, "pair %d: vertex program does not validate", i);
        if (st) {
            report(ctx, bytes, size, (uint64_t)i);
            agal_context_reset(ctx);
            continue;
        }
        size = gen_program_encode(fp, bytes, GEN_MAX_BYTES);
        st = agal_decode(ctx, bytes, size, NULL, &f);
        CHECK(st == AGAL_OK, "pair %d: fragment program does not validate", i);
        if (st) {
            report(ctx, bytes, size, (uint64_t)i);
            agal_context_reset(ctx);
            continue;
        }
        st = agal_link(ctx, v, f);
        CHECK(st == AGAL_OK, "pair %d (v%u): programs do not link", i, version);
        if (st) report(ctx, bytes, size, (uint64_t)i);
        agal_context_reset(ctx);
    }
}

/* The same seed gives the same bytes; another seed, other bytes. */
static void run_determinism(gen_program *a, uint8_t *ba, uint8_t *bb)
{
    gen_program *b = malloc(sizeof *b);
    if (!b) {
        failures++;
        return;
    }
    gen_program_make(a, 42, AGAL_FRAGMENT, 2, NULL);
    size_t na = gen_program_encode(a, ba, GEN_MAX_BYTES);
    gen_program_make(b, 42, AGAL_FRAGMENT, 2, NULL);
    size_t nb = gen_program_encode(b, bb, GEN_MAX_BYTES);
    CHECK(na == nb && !memcmp(ba, bb, na), "seed 42 gave two different programs");
    gen_program_make(b, 43, AGAL_FRAGMENT, 2, NULL);
    nb = gen_program_encode(b, bb, GEN_MAX_BYTES);
    CHECK(na != nb || memcmp(ba, bb, na), "seeds 42 and 43 gave the same program");
    free(b);
}

/* Options restrict: excluded opcodes never appear; no_indirect and no_varyings hold. */
static void run_options(gen_program *gp)
{
    gen_options opt = {.exclude_ops = GEN_OPS_UNDEFINED_DOMAIN | GEN_OPS_BLOCKS, .no_indirect = true};
    for (int i = 0; i < 200; i++) {
        agal_stage stage = (agal_stage)(i & 1);
        gen_program_make(gp, (uint64_t)i, stage, 3, &opt);
        for (uint32_t k = 0; k < gp->ntokens; k++) {
            const agal_token *t = &gp->tokens[k];
            CHECK(!(opt.exclude_ops & GEN_OP(t->op)), "excluded opcode 0x%x generated", t->op);
            CHECK(!t->a.indirect && !t->b.indirect, "indirect source despite no_indirect");
        }
    }
    /* Only sub, neg and ife blocks (els/eif come with them): not even the mov fallback. */
    uint64_t keep = GEN_OP(AGAL_OP_SUB) | GEN_OP(AGAL_OP_NEG) | GEN_OP(AGAL_OP_IFE);
    gen_options few = {.exclude_ops = ~keep};
    for (int i = 0; i < 200; i++) {
        gen_program_make(gp, (uint64_t)i, (agal_stage)(i & 1), 2, &few);
        for (uint32_t k = 0; k < gp->ntokens; k++) {
            agal_opcode op = gp->tokens[k].op;
            CHECK((keep | GEN_OP(AGAL_OP_ELS) | GEN_OP(AGAL_OP_EIF)) & GEN_OP(op), "opcode 0x%x generated", op);
        }
    }
}

/* Inputs inside the safe_domain contract: every value of magnitude <= 4 (texels in
 * [0, 1], one per sampler as 1x1 textures), the guard constants in their register. */
typedef struct safe_inputs {
    float constants[250][4];
    agal_interp_invocation inv[8];
    agal_texture tex[16];
    float texels[16][6][4];
    const float *images[16][6];
    agal_interp_env env;
} safe_inputs;

static void safe_inputs_make(safe_inputs *in, const gen_program *g, gen_rng *r)
{
    memset(in, 0, sizeof *in);
    for (int i = 0; i < 250; i++)
        for (int c = 0; c < 4; c++) in->constants[i][c] = (float)gen_rng_below(r, 8001) / 1000.0f - 4.0f;
    memcpy(in->constants[gen_safe_register((agal_profile)g->version, g->stage)], gen_safe_values,
           sizeof gen_safe_values);
    for (int k = 0; k < 8; k++) {
        for (int i = 0; i < AGAL_INTERP_MAX_INPUTS; i++)
            for (int c = 0; c < 4; c++) in->inv[k].in[i][c] = (float)gen_rng_below(r, 8001) / 1000.0f - 4.0f;
        in->inv[k].instance_id = (uint32_t)gen_rng_below(r, 5);
    }
    size_t n = 0;
    for (unsigned smp = 0; smp < 16; smp++) {
        if (!(g->samplers & (1u << smp))) continue;
        bool cube = g->sampler[smp].dim == AGAL_DIM_CUBE;
        for (int f = 0; f < 6; f++) {
            for (int c = 0; c < 4; c++) in->texels[n][f][c] = (float)gen_rng_below(r, 1001) / 1000.0f;
            in->images[n][f] = in->texels[n][f];
        }
        in->tex[n] = (agal_texture){.sampler = smp,
                                    .dim = cube ? AGAL_DIM_CUBE : AGAL_DIM_2D,
                                    .width = 1,
                                    .height = 1,
                                    .levels = 1,
                                    .images = in->images[n]};
        n++;
    }
    in->env = (agal_interp_env){
        .constants = (const float(*)[4])in->constants, .nconstants = 250, .textures = in->tex, .ntextures = n};
}

static bool safe_value(float x) { return isfinite(x) && fabsf(x) <= GEN_SAFE_LIMIT; }

static void run_safe(agal_context *ctx, gen_program *gp, uint8_t *bytes, agal_stage stage, uint32_t version, int n)
{
    static safe_inputs in;
    uint64_t ops = 0;
    int bad = 0;
    for (int i = 0; i < n; i++) {
        uint64_t seed = (uint64_t)i * 104729 + version;
        gen_options opt = {.safe_domain = true, .max_tokens = 40};
        if (i % 5 == 4) opt.max_tokens = agal_token_limit((agal_profile)version);
        size_t size;
        const agal_program *p = make_valid(ctx, gp, bytes, &size, seed, stage, version, &opt, "safe");
        if (!p) continue;
        for (uint32_t k = 0; k < p->ntokens; k++) ops |= GEN_OP(p->tokens[k].op);
        gen_rng r;
        gen_rng_seed(&r, seed);
        safe_inputs_make(&in, gp, &r);
        agal_interp_result res[8];
        agal_status st = agal_interp_run(ctx, p, &in.env, in.inv, 8, res);
        CHECK(st == AGAL_OK, "safe stage %d v%u seed %llu: interpreter status %d", stage, version,
              (unsigned long long)seed, st);
        for (int k = 0; st == AGAL_OK && k < 8; k++) {
            bool ok = true;
            for (int c = 0; c < 4; c++) {
                ok &= safe_value(res[k].op[c]);
                for (int v = 0; v < AGAL_INTERP_MAX_VARYINGS; v++) ok &= safe_value(res[k].v[v][c]);
                for (int o = 0; o < AGAL_INTERP_MAX_COLORS; o++) ok &= safe_value(res[k].oc[o][c]);
            }
            ok &= safe_value(res[k].fd);
            if (!ok && bad++ < 3) {
                fprintf(stderr, "safe stage %d v%u seed %llu invocation %d: an output is not finite or over %g\n",
                        stage, version, (unsigned long long)seed, k, GEN_SAFE_LIMIT);
                report(ctx, bytes, size, seed);
            }
            if (!ok) failures++;
        }
        agal_context_reset(ctx);
    }
    uint64_t want = allowed_ops(stage, version);
    CHECK((ops & want) == want, "safe stage %d v%u: opcodes never generated: 0x%llx", stage, version,
          (unsigned long long)(want & ~ops));
}

int main(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    gen_program *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    uint8_t *ba = malloc(GEN_MAX_BYTES), *bb = malloc(GEN_MAX_BYTES);
    if (!ctx || !a || !b || !ba || !bb) return 1;
    for (uint32_t version = 1; version <= 3; version++)
        for (int stage = 0; stage < 2; stage++) run_config(ctx, a, ba, (agal_stage)stage, version, 334);
    for (uint32_t version = 1; version <= 3; version++)
        for (int stage = 0; stage < 2; stage++) run_safe(ctx, a, ba, (agal_stage)stage, version, 300);
    run_pairs(ctx, a, b, ba);
    run_determinism(a, ba, bb);
    run_options(a);
    free(a);
    free(b);
    free(ba);
    free(bb);
    agal_context_free(ctx);
    if (failures) fprintf(stderr, "%d failures\n", failures);
    return failures ? 1 : 0;
}
