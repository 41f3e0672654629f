/* agalrun_replay.c: `agalrun replay SCENE.json`, the Stage3D call replay.
 *
 *   agalrun replay SCENE.json [-o FRAME.png] [--backend vulkan|gl|webgl]
 *                  [--expect REF.png [--tolerance N] [--max-outliers M] [--at X,Y]]
 *                  [--frame N] [--check] [--validation] [--memory-limit BYTES]
 *                  [--limits NAME|FILE.json] [--stats]
 *                  [--pipeline-cache FILE | --no-pipeline-cache]
 *
 * Replays the scene (replay.h) on the backend and writes each image a present or a
 * drawToBitmapData yields: FRAME.png, or FRAME-1.png, FRAME-2.png ... when there
 * are several. --expect compares an image (the last, or --frame N) with a
 * reference in which the back buffer sits at X,Y (a Flash Player screenshot of the
 * stage): a pixel whose R, G or B is off by more than the tolerance is an outlier,
 * and more than M outliers exit 1, with a difference image FRAME-diff.png. --check
 * holds the scene to what it says of itself: its "expect" pixels and its "throws"
 * line. Exit status: 0; 1 the scene threw (the Flash line on stderr), a frame or a
 * check does not match; 2 usage, I/O, a malformed scene, a backend failure or the
 * memory limit (replay_budget.c: buffers, textures, back buffers and images
 * together, REPLAY_MEMORY_LIMIT unless --memory-limit says). --limits holds every
 * Program3D.upload to a device's limits (a preset or a JSON file, limits_arg.h): a
 * pair that cannot fit throws Flash's 3613, and the diagnostic naming the limit goes
 * to stderr. --stats prints each frame's draws, distinct baked pipeline keys,
 * pipelines made and their time on stdout; --pipeline-cache keeps the pipelines
 * (Vulkan's cache data, GL's program binaries) in FILE from one run to the next;
 * --no-pipeline-cache rebuilds the pipeline at every change of state
 * (docs/replay.md, "Pipelines"). --first-divergence REF.png replays again to name
 * the call that first put a differing pixel off the reference for good
 * (agalrun_divergence.c; docs/replay.md, "First divergence"). --inject-fault puts
 * an undeclared name on a token's line of the GL backend's GLSL, for the test that
 * the driver's refusal is mapped back to the token (docs/debug-info.md). */
#include "agalrun.h"
#include "divergence.h"
#include "harness.h"
#include "limits_arg.h"
#include "replay.h"

#include <cjson/cJSON.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest scene read: a cap against reading a device, not a limit of the
 * format (a scene's textures and buffers are base64 in the JSON). */
enum { MAX_SCENE = 256 << 20 };

typedef struct options {
    const char *scene, *out, *expect, *backend, *limits, *pipeline_cache, *divergence, *fault;
    unsigned tolerance, max_outliers, frame;
    int32_t at[2];
    bool at_given, check, validation, stats, no_pipeline_cache;
    unsigned long long memory_limit;
} options;

static int usage(void)
{
    fprintf(stderr,
            "usage: agalrun replay SCENE.json [-o FRAME.png] [--backend vulkan|gl|webgl]\n"
            "                      [--expect REF.png [--tolerance N] [--max-outliers M] [--at X,Y]]\n"
            "                      [--frame N] [--check] [--validation] [--memory-limit BYTES]\n"
            "                      [--limits NAME|FILE.json] [--stats]\n"
            "                      [--pipeline-cache FILE | --no-pipeline-cache]\n"
            "                      [--first-divergence REF.png [--at X,Y] [--frame N] [--tolerance N]]\n"
            "                      [--inject-fault vertex|fragment:TOKEN]\n"
            "  -o FRAME.png      write the images (FRAME-1.png, FRAME-2.png ... when several)\n"
            "  --backend NAME    vulkan (default) or gl\n"
            "  --expect REF.png  compare the image with REF.png, in which it sits at --at X,Y (default 0,0):\n"
            "                    more than --max-outliers M pixels (default 0) off by more than\n"
            "                    --tolerance N (default 0) in R, G or B is exit 1 and FRAME-diff.png\n"
            "  --frame N         the image --expect compares (counting from 1; default the last)\n"
            "  --check           check the scene's own \"expect\" pixels and \"throws\" line\n"
            "  --validation      Vulkan: the validation layer, any message fails the run\n"
            "  --memory-limit BYTES  buffers, textures, back buffers and images together (default %llu):\n"
            "                    a call past it stops the replay (exit 2)\n"
            "  --limits NAME|FILE.json  the device's limits every upload is held to (a preset: webgl1,\n"
            "                    webgl2, gl33, vulkan, webgpu, webgpu-compat, wgpu-gl31; or a JSON file):\n"
            "                    a pair that cannot fit throws Error #3613\n"
            "  --stats           per frame on stdout: draws, distinct pipeline keys, pipelines created,\n"
            "                    pipelines from the cache file, milliseconds creating them\n"
            "  --pipeline-cache FILE  load the pipelines from FILE when it exists, save them at the end\n"
            "  --no-pipeline-cache  a new pipeline at every change of state, none kept\n"
            "  --first-divergence REF.png  the image against REF.png (the same size): replays again and\n"
            "                    names the first call after which pixel --at X,Y (default: the first\n"
            "                    differing pixel in row order) went off REF.png for good, with its\n"
            "                    programs, state, constants and the pixel before and after (exit 1)\n"
            "  --inject-fault STAGE:TOKEN  gl, a test aid: an undeclared name on that token's line (from 0)\n"
            "                    of the stage's GLSL; the driver's refusal names the AGAL token\n",
            (unsigned long long)REPLAY_MEMORY_LIMIT);
    return 2;
}

static bool parse_at(const char *text, int32_t at[2])
{
    char *end;
    long x = strtol(text, &end, 10), y = 0;
    bool ok = *end == ',' && end > text;
    if (ok) {
        const char *p = end + 1;
        y = strtol(p, &end, 10);
        ok = end > p && !*end;
    }
    ok = ok && x >= -65536 && x <= 65536 && y >= -65536 && y <= 65536;
    if (!ok) fprintf(stderr, "agalrun replay: --at: '%s' is not X,Y (whole numbers)\n", text);
    at[0] = (int32_t)x;
    at[1] = (int32_t)y;
    return ok;
}

/* --inject-fault vertex|fragment:TOKEN */
static bool parse_fault(const char *text, replay_open_options *o)
{
    const char *colon = strchr(text, ':');
    size_t n = colon ? (size_t)(colon - text) : 0;
    bool vertex = n == 6 && !strncmp(text, "vertex", n), fragment = n == 8 && !strncmp(text, "fragment", n);
    unsigned token = 0;
    if ((!vertex && !fragment) ||
        !tool_parse_unsigned("agalrun replay", "--inject-fault", colon + 1, 0, 1u << 20, &token)) {
        fprintf(stderr, "agalrun replay: --inject-fault: '%s' is not vertex:TOKEN or fragment:TOKEN\n", text);
        return false;
    }
    o->fault.inject = true;
    o->fault.stage = vertex ? AGAL_VERTEX : AGAL_FRAGMENT;
    o->fault.token = token;
    return true;
}

static int parse_options(int argc, char **argv, options *o)
{
    *o = (options){.backend = "vulkan"};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = true;
        if (!strcmp(a, "--check")) o->check = true;
        else if (!strcmp(a, "--validation")) o->validation = true;
        else if (!strcmp(a, "--stats")) o->stats = true;
        else if (!strcmp(a, "--no-pipeline-cache")) o->no_pipeline_cache = true;
        else if (!strcmp(a, "--help")) return usage();
        else if (a[0] != '-' && !o->scene) o->scene = a;
        else if (!v) ok = false;
        else if (!strcmp(a, "-o")) o->out = argv[++i];
        else if (!strcmp(a, "--backend")) o->backend = argv[++i];
        else if (!strcmp(a, "--expect")) o->expect = argv[++i];
        else if (!strcmp(a, "--first-divergence")) o->divergence = argv[++i];
        else if (!strcmp(a, "--inject-fault")) o->fault = argv[++i];
        else if (!strcmp(a, "--limits")) o->limits = argv[++i];
        else if (!strcmp(a, "--pipeline-cache")) o->pipeline_cache = argv[++i];
        else if (!strcmp(a, "--tolerance"))
            ok = tool_parse_unsigned("agalrun replay", a, argv[++i], 0, 255, &o->tolerance);
        else if (!strcmp(a, "--max-outliers"))
            ok = tool_parse_unsigned("agalrun replay", a, argv[++i], 0, 1u << 30, &o->max_outliers);
        else if (!strcmp(a, "--frame"))
            ok = tool_parse_unsigned("agalrun replay", a, argv[++i], 1, 1u << 20, &o->frame);
        else if (!strcmp(a, "--at")) ok = o->at_given = parse_at(argv[++i], o->at);
        else if (!strcmp(a, "--memory-limit"))
            ok = tool_parse_uint("agalrun replay", a, argv[++i], 1, 1ull << 48, &o->memory_limit);
        else {
            fprintf(stderr, "agalrun replay: %s: unknown option\n", a);
            return usage();
        }
        if (!ok) {
            if (!v) fprintf(stderr, "agalrun replay: %s: needs a value\n", a);
            return usage();
        }
    }
    if (!o->scene) {
        fprintf(stderr, "agalrun replay: give a scene\n");
        return usage();
    }
    if (o->fault && strcmp(o->backend, "gl")) {
        fprintf(stderr, "agalrun replay: --inject-fault is for --backend gl\n");
        return usage();
    }
    if (o->divergence && (o->expect || o->check)) {
        fprintf(stderr, "agalrun replay: --first-divergence excludes --expect and --check\n");
        return usage();
    }
    if (o->pipeline_cache && o->no_pipeline_cache) {
        fprintf(stderr, "agalrun replay: --pipeline-cache and --no-pipeline-cache exclude each other\n");
        return usage();
    }
    return 0;
}

/* FRAME.png, or FRAME-N.png (N counting from 1) when there are several; tag
 * instead of N for the difference image. */
static char *frame_path(const char *out, size_t n, size_t count, const char *tag)
{
    size_t len = strlen(out), stem = len;
    if (len > 4 && !strcmp(out + len - 4, ".png")) stem = len - 4;
    char *p = malloc(len + 32);
    if (!p) return NULL;
    char suffix[24] = "";
    if (tag) snprintf(suffix, sizeof suffix, "-%s", tag);
    else if (count > 1) snprintf(suffix, sizeof suffix, "-%zu", n + 1);
    snprintf(p, len + 32, "%.*s%s%s", (int)stem, out, suffix, out + stem);
    return p;
}

static int write_frames(const options *o, const replay_result *r)
{
    for (size_t i = 0; o->out && i < r->nimages; i++) {
        char *p = frame_path(o->out, i, r->nimages, NULL);
        bool ok = p &&
                  replay_png_write("agalrun replay", p, r->images[i].rgba, r->images[i].width, r->images[i].height);
        if (!p) fprintf(stderr, "agalrun replay: out of memory\n");
        free(p);
        if (!ok) return 2;
    }
    return 0;
}

/* --expect: the image against the reference. */
static int expect_frame(const options *o, const replay_result *r)
{
    size_t n = o->frame ? o->frame : r->nimages;
    if (n == 0 || n > r->nimages) {
        fprintf(stderr, "%s: --expect: the scene yields %zu images, not image %zu\n", o->scene, r->nimages, n);
        return 1;
    }
    const replay_image *im = &r->images[n - 1];
    uint32_t rw, rh;
    uint8_t *ref = replay_png_read("agalrun replay", o->expect, &rw, &rh);
    if (!ref) return 2;
    replay_diff d;
    replay_compare(im->rgba, im->width, im->height, ref, rw, rh, o->at[0], o->at[1], o->tolerance, &d);
    free(ref);
    int rc = 0;
    if (!d.compared) {
        fprintf(stderr, "%s: image %zu at %d,%d does not overlap %s\n", o->scene, n, o->at[0], o->at[1], o->expect);
        rc = 1;
    } else {
        fprintf(stderr, "%s: image %zu: %u of %u pixels differ from %s by more than %u (largest %u)\n", o->scene, n,
                d.outliers, d.compared, o->expect, o->tolerance, d.largest);
        rc = d.outliers > o->max_outliers;
    }
    if (rc && d.image && o->out) {
        char *p = frame_path(o->out, 0, 1, "diff");
        if (p && replay_png_write("agalrun replay", p, d.image, d.width, d.height))
            fprintf(stderr, "%s: the difference: %s (outliers red)\n", o->scene, p);
        free(p);
    }
    free(d.image);
    return rc;
}

/* --stats: one line a frame, then the run's. */
static void print_stats(const replay_result *r)
{
    for (size_t i = 0; i <= r->nframes; i++) {
        const replay_frame_stats *f = i < r->nframes ? &r->frames[i] : &r->total;
        char frame[32] = "total";
        if (i < r->nframes) snprintf(frame, sizeof frame, "frame %zu", i + 1);
        printf("%s: draws %u, keys %u, pipelines created %u, cache hits %u, pipeline ms %.1f\n", frame, f->draws,
               f->keys, f->pipelines.created, f->pipelines.cache_hits, f->pipelines.ms);
    }
}

/* ---- --check: the scene's own expectations ---------------------------------------- */

static bool json_uint(const cJSON *j, unsigned max, unsigned *out)
{
    if (!cJSON_IsNumber(j) || j->valuedouble < 0 || j->valuedouble > max || j->valuedouble != (unsigned)j->valuedouble)
        return false;
    *out = (unsigned)j->valuedouble;
    return true;
}

/* One {"frame": N, "x": X, "y": Y, "rgb": [R, G, B], "tolerance": T}: 1 when it
 * does not hold, 2 when it is malformed. */
static int check_pixel(const char *scene, const cJSON *e, const replay_result *r)
{
    unsigned frame = 1, x, y, tol = 1, rgb[3];
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "rgb"), *f = cJSON_GetObjectItemCaseSensitive(e, "frame");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(e, "tolerance");
    bool ok = json_uint(cJSON_GetObjectItemCaseSensitive(e, "x"), 65535, &x) &&
              json_uint(cJSON_GetObjectItemCaseSensitive(e, "y"), 65535, &y) &&
              (!f || json_uint(f, 1u << 20, &frame)) && (!t || json_uint(t, 255, &tol)) && cJSON_GetArraySize(c) == 3;
    for (int i = 0; ok && i < 3; i++) ok = json_uint(cJSON_GetArrayItem(c, i), 255, &rgb[i]);
    if (!ok) {
        fprintf(stderr,
                "%s: an \"expect\" entry is {\"frame\": N, \"x\": X, \"y\": Y, \"rgb\": [R, G, B], \"tolerance\": T}\n",
                scene);
        return 2;
    }
    if (frame < 1 || frame > r->nimages || x >= r->images[frame - 1].width || y >= r->images[frame - 1].height) {
        fprintf(stderr, "%s: expect: image %u has no pixel (%u, %u) (%zu images)\n", scene, frame, x, y, r->nimages);
        return 1;
    }
    const replay_image *im = &r->images[frame - 1];
    const uint8_t *p = im->rgba + 4 * ((size_t)y * im->width + x);
    for (int i = 0; i < 3; i++)
        if ((unsigned)abs((int)p[i] - (int)rgb[i]) > tol) {
            fprintf(stderr, "%s: image %u pixel (%u, %u) is (%u, %u, %u), expected (%u, %u, %u) within %u\n", scene,
                    frame, x, y, p[0], p[1], p[2], rgb[0], rgb[1], rgb[2], tol);
            return 1;
        }
    return 0;
}

/* "throws": {"call": N, "line": "Error: Error #..."}: the replay threw exactly that. */
static int check_throws(const char *scene, const cJSON *throws, const replay_result *r)
{
    unsigned call;
    const cJSON *line = cJSON_GetObjectItemCaseSensitive(throws, "line");
    if (throws &&
        (!json_uint(cJSON_GetObjectItemCaseSensitive(throws, "call"), 1u << 30, &call) || !cJSON_IsString(line))) {
        fprintf(stderr, "%s: \"throws\" is {\"call\": N, \"line\": \"...\"}\n", scene);
        return 2;
    }
    bool thrown = r->status == REPLAY_THROWN;
    if (thrown && (!throws || r->call != call || strcmp(r->thrown, line->valuestring)))
        fprintf(stderr, "%s: call %zu (%s) threw: %s\n", scene, r->call, r->method, r->thrown);
    if (!throws) return thrown;
    if (!thrown || r->call != call || strcmp(r->thrown, line->valuestring)) {
        fprintf(stderr, "%s: expected call %u to throw: %s\n", scene, call, line->valuestring);
        return 1;
    }
    return 0;
}

static int check_scene(const options *o, const char *json, size_t len, const replay_result *r)
{
    cJSON *root = cJSON_ParseWithLength(json, len);
    const cJSON *expect = cJSON_GetObjectItemCaseSensitive(root, "expect");
    int rc = check_throws(o->scene, cJSON_GetObjectItemCaseSensitive(root, "throws"), r);
    if (expect && !cJSON_IsArray(expect)) {
        fprintf(stderr, "%s: \"expect\" is an array\n", o->scene);
        rc = 2;
    }
    for (const cJSON *e = expect ? expect->child : NULL; e && rc < 2; e = e->next) {
        int p = check_pixel(o->scene, e, r);
        rc = p > rc ? p : rc;
    }
    cJSON_Delete(root);
    return rc;
}

int agalrun_replay(int argc, char **argv)
{
    options o;
    if (parse_options(argc, argv, &o)) return 2;
    const char *why;
    const replay_backend_ops *ops = replay_backend_find(o.backend, &why);
    if (!ops) {
        fprintf(stderr, "agalrun replay: --backend %s: %s\n", o.backend, why);
        return 2;
    }
    /* the limits, and a JSON file's name, live in a context of their own */
    agal_context *lctx = o.limits ? agal_context_new(NULL, NULL) : NULL;
    agal_limits device = agal_limits_init();
    if (o.limits && (!lctx || tool_load_limits(lctx, "agalrun replay", o.limits, &device))) {
        agal_context_free(lctx);
        return 2;
    }
    size_t len;
    char *json = tool_read_input(o.scene, MAX_SCENE, "the largest scene read", &len);
    if (!json) {
        agal_context_free(lctx);
        return 2;
    }
    replay_result r;
    replay_open_options oo = {.validation = o.validation,
                              .opened = harness_pin_libraries,
                              .memory_limit = o.memory_limit,
                              .limits = o.limits ? &device : NULL,
                              .pipeline_cache = o.pipeline_cache,
                              .rebuild_pipelines = o.no_pipeline_cache};
    if (o.fault && !parse_fault(o.fault, &oo)) {
        agal_context_free(lctx);
        free(json);
        return 2;
    }
    replay_run(json, len, o.scene, ops, &oo, &r);
    int rc = r.status == REPLAY_FAILED ? 2 : 0;
    if (r.status == REPLAY_THROWN && !o.check)
        fprintf(stderr, "%s: call %zu (%s): %s\n", o.scene, r.call, r.method, r.thrown);
    if (o.stats && r.status != REPLAY_FAILED) print_stats(&r);
    if (rc == 0) rc = write_frames(&o, &r);
    if (rc == 0 && r.status == REPLAY_THROWN && !o.check) rc = 1;
    if (rc == 0 && o.check) rc = check_scene(&o, json, len, &r);
    if (rc == 0 && o.expect) rc = expect_frame(&o, &r);
    if (rc == 0 && o.divergence) {
        divergence_args a = {o.scene,    json, len, ops, &oo, o.divergence, o.frame, o.at_given ? o.at : NULL,
                             o.tolerance};
        rc = agalrun_first_divergence(&a, &r);
    }
    replay_result_free(&r);
    agal_context_free(lctx);
    free(json);
    return rc;
}
