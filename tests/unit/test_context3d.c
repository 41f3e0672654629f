/* test_context3d.c: Context3D's checks: the draw's streams and textures
 * (agal_check_draw_streams, agal_check_draw_textures), each error alone with Flash's
 * whole line, and their order; the whole draw (agal_check_draw), present, the index
 * arguments and setRenderToTexture, each check alone. agalrun replay's error cases (tests/gpu/
 * replay_errors.json) run through the same calls on real draws. */
#include "check.h"

#include "agal/agal.h"
#include "agal/interp.h"
#include "agal/stage3d.h"
#include "agal/text.h"

#include <string.h>

static const agal_program *program_of(agal_context *ctx, const char *text, agal_stage stage, uint32_t version)
{
    const uint8_t *bytes;
    size_t size;
    const agal_program *p = NULL;
    if (agal_assemble(ctx, text, strlen(text), stage, version, 0, &bytes, &size) != AGAL_OK ||
        agal_decode(ctx, bytes, size, NULL, &p) != AGAL_OK)
        return NULL;
    return p;
}

static const agal_program *program(agal_context *ctx, const char *text, agal_stage stage)
{
    return program_of(ctx, text, stage, 1);
}

static void expect(int got, const agal_flash_error *e, const char *want, const char *what)
{
    char line[512] = "no error";
    if (got) agal_flash_line(e, line, sizeof line);
    CHECK(want ? got == e->id && !strcmp(line, want) : got == 0, "%s: %s\n  want %s", what, line, want ? want : "none");
}

static void streams(agal_context *ctx)
{
    /* m44 reads va0..va3 as its rows; va4 is read too */
    const agal_program *vp = program(ctx, "m44 vt0, va4, va0\nmov op, vt0\n", AGAL_VERTEX);
    CHECK(vp != NULL);
    if (!vp) return;
    agal_draw_stream s[AGAL_DRAW_STREAMS];
    memset(s, 0, sizeof s);
    for (int i = 0; i < 5; i++) s[i] = (agal_draw_stream){true, 0, AGAL_VERTEX_FLOAT_4, 4, 4, 0};
    agal_flash_error e;
    expect(agal_check_draw_streams(vp, s, 6, 3, 1, &e), &e, NULL, "every stream read is set");
    s[2].set = false;
    expect(agal_check_draw_streams(vp, s, 6, 3, 1, &e), &e,
           "Error: Error #3611: Stream 2 is read by the current vertex program but not set.", "a row not set");
    s[2].set = true;
    s[6] = s[0];
    expect(agal_check_draw_streams(vp, s, 6, 3, 1, &e), &e,
           "Error: Error #3607: Stream 6 is set but not used by the current vertex program.", "set, not read");
    s[6].set = false;
    s[1].offset = 1; /* float4 at word 1 of a 4-word vertex */
    CHECK(agal_check_draw_streams(vp, s, 6, 3, 1, &e) == 3610, "%d", e.id);
    s[1].offset = 0;
    CHECK(agal_check_draw_streams(vp, s, 6, 4, 1, &e) == 3609 && !strcmp(e.args[0], "0"), "index 4 of 4 vertices");
    CHECK(agal_check_draw_streams(vp, s, 0, 99, 1, &e) == 0, "no index read when nothing is drawn");
    s[0].instances_per_element = 1;
    CHECK(agal_check_draw_streams(vp, s, 6, 3, 1, &e) == 3792, "stream 0 per instance");
    s[0].instances_per_element = 0, s[4].instances_per_element = 2; /* 4 elements x 2: 8 instances */
    CHECK(agal_check_draw_streams(vp, s, 6, 3, 8, &e) == 0 && agal_check_draw_streams(vp, s, 6, 3, 9, &e) == 3785,
          "instances past the buffer");
    /* Order: stream by stream, each stream's checks in turn. */
    s[4].instances_per_element = 0;
    s[1].set = false, s[3].offset = 9, s[7] = s[0];
    CHECK(agal_check_draw_streams(vp, s, 6, 3, 1, &e) == 3611 && !strcmp(e.args[0], "1"), "the first stream first");
}

static void textures(agal_context *ctx)
{
    const agal_program *fp = program(
        ctx, "tex ft0, v0, fs1 <2d,linear,miplinear,repeat>\ntex ft1, v0, fs3 <cube,clamp,nearest>\nadd oc, ft0, ft1\n",
        AGAL_FRAGMENT);
    CHECK(fp != NULL);
    if (!fp) return;
    agal_sampler_slots slots;
    agal_slots_init(&slots);
    agal_slots_set_program(&slots, fp);
    int a, b;
    agal_draw_texture t[16];
    memset(t, 0, sizeof t);
    t[1] = (agal_draw_texture){&a, AGAL_TEXTURE_KIND_2D, AGAL_TEXTURE_BGRA, false, true, true};
    t[3] = (agal_draw_texture){&b, AGAL_TEXTURE_KIND_CUBE, AGAL_TEXTURE_BGRA, false, true, false};
    agal_sampler resolved[16];
    agal_flash_error e;
    expect(agal_check_draw_textures(fp, &slots, t, resolved, &e), &e, NULL, "both sampled textures set");
    CHECK(resolved[1].wrap == AGAL_WRAP_REPEAT && resolved[3].dim == AGAL_DIM_CUBE, "the resolved states");
    t[5] = t[1];
    expect(agal_check_draw_textures(fp, &slots, t, NULL, &e), &e,
           "Error: Error #3697: A texture is bound on sampler 5 but not used by the fragment program.",
           "set, not used");
    t[5].object = NULL;
    t[1].has_all_levels = false;
    CHECK(agal_check_draw_textures(fp, &slots, t, NULL, &e) == 3700, "miplinear needs every level");
    t[1].has_all_levels = true, t[1].render_target = true;
    CHECK(agal_check_draw_textures(fp, &slots, t, NULL, &e) == 3604 && !strcmp(e.args[0], "1"), "a render target");
    t[1].render_target = false, t[1].kind = AGAL_TEXTURE_KIND_CUBE;
    CHECK(agal_check_draw_textures(fp, &slots, t, NULL, &e) == 3606, "a cube texture on a 2d sampler");
    t[1].kind = AGAL_TEXTURE_KIND_2D, t[1].format = AGAL_TEXTURE_COMPRESSED;
    CHECK(agal_check_draw_textures(fp, &slots, t, NULL, &e) == 3763, "dxt1 against the token's rgba");
    t[1].format = AGAL_TEXTURE_BGRA, t[1].kind = AGAL_TEXTURE_KIND_RECTANGLE;
    CHECK(agal_check_draw_textures(fp, &slots, t, NULL, &e) == 3753, "a rectangle texture repeating");
    agal_slots_set_state(&slots, 1, (agal_sampler_state){AGAL_WRAP_CLAMP, AGAL_FILTER_LINEAR, AGAL_MIP_LINEAR});
    CHECK(agal_check_draw_textures(fp, &slots, t, NULL, &e) == 3755, "a rectangle texture mipmapped");
    t[1].kind = AGAL_TEXTURE_KIND_2D, t[1].object = NULL;
    CHECK(agal_check_draw_textures(fp, &slots, t, NULL, &e) == 3663 && !strcmp(e.args[0], "1"), "none set");
    /* One texture on two samplers with two states: 3695 after each sampler's own checks. */
    t[1].object = &b, t[1].kind = AGAL_TEXTURE_KIND_CUBE;
    const agal_program *two =
        program(ctx, "tex ft0, v0, fs1 <cube,clamp,linear>\ntex ft1, v0, fs3 <cube,clamp,nearest>\nadd oc, ft0, ft1\n",
                AGAL_FRAGMENT);
    agal_slots_init(&slots);
    agal_slots_set_program(&slots, two);
    t[1].has_all_levels = true;
    expect(agal_check_draw_textures(two, &slots, t, NULL, &e), &e,
           "Error: Error #3695: A texture can only be bound to multiple samplers if the samplers also have the exact "
           "same properties. Mismatch at samplers 1 and 3.",
           "one texture, two states");
}

/* A state that draws: standard profile, a configured and cleared back buffer, one
 * stream, a pair writing oc0. */
static void drawable(agal_context3d_state *s, const agal_program *vp, const agal_program *fp,
                     const agal_sampler_slots *slots)
{
    memset(s, 0, sizeof *s);
    s->profile = AGAL_C3D_STANDARD;
    s->configured = s->cleared = true;
    s->width = s->height = 64;
    s->vertex = vp, s->fragment = fp, s->slots = slots;
    s->streams[0] = (agal_draw_stream){true, 0, AGAL_VERTEX_FLOAT_4, 4, 3, 0};
}

/* agal_check_draw: each check alone, as the state or the call breaks it. */
static void whole_draw(agal_context *ctx)
{
    const agal_program *vp = program(ctx, "mov op, va0\n", AGAL_VERTEX);
    const agal_program *fp = program(ctx, "mov oc, fc0\n", AGAL_FRAGMENT);
    const agal_program *depth = program_of(ctx, "mov oc, fc0\nmov fd.x, fc0\n", AGAL_FRAGMENT, 2);
    CHECK(vp && fp && depth);
    if (!vp || !fp || !depth) return;
    agal_sampler_slots slots;
    agal_slots_init(&slots);
    const uint16_t idx[6] = {0, 1, 2, 2, 1, 0};
    agal_draw_call call = {idx, 6, 0, -1, 1};
    agal_draw_plan plan;
    agal_flash_error e;
    agal_context3d_state s;
    drawable(&s, vp, fp, &slots);
    CHECK(agal_check_draw(&s, &call, &plan, &e) == 0 && plan.first == 0 && plan.count == 6 && plan.instances == 1,
          "a whole draw: %d", e.id);
    s.configured = false;
    CHECK(agal_check_draw(&s, &call, &plan, &e) == 3698, "not configured: %d", e.id);
    drawable(&s, vp, fp, &slots), s.cleared = false;
    expect(agal_check_draw(&s, &call, &plan, &e), &e,
           "Error: Error #3692: All buffers need to be cleared every frame before drawing.", "not cleared");
    drawable(&s, NULL, NULL, &slots);
    CHECK(agal_check_draw(&s, &call, &plan, &e) == 3600, "no program: %d", e.id);
    drawable(&s, vp, fp, &slots), call.first = -1;
    CHECK(agal_check_draw(&s, &call, &plan, &e) == 3602 && !strcmp(e.args[1], "-1"), "first -1: %d", e.id);
    call.first = 3, call.triangles = 2;
    CHECK(agal_check_draw(&s, &call, &plan, &e) == 3603 && !strcmp(e.args[2], "6"), "past the buffer: %d", e.id);
    call.first = 3, call.triangles = -1;
    CHECK(agal_check_draw(&s, &call, &plan, &e) == 0 && plan.first == 3 && plan.count == 3, "-1 from 3: %d", e.id);
    call.first = 0;
    int tex;
    s.targets[1] = (agal_draw_target){&tex, 64, 64, 0, false, 0};
    CHECK(agal_check_draw(&s, &call, &plan, &e) == 3728, "slot 1 without slot 0: %d", e.id);
    s.targets[0] = (agal_draw_target){&tex, 32, 32, 0, false, 0};
    CHECK(agal_check_draw(&s, &call, &plan, &e) == 3729, "two sizes: %d", e.id);
    s.targets[0].width = s.targets[0].height = 64;
    CHECK(agal_check_draw(&s, &call, &plan, &e) == 3730, "one surface twice: %d", e.id);
    s.targets[1].surface = 1;
    CHECK(agal_check_draw(&s, &call, &plan, &e) == 3774, "two targets, one output: %d", e.id);
    memset(s.targets, 0, sizeof s.targets);
    s.fragment = depth;
    CHECK(agal_check_draw(&s, &call, &plan, &e) == 3776, "fd without a depth buffer: %d", e.id);
    s.depth_and_stencil = true;
    CHECK(agal_check_draw(&s, &call, &plan, &e) == 0, "fd with one: %d", e.id);
    s.scissor = true;
    const double outside[4] = {100, 100, 10, 10}, inside[4] = {8.4, 8.6, 10, 10};
    memcpy(s.scissor_rect, outside, sizeof outside);
    CHECK(agal_check_draw(&s, &call, &plan, &e) == 3706, "scissor outside: %d", e.id);
    memcpy(s.scissor_rect, inside, sizeof inside);
    CHECK(agal_check_draw(&s, &call, &plan, &e) == 0 && plan.scissor && plan.scissor_rect.x == 8 &&
              plan.scissor_rect.y == 9 && plan.scissor_rect.width == 10,
          "scissor inside: %d", e.id);
    s.draws = 32768;
    CHECK(agal_check_draw(&s, &call, &plan, &e) == 3690, "32769th draw: %d", e.id);
}

/* present, the index arguments, setRenderToTexture. */
static void other_calls(void)
{
    agal_context3d_state s;
    agal_flash_error e;
    drawable(&s, NULL, NULL, NULL);
    CHECK(agal_check_present(&s, &e) == 0);
    s.cleared = false;
    CHECK(agal_check_present(&s, &e) == 3692, "present twice: %d", e.id);
    s.configured = false;
    CHECK(agal_check_present(&s, &e) == 3698, "present unconfigured: %d", e.id);
    s.profile = AGAL_C3D_BASELINE;
    CHECK(agal_check_stream_index(&s, 7, &e) == 0 && agal_check_stream_index(&s, 8, &e) == 2006 &&
              agal_check_stream_index(&s, -1, &e) == 2006,
          "baseline: 8 streams");
    s.profile = AGAL_C3D_STANDARD_EXTENDED;
    CHECK(agal_check_stream_index(&s, 15, &e) == 0 && agal_check_sampler_index(&s, 16, &e) == 2006,
          "standardExtended: 16 streams, 16 samplers");
    int obj;
    agal_draw_texture cube = {&obj, AGAL_TEXTURE_KIND_CUBE, AGAL_TEXTURE_BGRA, false, true, true};
    agal_draw_texture flat = {&obj, AGAL_TEXTURE_KIND_2D, AGAL_TEXTURE_COMPRESSED, false, true, true};
    CHECK(agal_check_render_to_texture(&s, &cube, 5, 3, &e) == 0, "cube face 5 at output 3: %d", e.id);
    CHECK(agal_check_render_to_texture(&s, &cube, 6, 0, &e) == 3772, "cube face 6: %d", e.id);
    CHECK(agal_check_render_to_texture(&s, NULL, 0, 4, &e) == 3770, "output 4: %d", e.id);
    CHECK(agal_check_render_to_texture(&s, &flat, 1, 0, &e) == 3771, "2D surface 1: %d", e.id);
    CHECK(agal_check_render_to_texture(&s, &flat, 0, 0, &e) == 3746, "compressed: %d", e.id);
    flat.kind = AGAL_TEXTURE_KIND_RECTANGLE;
    CHECK(agal_check_render_to_texture(&s, &flat, 1, 0, &e) == 3773, "rectangle surface 1: %d", e.id);
    s.profile = AGAL_C3D_STANDARD_CONSTRAINED;
    CHECK(agal_check_render_to_texture(&s, NULL, 0, 1, &e) == 3760, "output 1, standardConstrained: %d", e.id);
}

int main(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    streams(ctx);
    textures(ctx);
    whole_draw(ctx);
    other_calls();
    agal_context_free(ctx);
    return failures != 0;
}
