/* test_spirv.c: the SPIR-V emitter against libSPIRV-Tools' Vulkan 1.0 validator,
 * plus small goldens whose expected text was worked out by hand.
 *
 *   test_spirv corpus DIR     every .agal file in DIR translates and validates (with
 *                             -gnonsemantic also for Vulkan 1.3 and after spirv-opt -O)
 *   test_spirv random N       N seeded random valid programs (tools/common/gen.c) per
 *                             stage/version, strict, plus the lenient variants
 *   test_spirv golden         IR and SPIR-V goldens, lenient programs, API edges
 *   test_spirv reflect        reflection (struct and JSON, parsed back by cJSON)
 *   test_spirv threads        four threads translating at once give the same words
 *   test_spirv mutate N       bit-flipped generated programs that still decode */
#include "agal/agal.h"
#include "private.h"
#include "agal/text.h"
#include "gen.h"
#include "ir.h" /* the optimizer's fixed point */

#include <cjson/cJSON.h>

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "harness_api.h"
#include "spirv_check.h"
#include "toolio.h"
#include "translated.h"

static void print_diags(agal_context *ctx, const char *what)
{
    char buf[512];
    for (size_t i = 0; i < agal_diag_count(ctx); i++) {
        agal_diag_format(agal_diag_get(ctx, i), what, buf, sizeof buf);
        fprintf(stderr, "  %s\n", buf);
    }
}

/* tools/common/spvopt.cpp: SPIRV-Tools' optimizer (agal2spv -O). */
int agal_tool_optimize(const uint32_t *in, size_t n, uint32_t **out, size_t *nout);

enum { OP_LINE = 8, OP_EXT_INST_IMPORT = 11, OP_EXT_INST = 12, DEBUG_SCOPE = 23, DEBUG_LINE = 103 };

/* -gnonsemantic: NonSemantic.Shader.DebugInfo.100 imported (its id returned, 0: not),
 * and every OpLine followed by a DebugLine (after the block's DebugScope) of the
 * same line. */
static bool nonsemantic_lines(const uint32_t *w, size_t n, const char *what)
{
    static const char set[] = "NonSemantic.Shader.DebugInfo.100";
    uint32_t id = 0;
    size_t lines = 0, paired = 0;
    for (size_t i = 5; i < n && w[i] >> 16; i += w[i] >> 16) {
        unsigned op = w[i] & 0xffff;
        if (op == OP_EXT_INST_IMPORT && !memcmp(&w[i + 2], set, sizeof set)) id = w[i + 1];
        if (op != OP_LINE) continue;
        lines++;
        size_t j = i + (w[i] >> 16);
        if (j + 4 < n && (w[j] & 0xffff) == OP_EXT_INST && w[j + 3] == id && w[j + 4] == DEBUG_SCOPE) j += w[j] >> 16;
        /* DebugLine's operands: source, line start, line end (constants of the line) */
        paired += j + 7 < n && (w[j] & 0xffff) == OP_EXT_INST && w[j + 3] == id && w[j + 4] == DEBUG_LINE &&
                  w[j + 6] == w[j + 7];
    }
    CHECK(id && lines && paired == lines, "%s: -gnonsemantic: import %u, %zu OpLines, %zu with their DebugLine", what,
          id, lines, paired);
    return id && lines && paired == lines;
}

/* -gnonsemantic's module: valid for Vulkan 1.3 too, its lines paired, and still
 * valid once SPIRV-Tools' optimizer has run over it. */
static bool check_nonsemantic(const uint32_t *words, size_t n, const char *what)
{
    if (!spirv_check_valid_env(words, n, SPIRV_CHECK_VULKAN_1_3, what) || !nonsemantic_lines(words, n, what))
        return false;
    uint32_t *opt = NULL;
    size_t nopt = 0;
    bool ok = agal_tool_optimize(words, n, &opt, &nopt) == 0;
    CHECK(ok, "%s: spirv-opt -O refuses the -gnonsemantic module", what);
    ok = ok && spirv_check_valid(opt, nopt, what);
    free(opt);
    return ok;
}

/* Translates and validates one decoded program with the given options. */
static bool check_program(agal_context *ctx, const agal_program *prog, const agal_translate_options *opt,
                          const char *what)
{
    const uint32_t *words = NULL;
    size_t n = 0;
    agal_status st = tool_translate_words(ctx, prog, opt, &words, &n);
    if (st != AGAL_OK) {
        fprintf(stderr, "%s: translate failed (%d)\n", what, st);
        print_diags(ctx, what);
        return false;
    }
    if (!spirv_check_valid(words, n, what)) return false;
    /* -g: the source and a line for the tokens (OpSource is opcode 3, OpLine 8). */
    bool source = false, line = false;
    bool g = opt && opt->debug_info && !opt->strip_names;
    for (size_t i = 5; g && i < n && words[i] >> 16; i += words[i] >> 16) {
        source |= (words[i] & 0xffff) == 3;
        line |= (words[i] & 0xffff) == 8;
    }
    CHECK(!g || (source && line), "%s: -g without OpSource and OpLine", what);
    return !g || !opt->debug_info_nonsemantic || check_nonsemantic(words, n, what);
}

/* ---- corpus ----------------------------------------------------------------- */

static void corpus_file(const char *path)
{
    size_t size = 0;
    char *text = tool_read_file(path, &size);
    CHECK(text, "cannot read %s", path);
    if (!text) return;
    agal_context *ctx = agal_context_new(NULL, NULL);
    int stage = -1;
    uint32_t version = 0;
    const uint8_t *bytes = NULL;
    size_t nbytes = 0;
    const agal_program *prog = NULL;
    bool ok = agal_asm_header(ctx, text, size, &stage, &version) == AGAL_OK && stage >= 0 &&
              agal_assemble(ctx, text, size, (agal_stage)stage, version ? version : 1, AGAL_ASM_STRICT, &bytes,
                            &nbytes) == AGAL_OK &&
              agal_decode(ctx, bytes, nbytes, NULL, &prog) == AGAL_OK;
    if (!ok) print_diags(ctx, path);
    CHECK(ok, "%s does not assemble and validate", path);
    if (ok) {
        static const agal_translate_options variants[] = {
            {.size = sizeof(agal_translate_options)},
            {.size = sizeof(agal_translate_options), .clip = AGAL_CLIP_NONE},
            {.size = sizeof(agal_translate_options), .clip = AGAL_CLIP_GL, .strip_names = true},
            {.size = sizeof(agal_translate_options), .debug_info = true, .debug_info_nonsemantic = true}};
        for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++)
            CHECK(check_program(ctx, prog, &variants[i], path), "%s: variant %zu invalid SPIR-V", path, i);
    }
    agal_context_free(ctx);
    free(text);
}

static int run_corpus(const char *dir)
{
    DIR *d = opendir(dir);
    CHECK(d, "cannot open %s", dir);
    if (!d) return 1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".agal")) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        corpus_file(path);
        n++;
    }
    closedir(d);
    CHECK(n >= 10, "only %d corpus programs in %s", n, dir);
    printf("corpus: %d programs\n", n);
    return failures != 0;
}

/* ---- random programs ------------------------------------------------------------ */

static void random_one(agal_context *ctx, uint64_t seed, agal_stage stage, uint32_t version, const gen_options *gopt,
                       bool lenient)
{
    static gen_program gp;
    static uint8_t bytes[GEN_MAX_BYTES];
    char what[96];
    snprintf(what, sizeof what, "seed %llu %s v%u%s", (unsigned long long)seed,
             stage == AGAL_VERTEX ? "vertex" : "fragment", version, lenient ? " lenient" : "");
    if (!gen_program_make(&gp, seed, stage, version, gopt)) {
        CHECK(false, "%s: generator refused", what);
        return;
    }
    size_t n = gen_program_encode(&gp, bytes, sizeof bytes);
    const agal_program *prog = NULL;
    agal_decode_options dopt = {.size = sizeof(agal_decode_options), .lenient = lenient};
    agal_status st = agal_decode(ctx, bytes, n, &dopt, &prog);
    if (st != AGAL_OK) print_diags(ctx, what);
    CHECK(st == AGAL_OK, "%s: generated program does not decode", what);
    if (st != AGAL_OK) return;
    /* Alternate the options so every clip mode, -g0 and -g are covered too (-g in five
     * programs of six: 1,000 of the 1,200 a run of 200 makes, their OpSource and
     * OpLines through the validator; -g0 in the sixth; -gnonsemantic in two of the
     * five, 400, also for Vulkan 1.3 and after spirv-opt -O). */
    agal_translate_options topt = {.size = sizeof(agal_translate_options),
                                   .clip = (agal_clip)(seed % 4),
                                   .strip_names = seed % 6 == 0,
                                   .debug_info = seed % 6 != 0,
                                   .debug_info_nonsemantic = seed % 6 == 1 || seed % 6 == 4};
    CHECK(check_program(ctx, prog, &topt, what), "%s: invalid SPIR-V", what);
    /* The pipeline runs each optimization once: that must be its fixed point, and
     * each pass must say so truthfully (the IR-check build also asserts this). */
    agal_ir *ir = NULL;
    if (agal_ir_pipeline(ctx, prog, NULL, &ir) == AGAL_OK) {
        bool changed = true;
        CHECK(agal_lower_hoist_tex(ir, &changed) == AGAL_OK && !changed, "%s: a second hoisting moves code", what);
        CHECK(agal_opt_copy_prop(ir, &changed) == AGAL_OK && !changed, "%s: a second copy-folding round still folds",
              what);
        CHECK(agal_opt_dce(ir, &changed) == AGAL_OK && !changed, "%s: a second dead-code round still removes code",
              what);
        CHECK(agal_ir_check(ir, AGAL_IR_CHECK_USES | AGAL_IR_CHECK_LIVE, "the test's rounds") == AGAL_OK,
              "%s: the IR checker faults the pipeline's IR", what);
    }
}

static int run_random(unsigned count)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    unsigned total = 0;
    for (uint32_t version = 1; version <= 3; version++) {
        for (int stage = 0; stage < 2; stage++) {
            for (unsigned i = 0; i < count; i++) {
                uint64_t seed = (uint64_t)version * 1000003u + (uint64_t)stage * 7919u + i;
                gen_options gopt = {.max_tokens = i % 10 == 0 ? 200 : 0};
                random_one(ctx, seed, (agal_stage)stage, version, &gopt, i % 4 == 3);
                agal_context_reset(ctx);
                total++;
            }
        }
    }
    agal_context_free(ctx);
    printf("random: %u programs, %d failures\n", total, failures);
    return failures != 0;
}

/* ---- goldens ----------------------------------------------------------------------- */

static const agal_program *assemble(agal_context *ctx, const char *text, agal_stage stage, uint32_t version,
                                    bool lenient)
{
    const uint8_t *bytes = NULL;
    size_t n = 0;
    const agal_program *prog = NULL;
    agal_decode_options dopt = {.size = sizeof(agal_decode_options), .lenient = lenient};
    if (agal_assemble(ctx, text, strlen(text), stage, version, AGAL_ASM_STRICT, &bytes, &n) != AGAL_OK ||
        agal_decode(ctx, bytes, n, &dopt, &prog) != AGAL_OK) {
        print_diags(ctx, text);
        return NULL;
    }
    return prog;
}

/* mov op, va0: one load, Vulkan's conventions as lower_conventions writes them (y
 * negated, times the flip, merged back) and the store; the IR text (no target) is
 * the load and its store (the copy is folded). */
static void golden_minimal_vertex(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    const agal_program *p = assemble(ctx, "mov op, va0\n", AGAL_VERTEX, 1, false);
    CHECK(p, "golden vertex does not assemble");
    if (p) {
        const char *ir = NULL;
        CHECK(tool_translate_text(ctx, p, AGAL_TARGET_IR, NULL, &ir, NULL) == AGAL_OK, "ir text");
        const char *want_ir = "; vertex agal1, 1 tokens\n"
                              "%1 = input va0  ; token 1\n"
                              "store op.xyzw %1\n";
        CHECK(ir && strcmp(ir, want_ir) == 0, "IR golden:\n%s", ir ? ir : "(null)");

        const uint32_t *w = NULL;
        size_t n = 0;
        CHECK(tool_translate_words(ctx, p, NULL, &w, &n) == AGAL_OK, "translate");
        char *text = w ? spirv_check_text(w, n) : NULL;
        const char *want = "OpCapability Shader\n"
                           "%1 = OpExtInstImport \"GLSL.std.450\"\n"
                           "OpMemoryModel Logical GLSL450\n"
                           "OpEntryPoint Vertex %main \"main\" %va0 %op\n"
                           "OpName %va0 \"va0\"\n"
                           "OpName %op \"op\"\n"
                           "OpName %agal_yflip \"agal_yflip\"\n"
                           "OpName %main \"main\"\n"
                           "OpDecorate %va0 Location 0\n"
                           "OpDecorate %op BuiltIn Position\n"
                           "OpDecorate %agal_yflip SpecId 0\n"
                           "%float = OpTypeFloat 32\n"
                           "%v4float = OpTypeVector %float 4\n"
                           "%_ptr_Input_v4float = OpTypePointer Input %v4float\n"
                           "%va0 = OpVariable %_ptr_Input_v4float Input\n"
                           "%_ptr_Output_v4float = OpTypePointer Output %v4float\n"
                           "%op = OpVariable %_ptr_Output_v4float Output\n"
                           "%void = OpTypeVoid\n"
                           "%9 = OpTypeFunction %void\n"
                           "%agal_yflip = OpSpecConstant %float 1\n"
                           "%14 = OpSpecConstantComposite %v4float %agal_yflip %agal_yflip %agal_yflip %agal_yflip\n"
                           "%main = OpFunction %void None %9\n"
                           "%11 = OpLabel\n"
                           "%12 = OpLoad %v4float %va0\n"
                           "%15 = OpFNegate %v4float %12\n"
                           "%16 = OpFMul %v4float %15 %14\n"
                           "%17 = OpVectorShuffle %v4float %12 %16 0 5 2 3\n"
                           "OpStore %op %17\n"
                           "OpReturn\n"
                           "OpFunctionEnd\n";
        CHECK(text && strcmp(text, want) == 0, "SPIR-V golden:\n%s", text ? text : "(null)");
        free(text);

        /* --clip none: the position is stored as loaded (only the RTT scale applies). */
        agal_translate_options none = {
            .size = sizeof(agal_translate_options), .clip = AGAL_CLIP_NONE, .strip_names = true};
        CHECK(tool_translate_words(ctx, p, &none, &w, &n) == AGAL_OK, "translate clip none");
        text = spirv_check_text(w, n);
        CHECK(text && !strstr(text, "OpFNegate") && strstr(text, "OpFMul") && !strstr(text, "OpName"),
              "clip none / -g0:\n%s", text ? text : "");
        free(text);

        /* The caller-buffer variant: too small is AGAL_ERR_LIMIT, exact fits. */
        size_t need = 0;
        uint32_t small[4];
        CHECK(agal_translate_spirv_to(ctx, p, NULL, small, 4, &need) == AGAL_ERR_LIMIT && need > 4, "small buffer");
        uint32_t *buf = malloc(need * 4);
        size_t got = 0;
        CHECK(buf && agal_translate_spirv_to(ctx, p, NULL, buf, need, &got) == AGAL_OK && got == need &&
                  buf[0] == 0x07230203u && buf[1] == 0x00010000u,
              "exact buffer");
        free(buf);
    }
    agal_context_free(ctx);
}

static bool contains_all(const char *text, const char *const *needles)
{
    for (; *needles; needles++)
        if (!strstr(text, *needles)) {
            fprintf(stderr, "missing: %s\n", *needles);
            return false;
        }
    return true;
}

/* The fragment features docs/binding-models.md ("SPIR-V binding model") names,
 * each looked for in the disassembly. */
static void golden_fragment_features(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    const char *src = "tex ft0, v0, fs0 <2d,linear,repeat,-1>\n" /* bias -1 = -8/8 */
                      "ted ft1, v0, fs1 <cube,linear,clamp,miplinear>\n"
                      "ddx ft2, v0\n"
                      "ddy ft3, v0\n"
                      "add ft2, ft2, ft3\n"
                      "kil ft0.w\n"
                      "ine ft0.x, fc0.x\n"
                      "mov ft0.y, fc1.y\n"
                      "eif\n"
                      "add ft0, ft0, ft1\n"
                      "add ft0, ft0, ft2\n"
                      "mov fd.x, ft0.z\n"
                      "mov oc, ft0\n";
    const agal_program *p = assemble(ctx, src, AGAL_FRAGMENT, 2, false);
    CHECK(p, "fragment program does not assemble");
    const uint32_t *w = NULL;
    size_t n = 0;
    if (p && tool_translate_words(ctx, p, NULL, &w, &n) == AGAL_OK) {
        CHECK(spirv_check_valid(w, n, "fragment features"), "fragment features invalid");
        char *text = spirv_check_text(w, n);
        static const char *const needles[] = {"OpExecutionMode %main OriginUpperLeft",
                                              "OpExecutionMode %main DepthReplacing",
                                              "OpDecorate %fd BuiltIn FragDepth",
                                              "OpDecorate %fs0 Binding 2",
                                              "OpDecorate %fs1 Binding 3",
                                              "OpDecorate %fc Binding 1",
                                              "OpTypeImage %float Cube",
                                              "OpTypeImage %float 2D",
                                              "OpImageSampleImplicitLod %v4float",
                                              "Bias %float_n1",
                                              "OpImageSampleExplicitLod %v4float",
                                              "OpDPdx %v4float",
                                              "OpDPdy %v4float",
                                              "OpSpecConstantComposite %v4float %agal_yflip",
                                              "OpDecorate %agal_yflip SpecId 0",
                                              "OpKill",
                                              "OpSelectionMerge",
                                              "OpFUnordNotEqual %bool",
                                              "OpPhi %v4float",
                                              "OpDecorate %oc0 Location 0",
                                              NULL};
        CHECK(text && contains_all(text, needles), "fragment features:\n%s", text ? text : "");
        free(text);
    } else {
        CHECK(false, "fragment features translate");
    }
    agal_context_free(ctx);
}

/* Lenient: an unwritten temporary reads 0; two indirect sources; both valid SPIR-V.
 * The IR of `add op, vt3, va0` must add the zero constant. */
static void lenient_programs(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    const agal_program *p = assemble(ctx, "add op, vt3, va0\n", AGAL_VERTEX, 1, true);
    CHECK(p, "lenient program refused");
    if (p) {
        const char *ir = NULL;
        CHECK(tool_translate_text(ctx, p, AGAL_TARGET_IR, NULL, &ir, NULL) == AGAL_OK, "lenient ir");
        CHECK(ir && strstr(ir, "%1 = const (0, 0, 0, 0)") && strstr(ir, "alu add %1, %2 -> op"), "lenient IR:\n%s",
              ir ? ir : "");
        CHECK(check_program(ctx, p, NULL, "lenient zero read"), "lenient zero read invalid");
    }
    p = assemble(ctx, "add op, vc[va0.x+1], vc[va1.y+2]\n", AGAL_VERTEX, 1, true);
    CHECK(p, "two indirect sources refused in lenient mode");
    if (p) CHECK(check_program(ctx, p, NULL, "two indirect"), "two indirect invalid");
    /* Outputs written inside a block (3751 relaxed): joined by phis, the path that
     * does not write v0 stores 0 (as the interpreter's unwritten registers). */
    p = assemble(ctx, "mov op, va0\nifg va0.x, vc0.x\nmov op.y, vc1.y\nmov v0, va1\neif\n", AGAL_VERTEX, 2, true);
    CHECK(p, "lenient output in block refused");
    if (p) {
        const char *ir = NULL;
        CHECK(tool_translate_text(ctx, p, AGAL_TARGET_IR, NULL, &ir, NULL) == AGAL_OK, "lenient block ir");
        CHECK(ir && strstr(ir, "%13 = input va1") && strstr(ir, "%16 = const (0, 0, 0, 0)") &&
                  strstr(ir, "%17 = phi %13, %16 -> v0") && strstr(ir, "%15 = phi %12, %1 -> op") &&
                  strstr(ir, "store v0.xyzw %17") && strstr(ir, "store op.xyzw %15"),
              "lenient block IR:\n%s", ir ? ir : "");
        CHECK(check_program(ctx, p, NULL, "lenient outputs in block"), "lenient outputs in block invalid");
    }
    /* Strict mode still refuses the zero read (3647). */
    agal_diag_clear(ctx);
    CHECK(!assemble(ctx, "add op, vt3, va0\n", AGAL_VERTEX, 1, false), "strict accepted an unwritten read");
    agal_context_free(ctx);
}

/* Blocks: a register written in one branch only joins with its value before the if;
 * the IR has the if tree and one phi per changed register. */
static void golden_blocks(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    const char *src = "mov vt0, va0\n"
                      "ifg va0.x, vc0.x\n"
                      "mov vt0.x, vc1.x\n"
                      "eif\n"
                      "mov op, vt0\n";
    const agal_program *p = assemble(ctx, src, AGAL_VERTEX, 2, false);
    CHECK(p, "blocks program");
    if (p) {
        const char *ir = NULL;
        CHECK(tool_translate_text(ctx, p, AGAL_TARGET_IR, NULL, &ir, NULL) == AGAL_OK, "blocks ir");
        /* mov vt0, va0 folds to va0 itself (%1); each register is loaded once, in
         * front (va0's second load, %3, is gone: its extract reads %1; vc1 moves out
         * of the branch); the then branch merges vc1.x into x of %1; phi(merge, %1)
         * is vt0 after the block and is what op receives. Missing numbers are
         * folded copies and shared loads. */
        const char *want = "; vertex agal2, 5 tokens\n"
                           "%1 = input va0  ; token 1\n"
                           "%5 = uniform vc0  ; token 2\n"
                           "%9 = uniform vc1  ; token 3\n"
                           "%4 = extract %1.x  ; token 2\n"
                           "%6 = extract %5.x  ; token 2\n"
                           "%7 = cmp ifg %4, %6  ; token 2\n"
                           "if %7 {\n"
                           "  %10 = swizzle %9.xxxx  ; token 3\n"
                           "  %12 = merge %1, %10.x -> vt0  ; token 3\n"
                           "} else {\n"
                           "}\n"
                           "%13 = phi %12, %1 -> vt0  ; token 4\n"
                           "store op.xyzw %13\n";
        CHECK(ir && strcmp(ir, want) == 0, "blocks IR:\n%s", ir ? ir : "(null)");
        CHECK(check_program(ctx, p, NULL, "blocks"), "blocks invalid");
    }
    agal_context_free(ctx);
}

/* tex with varying coordinates inside blocks is sampled before the outermost if
 * (defined implicit derivatives); the branches keep only the phis' choice. */
static void hoisted_textures(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    const char *src = "mov ft0, fc0\n"
                      "ifg v1.x, fc1.x\n"
                      "tex ft0, v0, fs0 <2d,linear>\n"
                      "ife v1.y, fc1.y\n"
                      "tex ft0, v2, fs1 <2d,linear>\n"
                      "eif\n"
                      "eif\n"
                      "mov oc, ft0\n";
    const agal_program *p = assemble(ctx, src, AGAL_FRAGMENT, 2, false);
    const char *ir = NULL;
    CHECK(p && tool_translate_text(ctx, p, AGAL_TARGET_IR, NULL, &ir, NULL) == AGAL_OK, "hoist program");
    if (ir) {
        const char *if0 = strstr(ir, "if %"), *t0 = strstr(ir, "sample tex fs0"), *t1 = strstr(ir, "sample tex fs1");
        CHECK(if0 && t0 && t1 && t0 < if0 && t1 < if0 && !strstr(if0, "sample tex"), "tex not hoisted:\n%s", ir);
        CHECK(check_program(ctx, p, NULL, "hoisted tex"), "hoisted tex invalid");
    }
    agal_context_free(ctx);
}

/* Harness xfb: op at offset 0, the written varyings v0 and v2 at 16 and 32 (ascending
 * register order), stride 16 * (1 + 2) = 48. */
static void xfb_capture(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    const agal_program *p = assemble(ctx, "m44 op, va0, vc0\nmov v2, va0\nmov v0, va1\n", AGAL_VERTEX, 1, false);
    agal_translate_options o = agal_translate_options_init();
    const uint32_t *w = NULL;
    size_t n = 0;
    CHECK(p && agal_translate_spirv_xfb(ctx, p, &o, &w, &n) == AGAL_OK, "xfb translate");
    if (w) {
        CHECK(spirv_check_valid(w, n, "xfb"), "xfb invalid");
        char *text = spirv_check_text(w, n);
        static const char *const needles[] = {
            "OpCapability TransformFeedback", "OpExecutionMode %main Xfb",   "OpDecorate %op XfbBuffer 0",
            "OpDecorate %op XfbStride 48",    "OpDecorate %op Offset 0",     "OpDecorate %v0 Offset 16",
            "OpDecorate %v2 Offset 32",       "OpDecorate %v2 XfbStride 48", NULL};
        CHECK(text && contains_all(text, needles), "xfb:\n%s", text ? text : "");
        free(text);
    }
    agal_context_free(ctx);
}

/* A chain of one-component writes (`add vt0.x, vt0.y, vcK`, x y z w in turn) keeps
 * its merges virtual, and where the chain is made real (its depth limit, the store)
 * a vector from four sources is at most three shuffles, not one per write under it:
 * one splat a write plus three per materialization of sixteen. The words stay
 * valid, and the output keeps the four components' own sources. */
static void masked_write_chain(void)
{
    enum { WRITES = 192 };
    agal_context *ctx = agal_context_new(NULL, NULL);
    static char src[WRITES * 40 + 64];
    char *q = src + sprintf(src, "mov vt0, va0\n");
    for (unsigned i = 0; i < WRITES; i++)
        q += sprintf(q, "add vt0.%c, vt0.%c, vc%u\n", "xyzw"[i % 4], "xyzw"[(i + 1) % 4], 1 + i % 100);
    sprintf(q, "mov op, va0\nmov v0, vt0\n");
    const agal_program *p = assemble(ctx, src, AGAL_VERTEX, 2, false);
    CHECK(p, "chain program");
    const uint32_t *w = NULL;
    size_t n = 0;
    if (p && tool_translate_words(ctx, p, NULL, &w, &n) == AGAL_OK) {
        CHECK(spirv_check_valid(w, n, "chain"), "chain: invalid SPIR-V");
        unsigned shuffles = 0;
        for (size_t i = 5; i < n && (w[i] >> 16); i += w[i] >> 16)
            shuffles += (w[i] & 0xffff) == 79; /* OpVectorShuffle */
        CHECK(shuffles >= WRITES && shuffles <= WRITES + WRITES / 4,
              "chain: %u shuffles for %u writes (a splat each, and at most 3 per 16)", shuffles, WRITES);
    } else {
        CHECK(0, "chain: translation failed");
    }
    agal_context_free(ctx);
}

/* Every allocation failing in turn: each translation either succeeds or reports
 * AGAL_ERR_NOMEM, never crashes or leaks (ASan checks the latter). */
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

static void allocation_failures(void)
{
    static gen_program gp;
    static uint8_t bytes[GEN_MAX_BYTES];
    /* A long program, so that the IR and the SPIR-V sections outgrow arena blocks. */
    gen_options gopt = {.min_tokens = 900, .max_tokens = 1000};
    CHECK(gen_program_make(&gp, 42, AGAL_FRAGMENT, 2, &gopt), "gen");
    size_t nbytes = gen_program_encode(&gp, bytes, sizeof bytes);
    bool succeeded = false;
    long limit = 0;
    for (; limit < 100000 && !succeeded; limit++) {
        budget b = {limit};
        agal_context *ctx = agal_context_new(failing_alloc, &b);
        if (!ctx) continue;
        const agal_program *p = NULL;
        if (agal_decode(ctx, bytes, nbytes, NULL, &p) == AGAL_OK) {
            const uint32_t *w = NULL;
            size_t n = 0;
            agal_status st = tool_translate_words(ctx, p, NULL, &w, &n);
            CHECK(st == AGAL_OK || st == AGAL_ERR_NOMEM, "limit %ld: status %d", limit, st);
            succeeded = st == AGAL_OK && spirv_check_valid(w, n, "after failures");
        }
        agal_context_free(ctx);
    }
    CHECK(succeeded, "translation never succeeded");
    /* The arena takes big blocks, but translation needs more than the decoder's. */
    CHECK(limit > 3, "only %ld allocations: the failures were not exercised", limit);
    printf("allocation failures: success after %ld allocations\n", limit);
}

/* vc[va0.x+2]: trunc, add of the offset, the two range tests against the profile's
 * 128 constants, a clamped index and a select of zero when out of range. */
static void indirect_bounds(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    const agal_program *p = assemble(ctx, "mov op, vc[va0.x+2]\n", AGAL_VERTEX, 1, false);
    const uint32_t *w = NULL;
    size_t n = 0;
    CHECK(p && tool_translate_words(ctx, p, NULL, &w, &n) == AGAL_OK, "indirect translate");
    char *text = w ? spirv_check_text(w, n) : NULL;
    static const char *const needles[] = {"Trunc",
                                          "OpFAdd %float",
                                          "%float_2",
                                          "OpFOrdGreaterThanEqual %bool",
                                          "OpFOrdLessThan %bool",
                                          "%float_128",
                                          "OpLogicalAnd %bool",
                                          "OpConvertFToS %int",
                                          "OpSelect %v4float",
                                          NULL};
    CHECK(text && contains_all(text, needles), "indirect:\n%s", text ? text : "");
    free(text);
    agal_context_free(ctx);
}

/* A disassembly longer than one string instruction holds (65535 words): its rest in
 * OpSourceContinued and, with -gnonsemantic, DebugSourceContinued, each valid, and
 * the text whole again when its pieces are joined. */
static void long_source(void)
{
    enum { TOKENS = 6000, OP_SOURCE_CONTINUED = 2, OP_STRING = 7, DEBUG_SOURCE_CONTINUED = 102 };
    static const char tex[] = "tex ft0, v0, fs0 <2d, linear, miplinear, repeat>\n", last[] = "mov oc0, ft0\n";
    char *text = malloc((TOKENS - 1) * (sizeof tex - 1) + sizeof last);
    if (!text) return;
    for (size_t i = 0; i < TOKENS - 1; i++) memcpy(text + i * (sizeof tex - 1), tex, sizeof tex - 1);
    memcpy(text + (TOKENS - 1) * (sizeof tex - 1), last, sizeof last);
    agal_context *ctx = agal_context_new(NULL, NULL);
    const agal_program *prog = assemble(ctx, text, AGAL_FRAGMENT, 2, true);
    agal_translate_options opt = agal_translate_options_init();
    opt.debug_info = opt.debug_info_nonsemantic = true;
    const uint32_t *w = NULL;
    size_t n = 0, continued = 0, debug_continued = 0, text_bytes = 0;
    CHECK(prog && tool_translate_words(ctx, prog, &opt, &w, &n) == AGAL_OK, "long source: not translated");
    CHECK(!w || check_program(ctx, prog, &opt, "long source"), "long source: invalid");
    for (size_t i = 5; w && i < n && w[i] >> 16; i += w[i] >> 16) {
        continued += (w[i] & 0xffff) == OP_SOURCE_CONTINUED;
        size_t len = (w[i] & 0xffff) == OP_STRING ? strlen((const char *)&w[i + 2]) : 0;
        text_bytes += len > 100 ? len : 0; /* the text's pieces, not "fragment.agal" or "main" */
        debug_continued += (w[i] & 0xffff) == OP_EXT_INST && w[i + 4] == DEBUG_SOURCE_CONTINUED;
    }
    /* 6000 lines of 49 bytes or so: two pieces of at most 262,131 bytes */
    const char *dis = NULL;
    CHECK(prog && agal_disassemble_program(ctx, prog, 0, &dis) == AGAL_OK, "long source: no disassembly");
    CHECK(continued == 1 && debug_continued == 1 && dis && text_bytes == strlen(dis),
          "long source: %zu OpSourceContinued, %zu DebugSourceContinued, %zu bytes of text in OpStrings", continued,
          debug_continued, text_bytes);
    agal_context_free(ctx);
    free(text);
}

static int run_golden(void)
{
    golden_minimal_vertex();
    golden_fragment_features();
    lenient_programs();
    golden_blocks();
    hoisted_textures();
    xfb_capture();
    indirect_bounds();
    masked_write_chain();
    allocation_failures();
    long_source();
    agal_context *ctx = agal_context_new(NULL, NULL);
    const uint32_t *w = NULL;
    size_t n = 0;
    CHECK(tool_translate_words(ctx, NULL, NULL, &w, &n) == AGAL_ERR_ARG, "NULL program");
    agal_context_free(ctx);
    printf("golden: %d failures\n", failures);
    return failures != 0;
}

/* ---- reflection --------------------------------------------------------------------- */

static const char *jstr(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static double jnum(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static bool jtrue(const cJSON *o, const char *key) { return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, key)); }

/* "register": "mask" pairs of a JSON array, joined as "va0=xyzw va1=zw". */
static void jmasks(const cJSON *o, const char *key, char *out, size_t size)
{
    out[0] = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(o, key))
    {
        size_t n = strlen(out);
        snprintf(out + n, size - n, "%s%s=%s", n ? " " : "", jstr(e, "register"), jstr(e, "mask"));
    }
}

static void jranges(const cJSON *o, char *out, size_t size)
{
    out[0] = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(o, "constants"))
    {
        size_t n = strlen(out);
        snprintf(out + n, size - n, "%s%g+%g", n ? " " : "", jnum(e, "first"), jnum(e, "count"));
    }
}

static cJSON *reflect_json(agal_context *ctx, const agal_program *p, agal_reflection *r)
{
    if (agal_reflect(ctx, p, r) != AGAL_OK) return NULL;
    char *json = agal_reflect_json(ctx, r);
    return json ? cJSON_Parse(json) : NULL;
}

static void reflect_vertex(agal_context *ctx)
{
    /* vc0-3 (matrix rows), vc5 (x only), vc7 and vc8 (dead code, still named):
     * ranges 0+4, 5+1, 7+2. va1 is read through .zw at positions x, y: z and w. */
    const char *src = "m44 op, va0, vc0\n"
                      "mul vt0.xy, va1.zw, vc5.x\n"
                      "mov v0, va2\n"
                      "mov v1.xy, vt0.xy\n"
                      "add vt1, vc7, va2\n"
                      "mov vt2, vc8\n";
    const agal_program *p = assemble(ctx, src, AGAL_VERTEX, 1, false);
    agal_reflection r;
    cJSON *j = p ? reflect_json(ctx, p, &r) : NULL;
    CHECK(j, "vertex reflection");
    if (!j) return;
    char buf[256];
    CHECK(jnum(j, "version") == 1 && !strcmp(jstr(j, "stage"), "vertex") && !strcmp(jstr(j, "profile"), "baseline") &&
              jnum(j, "tokens") == 6,
          "header fields");
    jranges(j, buf, sizeof buf);
    CHECK(!strcmp(buf, "0+4 5+1 7+2"), "constants %s", buf);
    CHECK(!jtrue(j, "constants_indirect"), "not indirect");
    jmasks(j, "attributes", buf, sizeof buf);
    CHECK(!strcmp(buf, "va0=xyzw va1=zw va2=xyzw"), "attributes %s", buf);
    jmasks(j, "varyings", buf, sizeof buf);
    CHECK(!strcmp(buf, "v0=xyzw v1=xy"), "varyings %s", buf);
    jmasks(j, "outputs", buf, sizeof buf);
    CHECK(!strcmp(buf, "op=xyzw"), "outputs %s", buf);
    CHECK(r.nconstants == 3 && r.constants[2].first == 7 && r.constants[2].count == 2, "struct ranges");
    CHECK(!jtrue(j, "derivatives") && !jtrue(j, "kil") && !jtrue(j, "depth_output") && !jtrue(j, "iid"), "flags");
    cJSON_Delete(j);

    /* An indirect read marks the whole file (baseline vc: 128) and its index. */
    p = assemble(ctx, "mov op, vc[va0.y+3]\n", AGAL_VERTEX, 1, false);
    j = p ? reflect_json(ctx, p, &r) : NULL;
    CHECK(j, "indirect reflection");
    if (!j) return;
    jranges(j, buf, sizeof buf);
    CHECK(!strcmp(buf, "0+128") && jtrue(j, "constants_indirect"), "indirect constants %s", buf);
    jmasks(j, "attributes", buf, sizeof buf);
    CHECK(!strcmp(buf, "va0=y"), "index attribute %s", buf);
    cJSON_Delete(j);
}

static void reflect_fragment(agal_context *ctx)
{
    const char *src = "tex ft0, v0, fs3 <2d,linear,miplinear,repeat,ignoresampler,0.5>\n"
                      "ddy ft1, v1.x\n"
                      "kil ft0.w\n"
                      "mov fd.x, v1.y\n"
                      "add oc, ft0, ft1\n";
    const agal_program *p = assemble(ctx, src, AGAL_FRAGMENT, 2, false);
    agal_reflection r;
    cJSON *j = p ? reflect_json(ctx, p, &r) : NULL;
    CHECK(j, "fragment reflection");
    if (!j) return;
    char buf[256];
    jmasks(j, "varyings", buf, sizeof buf);
    CHECK(!strcmp(buf, "v0=xy v1=xy"), "fragment varyings %s", buf);
    jmasks(j, "outputs", buf, sizeof buf);
    CHECK(!strcmp(buf, "oc0=xyzw"), "fragment outputs %s", buf);
    jranges(j, buf, sizeof buf);
    CHECK(!strcmp(buf, ""), "no constants %s", buf);
    CHECK(jtrue(j, "derivatives") && jtrue(j, "kil") && jtrue(j, "depth_output") && !jtrue(j, "iid"), "fragment flags");
    const cJSON *smps = cJSON_GetObjectItemCaseSensitive(j, "samplers");
    CHECK(cJSON_GetArraySize(smps) == 1, "one sampler");
    const cJSON *s0 = cJSON_GetArrayItem(smps, 0);
    CHECK(s0 && !strcmp(jstr(s0, "register"), "fs3") && jnum(s0, "binding") == 5 &&
              !strcmp(jstr(s0, "dimension"), "2d") && !strcmp(jstr(s0, "format"), "rgba") &&
              !strcmp(jstr(s0, "filter"), "linear") && !strcmp(jstr(s0, "mipmap"), "miplinear") &&
              !strcmp(jstr(s0, "wrap"), "repeat") && jnum(s0, "bias") == 0.5 && jtrue(s0, "ignoresampler") &&
              !jtrue(s0, "centroid") && jtrue(s0, "tex") && !jtrue(s0, "ted"),
          "sampler fields");
    CHECK(r.nsamplers == 1 && r.samplers[0].s.bias == 4, "sampler struct (bias 4 eighths)");
    cJSON_Delete(j);
}

static int run_reflect(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    reflect_vertex(ctx);
    reflect_fragment(ctx);
    agal_context_free(ctx);
    printf("reflect: %d failures\n", failures);
    return failures != 0;
}

/* ---- threads ------------------------------------------------------------------------- */

enum { THREADS = 4, THREAD_PROGRAMS = 40 };

typedef struct job {
    uint32_t hash[THREAD_PROGRAMS];
    size_t words[THREAD_PROGRAMS];
} job;

/* Translates the same seeded programs in every thread, each with its own context;
 * the library has no global state, so every thread must produce the same modules. */
static void *thread_main(void *arg)
{
    job *j = arg;
    gen_program *gp = malloc(sizeof *gp);
    uint8_t *bytes = malloc(GEN_MAX_BYTES);
    agal_context *ctx = agal_context_new(NULL, NULL);
    for (unsigned i = 0; gp && bytes && ctx && i < THREAD_PROGRAMS; i++) {
        gen_program_make(gp, 5000 + i, (agal_stage)(i % 2), 1 + i % 3, NULL);
        size_t n = gen_program_encode(gp, bytes, GEN_MAX_BYTES);
        const agal_program *p = NULL;
        const uint32_t *w = NULL;
        size_t nw = 0;
        if (agal_decode(ctx, bytes, n, NULL, &p) == AGAL_OK && tool_translate_words(ctx, p, NULL, &w, &nw) == AGAL_OK) {
            uint32_t h = 2166136261u;
            for (size_t k = 0; k < nw; k++) h = (h ^ w[k]) * 16777619u;
            j->hash[i] = h;
            j->words[i] = nw;
        }
        agal_context_reset(ctx);
    }
    agal_context_free(ctx);
    free(bytes);
    free(gp);
    return NULL;
}

static int run_threads(void)
{
    static job jobs[THREADS];
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) CHECK(pthread_create(&t[i], NULL, thread_main, &jobs[i]) == 0, "pthread_create");
    for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
    for (unsigned k = 0; k < THREAD_PROGRAMS; k++) {
        CHECK(jobs[0].words[k] > 5, "program %u not translated", k);
        for (int i = 1; i < THREADS; i++)
            CHECK(jobs[i].words[k] == jobs[0].words[k] && jobs[i].hash[k] == jobs[0].hash[k],
                  "thread %d differs on program %u", i, k);
    }
    printf("threads: %d failures\n", failures);
    return failures != 0;
}

/* ---- mutated programs ------------------------------------------------------------- */

/* Flips random bits of generated programs; whatever agal_decode still accepts
 * (strict or lenient) must translate to valid SPIR-V: the emitter may not rely on
 * the generator's habits. */
static int run_mutate(unsigned count)
{
    static gen_program gp;
    static uint8_t bytes[GEN_MAX_BYTES];
    agal_context *ctx = agal_context_new(NULL, NULL);
    gen_rng rng;
    gen_rng_seed(&rng, 99);
    unsigned accepted = 0;
    for (unsigned i = 0; i < count; i++) {
        gen_options gopt = {.max_tokens = 24};
        gen_program_make(&gp, 20000 + i, (agal_stage)(i % 2), 1 + i % 3, &gopt);
        size_t n = gen_program_encode(&gp, bytes, sizeof bytes);
        unsigned flips = 1 + gen_rng_below(&rng, 3);
        for (unsigned f = 0; f < flips && n > AGAL_HEADER_SIZE; f++) {
            size_t at = AGAL_HEADER_SIZE + gen_rng_below(&rng, (unsigned)(n - AGAL_HEADER_SIZE));
            bytes[at] ^= (uint8_t)(1u << gen_rng_below(&rng, 8));
        }
        for (int lenient = 0; lenient < 2; lenient++) {
            agal_decode_options dopt = {.size = sizeof(agal_decode_options), .lenient = lenient != 0};
            const agal_program *p = NULL;
            if (agal_decode(ctx, bytes, n, &dopt, &p) != AGAL_OK) continue;
            char what[64];
            snprintf(what, sizeof what, "mutation %u%s", i, lenient ? " lenient" : "");
            CHECK(check_program(ctx, p, NULL, what), "%s: invalid SPIR-V", what);
            accepted++;
        }
        agal_context_reset(ctx);
    }
    agal_context_free(ctx);
    CHECK(accepted > count / 10, "only %u mutated programs accepted", accepted);
    printf("mutate: %u programs, %u accepted, %d failures\n", count, accepted, failures);
    return failures != 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "corpus")) return run_corpus(argv[2]);
    if (argc >= 3 && !strcmp(argv[1], "random")) return run_random((unsigned)strtoul(argv[2], NULL, 10));
    if (argc >= 2 && !strcmp(argv[1], "golden")) return run_golden();
    if (argc >= 2 && !strcmp(argv[1], "reflect")) return run_reflect();
    if (argc >= 2 && !strcmp(argv[1], "threads")) return run_threads();
    if (argc >= 3 && !strcmp(argv[1], "mutate")) return run_mutate((unsigned)strtoul(argv[2], NULL, 10));
    fprintf(stderr, "usage: test_spirv corpus DIR | random N | mutate N | golden | reflect | threads\n");
    return 2;
}
