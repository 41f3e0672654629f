/* test_context3d.c: Context3D's draw-time checks of the streams and the textures
 * (agal_check_draw_streams, agal_check_draw_textures): each error alone with Flash's
 * whole line, and their order. agalrun replay's error cases (tests/gpu/
 * replay_errors.json) run through the same calls on real draws. */
#include "check.h"

#include "agal/agal.h"
#include "agal/interp.h"
#include "agal/stage3d.h"
#include "agal/text.h"

#include <string.h>

static const agal_program *program(agal_context *ctx, const char *text, agal_stage stage)
{
    const uint8_t *bytes;
    size_t size;
    const agal_program *p = NULL;
    if (agal_assemble(ctx, text, strlen(text), stage, 1, 0, &bytes, &size) != AGAL_OK ||
        agal_decode(ctx, bytes, size, NULL, &p) != AGAL_OK)
        return NULL;
    return p;
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

int main(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    streams(ctx);
    textures(ctx);
    agal_context_free(ctx);
    return failures != 0;
}
