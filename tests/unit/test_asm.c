/* test_asm: agal_assemble against bytes worked out by hand from Adobe's
 * AGALMiniAssembler (dest = u16 num, u8 mask, u8 type; source = u16 num, u8 offset,
 * u8 swizzle, u8 type, u8 index type, u16 index comp | 0x8000; sampler = u16 num,
 * u8 int(bias*8), u8 0, u32 5 | options), its errors and its warnings (line and
 * column), and AGAL_ASM_STRICT. The warnings' exact texts, with Adobe's bytes from
 * the oracle, are tests/oracle/test_asm_compat.py's. */
#include "agal/agal.h"
#include "agal/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_alloc.h"
#include "tokbuild.h"

static void hex(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) fprintf(stderr, "%02x%s", p[i], i % 4 == 3 ? " " : "");
    fprintf(stderr, "\n");
}

/* Assembles `text` and compares the token bytes (after the 7-byte header). */
static void expect(agal_context *ctx, agal_stage stage, uint32_t version, const char *text, const uint8_t *want,
                   size_t nwant)
{
    const uint8_t *bytes;
    size_t size;
    agal_status st = agal_assemble(ctx, text, strlen(text), stage, version, 0, &bytes, &size);
    CHECK(st == AGAL_OK, "'%s' does not assemble (%s)", text,
          agal_diag_count(ctx) ? agal_diag_get(ctx, 0)->message : "?");
    if (st) {
        agal_context_reset(ctx);
        return;
    }
    uint8_t header[7];
    put_header(header, stage, version);
    CHECK(size >= 7 && !memcmp(bytes, header, 7), "'%s': wrong header", text);
    bool same = size == 7 + nwant && !memcmp(bytes + 7, want, nwant);
    CHECK(same, "'%s': wrong bytes", text);
    if (!same) {
        fprintf(stderr, "  got  ");
        hex(bytes + 7, size - 7);
        fprintf(stderr, "  want ");
        hex(want, nwant);
    }
    agal_context_reset(ctx);
}

#define EXPECT(stage, version, text, ...) \
    do { \
        static const uint8_t want_[] = {__VA_ARGS__}; \
        expect(ctx, stage, version, text, want_, sizeof want_); \
    } while (0)

#define V AGAL_VERTEX
#define F AGAL_FRAGMENT
#define Z8 0, 0, 0, 0, 0, 0, 0, 0

static void test_instructions(agal_context *ctx)
{
    /* No mask: 0x0f; no swizzle: 0xe4; a two-operand op pads source 2 with zeros. */
    EXPECT(V, 1, "mov vt0, va0", 0x00, 0, 0, 0, 0, 0, 0x0f, 2, 0, 0, 0, 0xe4, 0, 0, 0, 0, Z8);
    EXPECT(V, 1, "m44 op, va0, vc0", 0x18, 0, 0, 0, 0, 0, 0x0f, 3, 0, 0, 0, 0xe4, 0, 0, 0, 0, 0, 0, 0, 0xe4, 1, 0, 0,
           0);
    /* .xy = xyyy = 0 | 1<<2 | 1<<4 | 1<<6 = 0x54; mask .xy = 0x03; vc[va1.x+12]: number
     * field = 1 (the index register), offset 12, index type 0, comp 0 | 0x8000. */
    EXPECT(V, 2, "mov vt0.xy, vc[va1.x+12].xy", 0x00, 0, 0, 0, 0, 0, 0x03, 2, 1, 0, 12, 0x54, 1, 0, 0x00, 0x80, Z8);
    EXPECT(V, 2, "add vt1.xw, vc[vt3.w+255], va2.wzyx", 0x01, 0, 0, 0, 1, 0, 0x09, 2, 3, 0, 0xff, 0xe4, 1, 2, 0x03,
           0x80, 2, 0, 0, 0x1b, 0, 0, 0, 0);
    /* .zw = zwww = 2 | 3<<2 | 3<<4 | 3<<6 = 0xfe. */
    EXPECT(F, 1, "mul ft2.z, v1.zw, fc27.y", 0x03, 0, 0, 0, 2, 0, 0x04, 2, 1, 0, 0, 0xfe, 4, 0, 0, 0, 27, 0, 0, 0x55, 1,
           0, 0, 0);
    /* Register numbers are u16. */
    EXPECT(V, 2, "mov vt0, vc249", 0x00, 0, 0, 0, 0, 0, 0x0f, 2, 249, 0, 0, 0xe4, 1, 0, 0, 0, Z8);
    /* kil: a zero destination, then source 1, then 8 zero bytes. */
    EXPECT(F, 1, "kil ft0.w", 0x27, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 2, 0, 0, 0, Z8);
    EXPECT(F, 2, "ife ft0.x, fc0.y", 0x1c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 2, 0, 0, 0, 0, 0, 0, 0x55, 1, 0, 0, 0);
    EXPECT(F, 2, "ifl v2.z, ft3.w", 0x1f, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0xaa, 4, 0, 0, 0, 3, 0, 0, 0xff, 2, 0, 0, 0);
    EXPECT(F, 2, "els\neif", 0x20, 0, 0, 0, Z8, Z8, 0, 0, 0, 0, 0x21, 0, 0, 0, Z8, Z8, 0, 0, 0, 0);
    /* fd: type 6, mask .x; oc1: type 3 number 1; aliases fo = oc, fi = v, od = fd. */
    EXPECT(F, 2, "mov fd.x, ft0.z", 0x00, 0, 0, 0, 0, 0, 0x01, 6, 0, 0, 0, 0xaa, 2, 0, 0, 0, Z8);
    EXPECT(F, 2, "mov oc1.xz, v9", 0x00, 0, 0, 0, 1, 0, 0x05, 3, 9, 0, 0, 0xe4, 4, 0, 0, 0, Z8);
    EXPECT(F, 2, "mov fo1.xz, fi9", 0x00, 0, 0, 0, 1, 0, 0x05, 3, 9, 0, 0, 0xe4, 4, 0, 0, 0, Z8);
    EXPECT(F, 2, "mov od.x, i0.z", 0x00, 0, 0, 0, 0, 0, 0x01, 6, 0, 0, 0, 0xaa, 4, 0, 0, 0, Z8);
    EXPECT(V, 1, "mov vo, vi3", 0x00, 0, 0, 0, 0, 0, 0x0f, 3, 3, 0, 0, 0xe4, 4, 0, 0, 0, Z8);
    /* iid: type 7; as an index register (type 7, comp x). Adobe takes the number from
     * the first digits inside the brackets, so vc[iid.x+5] has number 5. */
    EXPECT(V, 3, "mov vt0, iid", 0x00, 0, 0, 0, 0, 0, 0x0f, 2, 0, 0, 0, 0xe4, 7, 0, 0, 0, Z8);
    EXPECT(V, 3, "mov vt1, vc[iid0.y+5]", 0x00, 0, 0, 0, 1, 0, 0x0f, 2, 0, 0, 5, 0xe4, 1, 7, 0x01, 0x80, Z8);
    EXPECT(V, 3, "mov vt1, vc[iid.y+5]", 0x00, 0, 0, 0, 1, 0, 0x0f, 2, 5, 0, 5, 0xe4, 1, 7, 0x01, 0x80, Z8);
    EXPECT(V, 3, "m44 op, va15, vc[vc3.z]", 0x18, 0, 0, 0, 0, 0, 0x0f, 3, 15, 0, 0, 0xe4, 0, 0, 0, 0, 3, 0, 0, 0xe4, 1,
           1, 0x02, 0x80);
}

static void test_samplers(agal_context *ctx)
{
    /* 5 | linear (1<<28) | repeat (1<<20) | miplinear (2<<24) = 0x12100005; bias -0.5 -> int(-4) = 0xfc. */
    EXPECT(F, 1, "tex ft0, v0, fs1 <2d,linear,repeat,miplinear,-0.5>", 0x28, 0, 0, 0, 0, 0, 0x0f, 2, 0, 0, 0, 0xe4, 4,
           0, 0, 0, 1, 0, 0xfc, 0, 0x05, 0x00, 0x10, 0x12);
    /* 5 | dxt5 (2<<8) | cube (1<<12) | centroid|single (3<<16) | mipnearest (1<<24) = 0x01031205; 0.25 -> 2. */
    EXPECT(F, 1, "tex ft1.xyz, v1, fs2 <cube, nearest, clamp, mipnearest, dxt5, centroid, single, 0.25>", 0x28, 0, 0, 0,
           1, 0, 0x07, 2, 1, 0, 0, 0xe4, 4, 0, 0, 0, 2, 0, 0x02, 0, 0x05, 0x12, 0x03, 0x01);
    /* Later options replace earlier ones of a field (filter, dim, bias); specials OR. */
    EXPECT(F, 1, "tex ft0, v0, fs0 <linear, nearest, 2d, cube, 1, -1.5, ignoresampler, single>", 0x28, 0, 0, 0, 0, 0,
           0x0f, 2, 0, 0, 0, 0xe4, 4, 0, 0, 0, 0, 0, 0xf4, 0, 0x05, 0x10, 0x06, 0x00);
    /* Every wrap, filter and format name: clamp_u_repeat_v 2<<20, anisotropic16x 5<<28,
     * video 3<<8, compressedalpha 2<<8, 3d 2<<12 (an encoding; Flash rejects it). */
    EXPECT(F, 1, "tex ft0, v0, fs3 <clamp_u_repeat_v, anisotropic16x, video, nomip>", 0x28, 0, 0, 0, 0, 0, 0x0f, 2, 0,
           0, 0, 0xe4, 4, 0, 0, 0, 3, 0, 0, 0, 0x05, 0x03, 0x20, 0x50);
    EXPECT(F, 1, "tex ft0, v0, fs3 <repeat_u_clamp_v, anisotropic2x, compressedalpha, 3d, wrap>", 0x28, 0, 0, 0, 0, 0,
           0x0f, 2, 0, 0, 0, 0xe4, 4, 0, 0, 0, 3, 0, 0, 0, 0x05, 0x22, 0x10, 0x20);
    /* Bias: truncated toward zero, low 8 bits: 20 -> 160 = 0xa0, -16.125 -> -129 -> 0x7f,
     * 0.1 -> int(0.8) = 0; 0x1 is parseFloat's 0 (with a warning; Adobe's 2015
     * ActionScript read it with Number(), as 1, OpenFL's port reads the prefix). */
    EXPECT(F, 1, "tex ft0, v0, fs0 <20>", 0x28, 0, 0, 0, 0, 0, 0x0f, 2, 0, 0, 0, 0xe4, 4, 0, 0, 0, 0, 0, 0xa0, 0, 5, 0,
           0, 0);
    EXPECT(F, 1, "tex ft0, v0, fs0 <-16.125>", 0x28, 0, 0, 0, 0, 0, 0x0f, 2, 0, 0, 0, 0xe4, 4, 0, 0, 0, 0, 0, 0x7f, 0,
           5, 0, 0, 0);
    EXPECT(F, 1, "tex ft0, v0, fs0 <0.1>", 0x28, 0, 0, 0, 0, 0, 0x0f, 2, 0, 0, 0, 0xe4, 4, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0,
           0);
    EXPECT(F, 1, "tex ft0, v0, fs0 <0x1>", 0x28, 0, 0, 0, 0, 0, 0x0f, 2, 0, 0, 0, 0xe4, 4, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0,
           0);
    /* parseFloat reads a word's numeric prefix: 1.5x -> 1.5 -> 12; a word with none is
     * NaN -> 0, and a later word replaces an earlier bias (with warnings). */
    EXPECT(F, 1, "tex ft0, v0, fs0 <1.5x>", 0x28, 0, 0, 0, 0, 0, 0x0f, 2, 0, 0, 0, 0xe4, 4, 0, 0, 0, 0, 0, 12, 0, 5, 0,
           0, 0);
    EXPECT(F, 1, "tex ft0, v0, fs0 <2, linaer>", 0x28, 0, 0, 0, 0, 0, 0x0f, 2, 0, 0, 0, 0xe4, 4, 0, 0, 0, 0, 0, 0, 0, 5,
           0, 0, 0);
    /* The bias is the nearest double to the decimal, as ActionScript's Number() reads
     * it: 0.12499999999999999999 is 0.125 (bias 1), not just under it (0). */
    EXPECT(F, 1, "tex ft0, v0, fs0 <0.12499999999999999999>", 0x28, 0, 0, 0, 0, 0, 0x0f, 2, 0, 0, 0, 0xe4, 4, 0, 0, 0,
           0, 0, 1, 0, 5, 0, 0, 0);
    EXPECT(F, 1, "tex ft0, v0, fs0 <-1250e-4>", 0x28, 0, 0, 0, 0, 0, 0x0f, 2, 0, 0, 0, 0xe4, 4, 0, 0, 0, 0, 0, 0xff, 0,
           5, 0, 0, 0);
    /* No options: 5 only. ted is 0x26 with the same operand layout. */
    EXPECT(F, 2, "ted ft3, ft2, fs15 <2d, miplinear, linear>", 0x26, 0, 0, 0, 3, 0, 0x0f, 2, 2, 0, 0, 0xe4, 2, 0, 0, 0,
           15, 0, 0, 0, 0x05, 0x00, 0x00, 0x12);
    EXPECT(F, 1, "tex ft0, v0, fs7", 0x28, 0, 0, 0, 0, 0, 0x0f, 2, 0, 0, 0, 0xe4, 4, 0, 0, 0, 7, 0, 0, 0, 5, 0, 0, 0);
}

static void test_layout(agal_context *ctx)
{
    /* Comments, blank lines, tabs, CRLF and lone CR; header comments are comments. */
    EXPECT(F, 1, "// stage: fragment\r\n\r\n\tmov ft0, v0 // copy\r  // nothing\n\n   mov oc, ft0   \n", 0x00, 0, 0, 0,
           0, 0, 0x0f, 2, 0, 0, 0, 0xe4, 4, 0, 0, 0, Z8, 0x00, 0, 0, 0, 0, 0, 0x0f, 3, 0, 0, 0, 0xe4, 2, 0, 0, 0, Z8);
    /* A UTF-8 byte order mark is white space, as for ActionScript's trim. */
    EXPECT(V, 1, "\xef\xbb\xbfmov vt0, va0", 0x00, 0, 0, 0, 0, 0, 0x0f, 2, 0, 0, 0, 0xe4, 0, 0, 0, 0, Z8);
    /* Operands may be separated by spaces only, as Adobe's pattern allows (a warning). */
    EXPECT(V, 1, "mov vt0 va0", 0x00, 0, 0, 0, 0, 0, 0x0f, 2, 0, 0, 0, 0xe4, 0, 0, 0, 0, Z8);
    /* \f and \v are white space, not line breaks, and a line Adobe's assembler skips
     * (no known mnemonic: a warning) writes nothing. */
    EXPECT(V, 1, "\fmov\vvt0,\fva0\v\nMOV vt1, va1", 0x00, 0, 0, 0, 0, 0, 0x0f, 2, 0, 0, 0, 0xe4, 0, 0, 0, 0, Z8);
    /* An empty text is a header alone; version is written as given. */
    const uint8_t *bytes;
    size_t size;
    CHECK(agal_assemble(ctx, "", 0, AGAL_VERTEX, 3, 0, &bytes, &size) == AGAL_OK && size == 7 && bytes[1] == 3 &&
              bytes[6] == 0,
          "empty text");
    CHECK(agal_assemble(ctx, NULL, 0, AGAL_FRAGMENT, 1, 0, &bytes, &size) == AGAL_OK && size == 7, "NULL text");
    CHECK(agal_assemble(ctx, NULL, 1, AGAL_FRAGMENT, 1, 0, &bytes, &size) == AGAL_ERR_ARG, "NULL text, length 1");
    CHECK(agal_assemble(ctx, "", 0, (agal_stage)2, 1, 0, &bytes, &size) == AGAL_ERR_ARG, "stage 2");
    int stage;
    uint32_t version;
    CHECK(agal_asm_header(ctx, NULL, 0, &stage, &version) == AGAL_OK && stage == -1 && version == 0, "NULL header");
    agal_context_reset(ctx);
}

/* The first diagnostic must be "line L, column C: ..." and contain `what`. */
static void expect_error(agal_context *ctx, agal_stage stage, const char *text, int line, int column, const char *what)
{
    const uint8_t *bytes = NULL;
    size_t size = 0;
    agal_status st = agal_assemble(ctx, text, strlen(text), stage, 2, 0, &bytes, &size);
    CHECK(st == AGAL_ERR_INVALID, "'%s' assembled (status %d)", text, st);
    CHECK(bytes == NULL && size == 0, "'%s': bytes returned with an error", text);
    if (st == AGAL_ERR_INVALID && agal_diag_count(ctx) == 1) {
        const agal_diag *d = agal_diag_get(ctx, 0);
        char prefix[64];
        snprintf(prefix, sizeof prefix, "line %d, column %d: ", line, column);
        CHECK(!strncmp(d->message, prefix, strlen(prefix)), "'%s': message '%s', want prefix '%s'", text, d->message,
              prefix);
        CHECK(strstr(d->message, what) != NULL, "'%s': message '%s' does not say '%s'", text, d->message, what);
        CHECK(d->flash_id == 0, "'%s': flash id %d", text, d->flash_id);
        /* The offset points at the reported column. */
        const char *bol = text;
        for (int l = 1; l < line; l++) bol = strchr(bol, '\n') + 1;
        CHECK(d->offset == (long)(bol - text) + column - 1, "'%s': offset %ld", text, d->offset);
    } else {
        CHECK(agal_diag_count(ctx) == 1, "'%s': %zu diagnostics", text, agal_diag_count(ctx));
    }
    agal_context_reset(ctx);
}

static void test_errors(agal_context *ctx)
{
    expect_error(ctx, F, "mov ft0, v0\n\nmov ft1, xx0", 3, 10, "unknown register 'xx'");
    expect_error(ctx, F, "mov ft0", 1, 1, "takes 2 operands, found 1");
    expect_error(ctx, F, "add ft0, ft1, ft2, ft3", 1, 20, "more than three operands");
    expect_error(ctx, F, "mov ft0, 5", 1, 10, "expected a register name");
    expect_error(ctx, F, "tex ft0, v0, fs0 <2d, linear", 1, 18, "not closed");
    expect_error(ctx, V, "mov vt0, vc[va0.x+256]", 1, 19, "out of range 0..255");
    expect_error(ctx, V, "mov vt0, vc[va0+1]", 1, 16, "component");
    expect_error(ctx, V, "mov vt0, vc[va0.x+1", 1, 20, "expected ']'");
    expect_error(ctx, V, "mov vc[va0.x], vt0", 1, 5, "destination cannot be indirect");
    expect_error(ctx, V, "mov vt0, vc70000", 1, 10, "does not fit in 16 bits");
    expect_error(ctx, F, "tex ft0, v0, vc[va0.x]", 1, 14, "sampler cannot be indirect");
    /* \f is no line break: this is one line of four operands. */
    expect_error(ctx, V, "mov vt0, va0\fmov vt1, va1", 1, 14, "unknown register 'mov'");
}

/* Text Adobe's assembler reads its own way: AGAL_OK with `count` warnings, the
 * first "line L, column C: ..." containing `what` at that offset; with
 * AGAL_ASM_STRICT the same message is the one error and there are no bytes. */
static void expect_warning(agal_context *ctx, agal_stage stage, const char *text, size_t count, int line, int column,
                           const char *what)
{
    for (unsigned flags = 0; flags <= AGAL_ASM_STRICT; flags += AGAL_ASM_STRICT) {
        const uint8_t *bytes = NULL;
        size_t size = 0;
        agal_status st = agal_assemble(ctx, text, strlen(text), stage, 2, flags, &bytes, &size);
        size_t want = flags ? 1 : count;
        CHECK(st == (flags ? AGAL_ERR_INVALID : AGAL_OK), "'%s' (flags %u): status %d", text, flags, st);
        CHECK(flags ? bytes == NULL && size == 0 : bytes != NULL && size >= 7, "'%s' (flags %u): bytes", text, flags);
        CHECK(agal_diag_count(ctx) == want, "'%s' (flags %u): %zu diagnostics, want %zu", text, flags,
              agal_diag_count(ctx), want);
        for (size_t i = 0; i < agal_diag_count(ctx); i++)
            CHECK(agal_diag_get(ctx, i)->warning == !flags && agal_diag_get(ctx, i)->flash_id == 0 &&
                      agal_diag_get(ctx, i)->token == -1,
                  "'%s' (flags %u): diagnostic %zu is not a %s", text, flags, i, flags ? "error" : "warning");
        if (agal_diag_count(ctx)) {
            const agal_diag *d = agal_diag_get(ctx, 0);
            char prefix[64];
            snprintf(prefix, sizeof prefix, "line %d, column %d: ", line, column);
            CHECK(!strncmp(d->message, prefix, strlen(prefix)) && strstr(d->message, what),
                  "'%s': message '%s', want '%s...%s'", text, d->message, prefix, what);
            const char *bol = text;
            for (int l = 1; l < line; l++) bol = strchr(bol, '\n') + 1;
            CHECK(d->offset == (long)(bol - text) + column - 1, "'%s': offset %ld", text, d->offset);
            char buf[512];
            agal_diag_format(d, "f.agal", buf, sizeof buf);
            CHECK(!strncmp(buf, flags ? "f.agal: error: line " : "f.agal: warning: line ", flags ? 20 : 22),
                  "'%s': formatted as '%s'", text, buf);
        }
        agal_context_reset(ctx);
    }
}

static void test_warnings(agal_context *ctx)
{
    expect_warning(ctx, F, "movx ft0, v0", 1, 1, 4, "reads 'mov' and ignores 'x'");
    expect_warning(ctx, F, "mov ft0, v0\n  MOV ft1, v0", 1, 2, 3, "unknown mnemonic 'MOV'");
    expect_warning(ctx, F, "mov ft0, v0.xq", 1, 1, 14, "reads 'v0.x' and ignores 'q'");
    expect_warning(ctx, F, "mov ft0, v0.xyzwx", 1, 1, 17, "ignores 'x'");
    expect_warning(ctx, F, "mov ft0, v0.", 1, 1, 12, "ignores '.'");
    expect_warning(ctx, F, "mov ft0, v0.X", 1, 1, 12, "ignores '.X': components are lowercase");
    expect_warning(ctx, F, "mov ft0, , v0", 1, 1, 8, "reads 'ft0' and ignores ','");
    expect_warning(ctx, F, "mov ft0, v0,", 1, 1, 12, "reads 'v0' and ignores ','");
    expect_warning(ctx, F, "mov ft0x, v0", 1, 1, 8, "reads 'ft0' and ignores 'x'");
    expect_warning(ctx, F, "mov ft0 v0\r\nmov ft1 v0", 2, 1, 9, "missing ','");
    expect_warning(ctx, F, "tex ft0, v0, fs0 <2d, linaer>", 1, 1, 23, "unknown sampler option 'linaer'");
    expect_warning(ctx, F, "tex ft0, v0, fs0 <2d> linear", 1, 1, 23, "reads 'linear' after '>'");
    expect_warning(ctx, F, "mov ft0, v0 <2d>", 1, 1, 13, "ignores sampler options on 'mov'");
    expect_warning(ctx, F, "tex ft0, v0, fs0 <2d", 1, 1, 18, "ignores '<2d' (no '>' closes");
    expect_warning(ctx, F, "add ft0.xy, ft1,xy, fc1.zw\nmov ft0, ft3.xytz", 2, 1, 16, "reads 'ft1' and ignores ',xy'");
}

static void test_header(agal_context *ctx)
{
    int stage;
    uint32_t version;
    const char *t1 = "// Phong shading\n//   stage : fragment\n// agal-version: 3\n\nmov oc, v0\n// stage: vertex\n";
    CHECK(agal_asm_header(ctx, t1, strlen(t1), &stage, &version) == AGAL_OK && stage == AGAL_FRAGMENT && version == 3,
          "header: stage %d version %u", stage, version);
    const char *t2 = "mov op, va0\n// stage: fragment\n";
    CHECK(agal_asm_header(ctx, t2, strlen(t2), &stage, &version) == AGAL_OK && stage == -1 && version == 0,
          "header after an instruction must be ignored");
    const char *t3 = "// stage: geometry\n";
    CHECK(agal_asm_header(ctx, t3, strlen(t3), &stage, &version) == AGAL_ERR_INVALID, "bad stage accepted");
    CHECK(agal_diag_count(ctx) == 1 && strstr(agal_diag_get(ctx, 0)->message, "line 1, column 11"),
          "bad stage: wrong diagnostic");
    agal_context_reset(ctx);
    const char *t4 = "// agal-version: 4\n";
    CHECK(agal_asm_header(ctx, t4, strlen(t4), &stage, &version) == AGAL_ERR_INVALID, "version 4 accepted");
    agal_context_reset(ctx);
}

/* agal_assemble_text: the caller's stage and version win, then the comments, then
 * version 1; no stage anywhere is an error; the bytes are agal_assemble's. */
static void test_assemble_text(agal_context *ctx)
{
    const char *t = "// stage: fragment\n// agal-version: 2\nmov oc, v0\n";
    int stage = -1;
    uint32_t version = 0;
    const uint8_t *bytes, *want;
    size_t size, want_size;
    CHECK(agal_assemble_text(ctx, t, strlen(t), 0, &stage, &version, &bytes, &size) == AGAL_OK &&
              stage == AGAL_FRAGMENT && version == 2,
          "from the comments: stage %d version %u", stage, version);
    CHECK(agal_assemble(ctx, t, strlen(t), AGAL_FRAGMENT, 2, 0, &want, &want_size) == AGAL_OK && size == want_size &&
              !memcmp(bytes, want, size),
          "not agal_assemble's bytes");
    CHECK(size > 1 && bytes[1] == 2 && bytes[6] == 1, "header: version %u, type %u", bytes[1], bytes[6]);
    stage = -1, version = 3;
    CHECK(agal_assemble_text(ctx, t, strlen(t), 0, &stage, &version, &bytes, &size) == AGAL_OK && version == 3 &&
              bytes[1] == 3,
          "the caller's version wins");
    const char *bare = "mov op, va0\n";
    stage = AGAL_VERTEX, version = 0;
    CHECK(agal_assemble_text(ctx, bare, strlen(bare), 0, &stage, &version, &bytes, &size) == AGAL_OK &&
              stage == AGAL_VERTEX && version == 1 && bytes[1] == 1 && bytes[6] == 0,
          "defaults: version %u", version);
    agal_diag_clear(ctx);
    stage = -1, version = 0;
    CHECK(agal_assemble_text(ctx, bare, strlen(bare), 0, &stage, &version, &bytes, &size) == AGAL_ERR_INVALID &&
              stage == -1 && agal_diag_count(ctx) == 1 && strstr(agal_diag_get(ctx, 0)->message, "no stage"),
          "no stage anywhere");
    agal_context_reset(ctx);
}

/* agal_assemble_text_pos: each token's line and column are where its instruction
 * starts, past header comments, blank lines, comment lines, indentation, a line
 * Adobe's reading skips (no known mnemonic) and \r\n or \r line breaks; the bytes
 * are agal_assemble_text's. */
static void test_positions(agal_context *ctx)
{
    const char *t = "// stage: vertex\n"
                    "// agal-version: 2\n"
                    "\n"
                    "   m44 vt0, va0, vc0   // indented\n"
                    "// a comment line\n"
                    "\t\n"
                    "xyz vt1, va1\r\n"
                    "\tmov vt1, va1\r\n"
                    "\r"
                    "  mov op, vt0\n";
    int stage = -1;
    uint32_t version = 0;
    const uint8_t *bytes, *want;
    size_t size, want_size;
    const agal_source_pos *pos = NULL;
    CHECK(agal_assemble_text_pos(ctx, t, strlen(t), 0, &stage, &version, &bytes, &size, &pos) == AGAL_OK && pos,
          "positions: does not assemble");
    stage = -1, version = 0;
    CHECK(agal_assemble_text(ctx, t, strlen(t), 0, &stage, &version, &want, &want_size) == AGAL_OK &&
              want_size == size && !memcmp(bytes, want, size),
          "positions: not agal_assemble_text's bytes");
    static const agal_source_pos expect[] = {{4, 4}, {8, 2}, {10, 3}};
    CHECK(size == 7 + 3 * 24, "positions: %zu bytes, want 3 tokens", size);
    for (size_t i = 0; pos && size == 7 + 3 * 24 && i < 3; i++)
        CHECK(pos[i].line == expect[i].line && pos[i].column == expect[i].column,
              "token %zu at line %u, column %u; want line %u, column %u", i, pos[i].line, pos[i].column, expect[i].line,
              expect[i].column);
    pos = (const agal_source_pos *)t;
    stage = -1, version = 0;
    CHECK(agal_assemble_text_pos(ctx, "bad op\n", 7, 0, &stage, &version, &bytes, &size, &pos) == AGAL_ERR_INVALID &&
              pos == NULL,
          "no stage: positions left set");
    agal_context_reset(ctx);
}

/* With any number of allocations allowed, assembling and disassembling a program
 * big enough to need several arena blocks gives AGAL_OK or AGAL_ERR_NOMEM, and
 * every block is given back. */
static void test_out_of_memory(void)
{
    size_t len = 0, cap = 4000 * 40;
    char *text = malloc(cap);
    if (!text) {
        failures++;
        return;
    }
    /* Every 100th line with a typo: warnings (diagnostics in the arena) along the way. */
    for (int i = 0; i < 4000; i++)
        len += (size_t)snprintf(text + len, cap - len, "add vt%d.xyz, vc[va%d.y+%d].zw%s vt%d\n", i % 26, i % 8,
                                i % 256, i % 100 ? "," : "", (i + 1) % 26);
    bool reached_ok = false;
    for (int n = 0; n < 64 && !reached_ok; n++) {
        counting_alloc b; /* n allocations succeed, then every one fails */
        counting_alloc_init(&b, n);
        agal_context *ctx = agal_context_new(counting_alloc_hook, &b);
        if (!ctx) continue;
        const uint8_t *bytes;
        size_t size;
        agal_status st = agal_assemble(ctx, text, len, AGAL_VERTEX, 2, 0, &bytes, &size);
        CHECK(st == AGAL_OK || st == AGAL_ERR_NOMEM, "budget %d: assemble status %d", n, st);
        CHECK(st == AGAL_OK || b.refused > 0, "budget %d: out of memory, but no allocation was refused", n);
        const char *dis = NULL;
        if (st == AGAL_OK) {
            CHECK(size == 7 + 4000 * 24, "budget %d: %zu bytes", n, size);
            st = agal_disassemble(ctx, bytes, size, AGAL_DIS_TOKENS, &dis);
            CHECK(st == AGAL_OK || st == AGAL_ERR_NOMEM, "budget %d: disassemble status %d", n, st);
            reached_ok = st == AGAL_OK && dis && strstr(dis, "add vt25.xyz, vc[va7.y+255].zw, vt0");
        }
        agal_context_free(ctx);
        CHECK(b.live == 0 && b.blocks == 0, "budget %d: %zu bytes not freed", n, b.live);
    }
    CHECK(reached_ok, "never succeeded within 64 allocations");
    free(text);
}

int main(void)
{
    test_out_of_memory();
    agal_context *ctx = agal_context_new(NULL, NULL);
    if (!ctx) return 1;
    test_instructions(ctx);
    test_samplers(ctx);
    test_layout(ctx);
    test_errors(ctx);
    test_warnings(ctx);
    test_header(ctx);
    test_assemble_text(ctx);
    test_positions(ctx);
    agal_context_free(ctx);
    if (failures) fprintf(stderr, "%d failures\n", failures);
    return failures ? 1 : 0;
}
