/* test_oom.c: allocation failure never gives a wrong result. For every corpus
 * program and larger generated ones, each public call (decode, assemble, SPIR-V
 * into the arena and into a caller's buffer, GLSL, GLSL ES 3.00 and 1.00,
 * reflection JSON, -t ir, disassembly, agal_upload of a pair, GLSL ES 1.00 within
 * WebGL 1's limits, the limits' JSON form) is run with the allocator hook failing its N-th call, for every N
 * the call reaches: from a fresh context whose every allocation asks the hook (so
 * every allocation of the library is failed once), failing that call only and
 * failing every call from it on, and from a warm context that kept another
 * program's blocks. Each result must be AGAL_ERR_NOMEM or exactly the output of an
 * unconstrained run, and freeing the context must give every byte back.
 *
 *   test_oom SHADERS_DIR */
#include "check.h"
#include "translated.h"
#include "gen.h"
#include "internal.h"
#include "shapes.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a failing allocator -------------------------------------------------------- */

typedef struct hook {
    size_t calls, fail_at; /* fail the fail_at-th call (1-based; 0: never) */
    bool fail_after;       /* ...and every later one */
    size_t live;           /* bytes held */
} hook;

static void *hook_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    hook *h = ud;
    if (nsize == 0) {
        h->live -= osize;
        free(ptr);
        return NULL;
    }
    h->calls++;
    if (h->fail_at && (h->calls == h->fail_at || (h->fail_after && h->calls > h->fail_at))) return NULL;
    void *p = realloc(ptr, nsize);
    if (p) h->live += nsize - (ptr ? osize : 0);
    return p;
}

/* ---- the calls --------------------------------------------------------------------- */

typedef struct subject {
    char name[96];
    const char *text; /* assembler input, or NULL */
    agal_stage stage;
    uint32_t version;
    const uint8_t *bytes; /* the program */
    size_t size;
    const agal_program *prog; /* decoded in a context of its own */
    const uint8_t *partner;   /* the other stage of an upload pair: every varying */
    size_t partner_size;      /* written (vertex), or none read (fragment) */
} subject;

typedef struct blob {
    const void *data;
    size_t size;
} blob;

typedef agal_status (*call_fn)(agal_context *ctx, const subject *s, blob *out);

static agal_status do_decode(agal_context *ctx, const subject *s, blob *out)
{
    const agal_program *p;
    agal_decode_options o = {.size = sizeof(agal_decode_options), .lenient = true};
    agal_status st = agal_decode(ctx, s->bytes, s->size, &o, &p);
    if (st == AGAL_OK) *out = (blob){p->tokens, p->ntokens * sizeof *p->tokens};
    return st;
}

static agal_status do_assemble(agal_context *ctx, const subject *s, blob *out)
{
    if (!s->text) return AGAL_OK;
    const uint8_t *b;
    size_t n;
    agal_status st = agal_assemble(ctx, s->text, strlen(s->text), s->stage, s->version, 0, &b, &n);
    if (st == AGAL_OK) *out = (blob){b, n};
    return st;
}

static agal_status do_spirv(agal_context *ctx, const subject *s, blob *out)
{
    const uint32_t *w;
    size_t n;
    agal_status st = tool_translate_words(ctx, s->prog, NULL, &w, &n);
    if (st == AGAL_OK) *out = (blob){w, n * 4};
    return st;
}

static agal_status do_spirv_to(agal_context *ctx, const subject *s, blob *out)
{
    static uint32_t buf[1 << 18];
    size_t n;
    agal_status st = agal_translate_spirv_to(ctx, s->prog, NULL, buf, AGAL_COUNTOF(buf), &n);
    if (st == AGAL_OK) *out = (blob){buf, n * 4};
    return st;
}

static agal_status text_out(agal_status st, const char *text, blob *out)
{
    if (st == AGAL_OK) *out = (blob){text, text ? strlen(text) : 0};
    return st;
}

static agal_status do_glsl(agal_context *ctx, const subject *s, blob *out)
{
    const char *t = NULL;
    return text_out(tool_translate_text(ctx, s->prog, AGAL_TARGET_GLSL, NULL, &t, NULL), t, out);
}

static agal_status do_ir(agal_context *ctx, const subject *s, blob *out)
{
    const char *t = NULL;
    return text_out(tool_translate_text(ctx, s->prog, AGAL_TARGET_IR, NULL, &t, NULL), t, out);
}

static agal_status do_reflect(agal_context *ctx, const subject *s, blob *out)
{
    agal_reflection r;
    agal_status st = agal_reflect(ctx, s->prog, &r);
    if (st != AGAL_OK) return st;
    const char *json = agal_reflect_json(ctx, &r);
    return json ? text_out(AGAL_OK, json, out) : AGAL_ERR_NOMEM;
}

/* Debug info: SPIR-V's source map as JSON, and a GLSL text's log of each driver's
 * form mapped to the tokens. */
static agal_status do_source_map(agal_context *ctx, const subject *s, blob *out)
{
    agal_translate_options o = agal_translate_options_init();
    o.debug_info = true;
    agal_shader sh = agal_shader_init();
    agal_status st = agal_translate(ctx, s->prog, &o, &sh);
    if (st != AGAL_OK) return st;
    const char *json = agal_source_map_json(ctx, &sh);
    return json ? text_out(AGAL_OK, json, out) : AGAL_ERR_NOMEM;
}

/* SPIR-V with NonSemantic.Shader.DebugInfo.100 (-gnonsemantic): its writer's own
 * sections and constants. */
static agal_status do_nonsemantic(agal_context *ctx, const subject *s, blob *out)
{
    agal_translate_options o = agal_translate_options_init();
    o.debug_info = o.debug_info_nonsemantic = true;
    const uint32_t *w;
    size_t n;
    agal_status st = tool_translate_words(ctx, s->prog, &o, &w, &n);
    if (st == AGAL_OK) *out = (blob){w, n * 4};
    return st;
}

static agal_status do_driver_log(agal_context *ctx, const subject *s, blob *out)
{
    agal_translate_options o = agal_translate_options_init();
    o.target = AGAL_TARGET_GLSL;
    o.debug_info = true;
    agal_shader sh = agal_shader_init();
    agal_status st = agal_translate(ctx, s->prog, &o, &sh);
    if (st != AGAL_OK) return st;
    const char *log = agal_map_driver_log(ctx, &sh, "ERROR: 1:3: 'x' : undeclared\n0:4(5): error: y\n:12:5 error: z\n");
    return log ? text_out(AGAL_OK, log, out) : AGAL_ERR_NOMEM;
}

/* A text's positions through the translation: agal_assemble_text_pos, then the map
 * with each token's source line, and a log naming it. */
static agal_status do_text_positions(agal_context *ctx, const subject *s, blob *out)
{
    if (!s->text) return AGAL_OK;
    int stage = (int)s->stage;
    uint32_t version = s->version;
    const uint8_t *b;
    size_t n;
    const agal_source_pos *pos;
    agal_status st = agal_assemble_text_pos(ctx, s->text, strlen(s->text), 0, &stage, &version, &b, &n, &pos);
    agal_translate_options o = agal_translate_options_init();
    o.target = AGAL_TARGET_GLSL;
    o.debug_info = true;
    o.source_pos = pos;
    o.nsource_pos = (n - 7) / 24;
    agal_shader sh = agal_shader_init();
    if (st == AGAL_OK) st = agal_translate(ctx, s->prog, &o, &sh);
    if (st != AGAL_OK) return st;
    const char *json = agal_source_map_json(ctx, &sh);
    const char *log = json ? agal_map_driver_log(ctx, &sh, "ERROR: 1:3: 'x' : undeclared\n") : NULL;
    char *both = log ? agal_alloc(ctx, strlen(json) + strlen(log) + 1) : NULL;
    if (!both) return AGAL_ERR_NOMEM;
    strcat(strcpy(both, json), log);
    return text_out(AGAL_OK, both, out);
}

static agal_status do_disassemble(agal_context *ctx, const subject *s, blob *out)
{
    const char *t = NULL;
    return text_out(agal_disassemble(ctx, s->bytes, s->size, AGAL_DIS_TOKENS, &t), t, out);
}

static agal_status do_essl(agal_context *ctx, const subject *s, agal_target target, blob *out)
{
    const char *t = NULL;
    return text_out(tool_translate_text(ctx, s->prog, target, NULL, &t, NULL), t, out);
}

static agal_status do_essl3(agal_context *ctx, const subject *s, blob *out)
{
    return do_essl(ctx, s, AGAL_TARGET_ESSL3, out);
}

/* ES 1.00 refuses iid (AGAL_ERR_UNSUPPORTED): the sweep then wants that status. */
static agal_status do_essl1(agal_context *ctx, const subject *s, blob *out)
{
    return do_essl(ctx, s, AGAL_TARGET_ESSL1, out);
}

/* agal_upload of the subject with its partner (SPIR-V, separate samplers): both
 * modules and the layout's counts, one after the other. */
static agal_status do_upload(agal_context *ctx, const subject *s, blob *out)
{
    bool vs = s->stage == AGAL_VERTEX;
    agal_upload_options o = {.size = sizeof(agal_upload_options), .separate_samplers = true, .lenient = true};
    agal_upload_result r = agal_upload_result_init();
    agal_status st = agal_upload(ctx, vs ? s->bytes : s->partner, vs ? s->size : s->partner_size,
                                 vs ? s->partner : s->bytes, vs ? s->partner_size : s->size, &o, &r);
    if (st != AGAL_OK) return st;
    size_t counts[4] = {r.nblocks, r.nsamplers, r.nattributes, r.nvaryings};
    size_t n0 = r.shaders[0].nwords * 4, n1 = r.shaders[1].nwords * 4;
    uint8_t *all = agal_alloc(ctx, n0 + n1 + sizeof counts);
    if (!all) return AGAL_ERR_NOMEM;
    memcpy(all, r.shaders[0].words, n0);
    memcpy(all + n0, r.shaders[1].words, n1);
    memcpy(all + n0 + n1, counts, sizeof counts);
    *out = (blob){all, n0 + n1 + sizeof counts};
    return AGAL_OK;
}

/* GLSL ES 1.00 within WebGL 1's limits: the text (constants read past its 16
 * fragment uniform vectors packed), or the refusal's status (a relative read's whole
 * file, more registers read than it holds). */
static agal_status do_essl1_webgl1(agal_context *ctx, const subject *s, blob *out)
{
    agal_limits webgl1 = agal_limits_init();
    agal_limits_preset("webgl1", &webgl1);
    agal_translate_options o = agal_translate_options_init();
    o.limits = &webgl1;
    const char *t = NULL;
    return text_out(tool_translate_text(ctx, s->prog, AGAL_TARGET_ESSL1, &o, &t, NULL), t, out);
}

/* The JSON form of limits: a good file (its name copied into the arena) for a vertex
 * subject, an unknown key's refusal (its diagnostic) for a fragment one. The output:
 * the counts, then the name. */
static agal_status do_limits_json(agal_context *ctx, const subject *s, blob *out)
{
    const char *text = s->stage == AGAL_VERTEX ? "{\"name\": \"phone\", \"varying_vectors\": 8}"
                                               : "{\"varying_vectors\": 8, \"varyings\": 8}";
    agal_limits l = agal_limits_init();
    agal_status st = agal_limits_from_json(ctx, text, strlen(text), &l);
    if (st != AGAL_OK) return st;
    char *all = agal_alloc(ctx, 64);
    if (!all) return AGAL_ERR_NOMEM;
    int n = snprintf(all, 64, "%u %s", (unsigned)l.varying_vectors, l.name);
    *out = (blob){all, (size_t)n};
    return AGAL_OK;
}

static const struct {
    const char *name;
    call_fn fn;
} calls[] = {
    {"essl1_webgl1", do_essl1_webgl1},
    {"limits_json", do_limits_json},
    {"decode", do_decode},
    {"assemble", do_assemble},
    {"spirv", do_spirv},
    {"spirv_to", do_spirv_to},
    {"glsl", do_glsl},
    {"essl3", do_essl3},
    {"essl1", do_essl1},
    {"ir", do_ir},
    {"reflect", do_reflect},
    {"disassemble", do_disassemble},
    {"source_map", do_source_map},
    {"nonsemantic", do_nonsemantic},
    {"driver_log", do_driver_log},
    {"text_positions", do_text_positions},
    {"upload", do_upload},
};

/* ---- the sweep --------------------------------------------------------------------- */

static unsigned swept, failed_ok;

/* The unconstrained run's outcome: its status (OK, or a refusal such as ES 1.00's
 * UNSUPPORTED) and, when OK, its output. */
typedef struct reference {
    agal_status st;
    blob out;
} reference;

/* One run with hook h: NOMEM, or exactly the reference. */
static void one_run(hook *h, agal_context *ctx, const subject *s, size_t c, const reference *ref, const char *how)
{
    blob out = {0};
    agal_status st = calls[c].fn(ctx, s, &out);
    swept++;
    if (st == AGAL_ERR_NOMEM) {
        failed_ok++;
        return;
    }
    CHECK(st == ref->st, "%s %s (%s, call %zu): status %d, want %d or NOMEM", s->name, calls[c].name, how, h->fail_at,
          st, ref->st);
    CHECK(st != AGAL_OK || (out.size == ref->out.size && (!out.size || memcmp(out.data, ref->out.data, out.size) == 0)),
          "%s %s (%s, call %zu): a different result", s->name, calls[c].name, how, h->fail_at);
}

static void sweep_fresh(const subject *s, size_t c, const reference *ref, bool fail_after)
{
    for (size_t k = 1;; k++) {
        hook h = {.fail_at = k, .fail_after = fail_after};
        agal_context *ctx = agal_context_new(hook_alloc, &h);
        if (!ctx) continue; /* the context itself was the k-th call */
        agal_context_hook_every_alloc(ctx, true);
        one_run(&h, ctx, s, c, ref, fail_after ? "fresh, failing from it on" : "fresh");
        bool reached = h.calls >= k;
        agal_context_free(ctx);
        CHECK(h.live == 0, "%s %s: %zu bytes left after free", s->name, calls[c].name, h.live);
        if (!reached) break;
    }
}

/* A context warm with the first subject's work takes its blocks back first. */
static void sweep_warm(const subject *s, const subject *warmer, size_t c, const reference *ref)
{
    for (size_t k = 1;; k++) {
        hook h = {0};
        agal_context *ctx = agal_context_new(hook_alloc, &h);
        blob ignored;
        calls[c].fn(ctx, warmer, &ignored);
        agal_context_reset(ctx);
        h.fail_at = h.calls + k;
        one_run(&h, ctx, s, c, ref, "warm");
        bool reached = h.calls >= h.fail_at;
        agal_context_free(ctx);
        CHECK(h.live == 0, "%s %s (warm): %zu bytes left after free", s->name, calls[c].name, h.live);
        if (!reached) break;
    }
}

/* The refusals an unconstrained run may give, each then the sweep's reference: ES
 * 1.00's of iid (AGAL_ERR_UNSUPPORTED), a program beyond WebGL 1's limits (the same),
 * the limits' JSON with an unknown key (AGAL_ERR_INVALID). */
static bool expected_refusal(call_fn fn, const subject *s, agal_status st)
{
    if (st == AGAL_ERR_UNSUPPORTED) return (fn == do_essl1 && s->prog->version > 1) || fn == do_essl1_webgl1;
    return st == AGAL_ERR_INVALID && fn == do_limits_json && s->stage == AGAL_FRAGMENT;
}

static void sweep(const subject *s, const subject *warmer)
{
    for (size_t c = 0; c < AGAL_COUNTOF(calls); c++) {
        agal_context *ctx = agal_context_new(NULL, NULL);
        blob ref = {0};
        agal_status st = calls[c].fn(ctx, s, &ref);
        bool refused = expected_refusal(calls[c].fn, s, st);
        CHECK(st == AGAL_OK || refused, "%s %s: fails unconstrained (%d)", s->name, calls[c].name, st);
        if (st == AGAL_OK || refused) {
            void *copy = malloc(ref.size + 1);
            if (st == AGAL_OK && ref.size) memcpy(copy, ref.data, ref.size);
            reference own = {st, {copy, st == AGAL_OK ? ref.size : 0}};
            sweep_fresh(s, c, &own, false);
            sweep_fresh(s, c, &own, true);
            sweep_warm(s, warmer, c, &own);
            free(copy);
        }
        agal_context_free(ctx);
    }
}

/* ---- the subjects ------------------------------------------------------------------ */

enum { MAX_SUBJECTS = 96 };

/* The subject's upload partner, of its version: a vertex program writing every
 * varying the profile has, or a fragment program reading none. */
static bool make_partner(agal_context *pctx, subject *s)
{
    char text[512] = "mov oc, fc0\n";
    agal_stage other = s->stage == AGAL_VERTEX ? AGAL_FRAGMENT : AGAL_VERTEX;
    if (other == AGAL_VERTEX) {
        unsigned n = agal_reg_count(s->prog->profile, AGAL_VERTEX, AGAL_REG_VARYING);
        size_t len = (size_t)snprintf(text, sizeof text, "mov op, va0\n");
        for (unsigned v = 0; v < n && len < sizeof text; v++)
            len += (size_t)snprintf(text + len, sizeof text - len, "mov v%u, va0\n", v);
    }
    return agal_assemble(pctx, text, strlen(text), other, s->version, 0, &s->partner, &s->partner_size) == AGAL_OK;
}

static bool make_subject(agal_context *pctx, subject *s, const char *name, const char *text, agal_stage stage,
                         uint32_t version, const uint8_t *bytes, size_t size)
{
    snprintf(s->name, sizeof s->name, "%s", name);
    s->text = text;
    s->stage = stage;
    s->version = version;
    if (text && agal_assemble(pctx, text, strlen(text), stage, version, 0, &bytes, &size) != AGAL_OK) return false;
    s->bytes = bytes;
    s->size = size;
    agal_decode_options o = {.size = sizeof(agal_decode_options), .lenient = true};
    if (agal_decode(pctx, bytes, size, &o, &s->prog) != AGAL_OK) return false;
    return make_partner(pctx, s);
}

static size_t corpus(agal_context *pctx, const char *dir, subject *out, char **texts)
{
    size_t n = 0;
    DIR *d = opendir(dir);
    CHECK(d != NULL, "cannot open %s", dir);
    struct dirent *e;
    while (d && (e = readdir(d)) && n < MAX_SUBJECTS - 16) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".agal")) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        char *text = calloc(1, 1 << 16);
        size_t tn = fread(text, 1, (1 << 16) - 1, f);
        fclose(f);
        int stage;
        uint32_t version;
        if (agal_asm_header(pctx, text, tn, &stage, &version) != AGAL_OK || stage < 0 ||
            !make_subject(pctx, &out[n], e->d_name, text, (agal_stage)stage, version ? version : 1, NULL, 0)) {
            free(text);
            continue;
        }
        texts[n++] = text;
    }
    if (d) closedir(d);
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_oom SHADERS_DIR\n");
        return 2;
    }
    agal_context *pctx = agal_context_new(NULL, NULL);
    static subject subjects[MAX_SUBJECTS];
    static char *texts[MAX_SUBJECTS];
    size_t n = corpus(pctx, argv[1], subjects, texts);
    CHECK(n >= 60, "only %zu corpus programs", n);
    /* Larger ones: generated programs of 200 to 400 tokens, and the shapes. */
    static gen_program gp;
    static uint8_t bufs[4][GEN_MAX_BYTES];
    for (unsigned i = 0; i < 4; i++) {
        gen_options go = {.min_tokens = 200, .max_tokens = 400};
        agal_stage stage = i & 1 ? AGAL_FRAGMENT : AGAL_VERTEX;
        CHECK(gen_program_make(&gp, 100 + i, stage, 2 + i % 2, &go), "generated program");
        size_t size = gen_program_encode(&gp, bufs[i], sizeof bufs[i]);
        char name[32];
        snprintf(name, sizeof name, "generated %u", i);
        if (make_subject(pctx, &subjects[n], name, NULL, stage, 2 + i % 2, bufs[i], size)) n++;
    }
    for (int sh = 0; sh < SHAPE_COUNT; sh++) {
        agal_stage stage;
        char *text = shape_text((shape)sh, 300, &stage);
        if (text && make_subject(pctx, &subjects[n], shape_name((shape)sh), text, stage, 2, NULL, 0)) texts[n++] = text;
        else free(text);
    }
    for (size_t i = 0; i < n; i++) sweep(&subjects[i], &subjects[i ? 0 : 1]);
    printf("oom: %zu programs, %u runs, %u of them out of memory, %d failures\n", n, swept, failed_ok, failures);
    for (size_t i = 0; i < n; i++) free(texts[i]);
    agal_context_free(pctx);
    return failures != 0;
}
