/* fuzz_upload.c: libFuzzer target over Program3D.upload as an emulator makes it:
 * agal_upload of a fuzzed pair for each target and fuzzed options, interleaved with
 * the sampler slots an emulator keeps beside it (agal_slots_set_state with any slot
 * and values, agal_slots_set_program of any pair uploaded so far, agal_slots_resolve
 * of every sampler a pair samples), in one context reset now and then. Checked:
 * no crash, leak or out-of-bounds read; an upload's result holds together (sorted
 * samplers, attributes and varyings, code of its target, text of its length); a
 * resolved sampler takes wrap, filter and mipmap from its slot and the rest from
 * the token; the same upload again, after a reset, gives the same code.
 * Build with -Dfuzz=true (clang).
 *
 * Input: u16 vertex length V, V bytes, u16 fragment length F, F bytes, then the
 * operations, one byte each with its operands after it (zeros past the end). */
#include "agal/agal.h"
#include "agal/interp.h"
#include "agal/stage3d.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct stream {
    const uint8_t *p;
    size_t n;
} stream;

static uint8_t byte(stream *s)
{
    if (!s->n) return 0;
    s->n--;
    return *s->p++;
}

static const uint8_t *bytes(stream *s, size_t *len)
{
    size_t want = byte(s);
    want |= (size_t)byte(s) << 8;
    *len = want < s->n ? want : s->n;
    const uint8_t *p = s->p;
    s->p += *len;
    s->n -= *len;
    return p;
}

enum { MAX_UPLOADS = 8 };

typedef struct state {
    agal_context *ctx;
    const uint8_t *vertex, *fragment;
    size_t nvertex, nfragment;
    agal_upload_result uploads[MAX_UPLOADS]; /* live until the next reset */
    size_t nuploads;
    agal_sampler_slots slots;
} state;

static void check_result(const agal_upload_result *r, const agal_upload_options *opt)
{
    if (r->target != opt->target || !r->vertex || !r->fragment || r->nblocks > 2) abort();
    for (size_t i = 1; i < r->nsamplers; i++)
        if (r->samplers[i - 1].num >= r->samplers[i].num) abort();
    for (size_t i = 1; i < r->nattributes; i++)
        if (r->attributes[i - 1].location >= r->attributes[i].location) abort();
    for (size_t i = 1; i < r->nvaryings; i++)
        if (r->varyings[i - 1].location >= r->varyings[i].location) abort();
    for (int st = 0; st < 2; st++) {
        const agal_shader *c = &r->shaders[st];
        bool spirv = opt->target == AGAL_TARGET_SPIRV;
        if (spirv ? (!c->words || !c->nwords) : (!c->text || strlen(c->text) != c->len)) abort();
    }
}

static agal_upload_options options(stream *s)
{
    uint8_t a = byte(s), b = byte(s);
    return (agal_upload_options){.size = sizeof(agal_upload_options),
                                 .target = (agal_target)(a & 3),
                                 .profile = (agal_profile)(a >> 2 & 3),
                                 .lenient = a >> 4 & 1,
                                 .strip_names = a >> 5 & 1,
                                 .separate_samplers = a >> 6 & 1,
                                 .vertex_big_endian = (a >> 7) && (b & 1),
                                 .fragment_big_endian = (a >> 7) && (b & 1),
                                 .clip = (agal_clip)(b >> 1 & 3),
                                 .samples = b >> 3 & 1}; /* 0 any target, 1 single-sampled */
}

/* The upload, then the same again in a fresh context: the same code. */
static void upload(state *st, stream *s)
{
    agal_upload_options opt = options(s);
    agal_upload_result r = agal_upload_result_init();
    if (agal_upload(st->ctx, st->vertex, st->nvertex, st->fragment, st->nfragment, &opt, &r) != AGAL_OK) return;
    check_result(&r, &opt);
    if (st->nuploads < MAX_UPLOADS) st->uploads[st->nuploads++] = r;
    agal_context *again = byte(s) & 1 ? agal_context_new(NULL, NULL) : NULL;
    agal_upload_result r2 = agal_upload_result_init();
    if (again && agal_upload(again, st->vertex, st->nvertex, st->fragment, st->nfragment, &opt, &r2) == AGAL_OK) {
        for (int i = 0; i < 2; i++) {
            const agal_shader *x = &r.shaders[i], *y = &r2.shaders[i];
            if (x->nwords != y->nwords || x->len != y->len ||
                (x->nwords && memcmp(x->words, y->words, x->nwords * sizeof *x->words)) ||
                (x->len && memcmp(x->text, y->text, x->len)))
                abort();
        }
    } else if (again) {
        abort(); /* it uploaded once */
    }
    agal_context_free(again);
}

static void resolve_all(const state *st, const agal_upload_result *r)
{
    for (size_t i = 0; i < r->nsamplers; i++) {
        const agal_sampler *t = &r->samplers[i].token;
        agal_sampler got = agal_slots_resolve(&st->slots, t);
        if (got.num != t->num || got.dim != t->dim || got.format != t->format || got.bias != t->bias ||
            got.special != t->special)
            abort();
        if (t->num < AGAL_SAMPLER_SLOTS) {
            const agal_sampler_state *slot = &st->slots.slot[t->num];
            if (got.wrap != slot->wrap || got.filter != slot->filter || got.mipmap != slot->mipmap) abort();
        }
    }
}

static void step(state *st, stream *s)
{
    uint8_t op = byte(s);
    const agal_upload_result *r = st->nuploads ? &st->uploads[byte(s) % st->nuploads] : NULL;
    switch (op % 6) {
    case 0: upload(st, s); break;
    case 1: {
        unsigned slot = byte(s);
        agal_sampler_state v;
        v.wrap = byte(s);
        v.filter = byte(s);
        v.mipmap = byte(s);
        agal_sampler_slots before = st->slots;
        agal_slots_set_state(&st->slots, slot % 20, v); /* slots 16..19: ignored */
        if (slot % 20 >= AGAL_SAMPLER_SLOTS && memcmp(&before, &st->slots, sizeof before)) abort();
        break;
    }
    case 2:
        if (r) agal_slots_set_program(&st->slots, r->fragment);
        break;
    case 3:
        if (r) resolve_all(st, r);
        break;
    case 4: agal_slots_init(&st->slots); break;
    default:
        if (op & 8) { /* a reset: every result so far is gone */
            agal_context_reset(st->ctx);
            st->nuploads = 0;
        }
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    stream s = {data, size};
    state st = {.ctx = agal_context_new(NULL, NULL)};
    if (!st.ctx) return 0;
    st.vertex = bytes(&s, &st.nvertex);
    st.fragment = bytes(&s, &st.nfragment);
    agal_slots_init(&st.slots);
    upload(&st, &s); /* at least one, with the first option bytes */
    for (int i = 0; i < 64 && s.n; i++) step(&st, &s);
    agal_context_free(st.ctx);
    return 0;
}
