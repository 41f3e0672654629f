/* test_interp_random.c: the interpreter on seeded random valid programs (tests/gen.h).
 *
 * Checks properties that hold for every program rather than values: every valid
 * program runs (AGAL_OK) with its samplers bound; a run is deterministic; quads are
 * independent (running quad k alone gives the same bits as running it among others)
 * and vertex invocations are independent. Under ASan/UBSan this also shows the
 * interpreter reads and writes nothing out of bounds on anything the generator makes. */
#include "agal/agal.h"
#include "agal/interp.h"
#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SEEDS = 400, INVOCATIONS = 8, MAX_TEXELS = 6 * (64 + 16 + 4 + 1) };

static int failures, programs, textured;

static float rnd(gen_rng *r) { return (float)gen_rng_below(r, 4001) / 1000.0f - 2.0f; }

typedef struct inputs {
    float constants[250][4];
    agal_interp_invocation inv[INVOCATIONS];
    agal_texture tex[16];
    float texels[16][MAX_TEXELS][4];
    const float *images[16][6 * 4];
    agal_interp_env env;
} inputs;

/* Binds a texture of the program's dimension to every sampler it uses. */
static void make_textures(inputs *in, const gen_program *g, gen_rng *r)
{
    size_t n = 0;
    for (unsigned s = 0; s < 16; s++) {
        if (!(g->samplers & (1u << s))) continue;
        agal_texture *t = &in->tex[n];
        bool cube = g->sampler[s].dim == AGAL_DIM_CUBE;
        uint32_t w = 1u << gen_rng_below(r, 4), h = cube ? w : 1u << gen_rng_below(r, 4);
        uint32_t maxl = 1, m = w > h ? w : h;
        while (m > 1) {
            m >>= 1;
            maxl++;
        }
        *t = (agal_texture){.sampler = s,
                            .dim = cube ? AGAL_DIM_CUBE : AGAL_DIM_2D,
                            .width = w,
                            .height = h,
                            .levels = 1 + gen_rng_below(r, maxl),
                            .images = in->images[n]};
        unsigned faces = cube ? 6 : 1;
        size_t used = 0;
        for (unsigned l = 0; l < t->levels; l++) {
            size_t lw = w >> l ? w >> l : 1, lh = h >> l ? h >> l : 1;
            for (unsigned f = 0; f < faces; f++) {
                in->images[n][l * faces + f] = &in->texels[n][used][0];
                for (size_t k = 0; k < lw * lh; k++, used++)
                    for (int c = 0; c < 4; c++) in->texels[n][used][c] = rnd(r);
            }
        }
        n++;
    }
    in->env = (agal_interp_env){
        .constants = (const float(*)[4])in->constants, .nconstants = 250, .textures = in->tex, .ntextures = n};
}

static void make_inputs(inputs *in, const gen_program *g, gen_rng *r)
{
    memset(in, 0, sizeof *in);
    for (int i = 0; i < 250; i++)
        for (int c = 0; c < 4; c++) in->constants[i][c] = rnd(r);
    for (int k = 0; k < INVOCATIONS; k++) {
        for (int i = 0; i < AGAL_INTERP_MAX_INPUTS; i++)
            for (int c = 0; c < 4; c++) in->inv[k].in[i][c] = rnd(r);
        in->inv[k].instance_id = gen_rng_below(r, 300); /* some vc[iid.x + k] fall out of range */
    }
    make_textures(in, g, r);
}

static void check_program(uint64_t seed, agal_stage stage, uint32_t version, agal_context *ctx, inputs *in)
{
    static gen_program g;
    static uint8_t bytes[GEN_MAX_BYTES];
    gen_options opt = {.max_tokens = 40};
    if (!gen_program_make(&g, seed, stage, version, &opt)) return;
    size_t size = gen_program_encode(&g, bytes, sizeof bytes);
    const agal_program *p = NULL;
    if (agal_decode(ctx, bytes, size, NULL, &p)) {
        printf("FAIL seed %llu: generated program does not decode\n", (unsigned long long)seed);
        failures++;
        return;
    }
    gen_rng r;
    gen_rng_seed(&r, seed * 7 + 1);
    make_inputs(in, &g, &r);
    programs++;
    textured += in->env.ntextures != 0;
    agal_interp_result a[INVOCATIONS], b[INVOCATIONS], one[4];
    agal_status st = agal_interp_run(ctx, p, &in->env, in->inv, INVOCATIONS, a);
    if (st) {
        char msg[256] = "";
        if (agal_diag_count(ctx)) agal_diag_format(agal_diag_get(ctx, agal_diag_count(ctx) - 1), NULL, msg, sizeof msg);
        printf("FAIL seed %llu stage %d v%u: run status %d %s\n", (unsigned long long)seed, stage, version, st, msg);
        failures++;
        return;
    }
    agal_interp_run(ctx, p, &in->env, in->inv, INVOCATIONS, b);
    if (memcmp(a, b, sizeof a)) {
        printf("FAIL seed %llu: two runs differ\n", (unsigned long long)seed);
        failures++;
    }
    /* the second quad (or invocations 4..7) alone */
    size_t n = stage == AGAL_FRAGMENT ? 4 : 1;
    for (size_t base = 4; base < INVOCATIONS; base += n) {
        agal_interp_run(ctx, p, &in->env, &in->inv[base], n, one);
        if (memcmp(one, &a[base], n * sizeof one[0])) {
            printf("FAIL seed %llu stage %d: invocation %zu depends on its neighbours\n", (unsigned long long)seed,
                   stage, base);
            failures++;
        }
    }
}

int main(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    inputs *in = malloc(sizeof *in);
    if (!ctx || !in) return 1;
    for (uint64_t seed = 1; seed <= SEEDS; seed++)
        for (uint32_t version = 1; version <= 3; version++)
            for (int stage = 0; stage < 2; stage++) {
                check_program(seed, (agal_stage)stage, version, ctx, in);
                agal_context_reset(ctx);
            }
    free(in);
    agal_context_free(ctx);
    printf("%d programs, %d with textures\n", programs, textured);
    if (programs < SEEDS * 6 / 2) {
        printf("FAIL: the generator made too few programs\n");
        failures++;
    }
    printf(failures ? "%d failures\n" : "random programs: all passed\n", failures);
    return failures != 0;
}
