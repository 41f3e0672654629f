/* bench_driver.c: agal-bench --driver, what the GPU driver spends on our output.
 *
 * An emulator pays for a Program3D.upload three times: our decode and translation
 * (microseconds), the driver's shader and pipeline creation, and the driver's own
 * compile of machine code, which llvmpipe, lavapipe and most GL drivers do at the
 * first draw that uses the program (tens of milliseconds). Only the last two
 * depend on what we emit, so this times them. Per corpus pair, uploaded as an
 * emulator does (agal_upload) and drawn once on `agalrun compare`'s seeded inputs
 * (compare_inputs.c), four versions of the same pair:
 *   spirv      our SPIR-V on Vulkan
 *   spirv-opt  SPIRV-Tools' performance passes over it (agal2spv -O), on Vulkan
 *   glslang    glslang's SPIR-V of our GLSL (made Vulkan-ready), on Vulkan
 *   gl         our GLSL 330 on GL
 * each: creation (modules + pipeline; compile + link) and the first draw
 * (harness_result's compile_s and draw_s), and a control, our SPIR-V drawn as a
 * fifth version. Mesa's disk cache is off (set before a driver loads) and
 * validation off, so every compile is a real one and nothing is counted that an
 * emulator's release build would not pay.
 *
 * Noise. On a shared machine the CPU's speed drifts within seconds by more than the
 * differences between versions (docs/benchmark.md), so each figure is made to
 * cancel it. A round draws, pair after pair, the versions in order and back again
 * (ABBA), and takes each version's mean: a drift during the pair's draws moves every
 * version alike. Each round starts at another version, since a draw's place matters
 * too. A pair's time is the best of its rounds; its ratio is the median over rounds
 * of that round's ratio, so a burst that hit one draw of a round is dropped. The
 * control's line is what noise alone makes of a ratio. The summaries are medians
 * over pairs and the worst pair. */
#include "agal/stage3d.h"
#include "bench.h"
#include "compare.h"
#include "glslang_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* tools/common/spvopt.cpp */
int agal_tool_optimize(const uint32_t *in, size_t n, uint32_t **out, size_t *nout);

enum version { V_SPIRV, V_SPIRV_OPT, V_GLSLANG, V_GL, V_SPIRV_AGAIN, NVERSIONS };
static const char *const version_names[NVERSIONS] = {"spirv", "spirv-opt", "glslang", "gl", "spirv again"};
enum { NSHOWN = V_SPIRV_AGAIN }; /* the table's versions; the control only has its line */

/* What one pair's draws need, made once before the rounds. */
typedef struct driver_pair {
    const bench_pair *bp;
    agal_context *ctx;             /* the uploads */
    agal_upload_result vk, gl;     /* SPIR-V, GLSL 330 */
    uint32_t *opt[2], *glslang[2]; /* [stage], malloc'd */
    size_t nopt[2], nglslang[2];
    pair_case c;
    double *create[NVERSIONS], *draw[NVERSIONS]; /* per round, seconds */
} driver_pair;

typedef struct driver {
    harness_vk *vk;
    harness_gl *gl;
    driver_pair *pairs;
    size_t npairs;
    unsigned rounds;
    char err[2048];
} driver;

static bool upload(driver_pair *p, agal_target target, agal_clip clip, agal_upload_result *out)
{
    const agal_program *vp = p->bp->vp, *fp = p->bp->fp;
    size_t vn, fn;
    const uint8_t *vb = tool_encode_tokens(p->ctx, vp->tokens, vp->ntokens, AGAL_VERTEX, vp->version, &vn);
    const uint8_t *fb = tool_encode_tokens(p->ctx, fp->tokens, fp->ntokens, AGAL_FRAGMENT, fp->version, &fn);
    agal_upload_options uo = {.size = sizeof(agal_upload_options),
                              .target = target,
                              .profile = fp->profile,
                              .lenient = vp->lenient || fp->lenient,
                              .clip = clip};
    *out = agal_upload_result_init();
    if (vb && fb && agal_upload(p->ctx, vb, vn, fb, fn, &uo, out) == AGAL_OK) return true;
    tool_print_diags(p->ctx, p->bp->name);
    return false;
}

/* spirv-opt of our SPIR-V, and glslang's SPIR-V of our GLSL made Vulkan-ready (the
 * upload's GLSL with Vulkan's clip fix): both keep the SPIR-V upload's bindings. */
static bool other_versions(driver *dr, driver_pair *p)
{
    agal_upload_result vkglsl = agal_upload_result_init();
    if (!upload(p, AGAL_TARGET_GLSL, AGAL_CLIP_VULKAN, &vkglsl)) return false;
    for (int st = 0; st < 2; st++) {
        const agal_shader *code = &p->vk.shaders[st];
        if (agal_tool_optimize(code->words, code->nwords, &p->opt[st], &p->nopt[st])) {
            fprintf(stderr, "agal-bench: %s: spirv-opt refused the module\n", p->bp->name);
            return false;
        }
        char *text = bench_vulkan_glsl(vkglsl.shaders[st].text);
        bool ok = text && glslang_compile_vulkan((agal_stage)st, text, &p->glslang[st], &p->nglslang[st], dr->err,
                                                 sizeof dr->err);
        free(text);
        if (!ok) {
            fprintf(stderr, "agal-bench: %s: glslang refused the GLSL: %s\n", p->bp->name, dr->err);
            return false;
        }
    }
    return true;
}

static bool prepare_pair(driver *dr, driver_pair *p, const bench_pair *bp)
{
    p->bp = bp;
    p->ctx = agal_context_new(NULL, NULL);
    bool ok = p->ctx && cmp_case_make(&p->c, bp->vp, bp->fp, 1) == 0;
    for (int v = 0; ok && v < NVERSIONS; v++) {
        p->create[v] = calloc(dr->rounds, sizeof *p->create[v]);
        p->draw[v] = calloc(dr->rounds, sizeof *p->draw[v]);
        ok = p->create[v] && p->draw[v];
    }
    if (!ok) fprintf(stderr, "agal-bench: out of memory\n");
    return ok && upload(p, AGAL_TARGET_SPIRV, AGAL_CLIP_DEFAULT, &p->vk) &&
           upload(p, AGAL_TARGET_GLSL, AGAL_CLIP_DEFAULT, &p->gl) && other_versions(dr, p);
}

static void free_pair(driver_pair *p)
{
    for (int st = 0; st < 2; st++) {
        free(p->opt[st]);
        free(p->glslang[st]);
    }
    for (int v = 0; v < NVERSIONS; v++) {
        free(p->create[v]);
        free(p->draw[v]);
    }
    cmp_case_free(&p->c);
    agal_context_free(p->ctx);
}

/* The pair's draw (cmp_pair_draw) in version v. */
static void make_draw(const driver_pair *p, enum version v, harness_draw *d)
{
    cmp_pair_draw(&p->c, v == V_GL ? &p->gl : &p->vk, d);
    uint32_t *const *words = v == V_SPIRV_OPT ? p->opt : v == V_GLSLANG ? p->glslang : NULL;
    const size_t *n = v == V_SPIRV_OPT ? p->nopt : p->nglslang;
    if (!words) return;
    d->vs_spirv = words[AGAL_VERTEX];
    d->vs_words = n[AGAL_VERTEX];
    d->fs_spirv = words[AGAL_FRAGMENT];
    d->fs_words = n[AGAL_FRAGMENT];
}

static bool measure(driver *dr, driver_pair *p, enum version v, unsigned round, bool again)
{
    harness_draw d;
    harness_result r;
    make_draw(p, v, &d);
    int rc = v == V_GL ? harness_gl_run(dr->gl, &d, &r, dr->err, sizeof dr->err)
                       : harness_vk_run(dr->vk, &d, &r, dr->err, sizeof dr->err);
    if (rc) {
        fprintf(stderr, "agal-bench: %s (%s): %s\n", p->bp->name, version_names[v], dr->err);
        return false;
    }
    p->create[v][round] = again ? (p->create[v][round] + r.compile_s) / 2 : r.compile_s;
    p->draw[v][round] = again ? (p->draw[v][round] + r.draw_s) / 2 : r.draw_s;
    harness_result_free(&r);
    return true;
}

static bool run_rounds(driver *dr)
{
    tool_progress pg;
    tool_progress_start(&pg, "agal-bench --driver", dr->rounds * (unsigned)dr->npairs);
    bool ok = true;
    for (unsigned k = 0; ok && k < dr->rounds; k++)
        for (size_t i = 0; ok && i < dr->npairs; i++) {
            tool_progress_show(&pg, k * (unsigned)dr->npairs + (unsigned)i + 1);
            /* the versions in order and back (ABBA), each figure the mean of its two
             * draws: a machine whose speed drifts during the round slows all alike.
             * Round k starts at version k, so over NVERSIONS rounds each version
             * draws once in each place (after another pair's draw, after GL's, ...) */
            for (int j = 0; ok && j < 2 * NVERSIONS; j++) {
                int place = j < NVERSIONS ? j : 2 * NVERSIONS - 1 - j;
                ok = measure(dr, &dr->pairs[i], (enum version)((place + k) % NVERSIONS), k, j >= NVERSIONS);
            }
        }
    tool_progress_clear(&pg);
    return ok;
}

/* ---- the report ---------------------------------------------------------------- */

/* The ratios reported: GLSL on GL / SPIR-V on Vulkan, our SPIR-V / spirv-opt, and
 * the control, our SPIR-V against itself: what the machine's noise alone makes of a
 * ratio, so the other two can be read against it. */
enum { R_GL, R_OPT, R_NOISE, NRATIOS };
static const enum version ratio_of[NRATIOS][2] = {{V_GL, V_SPIRV}, {V_SPIRV, V_SPIRV_OPT}, {V_SPIRV_AGAIN, V_SPIRV}};

/* A pair's figures: the best of the rounds. */
typedef struct pair_fig {
    double create[NVERSIONS], draw[NVERSIONS], ratio[NRATIOS];
} pair_fig;

static double least(const double *v, unsigned n)
{
    double m = v[0];
    for (unsigned i = 1; i < n; i++) m = v[i] < m ? v[i] : m;
    return m;
}

/* A pair's ratio: the median over rounds of the ratio within each round. The two
 * draws of a round are a fraction of a second apart, so a slow minute of a shared
 * machine scales both, and the median drops a round that a burst hit in one. */
static double round_ratio(const driver_pair *p, unsigned rounds, unsigned which)
{
    double *r = malloc(rounds * sizeof *r), m = NAN;
    for (unsigned k = 0; r && k < rounds; k++) r[k] = p->draw[ratio_of[which][0]][k] / p->draw[ratio_of[which][1]][k];
    if (r) m = median(r, rounds);
    free(r);
    return m;
}

static void ratio_line(const char *what, const pair_fig *f, const driver *dr, unsigned which)
{
    double *r = malloc(dr->npairs * sizeof *r), worst = 0;
    const char *worst_name = "";
    if (!r) return;
    for (size_t i = 0; i < dr->npairs; i++) {
        r[i] = f[i].ratio[which];
        if (r[i] > worst) worst = r[i], worst_name = dr->pairs[i].bp->name;
    }
    printf("driver: %s, first draw: median %.2fx, worst %.2fx (%s)\n", what, median(r, dr->npairs), worst, worst_name);
    free(r);
}

static void print_summary(const pair_fig *f, const driver *dr)
{
    double *col = malloc(dr->npairs * sizeof *col);
    if (!col) return;
    printf("  %-20s", "median over pairs");
    for (int v = 0; v < NSHOWN; v++) {
        for (size_t i = 0; i < dr->npairs; i++) col[i] = f[i].create[v];
        double c = median(col, dr->npairs);
        for (size_t i = 0; i < dr->npairs; i++) col[i] = f[i].draw[v];
        printf(" %7.2f %7.2f", c * 1e3, median(col, dr->npairs) * 1e3);
    }
    printf("\n");
    free(col);
}

static void report(const driver *dr)
{
    pair_fig *f = calloc(dr->npairs, sizeof *f);
    if (!f) return;
    printf("driver time per pair, ms (best of %u rounds): create = modules + pipeline (Vulkan) or compile + "
           "link (GL); draw = the first draw until the GPU is done; ratios of draws: the median over rounds of "
           "each round's\n",
           dr->rounds);
    printf("  %-20s", "pair");
    for (int v = 0; v < NSHOWN; v++) printf(" %-15s", version_names[v]);
    printf(" gl/spirv spirv/opt\n  %-20s", "");
    for (int v = 0; v < NSHOWN; v++) printf(" %7s %7s", "create", "draw");
    printf("\n");
    for (size_t i = 0; i < dr->npairs; i++) {
        const driver_pair *p = &dr->pairs[i];
        printf("  %-20s", p->bp->name);
        for (int v = 0; v < NSHOWN; v++) {
            f[i].create[v] = least(p->create[v], dr->rounds);
            f[i].draw[v] = least(p->draw[v], dr->rounds);
            printf(" %7.2f %7.2f", f[i].create[v] * 1e3, f[i].draw[v] * 1e3);
        }
        for (unsigned r = 0; r < NRATIOS; r++) f[i].ratio[r] = round_ratio(p, dr->rounds, r);
        printf("   %5.2fx   %5.2fx\n", f[i].ratio[R_GL], f[i].ratio[R_OPT]);
    }
    print_summary(f, dr);
    ratio_line("noise, our SPIR-V against itself", f, dr, R_NOISE);
    ratio_line("GLSL on GL / SPIR-V on Vulkan", f, dr, R_GL);
    ratio_line("our SPIR-V / spirv-opt", f, dr, R_OPT);
    free(f);
}

bool bench_driver(const bench_pair *pairs, size_t npairs, unsigned rounds)
{
    /* Before any driver loads: a cached compile would not be the driver's work. */
    setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
    driver dr = {.rounds = rounds, .npairs = npairs};
    dr.vk = harness_vk_create(false, dr.err, sizeof dr.err);
    if (dr.vk) dr.gl = harness_gl_create(false, dr.err, sizeof dr.err);
    dr.pairs = calloc(npairs, sizeof *dr.pairs);
    bool ok = dr.vk && dr.gl && dr.pairs;
    if (!ok) fprintf(stderr, "agal-bench --driver: %s\n", dr.err[0] ? dr.err : "out of memory");
    for (size_t i = 0; ok && i < npairs; i++) ok = prepare_pair(&dr, &dr.pairs[i], &pairs[i]);
    if (ok) {
        printf("driver: %zu corpus pairs, %u rounds; Vulkan on %s, GL on %s; Mesa's shader cache off, no "
               "validation\n",
               npairs, rounds, harness_vk_device_name(dr.vk), harness_gl_renderer(dr.gl));
        ok = run_rounds(&dr);
    }
    if (ok) report(&dr);
    for (size_t i = 0; dr.pairs && i < npairs; i++) free_pair(&dr.pairs[i]);
    free(dr.pairs);
    if (dr.gl) harness_gl_destroy(dr.gl);
    if (dr.vk) harness_vk_destroy(dr.vk);
    return ok;
}
