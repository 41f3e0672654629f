/* gen_texts: AGAL texts and what agal_assemble makes of them, for the tests that
 * compare agal_assemble with Adobe's assembler (the node oracle, adobe_asm.js).
 *
 *   gen_texts texts N     prints texts, one a line: KIND STAGE VERSION HEX-OF-TEXT
 *   gen_texts asm         reads STAGE VERSION FLAGS HEX-OF-TEXT lines, prints for each
 *                           === ok HEX-OF-BYTES     or     === error
 *                         then its diagnostics, one a line (agal_diag_format)
 *
 * The texts are agal_disassemble's (strict) of: N generated valid programs (gen.h,
 * both stages, versions 1..3; KIND valid); N programs of random tokens whose every
 * register name Adobe's assembler accepts for the stage and whose numbers are
 * inside its limits (KIND raw; it checks no semantics, so it accepts them although
 * Flash would not); N programs of random tokens of any register type, number and
 * index the syntax can write (KIND any; Adobe's assembler refuses most lines). */
#include "agal/text.h"
#include "gen.h"
#include "tokbuild.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Adobe's assembler's highest register number for the stage and version (8.9.6:
 * fs0..fs7 in every version). */
static unsigned adobe_count(agal_stage stage, uint32_t version, unsigned type)
{
    if (type == AGAL_REG_OUTPUT && stage == AGAL_VERTEX) return 1;
    if (type == AGAL_REG_DEPTH || type == AGAL_REG_IID) return 1;
    if (type == AGAL_REG_SAMPLER) return 8;
    if (type == AGAL_REG_ATTRIBUTE) return version >= 3 ? 16 : 8;
    return agal_reg_count((agal_profile)version, stage, (agal_regtype)type);
}

/* A register type Adobe's assembler accepts in the stage, and a number in its range. */
static void pick_reg(gen_rng *r, agal_stage stage, uint32_t version, unsigned *type, unsigned *num)
{
    static const uint8_t vtypes[] = {AGAL_REG_ATTRIBUTE, AGAL_REG_CONSTANT, AGAL_REG_TEMP,
                                     AGAL_REG_OUTPUT,    AGAL_REG_VARYING,  AGAL_REG_IID};
    static const uint8_t ftypes[] = {AGAL_REG_CONSTANT, AGAL_REG_TEMP,    AGAL_REG_OUTPUT,
                                     AGAL_REG_VARYING,  AGAL_REG_SAMPLER, AGAL_REG_DEPTH};
    unsigned n = stage == AGAL_VERTEX ? (version >= 3 ? 6 : 5) : (version >= 2 ? 6 : 5);
    *type = stage == AGAL_VERTEX ? vtypes[gen_rng_below(r, n)] : ftypes[gen_rng_below(r, n)];
    unsigned count = adobe_count(stage, version, *type);
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

/* Any source the syntax can write: any type, number, swizzle and index. */
/* A register number: small (the limits' range) or any 16-bit one. */
static unsigned any_num(gen_rng *r)
{
    unsigned mask = gen_rng_below(r, 2) ? 0xffff : 0x1f;
    return gen_rng_next(r) & mask;
}

static uint64_t any_source(gen_rng *r)
{
    uint64_t s = any_num(r);
    s |= (uint64_t)(gen_rng_next(r) & 0xff) << 24;
    s |= (uint64_t)gen_rng_below(r, 8) << 32;
    if (gen_rng_below(r, 3) == 0)
        s |= (uint64_t)(gen_rng_next(r) & 0xff) << 16 | (uint64_t)gen_rng_below(r, 8) << 40 |
             (uint64_t)gen_rng_below(r, 4) << 48 | (uint64_t)1 << 63;
    return s;
}

static uint64_t sampler(gen_rng *r, unsigned count)
{
    return (uint64_t)gen_rng_below(r, count) | (uint64_t)(gen_rng_next(r) & 0xff) << 16 | (uint64_t)5 << 32 |
           (uint64_t)gen_rng_below(r, 4) << 40 | (uint64_t)gen_rng_below(r, 3) << 44 |
           (uint64_t)gen_rng_below(r, 8) << 48 | (uint64_t)gen_rng_below(r, 4) << 52 |
           (uint64_t)gen_rng_below(r, 3) << 56 | (uint64_t)gen_rng_below(r, 6) << 60;
}

/* Random tokens: within Adobe's limits (any == false) or anything writable. */
static size_t raw_program(gen_rng *r, agal_stage stage, uint32_t version, bool any, uint8_t *buf)
{
    size_t n = 1 + gen_rng_below(r, 20);
    put_header(buf, stage, version);
    for (size_t k = 0; k < n; k++) {
        const agal_opinfo *info;
        do info = agal_opinfo_get(gen_rng_below(r, AGAL_OP_LIMIT));
        while (!info ||
               (!any && (info->min_version > version || ((info->flags & AGAL_OPF_FRAGMENT) && stage == AGAL_VERTEX))));
        uint32_t d = 0;
        uint64_t a = 0, b = 0;
        if (info->operands & AGAL_OPND_D) {
            unsigned type, num;
            pick_reg(r, stage, version, &type, &num);
            if (any) {
                type = gen_rng_below(r, 8);
                num = any_num(r);
            }
            d = num | (1 + gen_rng_below(r, 15)) << 16 | type << 24;
        }
        if (info->operands & AGAL_OPND_A) a = any ? any_source(r) : source(r, stage, version);
        if (info->operands & AGAL_OPND_B) b = any ? any_source(r) : source(r, stage, version);
        if (info->operands & AGAL_OPND_S) b = sampler(r, any ? 0x10000 : 8);
        put_token(buf + AGAL_HEADER_SIZE + 24 * k, &(tok){info->code, d, a, b});
    }
    return AGAL_HEADER_SIZE + 24 * n;
}

static void print_hex(const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++) printf("%02x", ((const uint8_t *)p)[i]);
}

static int print_text(agal_context *ctx, const char *kind, const uint8_t *bytes, size_t size)
{
    const char *text;
    if (agal_disassemble(ctx, bytes, size, AGAL_DIS_STRICT, &text)) {
        fprintf(stderr, "gen_texts: a %s program does not disassemble\n", kind);
        return 1;
    }
    printf("%s %s %u ", kind, bytes[6] ? "fragment" : "vertex", bytes[1]);
    print_hex(text, strlen(text));
    printf("\n");
    agal_context_reset(ctx);
    return 0;
}

static int texts(agal_context *ctx, int count)
{
    gen_program *gp = malloc(sizeof *gp);
    uint8_t *buf = malloc(GEN_MAX_BYTES);
    int rc = !gp || !buf;
    gen_rng r;
    gen_rng_seed(&r, 99);
    for (int i = 0; i < count && !rc; i++) {
        agal_stage stage = (agal_stage)(i & 1);
        uint32_t version = 1 + (uint32_t)(i / 2 % 3);
        gen_program_make(gp, (uint64_t)i * 101 + 3, stage, version, NULL);
        rc = print_text(ctx, "valid", buf, gen_program_encode(gp, buf, GEN_MAX_BYTES));
    }
    for (int any = 0; any < 2; any++)
        for (int i = 0; i < count && !rc; i++)
            rc = print_text(ctx, any ? "any" : "raw", buf,
                            raw_program(&r, (agal_stage)(i & 1), 1 + (uint32_t)(i / 2 % 3), any, buf));
    free(gp);
    free(buf);
    return rc;
}

static int hexval(int c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; }

/* One job: "STAGE VERSION FLAGS HEX". */
static int assemble_job(agal_context *ctx, char *line, char *text)
{
    char stage[16];
    unsigned version, flags;
    int at;
    if (sscanf(line, "%15s %u %u %n", stage, &version, &flags, &at) != 3) return 1;
    size_t n = 0;
    for (const char *h = line + at; hexval(h[0]) >= 0 && hexval(h[1]) >= 0; h += 2)
        text[n++] = (char)(hexval(h[0]) * 16 + hexval(h[1]));
    const uint8_t *bytes;
    size_t size;
    agal_status st = agal_assemble(ctx, text, n, strcmp(stage, "fragment") ? AGAL_VERTEX : AGAL_FRAGMENT, version,
                                   flags, &bytes, &size);
    if (st == AGAL_OK) {
        printf("=== ok ");
        print_hex(bytes, size);
        printf("\n");
    } else {
        printf("=== error\n");
    }
    char msg[1024];
    for (size_t i = 0; i < agal_diag_count(ctx); i++) {
        agal_diag_format(agal_diag_get(ctx, i), NULL, msg, sizeof msg);
        printf("%s\n", msg);
    }
    agal_context_reset(ctx);
    return st == AGAL_OK || st == AGAL_ERR_INVALID ? 0 : 1;
}

/* The whole of stdin, NUL-terminated. */
static char *read_stdin(size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        n += fread(buf + n, 1, cap - n, stdin);
        if (n < cap) break;
        char *nb = realloc(buf, cap * 2 + 1);
        if (!nb) {
            free(buf);
            return NULL;
        }
        buf = nb;
        cap *= 2;
    }
    if (buf) buf[n] = 0;
    *len = n;
    return buf;
}

static int assemble_jobs(agal_context *ctx)
{
    size_t len;
    char *in = read_stdin(&len), *text = malloc(len / 2 + 1);
    int rc = !in || !text;
    for (char *line = in; !rc && line < in + len;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        if (*line) rc = assemble_job(ctx, line, text);
        line = nl ? nl + 1 : in + len;
    }
    free(in);
    free(text);
    return rc;
}

int main(int argc, char **argv)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    if (!ctx) return 1;
    int rc = 2;
    if (argc == 3 && !strcmp(argv[1], "texts")) rc = texts(ctx, atoi(argv[2]));
    else if (argc == 2 && !strcmp(argv[1], "asm")) rc = assemble_jobs(ctx);
    else fprintf(stderr, "usage: gen_texts texts N | gen_texts asm < jobs\n");
    agal_context_free(ctx);
    return rc;
}
