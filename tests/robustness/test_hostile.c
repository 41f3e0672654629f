/* test_hostile.c: hostile input never crashes, hangs or leaks the decoder.
 * Seeded random byte mutations of valid programs, every value of every byte of a
 * token, random garbage, huge sizes, and an allocator that fails on the Nth call.
 * Every rejection must carry a Flash id and a token index inside the program. */
#include "agal/agal.h"
#include "tokbuild.h"
#include "counting_alloc.h"

#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static uint64_t rng_next(uint64_t *s)
{
    /* splitmix64: small, seedable, good enough to pick bytes */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Decodes and checks the contract: OK, or INVALID with a sane diagnostic. */
static void decode_one(agal_context *ctx, const uint8_t *buf, size_t n, bool lenient, const char *what)
{
    agal_decode_options opt = {.size = sizeof(agal_decode_options), .lenient = lenient};
    const agal_program *prog = NULL;
    agal_status st = agal_decode(ctx, buf, n, &opt, &prog);
    if (st == AGAL_OK) {
        CHECK(prog && prog->ntokens == (n - 7) / 24, "%s: OK without a program", what);
    } else {
        CHECK(st == AGAL_ERR_INVALID, "%s: status %d", what, st);
        const agal_diag *d = agal_diag_get(ctx, 0);
        CHECK(d && d->flash_id >= 3600 && d->flash_id < 3800, "%s: no Flash id", what);
        CHECK(d && d->token >= -1 && d->token <= (int)(n / 24) + 1, "%s: token %d out of range", what,
              d ? d->token : 0);
        CHECK(d && d->message && d->message[0], "%s: empty message", what);
    }
    agal_context_reset(ctx);
}

static size_t seed_programs(uint8_t bufs[4][7 + 24 * 8], size_t sizes[4])
{
    tok vs[] = {{0x18, DST(OP, 0, 15), SRC(VA, 0, XYZW), SRC(VC, 0, XYZW)},
                {0x00, DST(VT, 0, 15), IND(VC, 4, VA, 1, 0, XYZW), 0},
                {0x00, DST(VV, 0, 15), SRC(VT, 0, XYZW), 0}};
    tok fs[] = {{0x28, DST(FT, 0, 15), SRC(VV, 0, XYZW), SMP(0, -4, 0, 0, 0, 1, 2, 1)},
                {0x03, DST(OC, 0, 15), SRC(FT, 0, XYZW), SRC(FC, 0, XYZW)}};
    tok f2[] = {{0x00, DST(FT, 0, 15), SRC(VV, 0, XYZW), 0},
                {0x1a, DST(FT, 1, 15), SRC(VV, 0, XYZW), 0},
                {0x1c, 0, SRC(FT, 0, XXXX), SRC(FC, 0, YYYY)},
                {0x01, DST(FT, 1, 15), SRC(FT, 1, XYZW), SRC(FC, 2, XYZW)},
                {0x20, 0, 0, 0},
                {0x00, DST(FT, 1, 15), SRC(FC, 1, XYZW), 0},
                {0x21, 0, 0, 0},
                {0x00, DST(OC, 0, 15), SRC(FT, 1, XYZW), 0},
                {0x00, DST(FD, 0, 1), SRC(FT, 0, XXXX), 0}};
    tok v3[] = {{0x00, DST(OP, 0, 15), IND(VC, 0, IID, 0, 0, XYZW), 0}};
    sizes[0] = build_program(bufs[0], 0, 1, vs, 3);
    sizes[1] = build_program(bufs[1], 1, 1, fs, 2);
    sizes[2] = build_program(bufs[2], 1, 2, f2, 8);
    sizes[3] = build_program(bufs[3], 0, 3, v3, 1);
    return 4;
}

static void run_mutations(agal_context *ctx)
{
    uint8_t bufs[4][7 + 24 * 8], work[7 + 24 * 8];
    size_t sizes[4];
    size_t n = seed_programs(bufs, sizes);
    for (size_t i = 0; i < n; i++) {
        /* the seeds themselves are valid */
        agal_decode_options opt = agal_decode_options_init();
        const agal_program *prog;
        CHECK(agal_decode(ctx, bufs[i], sizes[i], &opt, &prog) == AGAL_OK, "seed %zu valid", i);
        agal_context_reset(ctx);
    }
    uint64_t rng = 0x5eed;
    for (int iter = 0; iter < 60000; iter++) {
        size_t which = rng_next(&rng) % n, size = sizes[which];
        memcpy(work, bufs[which], size);
        int flips = 1 + (int)(rng_next(&rng) % 4);
        for (int k = 0; k < flips; k++) {
            size_t pos = rng_next(&rng) % size;
            if (rng_next(&rng) & 1) work[pos] ^= (uint8_t)(1u << (rng_next(&rng) % 8));
            else work[pos] = (uint8_t)rng_next(&rng);
        }
        if ((iter % 7) == 0) size = rng_next(&rng) % (size + 1); /* truncation */
        decode_one(ctx, work, size, iter & 1, "mutation");
    }
    /* every value of every byte of the second token of each seed */
    for (size_t i = 0; i < n; i++) {
        size_t tok_at = sizes[i] > 7 + 24 ? 7 + 24 : 7;
        for (size_t b = 0; b < 24 && tok_at + b < sizes[i]; b++)
            for (unsigned v = 0; v < 256; v++) {
                memcpy(work, bufs[i], sizes[i]);
                work[tok_at + b] = (uint8_t)v;
                decode_one(ctx, work, sizes[i], false, "byte sweep");
            }
    }
}

static void run_garbage(agal_context *ctx)
{
    uint64_t rng = 42;
    static uint8_t big[7 + 24 * 9000];
    for (int iter = 0; iter < 2000; iter++) {
        size_t size = rng_next(&rng) % 400;
        for (size_t i = 0; i < size; i++) big[i] = (uint8_t)rng_next(&rng);
        if (size > 6 && (iter & 1)) put_header(big, iter & 2 ? 1 : 0, 1 + iter % 3);
        decode_one(ctx, big, size, iter & 4, "garbage");
    }
    /* a huge program: rejected (3629) before anything is allocated for its tokens */
    memset(big, 0, sizeof big);
    put_header(big, AGAL_VERTEX, 3);
    decode_one(ctx, big, sizeof big, false, "huge");
    decode_one(ctx, big, sizeof big, true, "huge lenient");
    decode_one(ctx, NULL, 0, false, "null");
}

static void run_alloc_failures(void)
{
    uint8_t bufs[4][7 + 24 * 8];
    size_t sizes[4];
    seed_programs(bufs, sizes);
    for (long budget = 0; budget < 8; budget++) {
        counting_alloc f;
        counting_alloc_init(&f, budget); /* budget allocations succeed, then every one fails */
        agal_context *ctx = agal_context_new(counting_alloc_hook, &f);
        if (!ctx) {
            CHECK(budget == 0, "context with budget %ld", budget);
            continue;
        }
        const agal_program *prog;
        agal_status st = agal_decode(ctx, bufs[2], sizes[2], NULL, &prog);
        CHECK(st == AGAL_OK || st == AGAL_ERR_NOMEM, "budget %ld: status %d", budget, st);
        CHECK(st == AGAL_OK || f.refused > 0, "budget %ld: out of memory, but no allocation was refused", budget);
        agal_context_free(ctx);
        CHECK(f.blocks == 0 && f.live == 0, "budget %ld: %zu blocks leaked", budget, f.blocks);
    }
}

int main(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    run_mutations(ctx);
    run_garbage(ctx);
    agal_context_free(ctx);
    run_alloc_failures();
    printf("hostile input: %d failures\n", failures);
    return failures ? 1 : 0;
}
