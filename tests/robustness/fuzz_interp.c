/* fuzz_interp.c: libFuzzer target over the reference interpreter: a program that
 * decodes (leniently), run with fuzzed constants, inputs and textures (any sizes and
 * mip counts the interpreter accepts, any float bits: NaN, infinities, huge
 * coordinates and LOD biases) and fuzzed sampler slots (setSamplerStateAt calls
 * with any slot and values, none at all, or a slot poked out of range). It must
 * never crash, read out of bounds or hang.
 * Build with -Dfuzz=true (clang).
 *
 * Input: u16 program length L, then L bytes of program, then the bytes the
 * constants, invocations, textures and slots are made of (zeros past the end). */
#include "agal/agal.h"
#include "agal/interp.h"
#include "agal/stage3d.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct stream {
    const uint8_t *p;
    size_t n;
} stream;

static uint8_t byte(stream *s)
{
    if (!s->n) return 0;
    s->n--;
    return *s->p++;
}

static float number(stream *s)
{
    uint32_t bits = 0;
    for (int i = 0; i < 4; i++) bits |= (uint32_t)byte(s) << (8 * i);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

enum { MAX_SIDE = 8, MAX_LEVELS = 4, MAX_TEXTURES = 16 };

typedef struct texture_store {
    float texels[MAX_LEVELS * 6][MAX_SIDE * MAX_SIDE][4];
    const float *images[MAX_LEVELS * 6];
} texture_store;

/* The slots of a fuzzed call sequence after setProgram; NULL (the interpreter's
 * default) for a zero first byte. Values past the enums test both the slots'
 * refusal and, poked in directly, the interpreter's. */
static const agal_sampler_slots *make_slots(stream *st, const agal_program *p, agal_sampler_slots *slots)
{
    unsigned calls = byte(st) % 5;
    if (!calls) return NULL;
    agal_slots_init(slots);
    agal_slots_set_program(slots, p);
    for (unsigned i = 1; i < calls; i++)
        agal_slots_set_state(slots, byte(st) % 18, (agal_sampler_state){byte(st) % 5, byte(st) % 7, byte(st) % 4});
    if (byte(st) == 0xff) slots->slot[byte(st) % AGAL_SAMPLER_SLOTS].filter = byte(st);
    return slots;
}

/* A texture for sampler s of the program, of fuzzed size, levels and texels. */
static void make_texture(stream *st, const agal_reflect_sampler *s, agal_texture *t, texture_store *store)
{
    unsigned w = 1 + byte(st) % MAX_SIDE, h = s->s.dim == AGAL_DIM_CUBE ? w : 1 + byte(st) % MAX_SIDE;
    unsigned m = w > h ? w : h, max_levels = 1;
    while (m > 1) m >>= 1, max_levels++;
    unsigned levels = 1 + byte(st) % (max_levels < MAX_LEVELS ? max_levels : MAX_LEVELS);
    unsigned faces = s->s.dim == AGAL_DIM_CUBE ? 6 : 1;
    for (unsigned i = 0; i < levels * faces; i++) {
        for (unsigned k = 0; k < MAX_SIDE * MAX_SIDE; k++)
            for (unsigned c = 0; c < 4; c++) store->texels[i][k][c] = number(st);
        store->images[i] = &store->texels[i][0][0];
    }
    *t = (agal_texture){
        .sampler = s->num, .dim = s->s.dim, .width = w, .height = h, .levels = levels, .images = store->images};
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    size_t len = (size_t)data[0] | (size_t)data[1] << 8;
    if (len > size - 2) len = size - 2;
    stream st = {data + 2 + len, size - 2 - len};
    agal_context *ctx = agal_context_new(NULL, NULL);
    if (!ctx) return 0;
    const agal_program *p = NULL;
    agal_decode_options lenient = {.size = sizeof(agal_decode_options), .lenient = true};
    agal_reflection r;
    if (agal_decode(ctx, data + 2, len, &lenient, &p) != AGAL_OK || agal_reflect(ctx, p, &r) != AGAL_OK) {
        agal_context_free(ctx);
        return 0;
    }
    static float constants[256][4];
    size_t nconstants = byte(&st);
    for (size_t i = 0; i < nconstants; i++)
        for (int c = 0; c < 4; c++) constants[i][c] = number(&st);
    static texture_store stores[MAX_TEXTURES];
    agal_texture textures[MAX_TEXTURES];
    size_t ntextures = 0;
    for (size_t i = 0; i < r.nsamplers && ntextures < MAX_TEXTURES; i++, ntextures++)
        make_texture(&st, &r.samplers[i], &textures[ntextures], &stores[ntextures]);
    agal_sampler_slots slots;
    agal_interp_env env = {.constants = constants,
                           .nconstants = nconstants,
                           .textures = textures,
                           .ntextures = ntextures,
                           .coarse_derivatives = byte(&st) & 1,
                           .slots = make_slots(&st, p, &slots)};
    enum { N = 8 };
    agal_interp_invocation in[N];
    agal_interp_result out[N];
    for (unsigned i = 0; i < N; i++) {
        for (unsigned k = 0; k < AGAL_INTERP_MAX_INPUTS; k++)
            for (int c = 0; c < 4; c++) in[i].in[k][c] = number(&st);
        in[i].instance_id = byte(&st);
    }
    agal_interp_run(ctx, p, &env, in, N, out);
    agal_context_free(ctx);
    return 0;
}
