/* test_interp.c: the reference interpreter against values worked out by hand.
 *
 * Every program is built token by token (agal_token_encode), decoded, and run; the
 * expected numbers are literals derived in the comments next to them, never taken
 * from the interpreter. */
#include "agal/agal.h"
#include "private.h"
#include "agal/interp.h"
#include "agal/stage3d.h"
#include "agal/text.h"
#include "harness_api.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "slot_orders.h"

/* ---- program builder ------------------------------------------------------ */

enum { VA = 0, C = 1, T = 2, O = 3, V = 4, FS = 5, FD = 6, IID = 7 };
enum { X = 1, Y = 2, Z = 4, W = 8, XYZ = 7, XYZW = 15 };
#define SWZ(a, b, c, d) ((uint8_t)((a) | (b) << 2 | (c) << 4 | (d) << 6))
#define ID SWZ(0, 1, 2, 3)
#define XX SWZ(0, 0, 0, 0)
#define YY SWZ(1, 1, 1, 1)
#define ZZ SWZ(2, 2, 2, 2)
#define WW SWZ(3, 3, 3, 3)

typedef struct builder {
    uint8_t bytes[7 + 24 * 64];
    size_t size;
} builder;

static void begin(builder *b, unsigned version, agal_stage stage)
{
    uint8_t h[7] = {0xA0, (uint8_t)version, 0, 0, 0, 0xA1, (uint8_t)stage};
    memcpy(b->bytes, h, 7);
    b->size = 7;
}

static agal_dest D(unsigned type, unsigned num, unsigned mask)
{
    return (agal_dest){.type = (uint8_t)type, .num = (uint16_t)num, .mask = (uint8_t)mask};
}

static agal_source S(unsigned type, unsigned num, uint8_t swz)
{
    return (agal_source){.type = (uint8_t)type, .num = (uint16_t)num, .swizzle = swz};
}

/* vc[<itype><inum>.<icomp> + offset] */
static agal_source REL(unsigned offset, unsigned itype, unsigned inum, unsigned icomp, uint8_t swz)
{
    return (agal_source){.type = C,
                         .num = (uint16_t)offset,
                         .swizzle = swz,
                         .indirect = true,
                         .index_type = (uint8_t)itype,
                         .index_num = (uint16_t)inum,
                         .index_comp = (uint8_t)icomp};
}

static void emit(builder *b, agal_token t)
{
    agal_token_encode(&t, b->bytes + b->size);
    b->size += 24;
}

static void op1(builder *b, agal_opcode op, agal_dest d, agal_source a)
{
    emit(b, (agal_token){.op = op, .dst = d, .a = a});
}

static void op2(builder *b, agal_opcode op, agal_dest d, agal_source a, agal_source s2)
{
    emit(b, (agal_token){.op = op, .dst = d, .a = a, .b = s2});
}

static void cond(builder *b, agal_opcode op, agal_source a, agal_source s2)
{
    emit(b, (agal_token){.op = op, .a = a, .b = s2});
}

static void bare(builder *b, agal_opcode op) { emit(b, (agal_token){.op = op}); }

static void texop(builder *b, agal_opcode op, agal_dest d, agal_source a, agal_sampler s)
{
    emit(b, (agal_token){.op = op, .dst = d, .a = a, .s = s});
}

static const agal_program *decode(agal_context *ctx, const builder *b, bool lenient)
{
    const agal_program *p = NULL;
    agal_decode_options opt = {.size = sizeof(agal_decode_options), .lenient = lenient};
    agal_status st = agal_decode(ctx, b->bytes, b->size, &opt, &p);
    if (st) {
        char msg[256] = "";
        if (agal_diag_count(ctx)) agal_diag_format(agal_diag_get(ctx, 0), NULL, msg, sizeof msg);
        printf("FAIL: test program does not decode: %s\n", msg);
        failures++;
        return NULL;
    }
    return p;
}

/* ---- comparisons ---------------------------------------------------------- */

static bool same(float got, float want, float tol)
{
    if (isnan(want)) return isnan(got);
    if (isinf(want)) return got == want;
    return fabsf(got - want) <= tol;
}

static void expect4(const char *what, int inv, const float got[4], float x, float y, float z, float w, float tol)
{
    float want[4] = {x, y, z, w};
    bool ok = true;
    for (int c = 0; c < 4; c++) ok &= same(got[c], want[c], tol);
    CHECK(ok, "%s [%d]: got (%.9g, %.9g, %.9g, %.9g), want (%.9g, %.9g, %.9g, %.9g)", what, inv, got[0], got[1], got[2],
          got[3], x, y, z, w);
}

static void set4(float r[4], float x, float y, float z, float w)
{
    r[0] = x;
    r[1] = y;
    r[2] = z;
    r[3] = w;
}

/* ---- componentwise opcodes: one program per opcode ------------------------- */

typedef struct cw_case {
    agal_opcode op;
    float a[4], b[4], want[4];
    float tol;
} cw_case;

static const float PI_2 = 1.57079637f, PI = 3.14159274f;

static const cw_case cw_cases[] = {
    {AGAL_OP_MOV, {1, -2, 3.5f, 0}, {0}, {1, -2, 3.5f, 0}, 0},
    {AGAL_OP_ADD, {1, 2, 3, 4}, {0.5f, -2, 10, -4.25f}, {1.5f, 0, 13, -0.25f}, 0},
    {AGAL_OP_SUB, {1, 2, 3, 4}, {0.5f, -2, 10, -4.25f}, {0.5f, 4, -7, 8.25f}, 0},
    {AGAL_OP_MUL, {1.5f, -2, 3, 0}, {2, 3, -0.5f, 7}, {3, -6, -1.5f, 0}, 0},
    {AGAL_OP_DIV, {1, -3, 7, 1}, {4, 2, -2, 0}, {0.25f, -1.5f, -3.5f, INFINITY}, 0},
    /* rcp(0) = +inf, rcp(-0) = -inf (IEEE, spec decision) */
    {AGAL_OP_RCP, {4, -0.5f, 0.0f, -0.0f}, {0}, {0.25f, -2, INFINITY, -INFINITY}, 0},
    /* min(a,b) = b < a ? b : a: (5, NaN) -> 5, (NaN, 1) -> NaN */
    {AGAL_OP_MIN, {1, -2, 5, NAN}, {2, -3, NAN, 1}, {1, -3, 5, NAN}, 0},
    /* max(a,b) = a < b ? b : a: (5, NaN) -> 5, (NaN, 1) -> NaN */
    {AGAL_OP_MAX, {1, -2, 5, NAN}, {2, -3, NAN, 1}, {2, -2, 5, NAN}, 0},
    /* frc(-1.25) = -1.25 - (-2) = 0.75 */
    {AGAL_OP_FRC, {1.25f, -1.25f, 3, -0.5f}, {0}, {0.25f, 0.75f, 0, 0.5f}, 0},
    {AGAL_OP_SQT, {4, 0.25f, 0, 9}, {0}, {2, 0.5f, 0, 3}, 0},
    {AGAL_OP_RSQ, {4, 0.25f, 16, 1}, {0}, {0.5f, 2, 0.25f, 1}, 0},
    {AGAL_OP_POW, {2, 9, 4, -2}, {3, 0.5f, -0.5f, 2}, {8, 3, 0.5f, 4}, 1e-6f},
    {AGAL_OP_LOG, {8, 1, 0.5f, 1024}, {0}, {3, 0, -1, 10}, 1e-6f},
    {AGAL_OP_EXP, {3, 0, -1, 10}, {0}, {8, 1, 0.5f, 1024}, 1e-4f},
    {AGAL_OP_SIN, {0, PI_2, PI, -PI_2}, {0}, {0, 1, 0, -1}, 1e-6f},
    {AGAL_OP_COS, {0, PI, PI_2, 2 * PI}, {0}, {1, -1, 0, 1}, 1e-6f},
    {AGAL_OP_ABS, {-1, 2, -0.0f, -3.5f}, {0}, {1, 2, 0, 3.5f}, 0},
    {AGAL_OP_NEG, {1, -2, 0, 3.5f}, {0}, {-1, 2, 0, -3.5f}, 0},
    /* sat = min(max(x, 0), 1): NaN stays NaN */
    {AGAL_OP_SAT, {-1, 0.5f, 2, NAN}, {0}, {0, 0.5f, 1, NAN}, 0},
    /* comparisons: NaN compares unequal to everything */
    {AGAL_OP_SGE, {1, 2, 3, NAN}, {1, 3, 2, NAN}, {1, 0, 1, 0}, 0},
    {AGAL_OP_SLT, {1, 2, 3, NAN}, {1, 3, 2, NAN}, {0, 1, 0, 0}, 0},
    {AGAL_OP_SEQ, {1, 2, NAN, 0.0f}, {1, 3, NAN, -0.0f}, {1, 0, 0, 1}, 0},
    {AGAL_OP_SNE, {1, 2, NAN, 0.0f}, {1, 3, NAN, -0.0f}, {0, 1, 1, 0}, 0},
    /* sgn(NaN) = 0 */
    {AGAL_OP_SGN, {-3, 0, 2.5f, NAN}, {0}, {-1, 0, 1, 0}, 0},
};

/* vt0 = op(va0[, va1]); op = vt0 */
static void test_componentwise(agal_context *ctx)
{
    for (size_t i = 0; i < sizeof cw_cases / sizeof cw_cases[0]; i++) {
        const cw_case *k = &cw_cases[i];
        const agal_opinfo *info = agal_opinfo_get(k->op);
        builder b;
        begin(&b, 1, AGAL_VERTEX);
        if (info->operands & AGAL_OPND_B) op2(&b, k->op, D(T, 0, XYZW), S(VA, 0, ID), S(VA, 1, ID));
        else op1(&b, k->op, D(T, 0, XYZW), S(VA, 0, ID));
        op1(&b, AGAL_OP_MOV, D(O, 0, XYZW), S(T, 0, ID));
        const agal_program *p = decode(ctx, &b, false);
        if (!p) continue;
        agal_interp_invocation in = {0};
        memcpy(in.in[0], k->a, sizeof k->a);
        memcpy(in.in[1], k->b, sizeof k->b);
        agal_interp_result r;
        CHECK(agal_interp_run(ctx, p, NULL, &in, 1, &r) == AGAL_OK, "%s runs", info->name);
        expect4(info->name, 0, r.op, k->want[0], k->want[1], k->want[2], k->want[3], k->tol);
    }
}

/* ---- dot, cross, normalize, matrices, masks ------------------------------ */

static void test_vector_ops(agal_context *ctx)
{
    builder b;
    begin(&b, 2, AGAL_VERTEX);
    op1(&b, AGAL_OP_MOV, D(T, 0, XYZW), S(VA, 2, ID));                /* vt0 = (9,9,9,9) */
    op2(&b, AGAL_OP_DP3, D(T, 0, Y | Z), S(VA, 0, ID), S(VA, 1, ID)); /* only y, z */
    op1(&b, AGAL_OP_MOV, D(V, 0, XYZW), S(T, 0, ID));
    op2(&b, AGAL_OP_DP4, D(V, 1, XYZW), S(VA, 0, ID), S(VA, 1, ID));
    op1(&b, AGAL_OP_MOV, D(T, 1, XYZW), S(VA, 2, ID));
    op2(&b, AGAL_OP_CRS, D(T, 1, XYZ), S(VA, 0, ID), S(VA, 1, ID));
    op1(&b, AGAL_OP_MOV, D(V, 2, XYZW), S(T, 1, ID));
    op1(&b, AGAL_OP_MOV, D(T, 2, XYZW), S(VA, 2, ID));
    op1(&b, AGAL_OP_NRM, D(T, 2, XYZ), S(VA, 3, ID));
    op1(&b, AGAL_OP_MOV, D(V, 3, XYZW), S(T, 2, ID));
    /* matrices from vc0..vc3 with A = va4 */
    op2(&b, AGAL_OP_M44, D(V, 4, XYZW), S(VA, 4, ID), S(C, 0, ID));
    op1(&b, AGAL_OP_MOV, D(T, 3, XYZW), S(VA, 2, ID));
    op2(&b, AGAL_OP_M34, D(T, 3, XYZ), S(VA, 4, ID), S(C, 0, ID));
    op1(&b, AGAL_OP_MOV, D(V, 5, XYZW), S(T, 3, ID));
    op1(&b, AGAL_OP_MOV, D(T, 4, XYZW), S(VA, 2, ID));
    op2(&b, AGAL_OP_M33, D(T, 4, X | Z), S(VA, 4, ID), S(C, 0, ID)); /* masked m33 */
    op1(&b, AGAL_OP_MOV, D(V, 6, XYZW), S(T, 4, ID));
    op1(&b, AGAL_OP_MOV, D(T, 5, XYZW), S(VA, 2, ID));
    op2(&b, AGAL_OP_M44, D(T, 5, Y | W), S(VA, 4, SWZ(1, 0, 2, 3)), S(C, 0, ID)); /* masked, A.yxzw */
    op1(&b, AGAL_OP_MOV, D(V, 7, XYZW), S(T, 5, ID));
    op2(&b, AGAL_OP_M33, D(V, 8, XYZ), S(VA, 4, ID), S(C, 0, ID));
    op1(&b, AGAL_OP_MOV, D(V, 8, W), S(VA, 2, ID));
    op1(&b, AGAL_OP_MOV, D(O, 0, XYZW), S(VA, 0, ID));
    const agal_program *p = decode(ctx, &b, false);
    if (!p) return;
    float cons[4][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}};
    agal_interp_env env = {.constants = (const float(*)[4])cons, .nconstants = 4};
    agal_interp_invocation in = {0};
    set4(in.in[0], 1, 2, 3, 4);
    set4(in.in[1], 5, 6, 7, 8);
    set4(in.in[2], 9, 9, 9, 9);
    set4(in.in[3], 3, 0, 4, 100);
    set4(in.in[4], 1, 2, -1, 2);
    agal_interp_result r;
    CHECK(agal_interp_run(ctx, p, &env, &in, 1, &r) == AGAL_OK, "vector ops run");
    expect4("dp3 .yz", 0, r.v[0], 9, 38, 38, 9, 0); /* 5 + 12 + 21 */
    expect4("dp4", 0, r.v[1], 70, 70, 70, 70, 0);   /* 38 + 32 */
    expect4("crs", 0, r.v[2], -4, 8, -4, 9, 0);     /* (2*7-3*6, 3*5-1*7, 1*6-2*5), w kept */
    expect4("nrm", 0, r.v[3], 0.6f, 0, 0.8f, 9, 0); /* (3,0,4)/5, w kept */
    /* m44, A = (1,2,-1,2): row0 1+4-3+8 = 10, row1 5+12-7+16 = 26, row2 9+20-11+24 = 42, row3 13+28-15+32 = 58 */
    expect4("m44", 0, r.v[4], 10, 26, 42, 58, 0);
    expect4("m34", 0, r.v[5], 10, 26, 42, 9, 0);
    /* m33 dot3: row0 1+4-3 = 2, row1 5+12-7 = 10, row2 9+20-11 = 18; mask xz */
    expect4("m33 .xz", 0, r.v[6], 2, 9, 18, 9, 0);
    /* A.yxzw = (2,1,-1,2): row1 10+6-7+16 = 25, row3 26+14-15+32 = 57; mask yw */
    expect4("m44 .yw A.yxzw", 0, r.v[7], 9, 25, 9, 57, 0);
    expect4("m33", 0, r.v[8], 2, 10, 18, 9, 0);
}

/* ---- swizzle and mask: the positional rule --------------------------------- */

static void test_swizzle(agal_context *ctx)
{
    builder b;
    begin(&b, 2, AGAL_VERTEX);
    op1(&b, AGAL_OP_MOV, D(T, 0, XYZW), S(VA, 0, ID));
    op1(&b, AGAL_OP_MOV, D(T, 1, XYZW), S(VA, 1, ID));
    op1(&b, AGAL_OP_MOV, D(T, 1, Z | W), S(T, 0, SWZ(2, 3, 3, 3))); /* mov vt1.zw, vt0.zw */
    op1(&b, AGAL_OP_MOV, D(V, 0, XYZW), S(T, 1, ID));
    op1(&b, AGAL_OP_MOV, D(T, 2, XYZW), S(VA, 1, ID));
    op2(&b, AGAL_OP_ADD, D(T, 2, Y | W), S(VA, 0, SWZ(3, 1, 1, 1)), S(VA, 1, XX)); /* add vt2.yw, va0.wy, va1.x */
    op1(&b, AGAL_OP_MOV, D(V, 1, XYZW), S(T, 2, ID));
    op1(&b, AGAL_OP_MOV, D(V, 2, XYZW), S(VA, 0, SWZ(3, 2, 1, 0))); /* mov v2, va0.wzyx */
    op1(&b, AGAL_OP_MOV, D(O, 0, XYZW), S(VA, 0, ID));
    const agal_program *p = decode(ctx, &b, false);
    if (!p) return;
    agal_interp_invocation in = {0};
    set4(in.in[0], 1, 2, 3, 4);
    set4(in.in[1], 5, 6, 7, 8);
    agal_interp_result r;
    CHECK(agal_interp_run(ctx, p, NULL, &in, 1, &r) == AGAL_OK, "swizzle runs");
    expect4("mov vt1.zw, vt0.zw", 0, r.v[0], 5, 6, 4, 4, 0); /* .zw = zwww = (3,4,4,4): z <- 4, w <- 4 */
    /* A.wyyy = (4,2,2,2) + 5 = (9,7,7,7), stored at y and w of (5,6,7,8) */
    expect4("add vt2.yw", 0, r.v[1], 5, 7, 7, 7, 0);
    expect4("mov v2, va0.wzyx", 0, r.v[2], 4, 3, 2, 1, 0);
    CHECK(agal_program_writes(p, AGAL_REG_VARYING) == 7u, "written varyings 0x%x",
          agal_program_writes(p, AGAL_REG_VARYING));
    CHECK(agal_program_writes(p, AGAL_REG_TEMP) == 7u, "written temps");
}

/* ---- relative addressing --------------------------------------------------- */

static void test_relative(agal_context *ctx)
{
    builder b;
    begin(&b, 2, AGAL_VERTEX);
    op1(&b, AGAL_OP_MOV, D(V, 0, XYZW), REL(2, VA, 0, 0, ID));                 /* vc[va0.x + 2] */
    op1(&b, AGAL_OP_MOV, D(V, 1, XYZW), REL(0, VA, 0, 1, ID));                 /* vc[va0.y + 0] */
    op2(&b, AGAL_OP_M44, D(V, 2, XYZW), S(VA, 1, ID), REL(248, VA, 0, 2, ID)); /* rows vc[va0.z+248+k] */
    op1(&b, AGAL_OP_MOV, D(T, 0, XYZW), S(VA, 2, ID));
    op1(&b, AGAL_OP_MOV, D(V, 3, XYZW), REL(5, T, 0, 3, SWZ(1, 0, 3, 3))); /* vc[vt0.w + 5].yxww */
    op1(&b, AGAL_OP_MOV, D(O, 0, XYZW), S(VA, 1, ID));
    const agal_program *p = decode(ctx, &b, false);
    if (!p) return;
    static float cons[250][4];
    for (int k = 0; k < 250; k++) set4(cons[k], (float)k, 10.0f * (float)k, 0, 1);
    agal_interp_env env = {.constants = (const float(*)[4])cons, .nconstants = 250};
    agal_interp_invocation in[3];
    memset(in, 0, sizeof in);
    set4(in[0].in[0], 1.7f, 249, 0, 0);     /* trunc 1.7 = 1 -> vc3; vc249; rows 248..251 */
    set4(in[1].in[0], -0.5f, 250, -249, 0); /* trunc -0.5 = 0 -> vc2; 250 out; rows -1..2 */
    set4(in[2].in[0], -1.5f, -1, NAN, 0);   /* -1 + 2 = 1 -> vc1; -1 out; NaN out */
    for (int i = 0; i < 3; i++) set4(in[i].in[1], 1, 1, 1, 1);
    set4(in[0].in[2], 0, 0, 0, 3);   /* vc8 */
    set4(in[1].in[2], 0, 0, 0, 244); /* vc249 */
    set4(in[2].in[2], 0, 0, 0, 245); /* vc250: out of range */
    agal_interp_result r[3];
    CHECK(agal_interp_run(ctx, p, &env, in, 3, r) == AGAL_OK, "relative runs");
    expect4("vc[1.7+2]", 0, r[0].v[0], 3, 30, 0, 1, 0);
    expect4("vc[-0.5+2]", 1, r[1].v[0], 2, 20, 0, 1, 0);
    expect4("vc[-1.5+2]", 2, r[2].v[0], 1, 10, 0, 1, 0);
    expect4("vc[249]", 0, r[0].v[1], 249, 2490, 0, 1, 0);
    expect4("vc[250] out of range", 1, r[1].v[1], 0, 0, 0, 0, 0);
    expect4("vc[-1] out of range", 2, r[2].v[1], 0, 0, 0, 0, 0);
    /* rows 248, 249 in range: 248+2480+0+1 = 2729, 249+2490+1 = 2740; 250, 251 read 0 */
    expect4("m44 rows 248..251", 0, r[0].v[2], 2729, 2740, 0, 0, 0);
    /* rows -1 (0), vc0 = 0+0+0+1 = 1, vc1 = 1+10+1 = 12, vc2 = 2+20+1 = 23 */
    expect4("m44 rows -1..2", 1, r[1].v[2], 0, 1, 12, 23, 0);
    expect4("m44 NaN index", 2, r[2].v[2], 0, 0, 0, 0, 0);
    expect4("vc[vt0.w+5].yxww", 0, r[0].v[3], 80, 8, 1, 1, 0);
    expect4("vc[vt0.w+5] = vc249", 1, r[1].v[3], 2490, 249, 1, 1, 0);
    expect4("vc[vt0.w+5] = vc250", 2, r[2].v[3], 0, 0, 0, 0, 0);

    /* Fewer constants than the profile has: the missing ones read 0. */
    env.nconstants = 4;
    CHECK(agal_interp_run(ctx, p, &env, in, 1, r) == AGAL_OK, "relative runs, 4 constants");
    expect4("vc[3] of 4", 0, r[0].v[0], 3, 30, 0, 1, 0);
    expect4("vc[8] of 4", 0, r[0].v[3], 0, 0, 0, 0, 0);
}

static void test_iid(agal_context *ctx)
{
    builder b;
    begin(&b, 3, AGAL_VERTEX);
    op1(&b, AGAL_OP_MOV, D(V, 0, XYZW), S(IID, 0, ID));
    op1(&b, AGAL_OP_MOV, D(V, 1, XYZW), REL(1, IID, 0, 0, ID)); /* vc[iid.x + 1] */
    op1(&b, AGAL_OP_MOV, D(O, 0, XYZW), S(VA, 0, ID));
    const agal_program *p = decode(ctx, &b, false);
    if (!p) return;
    static float cons[250][4];
    for (int k = 0; k < 250; k++) set4(cons[k], (float)k, 10.0f * (float)k, 0, 1);
    agal_interp_env env = {.constants = (const float(*)[4])cons, .nconstants = 250};
    agal_interp_invocation in[2] = {{.instance_id = 5}, {.instance_id = 249}};
    agal_interp_result r[2];
    CHECK(agal_interp_run(ctx, p, &env, in, 2, r) == AGAL_OK, "iid runs");
    expect4("iid", 0, r[0].v[0], 5, 5, 5, 5, 0);
    expect4("vc[iid.x+1]", 0, r[0].v[1], 6, 60, 0, 1, 0);
    expect4("iid 249", 1, r[1].v[0], 249, 249, 249, 249, 0);
    expect4("vc[iid.x+1] = vc250", 1, r[1].v[1], 0, 0, 0, 0, 0);
}

/* ---- agal_interp_run_perturbed: each token moved by at most its own bound ---- */

static void test_perturbed(agal_context *ctx)
{
    builder b;
    begin(&b, 1, AGAL_VERTEX);
    op1(&b, AGAL_OP_MOV, D(T, 0, XYZW), S(VA, 0, ID));            /* 0: vt0 = va0, moved by <= 0.25 + 0.5 |x| */
    op2(&b, AGAL_OP_MUL, D(V, 0, XYZ), S(T, 0, ID), S(C, 0, ID)); /* 1: v0.xyz = vt0 * 2, moved by <= 1 */
    op1(&b, AGAL_OP_MOV, D(O, 0, XYZW), S(VA, 0, ID));            /* 2: exact */
    const agal_program *p = decode(ctx, &b, false);
    if (!p) return;
    const float err[3][2] = {{0.25f, 0.5f}, {1, 0}, {0, 0}};
    float cons[1][4] = {{2, 2, 2, 2}};
    agal_interp_env env = {.constants = (const float(*)[4])cons, .nconstants = 1};
    agal_interp_invocation in[3];
    memset(in, 0, sizeof in);
    for (int i = 0; i < 3; i++) set4(in[i].in[0], 1, -2, 3, 4);
    agal_interp_result r[3], again[3], other[3];
    CHECK(agal_interp_run_perturbed(ctx, p, &env, in, 3, r, err, 7) == AGAL_OK, "perturbed runs");
    CHECK(agal_interp_run_perturbed(ctx, p, &env, in, 3, again, err, 7) == AGAL_OK, "perturbed runs again");
    CHECK(agal_interp_run_perturbed(ctx, p, &env, in, 3, other, err, 8) == AGAL_OK, "perturbed runs, seed 8");
    /* exact v0.xyz = (2, -4, 6); vt0.c moves by <= 0.25 + 0.5 |va0.c| (0.75, 1.25, 1.75),
     * twice that through the mul, plus 1 */
    const float exact[3] = {2, -4, 6}, room[3] = {2.5f, 3.5f, 4.5f};
    for (int i = 0; i < 3; i++) {
        for (int c = 0; c < 3; c++)
            CHECK(fabsf(r[i].v[0][c] - exact[c]) <= room[c] && r[i].v[0][c] != exact[c],
                  "perturbed v0.%c [%d]: %g, exact %g, room %g", "xyz"[c], i, r[i].v[0][c], exact[c], room[c]);
        CHECK(r[i].v[0][3] == 0, "perturbed: the unwritten v0.w [%d] stays 0, got %g", i, r[i].v[0][3]);
        expect4("perturbed: the exact token's op", i, r[i].op, 1, -2, 3, 4, 0);
        CHECK(!memcmp(r[i].v[0], again[i].v[0], sizeof r[i].v[0]), "perturbed: one seed moves the same [%d]", i);
        CHECK(memcmp(r[i].v[0], other[i].v[0], sizeof r[i].v[0]), "perturbed: seed 8 moves otherwise [%d]", i);
    }
    CHECK(memcmp(r[0].v[0], r[1].v[0], sizeof r[0].v[0]), "perturbed: invocations move independently");
    const float none[3][2] = {{0, 0}, {0, 0}, {0, 0}};
    CHECK(agal_interp_run_perturbed(ctx, p, &env, in, 1, r, none, 7) == AGAL_OK, "unperturbed runs");
    expect4("no bounds: exact", 0, r[0].v[0], 2, -4, 6, 0, 0);
    CHECK(agal_interp_run_perturbed(ctx, p, &env, in, 1, r, NULL, 7) == AGAL_ERR_ARG, "no bounds array: refused");

    /* lanes a block switched off keep their values: ft0 = fc1 only where v0.x >= 0 */
    begin(&b, 2, AGAL_FRAGMENT);
    op1(&b, AGAL_OP_MOV, D(T, 0, XYZW), S(C, 0, ID)); /* 0: ft0 = 0, exact */
    cond(&b, AGAL_OP_IFG, S(V, 0, XX), S(C, 0, XX));  /* 1 */
    op1(&b, AGAL_OP_MOV, D(T, 0, XYZW), S(C, 1, ID)); /* 2: moved by <= 0.5 */
    bare(&b, AGAL_OP_EIF);                            /* 3 */
    op1(&b, AGAL_OP_MOV, D(O, 0, XYZW), S(T, 0, ID)); /* 4: exact */
    const agal_program *f = decode(ctx, &b, false);
    if (!f) return;
    const float ferr[5][2] = {{0, 0}, {1, 1}, {0.5f, 0}, {1, 1}, {0, 0}};
    float fcons[2][4] = {{0, 0, 0, 0}, {1, 1, 1, 1}};
    agal_interp_env fenv = {.constants = (const float(*)[4])fcons, .nconstants = 2};
    agal_interp_invocation q[4];
    memset(q, 0, sizeof q);
    for (int l = 0; l < 4; l++) q[l].in[0][0] = l % 2 ? -1.0f : 1.0f;
    agal_interp_result fr[4];
    CHECK(agal_interp_run_perturbed(ctx, f, &fenv, q, 4, fr, ferr, 3) == AGAL_OK, "perturbed quad runs");
    for (int l = 0; l < 4; l++)
        for (int c = 0; c < 4; c++) {
            float got = fr[l].oc[0][c];
            bool ok = l % 2 ? got == 0 : fabsf(got - 1) <= 0.5f && got != 1;
            CHECK(ok, "perturbed quad lane %d oc.%c: %g (%s)", l, "xyzw"[c], got,
                  l % 2 ? "off: exactly 0" : "1 +- 0.5");
        }
}

/* ---- blocks with divergent lanes in one quad ------------------------------ */

static void test_blocks(agal_context *ctx)
{
    builder b;
    begin(&b, 2, AGAL_FRAGMENT);
    op1(&b, AGAL_OP_MOV, D(T, 0, XYZW), S(C, 0, ID));           /* ft0 = (10,20,30,40) */
    cond(&b, AGAL_OP_IFG, S(V, 0, XX), S(C, 1, XX));            /* if v0.x >= 2 */
    op2(&b, AGAL_OP_ADD, D(T, 0, X), S(T, 0, XX), S(C, 1, YY)); /*   ft0.x += 1 */
    cond(&b, AGAL_OP_IFE, S(V, 0, YY), S(C, 1, YY));            /*   if v0.y == 1 */
    op1(&b, AGAL_OP_MOV, D(T, 0, Y), S(V, 0, ZZ));              /*     ft0.y = v0.z */
    bare(&b, AGAL_OP_ELS);
    op1(&b, AGAL_OP_MOV, D(T, 0, Y), S(V, 0, WW)); /*     ft0.y = v0.w */
    bare(&b, AGAL_OP_EIF);
    bare(&b, AGAL_OP_ELS);
    cond(&b, AGAL_OP_INE, S(V, 0, YY), S(C, 1, ZZ)); /*   if v0.y != 0 */
    op1(&b, AGAL_OP_MOV, D(T, 0, Z), S(V, 0, ZZ));   /*     ft0.z = v0.z */
    bare(&b, AGAL_OP_EIF);
    bare(&b, AGAL_OP_EIF);
    cond(&b, AGAL_OP_IFL, S(V, 0, WW), S(C, 1, WW));            /* if v0.w < 5 */
    op2(&b, AGAL_OP_SUB, D(T, 0, W), S(T, 0, WW), S(C, 1, YY)); /*   ft0.w -= 1 */
    bare(&b, AGAL_OP_EIF);
    op1(&b, AGAL_OP_MOV, D(O, 0, XYZW), S(T, 0, ID));
    const agal_program *p = decode(ctx, &b, false);
    if (!p) return;
    float cons[2][4] = {{10, 20, 30, 40}, {2, 1, 0, 5}};
    agal_interp_env env = {.constants = (const float(*)[4])cons, .nconstants = 2};
    agal_interp_invocation in[8];
    memset(in, 0, sizeof in);
    set4(in[0].in[0], 3, 1, 5, 6);                                    /* >= 2, == 1: (11, 5, 30, 40) */
    set4(in[1].in[0], 2, 0, 7, 8);                                    /* >= 2 (ifg is >=), != 1: (11, 8, 30, 40) */
    set4(in[2].in[0], 1, 2, 9, 4);                                    /* < 2, 2 != 0: (10, 20, 9, 40), w 4 < 5: 39 */
    set4(in[3].in[0], NAN, 0, 3, NAN);                                /* NaN >= 2 false, 0 != 0 false; NaN < 5 false */
    for (int i = 4; i < 8; i++) set4(in[i].in[0], 5, 1, (float)i, 0); /* second quad, uniform */
    agal_interp_result r[8];
    CHECK(agal_interp_run(ctx, p, &env, in, 8, r) == AGAL_OK, "blocks run");
    expect4("blocks lane 0", 0, r[0].oc[0], 11, 5, 30, 40, 0);
    expect4("blocks lane 1", 1, r[1].oc[0], 11, 8, 30, 40, 0);
    expect4("blocks lane 2", 2, r[2].oc[0], 10, 20, 9, 39, 0);
    expect4("blocks lane 3", 3, r[3].oc[0], 10, 20, 30, 40, 0);
    /* second quad: 5 >= 2, 1 == 1 so y = v0.z = i, 0 < 5 so w = 39 */
    for (int i = 4; i < 8; i++) expect4("blocks quad 2", i, r[i].oc[0], 11, (float)i, 30, 39, 0);
    for (int i = 0; i < 8; i++) CHECK(!r[i].killed, "no kil, lane %d", i);
}

/* ---- kil, also inside a block, and derivatives across a killed lane -------- */

static void test_kil(agal_context *ctx)
{
    builder b;
    begin(&b, 2, AGAL_FRAGMENT);
    cond(&b, AGAL_OP_IFL, S(V, 0, YY), S(C, 0, XX));             /* if v0.y < 0 */
    emit(&b, (agal_token){.op = AGAL_OP_KIL, .a = S(V, 0, XX)}); /* kil v0.x */
    bare(&b, AGAL_OP_EIF);
    op1(&b, AGAL_OP_DDX, D(T, 0, XYZW), S(V, 1, ID));
    op1(&b, AGAL_OP_MOV, D(O, 0, XYZW), S(T, 0, ID));
    const agal_program *p = decode(ctx, &b, false);
    if (!p) return;
    float cons[1][4] = {{0, 0, 0, 0}};
    agal_interp_env env = {.constants = (const float(*)[4])cons, .nconstants = 1};
    agal_interp_invocation in[4];
    memset(in, 0, sizeof in);
    set4(in[0].in[0], -1, -1, 0, 0);  /* in the block, x < 0: killed */
    set4(in[1].in[0], -1, 1, 0, 0);   /* not in the block */
    set4(in[2].in[0], 1, -1, 0, 0);   /* in the block, x >= 0 */
    set4(in[3].in[0], NAN, -1, 0, 0); /* NaN < 0 is false */
    set4(in[0].in[1], 1, 0, 0, 0);
    set4(in[1].in[1], 4, 0, 0, 0);
    set4(in[2].in[1], 9, 0, 0, 0);
    set4(in[3].in[1], 16, 0, 0, 0);
    agal_interp_result r[4];
    CHECK(agal_interp_run(ctx, p, &env, in, 4, r) == AGAL_OK, "kil runs");
    CHECK(r[0].killed && !r[1].killed && !r[2].killed && !r[3].killed, "killed lanes %d%d%d%d", r[0].killed,
          r[1].killed, r[2].killed, r[3].killed);
    /* the killed lane 0 keeps running as a helper: lane 1's ddx = 4 - 1 */
    expect4("ddx beside a killed lane", 1, r[1].oc[0], 3, 0, 0, 0, 0);
    expect4("ddx bottom row", 2, r[2].oc[0], 7, 0, 0, 0, 0);

    /* kil in AGAL1 with a swizzle: kil v0.w */
    begin(&b, 1, AGAL_FRAGMENT);
    emit(&b, (agal_token){.op = AGAL_OP_KIL, .a = S(V, 0, WW)});
    op1(&b, AGAL_OP_MOV, D(O, 0, XYZW), S(V, 0, ID));
    p = decode(ctx, &b, false);
    if (!p) return;
    set4(in[0].in[0], -1, -1, -1, 0);      /* w = 0: not < 0 */
    set4(in[1].in[0], 1, 1, 1, -0.5f);     /* killed */
    set4(in[2].in[0], 0, 0, 0, -0.0f);     /* -0 < 0 is false */
    set4(in[3].in[0], 0, 0, 0, -INFINITY); /* killed */
    CHECK(agal_interp_run(ctx, p, NULL, in, 4, r) == AGAL_OK, "kil v0.w runs");
    CHECK(!r[0].killed && r[1].killed && !r[2].killed && r[3].killed, "kil v0.w lanes %d%d%d%d", r[0].killed,
          r[1].killed, r[2].killed, r[3].killed);
}

/* ---- ddx/ddy on linear and non-linear inputs, fd -------------------------- */

static void test_derivatives(agal_context *ctx)
{
    builder b;
    begin(&b, 2, AGAL_FRAGMENT);
    op1(&b, AGAL_OP_DDX, D(T, 0, XYZW), S(V, 0, ID));
    op1(&b, AGAL_OP_DDY, D(T, 1, XYZW), S(V, 0, ID));
    op1(&b, AGAL_OP_MOV, D(T, 2, XYZW), S(V, 0, ID));
    op1(&b, AGAL_OP_DDY, D(T, 2, Z | W), S(V, 0, SWZ(0, 0, 1, 0))); /* ddy ft2.zw, v0.xxyx */
    op1(&b, AGAL_OP_MOV, D(O, 0, XYZW), S(T, 0, ID));
    op1(&b, AGAL_OP_MOV, D(O, 1, XYZW), S(T, 1, ID));
    op1(&b, AGAL_OP_MOV, D(O, 2, XYZW), S(T, 2, ID));
    op1(&b, AGAL_OP_MOV, D(FD, 0, X), S(V, 0, YY));
    const agal_program *p = decode(ctx, &b, false);
    if (!p) return;
    /* pixels (10,20) (11,20) (10,21) (11,21); v0 = (2x + 3y, x*y, 0, 1) */
    agal_interp_invocation in[4];
    memset(in, 0, sizeof in);
    set4(in[0].in[0], 80, 200, 0, 1);
    set4(in[1].in[0], 82, 220, 0, 1);
    set4(in[2].in[0], 83, 210, 0, 1);
    set4(in[3].in[0], 85, 231, 0, 1);
    agal_interp_result r[4];
    CHECK(agal_interp_run(ctx, p, NULL, in, 4, r) == AGAL_OK, "derivatives run");
    /* fine ddx: row 0 (82-80, 220-200), row 1 (85-83, 231-210) */
    expect4("ddx", 0, r[0].oc[0], 2, 20, 0, 0, 0);
    expect4("ddx", 1, r[1].oc[0], 2, 20, 0, 0, 0);
    expect4("ddx", 2, r[2].oc[0], 2, 21, 0, 0, 0);
    expect4("ddx", 3, r[3].oc[0], 2, 21, 0, 0, 0);
    /* fine ddy: column 0 (83-80, 210-200), column 1 (85-82, 231-220) */
    expect4("ddy", 0, r[0].oc[1], 3, 10, 0, 0, 0);
    expect4("ddy", 1, r[1].oc[1], 3, 11, 0, 0, 0);
    expect4("ddy", 2, r[2].oc[1], 3, 10, 0, 0, 0);
    expect4("ddy", 3, r[3].oc[1], 3, 11, 0, 0, 0);
    /* ddy of v0.xxyx stored at z, w: z <- ddy(g), w <- ddy(f) */
    expect4("ddy .zw xxyx", 0, r[0].oc[2], 80, 200, 10, 3, 0);
    expect4("ddy .zw xxyx", 3, r[3].oc[2], 85, 231, 11, 3, 0);
    CHECK(r[0].fd == 200 && r[3].fd == 231, "fd = v0.y: %g %g", r[0].fd, r[3].fd);
    /* coarse: ddx of every lane is row 0's (2, 20), ddy column 0's (3, 10) */
    agal_interp_env coarse = {.coarse_derivatives = true};
    CHECK(agal_interp_run(ctx, p, &coarse, in, 4, r) == AGAL_OK, "coarse derivatives run");
    expect4("coarse ddx", 3, r[3].oc[0], 2, 20, 0, 0, 0);
    expect4("coarse ddy", 3, r[3].oc[1], 3, 10, 0, 0, 0);
    expect4("coarse ddy", 1, r[1].oc[1], 3, 10, 0, 0, 0);
}

/* ---- textures --------------------------------------------------------------- */

/* 2x2 texture: texel (i, j) has r = j*2 + i, g = 10 r, b = 0, a = 1. */
static float tex2x2[4][4] = {{0, 0, 0, 1}, {1, 10, 0, 1}, {2, 20, 0, 1}, {3, 30, 0, 1}};
static const float *const tex2x2_images[1] = {&tex2x2[0][0]};

static agal_sampler smp(unsigned dim, unsigned filter, unsigned mip, unsigned wrap, int bias)
{
    return (agal_sampler){.num = 0,
                          .dim = (uint8_t)dim,
                          .filter = (uint8_t)filter,
                          .mipmap = (uint8_t)mip,
                          .wrap = (uint8_t)wrap,
                          .bias = (int8_t)bias};
}

/* tex ft0, v0, fs0 <s>; mov oc, ft0 (ted when `op` says so) over 4 lanes with v0 = coords. */
static bool sample4x(agal_context *ctx, agal_opcode op, agal_sampler s, const agal_texture *tex,
                     const float coords[4][4], agal_interp_result r[4], bool coarse)
{
    builder b;
    begin(&b, 2, AGAL_FRAGMENT);
    texop(&b, op, D(T, 0, XYZW), S(V, 0, ID), s);
    op1(&b, AGAL_OP_MOV, D(O, 0, XYZW), S(T, 0, ID));
    const agal_program *p = decode(ctx, &b, false);
    if (!p) return false;
    agal_interp_env env = {.textures = tex, .ntextures = 1, .coarse_derivatives = coarse};
    agal_interp_invocation in[4];
    memset(in, 0, sizeof in);
    for (int k = 0; k < 4; k++) memcpy(in[k].in[0], coords[k], sizeof coords[k]);
    agal_status st = agal_interp_run(ctx, p, &env, in, 4, r);
    CHECK(st == AGAL_OK, "sampling runs (status %d)", st);
    return st == AGAL_OK;
}

static bool sample4(agal_context *ctx, agal_opcode op, agal_sampler s, const agal_texture *tex,
                    const float coords[4][4], agal_interp_result r[4])
{
    return sample4x(ctx, op, s, tex, coords, r, false);
}

static void test_tex_2d_filters(agal_context *ctx)
{
    agal_texture tex = {
        .sampler = 0, .dim = AGAL_DIM_2D, .width = 2, .height = 2, .levels = 1, .images = tex2x2_images};
    agal_interp_result r[4];
    const float nearest[4][4] = {{0.25f, 0.25f}, {0.75f, 0.25f}, {0.25f, 0.75f}, {0.99f, 0.99f}};
    if (sample4(ctx, AGAL_OP_TEX, smp(0, AGAL_FILTER_NEAREST, 0, AGAL_WRAP_CLAMP, 0), &tex, nearest, r)) {
        expect4("nearest (0,0)", 0, r[0].oc[0], 0, 0, 0, 1, 0);
        expect4("nearest (1,0)", 1, r[1].oc[0], 1, 10, 0, 1, 0);
        expect4("nearest (0,1)", 2, r[2].oc[0], 2, 20, 0, 1, 0);
        expect4("nearest (1,1)", 3, r[3].oc[0], 3, 30, 0, 1, 0);
    }
    /* bilinear, centres at (i + 0.5) / 2:
     * (0.5, 0.5): a = b = 0.5: (0+1+2+3)/4 = 1.5
     * (0.25, 0.25): u = v = 0, exactly texel (0,0): 0
     * (0.375, 0.25): u = 0.25: 0.75*0 + 0.25*1 = 0.25
     * (0.625, 0.625): a = b = 0.75: top 0.75, bottom 0.5 + 2.25 = 2.75: 0.25*0.75 + 0.75*2.75 = 2.25 */
    const float linear[4][4] = {{0.5f, 0.5f}, {0.25f, 0.25f}, {0.375f, 0.25f}, {0.625f, 0.625f}};
    if (sample4(ctx, AGAL_OP_TEX, smp(0, AGAL_FILTER_LINEAR, 0, AGAL_WRAP_CLAMP, 0), &tex, linear, r)) {
        expect4("linear centre", 0, r[0].oc[0], 1.5f, 15, 0, 1, 1e-6f);
        expect4("linear on texel", 1, r[1].oc[0], 0, 0, 0, 1, 1e-6f);
        expect4("linear a=0.25", 2, r[2].oc[0], 0.25f, 2.5f, 0, 1, 1e-6f);
        expect4("linear a=b=0.75", 3, r[3].oc[0], 2.25f, 22.5f, 0, 1, 1e-5f);
    }
    /* anisotropic is linear */
    if (sample4(ctx, AGAL_OP_TEX, smp(0, AGAL_FILTER_ANISO8X, 0, AGAL_WRAP_CLAMP, 0), &tex, linear, r))
        expect4("aniso8x = linear", 3, r[3].oc[0], 2.25f, 22.5f, 0, 1, 1e-5f);
    /* linear at the edge: (0, 0.25): u = -0.5 -> texels -1 and 0 with a = 0.5.
     * clamp: both texel 0 -> 0; repeat: texel -1 is texel 1 -> 0.5 */
    const float edge[4][4] = {{0, 0.25f}, {0, 0.25f}, {0, 0.25f}, {0, 0.25f}};
    if (sample4(ctx, AGAL_OP_TEX, smp(0, AGAL_FILTER_LINEAR, 0, AGAL_WRAP_CLAMP, 0), &tex, edge, r))
        expect4("linear clamp edge", 0, r[0].oc[0], 0, 0, 0, 1, 1e-6f);
    if (sample4(ctx, AGAL_OP_TEX, smp(0, AGAL_FILTER_LINEAR, 0, AGAL_WRAP_REPEAT, 0), &tex, edge, r))
        expect4("linear repeat edge", 0, r[0].oc[0], 0.5f, 5, 0, 1, 1e-6f);
}

static void test_tex_wrap(agal_context *ctx)
{
    agal_texture tex = {
        .sampler = 0, .dim = AGAL_DIM_2D, .width = 2, .height = 2, .levels = 1, .images = tex2x2_images};
    /* lane 0 (1.25, -0.25): i = floor(2.5) = 2, j = floor(-0.5) = -1
     * lane 1 (-0.25, 1.25): i = -1, j = 2 */
    const float c[4][4] = {{1.25f, -0.25f}, {-0.25f, 1.25f}, {0.25f, 0.25f}, {0.25f, 0.25f}};
    static const struct {
        unsigned wrap;
        float r0, r1;
    } cases[] = {
        {AGAL_WRAP_CLAMP, 1, 2},            /* (1,0), (0,1) */
        {AGAL_WRAP_REPEAT, 2, 1},           /* (0,1), (1,0) */
        {AGAL_WRAP_CLAMP_U_REPEAT_V, 3, 0}, /* (1,1), (0,0) */
        {AGAL_WRAP_REPEAT_U_CLAMP_V, 0, 3}, /* (0,0), (1,1) */
    };
    for (size_t i = 0; i < 4; i++) {
        agal_interp_result r[4];
        if (!sample4(ctx, AGAL_OP_TEX, smp(0, AGAL_FILTER_NEAREST, 0, cases[i].wrap, 0), &tex, c, r)) continue;
        char what[32];
        snprintf(what, sizeof what, "wrap %u", cases[i].wrap);
        expect4(what, 0, r[0].oc[0], cases[i].r0, 10 * cases[i].r0, 0, 1, 0);
        expect4(what, 1, r[1].oc[0], cases[i].r1, 10 * cases[i].r1, 0, 1, 0);
    }
}

/* 4x4 texture, 3 levels of one colour each: level 0 r = 0, level 1 r = 10, level 2 r = 20. */
static float mip0[16][4], mip1[4][4], mip2[1][4];
static const float *const mip_images[3] = {&mip0[0][0], &mip1[0][0], &mip2[0][0]};

static void test_tex_mip(agal_context *ctx)
{
    for (int i = 0; i < 16; i++) set4(mip0[i], 0, 0, 0, 1);
    for (int i = 0; i < 4; i++) set4(mip1[i], 10, 0, 0, 1);
    set4(mip2[0], 20, 0, 0, 1);
    agal_texture tex = {.sampler = 0, .dim = AGAL_DIM_2D, .width = 4, .height = 4, .levels = 3, .images = mip_images};
    /* s and t step 0.5 per pixel: 2 texels of level 0, lambda = log2(2) = 1 */
    const float quad[4][4] = {{0.125f, 0.125f}, {0.625f, 0.125f}, {0.125f, 0.625f}, {0.625f, 0.625f}};
    static const struct {
        unsigned mip;
        int bias;
        float want;
    } cases[] = {
        {AGAL_MIP_NONE, 0, 0},                                  /* always level 0 */
        {AGAL_MIP_NONE, 16, 0},      {AGAL_MIP_NEAREST, 0, 10}, /* lambda 1: ceil(1.5) - 1 = 1 */
        {AGAL_MIP_NEAREST, 4, 10},                              /* 1.5: ceil(2) - 1 = 1 (half rounds down) */
        {AGAL_MIP_NEAREST, 5, 20},                              /* 1.625: ceil(2.125) - 1 = 2 */
        {AGAL_MIP_NEAREST, -4, 0},                              /* 0.5: level 0 */
        {AGAL_MIP_NEAREST, 16, 20},                             /* 3: clamped to the last level */
        {AGAL_MIP_LINEAR, 0, 10},                               /* 1: level 1 exactly */
        {AGAL_MIP_LINEAR, 2, 12.5f},                            /* 1.25: 0.75*10 + 0.25*20 */
        {AGAL_MIP_LINEAR, 4, 15},                               /* 1.5 */
        {AGAL_MIP_LINEAR, -4, 5},                               /* 0.5: 0.5*0 + 0.5*10 */
        {AGAL_MIP_LINEAR, -12, 0},                              /* -0.5: level 0 */
        {AGAL_MIP_LINEAR, 16, 20},                              /* 3: last level */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        agal_interp_result r[4];
        if (!sample4(ctx, AGAL_OP_TEX, smp(0, AGAL_FILTER_LINEAR, cases[i].mip, AGAL_WRAP_REPEAT, cases[i].bias), &tex,
                     quad, r))
            continue;
        char what[48];
        snprintf(what, sizeof what, "mip %u bias %d", cases[i].mip, cases[i].bias);
        for (int k = 0; k < 4; k++) expect4(what, k, r[k].oc[0], cases[i].want, 0, 0, 1, 1e-5f);
    }
    /* Footprint 2 texels along x, 1 along y: the larger one decides, lambda 1 */
    const float aniso[4][4] = {{0.125f, 0.125f}, {0.625f, 0.125f}, {0.125f, 0.375f}, {0.625f, 0.375f}};
    agal_interp_result r[4];
    if (sample4(ctx, AGAL_OP_TEX, smp(0, AGAL_FILTER_ANISO16X, AGAL_MIP_LINEAR, AGAL_WRAP_REPEAT, 0), &tex, aniso, r))
        expect4("lod from the longer axis", 2, r[2].oc[0], 10, 0, 0, 1, 1e-5f);
    /* Row 1 steps 1 texel in x, row 0 two; column 1 steps 1 texel in y, column 0 none.
     * fine: lanes 0, 1 lambda 1 (10); lanes 2, 3 lambda log2(1) = 0 (level 0).
     * coarse: every lane takes row 0's dx (2 texels) and column 0's dy (0): lambda 1. */
    const float uneven[4][4] = {{0.125f, 0.125f}, {0.625f, 0.125f}, {0.125f, 0.125f}, {0.375f, 0.125f}};
    agal_sampler ml = smp(0, AGAL_FILTER_LINEAR, AGAL_MIP_LINEAR, AGAL_WRAP_REPEAT, 0);
    if (sample4x(ctx, AGAL_OP_TEX, ml, &tex, uneven, r, false)) {
        expect4("fine lod lane 0", 0, r[0].oc[0], 10, 0, 0, 1, 1e-5f);
        expect4("fine lod lane 2", 2, r[2].oc[0], 0, 0, 0, 1, 1e-5f);
        expect4("fine lod lane 3", 3, r[3].oc[0], 0, 0, 0, 1, 1e-5f);
    }
    if (sample4x(ctx, AGAL_OP_TEX, ml, &tex, uneven, r, true)) {
        expect4("coarse lod lane 2", 2, r[2].oc[0], 10, 0, 0, 1, 1e-5f);
        expect4("coarse lod lane 3", 3, r[3].oc[0], 10, 0, 0, 1, 1e-5f);
    }
    /* ted: LOD = A.w, derivatives ignored (Flash refuses a bias on ted: 3743) */
    const float ted[4][4] = {
        {0.125f, 0.125f, 0, 1.5f}, {0.125f, 0.125f, 0, 0.25f}, {0.125f, 0.125f, 0, -1}, {0.125f, 0.125f, 0, 7}};
    if (sample4(ctx, AGAL_OP_TED, smp(0, AGAL_FILTER_LINEAR, AGAL_MIP_LINEAR, AGAL_WRAP_REPEAT, 0), &tex, ted, r)) {
        expect4("ted 1.5", 0, r[0].oc[0], 15, 0, 0, 1, 1e-5f);
        expect4("ted 0.25", 1, r[1].oc[0], 2.5f, 0, 0, 1, 1e-5f);
        expect4("ted -1", 2, r[2].oc[0], 0, 0, 0, 1, 1e-5f);
        expect4("ted 7", 3, r[3].oc[0], 20, 0, 0, 1, 1e-5f);
    }
    if (sample4(ctx, AGAL_OP_TED, smp(0, AGAL_FILTER_NEAREST, AGAL_MIP_NEAREST, AGAL_WRAP_REPEAT, 0), &tex, ted, r))
        expect4("ted nearest 1.5", 0, r[0].oc[0], 10, 0, 0, 1, 0);
}

/* The slot a tex resolves through (docs/format.md section 7), on the 2x2 texture at
 * lanes (0.5, 0.5), (1.25, 0.5), (0.5, 1.25), (1.25, 1.25): worked by hand, r = 2J + I
 * with I, J per axis: at 0.5 nearest picks texel 1 and linear averages texels 0 and
 * 1 (0.5, whatever the wrap); at 1.25 both filters land on texel 2, which is 1
 * clamped and 0 repeated. So each of the 8 filter x wrap states gives its own four
 * values. */
static const float slot_lanes[4][4] = {{0.5f, 0.5f}, {1.25f, 0.5f}, {0.5f, 1.25f}, {1.25f, 1.25f}};

static float slot_axis(float c, agal_sampler_state st, bool v_axis)
{
    bool repeat = st.wrap == AGAL_WRAP_REPEAT ||
                  st.wrap == (v_axis ? AGAL_WRAP_CLAMP_U_REPEAT_V : AGAL_WRAP_REPEAT_U_CLAMP_V);
    if (c == 0.5f) return st.filter == AGAL_FILTER_NEAREST ? 1.0f : 0.5f;
    return repeat ? 0.0f : 1.0f;
}

/* Runs p (tex ft0, v0, fs0; mov oc, ft0) with slots and checks every lane against st. */
static void expect_slot(agal_context *ctx, const char *what, const agal_program *p, const agal_sampler_slots *slots,
                        agal_sampler_state st)
{
    agal_texture tex = {
        .sampler = 0, .dim = AGAL_DIM_2D, .width = 2, .height = 2, .levels = 1, .images = tex2x2_images};
    agal_interp_env env = {.textures = &tex, .ntextures = 1, .slots = slots};
    agal_interp_invocation in[4];
    agal_interp_result r[4];
    memset(in, 0, sizeof in);
    for (int k = 0; k < 4; k++) memcpy(in[k].in[0], slot_lanes[k], sizeof slot_lanes[k]);
    if (!p || agal_interp_run(ctx, p, &env, in, 4, r) != AGAL_OK) {
        CHECK(false, "%s: runs", what);
        return;
    }
    for (int k = 0; k < 4; k++) {
        float want = 2 * slot_axis(slot_lanes[k][1], st, true) + slot_axis(slot_lanes[k][0], st, false);
        expect4(what, k, r[k].oc[0], want, 10 * want, 0, 1, 1e-6f);
    }
}

static const agal_program *slot_program(agal_context *ctx, agal_sampler s)
{
    builder b;
    begin(&b, 2, AGAL_FRAGMENT);
    texop(&b, AGAL_OP_TEX, D(T, 0, XYZW), S(V, 0, ID), s);
    op1(&b, AGAL_OP_MOV, D(O, 0, XYZW), S(T, 0, ID));
    return decode(ctx, &b, false);
}

static void test_tex_slots(agal_context *ctx)
{
    agal_sampler baked = smp(0, AGAL_FILTER_LINEAR, AGAL_MIP_NONE, AGAL_WRAP_REPEAT, 0), ignore = baked;
    ignore.special = AGAL_SPECIAL_IGNORESAMPLER;
    const agal_program *plain = slot_program(ctx, baked), *ign = slot_program(ctx, ignore);
    const agal_sampler_state own = {AGAL_WRAP_REPEAT, AGAL_FILTER_LINEAR, AGAL_MIP_NONE};
    agal_sampler_slots s;
    /* slots NULL: a fresh Context3D after setProgram of the program */
    expect_slot(ctx, "no slots: the token's own state", plain, NULL, own);
    expect_slot(ctx, "no slots, ignoresampler: clamp nearest", ign, NULL, slot_order_want(&slot_orders[1], own));
    for (size_t k = 0; k < sizeof slot_orders / sizeof slot_orders[0]; k++) {
        const slot_order *o = &slot_orders[k];
        slot_order_run(o, &s, plain, ign);
        expect_slot(ctx, o->what, o->draw == 'P' ? plain : ign, &s, slot_order_want(o, own));
    }
    /* Flash Player's recorded sequence: one setProgram of <2d,clamp,linear,mipnone>
     * without ignoresampler, then setSamplerStateAt before each of 8 draws */
    const agal_program *recorded = slot_program(ctx, smp(0, AGAL_FILTER_LINEAR, AGAL_MIP_NONE, AGAL_WRAP_CLAMP, 0));
    agal_slots_init(&s);
    agal_slots_set_program(&s, recorded);
    for (unsigned draw = 0; draw < 8; draw++) {
        agal_sampler_state st = {(uint8_t)(draw % 4), (uint8_t)(draw / 4), AGAL_MIP_NONE};
        agal_slots_set_state(&s, 0, st);
        char what[48];
        snprintf(what, sizeof what, "recorded draw %u", draw);
        expect_slot(ctx, what, recorded, &s, st);
    }
    /* a slot holding no state is a bad call, with a diagnostic */
    s.slot[5].filter = 9;
    agal_texture tex = {
        .sampler = 0, .dim = AGAL_DIM_2D, .width = 2, .height = 2, .levels = 1, .images = tex2x2_images};
    agal_interp_env env = {.textures = &tex, .ntextures = 1, .slots = &s};
    agal_interp_invocation in[4];
    memset(in, 0, sizeof in);
    agal_interp_result r[4];
    size_t nd = agal_diag_count(ctx);
    CHECK(plain && agal_interp_run(ctx, plain, &env, in, 4, r) == AGAL_ERR_ARG && agal_diag_count(ctx) == nd + 1 &&
              strstr(agal_diag_get(ctx, nd)->message, "sampler slot 5"),
          "a slot out of range is refused, naming it");
}

/* Cube with 2x2 faces: texel (i, j) of face f has r = 10 f + j*2 + i. */
static float cube_texels[6][4][4];
static const float *const cube_images[6] = {&cube_texels[0][0][0], &cube_texels[1][0][0], &cube_texels[2][0][0],
                                            &cube_texels[3][0][0], &cube_texels[4][0][0], &cube_texels[5][0][0]};

static void test_tex_cube(agal_context *ctx)
{
    for (int f = 0; f < 6; f++)
        for (int k = 0; k < 4; k++) set4(cube_texels[f][k], (float)(10 * f + k), 0, 0, 1);
    agal_texture tex = {
        .sampler = 0, .dim = AGAL_DIM_CUBE, .width = 2, .height = 2, .levels = 1, .images = cube_images};
    /* face, sc, tc per GL table 8.19; s = (sc/|ma| + 1)/2, t = (tc/|ma| + 1)/2 */
    const float q1[4][4] = {
        {1, -0.5f, -0.5f}, /* +x: sc = -rz = 0.5, tc = -ry = 0.5: (1,1) -> 3 */
        {1, 0.5f, 0.5f},   /* +x: sc = -0.5, tc = -0.5: (0,0) -> 0 */
        {-1, 0.5f, 0.5f},  /* -x: sc = rz = 0.5, tc = -ry = -0.5: (1,0) -> 11 */
        {0.5f, 1, -0.5f},  /* +y: sc = rx = 0.5, tc = rz = -0.5: (1,0) -> 21 */
    };
    const float q2[4][4] = {
        {0.5f, -1, 0.5f},  /* -y: sc = rx = 0.5, tc = -rz = -0.5: (1,0) -> 31 */
        {-0.5f, -0.5f, 1}, /* +z: sc = rx = -0.5, tc = -ry = 0.5: (0,1) -> 42 */
        {-0.5f, 0.5f, -1}, /* -z: sc = -rx = 0.5, tc = -ry = -0.5: (1,0) -> 51 */
        {1, 1, 0.25f},     /* tie x/y: x wins: +x, sc = -0.25, tc = -1: s 0.375, t 0: (0,0) -> 0 */
    };
    agal_sampler s = smp(AGAL_DIM_CUBE, AGAL_FILTER_NEAREST, AGAL_MIP_NONE, AGAL_WRAP_CLAMP, 0);
    agal_interp_result r[4];
    if (sample4(ctx, AGAL_OP_TEX, s, &tex, q1, r)) {
        expect4("cube +x (1,1)", 0, r[0].oc[0], 3, 0, 0, 1, 0);
        expect4("cube +x (0,0)", 1, r[1].oc[0], 0, 0, 0, 1, 0);
        expect4("cube -x", 2, r[2].oc[0], 11, 0, 0, 1, 0);
        expect4("cube +y", 3, r[3].oc[0], 21, 0, 0, 1, 0);
    }
    if (sample4(ctx, AGAL_OP_TEX, s, &tex, q2, r)) {
        expect4("cube -y", 0, r[0].oc[0], 31, 0, 0, 1, 0);
        expect4("cube +z", 1, r[1].oc[0], 42, 0, 0, 1, 0);
        expect4("cube -z", 2, r[2].oc[0], 51, 0, 0, 1, 0);
        expect4("cube tie x/y", 3, r[3].oc[0], 0, 0, 0, 1, 0);
    }
    /* linear in the middle of face -z: all four texels: (50+51+52+53)/4 */
    const float mid[4][4] = {{0, 0, -1}, {0, 0, -1}, {0, 0, -1}, {0, 0, -1}};
    s.filter = AGAL_FILTER_LINEAR;
    if (sample4(ctx, AGAL_OP_TEX, s, &tex, mid, r)) expect4("cube linear -z", 0, r[0].oc[0], 51.5f, 0, 0, 1, 1e-5f);
}

/* Cube 4x4 with 3 levels, every face of level l one colour: r = 10 l. */
static float cmip0[6][16][4], cmip1[6][4][4], cmip2[6][1][4];

static void cube_mip_images(const float *images[18])
{
    for (int f = 0; f < 6; f++) {
        for (int k = 0; k < 16; k++) set4(cmip0[f][k], 0, 0, 0, 1);
        for (int k = 0; k < 4; k++) set4(cmip1[f][k], 10, 0, 0, 1);
        set4(cmip2[f][0], 20, 0, 0, 1);
        images[f] = &cmip0[f][0][0];
        images[6 + f] = &cmip1[f][0][0];
        images[12 + f] = &cmip2[f][0][0];
    }
}

static void test_tex_cube_mip(agal_context *ctx)
{
    const float *images[18];
    cube_mip_images(images);
    agal_texture tex = {.sampler = 0, .dim = AGAL_DIM_CUBE, .width = 4, .height = 4, .levels = 3, .images = images};
    /* face -z (|z| = 1 > |x|, |y|): s = (-x + 1)/2, t = (-y + 1)/2; x and y step 1 per
     * pixel, so s and t step 0.5: 2 texels of the 4x4 face, lambda = 1 */
    const float quad[4][4] = {{-0.5f, -0.5f, -1}, {0.5f, -0.5f, -1}, {-0.5f, 0.5f, -1}, {0.5f, 0.5f, -1}};
    agal_interp_result r[4];
    if (sample4(ctx, AGAL_OP_TEX, smp(AGAL_DIM_CUBE, AGAL_FILTER_LINEAR, AGAL_MIP_NEAREST, AGAL_WRAP_CLAMP, 0), &tex,
                quad, r))
        for (int k = 0; k < 4; k++) expect4("cube mip nearest lambda 1", k, r[k].oc[0], 10, 0, 0, 1, 1e-5f);
    if (sample4(ctx, AGAL_OP_TEX, smp(AGAL_DIM_CUBE, AGAL_FILTER_LINEAR, AGAL_MIP_LINEAR, AGAL_WRAP_CLAMP, 4), &tex,
                quad, r))
        for (int k = 0; k < 4; k++) expect4("cube mip linear lambda 1.5", k, r[k].oc[0], 15, 0, 0, 1, 1e-5f);
}

/* Cube LOD by the chain rule through the face projection (texture.c): on the
 * sampling lane's face, with (sc, tc, ma) its signed components of the direction,
 * ds = (dsc |ma| - sc d|ma|) / (2 ma^2), likewise dt, where the d's are the quad's
 * differences of the raw directions; times the face size (4 here). */
static void test_tex_cube_lod(agal_context *ctx)
{
    const float *images[18];
    cube_mip_images(images);
    agal_texture tex = {.sampler = 0, .dim = AGAL_DIM_CUBE, .width = 4, .height = 4, .levels = 3, .images = images};
    /* Face +z for every lane (sc = rx, tc = -ry, ma = rz), depth growing along x:
     *   r0 (0, 0, 1), r1 (1, 0, 2), r2 (0, 0.5, 1), r3 (1, 1, 2).
     * Fine:
     *  lane 0: sc = tc = 0, |ma| = 1. dx = r1 - r0 = (1, 0, 1): ds = 1/2, dt = 0:
     *          2 texels. dy = r2 - r0 = (0, 0.5, 0): dtc = -0.5, dt = -1/4: 1 texel.
     *          lambda = log2(2) = 1. (Projecting r1 on the face instead gives
     *          s = (1/2 + 1)/2 = 0.75, a step of 1 texel: lambda 0.)
     *  lane 1: sc = 1, tc = 0, ma = 2. dx = (1, 0, 1): ds = (1*2 - 1*1)/8 = 1/8
     *          (0.5 texel), dt = 0. dy = r3 - r1 = (0, 1, 0): dt = (-1*2)/8 = -1/4
     *          (1 texel). lambda = 0.
     *  lane 2: sc = 0, tc = -0.5, ma = 1. dx = r3 - r2 = (1, 0.5, 1): ds = 1/2,
     *          dt = (-0.5*1 - (-0.5)*1)/2 = 0: 2 texels. dy = (0, 0.5, 0): 1 texel.
     *          lambda = 1.
     *  lane 3: sc = 1, tc = -1, ma = 2. dx = (1, 0.5, 1): ds = (2 - 1)/8 = 1/8,
     *          dt = (-0.5*2 - (-1)*1)/8 = 0: 0.5 texel. dy = r3 - r1 = (0, 1, 0):
     *          dt = -2/8: 1 texel. lambda = 0.
     * Coarse (dx = r1 - r0 = (1, 0, 1), dy = r2 - r0 = (0, 0.5, 0) for every lane):
     *  lane 0: as fine, 1.
     *  lane 1: ds = 1/8, dt = 0 (0.5 texel); dt = (-0.5*2)/8 (0.5 texel): -1.
     *  lane 2: ds = 1/2, dt = (0 - (-0.5)*1)/2 = 1/4: (2, 1) texels, sqrt(5);
     *          dy: 1 texel. lambda = log2(5)/2 = 1.16096405.
     *  lane 3: ds = 1/8, dt = (0 - (-1)*1)/8 = 1/8: sqrt(1/8) = 0.7071 texel;
     *          dt = (-0.5*2)/8: 0.5 texel. lambda = -0.5. */
    const float depth[4][4] = {{0, 0, 1}, {1, 0, 2}, {0, 0.5f, 1}, {1, 1, 2}};
    static const float fine[4] = {1, 0, 1, 0}, coarse[4] = {1, -1, 1.16096405f, -0.5f};
    for (unsigned k = 0; k < 4; k++) {
        float lf = agal_texture_quad_lod(&tex, depth, k, false), lc = agal_texture_quad_lod(&tex, depth, k, true);
        CHECK(same(lf, fine[k], 1e-5f), "cube fine lod lane %u: got %.9g, want %.9g", k, lf, fine[k]);
        CHECK(same(lc, coarse[k], 1e-5f), "cube coarse lod lane %u: got %.9g, want %.9g", k, lc, coarse[k]);
    }
    /* Through tex with miplinear (level l has r = 10 l): r = 10 lambda within 0..2 */
    agal_sampler ml = smp(AGAL_DIM_CUBE, AGAL_FILTER_LINEAR, AGAL_MIP_LINEAR, AGAL_WRAP_CLAMP, 0);
    agal_interp_result r[4];
    if (sample4x(ctx, AGAL_OP_TEX, ml, &tex, depth, r, false))
        for (int k = 0; k < 4; k++) expect4("cube tex fine lod", k, r[k].oc[0], 10 * fine[k], 0, 0, 1, 1e-4f);
    if (sample4x(ctx, AGAL_OP_TEX, ml, &tex, depth, r, true)) {
        expect4("cube tex coarse lod", 1, r[1].oc[0], 0, 0, 0, 1, 1e-4f);
        expect4("cube tex coarse lod", 2, r[2].oc[0], 11.6096405f, 0, 0, 1, 1e-4f);
    }
    /* Lanes on different faces: each lane uses its own face and the raw differences.
     *   r0 (1, 0, 0.5) +x (sc = -rz = -0.5, tc = -ry = 0, ma = rx = 1),
     *   r1 (2, 0, 3) +z (sc = 2, tc = 0, ma = 3), r2 (1, 0.25, 0.5) +x, r3 (2, 0.25, 3) +z.
     *  lane 0: dx = (1, 0, 2.5): dsc = -2.5, dma = 1: ds = (-2.5*1 - (-0.5)*1)/2 = -1:
     *          4 texels. dy = (0, 0.25, 0): dt = -0.25/2: 0.5 texel. lambda = 2.
     *          (Projecting r1 on +x: s = (-3/2 + 1)/2 = -0.25 against 0.25: 2 texels.)
     *  lane 1: dx: dsc = 1, dma = 2.5: ds = (1*3 - 2*2.5)/18 = -1/9: 4/9 texel.
     *          dy = r3 - r1 = (0, 0.25, 0): dt = (-0.25*3)/18 = -1/24: 1/6 texel.
     *          lambda = log2(4/9) = 2 - 2 log2(3) = -1.169925. */
    const float faces[4][4] = {{1, 0, 0.5f}, {2, 0, 3}, {1, 0.25f, 0.5f}, {2, 0.25f, 3}};
    float l0 = agal_texture_quad_lod(&tex, faces, 0, false), l1 = agal_texture_quad_lod(&tex, faces, 1, false);
    CHECK(same(l0, 2, 1e-5f), "cross-face lod lane 0: got %.9g, want 2", l0);
    CHECK(same(l1, -1.169925f, 1e-5f), "cross-face lod lane 1: got %.9g, want -1.169925", l1);
    if (sample4x(ctx, AGAL_OP_TEX, ml, &tex, faces, r, false)) {
        expect4("cross-face tex lod 2", 0, r[0].oc[0], 20, 0, 0, 1, 1e-4f);
        expect4("cross-face tex lod < 0", 1, r[1].oc[0], 0, 0, 0, 1, 1e-4f);
    }
}

/* ---- lenient programs, bad calls ------------------------------------------- */

static void test_lenient_and_errors(agal_context *ctx)
{
    builder b;
    begin(&b, 2, AGAL_FRAGMENT);
    op2(&b, AGAL_OP_ADD, D(T, 1, XYZW), S(T, 0, ID), S(V, 0, ID)); /* ft0 never written: reads 0 */
    op1(&b, AGAL_OP_MOV, D(O, 0, XYZW), S(T, 1, ID));
    const agal_program *p = decode(ctx, &b, true);
    agal_interp_invocation in[4];
    memset(in, 0, sizeof in);
    for (int k = 0; k < 4; k++) set4(in[k].in[0], (float)k, 1, 2, 3);
    agal_interp_result r[4];
    if (p) {
        CHECK(agal_interp_run(ctx, p, NULL, in, 4, r) == AGAL_OK, "lenient runs");
        expect4("unwritten temp reads 0", 2, r[2].oc[0], 2, 1, 2, 3, 0);
        CHECK(agal_interp_run(ctx, p, NULL, in, 3, r) == AGAL_ERR_ARG, "3 fragment invocations are refused");
    }
    agal_texture tex = {
        .sampler = 0, .dim = AGAL_DIM_2D, .width = 2, .height = 2, .levels = 1, .images = tex2x2_images};
    begin(&b, 2, AGAL_FRAGMENT);
    texop(&b, AGAL_OP_TEX, D(T, 0, XYZW), S(V, 0, ID), smp(AGAL_DIM_CUBE, 0, 0, 0, 0));
    op1(&b, AGAL_OP_MOV, D(O, 0, XYZW), S(T, 0, ID));
    p = decode(ctx, &b, false);
    if (!p) return;
    CHECK(agal_interp_run(ctx, p, NULL, in, 4, r) == AGAL_ERR_ARG, "missing texture is refused");
    agal_interp_env env = {.textures = &tex, .ntextures = 1};
    CHECK(agal_interp_run(ctx, p, &env, in, 4, r) == AGAL_ERR_ARG, "2d texture for a cube sampler is refused");
    tex.dim = AGAL_DIM_CUBE;
    tex.height = 1;
    CHECK(agal_interp_run(ctx, p, &env, in, 4, r) == AGAL_ERR_ARG, "a 2x1 cube is refused");
    tex.dim = AGAL_DIM_2D;
    tex.height = 2;
    tex.levels = 3; /* a 2x2 texture has at most 2 levels */
    CHECK(agal_texture_check(ctx, &tex) == AGAL_ERR_INVALID, "3 levels on 2x2 are refused");
}

int main(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    if (!ctx) return 1;
    test_componentwise(ctx);
    test_vector_ops(ctx);
    test_swizzle(ctx);
    test_relative(ctx);
    test_iid(ctx);
    test_perturbed(ctx);
    test_blocks(ctx);
    test_kil(ctx);
    test_derivatives(ctx);
    test_tex_2d_filters(ctx);
    test_tex_wrap(ctx);
    test_tex_mip(ctx);
    test_tex_slots(ctx);
    test_tex_cube(ctx);
    test_tex_cube_mip(ctx);
    test_tex_cube_lod(ctx);
    test_lenient_and_errors(ctx);
    agal_context_free(ctx);
    if (failures) printf("%d failures\n", failures);
    else printf("all interpreter tests passed\n");
    return failures != 0;
}
