/* pipeline_keys.c: the native side of the web package's pipeline keys
 * (tests/web/test_pipeline.mjs): the keys of one pair (bind_page.html's, uploaded
 * for WGSL) under the states test_pipeline.mjs sets in Context3D's names, each set
 * here on agal_context3d_state as an emulator does. Writes a JSON array to stdout:
 * {"name", "key", "webgpu", "hash", "webgpuHash"} a state, the keys as
 * agal_pipeline_key_json writes them. */
#include "agal/agal.h"
#include "agal/stage3d.h"
#include "agal/text.h"

#include <stdio.h>
#include <string.h>

static const char *vertex_text = "m44 op, va0, vc0\nmov v0, va1\n";
static const char *fragment_text = "tex ft0, v0, fs1 <2d, nearest, repeat, mipnone>\nmul oc, ft0, fc0\n";

/* A new Context3D after configureBackBuffer(..., antiAlias 0, enableDepthAndStencil
 * true) and setProgram of the pair. */
static void fresh(const agal_upload_result *r, agal_sampler_slots *slots, agal_context3d_state *s)
{
    agal_context3d_state_init(s, AGAL_C3D_STANDARD_EXTENDED);
    s->depth_and_stencil = true;
    agal_slots_init(slots);
    agal_slots_set_program(slots, r->fragment);
    s->slots = slots;
}

static void stream(agal_context3d_state *s, unsigned n, agal_vertex_format f, int32_t offset, uint32_t stride,
                   uint32_t divisor)
{
    s->streams[n] = (agal_draw_stream){true, offset, f, stride, 3, divisor};
}

/* Each state as test_pipeline.mjs's of the same name. */
static void set_state(int i, agal_context3d_state *s, agal_sampler_slots *slots)
{
    agal_render_state *rs = &s->render;
    switch (i) {
    case 0: /* "new Context3D" */
        stream(s, 0, AGAL_VERTEX_FLOAT_4, 0, 4, 0), stream(s, 1, AGAL_VERTEX_FLOAT_4, 0, 4, 0);
        break;
    case 1: /* "blend, cull, colour mask, interleaved" */
        rs->blend_src = AGAL_BLEND_SOURCE_ALPHA, rs->blend_dst = AGAL_BLEND_ONE_MINUS_SOURCE_ALPHA;
        rs->cull = AGAL_FACE_BACK;
        rs->color_mask[3] = false;
        stream(s, 0, AGAL_VERTEX_FLOAT_3, 0, 6, 0), stream(s, 1, AGAL_VERTEX_FLOAT_2, 3, 6, 0);
        break;
    case 2: /* "depth and stencil, antialiased" */
        rs->depth_mask = false, rs->depth_compare = AGAL_COMPARE_GREATER;
        rs->stencil_face = AGAL_FACE_FRONT, rs->stencil_compare = AGAL_COMPARE_EQUAL;
        rs->stencil_both_pass = AGAL_STENCIL_INCREMENT_WRAP, rs->stencil_depth_fail = AGAL_STENCIL_DECREMENT_SATURATE;
        rs->stencil_fail = AGAL_STENCIL_INVERT;
        rs->stencil_ref = 7, rs->stencil_read = 15, rs->stencil_write = 240;
        s->anti_alias = 4;
        stream(s, 0, AGAL_VERTEX_FLOAT_4, 0, 4, 0), stream(s, 1, AGAL_VERTEX_FLOAT_4, 0, 4, 0);
        break;
    case 3: /* "sampler state, instanced bytes" */
        agal_slots_set_state(slots, 1, (agal_sampler_state){AGAL_WRAP_CLAMP, AGAL_FILTER_LINEAR, AGAL_MIP_LINEAR});
        stream(s, 0, AGAL_VERTEX_FLOAT_4, 0, 4, 0), stream(s, 1, AGAL_VERTEX_BYTES_4, 0, 1, 1);
        break;
    case 4: /* "render to texture" */
        rs->blend_src = rs->blend_dst = AGAL_BLEND_ONE;
        s->targets[0] = (agal_draw_target){s, 64, 64, 0, true, 2};
        s->targets[1] = (agal_draw_target){slots, 64, 64, 0, true, 2};
        s->target_formats[0] = AGAL_TEXTURE_RGBA_HALF_FLOAT, s->target_formats[1] = AGAL_TEXTURE_BGRA;
        stream(s, 0, AGAL_VERTEX_FLOAT_4, 0, 4, 0), stream(s, 1, AGAL_VERTEX_FLOAT_4, 0, 4, 0);
        break;
    default: /* "no depth buffer" */
        s->depth_and_stencil = false;
        rs->depth_compare = AGAL_COMPARE_NEVER;
        stream(s, 0, AGAL_VERTEX_FLOAT_4, 0, 4, 0), stream(s, 1, AGAL_VERTEX_FLOAT_4, 2, 8, 0);
        break;
    }
}

static const char *names[] = {"new Context3D",
                              "blend, cull, colour mask, interleaved",
                              "depth and stencil, antialiased",
                              "sampler state, instanced bytes",
                              "render to texture",
                              "no depth buffer"};

/* The key JSON as a JSON string: it holds quotes, no backslash or control character. */
static void quoted(const char *text)
{
    putchar('"');
    for (const char *c = text; *c; c++) *c == '"' ? fputs("\\\"", stdout) : putchar(*c);
    putchar('"');
}

int main(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    const uint8_t *vb, *fb;
    size_t vn, fn;
    agal_upload_options o = agal_upload_options_init();
    o.target = AGAL_TARGET_WGSL;
    agal_upload_result r = agal_upload_result_init();
    if (!ctx || agal_assemble(ctx, vertex_text, strlen(vertex_text), AGAL_VERTEX, 1, 0, &vb, &vn) != AGAL_OK ||
        agal_assemble(ctx, fragment_text, strlen(fragment_text), AGAL_FRAGMENT, 1, 0, &fb, &fn) != AGAL_OK ||
        agal_upload(ctx, vb, vn, fb, fn, &o, &r) != AGAL_OK) {
        fprintf(stderr, "pipeline_keys: the pair does not upload\n");
        agal_context_free(ctx);
        return 1;
    }
    printf("[");
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++) {
        agal_sampler_slots slots;
        agal_context3d_state s;
        fresh(&r, &slots, &s);
        set_state(i, &s, &slots);
        agal_pipeline_key full, baked;
        agal_pipeline_key_make(&r, &s, &full);
        agal_pipeline_key_baked(&full, AGAL_DYNAMIC_WEBGPU, &baked);
        printf("%s{\"name\": \"%s\", \"key\": ", i ? ",\n " : "", names[i]);
        quoted(agal_pipeline_key_json(ctx, &full));
        printf(", \"webgpu\": ");
        quoted(agal_pipeline_key_json(ctx, &baked));
        printf(", \"hash\": \"%016llx\", \"webgpuHash\": \"%016llx\"}",
               (unsigned long long)agal_pipeline_key_hash(&full), (unsigned long long)agal_pipeline_key_hash(&baked));
    }
    printf("]\n");
    agal_context_free(ctx);
    return 0;
}
