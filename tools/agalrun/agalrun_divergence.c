/* agalrun_divergence.c: `agalrun replay --first-divergence REF.png [--at X,Y]`.
 *
 * The replay's image (--frame N, else the last) is compared with REF.png, of the
 * same size. The pixel followed is --at X,Y, else the first differing pixel in row
 * order (deterministic: the top-left of what went wrong). The scene is replayed
 * again with a read-back after every call that writes the back buffer
 * (replay_open_options.probe), and the call named is the last of the image's
 * calls that changed the pixel: it wrote the differing value. Not the first call
 * to leave it off the reference: a clear or an earlier draw that a correct draw
 * overwrites is off too (overdraw). Every change of the pixel in the image's
 * calls is listed after, so a blend over an earlier wrong value shows. Its report:
 * the call index, the programs disassembled, the render state, the constants the
 * programs read, the samplers, and the pixel before and after (docs/replay.md,
 * "First divergence").
 *
 * Through render textures: the probe also sees every write to a texture (no
 * read-back), and each texture's writes since its contents were last replaced (a
 * clear, its creation) are kept, a draw's with its own report made then. When the
 * draw named sampled a texture some draw or clear rendered, the report lists the
 * writes it sampled, each draw with its programs, state and constants: a wrong
 * draw into a texture shows there (the latest WRITES_KEPT of each). No texture is
 * read back, so which of them wrote the texel sampled is found by leaving each
 * draw and clear out in a replay of its own: one whose absence changes the pixel
 * reached it. */
#include "agalrun.h"
#include "agal/text.h"
#include "divergence.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A write to a texture: the call, and a draw's report (NULL: a clear or an upload). */
typedef struct twrite {
    size_t call;
    const char *method; /* the scene's text, alive during the run */
    char *draw;         /* malloc'd */
} twrite;

enum { WRITES_KEPT = 16, CANDIDATES = WRITES_KEPT * REPLAY_SAMPLERS };

/* A texture's writes since its contents were last replaced, the latest WRITES_KEPT. */
typedef struct thistory {
    char *name; /* malloc'd */
    twrite w[WRITES_KEPT];
    size_t n, dropped;
    bool rendered; /* a clear or a draw among them */
} thistory;

typedef struct tracker {
    agal_context *ctx; /* the disassemblies and reflections of one report, reset for the next */
    uint32_t x, y;
    uint8_t ref[3];
    unsigned tolerance;
    size_t image;      /* the images yielded before the frame compared */
    uint8_t before[3]; /* the pixel before the call probed */
    bool known;        /* before has been read */
    char *report;      /* the last change's report (malloc'd), NULL: none */
    FILE *history;     /* each change of the pixel in the image's calls */
    bool failed;       /* out of memory */
    thistory *tex;     /* every texture written, by name */
    size_t ntex;
    /* The report's draws and clears into the textures its draw sampled, each left
     * out in a replay of its own at the end, and the pixel the report names. */
    struct {
        size_t call;
        char method[32];
    } cand[CANDIDATES];
    size_t ncand;
    uint8_t after[3];
} tracker;

static bool off_reference(const tracker *t, const uint8_t *rgb)
{
    for (int i = 0; i < 3; i++)
        if ((unsigned)abs((int)rgb[i] - (int)t->ref[i]) > t->tolerance) return true;
    return false;
}

/* ---- the report ---------------------------------------------------------------- */

/* The report's lines are indented by in (a draw into a texture: deeper). */
static void print_program(FILE *f, tracker *t, const char *in, const char *label, const agal_program *prog)
{
    const char *text = NULL;
    if (agal_disassemble_program(t->ctx, prog, 0, &text) != AGAL_OK) text = "(not disassembled)\n";
    fprintf(f, "%s%s program:\n", in, label);
    for (const char *line = text; *line;) {
        size_t n = strcspn(line, "\n");
        fprintf(f, "%s  %.*s\n", in, (int)n, line);
        line += n + (line[n] == '\n');
    }
}

/* The constant registers the program reads, with the values the draw had. */
static void print_constants(FILE *f, tracker *t, const char *in, const agal_program *prog, const char *reg,
                            const float (*v)[4])
{
    agal_reflection r;
    if (agal_reflect(t->ctx, prog, &r) != AGAL_OK) return;
    for (size_t i = 0; i < r.nconstants; i++)
        for (uint32_t n = r.constants[i].first; n < (uint32_t)r.constants[i].first + r.constants[i].count; n++)
            if (n < REPLAY_MAX_CONSTANTS)
                fprintf(f, "%s%s%u = (%g, %g, %g, %g)\n", in, reg, n, v[n][0], v[n][1], v[n][2], v[n][3]);
}

static const char *s3d(agal_stage3d_enum which, unsigned value)
{
    const char *name = agal_stage3d_name(which, value);
    return name ? name : "?";
}

static const char *as3_bool(bool b) { return b ? "true" : "false"; }

static void print_state(FILE *f, const char *in, const replay_draw *d)
{
    const replay_state *s = d->state;
    fprintf(f, "%ssetBlendFactors(%s, %s)\n", in, s3d(AGAL_S3D_BLEND_FACTOR, s->blend_src),
            s3d(AGAL_S3D_BLEND_FACTOR, s->blend_dst));
    fprintf(f, "%ssetColorMask(%s, %s, %s, %s)\n", in, as3_bool(s->color_mask[0]), as3_bool(s->color_mask[1]),
            as3_bool(s->color_mask[2]), as3_bool(s->color_mask[3]));
    fprintf(f, "%ssetCulling(%s)\n", in, s3d(AGAL_S3D_TRIANGLE_FACE, s->cull));
    fprintf(f, "%ssetDepthTest(%s, %s)\n", in, as3_bool(s->depth_mask), s3d(AGAL_S3D_COMPARE_MODE, s->depth_compare));
    fprintf(f, "%ssetStencilActions(%s, %s, %s, %s, %s)\n", in, s3d(AGAL_S3D_TRIANGLE_FACE, s->stencil_face),
            s3d(AGAL_S3D_COMPARE_MODE, s->stencil_compare), s3d(AGAL_S3D_STENCIL_ACTION, s->stencil_both_pass),
            s3d(AGAL_S3D_STENCIL_ACTION, s->stencil_depth_fail), s3d(AGAL_S3D_STENCIL_ACTION, s->stencil_fail));
    fprintf(f, "%ssetStencilReferenceValue(%u, %u, %u)\n", in, s->stencil_ref, s->stencil_read, s->stencil_write);
    if (d->scissor)
        fprintf(f, "%sscissor (%d, %d, %d, %d)\n", in, d->scissor_rect.x, d->scissor_rect.y, d->scissor_rect.width,
                d->scissor_rect.height);
    fprintf(f, "%sindices from %u, %u of them, %u instance(s)\n", in, d->first, d->count, d->instances);
}

static void print_samplers(FILE *f, const char *in, const replay_draw *d)
{
    for (size_t i = 0; i < d->upload->nsamplers; i++) {
        const agal_sampler *s = &d->sampler[d->upload->samplers[i].num];
        fprintf(f, "%sfs%u: wrap %s, filter %s, mipmap %s, lod bias %g\n", in, s->num, s3d(AGAL_S3D_WRAP_MODE, s->wrap),
                s3d(AGAL_S3D_TEXTURE_FILTER, s->filter), s3d(AGAL_S3D_MIP_FILTER, s->mipmap), s->bias / 8.0);
    }
}

/* ---- the textures' writes ------------------------------------------------------- */

/* The history of texture name; NULL: none yet (add: made, NULL when out of memory). */
static thistory *history_of(tracker *t, const char *name, bool add)
{
    for (size_t i = 0; i < t->ntex; i++)
        if (!strcmp(t->tex[i].name, name)) return &t->tex[i];
    if (!add) return NULL;
    thistory *grown = realloc(t->tex, (t->ntex + 1) * sizeof *grown);
    if (!grown) return NULL;
    t->tex = grown;
    thistory *h = &t->tex[t->ntex];
    *h = (thistory){.name = strdup(name)};
    if (!h->name) return NULL;
    t->ntex++;
    return h;
}

/* Forgets h's writes: its contents were replaced. */
static void history_clear(thistory *h)
{
    for (size_t i = 0; i < h->n; i++) free(h->w[i].draw);
    h->n = h->dropped = 0;
    h->rendered = false;
}

/* A clear, as against an upload or a texture's creation (no draw either). */
static bool is_clear(const replay_probe *p) { return !p->draw && !strcmp(p->method, "clear"); }

static void history_add(thistory *h, const replay_probe *p, char *draw)
{
    if (h->n == WRITES_KEPT) {
        free(h->w[0].draw);
        memmove(h->w, h->w + 1, (WRITES_KEPT - 1) * sizeof *h->w);
        h->n--, h->dropped++;
    }
    h->w[h->n++] = (twrite){p->call, p->method, draw};
    h->rendered |= p->draw || is_clear(p);
}

/* The calls that wrote the texture of each fs the draw samples, one line each: what
 * a draw into a texture says of its own sources. */
static void print_sources_short(FILE *f, tracker *t, const char *in, const replay_probe *p)
{
    for (unsigned n = 0; n < REPLAY_SAMPLERS; n++) {
        const thistory *h = p->sampled[n] ? history_of(t, p->sampled[n], false) : NULL;
        if (!h || !h->rendered) continue;
        fprintf(f, "%sfs%u samples texture %s, written by call", in, n, h->name);
        for (size_t i = 0; i < h->n; i++) fprintf(f, "%s %zu (%s)", i ? "," : "", h->w[i].call, h->w[i].method);
        fputc('\n', f);
    }
}

/* Each texture the draw samples that a clear or draw rendered: its writes before
 * the draw, each draw's with its report. */
static void print_sources(FILE *f, tracker *t, const replay_probe *p)
{
    t->ncand = 0;
    for (unsigned n = 0; n < REPLAY_SAMPLERS; n++) {
        const thistory *h = p->sampled[n] ? history_of(t, p->sampled[n], false) : NULL;
        if (!h || !h->rendered) continue;
        fprintf(f, "  fs%u samples texture %s, rendered before this draw by:\n", n, h->name);
        if (h->dropped) fprintf(f, "    (%zu earlier writes not kept)\n", h->dropped);
        for (size_t i = 0; i < h->n; i++) {
            const twrite *w = &h->w[i];
            fprintf(f, "    call %zu (%s)%s\n%s", w->call, w->method, w->draw ? ":" : "", w->draw ? w->draw : "");
            if (!w->draw && strcmp(w->method, "clear")) continue;
            t->cand[t->ncand].call = w->call;
            snprintf(t->cand[t->ncand++].method, sizeof t->cand[0].method, "%s", w->method);
        }
    }
}

/* The draw: its programs, state, constants and samplers, each line indented by in. */
static void print_draw(FILE *f, tracker *t, const char *in, const replay_draw *d)
{
    print_program(f, t, in, "vertex", d->upload->vertex);
    print_program(f, t, in, "fragment", d->upload->fragment);
    print_state(f, in, d);
    print_constants(f, t, in, d->upload->vertex, "vc", d->vc);
    print_constants(f, t, in, d->upload->fragment, "fc", d->fc);
    print_samplers(f, in, d);
}

/* The text f wrote (malloc'd), NULL when out of memory; the context's disassemblies
 * and reflections are given back, so a report holds nothing from draw to draw. */
static char *close_report(tracker *t, FILE *f, char **text)
{
    agal_context_reset(t->ctx);
    if (fclose(f)) { /* *text is the memstream's once closed */
        free(*text);
        return NULL;
    }
    return *text;
}

/* A draw into textures, as a report on a texture it wrote shows it. */
static char *write_report(tracker *t, const replay_probe *p)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    print_draw(f, t, "      ", p->draw);
    print_sources_short(f, t, "      ", p);
    return close_report(t, f, &text);
}

/* A call that wrote textures: each one's history goes on, or starts again (a clear,
 * the texture made: then nothing is written yet). */
static void texture_written(tracker *t, const replay_probe *p)
{
    char *report = p->draw ? write_report(t, p) : NULL;
    t->failed |= p->draw && !report;
    for (unsigned i = 0; i < REPLAY_TARGETS && p->written[i] && !t->failed; i++) {
        thistory *h = history_of(t, p->written[i], true);
        if (!h) {
            t->failed = true;
            break;
        }
        if (p->replaced) history_clear(h);
        if (p->replaced && !p->draw && !is_clear(p)) continue;
        char *draw = report ? strdup(report) : NULL; /* each history frees its own */
        t->failed |= report && !draw;
        if (!t->failed) history_add(h, p, draw);
    }
    free(report);
}

static char *make_report(tracker *t, const replay_probe *p, const uint8_t *after)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    fprintf(f, "first divergence at pixel (%u, %u): call %zu (%s) wrote it\n", t->x, t->y, p->call, p->method);
    if (t->known) fprintf(f, "  pixel before: (%u, %u, %u)\n", t->before[0], t->before[1], t->before[2]);
    else fprintf(f, "  pixel before: undefined (the back buffer was not cleared)\n");
    fprintf(f, "  pixel after: (%u, %u, %u); the reference: (%u, %u, %u)\n", after[0], after[1], after[2], t->ref[0],
            t->ref[1], t->ref[2]);
    memcpy(t->after, after, 3);
    t->ncand = 0;
    if (p->draw) {
        print_draw(f, t, "  ", p->draw);
        print_sources(f, t, p);
    }
    return close_report(t, f, &text);
}

/* ---- the probe ------------------------------------------------------------------ */

static void probe(void *user, const replay_probe *p)
{
    tracker *t = user;
    if (!p->rgba) {
        texture_written(t, p);
        return;
    }
    if (t->x >= p->width || t->y >= p->height) return; /* a back buffer of another size */
    const uint8_t *px = p->rgba + 4 * ((size_t)t->y * p->width + t->x);
    if (p->nimages == t->image && (!t->known || memcmp(px, t->before, 3))) {
        free(t->report);
        t->report = make_report(t, p, px);
        t->failed |= !t->report;
        t->failed |= fprintf(t->history, "    call %zu (%s): (%u, %u, %u)%s\n", p->call, p->method, px[0], px[1], px[2],
                             off_reference(t, px) ? "" : ", as the reference") < 0;
    }
    memcpy(t->before, px, 3);
    t->known = true;
}

/* ---- the run ---------------------------------------------------------------------- */

/* The last change's report and the pixel's history, or that nothing changed it. */
static void print_outcome(const tracker *t, size_t image, const char *history)
{
    if (t->report) {
        printf("%s  the pixel's changes in image %zu's calls:\n%s", t->report, image, history);
        return;
    }
    printf("first divergence at pixel (%u, %u): no clear or draw before image %zu changed it; (%u, %u, %u) held "
           "from before (a draw that should cover it does not)\n",
           t->x, t->y, image, t->before[0], t->before[1], t->before[2]);
}

/* Each draw and clear into the textures the named draw sampled, left out in a
 * replay of its own: one that changes the pixel reached it through the texture
 * (the texel sampled, or what a later write there blended with). The replay's
 * image n; false when the scene does not replay without the call. */
static bool pixel_without(const divergence_args *a, const tracker *t, size_t call, size_t n, uint8_t px[3])
{
    replay_open_options o = *a->open;
    o.skip_call = call;
    replay_result r = {0};
    replay_run(a->json, a->len, a->scene, a->ops, &o, &r);
    bool ok = r.status == REPLAY_OK && r.nimages >= n && r.images[n - 1].width > t->x && r.images[n - 1].height > t->y;
    if (ok) memcpy(px, r.images[n - 1].rgba + 4 * ((size_t)t->y * r.images[n - 1].width + t->x), 3);
    replay_result_free(&r);
    return ok;
}

static void print_without(const divergence_args *a, const tracker *t, size_t n)
{
    if (!t->report || !t->ncand) return;
    printf("  each of those draws and clears left out in turn (the scene replayed without it):\n");
    for (size_t i = 0; i < t->ncand; i++) {
        uint8_t px[3];
        printf("    without call %zu (%s): ", t->cand[i].call, t->cand[i].method);
        if (!pixel_without(a, t, t->cand[i].call, n, px)) printf("the scene does not replay the same\n");
        else if (memcmp(px, t->after, 3)) printf("(%u, %u, %u): it reaches the pixel\n", px[0], px[1], px[2]);
        else printf("unchanged\n");
    }
}

/* The pixel followed: *at, or the first differing pixel in row order; false: none. */
static bool pick_pixel(const replay_image *im, const uint8_t *ref, const int32_t *at, unsigned tolerance, uint32_t *x,
                       uint32_t *y)
{
    for (size_t i = 0; i < (size_t)im->width * im->height; i++) {
        uint32_t px = (uint32_t)(i % im->width), py = (uint32_t)(i / im->width);
        if (at && (px != (uint32_t)at[0] || py != (uint32_t)at[1])) continue;
        for (int c = 0; c < 3; c++)
            if ((unsigned)abs((int)im->rgba[4 * i + c] - (int)ref[4 * i + c]) > tolerance) {
                *x = px, *y = py;
                return true;
            }
    }
    return false;
}

int agalrun_first_divergence(const divergence_args *a, const replay_result *first)
{
    size_t n = a->frame ? a->frame : first->nimages;
    if (n == 0 || n > first->nimages) {
        fprintf(stderr, "%s: --first-divergence: the scene yields %zu images, not image %zu\n", a->scene,
                first->nimages, n);
        return 2;
    }
    const replay_image *im = &first->images[n - 1];
    uint32_t rw, rh;
    uint8_t *ref = replay_png_read("agalrun replay", a->reference, &rw, &rh);
    if (!ref) return 2;
    if (rw != im->width || rh != im->height ||
        (a->at && (a->at[0] < 0 || a->at[1] < 0 || (uint32_t)a->at[0] >= rw || (uint32_t)a->at[1] >= rh))) {
        fprintf(stderr, "%s: --first-divergence: %s is %ux%u, image %zu %ux%u%s\n", a->scene, a->reference, rw, rh, n,
                im->width, im->height, a->at ? ", and --at must lie in both" : ": they must be the same size");
        free(ref);
        return 2;
    }
    tracker t = {.image = n - 1, .tolerance = a->tolerance};
    if (!pick_pixel(im, ref, a->at, a->tolerance, &t.x, &t.y)) {
        printf("no divergence: image %zu matches %s%s\n", n, a->reference, a->at ? " at --at" : "");
        free(ref);
        return 0;
    }
    memcpy(t.ref, ref + 4 * ((size_t)t.y * rw + t.x), 3);
    free(ref);
    if (!(t.ctx = agal_context_new(NULL, NULL))) {
        fprintf(stderr, "agalrun replay: out of memory\n");
        return 2;
    }
    char *history = NULL;
    size_t hlen = 0;
    if (!(t.history = open_memstream(&history, &hlen))) t.failed = true;
    replay_open_options o = *a->open;
    o.probe = probe;
    o.probe_user = &t;
    replay_result r = {0};
    if (!t.failed) replay_run(a->json, a->len, a->scene, a->ops, &o, &r);
    if (t.history && fclose(t.history)) t.failed = true;
    int rc = r.status == REPLAY_FAILED || t.failed ? 2 : 1;
    if (t.failed) fprintf(stderr, "agalrun replay: out of memory\n");
    if (rc == 1) print_outcome(&t, n, history);
    if (rc == 1) print_without(a, &t, n);
    replay_result_free(&r);
    free(history);
    free(t.report);
    for (size_t i = 0; i < t.ntex; i++) {
        history_clear(&t.tex[i]);
        free(t.tex[i].name);
    }
    free(t.tex);
    agal_context_free(t.ctx);
    return rc;
}
