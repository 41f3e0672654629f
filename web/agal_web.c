/* agal_web.c: the C side of the JavaScript package (web/agal2spv.js). Each call
 * works in the caller's context, reset first, and answers with one web_answer in
 * that context's arena, which JavaScript reads before its next call: the code (text
 * or SPIR-V words), the bindings as JSON, or Flash's error. Nothing here is global;
 * everything lives until the next call or web_free. */
#include "agal/agal.h"
#include "agal/stage3d.h"
#include "agal/text.h"

#include <emscripten.h>
#include <malloc.h>
#include <string.h>

/* What JavaScript reads (web/agal2spv.js, `answer`): eight 32-bit fields. */
typedef struct web_answer {
    int32_t status;         /* agal_status */
    const void *code[2];    /* a translation's (or the pair's vertex and fragment) */
    uint32_t code_bytes[2]; /* their lengths in bytes */
    const char *json;       /* the bindings, or the error: {"id", "name", "message"} */
    uint32_t json_bytes;
    int32_t words; /* code is SPIR-V words, not text */
} web_answer;

/* ---- JSON ------------------------------------------------------------------------- */

/* Written piece by piece, without printf: every translation writes its binding,
 * and a formatted print per field was a large part of a translation's time in the
 * browser (docs/benchmark.md). */
typedef struct json {
    char *p;
    size_t n, cap;
    agal_context *ctx;
    bool full; /* out of memory: the answer is NOMEM */
} json;

/* Room for k more bytes and the NUL (which nothing reads, but keeps it a C string). */
static void grow(json *j, size_t k)
{
    size_t cap = 2 * j->cap + k + 1024; /* a binding's JSON fits the first */
    char *p = j->full ? NULL : agal_alloc(j->ctx, cap);
    if (!p) {
        j->full = true;
        return;
    }
    if (j->n) memcpy(p, j->p, j->n);
    j->p = p, j->cap = cap;
}

/* Inline, as are the helpers below: a literal's length and copy are then known
 * where it is put. */
static inline void put_n(json *j, const char *s, size_t k)
{
    if (k >= j->cap - j->n) grow(j, k);
    if (j->full) return;
    memcpy(j->p + j->n, s, k);
    j->n += k;
    j->p[j->n] = 0;
}

static inline void put(json *j, const char *s) { put_n(j, s, strlen(s)); }

static inline void put_uint(json *j, unsigned v)
{
    char rev[10];
    size_t k = sizeof rev;
    do rev[--k] = (char)('0' + v % 10);
    while (v /= 10);
    put_n(j, rev + k, sizeof rev - k);
}

static inline void put_int(json *j, int v)
{
    if (v < 0) put(j, "-");
    put_uint(j, v < 0 ? 0u - (unsigned)v : (unsigned)v);
}

static inline void put_bool(json *j, bool b) { put(j, b ? "true" : "false"); }

/* "key":value, with the separator before it in key (",\"count\":"). */
static inline void put_key_uint(json *j, const char *key, unsigned v)
{
    put(j, key);
    put_uint(j, v);
}

static inline void put_key_bool(json *j, const char *key, bool b)
{
    put(j, key);
    put_bool(j, b);
}

/* "key":"text" (a name or a word: nothing to escape). */
static inline void put_key_string(json *j, const char *key, const char *text)
{
    put(j, key);
    put(j, "\"");
    put(j, text ? text : ""); /* a sampler field's value with no name */
    put(j, "\"");
}

static void samplers(json *j, const agal_binding *b)
{
    put(j, "\"samplers\":[");
    for (size_t i = 0; i < b->nsamplers; i++) {
        const agal_binding_sampler *s = &b->samplers[i];
        put_key_uint(j, i ? ",{\"num\":" : "{\"num\":", s->num);
        put_key_uint(j, ",\"binding\":", s->binding);
        put_key_uint(j, ",\"samplerBinding\":", s->sampler_binding);
        put_key_string(j, ",\"name\":", s->name);
        put_key_string(j, ",\"dim\":", agal_sampler_option_name(AGAL_SMP_DIM, s->token.dim));
        /* the token's state, which Flash's setProgram gives the slot (Context3D's names) */
        put_key_string(j, ",\"wrap\":", agal_sampler_option_name(AGAL_SMP_WRAP, s->token.wrap));
        put_key_string(j, ",\"filter\":", agal_sampler_option_name(AGAL_SMP_FILTER, s->token.filter));
        put_key_string(j, ",\"mipmap\":", agal_sampler_option_name(AGAL_SMP_MIPMAP, s->token.mipmap));
        put_key_bool(j, ",\"ignoreSampler\":", (s->token.special & AGAL_SPECIAL_IGNORESAMPLER) != 0);
        put_key_bool(j, ",\"tex\":", s->uses_tex);
        put_key_bool(j, ",\"ted\":", s->uses_ted);
        put(j, "}");
    }
    put(j, "]");
}

static void constants(json *j, const agal_binding_block *k)
{
    if (!k) {
        put(j, "null");
        return;
    }
    put_key_uint(j, "{\"binding\":", k->binding);
    put_key_uint(j, ",\"count\":", k->count);
    put_key_uint(j, ",\"size\":", k->size);
    put_key_string(j, ",\"name\":", k->name);
    put_key_bool(j, ",\"indirect\":", k->indirect);
    put(j, "}");
}

static void attributes_and_varyings(json *j, const agal_binding *b)
{
    put(j, ",\"attributes\":[");
    for (size_t i = 0; i < b->nattributes; i++) {
        put_key_uint(j, i ? ",{\"location\":" : "{\"location\":", b->attributes[i].location);
        put_key_uint(j, ",\"mask\":", b->attributes[i].mask);
        put(j, "}");
    }
    put(j, "],\"varyings\":[");
    for (size_t i = 0; i < b->nvaryings; i++) {
        put_key_uint(j, i ? ",{\"location\":" : "{\"location\":", b->varyings[i].location);
        put_key_bool(j, ",\"centroid\":", b->varyings[i].centroid);
        put(j, "}");
    }
    put(j, "]");
}

static void binding(json *j, const agal_binding *b)
{
    put_key_string(j, "{\"stage\":", b->stage == AGAL_VERTEX ? "vertex" : "fragment");
    put(j, ",\"constants\":");
    constants(j, b->constants);
    put(j, ",");
    samplers(j, b);
    attributes_and_varyings(j, b);
    put_key_uint(j, ",\"outputs\":", b->outputs);
    put_key_bool(j, ",\"yflip\":", b->yflip);
    put_key_bool(j, ",\"writesDepth\":", b->writes_depth);
    put_key_bool(j, ",\"kil\":", b->uses_kil);
    put_key_bool(j, ",\"instanceId\":", b->uses_iid);
    put_key_bool(j, ",\"derivatives\":", b->uses_derivatives);
    put(j, ",\"extensions\":[");
    for (unsigned bit = 1, first = 1; bit <= AGAL_EXT_DRAW_BUFFERS; bit <<= 1)
        if (b->extensions & bit) {
            put_key_string(j, first ? "" : ",", agal_extension_name(bit, true));
            first = 0;
        }
    put(j, "]}");
}

/* ---- answers ---------------------------------------------------------------------- */

static web_answer *answer(agal_context *ctx, agal_status st)
{
    web_answer *a = agal_alloc(ctx, sizeof *a);
    if (a) memset(a, 0, sizeof *a), a->status = st;
    return a;
}

/* A Flash error as JavaScript throws it: {"id", "name", "message"}. */
static web_answer *thrown(agal_context *ctx, agal_status st, const agal_flash_error *e)
{
    web_answer *a = answer(ctx, st);
    if (!a) return a;
    char msg[512];
    agal_flash_message(e, msg, sizeof msg);
    json j = {.ctx = ctx};
    put(&j, "{\"id\":");
    put_int(&j, e->id);
    put_key_string(&j, ",\"name\":", agal_flash_class(e));
    put(&j, ",\"message\":\"");
    for (const char *c = msg; *c; c++) {
        if (*c == '"' || *c == '\\') put(&j, "\\");
        put_n(&j, c, 1);
    }
    put(&j, "\"}");
    if (!j.full) a->json = j.p, a->json_bytes = (uint32_t)j.n;
    return a;
}

/* The first diagnostic as Flash throws it. */
static web_answer *failed(agal_context *ctx, agal_status st)
{
    const agal_diag *d = agal_diag_count(ctx) ? agal_diag_get(ctx, 0) : NULL;
    if (!d) return answer(ctx, st);
    agal_flash_error e;
    agal_flash_error_of(d, &e);
    return thrown(ctx, st, &e);
}

static void code(web_answer *a, int i, const agal_shader *sh)
{
    a->code[i] = sh->words ? (const void *)sh->words : (const void *)sh->text;
    a->code_bytes[i] = (uint32_t)(sh->words ? 4 * sh->nwords : sh->len);
    a->words = sh->words != NULL;
}

EMSCRIPTEN_KEEPALIVE agal_context *web_new(void) { return agal_context_new(NULL, NULL); }
EMSCRIPTEN_KEEPALIVE void web_free(agal_context *ctx) { agal_context_free(ctx); }
EMSCRIPTEN_KEEPALIVE const char *web_version(void) { return agal_version(); }
/* Bytes malloc holds: what 1e5 calls must leave where it was. */
EMSCRIPTEN_KEEPALIVE size_t web_heap_used(void) { return mallinfo().uordblks; }

/* names: an agal_names JavaScript wrote into the heap (agal2spv.js, `withNames`), or NULL. */
EMSCRIPTEN_KEEPALIVE web_answer *web_translate(agal_context *ctx, const uint8_t *bytes, uint32_t n, int target,
                                               int slot, int lenient, int profile, const agal_names *names)
{
    agal_context_reset(ctx);
    agal_decode_options d = agal_decode_options_init();
    d.slot = (agal_slot)slot, d.lenient = lenient != 0, d.profile = (agal_profile)profile;
    const agal_program *prog;
    agal_status st = agal_decode(ctx, bytes, n, &d, &prog);
    if (st != AGAL_OK) return failed(ctx, st);
    agal_translate_options o = agal_translate_options_init();
    o.target = (agal_target)target, o.names = names;
    agal_shader sh = agal_shader_init();
    if ((st = agal_translate(ctx, prog, &o, &sh)) != AGAL_OK) return failed(ctx, st);
    web_answer *a = answer(ctx, AGAL_OK);
    json j = {.ctx = ctx};
    binding(&j, &sh.binding);
    if (!a || j.full) return answer(ctx, AGAL_ERR_NOMEM);
    code(a, 0, &sh);
    a->json = j.p, a->json_bytes = (uint32_t)j.n;
    return a;
}

EMSCRIPTEN_KEEPALIVE web_answer *web_upload(agal_context *ctx, const uint8_t *v, uint32_t vn, const uint8_t *f,
                                            uint32_t fn, int target, int lenient, int profile, int context_profile,
                                            const agal_names *names)
{
    agal_context_reset(ctx);
    agal_upload_options o = agal_upload_options_init();
    o.target = (agal_target)target, o.lenient = lenient != 0, o.profile = (agal_profile)profile;
    o.context_profile = (agal_profile)context_profile, o.names = names;
    agal_upload_result r = agal_upload_result_init();
    agal_status st = agal_upload(ctx, v, vn, f, fn, &o, &r);
    if (st != AGAL_OK) return failed(ctx, st);
    web_answer *a = answer(ctx, AGAL_OK);
    json j = {.ctx = ctx};
    put(&j, "{\"vertex\":");
    binding(&j, &r.shaders[AGAL_VERTEX].binding);
    put(&j, ",\"fragment\":");
    binding(&j, &r.shaders[AGAL_FRAGMENT].binding);
    put(&j, "}");
    if (!a || j.full) return answer(ctx, AGAL_ERR_NOMEM);
    code(a, 0, &r.shaders[AGAL_VERTEX]);
    code(a, 1, &r.shaders[AGAL_FRAGMENT]);
    a->json = j.p, a->json_bytes = (uint32_t)j.n;
    return a;
}

/* Text with its `// stage:` and `// agal-version:` comments; stage -1 and version 0
 * leave them to the comments. */
EMSCRIPTEN_KEEPALIVE web_answer *web_assemble(agal_context *ctx, const char *text, uint32_t len, int stage,
                                              uint32_t version)
{
    agal_context_reset(ctx);
    const uint8_t *bytes;
    size_t n;
    agal_status st = agal_assemble_text(ctx, text, len, 0, &stage, &version, &bytes, &n);
    if (st != AGAL_OK) return failed(ctx, st);
    web_answer *a = answer(ctx, AGAL_OK);
    if (a) a->code[0] = bytes, a->code_bytes[0] = (uint32_t)n;
    return a;
}

EMSCRIPTEN_KEEPALIVE web_answer *web_disassemble(agal_context *ctx, const uint8_t *bytes, uint32_t n)
{
    agal_context_reset(ctx);
    const char *text;
    agal_status st = agal_disassemble(ctx, bytes, n, 0, &text);
    if (st != AGAL_OK) return failed(ctx, st);
    web_answer *a = answer(ctx, AGAL_OK);
    if (a) a->code[0] = text, a->code_bytes[0] = (uint32_t)strlen(text);
    return a;
}

/* ---- Context3D's resource checks (<agal/stage3d.h>, resources.c) ---------------------
 * Each answers AGAL_OK, or AGAL_ERR_INVALID with the error the check filled, which
 * JavaScript throws as it throws an upload's (agal2spv.js, "Context3D's checks"). */

/* What the checks read of a Context3D, as JavaScript writes it (agal2spv.js,
 * `context3D`): nine 32-bit fields. */
typedef struct web_context3d {
    int32_t profile;       /* agal_context3d_profile */
    int32_t width, height; /* the back buffer's; 0 x 0: not configured */
    uint32_t objects[AGAL_RESOURCE_KINDS];
    int32_t ignore_limits;     /* ignoreResourceLimits */
    int32_t render_to_texture; /* a render target set (clear leaves the back buffer alone) */
} web_context3d;

_Static_assert(sizeof(web_context3d) == 36 && sizeof(agal_buffer_desc) == 16 && sizeof(agal_texture_desc) == 20,
               "the layouts agal2spv.js writes");

static agal_context3d_state state_of(const web_context3d *c)
{
    agal_context3d_state s;
    agal_context3d_state_init(&s, (agal_context3d_profile)c->profile);
    s.configured = c->width > 0 && c->height > 0;
    s.width = s.configured ? (uint32_t)c->width : 0, s.height = s.configured ? (uint32_t)c->height : 0;
    memcpy(s.objects, c->objects, sizeof s.objects);
    s.limits.ignore_resource_limits = c->ignore_limits != 0;
    s.targets[0].texture = c->render_to_texture ? c : NULL; /* any object: the check asks whether one is set */
    return s;
}

static web_answer *checked(agal_context *ctx, int id, const agal_flash_error *e)
{
    agal_context_reset(ctx);
    return id ? thrown(ctx, AGAL_ERR_INVALID, e) : answer(ctx, AGAL_OK);
}

/* name NULL: ActionScript's null. The value as {"value": N}. */
EMSCRIPTEN_KEEPALIVE web_answer *web_check_enum(agal_context *ctx, int which, const char *name, const char *param)
{
    unsigned v = 0;
    agal_flash_error e;
    web_answer *a = checked(ctx, agal_check_enum((agal_stage3d_enum)which, name, param, &v, &e), &e);
    if (!a || a->status) return a;
    json j = {.ctx = ctx};
    put(&j, "{\"value\":");
    put_uint(&j, v);
    put(&j, "}");
    if (j.full) return answer(ctx, AGAL_ERR_NOMEM);
    a->json = j.p, a->json_bytes = (uint32_t)j.n;
    return a;
}

EMSCRIPTEN_KEEPALIVE web_answer *web_check_non_null(agal_context *ctx, int present, const char *param)
{
    agal_flash_error e;
    return checked(ctx, agal_check_non_null(present ? ctx : NULL, param, &e), &e);
}

EMSCRIPTEN_KEEPALIVE web_answer *web_check_back_buffer(agal_context *ctx, const web_context3d *c, int32_t width,
                                                       int32_t height)
{
    agal_context3d_state s = state_of(c);
    agal_flash_error e;
    return checked(ctx, agal_check_back_buffer(&s, width, height, &e), &e);
}

EMSCRIPTEN_KEEPALIVE web_answer *web_check_clear(agal_context *ctx, const web_context3d *c)
{
    agal_context3d_state s = state_of(c);
    agal_flash_error e;
    return checked(ctx, agal_check_clear(&s, &e), &e);
}

EMSCRIPTEN_KEEPALIVE web_answer *web_check_draw_instanced(agal_context *ctx, const web_context3d *c)
{
    agal_context3d_state s = state_of(c);
    agal_flash_error e;
    return checked(ctx, agal_check_draw_instanced(&s, &e), &e);
}

EMSCRIPTEN_KEEPALIVE web_answer *web_check_object_count(agal_context *ctx, const web_context3d *c, int kind)
{
    agal_context3d_state s = state_of(c);
    agal_flash_error e;
    return checked(ctx, agal_check_object_count(&s, (agal_resource_kind)kind, &e), &e);
}

EMSCRIPTEN_KEEPALIVE web_answer *web_check_buffer(agal_context *ctx, const web_context3d *c, const agal_buffer_desc *b)
{
    agal_context3d_state s = state_of(c);
    agal_flash_error e;
    return checked(ctx, agal_check_buffer(&s, b, &e), &e);
}

EMSCRIPTEN_KEEPALIVE web_answer *web_check_texture(agal_context *ctx, const web_context3d *c,
                                                   const agal_texture_desc *t)
{
    agal_context3d_state s = state_of(c);
    agal_flash_error e;
    return checked(ctx, agal_check_texture(&s, t, &e), &e);
}

/* The upload's counts as doubles: a ByteArray's length passes 2^32. */
EMSCRIPTEN_KEEPALIVE web_answer *web_check_buffer_upload(agal_context *ctx, const agal_buffer_desc *b, int from_bytes,
                                                         int32_t start, int32_t count, double length,
                                                         double byte_offset)
{
    agal_buffer_upload up = {from_bytes != 0, start, count, (uint64_t)length, (int64_t)byte_offset};
    agal_flash_error e;
    return checked(ctx, agal_check_buffer_upload(b, &up, &e), &e);
}

EMSCRIPTEN_KEEPALIVE web_answer *web_check_texture_upload(agal_context *ctx, const agal_texture_desc *t, int from_bytes,
                                                          uint32_t side, uint32_t level, uint32_t bitmap_width,
                                                          uint32_t bitmap_height, double length, double byte_offset)
{
    agal_texture_upload up = {from_bytes != 0,     side, level, bitmap_width, bitmap_height, (uint64_t)length,
                              (int64_t)byte_offset};
    agal_flash_error e;
    return checked(ctx, agal_check_texture_upload(t, &up, &e), &e);
}

/* rect and point: 4 and 2 doubles, or NULL for one not given. */
EMSCRIPTEN_KEEPALIVE web_answer *web_check_draw_to_bitmap(agal_context *ctx, const web_context3d *c,
                                                          uint32_t bitmap_width, uint32_t bitmap_height,
                                                          const double *rect, const double *point)
{
    agal_context3d_state s = state_of(c);
    agal_flash_error e;
    return checked(ctx, agal_check_draw_to_bitmap(&s, bitmap_width, bitmap_height, rect, point, &e), &e);
}
