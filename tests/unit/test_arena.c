/* test_arena.c: the context's arena (context.c) through a counting allocator hook.
 *
 * Bump allocations, in-place growth of the newest one, large allocations in
 * blocks of their own resized by the hook, scratch marks, reset's spares and
 * coalescing, the cap on what reset keeps, a failing hook in the middle of a
 * resize; then whole translations: a reused context makes no hook calls for a
 * program it has seen, the largest programs of every shape included, and its
 * output is the fresh context's. */
#include "internal.h"
#include "translated.h"
#include "check.h"
#include "counting_alloc.h"
#include "gen.h"
#include "shapes.h"

#include <stdlib.h>

static agal_context *counted(counting_alloc *c)
{
    counting_alloc_init(c, -1);
    return agal_context_new(counting_alloc_hook, c);
}

/* Frees the context: every byte the hook gave must come back. */
static void free_counted(agal_context *ctx, const counting_alloc *c)
{
    agal_context_free(ctx);
    CHECK(c->live == 0 && c->blocks == 0, "%zu bytes in %zu blocks not given back", c->live, c->blocks);
}

static void fill(void *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) ((uint8_t *)p)[i] = (uint8_t)(i * 7 + seed);
}

static bool filled(const void *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        if (((const uint8_t *)p)[i] != (uint8_t)(i * 7 + seed)) return false;
    return true;
}

/* The newest small allocation grows where it is; an older one is copied. */
static void bump_growth(void)
{
    counting_alloc c;
    agal_context *ctx = counted(&c);
    uint8_t *a = agal_alloc(ctx, 64);
    fill(a, 64, 1);
    uint8_t *a2 = agal_grow(ctx, a, 64, 256, 1);
    CHECK(a2 == a, "the newest allocation did not grow in place");
    uint8_t *b = agal_alloc(ctx, 32);
    CHECK(b == a + 256, "bump allocation not next to the grown one");
    uint8_t *a3 = agal_grow(ctx, a2, 64, 512, 1);
    CHECK(a3 != a2 && filled(a3, 64, 1), "an older allocation is copied with its contents");
    CHECK(c.calls == 2, "context + one bump block: %zu hook calls", c.calls);
    free_counted(ctx, &c);
}

/* A large allocation has a block of its own: the bump block keeps serving small
 * ones, and growing the large one resizes its block through the hook, with no
 * copy left behind. */
static void large_blocks(void)
{
    counting_alloc c;
    agal_context *ctx = counted(&c);
    uint8_t *small = agal_alloc(ctx, 100);
    size_t live_small = c.live;
    uint8_t *big = agal_alloc(ctx, 20000);
    fill(big, 20000, 2);
    CHECK(c.live - live_small >= 20000 && c.live - live_small < 20200, "large block holds %zu bytes",
          c.live - live_small);
    uint8_t *small2 = agal_alloc(ctx, 100);
    CHECK(small2 == small + 112, "the bump block was abandoned for the large allocation");
    size_t before = c.reallocs;
    uint8_t *big2 = agal_grow(ctx, big, 20000, 40000, 1);
    CHECK(big2 && filled(big2, 20000, 2), "large block contents after growing");
    CHECK(c.reallocs == before + 1, "large growth is one hook resize (%zu)", c.reallocs - before);
    CHECK(c.live - live_small >= 40000 && c.live - live_small < 40200, "old copy kept: %zu bytes", c.live - live_small);
    /* Shrinking, or growing within the block, asks the hook nothing. */
    size_t calls = c.calls;
    CHECK(agal_grow(ctx, big2, 100, 20000, 1) == big2 && agal_grow(ctx, big2, 100, 40000, 1) == big2,
          "resize within a large block moved it");
    CHECK(c.calls == calls, "resize within a large block called the hook");
    free_counted(ctx, &c);
}

/* A failing hook in the middle of a large resize leaves the block as it was. */
static void failed_resize(void)
{
    counting_alloc c;
    agal_context *ctx = counted(&c);
    uint8_t *big = agal_alloc(ctx, 8000);
    fill(big, 8000, 3);
    c.fail_after = 0;
    CHECK(agal_grow(ctx, big, 8000, 100000, 1) == NULL, "a failed resize reported success");
    CHECK(c.refused == 1, "the hook refused %zu calls", c.refused);
    CHECK(filled(big, 8000, 3), "a failed resize damaged the block");
    c.fail_after = -1;
    uint8_t *big2 = agal_grow(ctx, big, 8000, 100000, 1);
    CHECK(big2 && filled(big2, 8000, 3), "resize after a failure");
    free_counted(ctx, &c);
}

/* Scratch made after a mark (small allocations over several bump blocks, large
 * ones) goes at the restore: the bump position comes back, the blocks made since
 * are kept as spares, and the same scratch again takes them without a hook call,
 * even when a large block made before the mark moved in between. */
static void scratch(agal_context *ctx)
{
    for (int i = 0; i < 8; i++) agal_alloc(ctx, 6000);
    for (int i = 0; i < 300; i++) agal_alloc(ctx, 200);
}

static void marks(void)
{
    counting_alloc c;
    agal_context *ctx = counted(&c);
    uint8_t *keep = agal_alloc(ctx, 5000); /* large, made before the mark */
    fill(keep, 5000, 4);
    agal_alloc(ctx, 64);
    agal_arena_mark m = agal_arena_save(ctx);
    uint8_t *first = agal_alloc(ctx, 128);
    scratch(ctx);
    size_t nblocks = ctx->nblocks, nlarge = ctx->nlarge;
    CHECK(nblocks > 1 && nlarge > 1, "the scratch did not need blocks of its own");
    keep = agal_grow(ctx, keep, 5000, 90000, 1);
    CHECK(keep && filled(keep, 5000, 4), "large block grown inside the mark");
    size_t live = c.live;
    agal_arena_restore(ctx, m);
    CHECK(ctx->nblocks == 1 && ctx->nlarge == 1, "restore left %zu bump and %zu large blocks", ctx->nblocks,
          ctx->nlarge);
    CHECK(filled(keep, 5000, 4), "restore damaged a block made before the mark");
    CHECK(agal_alloc(ctx, 128) == first, "the bump position did not come back");
    size_t calls = c.calls;
    scratch(ctx);
    CHECK(c.calls == calls && c.live == live, "scratch again: %zu hook calls, %zu more bytes", c.calls - calls,
          c.live - live);
    free_counted(ctx, &c);
}

/* A run of allocations like a translation's: small ones over several bump blocks,
 * and large ones. */
static void workload(agal_context *ctx)
{
    for (int i = 0; i < 200; i++) agal_alloc(ctx, 16 + (size_t)i % 300);
    uint8_t *grown = agal_alloc(ctx, 4096);
    for (size_t n = 4096; n < 65536; n *= 2) grown = agal_grow(ctx, grown, n, 2 * n, 1);
    agal_alloc(ctx, 20000);
    for (int i = 0; i < 100; i++) agal_alloc(ctx, 64);
}

/* Reset keeps one bump block as large as all of them and the large blocks as
 * spares: the same run again makes no hook calls and holds no more. */
static void reset_reuse(void)
{
    counting_alloc c;
    agal_context *ctx = counted(&c);
    workload(ctx);
    size_t peak = c.peak;
    CHECK(ctx->nblocks > 1 && ctx->nlarge >= 2, "the workload did not need several blocks");
    agal_context_reset(ctx);
    c.calls = 0;
    workload(ctx);
    CHECK(c.calls == 0, "reused context: %zu hook calls", c.calls);
    CHECK(c.peak == peak && c.live <= peak, "reused context holds %zu bytes, fresh peak %zu", c.live, peak);
    agal_context_reset(ctx);
    c.calls = 0;
    workload(ctx);
    CHECK(c.calls == 0, "third run: %zu hook calls", c.calls);
    free_counted(ctx, &c);
}

/* One hostile program must not pin megabytes: reset keeps at most
 * AGAL_ARENA_KEEP_MAX, whether the work was one large allocation or many small. */
static void reset_cap(void)
{
    counting_alloc c;
    agal_context *ctx = counted(&c);
    size_t bare = c.live, cap = AGAL_ARENA_KEEP_MAX;
    agal_alloc(ctx, 100);
    agal_alloc(ctx, 3 * cap);
    agal_context_reset(ctx);
    CHECK(c.live - bare <= cap + 64, "reset keeps %zu bytes", c.live - bare);
    for (size_t i = 0; i < 3 * cap / 256; i++) agal_alloc(ctx, 256); /* over bump blocks */
    agal_context_reset(ctx);
    CHECK(c.live - bare <= cap + 64 * 64, "reset keeps %zu bytes", c.live - bare);
    free_counted(ctx, &c);
}

/* Spares the last work did not take stay (up to the cap): a context that
 * alternates a large program and a small one asks the hook for nothing once both
 * have run, so it faults in no new pages. */
static void alternating_work(void)
{
    counting_alloc c;
    agal_context *ctx = counted(&c);
    for (int round = 0; round < 3; round++) {
        size_t calls = c.calls;
        for (int i = 0; i < 2000; i++) agal_alloc(ctx, 200); /* the large program */
        agal_alloc(ctx, 300000);
        agal_context_reset(ctx);
        agal_alloc(ctx, 100); /* the small one */
        agal_context_reset(ctx);
        if (round > 0) CHECK(c.calls == calls, "round %d: %zu hook calls", round, c.calls - calls);
    }
    free_counted(ctx, &c);
}

/* Translations: a program the context has translated before costs no hook call,
 * no more memory than the first time, and gives the same words. */
static void translations(void)
{
    static const unsigned sizes[][2] = {{10, 20}, {60, 90}, {190, 200}};
    for (unsigned k = 0; k < 3; k++) {
        for (uint64_t seed = 1; seed <= 20; seed++) {
            static gen_program gp;
            static uint8_t bytes[GEN_MAX_BYTES];
            gen_options gopt = {.min_tokens = sizes[k][0], .max_tokens = sizes[k][1]};
            agal_stage stage = seed & 1 ? AGAL_VERTEX : AGAL_FRAGMENT;
            CHECK(gen_program_make(&gp, seed, stage, 1 + seed % 3, &gopt), "gen seed %llu", (unsigned long long)seed);
            size_t nbytes = gen_program_encode(&gp, bytes, sizeof bytes);
            agal_context *pctx = agal_context_new(NULL, NULL);
            const agal_program *prog = NULL;
            CHECK(agal_decode(pctx, bytes, nbytes, NULL, &prog) == AGAL_OK, "decode seed %llu",
                  (unsigned long long)seed);
            counting_alloc c;
            agal_context *ctx = counted(&c);
            const uint32_t *w1 = NULL, *w2 = NULL;
            size_t n1 = 0, n2 = 0;
            CHECK(prog && tool_translate_words(ctx, prog, NULL, &w1, &n1) == AGAL_OK, "translate");
            uint32_t *first = malloc(n1 * sizeof *first);
            if (first && w1) memcpy(first, w1, n1 * sizeof *first);
            size_t peak = c.peak;
            agal_context_reset(ctx);
            c.calls = 0;
            CHECK(prog && tool_translate_words(ctx, prog, NULL, &w2, &n2) == AGAL_OK, "translate again");
            CHECK(c.calls == 0, "seed %llu, %u tokens: reused context made %zu hook calls", (unsigned long long)seed,
                  prog ? prog->ntokens : 0, c.calls);
            CHECK(c.peak == peak, "seed %llu: reused peak %zu, fresh %zu", (unsigned long long)seed, c.peak, peak);
            CHECK(first && w2 && n1 == n2 && memcmp(first, w2, n1 * sizeof *first) == 0,
                  "seed %llu: reused context's module differs", (unsigned long long)seed);
            free(first);
            free_counted(ctx, &c);
            agal_context_free(pctx);
        }
    }
}

/* The largest programs (AGAL_MAX_TOKENS tokens, every shape of tests/shapes.h,
 * SPIR-V and GLSL): translated again in a reused context they make no hook call,
 * so an emulator's reused context faults in no new page whatever it translates. */
static void largest_programs(void)
{
    agal_context *pctx = agal_context_new(NULL, NULL);
    for (int s = 0; s < SHAPE_COUNT; s++) {
        agal_stage stage;
        char *text = shape_text((shape)s, AGAL_MAX_TOKENS, &stage);
        const uint8_t *bytes = NULL;
        size_t size = 0;
        const agal_program *prog = NULL;
        const agal_decode_options lenient = {.size = sizeof(agal_decode_options), .lenient = true};
        CHECK(text && agal_assemble(pctx, text, strlen(text), stage, 2, AGAL_ASM_STRICT, &bytes, &size) == AGAL_OK &&
                  agal_decode(pctx, bytes, size, &lenient, &prog) == AGAL_OK,
              "%s: does not decode", shape_name((shape)s));
        free(text);
        if (!prog) continue;
        for (int glsl = 0; glsl < 2; glsl++) {
            counting_alloc c;
            agal_context *ctx = counted(&c);
            for (int round = 0; round < 2; round++) {
                const uint32_t *w;
                size_t n;
                const char *out;
                c.calls = 0;
                agal_status st = glsl ? tool_translate_text(ctx, prog, AGAL_TARGET_GLSL, NULL, &out, NULL)
                                      : tool_translate_words(ctx, prog, NULL, &w, &n);
                CHECK(st == AGAL_OK, "%s: translation failed", shape_name((shape)s));
                CHECK(round == 0 || c.calls == 0, "%s, %s, translated again: %zu hook calls", shape_name((shape)s),
                      glsl ? "GLSL" : "SPIR-V", c.calls);
                agal_context_reset(ctx);
            }
            free_counted(ctx, &c);
        }
    }
    agal_context_free(pctx);
}

int main(void)
{
    bump_growth();
    large_blocks();
    failed_resize();
    marks();
    reset_reuse();
    reset_cap();
    alternating_work();
    translations();
    largest_programs();
    if (failures) fprintf(stderr, "%d failures\n", failures);
    else printf("arena: all checks passed\n");
    return failures != 0;
}
