/* fuzz_decode.c: libFuzzer target over decode + validate (+ link against itself
 * when the input holds a vertex and a fragment half), the disassembler, and what
 * an emulator does with a program that decodes: SPIR-V, GLSL and reflection,
 * twice in one context with a reset between (the second run takes the arena's
 * spare blocks), which must give the same SPIR-V. Build with -Dfuzz=true (clang). */
#include "agal/agal.h"
#include "toolio.h"
#include "translated.h"
#include "agal/text.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void translate_twice(const uint8_t *data, size_t size)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    agal_decode_options lenient = {.size = sizeof(agal_decode_options), .lenient = true};
    uint32_t *first = NULL;
    size_t nfirst = 0;
    for (int round = 0; ctx && round < 2; round++) {
        const agal_program *p = NULL;
        if (agal_decode(ctx, data, size, &lenient, &p) != AGAL_OK) break;
        const uint32_t *w = NULL;
        size_t n = 0;
        const char *text = NULL;
        agal_reflection refl;
        agal_status st = tool_translate_words(ctx, p, NULL, &w, &n);
        tool_translate_text(ctx, p, AGAL_TARGET_GLSL, NULL, &text, NULL);
        if (agal_reflect(ctx, p, &refl) == AGAL_OK) agal_reflect_json(ctx, &refl);
        if (st == AGAL_OK && round == 0) {
            first = malloc(n * sizeof *first);
            if (first) memcpy(first, w, n * sizeof *first), nfirst = n;
        } else if (st == AGAL_OK && first && (n != nfirst || memcmp(first, w, n * sizeof *w) != 0)) {
            abort(); /* a reused context translated differently */
        }
        agal_context_reset(ctx);
    }
    free(first);
    agal_context_free(ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    if (!ctx) return 0;
    agal_decode_options strict = agal_decode_options_init(),
                        lenient = {.size = sizeof(agal_decode_options), .lenient = true};
    const agal_program *a = NULL, *b = NULL;
    agal_decode(ctx, data, size, &strict, &a);
    agal_decode(ctx, data, size, &lenient, &a);
    size_t half = size / 2;
    if (agal_decode(ctx, data, half, &lenient, &a) == AGAL_OK &&
        agal_decode(ctx, data + half, size - half, &lenient, &b) == AGAL_OK && a->stage == AGAL_VERTEX &&
        b->stage == AGAL_FRAGMENT)
        agal_link(ctx, a, b);
    const char *text = NULL;
    agal_disassemble(ctx, data, size, AGAL_DIS_TOKENS, &text);
    agal_context_free(ctx);
    translate_twice(data, size);
    return 0;
}
