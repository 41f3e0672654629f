/* test_pipeline.c: the pipeline key (pipeline.c): the pair's identity, the key of
 * a draw and which state changes change it, the baked keys of each API's dynamic
 * state, the hash, the JSON form (its text, the round trip of every key made here,
 * and each refusal) and what an upload implies before any draw (prewarm). */
#include "check.h"

#include "agal/agal.h"
#include "agal/stage3d.h"
#include "agal/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *vertex_text = "m44 op, va0, vc0\nmov v0, va2.xy\n";
static const char *fragment_text = "tex ft0, v0, fs1 <2d,linear,repeat,mipnone>\nmov oc, ft0\n";

typedef struct pair {
    const uint8_t *vb, *fb;
    size_t vn, fn;
    agal_upload_result r;
} pair;

static bool upload(agal_context *ctx, const char *vs, const char *fs, uint32_t version, agal_target target, pair *p)
{
    memset(p, 0, sizeof *p);
    if (agal_assemble(ctx, vs, strlen(vs), AGAL_VERTEX, version, AGAL_ASM_STRICT, &p->vb, &p->vn) != AGAL_OK ||
        agal_assemble(ctx, fs, strlen(fs), AGAL_FRAGMENT, version, AGAL_ASM_STRICT, &p->fb, &p->fn) != AGAL_OK)
        return false;
    agal_upload_options o = agal_upload_options_init();
    o.target = target;
    p->r = agal_upload_result_init();
    return agal_upload(ctx, p->vb, p->vn, p->fb, p->fn, &o, &p->r) == AGAL_OK;
}

/* What the draws below set: va0 float4 and va2 float2 of one 6-word buffer, the
 * back buffer with depth and stencil. */
static void draw_state(agal_context3d_state *s, agal_sampler_slots *slots)
{
    agal_context3d_state_init(s, AGAL_C3D_BASELINE);
    agal_slots_init(slots);
    s->slots = slots;
    s->configured = true;
    s->width = s->height = 64;
    s->depth_and_stencil = true;
    s->streams[0] = (agal_draw_stream){true, 0, AGAL_VERTEX_FLOAT_4, 6, 4, 0};
    s->streams[2] = (agal_draw_stream){true, 4, AGAL_VERTEX_FLOAT_2, 6, 4, 0};
}

/* ---- the program's identity ------------------------------------------------------------ */

static void program_id(agal_context *ctx, const pair *p)
{
    uint64_t id = agal_pipeline_program_id(p->vb, p->vn, p->fb, p->fn, NULL);
    agal_upload_options o = agal_upload_options_init();
    o.target = AGAL_TARGET_SPIRV;
    CHECK(id == agal_pipeline_program_id(p->vb, p->vn, p->fb, p->fn, &o), "NULL options are the defaults");
    CHECK(p->r.program_id == id, "agal_upload sets it: %016llx", (unsigned long long)p->r.program_id);
    CHECK(id != agal_pipeline_program_id(p->fb, p->fn, p->vb, p->vn, NULL), "the programs' order counts");
    CHECK(id != agal_pipeline_program_id(p->vb, p->vn, p->fb, p->fn - 1, NULL), "every byte counts");
    o.target = AGAL_TARGET_GLSL;
    CHECK(id != agal_pipeline_program_id(p->vb, p->vn, p->fb, p->fn, &o), "the target counts");
    o.target = AGAL_TARGET_SPIRV;
    o.clip = AGAL_CLIP_VULKAN;
    CHECK(id == agal_pipeline_program_id(p->vb, p->vn, p->fb, p->fn, &o), "the target's own clip is its default");
    o.clip = AGAL_CLIP_GL;
    CHECK(id != agal_pipeline_program_id(p->vb, p->vn, p->fb, p->fn, &o), "another clip counts");
    o.clip = AGAL_CLIP_DEFAULT;
    o.profile = AGAL_PROFILE_BASELINE;
    CHECK(id == agal_pipeline_program_id(p->vb, p->vn, p->fb, p->fn, &o), "the version's own profile is the default");
    o.profile = AGAL_PROFILE_STANDARD;
    CHECK(id != agal_pipeline_program_id(p->vb, p->vn, p->fb, p->fn, &o), "another profile counts");
    o.profile = AGAL_PROFILE_AUTO;
    o.context_profile = AGAL_PROFILE_STANDARD;
    CHECK(id == agal_pipeline_program_id(p->vb, p->vn, p->fb, p->fn, &o), "the context's profile does not");
    o.samples = 4;
    CHECK(id == agal_pipeline_program_id(p->vb, p->vn, p->fb, p->fn, &o), "multisampled targets translate as any");
    o.samples = 1;
    CHECK(id != agal_pipeline_program_id(p->vb, p->vn, p->fb, p->fn, &o), "single-sampled ones (no centroid) count");
    o.samples = 0;
    agal_names a, b;
    memset(&a, 0, sizeof a), memset(&b, 0, sizeof b);
    a.sampler = "tex", b.sampler = "te", b.attribute = "x";
    a.attribute = "x";
    o.names = &a;
    uint64_t named = agal_pipeline_program_id(p->vb, p->vn, p->fb, p->fn, &o);
    char copy[] = "tex";
    a.sampler = copy; /* the same string elsewhere */
    CHECK(named == agal_pipeline_program_id(p->vb, p->vn, p->fb, p->fn, &o), "names count by content");
    o.names = &b;
    CHECK(named != agal_pipeline_program_id(p->vb, p->vn, p->fb, p->fn, &o), "and by every character");
    CHECK(named != id, "names count");
    /* Pinned values: a cache record written by one build is read by the next, so the
     * hashes must not move unless AGAL_PIPELINE_KEY_VERSION does. */
    uint8_t none[1] = {0};
    CHECK(agal_pipeline_program_id(none, 0, none, 0, NULL) == 0xcef72bb39ffd9a9aull, "%016llx",
          (unsigned long long)agal_pipeline_program_id(none, 0, none, 0, NULL));
    CHECK(id == 0xa57fdd46de1050c5ull, "this pair's (bytes past the last whole word): %016llx", (unsigned long long)id);
    agal_pipeline_key k;
    memset(&k, 0, sizeof k);
    k.version = AGAL_PIPELINE_KEY_VERSION, k.program = 0x0123456789abcdefull;
    CHECK(agal_pipeline_key_hash(&k) == 0x3d468db871886daeull, "%016llx",
          (unsigned long long)agal_pipeline_key_hash(&k));
    (void)ctx;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Every one of the key's bits counts, and no two keys a bit apart hash alike; nor
 * do keys apart in the top bit of two words (two samplers' AGAL_PIPELINE_SAMPLED
 * bits), which a multiply alone would carry off the top and lose. */
static void key_hash_spreads(const pair *p)
{
    agal_context3d_state s;
    agal_sampler_slots slots;
    draw_state(&s, &slots);
    agal_pipeline_key k;
    agal_pipeline_key_make(&p->r, &s, &k);
    enum { BITS = 8 * sizeof k };
    static uint64_t hashes[BITS + 1];
    hashes[BITS] = agal_pipeline_key_hash(&k);
    for (size_t i = 0; i < BITS; i++) {
        agal_pipeline_key flipped = k;
        ((uint8_t *)&flipped)[i / 8] ^= (uint8_t)(1u << i % 8);
        hashes[i] = agal_pipeline_key_hash(&flipped);
    }
    qsort(hashes, BITS + 1, sizeof hashes[0], compare_u64);
    size_t same = 0;
    for (size_t i = 1; i <= BITS; i++) same += hashes[i] == hashes[i - 1];
    CHECK(same == 0, "%zu of the %d keys a bit apart from a draw's hash alike", same, BITS);
    agal_pipeline_key two = k;
    two.samplers[3] ^= AGAL_PIPELINE_SAMPLED, two.samplers[5] ^= AGAL_PIPELINE_SAMPLED;
    CHECK(agal_pipeline_key_hash(&two) != agal_pipeline_key_hash(&k), "two samplers' top bits count");
}

/* ---- the key of a draw ----------------------------------------------------------------- */

static void key_fields(const pair *p)
{
    agal_context3d_state s;
    agal_sampler_slots slots;
    draw_state(&s, &slots);
    agal_slots_set_program(&slots, p->r.fragment);
    agal_pipeline_key k;
    agal_pipeline_key_make(&p->r, &s, &k);
    CHECK(k.version == AGAL_PIPELINE_KEY_VERSION && k.dynamic == 0 && k.program == p->r.program_id);
    CHECK(k.streams[0].format == AGAL_VERTEX_FLOAT_4 + 1 && k.streams[0].stride == 6 && k.streams[0].offset == 0);
    CHECK(k.streams[2].format == AGAL_VERTEX_FLOAT_2 + 1 && k.streams[2].offset == 4 && k.streams[2].divisor == 0);
    CHECK(k.streams[1].format == 0 && k.streams[3].format == 0, "streams not read are 0");
    agal_sampler want = {.num = 1, .wrap = AGAL_WRAP_REPEAT, .filter = AGAL_FILTER_LINEAR, .mipmap = AGAL_MIP_NONE};
    CHECK(k.samplers[1] == (AGAL_PIPELINE_SAMPLED | agal_sampler_state_key(&want)), "%08x", (unsigned)k.samplers[1]);
    CHECK(k.samplers[0] == 0 && k.samplers[2] == 0);
    CHECK(k.blend_src == AGAL_BLEND_ONE && k.blend_dst == AGAL_BLEND_ZERO && k.color_mask == 15 &&
          k.cull == AGAL_FACE_NONE);
    CHECK(k.depth_compare == AGAL_COMPARE_LESS_EQUAL && k.depth_mask == 1 && k.stencil_read == 255 &&
          k.stencil_write == 255 && k.stencil_face == AGAL_FACE_FRONT_AND_BACK);
    CHECK(k.to_texture == 0 && k.yflip == 0 && k.samples == 1 && k.depth_stencil == 1);
    CHECK(k.colors[0] == AGAL_TEXTURE_BGRA + 1 && k.colors[1] == 0);
    s.depth_and_stencil = false;
    s.anti_alias = 4;
    agal_pipeline_key_make(&p->r, &s, &k);
    CHECK(k.depth_stencil == 0 && k.depth_compare == 0 && k.depth_mask == 0 && k.stencil_read == 0 &&
              k.stencil_face == 0,
          "no depth buffer: depth and stencil mean nothing");
    CHECK(k.samples == 4);
    int tex;
    s.targets[0] = (agal_draw_target){&tex, 64, 64, 0, true, 2};
    s.targets[1] = (agal_draw_target){&s, 64, 64, 0, true, 2};
    s.target_formats[0] = AGAL_TEXTURE_BGRA, s.target_formats[1] = AGAL_TEXTURE_RGBA_HALF_FLOAT;
    agal_pipeline_key_make(&p->r, &s, &k);
    CHECK(k.to_texture == 1 && k.yflip == 1 && k.samples == 2 && k.depth_stencil == 1);
    CHECK(k.colors[0] == AGAL_TEXTURE_BGRA + 1 && k.colors[1] == AGAL_TEXTURE_RGBA_HALF_FLOAT + 1 && k.colors[2] == 0);
}

/* Into a texture, a GL pair's key is flipped (its front face turned: agal_gl_key_apply)
 * unless it was uploaded with AGAL_CLIP_CONTROL, whose clip origin turns the image
 * over and keeps the facing. */
static void key_clip_control(agal_context *ctx, const pair *p)
{
    agal_context3d_state s;
    agal_sampler_slots slots;
    draw_state(&s, &slots);
    int tex;
    s.targets[0] = (agal_draw_target){&tex, 64, 64, 0, true, 0};
    s.target_formats[0] = AGAL_TEXTURE_BGRA;
    for (agal_clip clip = AGAL_CLIP_DEFAULT; clip <= AGAL_CLIP_CONTROL; clip++) {
        agal_upload_options o = agal_upload_options_init();
        o.target = AGAL_TARGET_ESSL3;
        o.clip = clip;
        agal_upload_result r = agal_upload_result_init();
        CHECK(agal_upload(ctx, p->vb, p->vn, p->fb, p->fn, &o, &r) == AGAL_OK, "clip %d uploads", clip);
        agal_pipeline_key k;
        agal_pipeline_key_make(&r, &s, &k);
        CHECK(k.to_texture == 1 && k.yflip == (clip != AGAL_CLIP_CONTROL), "clip %d: yflip %u", clip, k.yflip);
    }
}

/* One state change at a time, as test_replay's pipeline scene makes them: whether
 * it changes the full key and each API's baked key. */
typedef struct change {
    const char *what;
    void (*apply)(agal_context3d_state *s, agal_sampler_slots *slots);
    bool full, vulkan, vulkan_extended, webgpu, gl;
} change;

static void blend(agal_context3d_state *s, agal_sampler_slots *l)
{
    (void)l, s->render.blend_src = AGAL_BLEND_SOURCE_ALPHA;
    s->render.blend_dst = AGAL_BLEND_ONE_MINUS_SOURCE_ALPHA;
}
static void depth_mask(agal_context3d_state *s, agal_sampler_slots *l) { (void)l, s->render.depth_mask = false; }
static void cull(agal_context3d_state *s, agal_sampler_slots *l) { (void)l, s->render.cull = AGAL_FACE_BACK; }
static void constant(agal_context3d_state *s, agal_sampler_slots *l) { (void)s, (void)l; }
static void texture(agal_context3d_state *s, agal_sampler_slots *l)
{
    (void)l;
    static int other;
    s->textures[1].object = &other; /* another texture of the same format */
}
static void sampler(agal_context3d_state *s, agal_sampler_slots *l)
{
    (void)s, agal_slots_set_state(l, 1, (agal_sampler_state){AGAL_WRAP_CLAMP, AGAL_FILTER_NEAREST, AGAL_MIP_NONE});
}
static void stencil_ref(agal_context3d_state *s, agal_sampler_slots *l) { (void)l, s->render.stencil_ref = 7; }
static void stencil_mask(agal_context3d_state *s, agal_sampler_slots *l) { (void)l, s->render.stencil_read = 15; }
static void stride(agal_context3d_state *s, agal_sampler_slots *l)
{
    (void)l, s->streams[0].data32_per_vertex = s->streams[2].data32_per_vertex = 8;
}
static void format(agal_context3d_state *s, agal_sampler_slots *l)
{
    (void)l, s->streams[2].format = AGAL_VERTEX_FLOAT_3;
}
static void offset(agal_context3d_state *s, agal_sampler_slots *l) { (void)l, s->streams[2].offset = 2; }
static void to_texture(agal_context3d_state *s, agal_sampler_slots *l)
{
    (void)l;
    static int target;
    s->targets[0] = (agal_draw_target){&target, 64, 64, 0, true, 0};
}

static const change changes[] = {
    /* what                full   vulkan extended webgpu gl */
    {"blend", blend, true, true, true, true, false},
    {"depth mask", depth_mask, true, true, false, true, false},
    {"cull", cull, true, true, false, true, false},
    {"a constant", constant, false, false, false, false, false},
    {"a texture of the same format", texture, false, false, false, false, false},
    {"a sampler state", sampler, true, false, false, false, false},
    {"the stencil reference", stencil_ref, true, false, false, false, false},
    {"a stencil mask", stencil_mask, true, false, false, true, false},
    {"a stride", stride, true, true, false, true, false},
    {"a stream's format", format, true, true, true, true, false},
    {"a stream's offset", offset, true, false, false, false, false},
    {"a render target", to_texture, true, true, true, true, false},
};

static bool baked_differ(const agal_pipeline_key *a, const agal_pipeline_key *b, uint32_t dynamic)
{
    agal_pipeline_key x, y;
    agal_pipeline_key_baked(a, dynamic, &x);
    agal_pipeline_key_baked(b, dynamic, &y);
    CHECK(x.dynamic == dynamic);
    return !agal_pipeline_key_equal(&x, &y);
}

static void one_change(const pair *p, const change *c)
{
    agal_context3d_state s;
    agal_sampler_slots slots;
    draw_state(&s, &slots);
    agal_slots_set_program(&slots, p->r.fragment);
    agal_pipeline_key before, after;
    agal_pipeline_key_make(&p->r, &s, &before);
    c->apply(&s, &slots);
    agal_pipeline_key_make(&p->r, &s, &after);
    bool full = !agal_pipeline_key_equal(&before, &after);
    CHECK(full == c->full, "%s: the full key", c->what);
    CHECK(full == (agal_pipeline_key_hash(&before) != agal_pipeline_key_hash(&after)), "%s: the hash", c->what);
    CHECK(baked_differ(&before, &after, AGAL_DYNAMIC_VULKAN) == c->vulkan, "%s: Vulkan", c->what);
    CHECK(baked_differ(&before, &after, AGAL_DYNAMIC_VULKAN_EXTENDED) == c->vulkan_extended,
          "%s: Vulkan with extended dynamic state", c->what);
    CHECK(baked_differ(&before, &after, AGAL_DYNAMIC_WEBGPU) == c->webgpu, "%s: WebGPU", c->what);
    CHECK(baked_differ(&before, &after, AGAL_DYNAMIC_GL) == c->gl, "%s: GL", c->what);
}

static void baked(const pair *p, const pair *other)
{
    for (size_t i = 0; i < sizeof changes / sizeof changes[0]; i++) one_change(p, &changes[i]);
    /* GL links one program per pair: only the program tells its baked keys apart. */
    agal_context3d_state s;
    agal_sampler_slots slots;
    draw_state(&s, &slots);
    agal_pipeline_key a, b;
    agal_pipeline_key_make(&p->r, &s, &a);
    agal_pipeline_key_make(&other->r, &s, &b);
    CHECK(baked_differ(&a, &b, AGAL_DYNAMIC_GL), "another program, another GL program");
    agal_pipeline_key g;
    agal_pipeline_key_baked(&a, AGAL_DYNAMIC_GL, &g);
    CHECK(g.samplers[1] == 0 && g.streams[0].format == 0 && g.colors[0] == 0 && g.blend_src == 0 &&
          g.program == a.program && g.version == AGAL_PIPELINE_KEY_VERSION && g.dynamic == AGAL_DYNAMIC_GL);
    agal_pipeline_key_baked(&a, 0, &g);
    CHECK(agal_pipeline_key_equal(&a, &g), "nothing dynamic: the full key");
}

/* ---- JSON ------------------------------------------------------------------------------ */

static void round_trip(agal_context *ctx, const agal_pipeline_key *k, const char *what)
{
    char *json = agal_pipeline_key_json(ctx, k);
    agal_pipeline_key back;
    memset(&back, 0xa5, sizeof back);
    CHECK(json && agal_pipeline_key_from_json(ctx, json, strlen(json), &back) == AGAL_OK, "%s: %s", what,
          json ? json : "(none)");
    CHECK(agal_pipeline_key_equal(k, &back), "%s: the round trip is exact", what);
}

static void refused(agal_context *ctx, const char *json, const char *want)
{
    agal_pipeline_key k;
    agal_diag_clear(ctx);
    agal_status st = agal_pipeline_key_from_json(ctx, json, strlen(json), &k);
    const agal_diag *d = agal_diag_count(ctx) ? agal_diag_get(ctx, 0) : NULL;
    CHECK(st == AGAL_ERR_INVALID && d && strstr(d->message, want), "%s\n  got %s, want ...%s...", json,
          d ? d->message : "no diagnostic", want);
}

/* agal_pipeline_key_json's text with `from` replaced by `to` (once). */
static char *edited(const char *json, const char *from, const char *to, char *buf, size_t size)
{
    const char *at = strstr(json, from);
    if (!at) return strcpy(buf, "(edit not found)");
    snprintf(buf, size, "%.*s%s%s", (int)(at - json), json, to, at + strlen(from));
    return buf;
}

static void json(agal_context *ctx, const pair *p)
{
    agal_context3d_state s;
    agal_sampler_slots slots;
    draw_state(&s, &slots);
    agal_slots_set_program(&slots, p->r.fragment);
    agal_pipeline_key k;
    agal_pipeline_key_make(&p->r, &s, &k);
    k.program = 0x0123456789abcdefull; /* pinned, for the text below */
    const char *want = "{\"program\": \"0123456789abcdef\", \"version\": 2, \"dynamic\": 0, "
                       "\"stream_format\": [4, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "
                       "\"stream_offset\": [0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "
                       "\"stream_stride\": [6, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "
                       "\"stream_divisor\": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "
                       "\"samplers\": [0, 2147483665, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "
                       "\"blend_src\": 1, \"blend_dst\": 0, \"color_mask\": 15, \"cull\": 0, \"depth_compare\": 3, "
                       "\"depth_mask\": 1, \"stencil_face\": 3, \"stencil_compare\": 7, \"stencil_both_pass\": 0, "
                       "\"stencil_depth_fail\": 0, \"stencil_fail\": 0, \"stencil_ref\": 0, \"stencil_read\": 255, "
                       "\"stencil_write\": 255, \"to_texture\": 0, \"samples\": 1, \"colors\": [1, 0, 0, 0], "
                       "\"depth_stencil\": 1, \"yflip\": 0}";
    const char *got = agal_pipeline_key_json(ctx, &k);
    CHECK(got && !strcmp(got, want), "the JSON form:\n  got  %s\n  want %s", got ? got : "(none)", want);
    round_trip(ctx, &k, "a draw's key");
    k.streams[5].divisor = 0xffffffffu, k.samplers[15] = 0x80000fffu, k.program = UINT64_MAX;
    round_trip(ctx, &k, "the largest values");
    for (size_t i = 0; i < sizeof changes / sizeof changes[0]; i++) {
        changes[i].apply(&s, &slots);
        agal_pipeline_key_make(&p->r, &s, &k);
        round_trip(ctx, &k, changes[i].what);
        agal_pipeline_key b;
        agal_pipeline_key_baked(&k, AGAL_DYNAMIC_VULKAN_EXTENDED, &b);
        round_trip(ctx, &b, "a baked key");
    }
    got = want; /* the refusals edit the pinned text */
    char buf[4096];
    refused(ctx, "", "an object was expected");
    refused(ctx, "{}", "a member is missing");
    refused(ctx, edited(got, "\"yflip\": 0}", "\"yflip\": 0, \"yflip\": 0}", buf, sizeof buf),
            "(\"yflip\"): a member given twice");
    refused(ctx, edited(got, "\"yflip\": 0}", "\"yflip\": 0, \"flip\": 0}", buf, sizeof buf), "an unknown member");
    refused(ctx, edited(got, "\"cull\": 0", "\"cull\": 256", buf, sizeof buf),
            "(\"cull\"): an integer from 0 to 255 was expected");
    refused(ctx, edited(got, "\"cull\": 0", "\"cull\": -1", buf, sizeof buf), "(\"cull\"): an integer");
    refused(ctx, edited(got, "\"cull\": 0", "\"cull\": 0.0", buf, sizeof buf), "(\"cull\"): an integer");
    refused(ctx, edited(got, "\"version\": 2", "\"version\": 1", buf, sizeof buf), "not this library's version");
    refused(ctx, edited(got, "0123456789abcdef", "0123456789ABCDEF", buf, sizeof buf), "16 lower-case hex digits");
    refused(ctx, edited(got, "0123456789abcdef", "0123", buf, sizeof buf), "16 lower-case hex digits");
    refused(ctx, edited(got, "\"colors\": [", "\"colors\": [0, ", buf, sizeof buf), "the array is too long");
    refused(ctx, edited(got, "\"colors\": [1, ", "\"colors\": [", buf, sizeof buf), "the array is too short");
    refused(ctx, edited(got, "\"yflip\": 0}", "\"yflip\": 0} {}", buf, sizeof buf), "text follows the object");
    refused(ctx, edited(got, "\"yflip\": 0}", "\"yflip\": 0", buf, sizeof buf), "',' or '}' was expected");
}

/* ---- prewarm ----------------------------------------------------------------------------- */

static void prewarm(agal_context *ctx)
{
    pair p;
    CHECK(upload(ctx, "mov vt0, va0\nadd vt0.xyz, vt0.xyz, va1.xyz\nmov op, vt0\nmov v0, va3.x\n",
                 "tex ft0, v0, fs2 <cube,linear,clamp,dxt5>\nmov oc, ft0\nmov oc1, ft0\nmov fd.x, ft0\n", 2,
                 AGAL_TARGET_SPIRV, &p),
          "the prewarm pair uploads");
    agal_pipeline_prewarm w;
    agal_pipeline_key k;
    agal_pipeline_prewarm_of(&p.r, &w, &k);
    CHECK(w.attributes == 0xb, "va0, va1, va3: %x", w.attributes);
    CHECK(w.attribute_components[0] == 4 && w.attribute_components[1] == 3 && w.attribute_components[3] == 1,
          "%u %u %u", w.attribute_components[0], w.attribute_components[1], w.attribute_components[3]);
    CHECK(w.samplers == 4 && w.sampler_dim[2] == AGAL_DIM_CUBE && w.sampler_format[2] == AGAL_FMT_DXT5);
    CHECK(w.writes_depth && w.color_outputs == 2, "fd, oc0 and oc1: %d %u", w.writes_depth, w.color_outputs);
    /* The likely key is the key of the draw it predicts. */
    agal_context3d_state s;
    agal_context3d_state_init(&s, AGAL_C3D_STANDARD);
    s.depth_and_stencil = true;
    s.streams[0] = (agal_draw_stream){true, 0, AGAL_VERTEX_FLOAT_4, 4, 3, 0};
    s.streams[1] = (agal_draw_stream){true, 0, AGAL_VERTEX_FLOAT_3, 3, 3, 0};
    s.streams[3] = (agal_draw_stream){true, 0, AGAL_VERTEX_FLOAT_1, 1, 3, 0};
    agal_pipeline_key d;
    agal_pipeline_key_make(&p.r, &s, &d);
    CHECK(agal_pipeline_key_equal(&k, &d), "the likely key is the first draw's");
    agal_pipeline_prewarm_of(&p.r, &w, NULL); /* no key asked for */
    CHECK(w.attributes == 0xb);
}

int main(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    pair p, other;
    CHECK(upload(ctx, vertex_text, fragment_text, 1, AGAL_TARGET_SPIRV, &p), "the pair uploads");
    CHECK(upload(ctx, vertex_text, "tex ft0, v0, fs1 <2d,linear,repeat,mipnone>\nadd oc, ft0, fc0\n", 1,
                 AGAL_TARGET_SPIRV, &other),
          "the other pair uploads");
    if (!failures) {
        program_id(ctx, &p);
        key_hash_spreads(&p);
        key_fields(&p);
        key_clip_control(ctx, &p);
        baked(&p, &other);
        json(ctx, &p);
        prewarm(ctx);
    }
    agal_context_free(ctx);
    printf("pipeline: %d failures\n", failures);
    return failures != 0;
}
