/* agal_web.c: the C side of the JavaScript package (web/agal2spv.js). Each call
 * works in the caller's context, reset first, and answers with one web_answer in
 * that context's arena, which JavaScript reads before its next call: the code (text
 * or SPIR-V words), the bindings as JSON when asked for (web_bindings_json: the
 * library's writer, reflect_json.c, with a WGSL bind group layout), Flash's error
 * with the library's diagnostic, the assembler's diagnostics, or an argument
 * JavaScript passed wrong (a `limits` option, a name that is no identifier). A
 * call's options come as one size-checked struct (web_options). Nothing here is
 * global; everything lives until the next call or web_free. */
#include "internal.h" /* the binding's JSON: the library's writer (reflect_json.c) */

#include "agal/vulkan.h" /* agal_vk_sampler_info: Flash's sampler rules, for the GPUSamplerDescriptor */

#include <emscripten.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>

struct web_bound;

/* What JavaScript reads (web/agal2spv.js, `#answer`): nine 32-bit fields. */
typedef struct web_answer {
    int32_t status;         /* agal_status */
    const void *code[2];    /* a translation's (or the pair's vertex and fragment) */
    uint32_t code_bytes[2]; /* their lengths in bytes */
    const char *json;       /* the bindings, or the error: {"id", "name", "message", "diagnostic"},
                               or {"message"} alone for a bad argument; assemble's diagnostics */
    uint32_t json_bytes;
    int32_t words;                 /* code is SPIR-V words, not text */
    const struct web_bound *bound; /* a translation's or upload's: what web_bindings_json writes */
} web_answer;

/* ---- answers ---------------------------------------------------------------------- */

static web_answer *answer(agal_context *ctx, agal_status st)
{
    web_answer *a = agal_alloc(ctx, sizeof *a);
    if (a) memset(a, 0, sizeof *a), a->status = st;
    return a;
}

/* s as a JSON string: quotes, backslashes and control characters escaped. */
static void json_string(agal_strbuf *j, const char *s)
{
    agal_sb_putc(j, '"');
    for (const char *c = s; *c; c++) {
        if ((unsigned char)*c < 0x20) {
            agal_sb_printf(j, "\\u%04x", (unsigned)*c);
            continue;
        }
        if (*c == '"' || *c == '\\') agal_sb_putc(j, '\\');
        agal_sb_putc(j, *c);
    }
    agal_sb_putc(j, '"');
}

/* A Flash error as JavaScript throws it: {"id", "name", "message"}, and
 * "diagnostic", the library's own words (which limit a 3613 exceeded), when given. */
static web_answer *thrown(agal_context *ctx, agal_status st, const agal_flash_error *e, const char *diagnostic)
{
    web_answer *a = answer(ctx, st);
    if (!a) return a;
    char msg[512];
    agal_flash_message(e, msg, sizeof msg);
    agal_strbuf j = {.ctx = ctx};
    agal_sb_printf(&j, "{\"id\":%d,\"name\":\"%s\",\"message\":", e->id, agal_flash_class(e));
    json_string(&j, msg);
    if (diagnostic) agal_sb_put(&j, ",\"diagnostic\":"), json_string(&j, diagnostic);
    agal_sb_putc(&j, '}');
    if (!j.err) a->json = j.p, a->json_bytes = (uint32_t)j.n;
    return a;
}

/* An argument JavaScript passed wrong: AGAL_ERR_ARG and {"message"}, a TypeError there. */
static web_answer *misused(agal_context *ctx, const char *why)
{
    web_answer *a = answer(ctx, AGAL_ERR_ARG);
    agal_strbuf j = {.ctx = ctx};
    agal_sb_put(&j, "{\"message\":");
    json_string(&j, why ? why : "out of memory");
    agal_sb_putc(&j, '}');
    if (a && !j.err) a->json = j.p, a->json_bytes = (uint32_t)j.n;
    return a;
}

/* The first diagnostic as Flash throws it; a host's name that is no identifier
 * (AGAL_ERR_ARG) as an argument passed wrong. */
static web_answer *failed(agal_context *ctx, agal_status st)
{
    const agal_diag *d = agal_diag_count(ctx) ? agal_diag_get(ctx, 0) : NULL;
    if (!d) return answer(ctx, st);
    if (st == AGAL_ERR_ARG) return misused(ctx, d->message);
    agal_flash_error e;
    agal_flash_error_of(d, &e);
    return thrown(ctx, st, &e, d->message);
}
/* ---- the limits option ------------------------------------------------------------ */

/* The `limits` option JavaScript passes (agal2spv.js, `limitsOf`): a preset's name,
 * or the JSON form's text (docs/binding-models.md, "Limits"), which JavaScript made
 * from an object; NULL, none. Fills *out and answers NULL, or answers the misuse. */
static web_answer *read_limits(agal_context *ctx, const char *spec, int is_json, agal_limits *out)
{
    *out = agal_limits_init();
    if (!is_json && agal_limits_preset(spec, out)) return NULL;
    if (is_json && agal_limits_from_json(ctx, spec, strlen(spec), out) == AGAL_OK) return NULL;
    agal_strbuf why = {.ctx = ctx};
    if (is_json) {
        const agal_diag *d = agal_diag_count(ctx) ? agal_diag_get(ctx, 0) : NULL;
        agal_sb_printf(&why, "limits %s: %s", spec, d ? d->message : "out of memory");
        return misused(ctx, why.err ? NULL : why.p);
    }
    agal_sb_printf(&why, "limits: '%s' is not a preset (", spec);
    for (size_t i = 0; agal_limits_preset_name(i); i++)
        agal_sb_printf(&why, "%s%s", i ? ", " : "", agal_limits_preset_name(i));
    agal_sb_put(&why, ")");
    return misused(ctx, why.err ? NULL : why.p);
}

static void code(web_answer *a, int i, const agal_shader *sh)
{
    a->code[i] = sh->words ? (const void *)sh->words : (const void *)sh->text;
    a->code_bytes[i] = (uint32_t)(sh->words ? 4 * sh->nwords : sh->len);
    a->words = sh->words != NULL;
}

/* What web_bindings_json writes a translation's (count 1) or an upload's (2)
 * bindings from, kept in the arena until the next call. */
typedef struct web_bound {
    agal_binding binding[2];
    int count;
    agal_names names; /* resolved: host_json's */
} web_bound;

/* A translation's or upload's answer: the code, an upload's two texts one after the
 * other (JavaScript decodes them as one string, agal2spv.js #answerAsOne: one
 * TextDecoder call instead of two), and what its bindings are written from when
 * JavaScript reads them (web_bindings_json). names: the host's as given. */
static web_answer *texts_and_bound(agal_context *ctx, const agal_shader *const *sh, int n, const agal_names *names)
{
    web_bound *b = agal_alloc(ctx, sizeof *b);
    if (!b) return answer(ctx, AGAL_ERR_NOMEM);
    agal_status st = agal_names_resolve(ctx, names, &b->names);
    if (st != AGAL_OK) return failed(ctx, st);
    web_answer *a = answer(ctx, AGAL_OK);
    if (!a) return a;
    b->count = n, a->bound = b;
    for (int i = 0; i < n; i++) code(a, i, sh[i]), b->binding[i] = sh[i]->binding;
    if (n == 1 || sh[0]->words) return a;
    agal_strbuf j = {.ctx = ctx};
    agal_sb_putn(&j, sh[0]->text, sh[0]->len), agal_sb_putn(&j, sh[1]->text, sh[1]->len);
    if (j.err) return answer(ctx, AGAL_ERR_NOMEM);
    a->code[0] = j.p, a->code[1] = j.p + sh[0]->len;
    return a;
}

EMSCRIPTEN_KEEPALIVE agal_context *web_new(void) { return agal_context_new(NULL, NULL); }
EMSCRIPTEN_KEEPALIVE void web_free(agal_context *ctx) { agal_context_free(ctx); }
EMSCRIPTEN_KEEPALIVE const char *web_version(void) { return agal_version(); }
/* Bytes malloc holds: what 1e5 calls must leave where it was. */
EMSCRIPTEN_KEEPALIVE size_t web_heap_used(void) { return mallinfo().uordblks; }

/* ---- what a runtime binds from ------------------------------------------------------- */

static bool glsl_family(agal_target t)
{
    return t == AGAL_TARGET_GLSL || t == AGAL_TARGET_ESSL3 || t == AGAL_TARGET_ESSL1;
}

static const char *filter_name(bool linear) { return linear ? "linear" : "nearest"; }

static const char *address_mode(VkSamplerAddressMode m)
{
    return m == VK_SAMPLER_ADDRESS_MODE_REPEAT ? "repeat" : "clamp-to-edge";
}

/* The token's state as a GPUSamplerDescriptor: <agal/vulkan.h>'s sampler in WebGPU's
 * words (a cube clamps, mipnone samples level 0 only: lodMaxClamp 0). WebGPU takes
 * maxAnisotropy only with every filter linear, so an anisotropic filter gets it with
 * miplinear and filters linearly otherwise. */
static void sampler_descriptor(agal_strbuf *j, const agal_sampler *s)
{
    VkSamplerCreateInfo v = agal_vk_sampler_info(s, 16.0f);
    bool mip_linear = v.mipmapMode == VK_SAMPLER_MIPMAP_MODE_LINEAR;
    agal_sb_put(j, "{\"magFilter\":\""), agal_sb_put(j, filter_name(v.magFilter == VK_FILTER_LINEAR));
    agal_sb_put(j, "\",\"minFilter\":\""), agal_sb_put(j, filter_name(v.minFilter == VK_FILTER_LINEAR));
    agal_sb_put(j, "\",\"mipmapFilter\":\""), agal_sb_put(j, filter_name(mip_linear));
    agal_sb_put(j, "\",\"addressModeU\":\""), agal_sb_put(j, address_mode(v.addressModeU));
    agal_sb_put(j, "\",\"addressModeV\":\""), agal_sb_put(j, address_mode(v.addressModeV));
    agal_sb_put(j, "\",\"addressModeW\":\""), agal_sb_put(j, address_mode(v.addressModeW));
    agal_sb_put(j, v.maxLod == 0.0f ? "\",\"lodMinClamp\":0,\"lodMaxClamp\":0"
                                    : "\",\"lodMinClamp\":0,\"lodMaxClamp\":32");
    if (v.anisotropyEnable && mip_linear)
        agal_sb_put(j, ",\"maxAnisotropy\":"), agal_sb_uint(j, (unsigned)v.maxAnisotropy);
    agal_sb_putc(j, '}');
}

/* A register's name in a GLSL-family text (prefix and number), or null elsewhere. */
static void register_name(agal_strbuf *j, bool glsl, const char *prefix, unsigned n)
{
    if (!glsl) {
        agal_sb_put(j, "null");
        return;
    }
    agal_sb_putc(j, '"'), agal_sb_put(j, prefix), agal_sb_uint(j, n), agal_sb_putc(j, '"');
}

/* What one binding's runtime passes to which call, beyond the library's JSON
 * (agal2spv.js merges it into the binding's entries): the constants' block and
 * array, each sampler's texture unit (and for WGSL its GPUSamplerDescriptor), the
 * attributes' and varyings' names, the y-flip uniform's name and component, each
 * with the host's names applied (*n: resolved, agal_names_resolve). The names are
 * a GLSL-family text's; SPIR-V and WGSL bind by number (null). */
static void host_json(agal_strbuf *j, const agal_binding *b, const agal_names *n)
{
    bool glsl = glsl_family(b->target), wgsl = b->target == AGAL_TARGET_WGSL;
    int st = b->stage == AGAL_VERTEX ? 0 : 1;
    agal_sb_put(j, "{\"constants\":");
    if (!b->constants || !glsl) agal_sb_put(j, b->constants ? "{\"block\":null,\"array\":null}" : "null");
    else {
        agal_sb_put(j, "{\"block\":");
        if (b->target == AGAL_TARGET_ESSL1) agal_sb_put(j, "null");
        else json_string(j, n->blocks[st]);
        agal_sb_put(j, ",\"array\":"), json_string(j, n->constants[st]), agal_sb_putc(j, '}');
    }
    agal_sb_put(j, ",\"samplers\":[");
    for (size_t i = 0; i < b->nsamplers; i++) {
        agal_sb_put(j, i ? ",{\"unit\":" : "{\"unit\":"), agal_sb_uint(j, (unsigned)b->samplers[i].num);
        if (wgsl) agal_sb_put(j, ",\"samplerDescriptor\":"), sampler_descriptor(j, &b->samplers[i].token);
        agal_sb_putc(j, '}');
    }
    agal_sb_put(j, "],\"attributes\":[");
    for (size_t i = 0; i < b->nattributes; i++) {
        agal_sb_put(j, i ? ",{\"name\":" : "{\"name\":");
        register_name(j, glsl, n->attribute, b->attributes[i].location), agal_sb_putc(j, '}');
    }
    agal_sb_put(j, "],\"varyings\":[");
    for (size_t i = 0; i < b->nvaryings; i++) {
        agal_sb_put(j, i ? ",{\"name\":" : "{\"name\":");
        const agal_binding_varying *v = &b->varyings[i];
        if (v->packed) register_name(j, glsl, AGAL_GLSL_PACK_PREFIX, v->slot); /* what the text declares */
        else register_name(j, glsl, n->varying, v->location);
        agal_sb_putc(j, '}');
    }
    agal_sb_put(j, "],\"yflipUniform\":");
    if (!glsl || !b->yflip) agal_sb_put(j, "null");
    else {
        agal_sb_put(j, "{\"name\":"), json_string(j, n->yflip);
        if (n->yflip_component) {
            agal_sb_put(j, ",\"component\":\""), agal_sb_putc(j, n->yflip_component), agal_sb_put(j, "\"}");
        } else agal_sb_put(j, ",\"component\":null}");
    }
    agal_sb_putc(j, '}');
}

/* ---- the options: one struct JavaScript writes ------------------------------------- */

/* Every option of translate, upload and assemble as agal2spv.js writes it (`OPTION_FIELDS`,
 * in this order): 32-bit fields, the first the struct's size, which JavaScript takes from
 * web_options_size and writes back, so a loader and a module of different builds refuse
 * each other instead of misreading. Enumerations are the C library's values, strings
 * NUL-terminated UTF-8 in the heap (0: not given). A new option is a field appended here
 * and in OPTION_FIELDS. */
typedef struct web_options {
    uint32_t size;
    int32_t target;          /* agal_target */
    int32_t slot;            /* agal_slot: translate's stage */
    int32_t lenient;         /* 0 or 1 */
    int32_t profile;         /* agal_profile: the register limits (0: the program's version's) */
    int32_t context_profile; /* agal_profile of the Context3D (upload; 0: any) */
    const char *names[8];    /* agal_names' strings, in its order: constants[2], blocks[2], sampler,
                                attribute, varying, yflip */
    int32_t yflip_component; /* 0, 'x', 'y', 'z' or 'w' */
    const char *limits;      /* a preset's name, or the JSON form's text (limits_json) */
    int32_t limits_json;
    int32_t stage;       /* assemble: agal_stage, or -1 for the text's comment */
    uint32_t version;    /* assemble: 1 to 3, or 0 for the text's comment */
    int32_t strict;      /* assemble: Adobe's readings are errors (AGAL_ASM_STRICT) */
    int32_t debug_info;  /* translate, upload: -g (docs/debug-info.md) */
    uint32_t samples;    /* upload: agal_upload_options.samples (0: any) */
    int32_t clip;        /* translate, upload: agal_clip (0: the target's) */
    int32_t strip_names; /* translate, upload: -g0 (docs/debug-info.md) */
} web_options;

EMSCRIPTEN_KEEPALIVE uint32_t web_options_size(void) { return sizeof(web_options); }

static agal_names names_of(const web_options *o)
{
    agal_names n = {
        {o->names[0], o->names[1]}, {o->names[2], o->names[3]}, o->names[4], o->names[5], o->names[6], o->names[7],
        (char)o->yflip_component};
    return n;
}

static bool names_given(const web_options *o)
{
    for (int i = 0; i < 8; i++)
        if (o->names[i]) return true;
    return o->yflip_component != 0;
}

/* The options' size checked, the context reset, the limits read: NULL, or the misuse. */
static web_answer *begin(agal_context *ctx, const web_options *o, agal_limits *limits)
{
    agal_context_reset(ctx);
    if (o->size != sizeof *o) {
        agal_strbuf why = {.ctx = ctx};
        agal_sb_printf(&why, "options of %u bytes, this module's are %u: agal2spv.js and agal2spv-wasm.js differ",
                       o->size, (unsigned)sizeof *o);
        return misused(ctx, why.err ? NULL : why.p);
    }
    return o->limits && limits ? read_limits(ctx, o->limits, o->limits_json, limits) : NULL;
}

/* translate's work up to its shader (*sh, its options *t, which point to *device
 * and *names): NULL, or the answer that says why not. */
static web_answer *translated(agal_context *ctx, const uint8_t *bytes, uint32_t n, const web_options *o,
                              agal_limits *device, agal_names *names, agal_translate_options *t, agal_shader *sh)
{
    web_answer *misuse = begin(ctx, o, device);
    if (misuse) return misuse;
    agal_decode_options d = agal_decode_options_init();
    d.slot = (agal_slot)o->slot, d.lenient = o->lenient != 0, d.profile = (agal_profile)o->profile;
    const agal_program *prog;
    agal_status st = agal_decode(ctx, bytes, n, &d, &prog);
    if (st != AGAL_OK) return failed(ctx, st);
    *names = names_of(o);
    *t = agal_translate_options_init();
    t->target = (agal_target)o->target, t->names = names_given(o) ? names : NULL;
    t->limits = o->limits ? device : NULL, t->debug_info = o->debug_info != 0, t->clip = (agal_clip)o->clip;
    t->strip_names = o->strip_names != 0;
    *sh = agal_shader_init();
    return (st = agal_translate(ctx, prog, t, sh)) != AGAL_OK ? failed(ctx, st) : NULL;
}

EMSCRIPTEN_KEEPALIVE web_answer *web_translate(agal_context *ctx, const uint8_t *bytes, uint32_t n,
                                               const web_options *o)
{
    agal_limits device;
    agal_names names;
    agal_translate_options t;
    agal_shader sh;
    web_answer *no = translated(ctx, bytes, n, o, &device, &names, &t, &sh);
    if (no) return no;
    const agal_shader *shaders[1] = {&sh};
    return texts_and_bound(ctx, shaders, 1, t.names);
}

/* upload's options from o: *names filled from o (pointed to when given) and
 * *device, begin()'s limits, pointed to when o has limits. */
static agal_upload_options upload_options_of(const web_options *o, agal_limits *device, agal_names *names)
{
    *names = names_of(o);
    agal_upload_options u = agal_upload_options_init();
    u.target = (agal_target)o->target, u.lenient = o->lenient != 0, u.profile = (agal_profile)o->profile;
    u.context_profile = (agal_profile)o->context_profile, u.names = names_given(o) ? names : NULL;
    u.limits = o->limits ? device : NULL, u.debug_info = o->debug_info != 0, u.samples = o->samples;
    u.clip = (agal_clip)o->clip, u.strip_names = o->strip_names != 0;
    return u;
}

/* upload's work up to its pair (*r, its options *u, which point to *device and
 * *names): NULL, or the answer that says why not. */
static web_answer *uploaded(agal_context *ctx, const uint8_t *v, uint32_t vn, const uint8_t *f, uint32_t fn,
                            const web_options *o, agal_limits *device, agal_names *names, agal_upload_options *u,
                            agal_upload_result *r)
{
    web_answer *misuse = begin(ctx, o, device);
    if (misuse) return misuse;
    *u = upload_options_of(o, device, names);
    *r = agal_upload_result_init();
    agal_status st = agal_upload(ctx, v, vn, f, fn, u, r);
    return st != AGAL_OK ? failed(ctx, st) : NULL;
}

EMSCRIPTEN_KEEPALIVE web_answer *web_upload(agal_context *ctx, const uint8_t *v, uint32_t vn, const uint8_t *f,
                                            uint32_t fn, const web_options *o)
{
    agal_limits device;
    agal_names names;
    agal_upload_options u;
    agal_upload_result r;
    web_answer *no = uploaded(ctx, v, vn, f, fn, o, &device, &names, &u, &r);
    if (no) return no;
    const agal_shader *shaders[2] = {&r.shaders[AGAL_VERTEX], &r.shaders[AGAL_FRAGMENT]};
    return texts_and_bound(ctx, shaders, 2, u.names);
}

/* The bindings of bound (a web_translate's or web_upload's answer, no call since:
 * the arena still holds them) as JSON, the library's and host_json's: a
 * translation's {"binding", "host"}, an upload's {"vertex", "fragment",
 * "bindGroupLayout" (WGSL), "host": {"vertex", "fragment"}}. Written here, not with
 * the texts, since most callers never read them; the context is not reset. */
EMSCRIPTEN_KEEPALIVE web_answer *web_bindings_json(agal_context *ctx, const web_bound *b)
{
    web_answer *a = answer(ctx, AGAL_OK);
    agal_strbuf j = {.ctx = ctx};
    if (b->count == 1) {
        agal_sb_put(&j, "{\"binding\":");
        agal_binding_json(&j, &b->binding[0], b->binding[0].target == AGAL_TARGET_WGSL);
        agal_sb_put(&j, ",\"host\":");
        host_json(&j, &b->binding[0], &b->names);
    } else {
        const agal_binding *pair[2] = {&b->binding[0], &b->binding[1]};
        agal_sb_put(&j, "{\"vertex\":");
        agal_binding_json(&j, pair[0], false);
        agal_sb_put(&j, ",\"fragment\":");
        agal_binding_json(&j, pair[1], false);
        if (pair[0]->target == AGAL_TARGET_WGSL) {
            agal_sb_put(&j, ",\"bindGroupLayout\":");
            agal_binding_layout_json(&j, pair, 2);
        }
        agal_sb_put(&j, ",\"host\":{\"vertex\":");
        host_json(&j, pair[0], &b->names);
        agal_sb_put(&j, ",\"fragment\":");
        host_json(&j, pair[1], &b->names);
        agal_sb_putc(&j, '}');
    }
    agal_sb_putc(&j, '}');
    if (!a || j.err) return answer(ctx, AGAL_ERR_NOMEM);
    a->json = j.p, a->json_bytes = (uint32_t)j.n;
    return a;
}

/* A driver's log of what translate (f NULL) or upload (stage's shader) gave with o,
 * made again here with debug_info (the context keeps no result from call to call),
 * mapped back to the AGAL tokens (agal_map_driver_log): the answer's code. */
EMSCRIPTEN_KEEPALIVE web_answer *web_map_log(agal_context *ctx, const uint8_t *v, uint32_t vn, const uint8_t *f,
                                             uint32_t fn, web_options *o, int32_t stage, const char *log)
{
    agal_limits device;
    agal_names names;
    agal_translate_options t;
    agal_upload_options u;
    agal_upload_result r;
    agal_shader sh;
    o->debug_info = 1;
    web_answer *no = f ? uploaded(ctx, v, vn, f, fn, o, &device, &names, &u, &r)
                       : translated(ctx, v, vn, o, &device, &names, &t, &sh);
    if (no) return no;
    const agal_shader *mapped = f ? &r.shaders[stage == AGAL_FRAGMENT ? AGAL_FRAGMENT : AGAL_VERTEX] : &sh;
    char *text = agal_map_driver_log(ctx, mapped, log);
    web_answer *a = answer(ctx, AGAL_OK);
    if (!a || !text) return answer(ctx, AGAL_ERR_NOMEM);
    a->code[0] = text, a->code_bytes[0] = (uint32_t)strlen(text);
    return a;
}

/* The assembler's diagnostics as JSON, each {"line", "column", "warning", "message"}:
 * the assembler writes every one as "line L, column C: what" (<agal/text.h>). */
static void asm_diagnostics(agal_strbuf *j, agal_context *ctx)
{
    agal_sb_putc(j, '[');
    for (size_t i = 0; i < agal_diag_count(ctx); i++) {
        const agal_diag *d = agal_diag_get(ctx, i);
        unsigned line = 0, column = 0;
        int at = 0;
        if (sscanf(d->message, "line %u, column %u: %n", &line, &column, &at) < 2) at = 0;
        agal_sb_printf(j, "%s{\"line\":%u,\"column\":%u,\"warning\":%s,\"message\":", i ? "," : "", line, column,
                       d->warning ? "true" : "false");
        json_string(j, d->message + at);
        agal_sb_putc(j, '}');
    }
    agal_sb_putc(j, ']');
}

/* Text with its `// stage:` and `// agal-version:` comments, which o's stage -1 and
 * version 0 leave to decide. The answer's JSON: {"diagnostics": [...]}, warnings
 * with the bytes, the error and any warnings before it without (status INVALID). */
EMSCRIPTEN_KEEPALIVE web_answer *web_assemble(agal_context *ctx, const char *text, uint32_t len, const web_options *o)
{
    web_answer *misuse = begin(ctx, o, NULL);
    if (misuse) return misuse;
    const uint8_t *bytes = NULL;
    size_t n = 0;
    int stage = o->stage;
    uint32_t version = o->version;
    agal_status st = agal_assemble_text(ctx, text, len, o->strict ? AGAL_ASM_STRICT : 0, &stage, &version, &bytes, &n);
    web_answer *a = answer(ctx, st);
    agal_strbuf j = {.ctx = ctx};
    agal_sb_put(&j, "{\"diagnostics\":");
    asm_diagnostics(&j, ctx);
    agal_sb_putc(&j, '}');
    if (!a || j.err) return answer(ctx, AGAL_ERR_NOMEM);
    if (st == AGAL_OK) a->code[0] = bytes, a->code_bytes[0] = (uint32_t)n;
    a->json = j.p, a->json_bytes = (uint32_t)j.n;
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

/* wasm32's layouts; a native build (tests/web/web_glue.c) has 8-byte pointers. */
_Static_assert((sizeof(void *) != 4 || (sizeof(web_options) == 4 * 24 && sizeof(web_answer) == 4 * 9)) &&
                   sizeof(web_context3d) == 36 && sizeof(agal_buffer_desc) == 16 && sizeof(agal_texture_desc) == 20,
               "the layouts agal2spv.js writes and reads (OPTION_FIELDS, web_context3d, #answer)");

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
    return id ? thrown(ctx, AGAL_ERR_INVALID, e, NULL) : answer(ctx, AGAL_OK);
}

/* name NULL: ActionScript's null. The value as {"value": N}. */
EMSCRIPTEN_KEEPALIVE web_answer *web_check_enum(agal_context *ctx, int which, const char *name, const char *param)
{
    unsigned v = 0;
    agal_flash_error e;
    web_answer *a = checked(ctx, agal_check_enum((agal_stage3d_enum)which, name, param, &v, &e), &e);
    if (!a || a->status) return a;
    agal_strbuf j = {.ctx = ctx};
    agal_sb_printf(&j, "{\"value\":%u}", v);
    if (j.err) return answer(ctx, AGAL_ERR_NOMEM);
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

/* Byte counts as doubles: exact to 2^53, past any heap. */
EMSCRIPTEN_KEEPALIVE web_answer *web_check_memory(agal_context *ctx, double budget, double in_use, double held,
                                                  double transient)
{
    agal_flash_error e;
    return checked(ctx, agal_check_memory((uint64_t)budget, (uint64_t)in_use, (uint64_t)held, (uint64_t)transient, &e),
                   &e);
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

/* ---- pipeline keys (<agal/stage3d.h>, pipeline.c; docs/pipeline.md) --------------------
 * agal2spv.js's pipelineKey: a pair uploaded once more into a context of its own
 * (web_pair: the key needs the pair's identity, the streams it reads and its
 * samplers' tokens, which the upload's call does not keep), which JavaScript frees
 * with the upload; each key is that pair's agal_pipeline_key_make over the state
 * written over a new Context3D's: the native key, byte for byte. */

typedef struct web_pair {
    agal_context *ctx;
    agal_upload_result r;
} web_pair;

/* The pair with upload's options, or NULL (out of memory: the same bytes and
 * options passed upload). */
EMSCRIPTEN_KEEPALIVE web_pair *web_pair_new(const uint8_t *v, uint32_t vn, const uint8_t *f, uint32_t fn,
                                            const web_options *o)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    agal_limits device;
    if (!ctx || begin(ctx, o, &device)) return agal_context_free(ctx), NULL; /* begin resets the arena: first */
    web_pair *p = agal_alloc(ctx, sizeof *p);
    uint8_t *bytes = agal_alloc(ctx, (size_t)vn + fn + 1);
    if (!p || !bytes) return agal_context_free(ctx), NULL;
    memcpy(bytes, v, vn), memcpy(bytes + vn, f, fn);
    agal_names names;
    agal_upload_options u = upload_options_of(o, &device, &names);
    p->ctx = ctx, p->r = agal_upload_result_init();
    if (agal_upload(ctx, bytes, vn, bytes + vn, fn, &u, &p->r) != AGAL_OK) return agal_context_free(ctx), NULL;
    return p;
}

EMSCRIPTEN_KEEPALIVE void web_pair_free(web_pair *p)
{
    if (p) agal_context_free(p->ctx);
}

/* The Context3D state JavaScript writes (agal2spv.js, `PF`, in this
 * order): 32-bit fields, the first the struct's size (web_pipeline_state_size).
 * Enumerations are the library's values (agal_stage3d_find's, which JavaScript reads
 * by web_stage3d_name); -1 in any field is "not set": a new Context3D's value, a
 * stream or a render target not set, a sampler slot setSamplerStateAt left alone. */
typedef struct web_pipeline_state {
    uint32_t size;
    int32_t blend_src, blend_dst, color_mask; /* color_mask: bit 0 red .. bit 3 alpha */
    int32_t cull, depth_mask, depth_compare;
    int32_t stencil_face, stencil_compare, stencil_both_pass, stencil_depth_fail, stencil_fail;
    int32_t stencil_ref, stencil_read, stencil_write;
    int32_t depth_and_stencil, anti_alias;    /* configureBackBuffer's */
    int32_t target_format[AGAL_DRAW_TARGETS]; /* setRenderToTexture's texture's, by colorOutputIndex */
    int32_t target_depth_and_stencil, target_anti_alias;
    int32_t stream_format[AGAL_DRAW_STREAMS]; /* setVertexBufferAt's, by index */
    int32_t stream_offset[AGAL_DRAW_STREAMS], stream_stride[AGAL_DRAW_STREAMS], stream_divisor[AGAL_DRAW_STREAMS];
    int32_t sampler[AGAL_SAMPLER_SLOTS]; /* setSamplerStateAt's wrap | filter << 8 | mipfilter << 16 */
} web_pipeline_state;

_Static_assert(sizeof(web_pipeline_state) == 4 * 103, "the layout agal2spv.js writes (PF)");

EMSCRIPTEN_KEEPALIVE uint32_t web_pipeline_state_size(void) { return sizeof(web_pipeline_state); }

/* An enumeration's AS3 string, or NULL past its last value: JavaScript's tables of
 * Context3D's names are the library's. */
EMSCRIPTEN_KEEPALIVE const char *web_stage3d_name(int which, unsigned value)
{
    return agal_stage3d_name((agal_stage3d_enum)which, value);
}

static int32_t given(int32_t v, int32_t fallback) { return v >= 0 ? v : fallback; }

static agal_render_state render_of(const web_pipeline_state *w)
{
    agal_render_state r = agal_render_state_default();
    r.blend_src = (agal_blend_factor)given(w->blend_src, (int32_t)r.blend_src);
    r.blend_dst = (agal_blend_factor)given(w->blend_dst, (int32_t)r.blend_dst);
    for (int i = 0; i < 4 && w->color_mask >= 0; i++) r.color_mask[i] = (w->color_mask >> i & 1) != 0;
    r.cull = (agal_triangle_face)given(w->cull, (int32_t)r.cull);
    r.depth_mask = given(w->depth_mask, r.depth_mask) != 0;
    r.depth_compare = (agal_compare_mode)given(w->depth_compare, (int32_t)r.depth_compare);
    r.stencil_face = (agal_triangle_face)given(w->stencil_face, (int32_t)r.stencil_face);
    r.stencil_compare = (agal_compare_mode)given(w->stencil_compare, (int32_t)r.stencil_compare);
    r.stencil_both_pass = (agal_stencil_action)given(w->stencil_both_pass, (int32_t)r.stencil_both_pass);
    r.stencil_depth_fail = (agal_stencil_action)given(w->stencil_depth_fail, (int32_t)r.stencil_depth_fail);
    r.stencil_fail = (agal_stencil_action)given(w->stencil_fail, (int32_t)r.stencil_fail);
    r.stencil_ref = (uint32_t)given(w->stencil_ref, (int32_t)r.stencil_ref);
    r.stencil_read = (uint32_t)given(w->stencil_read, (int32_t)r.stencil_read);
    r.stencil_write = (uint32_t)given(w->stencil_write, (int32_t)r.stencil_write);
    return r;
}

/* The state over a new Context3D; `slots` after setProgram of the upload's fragment
 * program, then setSamplerStateAt's. The targets need only be set: the key reads
 * their formats and slot 0's options. */
static void pipeline_state_of(const web_pipeline_state *w, const agal_upload_result *r, agal_sampler_slots *slots,
                              agal_context3d_state *s)
{
    agal_context3d_state_init(s, AGAL_C3D_STANDARD_EXTENDED);
    s->render = render_of(w);
    s->depth_and_stencil = given(w->depth_and_stencil, 1) != 0;
    s->anti_alias = given(w->anti_alias, 0);
    for (int i = 0; i < AGAL_DRAW_TARGETS; i++) {
        if (w->target_format[i] < 0) continue;
        s->targets[i].texture = w;
        s->targets[i].depth_and_stencil = given(w->target_depth_and_stencil, 0) != 0;
        s->targets[i].anti_alias = given(w->target_anti_alias, 0);
        s->target_formats[i] = (agal_texture_format)w->target_format[i];
    }
    for (int i = 0; i < AGAL_DRAW_STREAMS; i++) {
        if (w->stream_format[i] < 0) continue;
        agal_draw_stream *st = &s->streams[i];
        st->set = true, st->format = (agal_vertex_format)w->stream_format[i];
        st->offset = given(w->stream_offset[i], 0), st->data32_per_vertex = (uint32_t)given(w->stream_stride[i], 0);
        st->instances_per_element = (uint32_t)given(w->stream_divisor[i], 0);
    }
    agal_slots_init(slots);
    agal_slots_set_program(slots, r->fragment);
    for (unsigned i = 0; i < AGAL_SAMPLER_SLOTS; i++) {
        if (w->sampler[i] < 0) continue;
        agal_sampler_state st = {(uint8_t)w->sampler[i], (uint8_t)(w->sampler[i] >> 8), (uint8_t)(w->sampler[i] >> 16)};
        agal_slots_set_state(slots, i, st);
    }
    s->slots = slots;
}

/* The answer: code[0] the full key's bytes, code[1] the key baked with
 * AGAL_DYNAMIC_WEBGPU's; json {"hash", "webgpuHash"}, each 16 hex digits. */
EMSCRIPTEN_KEEPALIVE web_answer *web_pipeline_key(agal_context *ctx, const web_pair *p, const web_pipeline_state *w)
{
    agal_context_reset(ctx);
    if (w->size != sizeof *w)
        return misused(ctx, "a pipeline state of another size: agal2spv.js and agal2spv-wasm.js differ");
    agal_sampler_slots slots;
    agal_context3d_state s;
    pipeline_state_of(w, &p->r, &slots, &s);
    agal_pipeline_key *keys = agal_alloc(ctx, 2 * sizeof *keys);
    web_answer *a = answer(ctx, AGAL_OK);
    if (!keys || !a) return answer(ctx, AGAL_ERR_NOMEM);
    agal_pipeline_key_make(&p->r, &s, &keys[0]);
    agal_pipeline_key_baked(&keys[0], AGAL_DYNAMIC_WEBGPU, &keys[1]);
    agal_strbuf j = {.ctx = ctx};
    agal_sb_printf(&j, "{\"hash\":\"%016llx\",\"webgpuHash\":\"%016llx\"}",
                   (unsigned long long)agal_pipeline_key_hash(&keys[0]),
                   (unsigned long long)agal_pipeline_key_hash(&keys[1]));
    if (j.err) return answer(ctx, AGAL_ERR_NOMEM);
    for (int i = 0; i < 2; i++) a->code[i] = &keys[i], a->code_bytes[i] = (uint32_t)sizeof keys[i];
    a->json = j.p, a->json_bytes = (uint32_t)j.n;
    return a;
}

/* A key's bytes (web_pipeline_key's) as agal_pipeline_key_json writes it: code[0]. */
EMSCRIPTEN_KEEPALIVE web_answer *web_pipeline_key_json(agal_context *ctx, const agal_pipeline_key *k)
{
    agal_context_reset(ctx);
    const char *text = agal_pipeline_key_json(ctx, k);
    web_answer *a = answer(ctx, AGAL_OK);
    if (!text || !a) return answer(ctx, AGAL_ERR_NOMEM);
    a->code[0] = text, a->code_bytes[0] = (uint32_t)strlen(text);
    return a;
}
