/* agal_bench.c: agal-bench, translation speed and memory against the glslang path.
 *
 * Emulators translate at every Program3D.upload, so a slow translator shows up as
 * stutter. Over the shaders/ corpus this measures, per program:
 *   decode+validate        agal_decode of the bytecode
 *   AGAL -> SPIR-V         agal_translate of the decoded program (direct)
 *   AGAL -> GLSL 330       agal_translate, target GLSL
 *   AGAL -> GLSL ES 3.00   agal_translate, target ESSL3 (WebGL 2's, the npm package's)
 *   glslang                that GLSL (made Vulkan-ready once, outside the clock)
 *                          compiled in-process by a warm glslang to SPIR-V 1.0
 * Each translation runs in a context reset after it, as an emulator reuses one.
 * A figure is the median over programs of one round; several rounds give
 * min/median/max. Then: hook calls and peak heap per translation (a counting
 * allocator through agal_context_new's hook), the interpreter's instructions per
 * second, the SPIR-V size against SPIRV-Tools' optimizer (-O) on the same module,
 * and last `speedup over glslang: N.Nx`, the median over programs of
 * (GLSL + glslang time) / direct SPIR-V time. The GLSL emitter's time over the
 * SPIR-V path's is printed too, for GLSL 330 and ES 3.00: all serve emulators at
 * upload time.
 *
 * The targets are printed with the measurements, never asserted: timing on a shared
 * machine is noise, so the exit status says only whether everything translated (0;
 * 1 when something did not; 2 a usage error, an unreadable corpus, no glslang).
 * On a terminal, stderr shows the round being measured.
 *
 * --driver measures instead what the GPU driver then spends on our output, per
 * corpus pair (bench_driver.c): Vulkan and GL through the harness.
 *
 * Usage: agal-bench [--quick] [--rounds N] [--corpus DIR] [--profile N [--target T] [--shape S]] [--driver]
 * --profile N runs only the translations to one target (--target spirv, the
 * default; glsl, essl3, essl1 or wgsl), N times over the corpus (essl1 leaves out
 * the programs GLSL ES 1.00 cannot express: iid), or with --target decode only
 * agal_decode of the corpus's bytes, or with --target pack (pairs) each corpus
 * pair's two SPIR-V pipelines with (without) the packing plan, for a profiler: callgrind
 * counts instructions, so it is stable on a noisy machine, and the count over
 * N x the corpus's programs is the cost of one corpus translation (the set-up's
 * glslang check, which translates too, is left out of that mode):
 *   valgrind --tool=callgrind --toggle-collect=agal_translate \
 *     tools/agal-bench --profile 50 --target essl3
 * With --shape S it translates one program of shapes.h's shape S at
 * AGAL_MAX_TOKENS instead of the corpus, N times: what a shape pays per token
 * that straight-line code does not is the difference of two such counts. */
#include "agal/interp.h"
#include "agal/stage3d.h"
#include "agal/text.h"
#include "bench.h"
#include "emit.h"
#include "toolio.h"
#include "translated.h"
#include "glslang_check.h"
#include "gen.h"
#include "counting_alloc.h"
#include "shapes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#ifndef AGAL_SOURCE_DIR
#define AGAL_SOURCE_DIR "."
#endif

/* tools/common/spvopt.cpp: SPIRV-Tools' performance passes (agal2spv -O). */
int agal_tool_optimize(const uint32_t *in, size_t n, uint32_t **out, size_t *nout);

enum { MAX_ROUNDS = 64, INTERP_N = 64 };

/* ---- the corpus -------------------------------------------------------------- */

typedef struct program {
    char *name;
    uint8_t *bytes;
    size_t size;
    const agal_program *prog; /* decoded, in the bench's program context */
    char *vk_glsl;            /* the GLSL made Vulkan-ready, for glslang (malloc'd) */
    bool synthetic;           /* generated, not from the corpus: not in the medians */
} program;

typedef struct bench {
    program *progs;
    size_t nprogs, ncorpus;
    agal_context *pctx; /* holds every decoded program */
    unsigned rounds;
    double target_s; /* least time one measurement runs */
    bool quick;
    bool driver;                /* --driver: only the driver's times (bench_driver.c) */
    unsigned profile_loops;     /* --profile N: only one target's loop, N times (callgrind) */
    agal_target profile_target; /* --target: that target */
    bool profile_decode;        /* --target decode: agal_decode of the bytes instead */
    int profile_pairs;          /* --target pack: 2, the pairs' pipelines packed; pairs: 1, not; else 0 */
    int profile_shape;          /* --shape: a shapes.h program instead of the corpus, or -1 */
    uint64_t sink;              /* what a timed call returns, kept so that it is computed */
    char log[4096];
} bench;

/* Assembles AGAL text (stage and version from its header comments) into a
 * malloc'd copy of the bytes. */
static int assemble(agal_context *ctx, const char *name, const char *text, size_t len, program *p)
{
    const uint8_t *bytes;
    size_t size;
    int rc = tool_assemble(ctx, name, text, len, -1, 0, 0, &bytes, &size);
    if (rc) return rc;
    p->bytes = malloc(size);
    if (!p->bytes) return fprintf(stderr, "agal-bench: out of memory\n"), 2;
    memcpy(p->bytes, bytes, size);
    p->size = size;
    return 0;
}

static program *add_program(bench *b, const char *name)
{
    program *np = realloc(b->progs, (b->nprogs + 1) * sizeof *np);
    if (!np) return NULL;
    b->progs = np;
    program *p = &np[b->nprogs];
    memset(p, 0, sizeof *p);
    p->name = malloc(strlen(name) + 1);
    if (!p->name) return NULL;
    strcpy(p->name, name);
    b->nprogs++;
    return p;
}

/* Assembles every .agal file of dir: 0, 1 (a text does not assemble) or 2 (the
 * directory or a file cannot be read). */
static int load_corpus(bench *b, const char *dir)
{
    size_t n = 0;
    char **names = tool_list_dir("agal-bench", dir, ".agal", &n);
    if (!names) return 2;
    int rc = 0;
    for (size_t i = 0; !rc && i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        size_t len = 0;
        char *text = tool_read_agal(path, true, &len);
        program *p = text ? add_program(b, names[i]) : NULL;
        if (!text) rc = 2;
        else if (!p) rc = 2, fprintf(stderr, "agal-bench: out of memory\n");
        else rc = assemble(b->pctx, path, text, len, p);
        free(text);
    }
    tool_free_names(names);
    b->ncorpus = b->nprogs;
    return rc;
}

/* ---- the 200-token program ----------------------------------------------------- */

/* A vertex program of exactly 200 tokens (the baseline profile's limit), a chain
 * through eight temporaries mixing componentwise, dot and matrix ops, each reading
 * the temporary the previous one wrote and a different constant: the size the
 * peak-heap target is stated for. */
static char *long_program_text(void)
{
    static const char *const ops[] = {"add", "mul", "sub", "max", "dp4", "m44", "min", "frc", "mul", "sat"};
    enum { BODY = 196, LINE = 48 };
    char *text = malloc((BODY + 4) * LINE);
    if (!text) return NULL;
    char *s = text;
    s += sprintf(s, "mov vt0, va0\nm44 op, va0, vc0\n");
    for (unsigned i = 0; i < BODY; i++) {
        const char *op = ops[i % (sizeof ops / sizeof *ops)];
        unsigned d = (i + 1) % 8, a = i % 8, c = (7 * i) % 124;
        if (!strcmp(op, "frc") || !strcmp(op, "sat")) s += sprintf(s, "%s vt%u, vt%u\n", op, d, a);
        else s += sprintf(s, "%s vt%u, vt%u, vc%u\n", op, d, a, c);
    }
    sprintf(s, "mov v0, vt%u\nmov v1, vt%u\n", BODY % 8, (BODY + 7) % 8);
    return text;
}

static bool add_long_program(bench *b)
{
    char *text = long_program_text();
    program *p = text ? add_program(b, "(generated 200-token vertex program)") : NULL;
    bool ok = p && agal_assemble(b->pctx, text, strlen(text), AGAL_VERTEX, 1, AGAL_ASM_STRICT,
                                 (const uint8_t **)&p->bytes, &p->size) == AGAL_OK;
    if (ok) {
        /* Own a copy, as for the corpus (the context's bytes go with it). */
        uint8_t *copy = malloc(p->size);
        ok = copy != NULL;
        if (ok) memcpy(copy, p->bytes, p->size);
        p->bytes = copy;
        p->synthetic = true;
    } else if (p) {
        tool_print_diags(b->pctx, p->name);
        p->bytes = NULL;
    }
    free(text);
    return ok;
}

/* ---- the measured operations ------------------------------------------------- */

/* The baseline targets Vulkan too: its GLSL gets the same clip fix as the SPIR-V. */
static const agal_translate_options vulkan_clip = {.size = sizeof(agal_translate_options), .clip = AGAL_CLIP_VULKAN};

/* -g: the same translations with debug info (the source, lines and the map). */
static const agal_translate_options debug_spirv = {.size = sizeof(agal_translate_options), .debug_info = true};
static const agal_translate_options debug_glsl = {
    .size = sizeof(agal_translate_options), .clip = AGAL_CLIP_VULKAN, .debug_info = true};

enum path { P_DECODE, P_SPIRV, P_GLSL, P_ESSL3, P_SPIRV_G, P_GLSL_G, P_GLSLANG, NPATHS };
static const char *const path_names[NPATHS] = {
    "decode+validate",   "AGAL -> SPIR-V (direct)", "AGAL -> GLSL 330",      "AGAL -> GLSL ES 3.00",
    "AGAL -> SPIR-V -g", "AGAL -> GLSL 330 -g",     "glslang GLSL -> SPIR-V"};

/* One operation on p in ctx, and the reset that ends it. false on failure (with the
 * reason in b->log). */
static bool run_once(bench *b, const program *p, enum path k, agal_context *ctx)
{
    bool ok = true;
    if (k == P_DECODE) {
        const agal_program *out;
        ok = agal_decode(ctx, p->bytes, p->size, NULL, &out) == AGAL_OK;
    } else if (k == P_SPIRV) {
        const uint32_t *w;
        size_t n;
        ok = tool_translate_words(ctx, p->prog, NULL, &w, &n) == AGAL_OK;
    } else if (k == P_GLSL) {
        const char *text;
        ok = tool_translate_text(ctx, p->prog, AGAL_TARGET_GLSL, &vulkan_clip, &text, NULL) == AGAL_OK;
    } else if (k == P_ESSL3) {
        const char *text;
        ok = tool_translate_text(ctx, p->prog, AGAL_TARGET_ESSL3, NULL, &text, NULL) == AGAL_OK;
    } else if (k == P_SPIRV_G) {
        const uint32_t *w;
        size_t n;
        ok = tool_translate_words(ctx, p->prog, &debug_spirv, &w, &n) == AGAL_OK;
    } else if (k == P_GLSL_G) {
        const char *text;
        ok = tool_translate_text(ctx, p->prog, AGAL_TARGET_GLSL, &debug_glsl, &text, NULL) == AGAL_OK;
    } else {
        uint32_t *w = NULL;
        size_t n = 0;
        ok = glslang_compile_vulkan(p->prog->stage, p->vk_glsl, &w, &n, b->log, sizeof b->log);
        free(w);
    }
    if (!ok && k != P_GLSLANG) {
        snprintf(b->log, sizeof b->log, "%s failed", path_names[k]);
        tool_print_diags(ctx, p->name);
    }
    agal_context_reset(ctx);
    return ok;
}

/* One measured operation: what it works on, and a call of it that ends with its
 * context's reset (false on failure, the reason in b->log). */
typedef struct measured {
    bool (*once)(bench *b, const struct measured *m, agal_context *ctx);
    const program *p, *f; /* the program (a pair's vertex program), a pair's fragment program */
    enum path k;
    const agal_upload_options *upload;  /* time_upload's */
    const agal_ir_packing *plan;        /* time_pipelines' */
    const agal_upload_result *uploaded; /* report_runtime's key: the pair, */
    const agal_context3d_state *state;  /* and the state it is drawn with */
} measured;

/* Seconds per operation. With *iters 0 it first doubles the count until a batch
 * takes target_s, and keeps that count for later rounds. */
static bool time_calls(bench *b, const measured *m, agal_context *ctx, unsigned *iters, double *t)
{
    unsigned n = *iters ? *iters : 1;
    for (;;) {
        double t0 = tool_seconds();
        for (unsigned i = 0; i < n; i++)
            if (!m->once(b, m, ctx)) return false;
        double dt = tool_seconds() - t0;
        if (*iters || dt >= b->target_s || n >= (1u << 24)) {
            *iters = n;
            *t = dt / n;
            return true;
        }
        n *= 2;
    }
}

static bool path_once(bench *b, const measured *m, agal_context *ctx) { return run_once(b, m->p, m->k, ctx); }

static bool time_path(bench *b, const program *p, enum path k, agal_context *ctx, unsigned *iters, double *t)
{
    return time_calls(b, &(measured){.once = path_once, .p = p, .k = k}, ctx, iters, t);
}

/* ---- speed ---------------------------------------------------------------------- */

typedef struct speed {
    /* per round: median over corpus programs of seconds per operation */
    double med[NPATHS][MAX_ROUNDS];
    double tokens_s[NPATHS][MAX_ROUNDS]; /* corpus tokens / corpus time */
    double glslang_path[MAX_ROUNDS];     /* median of GLSL + glslang */
    double speedup[MAX_ROUNDS];          /* median of (GLSL + glslang) / SPIR-V */
    double glsl_ratio[MAX_ROUNDS];       /* median of GLSL 330 / SPIR-V */
    double essl3_ratio[MAX_ROUNDS];      /* median of GLSL ES 3.00 / SPIR-V */
    double debug_ratio[2][MAX_ROUNDS];   /* median of -g / the default: SPIR-V, GLSL 330 */
    double long_spirv[MAX_ROUNDS];       /* the 200-token program, SPIR-V direct */
} speed;

static unsigned corpus_tokens(const bench *b)
{
    unsigned n = 0;
    for (size_t i = 0; i < b->ncorpus; i++) n += b->progs[i].prog->ntokens;
    return n;
}

static bool speed_round(bench *b, agal_context *ctx, unsigned (*iters)[NPATHS], unsigned r, speed *s)
{
    size_t np = b->ncorpus;
    double *t = calloc(NPATHS * np, sizeof *t), *tmp = calloc(np, sizeof *tmp);
    bool ok = t && tmp;
    for (size_t i = 0; ok && i < np; i++)
        for (int k = 0; ok && k < NPATHS; k++)
            ok = time_path(b, &b->progs[i], (enum path)k, ctx, &iters[i][k], &t[k * np + i]);
    for (int k = 0; ok && k < NPATHS; k++) {
        double sum = 0;
        for (size_t i = 0; i < np; i++) sum += tmp[i] = t[k * np + i];
        s->tokens_s[k][r] = corpus_tokens(b) / sum;
        s->med[k][r] = median(tmp, np);
    }
    for (size_t i = 0; ok && i < np; i++) tmp[i] = t[P_GLSL * np + i] + t[P_GLSLANG * np + i];
    if (ok) s->glslang_path[r] = median(tmp, np);
    for (size_t i = 0; ok && i < np; i++) tmp[i] = (t[P_GLSL * np + i] + t[P_GLSLANG * np + i]) / t[P_SPIRV * np + i];
    if (ok) s->speedup[r] = median(tmp, np);
    for (size_t i = 0; ok && i < np; i++) tmp[i] = t[P_GLSL * np + i] / t[P_SPIRV * np + i];
    if (ok) s->glsl_ratio[r] = median(tmp, np);
    for (size_t i = 0; ok && i < np; i++) tmp[i] = t[P_ESSL3 * np + i] / t[P_SPIRV * np + i];
    if (ok) s->essl3_ratio[r] = median(tmp, np);
    for (size_t i = 0; ok && i < np; i++) tmp[i] = t[P_SPIRV_G * np + i] / t[P_SPIRV * np + i];
    if (ok) s->debug_ratio[0][r] = median(tmp, np);
    for (size_t i = 0; ok && i < np; i++) tmp[i] = t[P_GLSL_G * np + i] / t[P_GLSL * np + i];
    if (ok) s->debug_ratio[1][r] = median(tmp, np);
    if (ok && b->nprogs > np) ok = time_path(b, &b->progs[np], P_SPIRV, ctx, &iters[np][P_SPIRV], &s->long_spirv[r]);
    free(t);
    free(tmp);
    return ok;
}

static void print_mmm_us(const char *what, double *v, unsigned n, const char *extra)
{
    mmm m = summarize(v, n);
    printf("  %-26s %9.2f %9.2f %9.2f us%s\n", what, m.min * 1e6, m.med * 1e6, m.max * 1e6, extra);
}

static void print_speed(const bench *b, speed *s)
{
    unsigned n = b->rounds;
    printf("time per program: median over the %zu corpus programs; min / median / max over %u rounds\n", b->ncorpus, n);
    for (int k = 0; k < NPATHS; k++) {
        mmm tk = summarize(s->tokens_s[k], n);
        char extra[96];
        snprintf(extra, sizeof extra, "   %8.3g %8.3g %8.3g tokens/s", tk.min, tk.med, tk.max);
        print_mmm_us(path_names[k], s->med[k], n, extra);
    }
    print_mmm_us("GLSL + glslang (baseline)", s->glslang_path, n, "");
    if (b->nprogs > b->ncorpus) print_mmm_us("SPIR-V, 200-token program", s->long_spirv, n, "");
    mmm sp = summarize(s->speedup, n);
    printf("  %-26s %9.1f %9.1f %9.1f x  (median over programs of baseline / direct)\n", "speedup", sp.min, sp.med,
           sp.max);
    mmm gr = summarize(s->glsl_ratio, n), er = summarize(s->essl3_ratio, n);
    printf("  %-26s %9.2f %9.2f %9.2f x  (median over programs of GLSL 330 / direct SPIR-V)\n", "GLSL / SPIR-V", gr.min,
           gr.med, gr.max);
    printf("  %-26s %9.2f %9.2f %9.2f x  (median over programs of GLSL ES 3.00 / direct SPIR-V)\n", "ES 3.00 / SPIR-V",
           er.min, er.med, er.max);
    mmm ds = summarize(s->debug_ratio[0], n), dg = summarize(s->debug_ratio[1], n);
    printf("  %-26s %9.2f %9.2f %9.2f x  (median over programs of SPIR-V with -g / without)\n", "SPIR-V -g / SPIR-V",
           ds.min, ds.med, ds.max);
    printf("  %-26s %9.2f %9.2f %9.2f x  (median over programs of GLSL 330 with -g / without)\n", "GLSL -g / GLSL",
           dg.min, dg.med, dg.max);
}

/* ---- memory -------------------------------------------------------------------- */

typedef struct memfig {
    size_t allocs, peak;
} memfig;

/* Hook calls and peak bytes of one SPIR-V translation of p (after decoding it, with
 * with_decode). fresh: from agal_context_new to agal_context_free, the context's own
 * allocation included. Reused: a context that translated p once and was reset, as an
 * emulator keeps one; its peak counts the arena block the reset kept. */
static bool measure_memory(const program *p, bool fresh, bool with_decode, memfig *m)
{
    counting_alloc c;
    counting_alloc_init(&c, -1);
    agal_context *ctx = agal_context_new(counting_alloc_hook, &c);
    const agal_program *prog = p->prog;
    const uint32_t *w;
    size_t n;
    bool ok = ctx != NULL;
    if (ok && !fresh) {
        ok = tool_translate_words(ctx, prog, NULL, &w, &n) == AGAL_OK;
        agal_context_reset(ctx);
        counting_alloc_mark(&c);
    }
    if (ok && with_decode) ok = agal_decode(ctx, p->bytes, p->size, NULL, &prog) == AGAL_OK;
    if (ok) ok = tool_translate_words(ctx, prog, NULL, &w, &n) == AGAL_OK;
    if (ctx) agal_context_reset(ctx);
    m->allocs = c.calls;
    m->peak = c.peak;
    agal_context_free(ctx);
    if (c.live != 0) fprintf(stderr, "agal-bench: %s: %zu bytes not given back\n", p->name, c.live);
    return ok && c.live == 0;
}

static void print_memrow(const char *what, const memfig *v, size_t n)
{
    double a[256], pk[256];
    size_t cnt = n < 256 ? n : 256;
    for (size_t i = 0; i < cnt; i++) a[i] = (double)v[i].allocs, pk[i] = (double)v[i].peak;
    mmm ma = summarize(a, cnt), mp = summarize(pk, cnt);
    printf("  %-34s %4.0f %4.0f %4.0f calls   %6.1f %6.1f %6.1f KiB peak\n", what, ma.min, ma.med, ma.max,
           mp.min / 1024, mp.med / 1024, mp.max / 1024);
}

/* Generated 200-token programs (tools/common/gen.c: every opcode, swizzles, masks,
 * blocks, relative reads; most values dead), fresh context: the same figures. */
static bool report_generated(void)
{
    enum { SEEDS = 40 };
    static gen_program gp;
    static uint8_t bytes[GEN_MAX_BYTES];
    memfig v[SEEDS];
    size_t n = 0;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        gen_options opt = {.min_tokens = 200, .max_tokens = 200};
        if (!gen_program_make(&gp, seed, seed & 1 ? AGAL_VERTEX : AGAL_FRAGMENT, 1 + seed % 3, &opt)) continue;
        program p = {
            .name = "(generated program)", .bytes = bytes, .size = gen_program_encode(&gp, bytes, sizeof bytes)};
        agal_context *dctx = agal_context_new(NULL, NULL);
        bool ok = dctx && agal_decode(dctx, p.bytes, p.size, NULL, &p.prog) == AGAL_OK &&
                  measure_memory(&p, true, false, &v[n]);
        agal_context_free(dctx);
        if (!ok) return false;
        n++;
    }
    print_memrow("generated 200-token, fresh context", v, n);
    return true;
}

/* Hook calls and peak bytes of one translation, per program; min/median/max over
 * the corpus, then the 200-token program on its own, then generated ones. */
static bool report_memory(const bench *b, memfig *long_fresh)
{
    static const struct {
        const char *what;
        bool fresh, decode;
    } rows[] = {
        {"translate, reused context", false, false},
        {"translate, fresh context", true, false},
        {"decode+translate, reused context", false, true},
        {"decode+translate, fresh context", true, true},
    };
    memfig v[256];
    printf("allocator hook per SPIR-V translation: min / median / max over the corpus\n");
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        size_t n = b->ncorpus < 256 ? b->ncorpus : 256;
        for (size_t i = 0; i < n; i++)
            if (!measure_memory(&b->progs[i], rows[r].fresh, rows[r].decode, &v[i])) return false;
        print_memrow(rows[r].what, v, n);
    }
    if (b->nprogs > b->ncorpus) {
        const program *p = &b->progs[b->ncorpus];
        memfig reused;
        if (!measure_memory(p, false, false, &reused) || !measure_memory(p, true, false, long_fresh)) return false;
        printf("  200-token program (%u tokens): reused %zu calls, %.1f KiB peak; fresh %zu calls, %.1f KiB peak\n",
               p->prog->ntokens, reused.allocs, reused.peak / 1024.0, long_fresh->allocs, long_fresh->peak / 1024.0);
    }
    return report_generated();
}

/* ---- the interpreter ------------------------------------------------------------ */

/* Textures for every sampler a program names: 8x8 (cube: 8x8 faces), a full mip
 * chain, all levels reading one shared texel array (each level reads a prefix). */
typedef struct tex_set {
    agal_texture tex[16];
    const float *images[16][4 * 6];
    size_t n;
} tex_set;

static float texels[64][4];

static void make_textures(const agal_program *prog, tex_set *ts)
{
    ts->n = 0;
    for (uint32_t i = 0; i < prog->ntokens; i++) {
        const agal_token *t = &prog->tokens[i];
        const agal_opinfo *info = agal_opinfo_get(t->op);
        if (!info || !(info->operands & AGAL_OPND_S)) continue;
        bool seen = false;
        for (size_t k = 0; k < ts->n; k++) seen |= ts->tex[k].sampler == t->s.num;
        if (seen || ts->n == 16) continue;
        agal_texture *x = &ts->tex[ts->n];
        unsigned faces = t->s.dim == AGAL_DIM_CUBE ? 6 : 1;
        memset(x, 0, sizeof *x);
        x->sampler = t->s.num;
        x->dim = t->s.dim == AGAL_DIM_CUBE ? AGAL_DIM_CUBE : AGAL_DIM_2D;
        x->width = x->height = 8;
        x->levels = 4;
        for (unsigned k = 0; k < 4 * faces; k++) ts->images[ts->n][k] = &texels[0][0];
        x->images = ts->images[ts->n];
        ts->n++;
    }
}

/* Inputs and constants: small varied values, the same every run. */
static void fill_inputs(agal_interp_invocation *in, size_t n, float (*consts)[4], size_t nconsts)
{
    for (size_t i = 0; i < n; i++) {
        memset(&in[i], 0, sizeof in[i]);
        for (unsigned r = 0; r < AGAL_INTERP_MAX_INPUTS; r++)
            for (unsigned c = 0; c < 4; c++) in[i].in[r][c] = (float)((i * 7 + r * 3 + c) % 11) / 10.0f;
        in[i].instance_id = (uint32_t)(i % 4);
    }
    for (size_t k = 0; k < nconsts; k++)
        for (unsigned c = 0; c < 4; c++) consts[k][c] = (float)((k * 5 + c) % 13) / 8.0f - 0.5f;
    for (unsigned t = 0; t < 64; t++)
        for (unsigned c = 0; c < 4; c++) texels[t][c] = (float)((t * 3 + c) % 16) / 15.0f;
}

/* Instructions per second over the corpus for one round: every program run over
 * INTERP_N invocations (16 fragment quads) until target_s; an instruction is one
 * token executed by one invocation (the corpus has no branches, so ntokens each). */
static bool interp_round(bench *b, agal_context *ctx, unsigned *iters, double *rate)
{
    static agal_interp_invocation in[INTERP_N];
    static agal_interp_result out[INTERP_N];
    static float consts[256][4];
    fill_inputs(in, INTERP_N, consts, 256);
    double insts = 0, secs = 0;
    for (size_t i = 0; i < b->ncorpus; i++) {
        const agal_program *prog = b->progs[i].prog;
        tex_set ts;
        make_textures(prog, &ts);
        agal_interp_env env = {
            .constants = (const float(*)[4])consts, .nconstants = 256, .textures = ts.tex, .ntextures = ts.n};
        unsigned n = iters[i] ? iters[i] : 1;
        double t0, dt;
        for (;;) {
            t0 = tool_seconds();
            for (unsigned k = 0; k < n; k++) {
                if (agal_interp_run(ctx, prog, &env, in, INTERP_N, out) != AGAL_OK) {
                    tool_print_diags(ctx, b->progs[i].name);
                    return false;
                }
            }
            dt = tool_seconds() - t0;
            if (iters[i] || dt >= b->target_s || n >= (1u << 20)) break;
            n *= 2;
        }
        iters[i] = n;
        insts += (double)prog->ntokens * INTERP_N * n;
        secs += dt;
    }
    *rate = insts / secs;
    return true;
}

/* ---- SPIR-V size ----------------------------------------------------------------- */

/* Words of the direct module against SPIRV-Tools' -O on the same module, and
 * glslang's module for the same program, per corpus program. */
static bool report_size(bench *b, agal_context *ctx, double *max_ratio)
{
    size_t sum_direct = 0, sum_opt = 0, sum_glslang = 0, np = b->ncorpus;
    double *ratio = calloc(np, sizeof *ratio), worst = 0;
    const char *worst_name = "";
    bool ok = ratio != NULL;
    for (size_t i = 0; ok && i < np; i++) {
        const program *p = &b->progs[i];
        const uint32_t *w;
        size_t n = 0, no = 0, ng = 0;
        uint32_t *opt = NULL, *gw = NULL;
        ok = tool_translate_words(ctx, p->prog, NULL, &w, &n) == AGAL_OK;
        if (ok && agal_tool_optimize(w, n, &opt, &no) != 0) {
            fprintf(stderr, "agal-bench: %s: spirv-opt refused the module\n", p->name);
            ok = false;
        }
        if (ok) ok = glslang_compile_vulkan(p->prog->stage, p->vk_glsl, &gw, &ng, b->log, sizeof b->log);
        sum_direct += n;
        sum_opt += no;
        sum_glslang += ng;
        if (ok) ratio[i] = (double)n / (double)no;
        if (ok && ratio[i] > worst) worst = ratio[i], worst_name = p->name;
        free(opt);
        free(gw);
        agal_context_reset(ctx);
    }
    if (ok) {
        mmm r = summarize(ratio, np);
        *max_ratio = r.max;
        printf("SPIR-V size over the corpus: direct %zu words, spirv-opt -O of it %zu words, glslang %zu words\n",
               sum_direct, sum_opt, sum_glslang);
        printf("  direct / optimized per program: min %.3f, median %.3f, max %.3f (%s); total %.3f\n", r.min, r.med,
               r.max, worst_name, (double)sum_direct / (double)sum_opt);
    }
    free(ratio);
    return ok;
}

/* ---- program shapes ------------------------------------------------------------ */

/* Time per token is the same whatever a program's shape and size: no pass or
 * emitter may be quadratic in chains, swizzles, masks, dot products, relative reads
 * or blocks, and a reused context must not fault in new pages for a large program.
 * Each shape of tools/common/shapes.h at half the largest size and at the largest
 * (AGAL_MAX_TOKENS, decoded leniently), translated to SPIR-V and, apart, to GLSL in
 * a reused context warmed by one translation of each: the best of the rounds; its
 * ratio to the straight-line program's time at that size, also per byte of output
 * (a relative read is more code than an add); its growth from one size to the
 * other; and the minor page faults of the warm translations. A round times every
 * shape, size and path once, so that a disturbance of the shared machine (another
 * guest's burst lasts longer than all the rounds of one program) spoils one
 * round of each and not every round of one. */
enum { NSIZES = 2, SHAPE_PATHS = 2 };
static const unsigned shape_sizes[NSIZES] = {AGAL_MAX_TOKENS / 2, AGAL_MAX_TOKENS};
static const char *const shape_paths[SHAPE_PATHS] = {"SPIR-V", "GLSL"};

typedef struct shape_fig {
    double t;     /* seconds per translation, the best round's */
    size_t bytes; /* of the output */
} shape_fig;

static long minor_faults(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_minflt : 0;
}

static const agal_program *shape_program(bench *b, shape s, unsigned tokens)
{
    agal_stage stage;
    char *text = shape_text(s, tokens, &stage);
    const uint8_t *bytes;
    size_t size;
    const agal_program *p = NULL;
    const agal_decode_options lenient = {.size = sizeof(agal_decode_options), .lenient = true};
    bool ok = text && agal_assemble(b->pctx, text, strlen(text), stage, 2, AGAL_ASM_STRICT, &bytes, &size) == AGAL_OK &&
              agal_decode(b->pctx, bytes, size, &lenient, &p) == AGAL_OK;
    free(text);
    if (!ok) tool_print_diags(b->pctx, shape_name(s));
    return ok ? p : NULL;
}

/* One translation of p (path 0 SPIR-V, 1 GLSL) and the reset after it; *bytes the
 * output's size. */
static bool translate_shape(agal_context *ctx, const agal_program *p, int path, size_t *bytes)
{
    const uint32_t *w;
    const char *text;
    size_t n = 0;
    bool ok = path == 0 ? tool_translate_words(ctx, p, NULL, &w, &n) == AGAL_OK
                        : tool_translate_text(ctx, p, AGAL_TARGET_GLSL, NULL, &text, NULL) == AGAL_OK;
    *bytes = path == 0 ? n * 4 : ok ? strlen(text) : 0;
    agal_context_reset(ctx);
    return ok;
}

typedef const agal_program *shape_programs[SHAPE_COUNT][NSIZES];

/* f[s][z][k] for every shape, size and path: round -1 warms the context with one
 * translation of each, then the timed rounds; *faults the page faults of those. */
static bool time_shapes(const bench *b, agal_context *ctx, shape_programs p, shape_fig (*f)[NSIZES][SHAPE_PATHS],
                        long *faults)
{
    long before = 0;
    for (int r = -1; r < (int)b->rounds; r++) {
        if (r == 0) before = minor_faults();
        for (int s = 0; s < SHAPE_COUNT; s++)
            for (int z = 0; z < NSIZES; z++)
                for (int k = 0; k < SHAPE_PATHS; k++) {
                    shape_fig *x = &f[s][z][k];
                    double t0 = tool_seconds();
                    if (!translate_shape(ctx, p[s][z], k, &x->bytes)) return false;
                    double t = tool_seconds() - t0;
                    x->t = r < 0 ? INFINITY : fmin(x->t, t);
                }
    }
    *faults = minor_faults() - before;
    return true;
}

typedef struct worst {
    double v;
    shape s;
} worst;

static void note_worst(worst *w, double v, shape s)
{
    if (v > w->v) w->v = v, w->s = s;
}

static void print_shape_row(shape s, shape_fig (*f)[NSIZES][SHAPE_PATHS], worst (*w)[SHAPE_PATHS])
{
    printf("  %-18s", shape_name(s));
    for (int k = 0; k < SHAPE_PATHS; k++) {
        const shape_fig *x = &f[s][NSIZES - 1][k], *st = &f[SHAPE_STRAIGHT][NSIZES - 1][k];
        double over = x->t / st->t;
        double per_byte = over * (double)st->bytes / (double)(x->bytes ? x->bytes : 1);
        double growth = x->t / f[s][0][k].t;
        printf("  %14.3f %7.3f ms %5.2fx %5.2fx %5.2fx", f[s][0][k].t * 1e3, x->t * 1e3, over, per_byte, growth);
        note_worst(&w[0][k], over, s);
        note_worst(&w[1][k], growth, s);
    }
    printf("\n");
}

static void print_worst(const char *what, const worst *w, double target)
{
    printf("  worst %-36s SPIR-V %5.2fx (%s), GLSL %5.2fx (%s)  target <= %.1fx: %s\n", what, w[0].v,
           shape_name(w[0].s), w[1].v, shape_name(w[1].s), target,
           w[0].v <= target && w[1].v <= target ? "met" : "MISSED");
}

static bool report_shapes(bench *b, agal_context *ctx)
{
    static shape_fig f[SHAPE_COUNT][NSIZES][SHAPE_PATHS];
    shape_programs p;
    long faults = 0;
    for (int s = 0; s < SHAPE_COUNT; s++)
        for (int z = 0; z < NSIZES; z++)
            if (!(p[s][z] = shape_program(b, (shape)s, shape_sizes[z]))) return false;
    if (!time_shapes(b, ctx, p, f, &faults)) return false;
    printf(
        "program shapes: time per program in a reused context (best of %u rounds) at %u and %u tokens;\n"
        "  x straight: over straight-line code's at %u tokens, per program and per output byte; growth: %u over %u\n",
        b->rounds, shape_sizes[0], shape_sizes[1], shape_sizes[1], shape_sizes[1], shape_sizes[0]);
    printf("  %-18s", "");
    for (int k = 0; k < SHAPE_PATHS; k++)
        printf("  %-6s %7u %7u    %6s %6s %6s", shape_paths[k], shape_sizes[0], shape_sizes[1], "x str", "/byte",
               "growth");
    printf("\n");
    worst w[2][SHAPE_PATHS] = {{{0, SHAPE_STRAIGHT}}};
    for (int s = 0; s < SHAPE_COUNT; s++) print_shape_row((shape)s, f, w);
    /* The target is per token (per program, at the same size); the per-byte column
     * says how much of a miss is output: a relative read is a bounds-checked load,
     * several times an add's SPIR-V. */
    print_worst("x straight per token:", w[0], 2.0);
    print_worst("growth from half the size:", w[1], 2.2);
    unsigned warm = SHAPE_COUNT * NSIZES * SHAPE_PATHS * b->rounds;
    printf("  page faults per warm translation: %.2f (%ld over %u translations)\n", (double)faults / warm, faults,
           warm);
    return true;
}

/* ---- set-up, targets, main ------------------------------------------------------------- */

/* Decodes every program, and for the corpus the Vulkan-ready GLSL, checked once
 * through glslang so that a failure is reported here and not inside the clock
 * (not for --profile: its count would include those translations). */
static bool prepare(bench *b, agal_context *ctx)
{
    for (size_t i = 0; i < b->nprogs; i++) {
        program *p = &b->progs[i];
        if (agal_decode(b->pctx, p->bytes, p->size, NULL, &p->prog) != AGAL_OK) {
            tool_print_diags(b->pctx, p->name);
            return false;
        }
        if (p->synthetic || b->profile_loops) continue;
        const char *text;
        if (tool_translate_text(ctx, p->prog, AGAL_TARGET_GLSL, &vulkan_clip, &text, NULL) != AGAL_OK) {
            tool_print_diags(ctx, p->name);
            return false;
        }
        p->vk_glsl = bench_vulkan_glsl(text);
        agal_context_reset(ctx);
        uint32_t *w = NULL;
        size_t n;
        bool ok = p->vk_glsl && glslang_compile_vulkan(p->prog->stage, p->vk_glsl, &w, &n, b->log, sizeof b->log);
        free(w);
        if (!ok) {
            fprintf(stderr, "agal-bench: %s: glslang (Vulkan) refused the GLSL:\n%s\n%s\n", p->name, b->log,
                    p->vk_glsl ? p->vk_glsl : "");
            return false;
        }
    }
    return true;
}

typedef struct results {
    speed sp;
    double interp[MAX_ROUNDS];
    memfig long_fresh;
    size_t max_allocs; /* fresh context, translate only, over the corpus */
    double max_ratio;
    double pack_ratio; /* a pair's upload under limits over without, median */
    double pass_share; /* lower_pack_varyings' time over a pair's upload, median */
} results;

static void target(const char *what, double value, const char *unit, bool met)
{
    printf("  %-52s %10.2f %-6s %s\n", what, value, unit, met ? "met" : "MISSED");
}

static void print_targets(const bench *b, results *r)
{
    double spirv = summarize(r->sp.med[P_SPIRV], b->rounds).med;
    double glsl = summarize(r->sp.med[P_GLSL], b->rounds).med;
    double essl3 = summarize(r->sp.med[P_ESSL3], b->rounds).med;
    double speedup = summarize(r->sp.speedup, b->rounds).med;
    double glsl_ratio = summarize(r->sp.glsl_ratio, b->rounds).med;
    double essl3_ratio = summarize(r->sp.essl3_ratio, b->rounds).med;
    printf("targets (stated for a 2-core machine; medians of the rounds):\n");
    /* issue 39's */
    target("direct SPIR-V median per corpus program <= 1.5 us", spirv * 1e6, "us", spirv <= 1.5e-6);
    target("GLSL 330 median per corpus program <= 2.0 us", glsl * 1e6, "us", glsl <= 2.0e-6);
    target("GLSL ES 3.00 median per corpus program <= 2.0 us", essl3 * 1e6, "us", essl3 <= 2.0e-6);
    target("speedup over the glslang path >= 100x", speedup, "x", speedup >= 100);
    target("GLSL 330 time <= 1.5x direct SPIR-V's (median per program)", glsl_ratio, "x", glsl_ratio <= 1.5);
    target("GLSL ES 3.00 time <= 1.5x direct SPIR-V's (median)", essl3_ratio, "x", essl3_ratio <= 1.5);
    target("hook allocations per translation <= 16 (fresh, max)", (double)r->max_allocs, "calls", r->max_allocs <= 16);
    target("peak heap, 200-token program <= 64 KiB (fresh)", r->long_fresh.peak / 1024.0, "KiB",
           r->long_fresh.peak <= 64 * 1024);
    target("SPIR-V size <= 1.25x spirv-opt -O (max over corpus)", r->max_ratio, "x", r->max_ratio <= 1.25);
    target("lower_pack_varyings <= 5% of a pair's translation (median)", 100 * r->pass_share, "%",
           r->pass_share <= 0.05);
}

static size_t max_fresh_allocs(const bench *b)
{
    size_t mx = 0;
    for (size_t i = 0; i < b->ncorpus; i++) {
        memfig m;
        if (measure_memory(&b->progs[i], true, false, &m) && m.allocs > mx) mx = m.allocs;
    }
    return mx;
}

/* ---- pairs under limits (lower_pack_varyings) ----------------------------------- */

/* The corpus pair of vertex program i (X.vert.agal with X.frag.agal): the fragment
 * program's index, or SIZE_MAX. */
static size_t fragment_of(const bench *b, size_t i)
{
    const char *name = b->progs[i].name, *dot = strstr(name, ".vert.agal");
    if (!dot || dot[10]) return SIZE_MAX;
    for (size_t j = 0; j < b->ncorpus; j++)
        if (!strncmp(b->progs[j].name, name, (size_t)(dot - name)) &&
            !strcmp(b->progs[j].name + (dot - name), ".frag.agal"))
            return j;
    return SIZE_MAX;
}

static bool upload_once(bench *b, const measured *m, agal_context *ctx)
{
    agal_upload_result r = agal_upload_result_init();
    bool ok = agal_upload(ctx, m->p->bytes, m->p->size, m->f->bytes, m->f->size, m->upload, &r) == AGAL_OK;
    agal_context_reset(ctx);
    if (!ok) snprintf(b->log, sizeof b->log, "upload of %s failed", m->p->name);
    return ok;
}

/* Seconds per agal_upload of the pair (SPIR-V), under limits or not; *iters as in
 * time_calls. */
static bool time_upload(bench *b, const program *v, const program *f, const agal_limits *limits, agal_context *ctx,
                        unsigned *iters, double *t)
{
    agal_upload_options o = agal_upload_options_init();
    o.limits = limits;
    return time_calls(b, &(measured){.once = upload_once, .p = v, .f = f, .upload = &o}, ctx, iters, t);
}

static bool pipelines_once(bench *b, const measured *m, agal_context *ctx)
{
    agal_ir *fir, *vir;
    bool ok =
        agal_translate_pipeline(ctx, m->f->prog, AGAL_TARGET_SPIRV, AGAL_CLIP_DEFAULT, 0, m->plan, &fir) == AGAL_OK &&
        agal_translate_pipeline(ctx, m->p->prog, AGAL_TARGET_SPIRV, AGAL_CLIP_DEFAULT, 0, m->plan, &vir) == AGAL_OK;
    agal_context_reset(ctx);
    if (!ok) snprintf(b->log, sizeof b->log, "pipeline of %s failed", m->p->name);
    return ok;
}

/* Seconds per pipeline of both programs of a pair for SPIR-V, the varyings packed
 * by plan or not (NULL): what lower_pack_varyings adds, with the optimizations after
 * it, without the emission or the upload. */
static bool time_pipelines(bench *b, const program *v, const program *f, const agal_ir_packing *plan, agal_context *ctx,
                           unsigned *iters, double *t)
{
    return time_calls(b, &(measured){.once = pipelines_once, .p = v, .f = f, .plan = plan}, ctx, iters, t);
}

/* The pair's packing as agal_upload plans it under limits (its tokens' masks). */
static void pair_plan(agal_context *ctx, const program *v, const program *f, agal_ir_packing *plan)
{
    agal_reflection vr, fr;
    uint8_t read[16] = {0}, written[16] = {0};
    if (agal_reflect(ctx, f->prog, &fr) == AGAL_OK && agal_reflect(ctx, v->prog, &vr) == AGAL_OK)
        for (unsigned n = 0; n < 16; n++)
            read[n] = (uint8_t)fr.varying_mask[n], written[n] = (uint8_t)vr.varying_mask[n];
    agal_pack_plan(read, written, 0, plan);
    agal_context_reset(ctx);
}

/* lower_pack_varyings' cost: the pair's pipelines with the pass (and the optimizations
 * of what it adds) less without, over the pair's whole unlimited upload; per round
 * the median over pairs. */
static bool report_pass(bench *b, agal_context *ctx, double *median_share)
{
    double share[MAX_ROUNDS], ps[256];
    unsigned iters[256][3] = {{0}};
    for (unsigned r = 0; r < b->rounds; r++) {
        size_t n = 0;
        for (size_t i = 0; i < b->ncorpus && n < 256; i++) {
            size_t j = fragment_of(b, i);
            if (j == SIZE_MAX) continue;
            agal_ir_packing plan;
            pair_plan(ctx, &b->progs[i], &b->progs[j], &plan);
            double plain, packed, upload;
            if (!time_pipelines(b, &b->progs[i], &b->progs[j], NULL, ctx, &iters[n][0], &plain) ||
                !time_pipelines(b, &b->progs[i], &b->progs[j], &plan, ctx, &iters[n][1], &packed) ||
                !time_upload(b, &b->progs[i], &b->progs[j], NULL, ctx, &iters[n][2], &upload))
                return false;
            ps[n++] = (packed - plain) / upload;
        }
        share[r] = median(ps, n);
    }
    mmm m = summarize(share, b->rounds);
    *median_share = m.med;
    printf("lower_pack_varyings: the pair's pipelines with it less without, over its unlimited upload, median over "
           "pairs: %.1f%% %.1f%% %.1f%%\n",
           100 * m.min, 100 * m.med, 100 * m.max);
    return true;
}

/* What a pair's upload costs under limits (the vulkan preset: every corpus pair fits,
 * its varyings packed and its needs counted) over the same upload without: per
 * round the median over pairs of the ratio, each pair timed both ways in turn. */
static bool report_packing(bench *b, agal_context *ctx, double *median_ratio)
{
    agal_limits vulkan = agal_limits_init();
    agal_limits_preset("vulkan", &vulkan);
    double ratio[MAX_ROUNDS], pr[256];
    unsigned iters[256][2] = {{0}};
    for (unsigned r = 0; r < b->rounds; r++) {
        size_t n = 0;
        for (size_t i = 0; i < b->ncorpus && n < 256; i++) {
            size_t j = fragment_of(b, i);
            if (j == SIZE_MAX) continue;
            double plain, packed;
            if (!time_upload(b, &b->progs[i], &b->progs[j], NULL, ctx, &iters[n][0], &plain) ||
                !time_upload(b, &b->progs[i], &b->progs[j], &vulkan, ctx, &iters[n][1], &packed))
                return false;
            pr[n++] = packed / plain;
        }
        ratio[r] = median(pr, n);
    }
    mmm m = summarize(ratio, b->rounds);
    *median_ratio = m.med;
    printf("pairs under limits (vulkan: varyings packed, needs counted) / unlimited, agal_upload to SPIR-V, median "
           "over pairs: %.3f %.3f %.3f x\n",
           m.min, m.med, m.max);
    return true;
}

/* ---- what an emulator calls: the upload and a draw's key ---------------------------- */

static bool key_once(bench *b, const measured *m, agal_context *ctx)
{
    (void)ctx;
    agal_pipeline_key full, baked;
    agal_pipeline_key_make(m->uploaded, m->state, &full);
    agal_pipeline_key_baked(&full, AGAL_DYNAMIC_VULKAN, &baked);
    b->sink += agal_pipeline_key_hash(&baked);
    return true;
}

/* Seconds per agal_upload of pair (v, f) with o in ctx, and per draw key of that
 * upload with state s (the upload made once in kctx); *iters as in time_calls. */
static bool time_runtime(bench *b, const program *v, const program *f, const agal_upload_options *o,
                         const agal_context3d_state *s, agal_context *ctx, agal_context *kctx, unsigned iters[2],
                         double *upload, double *key)
{
    agal_upload_result u = agal_upload_result_init();
    bool ok = time_calls(b, &(measured){.once = upload_once, .p = v, .f = f, .upload = o}, ctx, &iters[0], upload);
    if (ok && agal_upload(kctx, v->bytes, v->size, f->bytes, f->size, o, &u) != AGAL_OK) {
        snprintf(b->log, sizeof b->log, "upload of %s failed", v->name);
        ok = false;
    }
    ok = ok && time_calls(b, &(measured){.once = key_once, .uploaded = &u, .state = s}, kctx, &iters[1], key);
    agal_context_reset(kctx);
    return ok;
}

/* Per round, the median over the corpus pairs of an agal_upload to GLSL ES 3.00 for
 * a single-sampled canvas (as the web package's first-draw bench uploads) and of a
 * draw's key: agal_pipeline_key_make, _baked and _hash, what a cache looks up at
 * every draw. */
static bool report_runtime(bench *b, agal_context *ctx)
{
    agal_upload_options o = agal_upload_options_init();
    o.target = AGAL_TARGET_ESSL3, o.samples = 1;
    agal_context3d_state state;
    agal_context3d_state_init(&state, AGAL_C3D_STANDARD);
    double up[MAX_ROUNDS], key[MAX_ROUNDS], pu[256], pk[256];
    unsigned iters[256][2] = {{0}};
    agal_context *kctx = agal_context_new(NULL, NULL);
    bool ok = kctx != NULL;
    for (unsigned r = 0; ok && r < b->rounds; r++) {
        size_t n = 0;
        for (size_t i = 0; ok && i < b->ncorpus && n < 256; i++) {
            size_t j = fragment_of(b, i);
            if (j == SIZE_MAX) continue;
            ok = time_runtime(b, &b->progs[i], &b->progs[j], &o, &state, ctx, kctx, iters[n], &pu[n], &pk[n]);
            n++;
        }
        if (ok) up[r] = median(pu, n), key[r] = median(pk, n);
    }
    agal_context_free(kctx);
    if (!ok) return false;
    mmm u = summarize(up, b->rounds), k = summarize(key, b->rounds);
    printf("agal_upload of a corpus pair to GLSL ES 3.00, samples 1, median over pairs: %.2f %.2f %.2f us\n",
           u.min * 1e6, u.med * 1e6, u.max * 1e6);
    printf("a draw's pipeline key (make, baked for Vulkan, hash), median over pairs: %.1f %.1f %.1f ns\n", k.min * 1e9,
           k.med * 1e9, k.max * 1e9);
    return true;
}

static bool run_all(bench *b, agal_context *ctx, results *r)
{
    unsigned(*iters)[NPATHS] = calloc(b->nprogs, sizeof *iters);
    unsigned *iiters = calloc(b->ncorpus, sizeof *iiters);
    bool ok = iters && iiters;
    tool_progress pg; /* rounds: speed, then the interpreter */
    tool_progress_start(&pg, "agal-bench", 2 * b->rounds);
    for (unsigned k = 0; ok && k < b->rounds; k++) {
        tool_progress_show(&pg, k + 1);
        ok = speed_round(b, ctx, iters, k, &r->sp);
    }
    for (unsigned k = 0; ok && k < b->rounds; k++) {
        tool_progress_show(&pg, b->rounds + k + 1);
        ok = interp_round(b, ctx, iiters, &r->interp[k]);
    }
    tool_progress_clear(&pg);
    free(iters);
    free(iiters);
    if (!ok) return false;
    print_speed(b, &r->sp);
    mmm ir = summarize(r->interp, b->rounds);
    printf("interpreter: %.2f %.2f %.2f M instructions/s (token x invocation, %d invocations a run)\n", ir.min / 1e6,
           ir.med / 1e6, ir.max / 1e6, INTERP_N);
    if (!report_memory(b, &r->long_fresh)) return false;
    r->max_allocs = max_fresh_allocs(b);
    return report_size(b, ctx, &r->max_ratio) && report_packing(b, ctx, &r->pack_ratio) &&
           report_pass(b, ctx, &r->pass_share) && report_runtime(b, ctx) && report_shapes(b, ctx);
}

/* One target's loop alone (--profile, --target): no clock, no glslang, nothing
 * else to count. */
static bool profile_once(bench *b, const program *p, agal_context *ctx)
{
    bool ok;
    if (b->profile_decode) {
        const agal_program *out;
        ok = agal_decode(ctx, p->bytes, p->size, NULL, &out) == AGAL_OK;
    } else if (b->profile_target == AGAL_TARGET_SPIRV) {
        const uint32_t *w;
        size_t n;
        ok = tool_translate_words(ctx, p->prog, NULL, &w, &n) == AGAL_OK;
    } else {
        const char *text;
        agal_status st = tool_translate_text(ctx, p->prog, b->profile_target, NULL, &text, NULL);
        ok = st == AGAL_OK || (st == AGAL_ERR_UNSUPPORTED && b->profile_target == AGAL_TARGET_ESSL1);
    }
    if (!ok) {
        snprintf(b->log, sizeof b->log, "%s: %s failed", p->name, b->profile_decode ? "decoding" : "translation");
        tool_print_diags(ctx, p->name);
    }
    agal_context_reset(ctx);
    return ok;
}

static const agal_program *shape_program(bench *b, shape s, unsigned tokens);

/* --profile N --shape NAME: the shape's largest program (AGAL_MAX_TOKENS), N times,
 * so that callgrind sees what it pays per token that straight-line code does not. */
static bool profile_shape_loop(bench *b, agal_context *ctx)
{
    program p = {.name = (char *)shape_name((shape)b->profile_shape)};
    p.prog = shape_program(b, (shape)b->profile_shape, AGAL_MAX_TOKENS);
    bool ok = p.prog != NULL;
    for (unsigned k = 0; ok && k < b->profile_loops; k++) ok = profile_once(b, &p, ctx);
    return ok;
}

/* --profile N --target pack (or pairs): each corpus pair's two pipelines for
 * SPIR-V as report_pass times them, with the packing plan (or without), N times:
 * the pass's line in instructions is the difference of the two counts. */
static bool profile_pairs_loop(bench *b, agal_context *ctx)
{
    bool ok = true;
    for (size_t i = 0; ok && i < b->ncorpus; i++) {
        size_t j = fragment_of(b, i);
        if (j == SIZE_MAX) continue;
        agal_ir_packing plan;
        pair_plan(ctx, &b->progs[i], &b->progs[j], &plan);
        measured m = {.p = &b->progs[i], .f = &b->progs[j], .plan = b->profile_pairs == 2 ? &plan : NULL};
        for (unsigned k = 0; ok && k < b->profile_loops; k++) ok = pipelines_once(b, &m, ctx);
    }
    return ok;
}

static bool profile_loop(bench *b, agal_context *ctx)
{
    if (b->profile_shape >= 0) return profile_shape_loop(b, ctx);
    if (b->profile_pairs) return profile_pairs_loop(b, ctx);
    tool_progress pg;
    tool_progress_start(&pg, "agal-bench", b->profile_loops);
    bool ok = true;
    for (unsigned k = 0; ok && k < b->profile_loops; k++) {
        tool_progress_show(&pg, k + 1);
        for (size_t i = 0; ok && i < b->ncorpus; i++) ok = profile_once(b, &b->progs[i], ctx);
    }
    tool_progress_clear(&pg);
    return ok;
}

/* --driver: the corpus's pairs (X.vert.agal with X.frag.agal), to bench_driver.c. */
static bool run_driver(const bench *b)
{
#ifdef AGAL_BENCH_HAVE_DRIVER
    bench_pair *pairs = calloc(b->ncorpus, sizeof *pairs);
    size_t n = 0;
    char stems[64][256];
    for (size_t i = 0; pairs && i < b->ncorpus && n < 64; i++) {
        const char *name = b->progs[i].name, *dot = strstr(name, ".vert.agal");
        if (!dot || dot[10] || (size_t)(dot - name) >= sizeof stems[0]) continue;
        snprintf(stems[n], sizeof stems[n], "%.*s", (int)(dot - name), name);
        char frag[300];
        snprintf(frag, sizeof frag, "%s.frag.agal", stems[n]);
        for (size_t j = 0; j < b->ncorpus; j++)
            if (!strcmp(b->progs[j].name, frag)) {
                pairs[n] = (bench_pair){stems[n], b->progs[i].prog, b->progs[j].prog};
                n++;
                break;
            }
    }
    bool ok = pairs && n > 0;
    if (!ok)
        fprintf(stderr, "agal-bench: %s\n",
                pairs ? "no X.vert.agal / X.frag.agal pair in the corpus" : "out of memory");
    if (ok) ok = bench_driver(pairs, n, b->rounds);
    free(pairs);
    return ok;
#else
    (void)b;
    fprintf(stderr, "agal-bench: --driver needs the harness (Vulkan, EGL and GL were not found at set-up)\n");
    return false;
#endif
}

static int usage(const char *msg)
{
    if (msg) fprintf(stderr, "agal-bench: %s\n", msg);
    fprintf(stderr,
            "usage: agal-bench [--quick] [--rounds N] [--corpus DIR] [--profile N [--target T] [--shape S]]\n"
            "  --quick       2 rounds of short measurements (CI: shows it works)\n"
            "  --rounds N    rounds (default 7, at most %d)\n"
            "  --corpus DIR  the .agal files (default %s/shaders)\n"
            "  --profile N   only translate, N times over the corpus (for callgrind)\n"
            "  --target T    what --profile translates to: spirv (default), glsl, essl3,\n"
            "                essl1 (without the programs it cannot express), wgsl;\n"
            "                or decode: only decode and validate the corpus's bytes;\n"
            "                or pack (pairs): the corpus pairs' pipelines with (without)\n"
            "                their varyings packed, N times each\n"
            "  --shape S     what --profile translates instead of the corpus: one program of\n"
            "                %u tokens of shape S (straight, component, swizzle, masks, dot,\n"
            "                relative, blocks), N times\n"
            "  --driver      only the GPU driver's creation and first-draw times per corpus pair\n"
            "                (Vulkan and GL; rounds default 5, 1 with --quick)\n",
            MAX_ROUNDS, AGAL_SOURCE_DIR, (unsigned)AGAL_MAX_TOKENS);
    return 2;
}

static bool profile_target(const char *name, agal_target *out)
{
    static const struct {
        const char *name;
        agal_target target;
    } names[] = {{"spirv", AGAL_TARGET_SPIRV},
                 {"glsl", AGAL_TARGET_GLSL},
                 {"essl3", AGAL_TARGET_ESSL3},
                 {"essl1", AGAL_TARGET_ESSL1},
                 {"wgsl", AGAL_TARGET_WGSL}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(name, names[i].name)) {
            *out = names[i].target;
            return true;
        }
    return false;
}

/* --shape's words, in shapes.h's order. */
static int shape_by_word(const char *word)
{
    static const char *const words[SHAPE_COUNT] = {"straight", "component", "swizzle", "masks",
                                                   "dot",      "relative",  "blocks"};
    for (int s = 0; s < SHAPE_COUNT; s++)
        if (!strcmp(word, words[s])) return s;
    return -1;
}

static int parse_args(int argc, char **argv, bench *b, const char **corpus)
{
    b->profile_shape = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--quick")) {
            b->quick = true;
        } else if (!strcmp(a, "--rounds") && i + 1 < argc) {
            if (!tool_parse_unsigned("agal-bench", a, argv[++i], 1, MAX_ROUNDS, &b->rounds)) return usage(NULL);
        } else if (!strcmp(a, "--profile") && i + 1 < argc) {
            if (!tool_parse_unsigned("agal-bench", a, argv[++i], 1, 1000000, &b->profile_loops)) return usage(NULL);
        } else if (!strcmp(a, "--target") && i + 1 < argc) {
            b->profile_decode = !strcmp(argv[++i], "decode");
            b->profile_pairs = !strcmp(argv[i], "pack") ? 2 : !strcmp(argv[i], "pairs");
            if (!b->profile_decode && !b->profile_pairs && !profile_target(argv[i], &b->profile_target))
                return usage("--target: not spirv, glsl, essl3, essl1, wgsl, decode, pack or pairs");
        } else if (!strcmp(a, "--shape") && i + 1 < argc) {
            if ((b->profile_shape = shape_by_word(argv[++i])) < 0)
                return usage("--shape: not straight, component, swizzle, masks, dot, relative or blocks");
        } else if (!strcmp(a, "--driver")) {
            b->driver = true;
        } else if (!strcmp(a, "--corpus") && i + 1 < argc) {
            *corpus = argv[++i];
        } else {
            return usage(strcmp(a, "-h") && strcmp(a, "--help") ? "unknown argument" : NULL);
        }
    }
    if (b->profile_shape >= 0 && !b->profile_loops) return usage("--shape needs --profile N");
    if (b->profile_shape >= 0 && b->profile_decode)
        return usage("--shape's programs have no bytes: not --target decode");
    if (b->profile_shape >= 0 && b->profile_pairs) return usage("--shape's programs are no pairs: not --target pack");
    if (b->driver && b->rounds == 0) b->rounds = b->quick ? 1 : 5;
    if (b->quick && b->rounds == 0) b->rounds = 2;
    if (b->rounds == 0) b->rounds = 7;
    b->target_s = b->quick ? 0.2e-3 : 20e-3;
    return 0;
}

static void free_bench(bench *b)
{
    for (size_t i = 0; i < b->nprogs; i++) {
        free(b->progs[i].name);
        free(b->progs[i].bytes);
        free(b->progs[i].vk_glsl);
    }
    free(b->progs);
    agal_context_free(b->pctx);
}

int main(int argc, char **argv)
{
    static bench b;
    static results r;
    const char *corpus = AGAL_SOURCE_DIR "/shaders";
    int rc = parse_args(argc, argv, &b, &corpus);
    if (rc) return tool_exit("agal-bench", rc);
    b.pctx = agal_context_new(NULL, NULL);
    agal_context *ctx = agal_context_new(NULL, NULL);
    if (!b.pctx || !ctx || !glslang_check_init()) {
        fprintf(stderr, "agal-bench: cannot start (out of memory or glslang)\n");
        agal_context_free(ctx);
        agal_context_free(b.pctx);
        return 2;
    }
    rc = load_corpus(&b, corpus);
    bool ok = !rc && add_long_program(&b) && prepare(&b, ctx);
    if (ok && b.driver) {
        ok = run_driver(&b);
        glslang_check_fini();
        agal_context_free(ctx);
        free_bench(&b);
        return tool_exit("agal-bench", ok ? 0 : 1);
    }
    if (ok && b.profile_loops) {
        ok = profile_loop(&b, ctx);
        printf("%s\n", ok ? "profile loop done" : "profile loop failed");
        glslang_check_fini();
        agal_context_free(ctx);
        free_bench(&b);
        return tool_exit("agal-bench", ok ? 0 : 1);
    }
    if (ok) {
        printf("agal-bench: %zu programs, %u tokens, from %s; %u rounds%s\n", b.ncorpus, corpus_tokens(&b), corpus,
               b.rounds, b.quick ? " (quick)" : "");
        ok = run_all(&b, ctx, &r);
    }
    if (ok) {
        print_targets(&b, &r);
        printf("speedup over glslang: %.1fx\n", summarize(r.sp.speedup, b.rounds).med);
    } else {
        fprintf(stderr, "agal-bench: failed%s%s\n", b.log[0] ? ": " : "", b.log);
    }
    glslang_check_fini();
    agal_context_free(ctx);
    free_bench(&b);
    return tool_exit("agal-bench", ok ? 0 : rc ? rc : 1);
}
