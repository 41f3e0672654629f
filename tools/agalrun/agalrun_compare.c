/* agalrun_compare.c: `agalrun compare`, differential testing of the emitters
 * against the reference interpreter on real drivers (tools/gpu/harness*.c) and, with
 * --webgl and --webgpu, in a real browser (WebGL 2, WebGL 1 for the pairs GLSL ES
 * 1.00 can express, WebGPU with WGSL; compare_webgl.c).
 *
 *   agalrun compare VERTEX FRAGMENT [--seed N]   one pair (.agal text or bytecode)
 *   agalrun compare --corpus DIR [--seed N]      every DIR/NAME.vert.agal + NAME.frag.agal
 *   agalrun compare --random N [--seed S]        N generated pairs (tests/gen.h gen_pair)
 *   options: --vk-only, --gl-only, --webgl (add the browser's WebGL), --webgl-only
 *            (only it), --webgpu (add the browser's WebGPU), --webgpu-only (only it),
 *            --no-validation, --verbose,
 *            --inject-fault (add 0.05 to oc0.y of every pixel: the run must fail),
 *            --require-coverage (random: fail unless every opcode the version and
 *            stage allow appeared in some generated program; always reported),
 *            --separate-samplers (the SPIR-V binds each fs<i> as an image and a
 *            sampler, translate option separate_samplers, instead of combined),
 *            --limits NAME|FILE.json (every upload held to the device's limits; a pair
 *            they refuse is counted, not run: docs/binding-models.md, "Limits"),
 *            --partial-varyings (random: AGAL 2 pairs of 9 or 10 varyings the fragment
 *            program reads in part, which packed fit WebGL 1: gen_options)
 * Exit 0 only when every backend agrees with the interpreter on every output; 1 when
 * a pair disagrees, could not run, is invalid or does not link; 2 on a usage error,
 * an unreadable or oversized file, or a backend that cannot start (a missing browser;
 * a browser without WebGPU fails every WebGPU draw, with the reason).
 *
 * Each pair runs as three draws per backend; the fragment and pair draws take their
 * shaders and binding layout from agal_upload, as an emulator does, and the
 * validation layer's messenger fails the run on any warning or error:
 *  1. Vertex: the vertex program on 6 seeded vertices (attributes and vc uniform in
 *     [-2, 2]), 2 instances (3 when it reads iid), op and every varying it writes
 *     captured with transform feedback (the harness-only SPIR-V of harness_api.h,
 *     which agal_upload does not make; WebGPU, which has none, draws a point per
 *     vertex into a float target: tools/gpu/webgpu_runner.js). The emitters' default clip fix is kept (the
 *     programs are the ones a runtime gets) and applied to the interpreter's op
 *     before comparing: Vulkan y -> -y (exact), GL z -> 2z - w, WebGPU none.
 *  2. Fragment: the fragment program on an 8x8 target, fed by a generated
 *     pass-through vertex program (AGAL, uploaded with it as a pair):
 *     op = va0 over a full-screen quad with z = 0.5 + 0.2 X + 0.1 Y, and each varying
 *     the fragment program reads v<i> = m44(va0, vc[4i..4i+3]), random rows. The
 *     varyings are therefore linear over the screen (w = 1: no perspective), and the
 *     interpreter gets them exactly at pixel centres, in 2x2 quads TL, TR, BL, BR.
 *     Compared: every oc, depth (fd, or the interpolated z), and discard.
 *     Textures: one per sampler number; smooth
 *     seeded texels; 2D 8x8 with a box-filtered 4-level chain, cube 16x16 x 5 levels
 *     with a constant border ring (cube_face_levels: seamless vs per-face filtering).
 *     Cube lookups at a face tie are undefined (cmp_cube_ties) and not compared.
 *     Sampler state is what each slot holds after setProgram on a new Context3D
 *     (agal_slots_*; an ignoresampler token's slot: clamp, nearest, mipnone), on
 *     the GPU and in the interpreter.
 *  3. Pair: the pair itself through agal_upload, drawn once on the vertex draw's
 *     inputs (Vulkan, GL, WebGPU); not compared, but it must draw with no
 *     validation message: a vertex output the fragment shader does not read would
 *     be one. WebGPU's fragment and pair draws bind what agal_upload describes, as
 *     an explicit bind group layout.
 * Random pairs use every opcode with the generator's safe_domain guards (gen.h):
 * no infinities or undefined-domain inputs arise. As a safety net (hand-written
 * pairs, corpus), an output whose reference is inf or NaN is outside the defined
 * domains and counted as "undefined" instead of compared.
 *
 * Tolerances (the comparison rule, see cmp_agree()): |backend - reference| <= atol +
 * rtol * |reference| + 2 * spread. atol/rtol are the largest of the program's
 * tokens (token_tolerance(), with the GLSL 4.50 / Vulkan precision rule each rests on),
 * spread is how far the interpreter's own result moves when its inputs are
 * perturbed by a few parts in 10^5 and each sin, cos, exp and pow result by up to
 * its own bound (4 seeded perturbations; cmp_token_errors()), so an error that later
 * tokens amplify is allowed for where it lands. spread is the
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
 *
 * This file is the subcommand (options, one pair, --corpus, --random); the method
 * lives in the compare_*.c files that compare.h lists.
 */
#include "agal/text.h"
#include "compare.h"
#include "limits_arg.h"

#include <stdlib.h>
#include <string.h>

/* ---- drivers ------------------------------------------------------------------------------------------ */

/* A pair of a batch: its programs (in the batch's context) or why there are none. */
typedef struct batch_pair {
    const agal_program *vp, *fp;
    uint64_t seed;
    int status; /* 0 loaded; else the driver's reason (compare_files' exit code, random: see there) */
} batch_pair;

/* Pairs compared together: CMP_BATCH with the browser (one browser run draws them
 * all), else 1 (each pair loaded, run and reported in turn, as without it). */
static size_t batch_size(const backends *b) { return b->web ? CMP_BATCH : 1; }

/* With the browser: records the WebGL draws of the batch's pairs and draws them in
 * one browser run, which the real pass then reads (compare_webgl.c). ctx: work
 * space, reset after each pair. */
static void web_batch(agal_context *ctx, backends *b, const options *o, const batch_pair *pairs, size_t n)
{
    if (!b->web) return;
    cmp_web_forget(b->web);
    cmp_web_record(b->web);
    for (size_t i = 0; i < n; i++) {
        if (!pairs[i].status) cmp_run_pair(ctx, b, o, pairs[i].vp, pairs[i].fp, pairs[i].seed, false, NULL);
        agal_context_reset(ctx);
    }
    cmp_web_replay(b->web);
}

static int report(agal_context *ctx, backends *b, const options *o, const agal_program *vp, const agal_program *fp,
                  uint64_t seed, const char *label, stats *st)
{
    st->pairs++;
    int rc = cmp_run_pair(ctx, b, o, vp, fp, seed, false, st);
    if (rc == 0) {
        if (o->verbose) printf("%s: ok\n", label);
        return 0;
    }
    st->failed++;
    if (rc == 2) {
        printf("%s: FAILED to run (see stderr)\n", label);
        return 1;
    }
    printf("%s: FAILED (seed %llu)\n", label, (unsigned long long)seed);
    cmp_run_pair(ctx, b, o, vp, fp, seed, true, NULL);
    return 1;
}

/* Loads and links a pair into pctx: 0, 1 (invalid) or 2 (unreadable). */
static int load_pair(agal_context *pctx, const char *vpath, const char *fpath, batch_pair *out)
{
    /* text: its `// stage:` line, else the slot's */
    tool_program_opts po = {.stage = -1, .slot = AGAL_SLOT_VERTEX, .slot_stage = true};
    int rc = tool_load_program(pctx, vpath, &po, &out->vp); /* 1 invalid, 2 unreadable */
    if (rc) return rc;
    po.slot = AGAL_SLOT_FRAGMENT;
    rc = tool_load_program(pctx, fpath, &po, &out->fp);
    if (!rc) rc = tool_link_pair(pctx, "compare", vpath, out->vp, fpath, out->fp, false);
    return rc;
}

static int compare_files(agal_context *ctx, agal_context *pctx, backends *b, const options *o, const char *vpath,
                         const char *fpath, stats *st)
{
    batch_pair p = {.seed = o->seed};
    if ((p.status = load_pair(pctx, vpath, fpath, &p)) != 0) return p.status;
    web_batch(ctx, b, o, &p, 1);
    char label[1024];
    snprintf(label, sizeof label, "%s + %s", vpath, fpath);
    return report(ctx, b, o, p.vp, p.fp, o->seed, label, st);
}

static void corpus_paths(const char *dir, const char *name, char *vp, char *fp, size_t size)
{
    snprintf(vp, size, "%s/%s", dir, name);
    snprintf(fp, size, "%s/%.*s.frag.agal", dir, (int)(strlen(name) - 10), name);
}

static int compare_corpus(agal_context *ctx, agal_context *pctx, backends *b, const options *o, const char *dir,
                          stats *st)
{
    size_t n = 0, chunk = batch_size(b);
    char **names = tool_list_dir("compare", dir, ".vert.agal", &n); /* sorted, for a stable order */
    batch_pair *batch = calloc(chunk, sizeof *batch);
    if (!names || !batch) {
        if (!batch) fprintf(stderr, "compare: out of memory\n");
        tool_free_names(names);
        free(batch);
        return 2;
    }
    int rc = 0;
    tool_progress pg;
    tool_progress_start(&pg, "compare", (unsigned)n);
    pg.on &= !o->verbose; /* --verbose prints a line a pair */
    for (size_t first = 0; first < n; first += chunk) {
        size_t m = n - first < chunk ? n - first : chunk;
        char vp[4096], fp[4096];
        for (size_t k = 0; k < m; k++) {
            corpus_paths(dir, names[first + k], vp, fp, sizeof vp);
            batch[k] = (batch_pair){.seed = o->seed};
            batch[k].status = load_pair(pctx, vp, fp, &batch[k]);
        }
        web_batch(ctx, b, o, batch, m);
        for (size_t k = 0; k < m; k++) {
            corpus_paths(dir, names[first + k], vp, fp, sizeof vp);
            tool_progress_show(&pg, (unsigned)(first + k) + 1);
            char label[8200];
            snprintf(label, sizeof label, "%s + %s", vp, fp);
            int r = batch[k].status ? batch[k].status : report(ctx, b, o, batch[k].vp, batch[k].fp, o->seed, label, st);
            tool_progress_clear(&pg);
            rc = r > rc ? r : rc; /* 2 (a file unreadable) over 1 (a pair failed) */
            agal_context_reset(ctx);
        }
        agal_context_reset(pctx);
    }
    tool_free_names(names);
    free(batch);
    return rc;
}

static const agal_program *decode_gen(agal_context *ctx, const gen_program *g)
{
    static const size_t cap = GEN_MAX_BYTES;
    uint8_t *bytes = agal_alloc(ctx, cap);
    size_t size = bytes ? gen_program_encode(g, bytes, cap) : 0;
    const agal_program *p = NULL;
    if (!size || agal_decode(ctx, bytes, size, NULL, &p) != AGAL_OK) return NULL;
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

enum { GEN_REFUSED = 1, GEN_UNDECODABLE = 2 }; /* batch_pair.status of a random pair */

/* Random pair i into pctx (its status says when there is none); notes its opcodes. */
static void random_pair(agal_context *pctx, const options *o, unsigned i, gen_program *gv, gen_program *gf,
                        uint64_t seen[3][2], batch_pair *out)
{
    /* Every opcode; the generator's guards keep inputs inside the defined domains
     * (docs/format.md section 4) and magnitudes bounded, given inputs of magnitude <= 4
     * (attributes, constants in [-2, 2], varyings <= 3.8, texels in [0, 1], iid < 3)
     * and the guard constants cmp_case_make sets. */
    gen_options go = {
        .max_tokens = 40, .safe_domain = true, .plain_samplers = true, .partial_varyings = o->partial_varyings};
    uint32_t version = o->partial_varyings ? 2 : 1 + i % 3; /* AGAL 2's 10 varyings */
    *out = (batch_pair){.seed = cmp_mix(o->seed, i)};
    if (!gen_pair(gv, gf, out->seed, version, &go)) {
        out->status = GEN_REFUSED;
        return;
    }
    out->vp = decode_gen(pctx, gv);
    out->fp = decode_gen(pctx, gf);
    if (!out->vp || !out->fp) {
        out->status = GEN_UNDECODABLE;
        return;
    }
    for (uint32_t k = 0; k < out->vp->ntokens; k++) seen[version - 1][AGAL_VERTEX] |= GEN_OP(out->vp->tokens[k].op);
    for (uint32_t k = 0; k < out->fp->ntokens; k++) seen[version - 1][AGAL_FRAGMENT] |= GEN_OP(out->fp->tokens[k].op);
}

/* Runs and reports random pair i (shrinking it when it fails); 0 or 1. */
static int random_report(agal_context *ctx, backends *b, const options *o, unsigned i, batch_pair *p, stats *st)
{
    uint32_t version = 1 + i % 3;
    if (p->status == GEN_REFUSED) {
        printf("random pair %u: generator refused (seed %llu)\n", i, (unsigned long long)p->seed);
        return 1;
    }
    if (p->status == GEN_UNDECODABLE) {
        printf("random pair %u: generated program does not decode (seed %llu)\n", i, (unsigned long long)p->seed);
        return 1;
    }
    st->pairs++;
    int r = cmp_run_pair(ctx, b, o, p->vp, p->fp, p->seed, false, st);
    if (r == 1) {
        st->failed++;
        printf("random pair %u (AGAL%u, seed %llu): FAILED; shrinking %u+%u tokens\n", i, version,
               (unsigned long long)p->seed, (unsigned)p->vp->ntokens, (unsigned)p->fp->ntokens);
        cmp_shrink(ctx, b, o, &p->vp, &p->fp, p->seed);
        printf("random pair %u shrunk to %u+%u tokens:\n", i, (unsigned)p->vp->ntokens, (unsigned)p->fp->ntokens);
        cmp_run_pair(ctx, b, o, p->vp, p->fp, p->seed, true, NULL);
        return 1;
    }
    if (r == 2) {
        st->failed++;
        printf("random pair %u (AGAL%u, seed %llu): FAILED to run\n", i, version, (unsigned long long)p->seed);
        cmp_print_program(ctx, "vertex program", p->vp);
        cmp_print_program(ctx, "fragment program", p->fp);
        return 1;
    }
    if (o->verbose) printf("random pair %u (AGAL%u): ok\n", i, version);
    return 0;
}

static int compare_random(agal_context *ctx, agal_context *pctx, backends *b, const options *o, unsigned count,
                          stats *st)
{
    size_t chunk = batch_size(b);
    gen_program *gv = malloc(sizeof *gv), *gf = malloc(sizeof *gf);
    batch_pair *batch = calloc(chunk, sizeof *batch);
    if (!gv || !gf || !batch) {
        free(gv);
        free(gf);
        free(batch);
        fprintf(stderr, "compare: out of memory\n");
        return 2;
    }
    int rc = 0;
    uint64_t seen[3][2] = {{0}};
    tool_progress pg;
    tool_progress_start(&pg, "compare", count);
    pg.on &= !o->verbose; /* --verbose prints a line a pair */
    for (unsigned first = 0; first < count; first += (unsigned)chunk) {
        unsigned m = count - first < chunk ? count - first : (unsigned)chunk;
        for (unsigned k = 0; k < m; k++) random_pair(pctx, o, first + k, gv, gf, seen, &batch[k]);
        web_batch(ctx, b, o, batch, m);
        for (unsigned k = 0; k < m; k++) {
            tool_progress_show(&pg, first + k + 1);
            int r = random_report(ctx, b, o, first + k, &batch[k], st);
            tool_progress_clear(&pg);
            rc |= r;
            agal_context_reset(ctx);
        }
        agal_context_reset(pctx);
    }
    free(gv);
    free(gf);
    free(batch);
    if (coverage_report(seen, count) && o->coverage) rc = 1;
    return rc;
}

enum { MAX_RANDOM = 1000000 };

static int usage(void)
{
    fprintf(stderr, "usage: agalrun compare VERTEX FRAGMENT [--seed N]\n"
                    "       agalrun compare --corpus DIR [--seed N]\n"
                    "       agalrun compare --random N [--seed S]   (N: 1 to 1000000, S: 0 to 2^64 - 1)\n"
                    "options: --vk-only --gl-only --webgl --webgl-only --webgpu --webgpu-only --no-validation\n"
                    "         --verbose --inject-fault\n"
                    "         --require-coverage (random: fail unless every opcode appeared)\n"
                    "         --separate-samplers (SPIR-V images and samplers in separate bindings)\n"
                    "         --debug-info (every upload with debug info, as agal2spv -g)\n"
                    "         --debug-info=nonsemantic (and Vulkan's as agal2spv -gnonsemantic; the device\n"
                    "           must have VK_KHR_shader_non_semantic_info)\n"
                    "         --limits NAME|FILE.json (the device's limits: webgl1, webgl2, gl33, vulkan,\n"
                    "           webgpu, webgpu-compat, wgpu-gl31, or a JSON file; refused pairs are counted)\n"
                    "         --partial-varyings (random: AGAL 2 pairs of 9 or 10 varyings read in part)\n");
    return 2;
}

int agalrun_compare(int argc, char **argv)
{
    options o = {.vk = true, .gl = true, .validation = true, .seed = 1};
    const char *files[2] = {0}, *corpus = NULL, *limits = NULL;
    unsigned long long random = 0; /* 0: not random */
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--seed") && i + 1 < argc) {
            unsigned long long s;
            if (!tool_parse_uint("compare", a, argv[++i], 0, UINT64_MAX, &s)) return usage();
            o.seed = s;
        } else if (!strcmp(a, "--corpus") && i + 1 < argc) corpus = argv[++i];
        else if (!strcmp(a, "--random") && i + 1 < argc) {
            if (!tool_parse_uint("compare", a, argv[++i], 1, MAX_RANDOM, &random)) return usage();
        } else if (!strcmp(a, "--vk-only")) o.gl = false;
        else if (!strcmp(a, "--gl-only")) o.vk = false;
        else if (!strcmp(a, "--webgl")) o.web = true;
        else if (!strcmp(a, "--webgl-only")) o.web = true, o.vk = o.gl = false;
        else if (!strcmp(a, "--webgpu")) o.webgpu = true;
        else if (!strcmp(a, "--webgpu-only")) o.webgpu = true, o.vk = o.gl = false;
        else if (!strcmp(a, "--no-validation")) o.validation = false;
        else if (!strcmp(a, "--verbose")) o.verbose = true;
        else if (!strcmp(a, "--inject-fault")) o.fault = true;
        else if (!strcmp(a, "--require-coverage")) o.coverage = true;
        else if (!strcmp(a, "--separate-samplers")) o.separate = true;
        else if (!strcmp(a, "--partial-varyings")) o.partial_varyings = true;
        else if (!strcmp(a, "--debug-info")) o.debug_info = true;
        else if (!strcmp(a, "--debug-info=nonsemantic")) o.debug_info = o.nonsemantic = true;
        else if (!strcmp(a, "--limits") && i + 1 < argc) limits = argv[++i];
        else if (a[0] != '-' && nfiles < 2) files[nfiles++] = a;
        else return usage();
    }
    if ((corpus != NULL) + (random != 0) + (nfiles != 0) != 1 || (nfiles && nfiles != 2)) return usage();
    if (!o.vk && !o.gl && !o.web && !o.webgpu) {
        fprintf(stderr, "compare: --vk-only and --gl-only leave no backend\n");
        return usage();
    }
    /* the limits live in a context of their own: ctx is reset after every pair */
    agal_context *lctx = limits ? agal_context_new(NULL, NULL) : NULL;
    agal_limits device = agal_limits_init();
    if (limits && (!lctx || tool_load_limits(lctx, "compare", limits, &device))) {
        agal_context_free(lctx);
        return 2;
    }
    o.limits = limits ? &device : NULL;
    char err[512];
    backends b = {0};
    if (o.vk && !(b.vk = o.nonsemantic ? harness_vk_create_nonsemantic(o.validation, err, sizeof err)
                                       : harness_vk_create(o.validation, err, sizeof err))) {
        fprintf(stderr, "compare: %s\n", err);
        agal_context_free(lctx);
        return 2;
    }
    if (o.gl && !(b.gl = harness_gl_create(o.validation, err, sizeof err))) {
        fprintf(stderr, "compare: %s\n", err);
        harness_vk_destroy(b.vk);
        agal_context_free(lctx);
        return 2;
    }
    if ((o.web || o.webgpu) && !(b.web = cmp_web_create(err, sizeof err))) {
        fprintf(stderr, "compare: browser: %s\n", err);
        harness_gl_destroy(b.gl);
        harness_vk_destroy(b.vk);
        agal_context_free(lctx);
        return 2;
    }
    printf("compare: %s%s%s%s%s\n", b.vk ? harness_vk_device_name(b.vk) : "", b.vk && b.gl ? " (vulkan), " : "",
           b.gl ? harness_gl_renderer(b.gl) : "", (b.vk || b.gl) && b.web ? ", " : "",
           b.web ? cmp_web_browser(b.web) : "");
    /* ctx: each pair's work, reset after it; pctx: the programs of a batch */
    agal_context *ctx = agal_context_new(NULL, NULL), *pctx = agal_context_new(NULL, NULL);
    stats st = {0};
    int rc = 2;
    if (!ctx || !pctx) fprintf(stderr, "compare: out of memory\n");
    else if (corpus) rc = compare_corpus(ctx, pctx, &b, &o, corpus, &st);
    else if (random) rc = compare_random(ctx, pctx, &b, &o, (unsigned)random, &st);
    else rc = compare_files(ctx, pctx, &b, &o, files[0], files[1], &st);
    agal_context_free(ctx);
    agal_context_free(pctx);
    if (b.web) cmp_web_report(b.web, st.pairs);
    cmp_web_destroy(b.web);
    unsigned gl_msgs = b.gl ? harness_gl_messages(b.gl) : 0;
    harness_gl_destroy(b.gl);
    unsigned vk_msgs = harness_vk_destroy(b.vk);
    printf("compare: %u pair(s), %u failed; %u values compared, %u near a threshold, %u undefined (inf/NaN "
           "reference, not compared); %u validation message(s)\n",
           st.pairs, st.failed, st.compared, st.near, st.undefined, vk_msgs + gl_msgs);
    if (limits) printf("compare: %u of the pairs refused by the limits (%s)\n", st.refused, device.name);
    if (limits) printf("compare: %u of the pairs run with their constants packed into the limits\n", st.packed);
    agal_context_free(lctx);
    if (rc == 0 && vk_msgs + gl_msgs) rc = 1;
    return rc;
}
