/* pipeline.c: the canonical key of a Stage3D draw's pipeline (docs/pipeline.md):
 * the pair's identity, the key of a draw, the baked key a backend with some dynamic
 * state caches on, the key's JSON form and what an upload implies before any draw.
 * The key is plain bytes, every one set, so a cache compares it with memcmp; its
 * JSON form, one member a field from one table, is what a cache record stores. */
#include "emit.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

_Static_assert(sizeof(agal_pipeline_stream) == 8, "a stream's fields leave no padding");
_Static_assert(sizeof(agal_pipeline_key) == 232, "the key's fields leave no padding");

/* ---- hashing ----------------------------------------------------------------------- */

/* The layer's one hash (docs/pipeline.md, "Hashes"): a 64-bit state takes the input
 * 8 bytes at a time, each word little-endian (the same on every host; a last, shorter
 * one zero-filled), xored in, multiplied by an odd constant and its high half folded
 * into the low one, so that a difference in a word's top bits reaches the bits the
 * next multiply spreads; splitmix64's finalizer (agal_mix64) ends it. Each step is a
 * bijection of the state, so two inputs of one length that differ in one word never
 * hash alike. A word a step, not a byte as version 1's FNV-1a: an emulator hashes a
 * key at every draw. */
enum { HASH_SEED, HASH_MULTIPLIER }; /* the seed: any constant (the fraction of sqrt 2) */
static const uint64_t hash_constant[2] = {0x6a09e667f3bcc908ull, 0x9e3779b97f4a7c15ull};

static uint64_t hash_word(uint64_t h, uint64_t w)
{
    h = (h ^ w) * hash_constant[HASH_MULTIPLIER];
    return h ^ (h >> 32);
}

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (; n >= 8; b += 8, n -= 8) h = hash_word(h, agal_rd64(b));
    if (!n) return h;
    uint64_t last = 0;
    for (size_t i = 0; i < n; i++) last |= (uint64_t)b[i] << 8 * i;
    return hash_word(h, last);
}

/* A string with its length first, so ("ab", "c") and ("a", "bc") differ; NULL apart. */
static uint64_t hash_string(uint64_t h, const char *s)
{
    if (!s) return hash_word(h, UINT64_MAX);
    size_t n = strlen(s);
    return hash_bytes(hash_word(h, n), s, n);
}

static uint64_t hash_names(uint64_t h, const agal_names *n)
{
    if (!n) return hash_word(h, 0);
    for (int i = 0; i < 2; i++) h = hash_string(hash_string(h, n->constants[i]), n->blocks[i]);
    h = hash_string(hash_string(hash_string(h, n->sampler), n->attribute), n->varying);
    return hash_word(hash_string(h, n->yflip), (uint64_t)(unsigned char)n->yflip_component);
}

/* The profile the pair is read with (agal_profile_of): an AUTO one follows the
 * version in the vertex program's header, which the fragment program's must match
 * for the pair to upload. */
static agal_profile pair_profile(const void *vertex, size_t size, agal_profile given)
{
    return agal_profile_of(given, agal_header_version(vertex, size));
}

uint64_t agal_pipeline_program_id(const void *vertex, size_t vertex_size, const void *fragment, size_t fragment_size,
                                  const agal_upload_options *opt)
{
    agal_upload_options o = agal_upload_options_init();
    if (opt) memcpy(&o, opt, opt->size < sizeof o ? opt->size : sizeof o);
    uint64_t h = hash_string(hash_constant[HASH_SEED], "agal pipeline program 2");
    h = hash_bytes(hash_word(h, vertex_size), vertex, vertex ? vertex_size : 0);
    h = hash_bytes(hash_word(h, fragment_size), fragment, fragment ? fragment_size : 0);
    /* Only what changes the translations: the limits and the context's profile
     * decide whether an upload succeeds, not what it makes; the profile and the clip
     * as they are resolved (a default and what it stands for are one translation).
     * Single-sampled targets' translation, without centroid, is another; every other
     * count is the default's. */
    const uint64_t fields[] = {(uint64_t)o.target,         (uint64_t)pair_profile(vertex, vertex_size, o.profile),
                               (uint64_t)o.lenient,        (uint64_t)agal_target_clip(o.target, o.clip),
                               (uint64_t)o.strip_names,    (uint64_t)o.separate_samplers,
                               agal_upload_centre_only(&o)};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) h = hash_word(h, fields[i]);
    return agal_mix64(hash_names(h, o.names));
}

uint64_t agal_pipeline_key_hash(const agal_pipeline_key *k)
{
    return agal_mix64(hash_bytes(hash_constant[HASH_SEED], k, sizeof *k));
}

/* ---- the key of a draw ---------------------------------------------------------------- */

static void key_streams(const agal_upload_result *r, const agal_context3d_state *s, agal_pipeline_key *k)
{
    for (size_t i = 0; i < r->nattributes; i++) {
        unsigned loc = r->attributes[i].location % AGAL_DRAW_STREAMS;
        const agal_draw_stream *st = &s->streams[loc];
        k->streams[loc].format = (uint8_t)(st->format + 1);
        k->streams[loc].offset = (uint8_t)st->offset;
        k->streams[loc].stride = (uint8_t)st->data32_per_vertex;
        k->streams[loc].divisor = st->instances_per_element;
    }
}

static void key_samplers(const agal_upload_result *r, const agal_sampler_slots *slots, agal_pipeline_key *k)
{
    for (size_t i = 0; i < r->nsamplers; i++) {
        const agal_sampler *token = &r->samplers[i].token;
        agal_sampler resolved = slots ? agal_slots_resolve(slots, token) : *token;
        k->samplers[token->num % AGAL_SAMPLER_SLOTS] = AGAL_PIPELINE_SAMPLED | agal_sampler_state_key(&resolved);
    }
}

static void key_render(const agal_render_state *rs, bool depth_stencil, agal_pipeline_key *k)
{
    k->blend_src = (uint8_t)rs->blend_src, k->blend_dst = (uint8_t)rs->blend_dst;
    for (int i = 0; i < 4; i++) k->color_mask |= (uint8_t)(rs->color_mask[i] ? 1u << i : 0u);
    k->cull = (uint8_t)rs->cull;
    if (!depth_stencil) return;
    k->depth_compare = (uint8_t)rs->depth_compare, k->depth_mask = rs->depth_mask;
    k->stencil_face = (uint8_t)rs->stencil_face, k->stencil_compare = (uint8_t)rs->stencil_compare;
    k->stencil_both_pass = (uint8_t)rs->stencil_both_pass;
    k->stencil_depth_fail = (uint8_t)rs->stencil_depth_fail;
    k->stencil_fail = (uint8_t)rs->stencil_fail;
    k->stencil_ref = (uint8_t)rs->stencil_ref;
    k->stencil_read = (uint8_t)rs->stencil_read, k->stencil_write = (uint8_t)rs->stencil_write;
}

/* The render target: setRenderToTexture's slots (all share slot 0's options,
 * which agal_check_draw holds them to), else the back buffer. A texture is drawn
 * through the vertex program's flip, where it has one (not AGAL_CLIP_CONTROL's). */
static void key_target(const agal_upload_result *r, const agal_context3d_state *s, agal_pipeline_key *k)
{
    const agal_draw_target *t0 = &s->targets[0];
    k->to_texture = t0->texture != NULL;
    k->yflip = k->to_texture && r->shaders[AGAL_VERTEX].binding.yflip;
    k->depth_stencil = k->to_texture ? t0->depth_and_stencil : s->depth_and_stencil;
    k->samples = (uint8_t)agal_stage3d_samples(k->to_texture ? t0->anti_alias : s->anti_alias);
    if (!k->to_texture) k->colors[0] = AGAL_TEXTURE_BGRA + 1;
    for (int i = 0; k->to_texture && i < AGAL_DRAW_TARGETS; i++)
        if (s->targets[i].texture) k->colors[i] = (uint8_t)(s->target_formats[i] + 1);
}

void agal_pipeline_key_make(const agal_upload_result *r, const agal_context3d_state *s, agal_pipeline_key *out)
{
    memset(out, 0, sizeof *out);
    out->version = AGAL_PIPELINE_KEY_VERSION;
    out->program = r->program_id;
    key_streams(r, s, out);
    key_samplers(r, s->slots, out);
    key_target(r, s, out);
    key_render(&s->render, out->depth_stencil, out);
}

/* ---- the baked key ---------------------------------------------------------------------- */

static void clear_streams(agal_pipeline_key *k, uint32_t dynamic)
{
    for (int i = 0; i < AGAL_DRAW_STREAMS; i++) {
        agal_pipeline_stream *s = &k->streams[i];
        if (dynamic & AGAL_DYNAMIC_VERTEX_INPUT) memset(s, 0, sizeof *s);
        if (dynamic & AGAL_DYNAMIC_STRIDE) s->stride = 0;
        if (dynamic & AGAL_DYNAMIC_OFFSETS) s->offset = 0;
    }
}

void agal_pipeline_key_baked(const agal_pipeline_key *full, uint32_t dynamic, agal_pipeline_key *out)
{
    agal_pipeline_key k = *full;
    dynamic &= AGAL_DYNAMIC_GL;
    k.dynamic = dynamic;
    if (dynamic & AGAL_DYNAMIC_SAMPLERS) memset(k.samplers, 0, sizeof k.samplers);
    if (dynamic & AGAL_DYNAMIC_STENCIL_REFERENCE) k.stencil_ref = 0;
    if (dynamic & AGAL_DYNAMIC_STENCIL_MASKS) k.stencil_read = k.stencil_write = 0;
    if (dynamic & AGAL_DYNAMIC_YFLIP) k.yflip = 0;
    if (dynamic & AGAL_DYNAMIC_CULL) k.cull = 0;
    if (dynamic & AGAL_DYNAMIC_DEPTH) k.depth_compare = k.depth_mask = 0;
    if (dynamic & AGAL_DYNAMIC_STENCIL_OPS)
        k.stencil_face = k.stencil_compare = k.stencil_both_pass = k.stencil_depth_fail = k.stencil_fail = 0;
    clear_streams(&k, dynamic);
    if (dynamic & AGAL_DYNAMIC_BLEND) k.blend_src = k.blend_dst = k.color_mask = 0;
    if (dynamic & AGAL_DYNAMIC_TARGET) {
        k.to_texture = k.samples = k.depth_stencil = 0;
        memset(k.colors, 0, sizeof k.colors);
    }
    *out = k;
}

/* ---- JSON ------------------------------------------------------------------------------- */

/* One member: `count` values of `width` bytes (1 or 4), the first at `offset`, each
 * `step` bytes after the one before. The program is a member of its own (a hex
 * string: 64 bits do not fit a JSON number). */
typedef struct key_field {
    const char *name;
    size_t offset, step;
    unsigned width, count;
} key_field;

#define SCALAR(f) \
    { \
#f, offsetof(agal_pipeline_key, f), 0, sizeof(((agal_pipeline_key *)0)->f), 1 \
    }
#define ARRAY(name, f, n) \
    { \
        name, offsetof(agal_pipeline_key, f), sizeof(((agal_pipeline_key *)0)->f[0]), 1, n \
    }
#define STREAMS(f) \
    { \
        "stream_" #f, offsetof(agal_pipeline_key, streams[0].f), sizeof(agal_pipeline_stream), \
            sizeof(((agal_pipeline_stream *)0)->f), AGAL_DRAW_STREAMS \
    }

static const key_field fields[] = {
    SCALAR(version),
    SCALAR(dynamic),
    STREAMS(format),
    STREAMS(offset),
    STREAMS(stride),
    STREAMS(divisor),
    {"samplers", offsetof(agal_pipeline_key, samplers), 4, 4, AGAL_SAMPLER_SLOTS},
    SCALAR(blend_src),
    SCALAR(blend_dst),
    SCALAR(color_mask),
    SCALAR(cull),
    SCALAR(depth_compare),
    SCALAR(depth_mask),
    SCALAR(stencil_face),
    SCALAR(stencil_compare),
    SCALAR(stencil_both_pass),
    SCALAR(stencil_depth_fail),
    SCALAR(stencil_fail),
    SCALAR(stencil_ref),
    SCALAR(stencil_read),
    SCALAR(stencil_write),
    SCALAR(to_texture),
    SCALAR(samples),
    {"colors", offsetof(agal_pipeline_key, colors), 1, 1, AGAL_DRAW_TARGETS},
    SCALAR(depth_stencil),
    SCALAR(yflip),
};
enum { NFIELDS = sizeof fields / sizeof fields[0] };

static uint32_t field_get(const agal_pipeline_key *k, const key_field *f, unsigned i)
{
    const uint8_t *p = (const uint8_t *)k + f->offset + i * f->step;
    uint32_t v = *p;
    if (f->width == 4) memcpy(&v, p, 4);
    return v;
}

static void field_set(agal_pipeline_key *k, const key_field *f, unsigned i, uint32_t v)
{
    uint8_t *p = (uint8_t *)k + f->offset + i * f->step;
    if (f->width == 4) memcpy(p, &v, 4);
    else *p = (uint8_t)v;
}

char *agal_pipeline_key_json(agal_context *ctx, const agal_pipeline_key *k)
{
    agal_strbuf b = {.ctx = ctx};
    agal_sb_printf(&b, "{\"program\": \"%016llx\"", (unsigned long long)k->program);
    for (unsigned f = 0; f < NFIELDS; f++) {
        agal_sb_printf(&b, ", \"%s\": %s", fields[f].name, fields[f].count > 1 ? "[" : "");
        for (unsigned i = 0; i < fields[f].count; i++)
            agal_sb_printf(&b, "%s%lu", i ? ", " : "", (unsigned long)field_get(k, &fields[f], i));
        if (fields[f].count > 1) agal_sb_put(&b, "]");
    }
    agal_sb_put(&b, "}");
    return b.err ? NULL : b.p;
}

/* The reader (json_read.c), with the members seen, over the table above. */
typedef struct json_reader {
    agal_json_reader in;
    bool seen[NFIELDS + 1]; /* the table's members, then the program */
} json_reader;

static agal_status json_error(json_reader *r, const char *what, const char *member)
{
    return agal_json_error(&r->in, what, member);
}

/* An integer 0 .. max. */
static agal_status integer(json_reader *r, uint32_t max, const char *member, uint32_t *out)
{
    if (agal_json_uint(&r->in, max, out)) return AGAL_OK;
    return max == UINT32_MAX ? json_error(r, "an integer from 0 to 4294967295 was expected", member)
                             : json_error(r, "an integer from 0 to 255 was expected", member);
}

static agal_status field_value(json_reader *r, const key_field *f, agal_pipeline_key *k)
{
    uint32_t max = f->width == 4 ? UINT32_MAX : 255, v = 0;
    if (f->count > 1 && !agal_json_take(&r->in, '[')) return json_error(r, "an array was expected", f->name);
    for (unsigned i = 0; i < f->count; i++) {
        if (i && !agal_json_take(&r->in, ','))
            return json_error(r, "',' was expected: the array is too short", f->name);
        agal_status st = integer(r, max, f->name, &v);
        if (st != AGAL_OK) return st;
        field_set(k, f, i, v);
    }
    if (f->count > 1 && !agal_json_take(&r->in, ']'))
        return json_error(r, "']' was expected: the array is too long", f->name);
    return AGAL_OK;
}

/* The program: 16 hex digits. */
static agal_status program_value(json_reader *r, agal_pipeline_key *k)
{
    size_t first, len;
    agal_status st = agal_json_string(&r->in, &first, &len);
    if (st != AGAL_OK) return st;
    uint64_t v = 0;
    for (size_t i = 0; i < len && len == 16; i++) {
        char c = r->in.s[first + i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0) len = 0;
        v = v << 4 | (uint64_t)(d & 15);
    }
    if (len != 16) return r->in.at = first, json_error(r, "16 lower-case hex digits were expected", "program");
    k->program = v;
    return AGAL_OK;
}

static agal_status member(json_reader *r, agal_pipeline_key *k)
{
    size_t first, len;
    agal_status st = agal_json_string(&r->in, &first, &len);
    if (st != AGAL_OK) return st;
    size_t key_at = first - 1;
    unsigned id = 0;
    while (id < NFIELDS && !(strlen(fields[id].name) == len && !memcmp(r->in.s + first, fields[id].name, len))) id++;
    bool program = id == NFIELDS && len == 7 && !memcmp(r->in.s + first, "program", 7);
    r->in.at = key_at;
    if (id == NFIELDS && !program) return json_error(r, "an unknown member", NULL);
    const char *name = program ? "program" : fields[id].name;
    if (r->seen[id]) return json_error(r, "a member given twice", name);
    r->seen[id] = true;
    r->in.at = first + len + 1;
    if (!agal_json_take(&r->in, ':')) return json_error(r, "':' was expected", name);
    return program ? program_value(r, k) : field_value(r, &fields[id], k);
}

static agal_status object(json_reader *r, agal_pipeline_key *k)
{
    if (!agal_json_take(&r->in, '{')) return json_error(r, "an object was expected", NULL);
    if (!agal_json_take(&r->in, '}')) {
        do {
            agal_status st = member(r, k);
            if (st != AGAL_OK) return st;
        } while (agal_json_take(&r->in, ','));
        if (!agal_json_take(&r->in, '}')) return json_error(r, "',' or '}' was expected", NULL);
    }
    for (unsigned id = 0; id <= NFIELDS; id++)
        if (!r->seen[id]) return json_error(r, "a member is missing", id < NFIELDS ? fields[id].name : "program");
    return k->version == AGAL_PIPELINE_KEY_VERSION ? AGAL_OK : json_error(r, "not this library's version", "version");
}

agal_status agal_pipeline_key_from_json(agal_context *ctx, const char *text, size_t len, agal_pipeline_key *out)
{
    if (!ctx || (!text && len) || !out) return AGAL_ERR_ARG;
    agal_pipeline_key k;
    memset(&k, 0, sizeof k);
    json_reader r = {.in = {.ctx = ctx, .doc = "pipeline key JSON", .s = text, .n = len}};
    agal_status st = object(&r, &k);
    agal_json_skip_space(&r.in);
    if (st == AGAL_OK && r.in.at < r.in.n) st = json_error(&r, "text follows the object", NULL);
    if (st == AGAL_OK) *out = k;
    return st;
}

/* ---- prewarm ------------------------------------------------------------------------------ */

static unsigned components(uint8_t mask)
{
    unsigned n = 0;
    for (unsigned i = 0; i < 4; i++)
        if (mask >> i & 1) n = i + 1;
    return n ? n : 1;
}

/* The likely state of the first draw: what a new Context3D holds, the streams as
 * the programs read them, the back buffer with depth and stencil. */
static void likely_key(const agal_upload_result *r, const agal_pipeline_prewarm *p, agal_pipeline_key *key)
{
    agal_context3d_state s;
    agal_context3d_state_init(&s, AGAL_C3D_BASELINE);
    s.depth_and_stencil = true;
    for (unsigned n = 0; n < AGAL_DRAW_STREAMS; n++) {
        if (!(p->attributes >> n & 1)) continue;
        s.streams[n].set = true;
        s.streams[n].format = (agal_vertex_format)(AGAL_VERTEX_FLOAT_1 + p->attribute_components[n] - 1);
        s.streams[n].data32_per_vertex = p->attribute_components[n];
    }
    agal_pipeline_key_make(r, &s, key);
}

void agal_pipeline_prewarm_of(const agal_upload_result *r, agal_pipeline_prewarm *out, agal_pipeline_key *key)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < r->nattributes; i++) {
        unsigned loc = r->attributes[i].location % AGAL_DRAW_STREAMS;
        out->attributes |= (uint16_t)(1u << loc);
        out->attribute_components[loc] = (uint8_t)components(r->attributes[i].mask);
    }
    for (size_t i = 0; i < r->nsamplers; i++) {
        const agal_sampler *t = &r->samplers[i].token;
        unsigned n = t->num % AGAL_SAMPLER_SLOTS;
        out->samplers |= (uint16_t)(1u << n);
        out->sampler_dim[n] = t->dim;
        out->sampler_format[n] = t->format;
    }
    const agal_binding *fb = &r->shaders[AGAL_FRAGMENT].binding;
    out->writes_depth = r->tokens.writes_depth;
    for (unsigned o = fb->outputs; o; o >>= 1) out->color_outputs++;
    if (key) likely_key(r, out, key);
}
