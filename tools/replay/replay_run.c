/* replay_run.c: a scene's run: the scene's top level read, Context3D's first state
 * set, each call handed to replay_calls.c in order until one throws or fails, and
 * everything freed. The top of the replay: it calls the call handlers, which call
 * the state machine (replay_context.c), never the other way round. */
#include "agal/stage3d.h"
#include "replay_ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the run ------------------------------------------------------------------------ */

static void init_state(replay_ctx *c)
{
    c->state = agal_render_state_default();
    agal_slots_init(&c->sampler_slots);
}

/* The scene's top level: {"scene": 1, "profile": NAME, "calls": [...]} and the keys
 * the replay does not read ("expect", "throws": agalrun replay --check's; "comment"). */
static const cJSON *scene_calls(rcall *k, const cJSON *root)
{
    replay_ctx *c = k->c;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "scene");
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(root, "profile");
    const cJSON *calls = cJSON_GetObjectItemCaseSensitive(root, "calls");
    if (!cJSON_IsObject(root) || !cJSON_IsNumber(v) || v->valuedouble != 1)
        return rfail(k, "not a scene: the top level is {\"scene\": 1, \"profile\": ..., \"calls\": [...]}"), NULL;
    for (const cJSON *e = root->child; e; e = e->next)
        if (strcmp(e->string, "scene") && strcmp(e->string, "profile") && strcmp(e->string, "calls") &&
            strcmp(e->string, "expect") && strcmp(e->string, "throws") && strcmp(e->string, "comment"))
            return rfail(k, "unknown key \"%s\" at the top level", e->string), NULL;
    unsigned profile = AGAL_C3D_BASELINE;
    if (p && !(cJSON_IsString(p) && agal_stage3d_find(AGAL_S3D_PROFILE, p->valuestring, &profile)))
        return rfail(k, "\"profile\" is not a Context3DProfile name"), NULL;
    c->profile = (agal_context3d_profile)profile;
    if (!cJSON_IsArray(calls)) return rfail(k, "\"calls\" is not an array"), NULL;
    return calls;
}

static void run_calls(replay_ctx *c, const cJSON *root)
{
    rcall top = {.c = c};
    const cJSON *calls = scene_calls(&top, root);
    for (const cJSON *call = calls ? calls->child : NULL; call; call = call->next) {
        if (++c->out->call == c->skip_call) continue;
        if (replay_call(c, call)) return;
    }
}

void replay_run(const char *json, size_t len, const char *name, const replay_backend_ops *ops,
                const replay_open_options *o, replay_result *out)
{
    memset(out, 0, sizeof *out);
    replay_ctx *c = calloc(1, sizeof *c);
    rcall top = {.c = c};
    if (!c) {
        fprintf(stderr, "%s: out of memory\n", name);
        out->status = REPLAY_FAILED;
        return;
    }
    *c = (replay_ctx){.name = name,
                      .ops = ops,
                      .out = out,
                      .memory_limit = o->memory_limit ? o->memory_limit : REPLAY_MEMORY_LIMIT,
                      .limits = o->limits,
                      .probe = o->probe,
                      .probe_user = o->probe_user,
                      .skip_call = o->skip_call};
    init_state(c);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(json, len + 1, &end, false);
    if (root) end += strspn(end, " \t\r\n");
    if (!root || (size_t)(end - json) < len) {
        rfail(&top, "not JSON, or more than one JSON value (at byte %zu)", end ? (size_t)(end - json) : 0);
    } else if (!(c->agal = agal_context_new(NULL, NULL))) {
        rfail(&top, "out of memory");
    } else {
        char err[sizeof c->be->err];
        if (!(c->be = ops->open(o, err, sizeof err))) {
            rfail(&top, "%s: %s", ops->name, err);
        } else {
            if (o->opened) o->opened();
            run_calls(c, root);
            /* Draws after the last present make a last frame. */
            bool drew = c->frame_draws || c->be->pipelines.created != c->frame_start.created ||
                        c->be->pipelines.cache_hits != c->frame_start.cache_hits;
            if (drew && !rframe_end(c)) rfail(&top, "out of memory");
        }
    }
    if (c->be) ops->close(c->be);
    for (size_t i = 0; i < c->nobjects; i++) robj_free(c->objects[i]);
    free(c->objects);
    free(c->frame_keys);
    free(c->run_keys);
    agal_context_free(c->agal);
    cJSON_Delete(root);
    free(c);
}

void replay_result_free(replay_result *r)
{
    for (size_t i = 0; i < r->nimages; i++) free(r->images[i].rgba);
    free(r->images);
    r->images = NULL;
    r->nimages = 0;
    free(r->frames);
    r->frames = NULL;
    r->nframes = 0;
}

const replay_backend_ops *replay_backend_find(const char *name, const char **why)
{
    *why = NULL;
    if (!strcmp(name, "vulkan")) return &replay_vk_ops;
    if (!strcmp(name, "gl")) return &replay_gl_ops;
    *why = !strcmp(name, "webgl") ? "the WebGL backend is not built yet" : "not vulkan, gl or webgl";
    return NULL;
}
