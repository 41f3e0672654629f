/* compare_webgl.c: the browser (WebGL 2, WebGL 1 for AGAL1 pairs, WebGPU) as a
 * backend of `agalrun compare` (the method: agalrun_compare.c; the browser:
 * harness_web.h).
 *
 * A browser start costs seconds, so a batch of pairs runs twice: a recording pass
 * in which every WebGL draw is queued instead of run (cmp_run_pair skips the other
 * backends and every check), one browser run of all of them, and the real pass, in
 * which each WebGL draw is answered from that run. A draw is found again by a hash
 * of its whole description (shaders, inputs, sizes), so the real pass may ask in any
 * order and as often as it likes (the report of a failing pair draws it again). */
#include "agal/stage3d.h"
#include "compare.h"
#include "harness_web.h"

#include <stdlib.h>
#include <string.h>

/* Each browser run may take this long (a batch of CMP_BATCH pairs takes well under). */
enum { WEB_TIMEOUT_S = 540 };

/* A draw met while recording: queued for the next browser run, then its outcome. */
typedef struct recorded {
    uint64_t hash;
    bool used, done;  /* a slot in use; the browser has run it */
    long queued;      /* its index in the pending browser run */
    harness_result r; /* done: the outputs ... */
    char *error;      /* ... or why there are none */
} recorded;

struct cmp_web {
    harness_web *h;
    bool recording;
    recorded *table; /* open addressing, a power of two long */
    size_t cap, used;
    unsigned runs, draws;
    double seconds;
};

cmp_web *cmp_web_create(char *err, size_t errsize)
{
    cmp_web *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    if (!(w->h = harness_web_create(NULL, WEB_TIMEOUT_S, err, errsize))) {
        free(w);
        return NULL;
    }
    return w;
}

void cmp_web_forget(cmp_web *w)
{
    for (size_t i = 0; i < w->cap; i++) {
        harness_result_free(&w->table[i].r);
        free(w->table[i].error);
        memset(&w->table[i], 0, sizeof w->table[i]);
    }
    w->used = 0;
}

void cmp_web_destroy(cmp_web *w)
{
    if (!w) return;
    cmp_web_forget(w);
    harness_web_destroy(w->h);
    free(w->table);
    free(w);
}

const char *cmp_web_browser(const cmp_web *w) { return harness_web_browser(w->h); }
bool cmp_web_recording(const cmp_web *w) { return w->recording; }

void cmp_web_report(const cmp_web *w, unsigned pairs)
{
    printf("compare: browser: %u draws in %u flush(es), %.1f s in the browser (%.2f s a pair)\n", w->draws, w->runs,
           w->seconds, pairs ? w->seconds / pairs : 0.0);
    static const int apis[] = {WEB_WEBGL2, WEB_WEBGL1, WEB_WEBGPU};
    static const char *const names[] = {"webgl2", "webgl1", "webgpu"};
    for (int i = 0; i < 3; i++)
        if (harness_web_renderer(w->h, apis[i])[0])
            printf("compare: %s: %s\n", names[i], harness_web_renderer(w->h, apis[i]));
}

/* FNV-1a over the draw's page text: equal descriptions, equal hashes. */
static uint64_t draw_hash(int api, const harness_draw *d, bool *oom)
{
    web_text t = {0};
    if (api == WEB_WEBGPU) {
        web_puts(&t, "webgpu ");
        webgpu_page_draw(&t, d);
    } else web_page_draw(&t, api, d);
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < t.n; i++) h = (h ^ (unsigned char)t.p[i]) * 0x100000001b3ull;
    *oom = t.oom;
    web_text_free(&t);
    return h;
}

static recorded *slot(cmp_web *w, uint64_t hash)
{
    size_t i = (size_t)hash & (w->cap - 1);
    while (w->table[i].used && w->table[i].hash != hash) i = (i + 1) & (w->cap - 1);
    return &w->table[i];
}

static bool grow(cmp_web *w)
{
    if (w->cap && 2 * (w->used + 1) <= w->cap) return true;
    size_t cap = w->cap ? 2 * w->cap : 256, oldcap = w->cap;
    recorded *old = w->table, *t = calloc(cap, sizeof *t);
    if (!t) return false;
    w->table = t;
    w->cap = cap;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].used) *slot(w, old[i].hash) = old[i];
    free(old);
    return true;
}

void cmp_web_record(cmp_web *w) { w->recording = true; }

int cmp_web_replay(cmp_web *w)
{
    w->recording = false;
    size_t n = harness_web_queued(w->h);
    if (n == 0) return 0;
    char err[4096];
    w->draws += (unsigned)n;
    int rc = harness_web_flush(w->h, err, sizeof err);
    w->runs++;
    w->seconds += harness_web_last_seconds(w->h);
    if (rc) fprintf(stderr, "compare: browser: %s\n", err); /* every draw of the run then fails to run */
    for (size_t i = 0; i < w->cap; i++) {
        recorded *s = &w->table[i];
        if (!s->used || s->done) continue;
        s->done = true;
        if (harness_web_take(w->h, (size_t)s->queued, &s->r, err, sizeof err)) s->error = strdup(err);
    }
    return rc;
}

/* A copy of n floats (NULL stays NULL); false when out of memory. */
static bool copy_floats(float **dst, const float *src, size_t n)
{
    *dst = NULL;
    if (!src) return true;
    *dst = malloc((n ? n : 1) * sizeof **dst);
    if (*dst) memcpy(*dst, src, n * sizeof **dst);
    return *dst != NULL;
}

/* The stored outcome of a draw, copied into r (the caller frees it). */
static int answer(const recorded *s, const harness_draw *d, harness_result *r, char *err, size_t errsize)
{
    if (s->error) {
        snprintf(err, errsize, "%s", s->error);
        return -1;
    }
    size_t px = (size_t)d->width * d->height;
    bool ok = copy_floats(&r->depth, s->r.depth, px) && copy_floats(&r->xfb, s->r.xfb, s->r.xfb_floats);
    for (int i = 0; i < HARNESS_MAX_OUTPUTS; i++) ok &= copy_floats(&r->color[i], s->r.color[i], px * 4);
    r->xfb_floats = s->r.xfb_floats;
    if (!ok) {
        harness_result_free(r);
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    return 0;
}

int cmp_web_run(cmp_web *w, int api, const harness_draw *d, harness_result *r, char *err, size_t errsize)
{
    memset(r, 0, sizeof *r);
    if (d->pre || d->cull != AGAL_FACE_NONE) { /* compare draws neither */
        snprintf(err, errsize, "the browser backend draws no render-to-texture pass and culls nothing");
        return -1;
    }
    bool oom;
    uint64_t hash = draw_hash(api, d, &oom);
    if (oom || !grow(w)) {
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    recorded *s = slot(w, hash);
    if (s->used && s->done) return answer(s, d, r, err, errsize);
    if (!w->recording || s->used) {
        snprintf(err, errsize, "internal: %s",
                 s->used ? "a draw still queued" : "a draw the recording pass did not make");
        return w->recording ? CMP_DEFERRED : -1;
    }
    long i = harness_web_queue(w->h, api, d);
    if (i < 0) {
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    *s = (recorded){.hash = hash, .used = true, .queued = i};
    w->used++;
    return CMP_DEFERRED;
}
