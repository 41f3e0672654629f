/* gen_texts: prints AGAL texts and the bytes agal_assemble makes of them, for
 * test_asm_vs_adobe.py to assemble with Adobe's assembler (adobe_asm.py) and compare.
 *
 *   gen_texts N
 *
 * N generated valid programs (gen.h, both stages, versions 1..3), then N programs
 * of random tokens whose every register name Adobe accepts for the stage and whose
 * numbers are inside its limits (the oracle has no semantic checks, so it accepts
 * them although Flash would not). Each is printed as
 *   === <stage> <version>
 *   <text from agal_disassemble>
 *   === <hex of agal_assemble(text)>                                              */
#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void wr32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* A register type Adobe's assembler accepts in the stage, and a number in its range. */
static void pick_reg(gen_rng *r, agal_stage stage, uint32_t version, unsigned *type, unsigned *num)
{
    static const uint8_t vtypes[] = {AGAL_REG_ATTRIBUTE, AGAL_REG_CONSTANT, AGAL_REG_TEMP, AGAL_REG_OUTPUT,
                                     AGAL_REG_VARYING, AGAL_REG_IID};
    static const uint8_t ftypes[] = {AGAL_REG_CONSTANT, AGAL_REG_TEMP, AGAL_REG_OUTPUT, AGAL_REG_VARYING,
                                     AGAL_REG_SAMPLER, AGAL_REG_DEPTH};
    unsigned n = stage == AGAL_VERTEX ? (version >= 3 ? 6 : 5) : (version >= 2 ? 6 : 5);
    *type = stage == AGAL_VERTEX ? vtypes[gen_rng_below(r, n)] : ftypes[gen_rng_below(r, n)];
    unsigned count = agal_reg_count((agal_profile)version, stage, (agal_regtype)*type);
    if (*type == AGAL_REG_OUTPUT && stage == AGAL_VERTEX) count = 1;
    if (*type == AGAL_REG_DEPTH || *type == AGAL_REG_IID) count = 1;
    *num = gen_rng_below(r, count ? count : 1);
}

static uint64_t source(gen_rng *r, agal_stage stage, uint32_t version)
{
    unsigned type, num;
    pick_reg(r, stage, version, &type, &num);
    uint64_t s = (uint64_t)(gen_rng_next(r) & 0xff) << 24;
    if (stage == AGAL_VERTEX && gen_rng_below(r, 3) == 0) {
        unsigned itype, inum;
        pick_reg(r, stage, version, &itype, &inum);
        return s | inum | (uint64_t)gen_rng_below(r, 256) << 16 | (uint64_t)AGAL_REG_CONSTANT << 32 |
               (uint64_t)itype << 40 | (uint64_t)gen_rng_below(r, 4) << 48 | (uint64_t)1 << 63;
    }
    return s | num | (uint64_t)type << 32;
}

static uint64_t sampler(gen_rng *r)
{
    return (uint64_t)gen_rng_below(r, 16) | (uint64_t)(gen_rng_next(r) & 0xff) << 16 | (uint64_t)5 << 32 |
           (uint64_t)gen_rng_below(r, 4) << 40 | (uint64_t)gen_rng_below(r, 3) << 44 |
           (uint64_t)gen_rng_below(r, 8) << 48 | (uint64_t)gen_rng_below(r, 4) << 52 |
           (uint64_t)gen_rng_below(r, 3) << 56 | (uint64_t)gen_rng_below(r, 6) << 60;
}

static size_t raw_program(gen_rng *r, agal_stage stage, uint32_t version, uint8_t *buf)
{
    size_t n = 1 + gen_rng_below(r, 20);
    buf[0] = AGAL_MAGIC;
    wr32(buf + 1, version);
    buf[5] = AGAL_TYPE_ID;
    buf[6] = (uint8_t)stage;
    for (size_t k = 0; k < n; k++) {
        const agal_opinfo *info;
        do info = agal_opinfo_get(gen_rng_below(r, AGAL_OP_LIMIT));
        while (!info || info->min_version > version || ((info->flags & AGAL_OPF_FRAGMENT) && stage == AGAL_VERTEX));
        uint32_t d = 0;
        uint64_t a = 0, b = 0;
        if (info->operands & AGAL_OPND_D) {
            unsigned type, num;
            pick_reg(r, stage, version, &type, &num);
            d = num | (1 + gen_rng_below(r, 15)) << 16 | type << 24;
        }
        if (info->operands & AGAL_OPND_A) a = source(r, stage, version);
        if (info->operands & AGAL_OPND_B) b = source(r, stage, version);
        if (info->operands & AGAL_OPND_S) b = sampler(r);
        uint8_t *p = buf + AGAL_HEADER_SIZE + 24 * k;
        wr32(p, info->code);
        wr32(p + 4, d);
        wr32(p + 8, (uint32_t)a);
        wr32(p + 12, (uint32_t)(a >> 32));
        wr32(p + 16, (uint32_t)b);
        wr32(p + 20, (uint32_t)(b >> 32));
    }
    return AGAL_HEADER_SIZE + 24 * n;
}

static int print_one(agal_context *ctx, const uint8_t *bytes, size_t size)
{
    const char *text;
    const uint8_t *again;
    size_t n;
    if (agal_disassemble(ctx, bytes, size, AGAL_DIS_STRICT, &text) ||
        agal_assemble(ctx, text, strlen(text), (agal_stage)bytes[6], bytes[1], AGAL_ASM_STRICT, &again, &n)) {
        fprintf(stderr, "gen_texts: a program does not disassemble and assemble\n");
        return 1;
    }
    printf("=== %s %u\n%s=== ", bytes[6] ? "fragment" : "vertex", bytes[1], text);
    for (size_t i = 0; i < n; i++) printf("%02x", again[i]);
    printf("\n");
    agal_context_reset(ctx);
    return 0;
}

int main(int argc, char **argv)
{
    int count = argc > 1 ? atoi(argv[1]) : 200, rc = 0;
    agal_context *ctx = agal_context_new(NULL, NULL);
    gen_program *gp = malloc(sizeof *gp);
    uint8_t *buf = malloc(GEN_MAX_BYTES);
    if (!ctx || !gp || !buf) return 1;
    gen_rng r;
    gen_rng_seed(&r, 99);
    for (int i = 0; i < count && !rc; i++) {
        agal_stage stage = (agal_stage)(i & 1);
        uint32_t version = 1 + (uint32_t)(i / 2 % 3);
        gen_program_make(gp, (uint64_t)i * 101 + 3, stage, version, NULL);
        rc = print_one(ctx, buf, gen_program_encode(gp, buf, GEN_MAX_BYTES));
    }
    for (int i = 0; i < count && !rc; i++)
        rc = print_one(ctx, buf, raw_program(&r, (agal_stage)(i & 1), 1 + (uint32_t)(i / 2 % 3), buf));
    free(gp);
    free(buf);
    agal_context_free(ctx);
    return rc;
}
