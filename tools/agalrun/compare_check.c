/* compare_check.c: `agalrun compare`'s draws on each backend, their checks
 * against the interpreter, and the report of a disagreement (the method:
 * agalrun_compare.c). */
#include "agal/interp.h"
#include "translated.h"
#include "agal/stage3d.h"
#include "agal/text.h"
#include "compare.h"
#include "harness_api.h"
#include "harness_web.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct shaders {
    const uint32_t *spv;
    size_t nspv;
    const char *glsl;
} shaders;

static const char *const backend_names[BK_COUNT] = {"vulkan", "gl", "webgl2", "webgl1", "webgpu"};

static int translation_failed(agal_context *ctx, const char *what)
{
    char buf[512];
    size_t n = agal_diag_count(ctx);
    fprintf(stderr, "compare: %s: translation failed\n", what);
    for (size_t i = 0; i < n; i++) {
        agal_diag_format(agal_diag_get(ctx, i), what, buf, sizeof buf);
        fprintf(stderr, "  %s\n", buf);
    }
    return -1;
}

/* The upload target of backend bk: SPIR-V, GLSL 330, GLSL ES 3.00 or 1.00, WGSL. */
static agal_target backend_target(int bk)
{
    static const agal_target targets[BK_COUNT] = {AGAL_TARGET_SPIRV, AGAL_TARGET_GLSL, AGAL_TARGET_ESSL3,
                                                  AGAL_TARGET_ESSL1, AGAL_TARGET_WGSL};
    return targets[bk];
}

static bool in_browser(int bk) { return bk == BK_WEBGL2 || bk == BK_WEBGL1 || bk == BK_WEBGPU; }

/* Whether the options ask for backend bk and it started. */
static bool enabled(const backends *b, const options *o, int bk)
{
    return bk == BK_VULKAN ? b->vk != NULL : bk == BK_GL ? b->gl != NULL : bk == BK_WEBGPU ? o->webgpu : o->web;
}

/* The vertex program alone for the capture draw: on Vulkan the harness-only
 * transform-feedback SPIR-V (harness_api.h; agal_upload makes none, and would drop
 * the varyings the fragment program does not read, which the capture compares too);
 * elsewhere the backend's GLSL. */
static int translate_capture(agal_context *ctx, const agal_program *p, int bk, shaders *out)
{
    agal_status st;
    memset(out, 0, sizeof *out);
    if (bk == BK_VULKAN) st = agal_translate_spirv_xfb(ctx, p, NULL, &out->spv, &out->nspv);
    else if (bk == BK_GL) st = tool_translate_text(ctx, p, AGAL_TARGET_GLSL, NULL, &out->glsl, NULL);
    else st = tool_translate_text(ctx, p, backend_target(bk), NULL, &out->glsl, NULL);
    return st ? translation_failed(ctx, "vertex program") : 0;
}

/* Program3D.upload of a pair for the backend, as an emulator makes it; the programs'
 * bytes again (tool_encode_tokens). */
static int upload(agal_context *ctx, const agal_program *vp, const agal_program *fp, int bk, const options *o,
                  agal_upload_result *out, const char *what)
{
    size_t vn, fn;
    const uint8_t *vb = tool_encode_tokens(ctx, vp->tokens, vp->ntokens, AGAL_VERTEX, vp->version, &vn);
    const uint8_t *fb = tool_encode_tokens(ctx, fp->tokens, fp->ntokens, AGAL_FRAGMENT, fp->version, &fn);
    agal_upload_options uo = {.size = sizeof(agal_upload_options),
                              .target = backend_target(bk),
                              .profile = fp->profile,
                              .lenient = vp->lenient || fp->lenient,
                              .separate_samplers = o->separate,
                              .limits = o->limits,
                              .debug_info = o->debug_info,
                              .debug_info_nonsemantic = o->nonsemantic && bk == BK_VULKAN};
    *out = agal_upload_result_init();
    if (!vb || !fb || agal_upload(ctx, vb, vn, fb, fn, &uo, out) != AGAL_OK) return translation_failed(ctx, what);
    return 0;
}

void cmp_print_program(agal_context *ctx, const char *title, const agal_program *p)
{
    const char *text = NULL;
    printf("---- %s (AGAL%u)\n", title, (unsigned)p->version);
    if (agal_disassemble_program(ctx, p, 0, &text) == AGAL_OK && text) printf("%s", text);
    else printf("(%u tokens, not disassemblable)\n", (unsigned)p->ntokens);
}

static void print_vec(const char *name, const float *v)
{
    printf("  %-8s %12.7g %12.7g %12.7g %12.7g\n", name, v[0], v[1], v[2], v[3]);
}

static void print_inputs(const pair_case *c, bool vertex)
{
    printf("---- inputs (seed %llu)\n", (unsigned long long)c->seed);
    if (vertex) {
        for (int a = 0; a < HARNESS_MAX_ATTRIBS; a++)
            if (c->attr_mask & (1u << a))
                for (int v = 0; v < NVERTS; v++) {
                    char name[16];
                    snprintf(name, sizeof name, "va%d[%d]", a, v);
                    print_vec(name, c->attr[a][v]);
                }
        for (unsigned i = 0; i < 8 && i < c->nvc; i++) {
            char name[16];
            snprintf(name, sizeof name, "vc%u", i);
            print_vec(name, c->vc[i]);
        }
        printf("  (vc8..vc%u seeded the same way; %u instances)\n", c->nvc - 1, c->ninst);
    } else {
        for (unsigned i = 0; i < 8 && i < c->nfc; i++) {
            char name[16];
            snprintf(name, sizeof name, "fc%u", i);
            print_vec(name, c->fc[i]);
        }
        printf("  varyings: v<i> = m44((X, Y, 0.5 + 0.2X + 0.1Y, 1), rows below) at pixel centres\n");
        for (unsigned v = 0; v < AGAL_INTERP_MAX_VARYINGS; v++)
            if (c->var_mask & (1u << v))
                for (int k = 0; k < 4; k++) {
                    char name[16];
                    snprintf(name, sizeof name, "v%u row%d", v, k);
                    print_vec(name, c->pvc[4 * v + k]);
                }
        for (int i = 0; i < HARNESS_MAX_TEXTURES; i++)
            if (c->tex.h[i].present)
                printf("  fs%d: %s %ux%u, %u levels, sampled %s %s %s, smooth seeded texels\n", i,
                       c->tex.h[i].cube ? "cube" : "2d", c->tex.h[i].size, c->tex.h[i].size, c->tex.h[i].levels,
                       agal_stage3d_name(AGAL_S3D_TEXTURE_FILTER, c->tex.h[i].sampler.filter),
                       agal_stage3d_name(AGAL_S3D_MIP_FILTER, c->tex.h[i].sampler.mipmap),
                       agal_stage3d_name(AGAL_S3D_WRAP_MODE, c->tex.h[i].sampler.wrap));
    }
}

/* 0, CMP_DEFERRED (recorded for the browser) or -1 (the reason printed). */
static int run_backend(backends *b, int bk, const harness_draw *d, harness_result *r)
{
    char err[4096];
    int api = bk == BK_WEBGL2 ? WEB_WEBGL2 : bk == BK_WEBGL1 ? WEB_WEBGL1 : WEB_WEBGPU;
    int rc = bk == BK_VULKAN ? harness_vk_run(b->vk, d, r, err, sizeof err)
             : bk == BK_GL   ? harness_gl_run(b->gl, d, r, err, sizeof err)
                             : cmp_web_run(b->web, api, d, r, err, sizeof err);
    if (rc && rc != CMP_DEFERRED) fprintf(stderr, "compare: %s: %s\n", backend_names[bk], err);
    return rc;
}

static unsigned varyings_written(const agal_program *p, uint8_t *vars)
{
    unsigned m = agal_program_writes(p, AGAL_REG_VARYING), n = 0;
    for (unsigned i = 0; i < 16; i++)
        if (m & (1u << i)) vars[n++] = (uint8_t)i;
    return n;
}

static verdict check_vertex(agal_context *ctx, const pair_case *c, const harness_result *r, int bk, bool print)
{
    verdict v = {0};
    uint8_t vars[16];
    unsigned nvar = varyings_written(c->vp, vars);
    size_t n = (size_t)NVERTS * c->ninst * 4 * (1 + nvar);
    float *ref[1 + NPERTURB];
    for (int k = 0; k <= NPERTURB; k++) {
        ref[k] = calloc(n, sizeof(float));
        if (ref[k]) cmp_ref_vertex(ctx, c, k, backend_target(bk), ref[k], nvar, vars);
    }
    tolerance t = cmp_program_tolerance(c->vp);
    if (r->xfb_floats < n) { /* a backend that captured less than it was asked for */
        v.bad++;
        if (print) printf("  %s captured %zu of %zu values\n", backend_names[bk], r->xfb_floats, n);
        n = 0;
    }
    for (size_t i = 0; i < n && ref[NPERTURB]; i++) {
        if (!isfinite(ref[0][i])) {
            v.undefined++;
            continue;
        }
        double sp = cmp_spread_of(ref[0], (const float *const *)ref + 1, i);
        /* op.z under GL's fix mixes z and w: scale by both. */
        bool ok = cmp_agree(ref[0][i], sp, r->xfb[i], t);
        v.compared++;
        if (cmp_near_threshold(ref[0][i], sp)) v.near++;
        if (!ok) {
            v.bad++;
            if (print && v.bad <= 24) {
                size_t rec = i / (4 * (1 + nvar)), slot = (i / 4) % (1 + nvar);
                char name[16];
                if (slot == 0) snprintf(name, sizeof name, "op");
                else snprintf(name, sizeof name, "v%u", (unsigned)vars[slot - 1]);
                printf("  instance %zu vertex %zu %s.%c: interpreter %.9g (spread %.3g)  %s %.9g\n", rec / NVERTS,
                       rec % NVERTS, name, "xyzw"[i % 4], ref[0][i], sp, backend_names[bk], r -> xfb[i]);
            }
        }
    }
    for (int k = 0; k <= NPERTURB; k++) free(ref[k]);
    return v;
}

static int vertex_draw(agal_context *ctx, backends *b, const pair_case *c, int bk, harness_result *r)
{
    shaders s;
    if (translate_capture(ctx, c->vp, bk, &s)) return -1;
    harness_draw d = {.vs_spirv = s.spv,
                      .vs_words = s.nspv,
                      .vs_glsl = s.glsl,
                      .nverts = NVERTS,
                      .ninstances = c->ninst,
                      .vc = &c->vc[0][0],
                      .nvc = c->nvc,
                      .capture = true};
    for (int a = 0; a < HARNESS_MAX_ATTRIBS; a++)
        if (c->attr_mask & (1u << a)) d.attribs[a] = &c->attr[a][0][0];
    d.ncapture = varyings_written(c->vp, d.capture_regs);
    return run_backend(b, bk, &d, r);
}

/* The fragment program fed by the pass-through vertex program, uploaded as a pair. */
static int fragment_draw(agal_context *ctx, backends *b, const options *o, const pair_case *c, int bk,
                         harness_result *r)
{
    const agal_program *pt;
    agal_upload_result up = agal_upload_result_init();
    if (cmp_passthrough(ctx, c, &pt) || upload(ctx, pt, c->fp, bk, o, &up, "fragment program")) return -1;
    harness_draw d = {.nverts = 6,
                      .ninstances = 1,
                      .vc = &c->pvc[0][0],
                      .nvc = c->nvc,
                      .fc = &c->fc[0][0],
                      .nfc = c->nfc,
                      .width = SIZE,
                      .height = SIZE};
    harness_draw_upload(&d, &up);
    d.attribs[0] = &c->quad[0][0];
    d.noc = cmp_colour_outputs(c->fp) ? cmp_colour_outputs(c->fp) : 1;
    memcpy(d.tex, c->tex.h, sizeof d.tex);
    return run_backend(b, bk, &d, r);
}

/* The pair itself, uploaded and drawn once on the case's inputs (Vulkan, GL,
 * WebGPU): not compared (its vertex program puts the triangles anywhere), but the
 * upload's pipeline must be made and drawn, with the validation layer silent (an
 * output the fragment shader does not consume is a warning), GL's link succeeding
 * and WebGPU taking the upload's bind group layout. */
static int pair_draw(agal_context *ctx, backends *b, const options *o, const pair_case *c, int bk)
{
    agal_upload_result up = agal_upload_result_init();
    if (upload(ctx, c->vp, c->fp, bk, o, &up, "pair")) return -1;
    harness_draw d;
    cmp_pair_draw(c, &up, &d);
    harness_result r;
    int rc = run_backend(b, bk, &d, &r);
    if (rc == 0) harness_result_free(&r);
    return rc == CMP_DEFERRED ? 0 : rc;
}

/* Compares one pixel; returns the number of bad components. */
static unsigned check_pixel(const pair_case *c, const harness_result *r, const frag_ref *ref, const frag_ref *pert,
                            unsigned noc, int p, tolerance t, verdict *v, bool print, const char *name)
{
    unsigned bad = 0;
    bool killed = ref->killed[p] != 0, got_killed = harness_discarded(r, (size_t)p);
    bool kill_unstable = false;
    for (int k = 0; k < FPERTURB; k++) kill_unstable |= pert[k].killed[p] != ref->killed[p];
    if (ref->undefined[p]) {
        v->near++;
        return 0;
    }
    v->compared++;
    if (killed != got_killed) {
        if (kill_unstable) {
            v->near++;
            return 0;
        }
        if (print)
            printf("  pixel (%d,%d): interpreter %s, %s %s\n", p % SIZE, p / SIZE, killed ? "discards" : "keeps", name,
                   got_killed ? "discards" : "keeps");
        return 1;
    }
    if (killed) return 0;
    for (unsigned o = 0; o < noc; o++)
        for (int q = 0; q < 4; q++) {
            size_t i = (size_t)p * 4 + q;
            if (!isfinite(ref->color[o][i])) {
                v->undefined++;
                continue;
            }
            double sp = 0;
            for (int k = 0; k < FPERTURB; k++) sp = fmax(sp, fabs((double)pert[k].color[o][i] - ref->color[o][i]));
            v->compared++;
            if (cmp_near_threshold(ref->color[o][i], sp)) v->near++;
            if (!cmp_agree(ref->color[o][i], sp, r->color[o][i], t)) {
                bad++;
                if (print)
                    printf("  pixel (%d,%d) oc%u.%c: interpreter %.9g (spread %.3g)  %s %.9g\n", p % SIZE, p / SIZE, o,
                           "xyzw"[q], ref -> color[o][i], sp, name, r -> color[o][i]);
            }
        }
    /* Depth: D32F after the [0, 1] clamp of the depth range; outside it the written
     * value is undefined in Vulkan, so only values inside are compared. */
    double dref = ref->depth[p], sp = 0;
    for (int k = 0; k < FPERTURB; k++) sp = fmax(sp, fabs((double)pert[k].depth[p] - dref));
    if (dref >= 0 && dref <= 1) {
        v->compared++;
        if (!cmp_agree(dref, sp, r->depth[p], (tolerance){fmax(t.atol, 1e-5), t.rtol})) {
            bad++;
            if (print)
                printf("  pixel (%d,%d) depth: interpreter %.9g (spread %.3g)  %s %.9g\n", p % SIZE, p / SIZE, dref, sp,
                       name, r->depth[p]);
        }
    }
    return bad;
}

/* How far the perturbed references move every tex's LOD (eighths). SwiftShader,
 * the browser's WebGL and WebGPU, computes a cube map's implicit LOD from the
 * direction's differences over its major axis, summed (not the chain rule through
 * the face projection and the length): up to 3/4 of a level off on our cubes. */
static int lod_shift(int bk, const agal_program *fp)
{
    for (uint32_t k = 0; k < fp->ntokens && in_browser(bk); k++) {
        const agal_token *t = &fp->tokens[k];
        if (t->op == AGAL_OP_TEX && t->s.dim == AGAL_DIM_CUBE && t->s.mipmap != AGAL_MIP_NONE)
            return LOD_SHIFT_WEB_CUBE;
    }
    return LOD_SHIFT;
}

static verdict check_fragment(agal_context *ctx, const pair_case *c, const harness_result *r, int bk, bool print)
{
    const char *name = backend_names[bk];
    verdict v = {0};
    frag_ref *ref = calloc(3 * (1 + FPERTURB), sizeof *ref);
    if (!ref) {
        v.bad = 1;
        return v;
    }
    tolerance t = cmp_program_tolerance(c->fp);
    unsigned noc = cmp_colour_outputs(c->fp);
    bool complete = r->depth != NULL;
    for (unsigned o = 0; o < noc; o++) complete &= r->color[o] != NULL;
    if (!complete) { /* a backend that returned fewer outputs than the program writes */
        if (print) printf("  %s returned fewer outputs than the program writes\n", name);
        v.bad = 1;
        free(ref);
        return v;
    }
    bool deriv = cmp_uses_op(c->fp, AGAL_OPF_DERIV | AGAL_OPF_TEXTURE);
    int shift = lod_shift(bk, c->fp);
    const agal_program *shifted[2] = {cmp_lod_shifted(ctx, c->fp, -shift), cmp_lod_shifted(ctx, c->fp, shift)};
    /* The GL family (GL, WebGL) may see its quads the other way up (window y up):
     * the reading that swaps the quad's rows, with ddy negated to stay bottom - top.
     * Vulkan's and WebGPU's framebuffer y points down, as Stage3D's rows do. */
    bool ddy = false;
    for (uint32_t k = 0; k < c->fp->ntokens; k++) ddy |= c->fp->tokens[k].op == AGAL_OP_DDY;
    const agal_program *plain[3] = {c->fp, shifted[0], shifted[1]}, *up[3] = {c->fp, shifted[0], shifted[1]};
    for (int i = 0; i < 3 && ddy; i++) up[i] = cmp_ddy_negated(ctx, up[i]);
    bool gl_family = bk == BK_GL || bk == BK_WEBGL2 || bk == BK_WEBGL1;
    int modes = !deriv ? 1 : gl_family && up[0] && up[1] && up[2] ? 3 : 2;
    for (int mode = 0; mode < modes; mode++)
        for (int k = 0; k <= FPERTURB; k++) {
            const agal_program *const *set = mode == 2 ? up : plain;
            const agal_program *fp = k > NPERTURB ? set[k - NPERTURB] : set[0];
            if (cmp_ref_fragment(ctx, c, fp, k, mode, &ref[mode * (1 + FPERTURB) + k])) {
                v.bad = 1;
                free(ref);
                return v;
            }
        }
    cmp_cube_ties(ctx, c, ref[0].undefined);
    memcpy(ref[1 + FPERTURB].undefined, ref[0].undefined, sizeof ref[0].undefined);
    memcpy(ref[2 * (1 + FPERTURB)].undefined, ref[0].undefined, sizeof ref[0].undefined);
    for (int p = 0; p < NPIX; p++) {
        verdict pv = {0};
        unsigned bad = check_pixel(c, r, &ref[0], &ref[1], noc, p, t, &pv, false, name);
        if (bad && deriv) { /* the coarse-derivative reading of the same program */
            verdict cv = {0};
            if (check_pixel(c, r, &ref[1 + FPERTURB], &ref[2 + FPERTURB], noc, p, t, &cv, false, name) == 0) {
                bad = 0;
                pv = cv;
            }
        }
        if (bad && modes == 3) { /* GL's coarse quad: rows the other way up */
            verdict cv = {0};
            if (check_pixel(c, r, &ref[2 * (1 + FPERTURB)], &ref[2 * (1 + FPERTURB) + 1], noc, p, t, &cv, false,
                            name) == 0) {
                bad = 0;
                pv = cv;
            }
        }
        if (bad && print) check_pixel(c, r, &ref[0], &ref[1], noc, p, t, &pv, true, name);
        v.compared += pv.compared;
        v.near += pv.near;
        v.undefined += pv.undefined;
        v.bad += bad;
    }
    free(ref);
    return v;
}

/* Whether GLSL ES 1.00 can express the vertex program (AGAL_ERR_UNSUPPORTED: iid),
 * the only one of a pair it may refuse (fragment programs have no iid). */
static bool essl1_expresses(agal_context *ctx, const agal_program *vp)
{
    const char *text;
    size_t before = agal_diag_count(ctx);
    agal_status st = tool_translate_text(ctx, vp, AGAL_TARGET_ESSL1, NULL, &text, NULL);
    if (st == AGAL_ERR_UNSUPPORTED && agal_diag_count(ctx) > before) agal_diag_clear(ctx);
    return st != AGAL_ERR_UNSUPPORTED;
}

/* Whether an upload's constants were packed to fit the limits: a range that moves
 * its registers (the backends then upload the blocks gathered by their ranges). */
static bool packed(const agal_upload_result *up)
{
    for (size_t i = 0; i < up->nblocks; i++)
        for (size_t k = 0; k < up->blocks[i].nranges; k++)
            if (up->blocks[i].ranges[k].first != up->blocks[i].ranges[k].offset) return true;
    return false;
}

/* Whether the pair fits --limits on every target the backends translate to. A limit
 * counts what each target declares (GLSL's y flip is a uniform beside the
 * constants, SPIR-V's a specialization constant), so the pair is refused when any
 * target's upload is refused for the limits (3613); a refused pair is printed with
 * its diagnostic under --verbose. Other refusals (GLSL ES 1.00 has no iid) are the
 * backends' to skip. *packs: some target's upload packed the constants. */
static bool fits_limits(agal_context *ctx, const options *o, const agal_program *vp, const agal_program *fp,
                        bool *packs)
{
    static const agal_target targets[] = {AGAL_TARGET_SPIRV, AGAL_TARGET_GLSL, AGAL_TARGET_ESSL3, AGAL_TARGET_ESSL1,
                                          AGAL_TARGET_WGSL};
    size_t vn, fn;
    const uint8_t *vb = tool_encode_tokens(ctx, vp->tokens, vp->ntokens, AGAL_VERTEX, vp->version, &vn);
    const uint8_t *fb = tool_encode_tokens(ctx, fp->tokens, fp->ntokens, AGAL_FRAGMENT, fp->version, &fn);
    if (!vb || !fb) return true;
    agal_upload_options uo = agal_upload_options_init();
    uo.profile = fp->profile;
    uo.lenient = vp->lenient || fp->lenient;
    uo.limits = o->limits;
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        uo.target = targets[i];
        agal_upload_result up = agal_upload_result_init();
        bool refused = agal_upload(ctx, vb, vn, fb, fn, &uo, &up) == AGAL_ERR_UNSUPPORTED && agal_diag_count(ctx) &&
                       agal_diag_get(ctx, 0)->flash_id == 3613;
        if (refused && o->verbose) printf("  refused: %s\n", agal_diag_get(ctx, 0)->message);
        *packs |= !refused && packed(&up);
        agal_diag_clear(ctx);
        if (refused) return false;
    }
    return true;
}

/* Runs the pair on every enabled backend. Returns 0 agree, 1 disagree, 2 could not run. */
int cmp_run_pair(agal_context *ctx, backends *b, const options *o, const agal_program *vp, const agal_program *fp,
                 uint64_t seed, bool print, stats *st)
{
    bool packs = false;
    if (o->limits && !fits_limits(ctx, o, vp, fp, &packs)) {
        if (st) st->refused++;
        return 0;
    }
    if (packs && st) st->packed++;
    pair_case c;
    if (cmp_case_make(&c, vp, fp, seed)) {
        cmp_case_free(&c);
        return 2;
    }
    int result = 0;
    bool recording = b->web && cmp_web_recording(b->web);
    for (int bk = 0; bk < BK_COUNT; bk++) {
        if (!enabled(b, o, bk) || (recording && !in_browser(bk))) continue;
        if (bk == BK_WEBGL1 && !essl1_expresses(ctx, vp))
            continue; /* WebGL 1 takes the pairs GLSL ES 1.00 can express (no iid) */
        const char *name = backend_names[bk];
        harness_result r;
        int dr = vertex_draw(ctx, b, &c, bk, &r);
        if (dr == CMP_DEFERRED) { /* recording: queue the fragment (and pair) draw too, check nothing */
            if (fragment_draw(ctx, b, o, &c, bk, &r) != CMP_DEFERRED) result = 2;
            if (bk == BK_WEBGPU && pair_draw(ctx, b, o, &c, bk)) result = 2;
            continue;
        }
        if (dr) {
            result = 2;
            continue;
        }
        verdict vv = check_vertex(ctx, &c, &r, bk, false);
        if (vv.bad && print) {
            printf("==== vertex outputs disagree on %s (%u of %u components)\n", name, vv.bad, vv.compared);
            cmp_print_program(ctx, "vertex program", vp);
            print_inputs(&c, true);
            check_vertex(ctx, &c, &r, bk, true);
        }
        harness_result_free(&r);
        if (fragment_draw(ctx, b, o, &c, bk, &r)) {
            result = 2;
            continue;
        }
        for (int px = 0; o->fault && r.color[0] && px < NPIX; px++)
            r.color[0][4 * px + 1] += 0.05f; /* every pixel's oc0.y */
        verdict fv = check_fragment(ctx, &c, &r, bk, false);
        if (fv.bad && print) {
            printf("==== fragment outputs disagree on %s (%u of %u)\n", name, fv.bad, fv.compared);
            cmp_print_program(ctx, "fragment program", fp);
            print_inputs(&c, false);
            check_fragment(ctx, &c, &r, bk, true);
        }
        harness_result_free(&r);
        if (st) {
            st->compared += vv.compared + fv.compared;
            st->near += vv.near + fv.near;
            st->undefined += vv.undefined + fv.undefined;
        }
        if ((vv.bad || fv.bad) && result == 0) result = 1;
        if ((bk == BK_VULKAN || bk == BK_GL || bk == BK_WEBGPU) && pair_draw(ctx, b, o, &c, bk)) result = 2;
        if (o->verbose)
            printf("  %s: vertex %u/%u near %u, fragment %u/%u near %u\n", name, vv.compared - vv.bad, vv.compared,
                   vv.near, fv.compared - fv.bad, fv.compared, fv.near);
    }
    cmp_case_free(&c);
    return result;
}
