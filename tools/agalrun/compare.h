/* compare.h: what the files of `agalrun compare` share (the method is described in
 * agalrun_compare.c):
 *
 *   agalrun_compare.c     the subcommand: options, one pair, --corpus, --random
 *   compare_tolerance.c   per-token error bounds and the comparison rule
 *   compare_inputs.c      seeded inputs (attributes, constants, varyings, textures),
 *                         the pair's draw of them, the pass-through vertex program,
 *                         programs rebuilt from tokens
 *   compare_reference.c   the interpreter's runs (exact and perturbed), cube face ties
 *   compare_check.c       the draws on each backend, checks against the reference,
 *                         the report of a disagreement
 *   compare_shrink.c      shrinking a failing pair
 *   compare_webgl.c       the browser (WebGL, WebGPU) as a backend: batches recorded, run
 *                         at once, replayed
 */
#ifndef COMPARE_H
#define COMPARE_H

#include "agal/interp.h"
#include "agal/stage3d.h"
#include "agalrun.h"
#include "gen.h"
#include "harness.h"

/* NPERTURB reference runs with perturbed inputs; fragment programs get two more,
 * with every tex's LOD bias moved by -/+ LOD_SHIFT eighths (GPUs approximate the
 * implicit LOD: the spec allows rho between the max and the sum of the derivative
 * lengths, and log2 approximations), so a mip level boundary counts as a threshold. */
enum {
    NVERTS = 6,
    SIZE = 8,
    NPIX = SIZE * SIZE,
    NPERTURB = 4,
    FPERTURB = NPERTURB + 2,
    LOD_SHIFT = 2,
    LOD_SHIFT_WEB_CUBE = 6, /* the browser's cube maps: compare_check.c lod_shift */
    TEX_SIZE = 8,
    TEX_LEVELS = 4,
    CUBE_SIZE = 16,
    CUBE_LEVELS = 5
};

typedef struct tolerance {
    double atol, rtol;
} tolerance;

typedef struct options {
    bool vk, gl, validation, verbose;
    bool web;        /* --webgl: also WebGL 2, and WebGL 1 for AGAL1 pairs, in headless Chromium */
    bool webgpu;     /* --webgpu: also WebGPU (WGSL) in headless Chromium */
    bool fault;      /* --inject-fault: move backend values by 0.05 (the tests' proof that a difference fails) */
    bool coverage;   /* --require-coverage: random mode fails unless every opcode appeared */
    bool separate;   /* --separate-samplers: Vulkan's uploads bind images and samplers apart */
    bool debug_info; /* --debug-info: every upload with debug info (-g: OpSource, OpLine, #line) */
    /* --debug-info=nonsemantic: and Vulkan's with NonSemantic.Shader.DebugInfo.100
     * (-gnonsemantic), on a device that must have VK_KHR_shader_non_semantic_info */
    bool nonsemantic;
    const agal_limits *limits; /* --limits: every upload held to the device's (NULL: none) */
    bool partial_varyings;     /* --partial-varyings: random pairs whose varyings pack */
    uint64_t seed;
} options;

typedef struct cmp_web cmp_web;

typedef struct backends {
    harness_vk *vk;
    harness_gl *gl;
    cmp_web *web; /* the browser: WebGL, WebGPU or both (options say which) */
} backends;

/* The backends in the order cmp_run_pair runs them (and their names in reports). */
enum { BK_VULKAN, BK_GL, BK_WEBGL2, BK_WEBGL1, BK_WEBGPU, BK_COUNT };
/* A draw queued while recording for the browser, not run (compare_webgl.c). */
enum { CMP_DEFERRED = 3 };
/* Pairs a browser run draws at most (recorded together, then replayed). */
enum { CMP_BATCH = 128 };

typedef struct stats {
    unsigned pairs, failed, compared, near, undefined, skipped_runs;
    unsigned refused; /* pairs --limits refuses: not run, not failed */
    unsigned packed;  /* pairs run whose constants --limits packed (some target's upload) */
} stats;

typedef struct texture_set {
    harness_texture h[HARNESS_MAX_TEXTURES];
    agal_texture t[HARNESS_MAX_TEXTURES];
    const float *images[HARNESS_MAX_TEXTURES][6 * CUBE_LEVELS];
    float *texels[HARNESS_MAX_TEXTURES];
    size_t n;
} texture_set;

/* undefined: values the interpreter computes as inf or NaN, outside the domains
 * where Stage3D (and GLSL) define results (docs/format.md section 4): not compared. */
typedef struct verdict {
    unsigned compared, near, bad, undefined;
} verdict;

/* The case: everything one pair's two draws need. */
typedef struct pair_case {
    const agal_program *vp, *fp;
    uint64_t seed;
    /* vertex draw */
    unsigned ninst;
    float attr[HARNESS_MAX_ATTRIBS][NVERTS][4];
    unsigned attr_mask;
    float (*vc)[4];
    unsigned nvc;
    /* fragment draw */
    float (*fc)[4];
    unsigned nfc;
    float (*pvc)[4]; /* pass-through vc: varying rows */
    float quad[6][4];
    float var[NPIX][AGAL_INTERP_MAX_INPUTS][4]; /* varyings at pixel centres, row-major pixels */
    float zpix[NPIX];
    unsigned var_mask;
    texture_set tex;
} pair_case;

/* Fragment reference over the 8x8 pixels: out colours [oc][pixel][4], depth, kill. */
typedef struct frag_ref {
    float color[HARNESS_MAX_OUTPUTS][NPIX * 4];
    float depth[NPIX];
    float killed[NPIX];
    bool undefined[NPIX]; /* a cube lookup on a face edge (see cube_ties) */
} frag_ref;

/* ---- compare_tolerance.c ---------------------------------------------------------- */

/* Per token, what a GPU may get wrong in it beyond plain arithmetic's rounding (which
 * the perturbed inputs stand for): the bounds below of sin, cos, exp and pow, {0, 0}
 * for the rest. The perturbed reference runs move each such result by up to that
 * much, so what later tokens make of the error is in the spread (a cos feeding m44
 * then m34 multiplies its error by their constants). Not tex and ted: filtering
 * errors are systematic, not independent per pixel, and moving every texel by its
 * whole bound would count most textured outputs as near a threshold, doubling their
 * room (docs/harness.md, the tolerance). err: p->ntokens pairs {atol, rtol}. */
void cmp_token_errors(const agal_program *p, float (*err)[2]);
/* The largest of the program's per-token bounds. */
tolerance cmp_program_tolerance(const agal_program *p);
/* |got - ref| <= atol + rtol |ref| + 2 spread (non-finite values: see the code). */
bool cmp_agree(double ref, double spread, double got, tolerance t);
/* The output sits at a discontinuity or is badly conditioned. */
bool cmp_near_threshold(double ref, double spread);
/* How far the NPERTURB perturbed runs move component idx from base. */
double cmp_spread_of(const float *base, const float *const *pert, size_t idx);

/* ---- compare_inputs.c ---------------------------------------------------------------- */

/* A seed derived from two. */
uint64_t cmp_mix(uint64_t a, uint64_t b);
/* A float in [lo, hi). */
float cmp_uniform(gen_rng *r, float lo, float hi);
/* Whether some token's opcode has the flag (AGAL_OPF_*). */
bool cmp_uses_op(const agal_program *p, unsigned flag);
/* Seeds the case's inputs for the pair; -1 out of memory (free it anyway). */
int cmp_case_make(pair_case *c, const agal_program *vp, const agal_program *fp, uint64_t seed);
void cmp_case_free(pair_case *c);
/* How many colour outputs oc0, oc1, ... the fragment program writes in a row. */
unsigned cmp_colour_outputs(const agal_program *fp);
/* The pair's own draw of the case's inputs with an upload of both programs: its
 * attributes, constants and textures, an 8x8 target (compare_check.c's pair draw,
 * agal-bench --driver's draws). */
void cmp_pair_draw(const pair_case *c, const agal_upload_result *up, harness_draw *d);
/* The pass-through vertex program that feeds the fragment draw. */
int cmp_passthrough(agal_context *ctx, const pair_case *c, const agal_program **out);
/* Decodes tokens as a program of stage/version; NULL when it does not validate. */
const agal_program *cmp_rebuild(agal_context *ctx, const agal_token *toks, uint32_t n, agal_stage stage,
                                uint32_t version, agal_profile profile, bool lenient);

/* ---- compare_reference.c ------------------------------------------------------------- */

/* The vertex program on the case's inputs (k = 0) or perturbed ones (k > 0), op with
 * the clip fix of the backend's target; out: the xfb records (op, the nvar varyings
 * vars[]). */
int cmp_ref_vertex(agal_context *ctx, const pair_case *c, int k, agal_target target, float *out, unsigned nvar,
                   const uint8_t *vars);
/* fp over the 8x8 pixels: k = 0 exact, 1..NPERTURB perturbed; mode 0 fine, 1 coarse,
 * 2 coarse with GL's quad rows. */
int cmp_ref_fragment(agal_context *ctx, const pair_case *c, const agal_program *fp, int k, int mode, frag_ref *out);
/* The fragment program with every tex's LOD bias moved by delta eighths. */
const agal_program *cmp_lod_shifted(agal_context *ctx, const agal_program *p, int delta);
/* The fragment program with every ddy negated, for mode 2; NULL when it cannot be made. */
const agal_program *cmp_ddy_negated(agal_context *ctx, const agal_program *p);
/* Marks the pixels whose cube lookups are undefined (face ties). */
void cmp_cube_ties(agal_context *ctx, const pair_case *c, bool undefined[NPIX]);

/* ---- compare_check.c ---------------------------------------------------------------- */

/* Runs the pair on every enabled backend. Returns 0 agree, 1 disagree, 2 could not
 * run. print: report every disagreement; st (may be NULL) gets the counts. */
int cmp_run_pair(agal_context *ctx, backends *b, const options *o, const agal_program *vp, const agal_program *fp,
                 uint64_t seed, bool print, stats *st);
/* Prints the program's disassembly under a title. */
void cmp_print_program(agal_context *ctx, const char *title, const agal_program *p);

/* ---- compare_webgl.c ------------------------------------------------------------------ */

/* Starts the browser backend (harness_web.h); NULL and the reason in err. */
cmp_web *cmp_web_create(char *err, size_t errsize);
void cmp_web_destroy(cmp_web *w);
const char *cmp_web_browser(const cmp_web *w);
/* From now on WebGL draws not run yet are queued (CMP_DEFERRED), until cmp_web_replay. */
void cmp_web_record(cmp_web *w);
/* Drops every stored outcome (a batch is done with them). */
void cmp_web_forget(cmp_web *w);
bool cmp_web_recording(const cmp_web *w);
/* Draws every queued draw in one browser run and stores each outcome; from then on
 * each is answered from the store (until cmp_web_forget). -1 (the reason printed)
 * when the browser gave no results: those draws fail. */
int cmp_web_replay(cmp_web *w);
/* One draw for api (WEB_WEBGL2, WEB_WEBGL1, WEB_WEBGPU): CMP_DEFERRED while
 * recording; else 0 with the result, or -1 and the reason (the browser's log for a
 * rejected shader). */
int cmp_web_run(cmp_web *w, int api, const harness_draw *d, harness_result *r, char *err, size_t errsize);
/* Prints the draws, browser runs and time the browser took (per pair of `pairs`). */
void cmp_web_report(const cmp_web *w, unsigned pairs);

/* ---- compare_shrink.c ---------------------------------------------------------------- */

/* Shrinks a disagreeing pair in place (the programs live in ctx). */
void cmp_shrink(agal_context *ctx, backends *b, const options *o, const agal_program **vp, const agal_program **fp,
                uint64_t seed);

#endif
