/* test_shared_reads.c: the builder makes each distinct relative read once
 * (src/ir/build.c, shared_read): m33 after m34 on the same rows reads them once, and
 * so does a later token through an index register that still holds its value; a
 * rewritten index register, another component, another offset, or a read made in
 * a branch that has closed (then -> else, a block -> after it) is a new read. The
 * GLSL then makes each shared read's bounds check once, in a temporary; the
 * SPIR-V calls its one bounds-checked agal_vc once per read. Results stay the interpreter's
 * (the compare tests run the skinning pairs and random relative reads). */
#include "check.h"
#include "translated.h"
#include "ir.h"

#include <spirv/unified1/spirv.h>
#include <stdio.h>
#include <string.h>

static const agal_program *assemble(agal_context *ctx, const char *text)
{
    const uint8_t *bytes;
    size_t size;
    const agal_program *prog = NULL;
    if (agal_assemble(ctx, text, strlen(text), AGAL_VERTEX, 2, AGAL_ASM_STRICT, &bytes, &size) != AGAL_OK ||
        agal_decode(ctx, bytes, size, NULL, &prog) != AGAL_OK)
        return NULL;
    return prog;
}

static unsigned count_list(const agal_ir *ir, uint32_t l)
{
    unsigned n = 0;
    for (uint32_t i = 0; i < ir->lists[l].n; i++) {
        const agal_ir_inst *in = &ir->insts[ir->lists[l].items[i]];
        n += in->op == IR_UNIFORM_INDIRECT;
        if (in->op == IR_IF) n += count_list(ir, in->then_list) + count_list(ir, in->else_list);
    }
    return n;
}

/* Relative reads left after the pipeline; -1 when the program does not build. */
static int reads(agal_context *ctx, const char *text)
{
    agal_context_reset(ctx);
    const agal_program *prog = assemble(ctx, text);
    agal_ir *ir = NULL;
    if (!prog || agal_ir_pipeline(ctx, prog, NULL, &ir) != AGAL_OK) return -1;
    return (int)count_list(ir, 0);
}

static void expect(agal_context *ctx, const char *text, int want)
{
    int got = reads(ctx, text);
    CHECK(got == want, "%d relative reads, not %d, in\n%s", got, want, text);
}

static unsigned occurrences(const char *text, const char *what)
{
    unsigned n = 0;
    for (const char *s = text; (s = strstr(s, what)) != NULL; s += strlen(what)) n++;
    return n;
}

static const char *const skinning = "mov vt1, va0\n"
                                    "mov vt2, va1\n"
                                    "m34 vt1.xyz, va0, vc[va2.x+10]\n"
                                    "m33 vt2.xyz, va1.xyz, vc[va2.x+10]\n"
                                    "mov op, va0\n"
                                    "add v0, vt1, vt2\n";

static void emitted(agal_context *ctx)
{
    agal_context_reset(ctx);
    const agal_program *prog = assemble(ctx, skinning);
    const char *glsl = NULL;
    CHECK(prog && tool_translate_text(ctx, prog, AGAL_TARGET_GLSL, NULL, &glsl, NULL) == AGAL_OK);
    if (!glsl) return;
    /* Three rows, each bounds-checked once (the declaration is the fourth). */
    CHECK(occurrences(glsl, "agal_vc(int") == 4, "%u", occurrences(glsl, "agal_vc(int"));
    CHECK(occurrences(glsl, "agal_vc(int(va2.x) + 10)") == 1, "%u", occurrences(glsl, "agal_vc(int(va2.x) + 10)"));
    CHECK(occurrences(glsl, "agal_vc(int(va2.x) + 12)") == 1, "%u", occurrences(glsl, "agal_vc(int(va2.x) + 12)"));
    const uint32_t *w;
    size_t n;
    CHECK(tool_translate_words(ctx, prog, NULL, &w, &n) == AGAL_OK);
    unsigned calls = 0, converts = 0; /* agal_vc's calls; OpConvertFToS: its bounds-checked address */
    for (size_t i = 5; i < n; i += w[i] >> 16 ? w[i] >> 16 : n) {
        calls += (w[i] & 0xffff) == SpvOpFunctionCall;
        converts += (w[i] & 0xffff) == SpvOpConvertFToS;
    }
    CHECK(calls == 3 && converts == 1, "%u calls, %u conversions", calls, converts);
}

int main(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    CHECK(ctx != NULL);
    if (!ctx) return 1;
    expect(ctx, skinning, 3);
    /* The index register rewritten between them: the second matrix reads anew. */
    expect(ctx,
           "mov vt0, va2\n"
           "mov vt1, va0\n"
           "mov vt2, va1\n"
           "m34 vt1.xyz, va0, vc[vt0.x+10]\n"
           "add vt0, vt0, vc0\n"
           "m33 vt2.xyz, va1.xyz, vc[vt0.x+10]\n"
           "mov op, va0\n"
           "add v0, vt1, vt2\n",
           6);
    /* A temporary index unchanged between the tokens: shared. */
    expect(ctx,
           "mov vt0, va2\n"
           "mov vt1, vc[vt0.x+3]\n"
           "add vt2, va1, vc0\n"
           "add vt1, vt1, vc[vt0.x+3]\n"
           "mov op, va0\n"
           "add v0, vt1, vt2\n",
           1);
    /* Another component, another offset: their own reads. */
    expect(ctx,
           "mov vt1, vc[va2.x+3]\n"
           "add vt1, vt1, vc[va2.y+3]\n"
           "add vt1, vt1, vc[va2.x+4]\n"
           "add vt1, vt1, vc[va2.x+3]\n"
           "mov op, va0\n"
           "mov v0, vt1\n",
           3);
    /* Made before a block: reused in both branches and after. */
    expect(ctx,
           "mov vt1, vc[va2.x+3]\n"
           "ifg va0.x, vc0.x\n"
           "add vt1, vt1, vc[va2.x+3]\n"
           "els\n"
           "mul vt1, vt1, vc[va2.x+3]\n"
           "eif\n"
           "add vt1, vt1, vc[va2.x+3]\n"
           "mov op, va0\n"
           "mov v0, vt1\n",
           1);
    /* Made in the then branch: not in the else branch, not after the block. */
    expect(ctx,
           "mov vt1, va1\n"
           "ifg va0.x, vc0.x\n"
           "add vt1, vt1, vc[va2.x+3]\n"
           "els\n"
           "mul vt1, vt1, vc[va2.x+3]\n"
           "eif\n"
           "add vt1, vt1, vc[va2.x+3]\n"
           "mov op, va0\n"
           "mov v0, vt1\n",
           3);
    /* Made in an inner block: reused deeper inside it, not after it closes. */
    expect(ctx,
           "mov vt1, va1\n"
           "ifg va0.x, vc0.x\n"
           "add vt1, vt1, vc[va2.x+3]\n"
           "ifg va0.y, vc0.y\n"
           "add vt1, vt1, vc[va2.x+3]\n"
           "eif\n"
           "eif\n"
           "ifg va0.z, vc0.z\n"
           "add vt1, vt1, vc[va2.x+3]\n"
           "eif\n"
           "mov op, va0\n"
           "mov v0, vt1\n",
           2);
    emitted(ctx);
    agal_context_free(ctx);
    printf("shared_reads: %d failures\n", failures);
    return failures != 0;
}
