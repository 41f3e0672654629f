/* test_glsl.c: the GLSL 330 emitter.
 *
 * Goldens: tiny programs whose expected text is worked out by hand from the spec's
 * meaning and the emitter's documented shape (glsl.c). Then properties of the text
 * (AGAL names, token comments, -g0, clip modes, the binding model), a failing
 * allocator, and glslang (in process, GLSL 330 for OpenGL) on every corpus program
 * (shaders/, argv[1]) and on random program pairs from tools/common/gen.c, each pair also
 * linked so the varyings and uniforms of both stages agree, and on mutated random
 * programs a lenient decoder accepts.
 *
 * usage: test_glsl SHADER_DIR [NPAIRS] */
#include "agal/agal.h"
#include "agal/text.h"
#include "gen.h"
#include "emit.h"
#include "textwalk/textwalk.h"
#include "glslang_check.h"

#include <dirent.h>
#include <math.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tokbuild.h"
#include "toolio.h"
#include "translated.h"

/* ---- helpers ---------------------------------------------------------------- */

static const agal_program *assemble(agal_context *ctx, const char *src, agal_stage stage, uint32_t version,
                                    bool lenient)
{
    const uint8_t *bytes = NULL;
    size_t size = 0;
    const agal_program *prog = NULL;
    agal_decode_options dopt = {.size = sizeof(agal_decode_options), .lenient = lenient};
    if (agal_assemble(ctx, src, strlen(src), stage, version, AGAL_ASM_STRICT, &bytes, &size) != AGAL_OK ||
        agal_decode(ctx, bytes, size, &dopt, &prog) != AGAL_OK) {
        char buf[512];
        for (size_t i = 0; i < agal_diag_count(ctx); i++) {
            agal_diag_format(agal_diag_get(ctx, i), "asm", buf, sizeof buf);
            fprintf(stderr, "%s\n", buf);
        }
        return NULL;
    }
    return prog;
}

static const char *glsl(agal_context *ctx, const agal_program *prog, const agal_translate_options *opt)
{
    const char *text = NULL;
    size_t len = 0;
    if (!prog || tool_translate_text(ctx, prog, AGAL_TARGET_GLSL, opt, &text, &len) != AGAL_OK) return NULL;
    if (strlen(text) != len) return NULL;
    return text;
}

static bool same_text(const char *got, const char *want, const char *what)
{
    if (got && strcmp(got, want) == 0) return true;
    fprintf(stderr, "%s: got\n%s\n---- want\n%s\n", what, got ? got : "(null)", want);
    return false;
}

static bool compiles(agal_stage stage, const char *text, const char *what)
{
    char log[2048] = "";
    if (text && glslang_check_gl(stage, text, log, sizeof log)) return true;
    fprintf(stderr, "%s: glslang rejects:\n%s\n%s\n", what, log, text ? text : "(no text)");
    return false;
}

/* ---- goldens ---------------------------------------------------------------- */

static void test_golden_vertex(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    const agal_program *p = assemble(ctx,
                                     "m44 op, va0, vc0\n"
                                     "mul vt0.xy, va1.yx, vc4.z\n"
                                     "mov v0, vt0.xyxy\n",
                                     AGAL_VERTEX, 1, false);
    /* m44: one dot per row vc0..vc3; mul.xy: positional, component c of D from
     * component c of the swizzled sources (va1.yxxx, vc4.zzzz: one component, so a
     * float operand); op -> gl_Position
     * with GL's z = 2z - w and the RTT flip. */
    static const char want[] = "#version 330 core\n"
                               "// agal2spv: AGAL 1 vertex program, 3 tokens\n"
                               "layout(std140) uniform agal_vc_block { vec4 vc[128]; };\n"
                               "uniform float agal_yflip = 1.0;\n"
                               "layout(location = 0) in vec4 va0;\n"
                               "layout(location = 1) in vec4 va1;\n"
                               "out vec4 v0;\n"
                               "\n"
                               "void main()\n"
                               "{\n"
                               "    vec4 vt0 = vec4(0.0);\n"
                               "    vec4 op = vec4(0.0);\n"
                               "    // 1: m44 op, va0, vc0\n"
                               "    op = vec4(dot(va0, vc[0]), dot(va0, vc[1]), dot(va0, vc[2]), dot(va0, vc[3]));\n"
                               "    // 2: mul vt0.xy, va1.yx, vc4.z\n"
                               "    vt0.xy = va1.yx * vc[4].z;\n"
                               "    // 3: mov v0, vt0.xyxy\n"
                               "    v0 = vt0.xyxy;\n"
                               "    gl_Position = vec4(op.x, op.y * agal_yflip, 2.0 * op.z - op.w, op.w);\n"
                               "}\n";
    const char *got = glsl(ctx, p, NULL);
    CHECK(same_text(got, want, "golden vertex"));
    CHECK(compiles(AGAL_VERTEX, got, "golden vertex"));
    agal_context_free(ctx);
}

static void test_golden_fragment(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    const agal_program *p = assemble(ctx,
                                     "tex ft0, v0, fs0 <2d,linear,mipnone,clamp,0.25>\n"
                                     "ine ft0.x, fc0.x\n"
                                     "sne ft1, ft0, fc1\n"
                                     "els\n"
                                     "mov ft1, fc2\n"
                                     "eif\n"
                                     "kil ft1.y\n"
                                     "mov oc, ft1\n",
                                     AGAL_FRAGMENT, 2, false);
    /* bias 0.25 (encoded as 2/8); ine and sne are true for NaN: !(a == b), not(equal);
     * both branches write ft1, so it is simply the register after the block. */
    static const char want[] = "#version 330 core\n"
                               "// agal2spv: AGAL 2 fragment program, 8 tokens\n"
                               "layout(std140) uniform agal_fc_block { vec4 fc[64]; };\n"
                               "uniform sampler2D fs0;\n"
                               "in vec4 v0;\n"
                               "layout(location = 0) out vec4 oc0;\n"
                               "\n"
                               "void main()\n"
                               "{\n"
                               "    vec4 ft0 = vec4(0.0);\n"
                               "    vec4 ft1 = vec4(0.0);\n"
                               "    // 1: tex ft0, v0, fs0 <2d, linear, mipnone, clamp, 0.25>\n"
                               "    ft0 = texture(fs0, v0.xy, 0.25);\n"
                               "    if (!(ft0.x == fc[0].x)) { // 2: ine ft0.x, fc0.x\n"
                               "        // 3: sne ft1, ft0, fc1\n"
                               "        ft1 = vec4(not(equal(ft0, fc[1])));\n"
                               "    } else { // 4: els\n"
                               "        // 5: mov ft1, fc2\n"
                               "        ft1 = fc[2];\n"
                               "    } // 6: eif\n"
                               "    // 7: kil ft1.y\n"
                               "    if (ft1.y < 0.0) discard;\n"
                               "    // 8: mov oc0, ft1\n"
                               "    oc0 = ft1;\n"
                               "}\n";
    const char *got = glsl(ctx, p, NULL);
    CHECK(same_text(got, want, "golden fragment"));
    CHECK(compiles(AGAL_FRAGMENT, got, "golden fragment"));
    agal_context_free(ctx);
}

static void test_golden_indirect_g0_clip_none(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    const agal_program *p = assemble(ctx, "mov vt0, va0\nmov op, vc[vt0.w+2]\n", AGAL_VERTEX, 2, false);
    /* -g0: no comments at all; --clip none: op as written (y still * agal_yflip);
     * relative read bounded by AGAL2's 250 vc. */
    static const char want[] =
        "#version 330 core\n"
        "layout(std140) uniform agal_vc_block { vec4 vc[250]; };\n"
        "uniform float agal_yflip = 1.0;\n"
        "layout(location = 0) in vec4 va0;\n"
        "\n"
        "vec4 agal_vc(int a) { int c = clamp(a, 0, 249); return mix(vec4(0.0), vc[c], bvec4(c == a)); }\n"
        "\n"
        "void main()\n"
        "{\n"
        "    vec4 vt0 = vec4(0.0);\n"
        "    vec4 op = vec4(0.0);\n"
        "    vt0 = va0;\n"
        "    op = agal_vc(int(vt0.w) + 2);\n"
        "    gl_Position = vec4(op.x, op.y * agal_yflip, op.z, op.w);\n"
        "}\n";
    agal_translate_options opt = {.size = sizeof(agal_translate_options), .clip = AGAL_CLIP_NONE, .strip_names = true};
    const char *got = glsl(ctx, p, &opt);
    CHECK(same_text(got, want, "golden indirect -g0 --clip none"));
    CHECK(compiles(AGAL_VERTEX, got, "golden indirect"));
    agal_context_free(ctx);
}

/* ---- properties of the text ------------------------------------------------- */

static void test_names_and_comments(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    const agal_program *p = assemble(ctx,
                                     "mov ft3, v3\n"
                                     "ddy ft4, v3\n"
                                     "add ft3.zw, ft3.zw, fc5\n"
                                     "m33 ft5.xyz, ft3, fc6\n"
                                     "mov ft5.w, fc0.x\n"
                                     "mov fd.x, ft4.y\n"
                                     "add oc1, ft5, ft4\n"
                                     "mov oc, ft3\n",
                                     AGAL_FRAGMENT, 2, false);
    const char *t = glsl(ctx, p, NULL);
    CHECK(t != NULL);
    if (t) {
        CHECK(strstr(t, "\n    // 1: mov ft3, v3\n    ft3 = v3;\n") != NULL);
        /* positional: the source swizzle .zw is zwww, so D.z and D.w both get ft3.w
         * (spec: `mov ft1.zw, ft0.zw` copies ft0.w into z and w): a float operand */
        CHECK(strstr(t, "    ft3.zw = ft3.w + fc[5].zw;\n") != NULL);
        CHECK(strstr(t, "ft5.xyz = vec3(dot(ft3.xyz, fc[6].xyz), dot(ft3.xyz, fc[7].xyz), "
                        "dot(ft3.xyz, fc[8].xyz));") != NULL);
        /* Stage3D's ddy is y-down; GL's window y is up (flipped again under RTT). */
        CHECK(strstr(t, "ft4 = dFdy(v3) * -agal_yflip;") != NULL);
        CHECK(strstr(t, "uniform float agal_yflip = 1.0;") != NULL);
        CHECK(strstr(t, "layout(location = 1) out vec4 oc1;") != NULL);
        CHECK(strstr(t, "in vec4 v3;") != NULL);
        CHECK(strstr(t, "gl_FragDepth = fd.x;") != NULL);
        CHECK(strstr(t, "// 6: mov fd.x, ft4.y") != NULL);
        CHECK(compiles(AGAL_FRAGMENT, t, "names"));
    }
    agal_translate_options g0 = {.size = sizeof(agal_translate_options), .strip_names = true};
    const char *s = glsl(ctx, p, &g0);
    CHECK(s && !strstr(s, "//") && !strstr(s, "/*"));
    CHECK(s && strstr(s, "    ft3.zw = ft3.w + fc[5].zw;\n") != NULL);
    agal_context_free(ctx);
}

static void test_clip_and_builtins(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    const agal_program *p =
        assemble(ctx, "add op, va2, iid\nmov v1, vc[iid.x+4]\nmov v2, vc[va2.x+4]\n", AGAL_VERTEX, 3, false);
    agal_translate_options vk = {.size = sizeof(agal_translate_options), .clip = AGAL_CLIP_VULKAN};
    const char *t = glsl(ctx, p, NULL), *v = glsl(ctx, p, &vk);
    CHECK(t && strstr(t, "op = va2 + vec4(float(gl_InstanceID));") != NULL);
    /* iid reads (id, id, id, id); as an index, per-instance constants vc[iid.x+k] */
    CHECK(t && strstr(t, "v1 = agal_vc(int(float(gl_InstanceID)) + 4);") != NULL);
    CHECK(t && strstr(t, "v2 = agal_vc(int(va2.x) + 4);") != NULL);
    CHECK(t && strstr(t, "layout(location = 2) in vec4 va2;") != NULL);
    CHECK(t && strstr(t, "gl_Position = vec4(op.x, op.y * agal_yflip, 2.0 * op.z - op.w, op.w);") != NULL);
    CHECK(v && strstr(v, "gl_Position = vec4(op.x, -op.y * agal_yflip, op.z, op.w);") != NULL);
    CHECK(compiles(AGAL_VERTEX, t, "iid"));
    /* AGAL_CLIP_CONTROL: op as written, and no flip to declare (the clip origin's) */
    agal_translate_options control = {.size = sizeof(agal_translate_options), .clip = AGAL_CLIP_CONTROL};
    const char *c = glsl(ctx, p, &control);
    CHECK(c && strstr(c, "    gl_Position = op;\n") != NULL && !strstr(c, AGAL_GLSL_YFLIP));
    CHECK(compiles(AGAL_VERTEX, c, "clip control"));
    /* ddy's sign follows y: GL's window y is up unless the shader negates y. */
    p = assemble(ctx, "ddy oc, v0\n", AGAL_FRAGMENT, 2, false);
    agal_translate_options none = {.size = sizeof(agal_translate_options), .clip = AGAL_CLIP_NONE};
    const char *d0 = glsl(ctx, p, NULL), *dn = glsl(ctx, p, &none), *dv = glsl(ctx, p, &vk);
    const char *dc = glsl(ctx, p, &control);
    CHECK(d0 && strstr(d0, "oc0 = dFdy(v0) * -agal_yflip;") != NULL);
    CHECK(dn && strstr(dn, "oc0 = dFdy(v0) * -agal_yflip;") != NULL);
    CHECK(dc && strstr(dc, "oc0 = dFdy(v0) * -agal_yflip;") != NULL); /* the origin turns the rows over */
    CHECK(dv && strstr(dv, "oc0 = dFdy(v0) * agal_yflip;") != NULL);
    agal_context_free(ctx);
}

/* Lenient: a temporary never written reads 0; the cube sampler reads .xyz; ted
 * takes A.w as its LOD. */
static void test_lenient_and_textures(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    const agal_program *p = assemble(ctx,
                                     "mov ft0.x, fc0.y\n"
                                     "tex ft1, v0, fs2 <cube,linear,mipnone,clamp>\n"
                                     "ted ft2, v1.zyxw, fs0 <2d,linear,miplinear,repeat>\n"
                                     "add ft1, ft1, ft2\n"
                                     "add ft1, ft1, ft0\n"
                                     "mul oc, ft1, ft7\n",
                                     AGAL_FRAGMENT, 2, true);
    const char *t = glsl(ctx, p, NULL);
    CHECK(t && strstr(t, "ft0.x = fc[0].y;") != NULL);
    CHECK(t && strstr(t, "uniform samplerCube fs2;") != NULL && strstr(t, "uniform sampler2D fs0;") != NULL);
    CHECK(t && strstr(t, "ft1 = texture(fs2, v0.xyz);") != NULL);
    CHECK(t && strstr(t, "ft2 = textureLod(fs0, v1.zy, v1.w);") != NULL);
    CHECK(t && strstr(t, "oc0 = ft1 * vec4(0.0);") != NULL); /* ft7 never written */
    CHECK(compiles(AGAL_FRAGMENT, t, "lenient"));
    agal_context_free(ctx);
}

/* One float as agal_text_put_finite writes it, against its general path: %.9g in
 * the C locale with ".0" where that has no point or exponent. */
static bool literal_matches(agal_text *t, float f)
{
    char want[80];
    size_t n = agal_format_number(want, 64, (double)f, 9);
    if (!strpbrk(want, ".e")) memcpy(want + n, ".0", 3);
    t->out.n = 0;
    agal_text_put_finite(t, f);
    const char *got = agal_text_finish(t, NULL);
    bool same = got && !strcmp(got, want);
    CHECK(same, "literal %a: wrote \"%s\", %%.9g gives \"%s\"", (double)f, got ? got : "", want);
    return same;
}

/* The literal's short path (multiples of 1/16 below 1e5) writes what the general one
 * does: every sixteenth below 4096, every 97th up to the limit, the limit's
 * neighbours, both signs, and the floats next to each (the general path's). */
static void test_float_literals(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    agal_text t = {.ctx = ctx, .out = {.ctx = ctx}};
    unsigned bad = 0;
    for (uint32_t q = 0; q <= 1600016 && bad < 5; q += q < 65536 || q >= 1599984 ? 1 : 97) {
        float f = (float)q / 16.0f;
        const float near[] = {f, -f, nextafterf(f, 0.0f), nextafterf(f, INFINITY), -nextafterf(f, INFINITY)};
        for (unsigned k = 0; k < sizeof near / sizeof near[0]; k++) bad += !literal_matches(&t, near[k]);
    }
    const float odd[] = {1e-5f, 0.1f, 1.0f / 3.0f, 123456.5f, 1e9f, 16777216.0f, 3.4e38f, 1.17549435e-38f, 1e-45f};
    for (unsigned k = 0; k < sizeof odd / sizeof odd[0]; k++) literal_matches(&t, odd[k]), literal_matches(&t, -odd[k]);
    agal_context_free(ctx);
}

/* A lenient program keeps a sampler format the syntax has no name for (reserved
 * bits, 3654 in strict mode): its token comment says so instead of indexing the
 * disassembler's name table with it (a fuzzer found the overflow). */
static void test_unnameable_token_comment(void)
{
    static const tok t[] = {
        {0x28, DST(FT, 0, 0xf), SRC(VV, 0, XYZW), SMP(0, 0, 5, 0, 0, 0, 0, 1)}, /* tex, format 5 */
        {0x00, DST(OC, 0, 0xf), SRC(FT, 0, XYZW), 0},                           /* mov oc, ft0 */
    };
    uint8_t buf[7 + 24 * 2];
    size_t size = build_program(buf, AGAL_FRAGMENT, 1, t, 2);
    agal_context *ctx = agal_context_new(NULL, NULL);
    const agal_program *prog = NULL;
    const agal_decode_options strict = agal_decode_options_init(),
                              lenient = {.size = sizeof(agal_decode_options), .lenient = true};
    CHECK(agal_decode(ctx, buf, size, &strict, &prog) == AGAL_ERR_INVALID, "format 5 passed strict decoding");
    CHECK(agal_decode(ctx, buf, size, &lenient, &prog) == AGAL_OK, "lenient decoding refused format 5");
    const char *text = glsl(ctx, prog, NULL);
    CHECK(text && strstr(text, "// 1: tex (cannot be written in assembler syntax: sampler format has no name)"), "%s",
          text ? text : "(no text)");
    CHECK(text && strstr(text, "// 2: mov oc0, ft0"), "%s", text ? text : "(no text)");
    CHECK(compiles(AGAL_FRAGMENT, text, "unnameable token"));
    agal_context_free(ctx);
}

/* A tex in a block with varying coordinates runs before the block (the IR hoists
 * it: implicit LOD needs uniform control flow); the branch then assigns it. */
static void test_golden_hoisted_tex(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    const agal_program *p = assemble(ctx,
                                     "ife v0.x, fc0.x\n"
                                     "tex ft0, v0, fs0 <2d,linear,mipnone,clamp>\n"
                                     "mov ft0.w, fc0.y\n"
                                     "els\n"
                                     "mov ft0, fc1\n"
                                     "eif\n"
                                     "mov oc, ft0\n",
                                     AGAL_FRAGMENT, 2, false);
    const char *got = glsl(ctx, p, NULL);
    /* The temporary's number is the IR value's index; find it, then check the rest. */
    const char *t = got ? strstr(got, "    vec4 t") : NULL;
    unsigned n = 0;
    CHECK(t && sscanf(t, "    vec4 t%u = ", &n) == 1);
    char want[1024];
    snprintf(want, sizeof want,
             "    vec4 ft0 = vec4(0.0);\n"
             "    vec4 t%u = texture(fs0, v0.xy); // 2: tex ft0, v0, fs0 <2d, linear, mipnone, clamp> "
             "(hoisted: implicit LOD needs uniform control flow)\n"
             "    if (v0.x == fc[0].x) { // 1: ife v0.x, fc0.x\n"
             "        // 2: tex ft0, v0, fs0 <2d, linear, mipnone, clamp>\n"
             "        // 3: mov ft0.w, fc0.y\n"
             "        ft0 = vec4(t%u.xyz, fc[0].y);\n"
             "    } else { // 4: els\n"
             "        // 5: mov ft0, fc1\n"
             "        ft0 = fc[1];\n"
             "    } // 6: eif\n"
             "    // 7: mov oc0, ft0\n"
             "    oc0 = ft0;\n"
             "}\n",
             n, n);
    const char *body = got ? strstr(got, "    vec4 ft0") : NULL;
    CHECK(same_text(body, want, "golden hoisted tex"));
    CHECK(compiles(AGAL_FRAGMENT, got, "golden hoisted tex"));
    agal_context_free(ctx);
}

/* With copies folded (the SPIR-V path's IR), a value can outlive its register and a
 * join can take another register's value: the emitter copies into a temporary and
 * moves before the join. */
static const char *glsl_folded(agal_context *ctx, const agal_program *p)
{
    const agal_ir_options fold = {.keep_copies = false};
    agal_ir *ir = NULL;
    const char *text = NULL;
    if (!p || agal_ir_pipeline(ctx, p, &fold, &ir) != AGAL_OK || agal_glsl_emit(ctx, ir, NULL, &text, NULL) != AGAL_OK)
        return NULL;
    return text;
}

static void test_folded_ir(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    /* mov vt1, vt0 folds to vt0's first value, which vt0 loses at token 2. */
    const agal_program *p = assemble(ctx,
                                     "add vt0, va0, vc0\n"
                                     "mov vt1, vt0\n"
                                     "add vt0, va1, vc1\n"
                                     "add op, vt1, vt0\n",
                                     AGAL_VERTEX, 2, false);
    const char *t = glsl_folded(ctx, p);
    unsigned n = 0;
    const char *copy = t ? strstr(t, "    vec4 t") : NULL;
    CHECK(copy && sscanf(copy, "    vec4 t%u = vt0;", &n) == 1);
    char want[512];
    snprintf(want, sizeof want,
             "    // 1: add vt0, va0, vc0\n"
             "    vt0 = va0 + vc[0];\n"
             "    vec4 t%u = vt0;\n"
             "    // 2: mov vt1, vt0\n"
             "    // 3: add vt0, va1, vc1\n"
             "    vt0 = va1 + vc[1];\n"
             "    // 4: add op, vt1, vt0\n"
             "    op = t%u + vt0;\n",
             n, n);
    CHECK(t && strstr(t, want) != NULL);
    if (t && !strstr(t, want)) fprintf(stderr, "folded copy: got\n%s\nwant\n%s\n", t, want);
    CHECK(compiles(AGAL_VERTEX, t, "folded copy"));

    /* The then branch leaves vt1 = vt0's value by a folded mov: a move before the join. */
    p = assemble(ctx,
                 "add vt0, va0, vc0\n"
                 "ife va0.x, vc0.x\n"
                 "mov vt1, vt0\n"
                 "els\n"
                 "add vt1, va1, vc1\n"
                 "eif\n"
                 "add op, vt1, vt0\n",
                 AGAL_VERTEX, 2, false);
    t = glsl_folded(ctx, p);
    static const char want2[] = "    if (va0.x == vc[0].x) { // 2: ife va0.x, vc0.x\n"
                                "        // 3: mov vt1, vt0\n"
                                "        vt1 = vt0;\n"
                                "    } else { // 4: els\n"
                                "        // 5: add vt1, va1, vc1\n"
                                "        vt1 = va1 + vc[1];\n"
                                "    } // 6: eif\n"
                                "    // 7: add op, vt1, vt0\n"
                                "    op = vt1 + vt0;\n";
    CHECK(t && strstr(t, want2) != NULL);
    if (t && !strstr(t, want2)) fprintf(stderr, "folded join: got\n%s\n", t);
    CHECK(compiles(AGAL_VERTEX, t, "folded join"));
    agal_context_free(ctx);
}

/* ---- failing allocator ------------------------------------------------------ */

typedef struct budget {
    long left;
} budget;

static void *failing_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    budget *b = ud;
    (void)osize;
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
    if (b->left-- <= 0) return NULL;
    return realloc(ptr, nsize);
}

static void test_failing_allocator(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    const agal_program *p = assemble(ctx,
                                     "mov vt0, va0\nife vt0.x, vc0.x\nmov vt1, vc[vt0.y+1]\nels\n"
                                     "mov vt1, va0.wzyx\neif\nm44 op, vt1, vc4\nmov v0, vt0\n",
                                     AGAL_VERTEX, 2, false);
    const char *want = glsl(ctx, p, NULL);
    CHECK(want != NULL);
    bool done = false;
    for (long n = 0; n < 10000 && want && !done; n++) {
        budget b = {n};
        agal_context *fc = agal_context_new(failing_alloc, &b);
        if (!fc) continue;
        const char *text = NULL;
        agal_status st = tool_translate_text(fc, p, AGAL_TARGET_GLSL, NULL, &text, NULL);
        if (st == AGAL_OK) {
            CHECK(strcmp(text, want) == 0);
            done = true;
        } else {
            CHECK(st == AGAL_ERR_NOMEM);
        }
        agal_context_free(fc);
    }
    CHECK(done);
    agal_context_free(ctx);
}

/* ---- corpus ----------------------------------------------------------------- */

static const agal_program *load_agal(agal_context *ctx, const char *path)
{
    size_t len = 0;
    char *src = tool_read_file(path, &len);
    int stage = -1;
    uint32_t version = 0;
    const agal_program *p = NULL;
    if (src && agal_asm_header(ctx, src, len, &stage, &version) == AGAL_OK && stage >= 0) {
        const uint8_t *bytes;
        size_t size;
        if (agal_assemble(ctx, src, len, (agal_stage)stage, version ? version : 1, AGAL_ASM_STRICT, &bytes, &size) ==
            AGAL_OK)
            agal_decode(ctx, bytes, size, NULL, &p);
    }
    free(src);
    return p;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every shaders/NAME.vert.agal + NAME.frag.agal: each compiles (default, -g0,
 * --clip none) and the pair links. */
/* ---- GLSL ES ------------------------------------------------------------------ */

static unsigned es_linked[2], es_refused, es_bindings;

/* What a translation's binding says it declares is what its text declares: the
 * constant array (ES 1.00 plain and sized to the reads, else the std140 block),
 * each sampler and its type, the yflip uniform, each #extension line. */
static bool binding_matches(agal_context *ctx, const agal_program *p, agal_target target, const char *text,
                            const char *what)
{
    agal_translate_options o = agal_translate_options_init();
    o.target = target;
    agal_shader sh = agal_shader_init();
    char want[128];
    bool ok = agal_translate(ctx, p, &o, &sh) == AGAL_OK && !strcmp(sh.text, text);
    const agal_binding b = sh.binding;
    ok = ok && b.target == target && b.stage == p->stage;
    const char *cname = agal_reg_name(p->stage, AGAL_REG_CONSTANT);
    const agal_binding_block *k = b.constants;
    if (ok && k && target != AGAL_TARGET_ESSL1)
        snprintf(want, sizeof want, "layout(std140) uniform %s { vec4 %s[%u]; };", k->name, cname, k->count);
    else if (ok && k) snprintf(want, sizeof want, "uniform vec4 %s[%u];", k->name, k->count);
    else snprintf(want, sizeof want, "uniform vec4 %s[", cname); /* no declaration of the array at all */
    char block[32];
    snprintf(block, sizeof block, "agal_%s_block", cname);
    ok = ok && (strstr(text, want) != NULL) == (k != NULL) &&
         (k ? (strcmp(k->name, cname) == 0) == (target == AGAL_TARGET_ESSL1) : !strstr(text, block));
    ok = ok && (strstr(text, "uniform float agal_yflip;") != NULL) == b.yflip;
    unsigned declared = 0, cubes = 0;
    for (size_t i = 0; i < b.nsamplers; i++) {
        declared |= 1u << b.samplers[i].num;
        cubes |= (unsigned)(b.samplers[i].token.dim == AGAL_DIM_CUBE) << b.samplers[i].num;
    }
    for (unsigned n = 0; ok && n < 16; n++) {
        snprintf(want, sizeof want, "uniform sampler2D fs%u;", n);
        bool flat = strstr(text, want) != NULL;
        snprintf(want, sizeof want, "uniform samplerCube fs%u;", n);
        bool cube = strstr(text, want) != NULL;
        ok = (flat || cube) == ((declared >> n & 1) != 0) && cube == ((cubes >> n & 1) != 0);
    }
    for (unsigned bit = 1; ok && bit <= AGAL_EXT_DRAW_BUFFERS; bit <<= 1) {
        snprintf(want, sizeof want, "#extension %s : enable", agal_extension_name(bit, false));
        ok = (strstr(text, want) != NULL) == ((b.extensions & bit) != 0);
    }
    if (!ok) fprintf(stderr, "%s: the binding disagrees with the text:\n%s\n", what, text);
    es_bindings += ok;
    return ok;
}

/* Both programs as GLSL ES (3.00 or 1.00), compiled and linked by glslang's ES
 * profile. In ES 1.00 a program reading iid (where the optimizer keeps the read) is
 * refused, naming it; nothing else is. */
static bool essl_pair(agal_context *ctx, const agal_program *v, const agal_program *f, agal_target target,
                      const char *what)
{
    const char *vs = NULL, *fs = NULL;
    char log[4096];
    agal_status sv = tool_translate_text(ctx, v, target, NULL, &vs, NULL);
    agal_status sf = tool_translate_text(ctx, f, target, NULL, &fs, NULL);
    agal_reflection r;
    bool iid = agal_reflect(ctx, v, &r) == AGAL_OK && r.uses_iid;
    if (target == AGAL_TARGET_ESSL1 && iid && sv != AGAL_OK) {
        const agal_diag *d = agal_diag_count(ctx) ? agal_diag_get(ctx, agal_diag_count(ctx) - 1) : NULL;
        bool named = sv == AGAL_ERR_UNSUPPORTED && d && strstr(d->message, "iid");
        if (!named) fprintf(stderr, "%s: ES 1.00 did not refuse iid by name (%d)\n", what, sv);
        agal_diag_clear(ctx);
        es_refused += named;
        return named && sf == AGAL_OK;
    }
    bool ok = sv == AGAL_OK && sf == AGAL_OK && glslang_check_gl_link(vs, fs, log, sizeof log) &&
              binding_matches(ctx, v, target, vs, what) && binding_matches(ctx, f, target, fs, what);
    if (!ok)
        fprintf(stderr, "%s: GLSL ES %s: %s\n%s\n%s\n", what, target == AGAL_TARGET_ESSL3 ? "3.00" : "1.00",
                sv || sf ? "translation failed" : log, vs ? vs : "", fs ? fs : "");
    es_linked[target == AGAL_TARGET_ESSL1] += ok;
    return ok;
}

static bool essl_pairs(agal_context *ctx, const agal_program *v, const agal_program *f, const char *what)
{
    bool ok3 = essl_pair(ctx, v, f, AGAL_TARGET_ESSL3, what);
    return essl_pair(ctx, v, f, AGAL_TARGET_ESSL1, what) && ok3;
}

static void test_corpus(const char *dir)
{
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!d) return;
    char *names[512];
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && n < 512;) {
        size_t l = strlen(e->d_name);
        if (l > 10 && strcmp(e->d_name + l - 10, ".vert.agal") == 0) names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    CHECK(n >= 10);
    unsigned linked = 0;
    for (size_t i = 0; i < n; i++) {
        char vpath[1024], fpath[1024];
        snprintf(vpath, sizeof vpath, "%s/%s", dir, names[i]);
        snprintf(fpath, sizeof fpath, "%s/%.*s.frag.agal", dir, (int)(strlen(names[i]) - 10), names[i]);
        agal_context *ctx = agal_context_new(NULL, NULL);
        const agal_program *vp = load_agal(ctx, vpath), *fp = load_agal(ctx, fpath);
        if (!vp || !fp) fprintf(stderr, "corpus: %s: does not load\n", names[i]);
        CHECK(vp && fp);
        const agal_translate_options g0 = {.size = sizeof(agal_translate_options), .strip_names = true},
                                     none = {.size = sizeof(agal_translate_options), .clip = AGAL_CLIP_NONE};
        const char *vs = glsl(ctx, vp, NULL), *fs = glsl(ctx, fp, NULL);
        CHECK(compiles(AGAL_VERTEX, vs, vpath) && compiles(AGAL_FRAGMENT, fs, fpath));
        CHECK(compiles(AGAL_VERTEX, glsl(ctx, vp, &g0), vpath));
        CHECK(compiles(AGAL_FRAGMENT, glsl(ctx, fp, &g0), fpath));
        CHECK(compiles(AGAL_VERTEX, glsl(ctx, vp, &none), vpath));
        char log[2048];
        if (vs && fs && glslang_check_gl_link(vs, fs, log, sizeof log)) linked++;
        else fprintf(stderr, "corpus: %s: link: %s\n", names[i], vs && fs ? log : "no text");
        CHECK(vp && fp && essl_pairs(ctx, vp, fp, names[i]), "%s: GLSL ES", names[i]);
        agal_context_free(ctx);
        free(names[i]);
    }
    CHECK(linked == n);
    printf("corpus: %zu pairs compiled and linked\n", n);
}

/* ---- random programs -------------------------------------------------------- */

static void test_random(unsigned npairs)
{
    static gen_program vp, fp; /* large: keep them off the stack */
    static uint8_t vbytes[GEN_MAX_BYTES], fbytes[GEN_MAX_BYTES];
    unsigned ok = 0, before[2] = {es_linked[0], es_linked[1]};
    agal_context *ctx = agal_context_new(NULL, NULL);
    for (unsigned i = 0; i < npairs; i++) {
        uint64_t seed = 0x61676c736cull + i;
        uint32_t version = 1 + i % 3;
        gen_options opt = {.max_tokens = i % 10 == 0 ? 200 : 40};
        if (!gen_pair(&vp, &fp, seed, version, &opt)) {
            CHECK(!"gen_pair failed");
            continue;
        }
        size_t vn = gen_program_encode(&vp, vbytes, sizeof vbytes), fn = gen_program_encode(&fp, fbytes, sizeof fbytes);
        const agal_program *v = NULL, *f = NULL;
        agal_context_reset(ctx);
        if (agal_decode(ctx, vbytes, vn, NULL, &v) != AGAL_OK || agal_decode(ctx, fbytes, fn, NULL, &f) != AGAL_OK) {
            fprintf(stderr, "random %u: generated program does not decode\n", i);
            failures++;
            continue;
        }
        const agal_translate_options opts[3] = {{.size = sizeof(agal_translate_options)},
                                                {.size = sizeof(agal_translate_options), .strip_names = true},
                                                {.size = sizeof(agal_translate_options), .clip = AGAL_CLIP_NONE}};
        const char *vs = glsl(ctx, v, &opts[i % 3]), *fs = glsl(ctx, f, &opts[i % 3]);
        char what[64], log[4096];
        snprintf(what, sizeof what, "random %u (seed %llu, AGAL %u)", i, (unsigned long long)seed, version);
        bool good = compiles(AGAL_VERTEX, vs, what) && compiles(AGAL_FRAGMENT, fs, what);
        if (i % 5 == 0) /* the folded IR's general paths, on a fifth of the programs */
            good = good && compiles(AGAL_VERTEX, glsl_folded(ctx, v), what) &&
                   compiles(AGAL_FRAGMENT, glsl_folded(ctx, f), what);
        if (good && !glslang_check_gl_link(vs, fs, log, sizeof log)) {
            fprintf(stderr, "%s: link: %s\n", what, log);
            good = false;
        }
        good = essl_pairs(ctx, v, f, what) && good;
        ok += good;
        if (!good) failures++;
    }
    agal_context_free(ctx);
    printf("random: %u/%u pairs (%u programs) compiled and linked\n", ok, npairs, 2 * npairs);
    printf("GLSL ES: %u pairs linked as ES 3.00, %u as ES 1.00, %u refused by name (iid); %u reflections match their "
           "text\n",
           es_linked[0], es_linked[1], es_refused, es_bindings);
    /* at least 1000 random programs of each ES version through glslang (a run of 750 pairs or more) */
    unsigned es3 = 2 * (es_linked[0] - before[0]), es1 = 2 * (es_linked[1] - before[1]);
    CHECK(npairs < 750 || (es3 >= 1000 && es1 >= 1000), "ES 3.00: %u, ES 1.00: %u random programs", es3, es1);
    printf("GLSL ES: %u random programs as ES 3.00, %u as ES 1.00\n", es3, es1);
}

/* Emulator input: random programs with bytes flipped, tokens swapped or rewritten,
 * decoded leniently. Whatever the decoder accepts must translate and compile. */
static void test_lenient_mutants(unsigned n)
{
    static gen_program p;
    static uint8_t buf[GEN_MAX_BYTES];
    gen_rng r;
    gen_rng_seed(&r, 0x6d7574616e74ull);
    unsigned accepted = 0, good = 0;
    agal_context *ctx = agal_context_new(NULL, NULL);
    for (unsigned i = 0; i < n; i++) {
        agal_stage stage = (agal_stage)(i & 1);
        gen_options o = {.max_tokens = 30};
        if (!gen_program_make(&p, 7919ull * i, stage, 1 + (i / 2) % 3, &o)) continue;
        size_t size = gen_program_encode(&p, buf, sizeof buf);
        unsigned nt = (unsigned)((size - AGAL_HEADER_SIZE) / AGAL_TOKEN_SIZE);
        for (unsigned m = 1 + gen_rng_below(&r, 4); m > 0 && nt; m--) {
            uint8_t *t = buf + AGAL_HEADER_SIZE + AGAL_TOKEN_SIZE * gen_rng_below(&r, nt);
            uint8_t *u = buf + AGAL_HEADER_SIZE + AGAL_TOKEN_SIZE * gen_rng_below(&r, nt);
            unsigned byte = gen_rng_below(&r, AGAL_TOKEN_SIZE), kind = gen_rng_below(&r, 3);
            if (kind == 0) {
                t[byte] ^= (uint8_t)(1u << gen_rng_below(&r, 8));
            } else if (kind == 1) {
                uint8_t tmp[AGAL_TOKEN_SIZE];
                memcpy(tmp, t, sizeof tmp);
                memmove(t, u, sizeof tmp);
                memcpy(u, tmp, sizeof tmp);
            } else {
                t[byte] = (uint8_t)gen_rng_next(&r);
            }
        }
        agal_context_reset(ctx);
        const agal_program *prog = NULL;
        const agal_decode_options lenient = {.size = sizeof(agal_decode_options), .lenient = true};
        if (agal_decode(ctx, buf, size, &lenient, &prog) != AGAL_OK) continue;
        accepted++;
        char what[48];
        snprintf(what, sizeof what, "mutant %u", i);
        good += compiles(stage, glsl(ctx, prog, NULL), what);
    }
    agal_context_free(ctx);
    CHECK(accepted > n / 4); /* the mutations leave many programs acceptable */
    CHECK(good == accepted);
    printf("lenient mutants: %u/%u accepted programs compiled\n", good, accepted);
}

/* A host's names (OpenFL's): in the text of every GLSL-family target, none of ours
 * left, the pair links, the binding reports them; the upload takes them too; a name
 * that is no identifier is refused. */
static bool has_word(const char *text, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = strstr(text, w); p; p = strstr(p + 1, w)) {
        bool before = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        if (before && !(isalnum((unsigned char)p[n]) || p[n] == '_')) return true;
    }
    return false;
}

static void test_host_names(void)
{
    static const agal_names openfl = {{"vc0", "fc0"}, {"vcBlock", "fcBlock"}, "sampler", "aVa",
                                      "vVa",          "vcPositionScale",      'y'};
    agal_context *ctx = agal_context_new(NULL, NULL);
    const agal_program *v = assemble(ctx, "m44 op, va0, vc0\nmov v0, va1\nmov v1, va2\n", AGAL_VERTEX, 2, false);
    const agal_program *f = assemble(ctx,
                                     "tex ft0, v0, fs2 <2d,linear>\nmul ft0, ft0, fc1\nddy ft1, v1\n"
                                     "add oc, ft0, ft1\n",
                                     AGAL_FRAGMENT, 2, false);
    CHECK(v && f, "the pair assembles");
    static const agal_target targets[] = {AGAL_TARGET_GLSL, AGAL_TARGET_ESSL3, AGAL_TARGET_ESSL1};
    for (size_t t = 0; v && f && t < 3; t++) {
        agal_translate_options o = agal_translate_options_init();
        o.target = targets[t], o.names = &openfl, o.strip_names = true; /* comments name AGAL registers */
        agal_shader vs = agal_shader_init(), fs = agal_shader_init();
        CHECK(agal_translate(ctx, v, &o, &vs) == AGAL_OK && agal_translate(ctx, f, &o, &fs) == AGAL_OK, "target %d",
              targets[t]);
        if (!vs.text || !fs.text) continue;
        char log[4096] = "";
        CHECK(glslang_check_gl_link(vs.text, fs.text, log, sizeof log), "target %d links: %s", targets[t], log);
        static const char *const ours[] = {"vc", "fc", "fs2",        "va0",           "va1",
                                           "v0", "v1", "agal_yflip", "agal_vc_block", "agal_fc_block"};
        for (size_t i = 0; i < sizeof ours / sizeof *ours; i++)
            CHECK(!has_word(vs.text, ours[i]) && !has_word(fs.text, ours[i]), "target %d: %s left", targets[t],
                  ours[i]);
        CHECK(has_word(vs.text, "aVa0") && has_word(vs.text, "vVa1") && has_word(fs.text, "sampler2") &&
                  strstr(vs.text, "vcPositionScale.y") && strstr(fs.text, "vcPositionScale.y"),
              "target %d: the host's names", targets[t]);
        const agal_binding_block *k = vs.binding.constants;
        CHECK(k && !strcmp(k->name, targets[t] == AGAL_TARGET_ESSL1 ? "vc0" : "vcBlock") && fs.binding.nsamplers == 1 &&
                  !strcmp(fs.binding.samplers[0].name, "sampler2"),
              "target %d: the binding's names", targets[t]);
    }
    /* Names of 8 bytes and longer: the emitter copies the short ones from 8-byte
     * spellings, the others as they are. */
    static const agal_names longer = {{"vcLonger", "fcConstants"},
                                      {"vcBlock", "fcBlock"},
                                      "samplerTex",
                                      "attribute",
                                      "varyingV",
                                      "vcPositionScale",
                                      'y'};
    for (size_t t = 0; v && f && t < 3; t++) {
        agal_translate_options o = agal_translate_options_init();
        o.target = targets[t], o.names = &longer, o.strip_names = true;
        agal_shader vs = agal_shader_init(), fs = agal_shader_init();
        CHECK(agal_translate(ctx, v, &o, &vs) == AGAL_OK && agal_translate(ctx, f, &o, &fs) == AGAL_OK,
              "target %d, longer names", targets[t]);
        if (!vs.text || !fs.text) continue;
        CHECK(has_word(vs.text, "attribute0") && has_word(vs.text, "attribute1") && has_word(vs.text, "varyingV1") &&
                  has_word(fs.text, "varyingV1") && has_word(fs.text, "samplerTex2") &&
                  strstr(vs.text, "vcLonger[0]") && strstr(fs.text, "fcConstants[1]"),
              "target %d: the longer names", targets[t]);
    }
    agal_names bad = openfl;
    bad.sampler = "gl_sampler";
    agal_translate_options o = agal_translate_options_init();
    o.target = AGAL_TARGET_GLSL, o.names = &bad;
    agal_shader sh = agal_shader_init();
    CHECK(v && agal_translate(ctx, v, &o, &sh) == AGAL_ERR_ARG && agal_diag_count(ctx) &&
              strstr(agal_diag_get(ctx, agal_diag_count(ctx) - 1)->message, "gl_sampler"),
          "a gl_ name is refused");
    bad.sampler = "fs", bad.yflip_component = 'q';
    CHECK(v && agal_translate(ctx, v, &o, &sh) == AGAL_ERR_ARG, "component q is refused");
    agal_context_free(ctx);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_glsl SHADER_DIR [NPAIRS]\n");
        return 2;
    }
    unsigned npairs = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 500;
    if (!glslang_check_init()) return 1;
    test_golden_vertex();
    test_golden_fragment();
    test_golden_indirect_g0_clip_none();
    test_golden_hoisted_tex();
    test_folded_ir();
    test_names_and_comments();
    test_host_names();
    test_clip_and_builtins();
    test_lenient_and_textures();
    test_unnameable_token_comment();
    test_float_literals();
    test_failing_allocator();
    test_corpus(argv[1]);
    test_random(npairs);
    test_lenient_mutants(1000);
    glslang_check_fini();
    if (failures) fprintf(stderr, "%d failure(s)\n", failures);
    return failures ? 1 : 0;
}
