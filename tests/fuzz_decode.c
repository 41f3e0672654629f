/* fuzz_decode.c: libFuzzer target over decode + validate (+ link against itself
 * when the input holds a vertex and a fragment half). Build with -Dfuzz=true (clang). */
#include "agal.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    if (!ctx) return 0;
    agal_decode_options strict = {0}, lenient = {.lenient = true};
    const agal_program *a = NULL, *b = NULL;
    agal_decode(ctx, data, size, &strict, &a);
    agal_decode(ctx, data, size, &lenient, &a);
    size_t half = size / 2;
    if (agal_decode(ctx, data, half, &lenient, &a) == AGAL_OK &&
        agal_decode(ctx, data + half, size - half, &lenient, &b) == AGAL_OK && a->stage == AGAL_VERTEX &&
        b->stage == AGAL_FRAGMENT)
        agal_link(ctx, a, b);
    agal_context_free(ctx);
    return 0;
}
