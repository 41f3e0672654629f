/* test_stack.c: every shape of shapes.h at 8192 tokens (the lenient cap) goes
 * through every stage on a thread with a 256 KiB stack, as an emulator's worker
 * thread may have: assembly, decoding, SPIR-V, GLSL, -t ir, reflection,
 * disassembly and the interpreter. Recursion must not grow with the program, so
 * none overflows; the stack each shape used is printed (the thread's stack is
 * painted first and the untouched part measured after). */
#include "agal/agal.h"
#include "toolio.h"
#include "translated.h"
#include "agal/interp.h"
#include "agal/text.h"
#include "check.h"
#include "shapes.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { STACK = 256 * 1024, TOKENS = 8192 };

typedef struct job {
    shape s;
    const char *text;
    agal_stage stage;
    int failed_at; /* 0: all passed; else the step that failed */
} job;

static void *run(void *arg)
{
    job *j = arg;
    agal_context *ctx = agal_context_new(NULL, NULL);
    const uint8_t *bytes = NULL;
    size_t size = 0;
    const agal_program *p = NULL;
    agal_decode_options dopt = {.size = sizeof(agal_decode_options), .lenient = true};
    const uint32_t *words;
    size_t nwords;
    const char *text;
    agal_reflection r;
    j->failed_at = 1;
    if (!ctx || agal_assemble(ctx, j->text, strlen(j->text), j->stage, 2, AGAL_ASM_STRICT, &bytes, &size)) goto done;
    j->failed_at = 2;
    if (agal_decode(ctx, bytes, size, &dopt, &p)) goto done;
    j->failed_at = 3;
    if (tool_translate_words(ctx, p, NULL, &words, &nwords)) goto done;
    j->failed_at = 4;
    if (tool_translate_text(ctx, p, AGAL_TARGET_GLSL, NULL, &text, NULL)) goto done;
    j->failed_at = 5;
    if (tool_translate_text(ctx, p, AGAL_TARGET_IR, NULL, &text, NULL)) goto done;
    j->failed_at = 6;
    if (agal_reflect(ctx, p, &r) || !agal_reflect_json(ctx, &r)) goto done;
    j->failed_at = 7;
    if (agal_disassemble_program(ctx, p, 0, &text)) goto done;
    j->failed_at = 8;
    agal_interp_invocation in[4];
    agal_interp_result out[4];
    memset(in, 0, sizeof in);
    static const float constants[200][4];
    agal_interp_env env = {.constants = constants, .nconstants = 200};
    if (agal_interp_run(ctx, p, &env, in, 4, out)) goto done;
    j->failed_at = 0;
done:
    agal_context_free(ctx);
    return NULL;
}

int main(void)
{
    size_t worst = 0;
    for (int s = 0; s < SHAPE_COUNT; s++) {
        job j = {.s = (shape)s};
        char *text = shape_text((shape)s, TOKENS, &j.stage);
        CHECK(text != NULL, "out of memory");
        if (!text) continue;
        j.text = text;
        unsigned char *stack = aligned_alloc(4096, STACK);
        memset(stack, 0xa5, STACK);
        pthread_attr_t attr;
        pthread_t t;
        pthread_attr_init(&attr);
        pthread_attr_setstack(&attr, stack, STACK);
        CHECK(pthread_create(&t, &attr, run, &j) == 0, "%s: no thread", shape_name((shape)s));
        pthread_join(t, NULL);
        pthread_attr_destroy(&attr);
        size_t untouched = 0; /* the stack grows down from stack + STACK */
        while (untouched < STACK && stack[untouched] == 0xa5) untouched++;
        size_t used = STACK - untouched;
        if (used > worst) worst = used;
        CHECK(j.failed_at == 0, "%s: step %d failed", shape_name((shape)s), j.failed_at);
        printf("%-18s %u tokens: %zu bytes of stack\n", shape_name((shape)s), TOKENS, used);
        free(stack);
        free(text);
    }
    printf("stack: worst %zu of %d bytes, %d failures\n", worst, STACK, failures);
    return failures != 0;
}
