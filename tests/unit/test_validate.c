/* test_validate.c: one negative test per Flash validation rule (docs/format.md section 5),
 * each built token by token from a valid program with exactly one rule broken,
 * asserting the error id and the token index; plus positive, lenient and
 * linkage tests. */
#include "agal/agal.h"
#include "private.h"
#include "tokbuild.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

enum { V = 0, F = 1 };
enum {
    MOV = 0x00,
    ADD = 0x01,
    NRM = 0x0e,
    CRS = 0x11,
    DP3 = 0x12,
    M33 = 0x17,
    M44 = 0x18,
    M34 = 0x19,
    DDX = 0x1a,
    IFE = 0x1c,
    INE = 0x1d,
    IFG = 0x1e,
    ELS = 0x20,
    EIF = 0x21,
    TED = 0x26,
    KIL = 0x27,
    TEX = 0x28
};

/* Valid building blocks. */
#define OP_M44 \
    { \
        M44, DST(OP, 0, 15), SRC(VA, 0, XYZW), SRC(VC, 0, XYZW) \
    }
#define OC_V0 \
    { \
        MOV, DST(OC, 0, 15), SRC(VV, 0, XYZW), 0 \
    }
#define FT0_V0 \
    { \
        MOV, DST(FT, 0, 15), SRC(VV, 0, XYZW), 0 \
    }
#define IF_FT0 \
    { \
        IFE, 0, SRC(FT, 0, XXXX), SRC(FC, 0, XXXX) \
    }
/* A braced initializer as a macro, which clang-format would split: */
/* clang-format off */
#define EIF_ {EIF, 0, 0, 0}
#define ELS_ {ELS, 0, 0, 0}
/* clang-format on */
#define SMP2D SMP(0, 0, 0, 0, 0, 0, 0, 1)
/* A braced initializer as a macro, which clang-format would split: */
/* clang-format off */
#define TEX_FT1 {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP2D}
/* clang-format on */

typedef struct vcase {
    const char *name;
    unsigned stage, version, profile, lenient;
    int expect_id, expect_token; /* token: its index, counting from 0; -1 for the program */
    const char *flash;           /* the whole line Flash throws (e.message), or NULL when valid */
    tok t[12];
} vcase;

static size_t ntokens(const tok *t, size_t cap)
{
    size_t n = 0;
    while (n < cap && (t[n].op || t[n].d || t[n].a || t[n].b)) n++;
    return n;
}

/* Token lists end at the first all-zero token (no test uses one). */
#define C(name, st, ver, id, at, msg, ...) \
    { \
        name, st, ver, 0, 0, id, at, msg, { __VA_ARGS__ } \
    }
/* A braced initializer as a macro, which clang-format would split: */
/* clang-format off */
#define CP(name, st, ver, prof, id, at, msg, ...) {name, st, ver, prof, 0, id, at, msg, {__VA_ARGS__}}
#define CL(name, st, ver, id, at, msg, ...) {name, st, ver, 0, 1, id, at, msg, {__VA_ARGS__}}
/* clang-format on */
#define VF "AGAL validation failed: "

static const vcase cases[] = {
    /* valid programs */
    C("valid vertex", V, 1, 0, 0, NULL, OP_M44),
    C("valid fragment", F, 1, 0, 0, NULL, OC_V0),
    C("valid tex", F, 1, 0, 0, NULL, TEX_FT1, {MOV, DST(OC, 0, 15), SRC(FT, 1, XYZW), 0}),
    C("valid blocks", F, 2, 0, 0, NULL, FT0_V0, IF_FT0, {MOV, DST(FT, 1, 15), SRC(FT, 0, XYZW), 0}, ELS_,
      {MOV, DST(FT, 1, 15), SRC(FC, 1, XYZW), 0}, EIF_, {MOV, DST(OC, 0, 15), SRC(FT, 1, XYZW), 0}),
    C("valid indirect", V, 1, 0, 0, NULL, {MOV, DST(OP, 0, 15), IND(VC, 4, VA, 1, 0, XYZW), 0}),
    C("valid iid indirect", V, 3, 0, 0, NULL, {MOV, DST(OP, 0, 15), IND(VC, 4, IID, 0, 0, XYZW), 0}),
    C("valid vc[iid.x+5] as Adobe encodes it", V, 3, 0, 0, NULL, {MOV, DST(OP, 0, 15), IND(VC, 5, IID, 5, 0, XYZW), 0}),
    C("valid fd", F, 2, 0, 0, NULL, OC_V0, {MOV, DST(FD, 0, 1), SRC(VV, 0, ZZZZ), 0}),
    C("valid positional read", V, 1, 0, 0, NULL, {MOV, DST(VT, 0, 3), SRC(VA, 0, XYZW), 0},
      {MOV, DST(OP, 0, 3), SRC(VT, 0, XYZW), 0}, {MOV, DST(OP, 0, 12), SRC(VA, 1, XYZW), 0}),
    C("valid linear temp tracking", F, 2, 0, 0, NULL, FT0_V0, IF_FT0, {MOV, DST(FT, 1, 15), SRC(FT, 0, XYZW), 0}, EIF_,
      {MOV, DST(OC, 0, 15), SRC(FT, 1, XYZW), 0}),
    C("valid mrt", F, 2, 0, 0, NULL, OC_V0, {MOV, DST(OC, 1, 15), SRC(VV, 1, XYZW), 0}),
    C("valid oc written in two parts", F, 1, 0, 0, NULL, {MOV, DST(OC, 0, 3), SRC(VV, 0, XYZW), 0},
      {MOV, DST(OC, 0, 12), SRC(VV, 0, XYZW), 0}),
    /* opcodes */
    C("3620 opcode above the table", V, 1, 3620, 1,
      "Error #3620: " VF "Invalid opcode, value out of range: 256 at token 2 of vertex program.", OP_M44,
      {0x100, 0, 0, 0}),
    C("3620 opcode 0x2e", F, 1, 3620, 0,
      "Error #3620: " VF "Invalid opcode, value out of range: 46 at token 1 of fragment program.", {0x2e, 0, 0, 0}),
    C("3621 reserved opcode 0x22", V, 1, 3621, 0,
      "Error #3621: " VF "Invalid opcode, 34 is not implemented in this version at token 1 of vertex program.",
      {0x22, 0, 0, 0}),
    C("3621 reserved opcode 0x25", V, 2, 3621, 1,
      "Error #3621: " VF "Invalid opcode, 37 is not implemented in this version at token 2 of vertex program.", OP_M44,
      {0x25, 0, 0, 0}),
    C("3726 ife in AGAL1", F, 1, 3726, 1,
      "Error #3726: " VF "Opcode ife requires AGAL version to be at least 2, at token 2 of fragment program.", FT0_V0,
      IF_FT0),
    C("3726 ddx in AGAL1", F, 1, 3726, 1,
      "Error #3726: " VF "Opcode ddx requires AGAL version to be at least 2, at token 2 of fragment program.", FT0_V0,
      {DDX, DST(FT, 1, 15), SRC(FT, 0, XYZW), 0}),
    CP("3726 ddx with the baseline profile", F, 2, 1, 3726, 1,
       "Error #3726: " VF "Opcode ddx requires AGAL version to be at least 2, at token 2 of fragment program.", FT0_V0,
       {DDX, DST(FT, 1, 15), SRC(FT, 0, XYZW), 0}),
    C("3622 kil in a vertex program", V, 1, 3622, 1,
      "Error #3622: " VF "Opcode kil only allowed in fragment programs at token 2 of vertex program.", OP_M44,
      {KIL, 0, SRC(VA, 0, XXXX), 0}),
    C("3622 tex in a vertex program", V, 1, 3622, 0,
      "Error #3622: " VF "Opcode tex only allowed in fragment programs at token 1 of vertex program.",
      {TEX, DST(VT, 0, 15), SRC(VA, 0, XYZW), SMP2D}),
    /* blocks */
    C("3623 eif without if", F, 2, 3623, 1,
      "Error #3623: " VF "Block nesting underflow - EIF without opening IF condition. At token 2 of fragment program.",
      OC_V0, EIF_),
    C("3623 els without if", F, 2, 3623, 1,
      "Error #3623: " VF "Block nesting underflow - EIF without opening IF condition. At token 2 of fragment program.",
      OC_V0, ELS_),
    C("3624 five nested blocks", F, 2, 3624, 5,
      "Error #3624: " VF "Block nesting overflow. Too many nested IF blocks. At token 6 of fragment program.", FT0_V0,
      IF_FT0, IF_FT0, IF_FT0, IF_FT0, IF_FT0),
    C("3739 block open at the end", F, 2, 3739, -1,
      "Error #3739: " VF "Open conditional block at end of fragment program.", FT0_V0, IF_FT0,
      {MOV, DST(FT, 1, 15), SRC(FT, 0, XYZW), 0}),
    C("3748 empty if branch", F, 2, 3748, 2, "Error #3748: " VF "Empty conditional branch in AGAL of fragment program.",
      FT0_V0, IF_FT0, ELS_),
    C("3748 empty else branch", F, 2, 3748, 4,
      "Error #3748: " VF "Empty conditional branch in AGAL of fragment program.", FT0_V0, IF_FT0,
      {MOV, DST(FT, 1, 15), SRC(FT, 0, XYZW), 0}, ELS_, EIF_),
    C("3752 two els", F, 2, 3752, 5, "Error #3752: " VF "Broken else chain.", FT0_V0, IF_FT0,
      {MOV, DST(FT, 1, 15), SRC(FT, 0, XYZW), 0}, ELS_, {MOV, DST(FT, 1, 15), SRC(FT, 0, XYZW), 0}, ELS_),
    C("3758 identical condition operands", F, 2, 3758, 1,
      "Error #3758: " VF
      "Conditional source are exactly the same, condition is constant. At token 2 of fragment program.",
      FT0_V0, {IFG, 0, SRC(FT, 0, XXXX), SRC(FT, 0, XXXX)}),
    C("3742 ddx inside a block", F, 2, 3742, 2,
      "Error #3742: " VF
      "DDX and DDY opcodes are not allowed inside conditional blocks. At token 3 of fragment program.",
      FT0_V0, IF_FT0, {DDX, DST(FT, 1, 15), SRC(FT, 0, XYZW), 0}),
    C("3741 tex with computed coordinates in a block", F, 2, 3741, 2,
      "Error #3741: " VF
      "TEX instructions in an if block can not use computed texture coordinates. Either use interpolated "
      "texture coordinates or use the TED instruction instead. At token 3 of fragment program.",
      FT0_V0, IF_FT0, {TEX, DST(FT, 1, 15), SRC(FT, 0, XYZW), SMP2D}),
    C("3751 output written in a block", F, 2, 3751, 2,
      "Error #3751: " VF "Output registers can not be written inside conditionals.", FT0_V0, IF_FT0, OC_V0),
    /* operands */
    C("3625 both sources constants", V, 1, 3625, 0,
      "Error #3625: " VF
      "Bad AGAL source operands. Both are constants (this must be precomputed) at token 1 of vertex program.",
      {ADD, DST(VT, 0, 15), SRC(VC, 0, XYZW), SRC(VC, 1, XYZW)}),
    C("3626 both sources indirect", V, 1, 3626, 0,
      "Error #3626: " VF "Opcode add, both operands are indirect reads at token 1 of vertex program.",
      {ADD, DST(VT, 0, 15), IND(VC, 0, VA, 0, 0, XYZW), IND(VC, 1, VA, 0, 1, XYZW)}),
    C("3627 kil with a destination", F, 1, 3627, 1,
      "Error #3627: " VF "Opcode kil destination operand must be all zero at token 2 of fragment program.", OC_V0,
      {KIL, DST(FT, 0, 15), SRC(VV, 0, XXXX), 0}),
    C("3627 els with a destination", F, 2, 3627, 3,
      "Error #3627: " VF "Opcode els destination operand must be all zero at token 4 of fragment program.", FT0_V0,
      IF_FT0, FT0_V0, {ELS, DST(FT, 0, 1), 0, 0}),
    C("3636 mov with a second source", V, 1, 3636, 0,
      "Error #3636: " VF "Unused operand is not set to zero for source operand 2 at token 1 of vertex program.",
      {MOV, DST(OP, 0, 15), SRC(VA, 0, XYZW), SRC(VA, 1, XYZW)}),
    C("3636 eif with a source", F, 2, 3636, 3,
      "Error #3636: " VF "Unused operand is not set to zero for source operand 1 at token 4 of fragment program.",
      FT0_V0, IF_FT0, {MOV, DST(FT, 1, 15), SRC(FT, 0, XYZW), 0}, {EIF, 0, SRC(FT, 0, XYZW), 0}),
    C("3654 reserved destination bits", V, 1, 3654, 0,
      "Error #3654: " VF "Reserve bits should be zero for destination operand at token 1 of vertex program.",
      {MOV, DST(OP, 0, 15) | 1u << 20, SRC(VA, 0, XYZW), 0}),
    C("3654 reserved source bits", V, 1, 3654, 0,
      "Error #3654: " VF "Reserve bits should be zero for source operand 1 at token 1 of vertex program.",
      {MOV, DST(OP, 0, 15), SRC(VA, 0, XYZW) | 1ull << 36, 0}),
    C("3654 reserved sampler bits", F, 1, 3654, 0,
      "Error #3654: " VF "Reserve bits should be zero for source operand 2 at token 1 of fragment program.",
      {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP2D | 1ull << 24}),
    C("3655 unknown destination type", V, 1, 3655, 0,
      "Error #3655: " VF "Unknown register type for destination operand at token 1 of vertex program.",
      {MOV, DST(8, 0, 15), SRC(VA, 0, XYZW), 0}),
    C("3655 unknown source type", V, 1, 3655, 0,
      "Error #3655: " VF "Unknown register type for source operand 1 at token 1 of vertex program.",
      {MOV, DST(OP, 0, 15), SRC(9, 0, XYZW), 0}),
    C("3653 zero write mask", V, 1, 3653, 0,
      "Error #3653: " VF "Destination writemask is zero for destination operand at token 1 of vertex program.",
      {MOV, DST(OP, 0, 0), SRC(VA, 0, XYZW), 0}),
    C("3628 nrm writes w", V, 1, 3628, 0,
      "Error #3628: " VF
      "The destination operand for the nrm instruction must mask w (use .xyz or less) at token 1 of vertex "
      "program.",
      {NRM, DST(VT, 0, 15), SRC(VA, 0, XYZW), 0}),
    C("3628 crs writes w", V, 1, 3628, 0,
      "Error #3628: " VF
      "The destination operand for the crs instruction must mask w (use .xyz or less) at token 1 of vertex "
      "program.",
      {CRS, DST(VT, 0, 15), SRC(VA, 0, XYZW), SRC(VA, 1, XYZW)}),
    C("3628 m33 writes w", V, 1, 3628, 0,
      "Error #3628: " VF
      "The destination operand for the m33 instruction must mask w (use .xyz or less) at token 1 of vertex "
      "program.",
      {M33, DST(VT, 0, 15), SRC(VA, 0, XYZW), SRC(VC, 0, XYZW)}),
    C("3628 m34 writes w", V, 1, 3628, 0,
      "Error #3628: " VF
      "The destination operand for the m34 instruction must mask w (use .xyz or less) at token 1 of vertex "
      "program.",
      {M34, DST(VT, 0, 15), SRC(VA, 0, XYZW), SRC(VC, 0, XYZW)}),
    C("3703 kil needs a scalar", F, 1, 3703, 1,
      "Error #3703: " VF
      "Source swizzle must be scalar (one of: xxxx, yyyy, zzzz, wwww) for source operand 1 at token 2 of "
      "fragment program.",
      OC_V0, {KIL, 0, SRC(VV, 0, XYZW), 0}),
    C("3703 condition needs a scalar", F, 2, 3703, 1,
      "Error #3703: " VF
      "Source swizzle must be scalar (one of: xxxx, yyyy, zzzz, wwww) for source operand 1 at token 2 of "
      "fragment program.",
      FT0_V0, {INE, 0, SRC(FT, 0, 0x04), SRC(FC, 0, XXXX)}),
    C("3703 second condition operand", F, 2, 3703, 1,
      "Error #3703: " VF
      "Source swizzle must be scalar (one of: xxxx, yyyy, zzzz, wwww) for source operand 2 at token 2 of "
      "fragment program.",
      FT0_V0, {INE, 0, SRC(FT, 0, XXXX), SRC(FC, 0, XYZW)}),
    C("3689 swizzled matrix operand", V, 1, 3689, 0,
      "Error #3689: You can not swizzle second operand for source operand 2 at token 1 of vertex program.",
      {M44, DST(OP, 0, 15), SRC(VA, 0, XYZW), SRC(VC, 0, 0x1B)}),
    /* indirect addressing */
    C("3639 indirect in a fragment program", F, 1, 3639, 0,
      "Error #3639: " VF
      "Indirect addressing only allowed in vertex programs for source operand 1 at token 1 of fragment "
      "program.",
      {MOV, DST(OC, 0, 15), IND(FC, 0, FT, 0, 0, XYZW), 0}),
    C("3640 indirect into a temporary", V, 1, 3640, 1,
      "Error #3640: " VF
      "Indirect addressing only allowed into constant registers for source operand 1 at token 2 of vertex "
      "program.",
      {MOV, DST(VT, 0, 15), SRC(VA, 0, XYZW), 0}, {MOV, DST(OP, 0, 15), IND(VT, 0, VA, 0, 0, XYZW), 0}),
    C("3641 indirect condition operand", V, 2, 3641, 0,
      "Error #3641: " VF
      "Indirect addressing not allowed for this operand in this instruction for source operand 1 at token 1 "
      "of vertex program.",
      {IFE, 0, IND(VC, 0, VA, 0, 0, XXXX), SRC(VA, 1, XXXX)}),
    C("3642 index register is an output", V, 1, 3642, 0,
      "Error #3642: " VF
      "Indirect source type must be attribute, constant or temporary for source operand 1 at token 1 of "
      "vertex program.",
      {MOV, DST(OP, 0, 15), IND(VC, 0, OP, 0, 0, XYZW), 0}),
    C("3642 iid index before AGAL3", V, 2, 3642, 0,
      "Error #3642: " VF
      "Indirect source type must be attribute, constant or temporary for source operand 1 at token 1 of "
      "vertex program.",
      {MOV, DST(OP, 0, 15), IND(VC, 0, IID, 0, 0, XYZW), 0}),
    C("3643 indirect fields on a direct source", V, 1, 3643, 0,
      "Error #3643: " VF
      "Indirect addressing fields must be zero for direct addressing for source operand 1 at token 1 of "
      "vertex program.",
      {MOV, DST(OP, 0, 15), SRC(VA, 0, XYZW) | 5ull << 16, 0}),
    /* register access */
    C("3644 varying read in a vertex program", V, 1, 3644, 0,
      "Error #3644: " VF
      "Varying registers can only be read in fragment programs for source operand 1 at token 1 of vertex "
      "program.",
      {MOV, DST(OP, 0, 15), SRC(VV, 0, XYZW), 0}),
    C("3645 attribute read in a fragment program", F, 1, 3645, 0,
      "Error #3645: " VF
      "Attribute registers can only be read in vertex programs for source operand 1 at token 1 of fragment "
      "program.",
      {MOV, DST(OC, 0, 15), SRC(VA, 0, XYZW), 0}),
    C("3646 read of op", V, 1, 3646, 1,
      "Error #3646: " VF "Can not read from output register for source operand 1 at token 2 of vertex program.", OP_M44,
      {MOV, DST(VT, 0, 15), SRC(OP, 0, XYZW), 0}),
    C("3646 read of fd in AGAL2", F, 2, 3646, 1,
      "Error #3646: " VF "Can not read from output register for source operand 1 at token 2 of fragment program.",
      OC_V0, {MOV, DST(FT, 0, 15), SRC(FD, 0, XXXX), 0}),
    C("3646 second source reads oc", F, 1, 3646, 1,
      "Error #3646: " VF "Can not read from output register for source operand 2 at token 2 of fragment program.",
      OC_V0, {ADD, DST(FT, 0, 15), SRC(VV, 0, XYZW), SRC(OC, 0, XYZW)}),
    C("3647 temporary never written", V, 1, 3647, 0,
      "Error #3647: " VF
      "Temporary register read without being written to for source operand 1 at token 1 of vertex program.",
      {MOV, DST(OP, 0, 15), SRC(VT, 0, XYZW), 0}),
    C("3647 index temporary never written", V, 1, 3647, 0,
      "Error #3647: " VF
      "Temporary register read without being written to for source operand 1 at token 1 of vertex program.",
      {MOV, DST(OP, 0, 15), IND(VC, 0, VT, 3, 0, XYZW), 0}),
    C("3648 temporary component not written", V, 1, 3648, 1,
      "Error #3648: " VF
      "Temporary register component read without being written to for source operand 1 at token 2 of vertex "
      "program.",
      {MOV, DST(VT, 2, 1), SRC(VA, 0, XYZW), 0}, {MOV, DST(OP, 0, 15), SRC(VT, 2, YYYY), 0}),
    C("3648 dp3 reads z", V, 1, 3648, 1,
      "Error #3648: " VF
      "Temporary register component read without being written to for source operand 1 at token 2 of vertex "
      "program.",
      {MOV, DST(VT, 0, 3), SRC(VA, 0, XYZW), 0}, {DP3, DST(OP, 0, 15), SRC(VT, 0, XYZW), SRC(VA, 0, XYZW)}),
    C("3648 matrix row not written", V, 1, 3648, 3,
      "Error #3648: " VF
      "Temporary register component read without being written to for source operand 2 at token 4 of vertex "
      "program.",
      {MOV, DST(VT, 0, 15), SRC(VA, 0, XYZW), 0}, {MOV, DST(VT, 1, 15), SRC(VA, 1, XYZW), 0},
      {MOV, DST(VT, 2, 7), SRC(VA, 2, XYZW), 0}, {M34, DST(OP, 0, 7), SRC(VA, 0, XYZW), SRC(VT, 0, XYZW)}),
    C("valid m33 reads xyz of each row", V, 1, 0, 0, NULL, {MOV, DST(VT, 0, 15), SRC(VA, 0, XYZW), 0},
      {MOV, DST(VT, 1, 15), SRC(VA, 1, XYZW), 0}, {MOV, DST(VT, 2, 7), SRC(VA, 2, XYZW), 0},
      {M33, DST(OP, 0, 7), SRC(VA, 0, XYZW), SRC(VT, 0, XYZW)}, {MOV, DST(OP, 0, 8), SRC(VA, 0, XYZW), 0}),
    C("3649 write to a sampler", F, 1, 3649, 0,
      "Error #3649: " VF
      "Sampler registers can not be written to for destination operand at token 1 of fragment program.",
      {MOV, DST(FS, 0, 15), SRC(VV, 0, XYZW), 0}),
    C("3650 varying written in a fragment program", F, 1, 3650, 0,
      "Error #3650: " VF
      "Varying registers can only be written in vertex programs for destination operand at token 1 of "
      "fragment program.",
      {MOV, DST(VV, 0, 15), SRC(FC, 0, XYZW), 0}),
    C("3651 write to an attribute", V, 1, 3651, 0,
      "Error #3651: " VF
      "Attribute registers can not be written to for destination operand at token 1 of vertex program.",
      {MOV, DST(VA, 0, 15), SRC(VC, 0, XYZW), 0}),
    C("3652 write to a constant", V, 1, 3652, 0,
      "Error #3652: " VF
      "Constant registers can not be written to for destination operand at token 1 of vertex program.",
      {MOV, DST(VC, 0, 15), SRC(VA, 0, XYZW), 0}),
    C("3637 sampler in a vertex program", V, 1, 3637, 0,
      "Error #3637: " VF
      "Sampler registers only allowed in fragment programs for source operand 1 at token 1 of vertex "
      "program.",
      {MOV, DST(OP, 0, 15), SRC(FS, 0, XYZW), 0}),
    C("3693 tex without a sampler", F, 1, 3693, 0,
      "Error #3693: " VF
      "Sampler register must be used for second operand in texture instructions for source operand 2 at "
      "token 1 of fragment program.",
      {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SRC(FT, 0, XYZW)}),
    C("3638 sampler as a mov source", F, 1, 3638, 0,
      "Error #3638: " VF
      "Sampler register only allowed as second operand in texture instructions for source operand 1 at "
      "token 1 of fragment program.",
      {MOV, DST(OC, 0, 15), SRC(FS, 0, XYZW), 0}),
    C("3638 sampler as tex coordinates", F, 1, 3638, 0,
      "Error #3638: " VF
      "Sampler register only allowed as second operand in texture instructions for source operand 1 at "
      "token 1 of fragment program.",
      {TEX, DST(FT, 1, 15), SRC(FS, 0, XYZW), SMP2D}),
    C("3750 fd written in a vertex program", V, 2, 3750, 1,
      "Error #3750: " VF "Depth output register is only available in "
      "fragment programs.",
      OP_M44, {MOV, DST(FD, 0, 1), SRC(VA, 0, XXXX), 0}),
    C("3750 fd read in a vertex program", V, 2, 3750, 0,
      "Error #3750: " VF "Depth output register is only available in "
      "fragment programs.",
      {MOV, DST(OP, 0, 15), SRC(FD, 0, XXXX), 0}),
    C("3749 fd written in AGAL1", F, 1, 3749, 1,
      "Error #3749: " VF
      "Depth output register index out of bounds for destination operand at token 2 of fragment program.",
      OC_V0, {MOV, DST(FD, 0, 1), SRC(VV, 0, XXXX), 0}),
    C("3749 fd read in AGAL1", F, 1, 3749, 0,
      "Error #3749: " VF
      "Depth output register index out of bounds for source operand 1 at token 1 of fragment program.",
      {MOV, DST(FT, 0, 15), SRC(FD, 0, XYZW), 0}),
    C("3756 fd mask xy", F, 2, 3756, 1,
      "Error #3756: " VF "Depth output must set only x as a write mask. At token 2 of fragment "
      "program.",
      OC_V0, {MOV, DST(FD, 0, 3), SRC(VV, 0, XXXX), 0}),
    C("3749 fd1", F, 2, 3749, 1,
      "Error #3749: " VF
      "Depth output register index out of bounds for destination operand at token 2 of fragment program.",
      OC_V0, {MOV, DST(FD, 1, 1), SRC(VV, 0, XXXX), 0}),
    C("3788 iid in a fragment program", F, 3, 3788, 0,
      "Error #3788: Instance id register can only be read in the vertex shader.",
      {MOV, DST(OC, 0, 15), SRC(IID, 0, XYZW), 0}),
    C("3789 iid in AGAL2", V, 2, 3789, 0,
      "Error #3789: " VF "Instance id register is supported in Agal version 3 and above.",
      {MOV, DST(OP, 0, 15), SRC(IID, 0, XYZW), 0}),
    C("3786 iid written", V, 3, 3786, 0,
      "Error #3786: " VF
      "Instance id register can not be written to for destination operand at token 1 of vertex program.",
      {MOV, DST(IID, 0, 15), SRC(VA, 0, XYZW), 0}),
    C("3655 iid1", V, 3, 3655, 0,
      "Error #3655: " VF "Unknown register type for source operand 1 at token 1 of vertex program.",
      {MOV, DST(OP, 0, 15), SRC(IID, 1, XYZW), 0}),
    C("3744 oc component written twice", F, 1, 3744, 1,
      "Error #3744: " VF "Color output written to multiple times. At token 2 of fragment program.", OC_V0,
      {MOV, DST(OC, 0, 8), SRC(VV, 0, XYZW), 0}),
    /* index ranges */
    C("3656 fs8 in AGAL1", F, 1, 3656, 0,
      "Error #3656: " VF "Sampler register index out of bounds for source operand 2 at token 1 of fragment program.",
      {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(8, 0, 0, 0, 0, 0, 0, 1)}),
    C("3656 fs16 in AGAL2", F, 2, 3656, 0,
      "Error #3656: " VF "Sampler register index out of bounds for source operand 2 at token 1 of fragment program.",
      {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(16, 0, 0, 0, 0, 0, 0, 1)}),
    C("3657 v8 in AGAL1", F, 1, 3657, 0,
      "Error #3657: " VF "Varying register index out of bounds for source operand 1 at token 1 of fragment program.",
      {MOV, DST(OC, 0, 15), SRC(VV, 8, XYZW), 0}),
    C("3657 v10 written in AGAL2", V, 2, 3657, 0,
      "Error #3657: " VF "Varying register index out of bounds for destination operand at token 1 of vertex program.",
      {MOV, DST(VV, 10, 15), SRC(VA, 0, XYZW), 0}),
    C("3658 va8 in AGAL1", V, 1, 3658, 0,
      "Error #3658: " VF "Attribute register index out of bounds for source operand 1 at token 1 of vertex program.",
      {MOV, DST(OP, 0, 15), SRC(VA, 8, XYZW), 0}),
    C("3658 va16 in AGAL3", V, 3, 3658, 0,
      "Error #3658: " VF "Attribute register index out of bounds for source operand 1 at token 1 of vertex program.",
      {MOV, DST(OP, 0, 15), SRC(VA, 16, XYZW), 0}),
    C("3659 vc128 in AGAL1", V, 1, 3659, 0,
      "Error #3659: " VF "Constant register index out of bounds for source operand 1 at token 1 of vertex program.",
      {MOV, DST(OP, 0, 15), SRC(VC, 128, XYZW), 0}),
    C("3659 m44 rows past vc127", V, 1, 3659, 0,
      "Error #3659: " VF "Constant register index out of bounds for source operand 2 at token 1 of vertex program.",
      {M44, DST(OP, 0, 15), SRC(VA, 0, XYZW), SRC(VC, 125, XYZW)}),
    C("3659 fc28 in AGAL1", F, 1, 3659, 0,
      "Error #3659: " VF "Constant register index out of bounds for source operand 1 at token 1 of fragment program.",
      {MOV, DST(OC, 0, 15), SRC(FC, 28, XYZW), 0}),
    C("3660 op1", V, 1, 3660, 0,
      "Error #3660: " VF "Output register index out of bounds for destination operand at token 1 of vertex program.",
      {MOV, DST(OP, 1, 15), SRC(VA, 0, XYZW), 0}),
    C("3660 oc1 in AGAL1", F, 1, 3660, 1,
      "Error #3660: " VF "Output register index out of bounds for destination operand at token 2 of fragment program.",
      OC_V0, {MOV, DST(OC, 1, 15), SRC(VV, 0, XYZW), 0}),
    C("3660 oc4 in AGAL2", F, 2, 3660, 1,
      "Error #3660: " VF "Output register index out of bounds for destination operand at token 2 of fragment program.",
      OC_V0, {MOV, DST(OC, 4, 15), SRC(VV, 0, XYZW), 0}),
    C("3661 vt8 in AGAL1", V, 1, 3661, 0,
      "Error #3661: " VF "Temporary register index out of bounds for destination operand at token 1 of vertex program.",
      {MOV, DST(VT, 8, 15), SRC(VA, 0, XYZW), 0}),
    C("3661 index temporary out of range", V, 2, 3661, 0,
      "Error #3661: " VF "Temporary register index out of bounds for source operand 1 at token 1 of vertex program.",
      {MOV, DST(OP, 0, 15), IND(VC, 0, VT, 26, 0, XYZW), 0}),
    C("3775 oc1 without oc0", F, 2, 3775, -1, "Error #3775: " VF "Non-consecutive slots are not allowed.",
      {MOV, DST(OC, 1, 15), SRC(VV, 0, XYZW), 0}),
    /* samplers */
    C("3662 cube with repeat", F, 1, 3662, 0,
      "Error #3662: " VF
      "Cube map samplers must set wrapping to clamp mode for source operand 2 at token 1 of fragment program.",
      {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(0, 0, 0, 1, 0, 1, 0, 1)}),
    C("3664 3d texture", F, 1, 3664, 0,
      "Error #3664: " VF "Unknown sampler dimension 2 for source operand 2 at token 1 of fragment program.",
      {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(0, 0, 0, 2, 0, 0, 0, 1)}),
    C("3664 dimension 5", F, 1, 3664, 0,
      "Error #3664: " VF "Unknown sampler dimension 5 for source operand 2 at token 1 of fragment program.",
      {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(0, 0, 0, 5, 0, 0, 0, 1)}),
    C("3665 filter 6", F, 1, 3665, 0,
      "Error #3665: " VF "Unknown filter mode in sampler: 6 for source operand 2 at token 1 of fragment program.",
      {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(0, 0, 0, 0, 0, 0, 0, 6)}),
    C("3666 mipmap 3", F, 1, 3666, 0,
      "Error #3666: " VF "Unknown mipmap mode in sampler: 3 for source operand 2 at token 1 of fragment program.",
      {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(0, 0, 0, 0, 0, 0, 3, 1)}),
    C("3667 wrap 4", F, 1, 3667, 0,
      "Error #3667: " VF "Unknown wrapping mode in sampler: 4 for source operand 2 at token 1 of fragment program.",
      {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(0, 0, 0, 0, 0, 4, 0, 1)}),
    C("3668 special 8", F, 1, 3668, 0,
      "Error #3668: " VF "Unknown special flag used in sampler: 8 for source operand 2 at token 1 of fragment program.",
      {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(0, 0, 0, 0, 8, 0, 0, 1)}),
    C("3654 texture format 4", F, 1, 3654, 0,
      "Error #3654: " VF "Reserve bits should be zero for source operand 2 at token 1 of fragment program.",
      {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(0, 0, 4, 0, 0, 0, 0, 1)}),
    C("3696 sampler reused with other settings", F, 1, 3696, 1,
      "Error #3696: " VF
      "Second use of sampler register needs to specify the exact same properties. At token 2 of fragment "
      "program.",
      TEX_FT1, {TEX, DST(FT, 2, 15), SRC(VV, 0, XYZW), SMP(0, 0, 0, 0, 0, 0, 0, 0)}),
    C("valid sampler reused with another bias", F, 1, 0, 0, NULL, TEX_FT1,
      {TEX, DST(FT, 2, 15), SRC(VV, 0, XYZW), SMP(0, -4, 0, 0, 0, 0, 0, 1)},
      {ADD, DST(OC, 0, 15), SRC(FT, 1, XYZW), SRC(FT, 2, XYZW)}),
    C("3743 ted without mipmaps", F, 2, 3743, 0,
      "Error #3743: " VF "The TED opcode must enable mip mapping. At token 1 of fragment program.",
      {TED, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(0, 0, 0, 0, 0, 0, 0, 1)}),
    C("3740 ted with a bias", F, 2, 3740, 0,
      "Error #3740: " VF
      "Texture samplers used in the TED instruction can not specify a lod bias. At token 1 of fragment "
      "program.",
      {TED, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(0, 8, 0, 0, 0, 0, 2, 1)}),
    /* lenient: what is safe is accepted, what is not is still refused */
    CL("lenient: unwritten temporary", V, 1, 0, 0, NULL, {MOV, DST(OP, 0, 15), SRC(VT, 0, XYZW), 0}),
    CL("lenient: both constants", V, 1, 0, 0, NULL, {ADD, DST(OP, 0, 15), SRC(VC, 0, XYZW), SRC(VC, 1, XYZW)}),
    CL("lenient: reserved bits", V, 1, 0, 0, NULL, {MOV, DST(OP, 0, 15) | 1u << 20, SRC(VA, 0, XYZW), 0}),
    CL("lenient: empty branch", F, 2, 0, 0, NULL, FT0_V0, IF_FT0, EIF_, OC_V0),
    CL("lenient: output in a block", F, 2, 0, 0, NULL, FT0_V0, IF_FT0, OC_V0, EIF_),
    CL("lenient: oc written twice", F, 1, 0, 0, NULL, OC_V0, OC_V0),
    CL("lenient still refuses unknown register types", V, 1, 3655, 0,
       "Error #3655: " VF "Unknown register type for source operand 1 at token 1 of vertex program.",
       {MOV, DST(OP, 0, 15), SRC(9, 0, XYZW), 0}),
    CL("lenient still refuses out-of-range registers", V, 1, 3659, 0,
       "Error #3659: " VF "Constant register index out of bounds for source operand 1 at token 1 of vertex program.",
       {MOV, DST(OP, 0, 15), SRC(VC, 200, XYZW), 0}),
    CL("lenient still refuses broken nesting", F, 2, 3623, 1,
       "Error #3623: " VF "Block nesting underflow - EIF without opening IF condition. At token 2 of fragment program.",
       OC_V0, EIF_),
    CL("lenient still refuses open blocks", F, 2, 3739, -1,
       "Error #3739: " VF "Open conditional block at end of fragment program.", FT0_V0, IF_FT0, OC_V0),
};

#include "check.h"

static agal_status decode(agal_context *ctx, const uint8_t *buf, size_t n, unsigned profile, bool lenient,
                          const agal_program **prog)
{
    agal_decode_options opt = {
        .size = sizeof(agal_decode_options), .profile = (agal_profile)profile, .lenient = lenient};
    return agal_decode(ctx, buf, n, &opt, prog);
}

/* The error Flash throws for a diagnostic. */
static agal_flash_error flash_of(const agal_diag *d)
{
    agal_flash_error e;
    agal_flash_error_of(d, &e);
    return e;
}

/* The first diagnostic is the expected one: id, token, our format (token counted
 * from 1), and Flash's message line (when flash is given). */
static void expect_diag(agal_context *ctx, agal_status st, const char *name, int id, int token, const char *flash)
{
    if (!id) {
        const agal_diag *d = agal_diag_get(ctx, 0);
        CHECK(st == AGAL_OK, "%s: expected valid, got %d (%s)", name, st, d ? d->message : "-");
        return;
    }
    CHECK(st == AGAL_ERR_INVALID, "%s: expected error %d, got status %d", name, id, st);
    const agal_diag *d = agal_diag_get(ctx, 0);
    if (!d) return;
    CHECK(d->flash_id == id, "%s: expected error %d, got %d (%s)", name, id, d->flash_id, d->message);
    CHECK(d->token == token, "%s: expected token %d, got %d", name, token, d->token);
    char line[512], want[64];
    agal_diag_format(d, "t.bin", line, sizeof line);
    if (token >= 0) snprintf(want, sizeof want, "t.bin: token %d", token + 1);
    else snprintf(want, sizeof want, "t.bin: error %d: ", id);
    CHECK(!strncmp(line, want, strlen(want)), "%s: formatted diagnostic does not start '%s': %s", name, want, line);
    if (!flash) return;
    agal_flash_error e = flash_of(d);
    agal_flash_message(&e, line, sizeof line);
    CHECK(!strcmp(line, flash), "%s: Flash message\n   got: %s\n  want: %s", name, line, flash);
    CHECK(!strcmp(agal_flash_class(&e), "Error"), "%s: thrown as %s", name, agal_flash_class(&e));
}

static void run_cases(agal_context *ctx)
{
    uint8_t buf[7 + 24 * 16];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const vcase *c = &cases[i];
        CHECK(!c->expect_id == !c->flash, "%s: a failing case names Flash's message", c->name);
        size_t n = build_program(buf, c->stage, c->version, c->t, ntokens(c->t, 12));
        const agal_program *prog = NULL;
        agal_status st = decode(ctx, buf, n, c->profile, c->lenient, &prog);
        expect_diag(ctx, st, c->name, c->expect_id, c->expect_token, c->flash);
        agal_context_reset(ctx);
    }
}

/* ---- the container, in Flash's order ---------------------------------------- */

typedef struct ccase {
    const char *name;
    unsigned slot; /* agal_slot */
    const uint8_t *bytes;
    size_t size;
    const char *flash; /* Flash's message line */
    const char *class; /* the ActionScript class Flash throws */
} ccase;

static void expect_container(agal_context *ctx, const ccase *c)
{
    agal_decode_options opt = {.size = sizeof(agal_decode_options), .slot = (agal_slot)c->slot};
    const agal_program *prog;
    agal_status st = agal_decode(ctx, c->bytes, c->size, &opt, &prog);
    const agal_diag *d = agal_diag_get(ctx, 0);
    CHECK(st == AGAL_ERR_INVALID && d, "%s: rejected", c->name);
    if (d) {
        char line[512];
        agal_flash_error e = flash_of(d);
        agal_flash_message(&e, line, sizeof line);
        CHECK(!strcmp(line, c->flash), "%s: Flash message\n   got: %s\n  want: %s", c->name, line, c->flash);
        CHECK(!strcmp(agal_flash_class(&e), c->class), "%s: class %s, want %s", c->name, agal_flash_class(&e),
              c->class);
        CHECK(d->token == -1, "%s: a container error names no token (%d)", c->name, d->token);
    }
    agal_context_reset(ctx);
}

static void run_container_cases(agal_context *ctx)
{
    static uint8_t buf[7 + 24 * 2100];
    static const uint8_t v99[7] = {0xa0, 99, 0, 0, 0, 0xa1, 1}, type2[7] = {0xa0, 1, 0, 0, 0, 0xa1, 2};
    static const uint8_t two[2] = {0xa0, 0x01};
    tok t = OP_M44;
    size_t n = build_program(buf, V, 1, &t, 1);
    const ccase order[] = {
        /* recorded from Flash Player (Ruffle's stage3d_agal_upload_errors): "empty",
         * "bad_version" and "bad_shader_type", uploaded as the fragment program. */
        {"recorded: empty", AGAL_SLOT_FRAGMENT, buf, 0,
         "Error #3615: AGAL validation failed: Program size below minimum length for  program.", "ArgumentError"},
        {"recorded: header-only, version 99", AGAL_SLOT_FRAGMENT, v99, 7,
         "Error #3615: AGAL validation failed: Program size below minimum length for fragment program.", "Error"},
        {"recorded: header-only, shader type 2", AGAL_SLOT_FRAGMENT, type2, 7,
         "Error #3615: AGAL validation failed: Program size below minimum length for fragment program.", "Error"},
        {"two bytes, named by the slot", AGAL_SLOT_VERTEX, two, 2,
         "Error #3615: AGAL validation failed: Program size below minimum length for vertex program.", "Error"},
        {"30 bytes: one short of a header and a token", AGAL_SLOT_HEADER, buf, 30,
         "Error #3615: AGAL validation failed: Program size below minimum length for vertex program.", "Error"},
    };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) expect_container(ctx, &order[i]);
    /* The fields in order, each on a program of one whole token. */
    buf[0] = 0xB0;
    expect_container(
        ctx, &(ccase){"3616 magic 0xb0", AGAL_SLOT_HEADER, buf, n,
                      "Error #3616: AGAL validation failed: Not an AGAL program. Wrong magic byte for vertex program.",
                      "Error"});
    put32(buf + 1, 4); /* a wrong magic is found before the version */
    expect_container(
        ctx,
        &(ccase){"3616 before 3617", AGAL_SLOT_FRAGMENT, buf, n,
                 "Error #3616: AGAL validation failed: Not an AGAL program. Wrong magic byte for fragment program.",
                 "Error"});
    buf[0] = 0xA0;
    expect_container(
        ctx, &(ccase){"3617 version 4", AGAL_SLOT_HEADER, buf, n,
                      "Error #3617: AGAL validation failed: Bad AGAL version for vertex program. Current version is 3.",
                      "Error"});
    put32(buf + 1, 0);
    expect_container(
        ctx, &(ccase){"3617 version 0", AGAL_SLOT_HEADER, buf, n,
                      "Error #3617: AGAL validation failed: Bad AGAL version for vertex program. Current version is 3.",
                      "Error"});
    put32(buf + 1, 1);
    buf[5] = 0xA2;
    expect_container(
        ctx,
        &(ccase){"3618 type id 0xa2", AGAL_SLOT_HEADER, buf, n,
                 "Error #3618: AGAL validation failed: Bad AGAL program type identifier for vertex program.", "Error"});
    buf[5] = 0xA1;
    buf[6] = 2;
    expect_container(
        ctx,
        &(ccase){
            "3619 shader type 2", AGAL_SLOT_FRAGMENT, buf, n,
            "Error #3619: AGAL validation failed: Shader type must be either fragment or vertex for fragment program.",
            "Error"});
    buf[6] = 0;
    /* A program in the other slot: 3631 (Flash's message table), after the fields. */
    expect_container(ctx, &(ccase){"3630 a vertex program as the fragment program", AGAL_SLOT_FRAGMENT, buf, n,
                                   "Error #3630: Fragment shader type is not fragment.", "Error"});
    buf[6] = 1;
    expect_container(ctx, &(ccase){"3631 a fragment program as the vertex program", AGAL_SLOT_VERTEX, buf, n,
                                   "Error #3631: Vertex shader type is not vertex.", "Error"});
    buf[6] = 0;
    expect_container(
        ctx, &(ccase){"3615 a trailing partial token", AGAL_SLOT_HEADER, buf, n + 23,
                      "Error #3615: AGAL validation failed: Program size below minimum length for vertex program.",
                      "Error"});
    const agal_program *prog;
    /* 3629: 201 tokens in AGAL1, 1025 in AGAL2, 2049 in AGAL3; accepted at the limit */
    static const unsigned limits[3] = {200, 1024, 2048};
    for (unsigned ver = 1; ver <= 3; ver++) {
        static tok many[2049];
        for (unsigned i = 0; i < 2049; i++) many[i] = (tok)OP_M44;
        n = build_program(buf, V, ver, many, limits[ver - 1]);
        CHECK(decode(ctx, buf, n, 0, false, &prog) == AGAL_OK, "limit: %u tokens in AGAL%u", limits[ver - 1], ver);
        agal_context_reset(ctx);
        n = build_program(buf, V, ver, many, limits[ver - 1] + 1);
        char want[128];
        snprintf(want, sizeof want, "Error #3629: AGAL validation failed: Too many tokens (%u) for vertex program.",
                 limits[ver - 1] + 1);
        expect_container(ctx, &(ccase){"3629 too many tokens", AGAL_SLOT_HEADER, buf, n, want, "Error"});
        CHECK(decode(ctx, buf, n, 0, true, &prog) == AGAL_OK, "lenient accepts %u tokens", limits[ver - 1] + 1);
        agal_context_reset(ctx);
    }
}

/* ---- Flash Player's recorded uploads ------------------------------------------ */

/* The 16 Program3D.upload calls of Ruffle's test stage3d_agal_upload_errors, whose
 * outcome was recorded from Flash Player: the bytes as its Test.as writes them and
 * the message Flash threw. Two of them (bad_header, truncated) are 3612 "Programs
 * must be in little endian format": Flash raises it for a big-endian ByteArray
 * before reading a byte, so the bytes cannot tell; an emulator checks the flag and
 * throws 3612 itself (agal_upload, from its options). Those two are not byte cases here. */

enum { REG_ATTR = 0, REG_CONST = 1, REG_TEMP = 2, REG_OUT = 3, REG_VARY = 4, REG_SMP = 5, REG_DEPTH = 6 };

/* Test.as's writeMov: mov <dest>, <source>, optionally indirect. */
static tok recorded_mov(unsigned dtype, unsigned dnum, unsigned stype, unsigned snum, bool indirect, unsigned itype)
{
    tok t = {MOV, DST(dtype, dnum, 15), SRC(stype, snum, XYZW), 0};
    if (indirect) t.a |= (uint64_t)itype << 40 | (uint64_t)1 << 63;
    return t;
}

typedef struct upload {
    const char *label;
    size_t nv, nf; /* tokens of the vertex and fragment programs */
    tok v[2], f[3];
    const uint8_t *fbytes; /* the fragment program as raw bytes instead (fsize of them) */
    size_t fsize;
    const char *flash; /* NULL: uploaded */
} upload;

static void run_recorded_uploads(agal_context *ctx)
{
    static const uint8_t bad_opcode[31] = {0xa0, 1, 0, 0, 0, 0xa1, 1, 0xff};
    static const uint8_t empty[1] = {0};
    static const uint8_t bad_version[7] = {0xa0, 99, 0, 0, 0, 0xa1, 1}, bad_type[7] = {0xa0, 1, 0, 0, 0, 0xa1, 2};
    tok mov_op_va0 = {MOV, DST(OP, 0, 15), SRC(VA, 0, XYZW), 0},
        mov_v0_va1 = {MOV, DST(VV, 0, 15), SRC(VA, 1, XYZW), 0};
    tok valid_f = recorded_mov(REG_OUT, 0, REG_CONST, 0, false, 0);
    /* <2d,repeat,linear,mipnone> then <2d,repeat,linear,mipnearest> */
    tok tex1 = {TEX, DST(FT, 0, 15), SRC(VV, 0, XYZW), SMP(0, 0, 0, 0, 0, 1, 0, 1)};
    tok tex2 = {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(0, 0, 0, 0, 0, 1, 1, 1)};
    tok add = {ADD, DST(OC, 0, 15), SRC(FT, 0, XYZW), SRC(FT, 1, XYZW)};
    const upload ups[] = {
        {"valid", 2, 1, {mov_op_va0, mov_v0_va1}, {valid_f}, NULL, 0, NULL},
        {"sampler_conflict",
         2,
         3,
         {mov_op_va0, mov_v0_va1},
         {tex1, tex2, add},
         NULL,
         0,
         "Error #3696: AGAL validation failed: Second use of sampler register needs to specify the exact same "
         "properties. "
         "At token 2 of fragment program."},
        {"empty",
         2,
         0,
         {mov_op_va0, mov_v0_va1},
         {{0}},
         empty,
         0,
         "Error #3615: AGAL validation failed: Program size below minimum length for  program."},
        {"bad_version",
         2,
         0,
         {mov_op_va0, mov_v0_va1},
         {{0}},
         bad_version,
         7,
         "Error #3615: AGAL validation failed: Program size below minimum length for fragment program."},
        {"bad_shader_type",
         2,
         0,
         {mov_op_va0, mov_v0_va1},
         {{0}},
         bad_type,
         7,
         "Error #3615: AGAL validation failed: Program size below minimum length for fragment program."},
        {"bad_opcode",
         2,
         0,
         {mov_op_va0, mov_v0_va1},
         {{0}},
         bad_opcode,
         31,
         "Error #3620: AGAL validation failed: Invalid opcode, value out of range: 255 at token 1 of fragment "
         "program."},
        {"source_output",
         2,
         2,
         {mov_op_va0, mov_v0_va1},
         {recorded_mov(REG_TEMP, 0, REG_OUT, 0, false, 0), valid_f},
         NULL,
         0,
         "Error #3646: AGAL validation failed: Can not read from output register for source operand 1 at token 1 of "
         "fragment "
         "program."},
        {"source_sampler",
         2,
         2,
         {mov_op_va0, mov_v0_va1},
         {recorded_mov(REG_TEMP, 0, REG_SMP, 0, false, 0), valid_f},
         NULL,
         0,
         "Error #3638: AGAL validation failed: Sampler register only allowed as second operand in texture instructions "
         "for "
         "source operand 1 at token 1 of fragment program."},
        {"dest_constant",
         2,
         1,
         {mov_op_va0, mov_v0_va1},
         {recorded_mov(REG_CONST, 0, REG_CONST, 0, false, 0)},
         NULL,
         0,
         "Error #3652: AGAL validation failed: Constant registers can not be written to for destination operand at "
         "token 1 of "
         "fragment program."},
        {"dest_attribute",
         1,
         1,
         {recorded_mov(REG_ATTR, 0, REG_CONST, 0, false, 0)},
         {valid_f},
         NULL,
         0,
         "Error #3651: AGAL validation failed: Attribute registers can not be written to for destination operand at "
         "token 1 of "
         "vertex program."},
        {"dest_sampler",
         2,
         1,
         {mov_op_va0, mov_v0_va1},
         {recorded_mov(REG_SMP, 0, REG_CONST, 0, false, 0)},
         NULL,
         0,
         "Error #3649: AGAL validation failed: Sampler registers can not be written to for destination operand at "
         "token 1 of "
         "fragment program."},
        {"dest_fragreg",
         2,
         1,
         {mov_op_va0, mov_v0_va1},
         {recorded_mov(REG_DEPTH, 0, REG_CONST, 0, false, 0)},
         NULL,
         0,
         "Error #3749: AGAL validation failed: Depth output register index out of bounds for destination operand at "
         "token 1 of "
         "fragment program."},
        {"indirect_frag",
         2,
         1,
         {mov_op_va0, mov_v0_va1},
         {recorded_mov(REG_OUT, 0, REG_TEMP, 0, true, REG_CONST)},
         NULL,
         0,
         "Error #3639: AGAL validation failed: Indirect addressing only allowed in vertex programs for source operand "
         "1 at "
         "token 1 of fragment program."},
        {"indirect_non_const",
         1,
         1,
         {recorded_mov(REG_OUT, 0, REG_TEMP, 0, true, REG_ATTR)},
         {valid_f},
         NULL,
         0,
         "Error #3640: AGAL validation failed: Indirect addressing only allowed into constant registers for source "
         "operand 1 at "
         "token 1 of vertex program."},
        {"indirect_valid", 1, 1, {recorded_mov(REG_OUT, 0, REG_CONST, 0, true, REG_ATTR)}, {valid_f}, NULL, 0, NULL},
        {"source_fragreg",
         2,
         2,
         {mov_op_va0, mov_v0_va1},
         {recorded_mov(REG_TEMP, 0, REG_DEPTH, 0, false, 0), valid_f},
         NULL,
         0,
         "Error #3749: AGAL validation failed: Depth output register index out of bounds for source operand 1 at token "
         "1 of "
         "fragment program."},
    };
    uint8_t vb[7 + 24 * 2], fb[7 + 24 * 3];
    for (size_t i = 0; i < sizeof ups / sizeof ups[0]; i++) {
        const upload *u = &ups[i];
        size_t nv = build_program(vb, V, 1, u->v, u->nv);
        size_t nf = u->fbytes ? u->fsize : build_program(fb, F, 1, u->f, u->nf);
        const agal_program *vp = NULL, *fp = NULL;
        agal_decode_options vo = {.size = sizeof(agal_decode_options), .slot = AGAL_SLOT_VERTEX},
                            fo = {.size = sizeof(agal_decode_options), .slot = AGAL_SLOT_FRAGMENT};
        agal_status st = agal_decode(ctx, vb, nv, &vo, &vp);
        if (st == AGAL_OK) st = agal_decode(ctx, u->fbytes ? u->fbytes : fb, nf, &fo, &fp);
        if (st == AGAL_OK) st = agal_link(ctx, vp, fp);
        char line[512] = "uploaded";
        const agal_diag *d = agal_diag_get(ctx, 0);
        if (st != AGAL_OK && d) {
            agal_flash_error e = flash_of(d);
            agal_flash_message(&e, line, sizeof line);
        }
        CHECK(!strcmp(line, u->flash ? u->flash : "uploaded"), "recorded upload %s\n   got: %s\n  want: %s", u->label,
              line, u->flash ? u->flash : "uploaded");
        agal_context_reset(ctx);
    }
    CHECK(!strcmp(agal_flash_template(3612), "Programs must be in little endian format."), "3612's template");
    CHECK(!strcmp(agal_flash_class(&(agal_flash_error){.id = 3612}), "ArgumentError"), "3612 is an ArgumentError");
}

/* ---- linkage -------------------------------------------------------------- */

typedef struct lcase {
    const char *name;
    unsigned vversion, fversion;
    bool lenient;
    int expect_id;
    const char *flash;
    size_t nv, nf;
    tok v[4], f[4];
} lcase;

/* A braced initializer as a macro, which clang-format would split: */
/* clang-format off */
#define V0_VA1 {MOV, DST(VV, 0, 15), SRC(VA, 1, XYZW), 0}
/* clang-format on */
static const lcase lcases[] = {
    {"linked pair", 1, 1, false, 0, NULL, 2, 1, {OP_M44, V0_VA1}, {OC_V0}},
    {"3757 versions differ",
     1,
     2,
     false,
     3757,
     "Error #3757: " VF "Vertex and fragment program need to have the same version.",
     2,
     1,
     {OP_M44, V0_VA1},
     {OC_V0}},
    {"3635 op partly written",
     1,
     1,
     false,
     3635,
     "Error #3635: AGAL linkage: Vertex output needs to write to all components.",
     2,
     1,
     {{MOV, DST(OP, 0, 7), SRC(VA, 0, XYZW), 0}, V0_VA1},
     {OC_V0}},
    {"3632 varying not written",
     1,
     1,
     false,
     3632,
     "Error #3632: AGAL linkage: Varying 0 is read in the fragment shader but not written to by the vertex shader.",
     1,
     1,
     {OP_M44},
     {OC_V0}},
    {"3632 varying 3 not written",
     1,
     1,
     false,
     3632,
     "Error #3632: AGAL linkage: Varying 3 is read in the fragment shader but not written to by the vertex shader.",
     2,
     2,
     {OP_M44, V0_VA1},
     {FT0_V0, {ADD, DST(OC, 0, 15), SRC(FT, 0, XYZW), SRC(VV, 3, XYZW)}}},
    {"3633 varying partly written",
     1,
     1,
     false,
     3633,
     "Error #3633: AGAL linkage: Varying 0 is only partially written to. Must write all four components.",
     2,
     1,
     {OP_M44, {MOV, DST(VV, 0, 3), SRC(VA, 1, XYZW), 0}},
     {OC_V0}},
    {"3632 before 3635 (Flash's table order)",
     1,
     1,
     false,
     3632,
     "Error #3632: AGAL linkage: Varying 0 is read in the fragment shader but not written to by the vertex shader.",
     1,
     1,
     {{MOV, DST(OP, 0, 7), SRC(VA, 0, XYZW), 0}},
     {OC_V0}},
    {"3634 oc partly written",
     1,
     1,
     false,
     3634,
     "Error #3634: AGAL linkage: Fragment output needs to write to all components.",
     2,
     1,
     {OP_M44, V0_VA1},
     {{MOV, DST(OC, 0, 7), SRC(VV, 0, XYZW), 0}}},
    {"lenient pair: oc written twice links",
     1,
     1,
     true,
     0,
     NULL,
     2,
     2,
     {OP_M44, V0_VA1},
     {OC_V0, {MOV, DST(OC, 0, 8), SRC(VV, 0, XYZW), 0}}},
    {"lenient pair: still 3634",
     1,
     1,
     true,
     3634,
     "Error #3634: AGAL linkage: Fragment output needs to write to all components.",
     2,
     1,
     {OP_M44, V0_VA1},
     {{MOV, DST(OC, 0, 7), SRC(VV, 0, XYZW), 0}}},
};

static void run_link_cases(agal_context *ctx)
{
    uint8_t vb[7 + 24 * 4], fb[7 + 24 * 4];
    for (size_t i = 0; i < sizeof lcases / sizeof lcases[0]; i++) {
        const lcase *c = &lcases[i];
        size_t nv = build_program(vb, V, c->vversion, c->v, c->nv);
        size_t nf = build_program(fb, F, c->fversion, c->f, c->nf);
        const agal_program *vp, *fp;
        CHECK(decode(ctx, vb, nv, 0, c->lenient, &vp) == AGAL_OK, "%s: vertex program valid", c->name);
        CHECK(decode(ctx, fb, nf, 0, c->lenient, &fp) == AGAL_OK, "%s: fragment program valid", c->name);
        if (!failures) expect_diag(ctx, agal_link(ctx, vp, fp), c->name, c->expect_id, -1, c->flash);
        agal_context_reset(ctx);
    }
}

/* The decoded fields of one token, and our own diagnostic format. */
static void run_field_checks(agal_context *ctx)
{
    uint8_t buf[7 + 24 * 4];
    tok t[4] = {{MOV, DST(VT, 2, 1), SRC(VA, 0, XYZW), 0},
                {MOV, DST(VT, 1, 15), IND(VC, 12, VA, 1, 2, 0x1B), 0},
                {M44, DST(OP, 0, 15), SRC(VT, 1, XYZW), SRC(VC, 4, XYZW)},
                {MOV, DST(VV, 0, 15), SRC(VT, 2, YYYY), 0}};
    size_t n = build_program(buf, V, 1, t, 4);
    const agal_program *prog;
    agal_status st = decode(ctx, buf, n, 0, false, &prog);
    CHECK(st == AGAL_ERR_INVALID, "ft2.y read");
    const agal_diag *d = agal_diag_get(ctx, 0);
    char line[256] = "";
    if (d) agal_diag_format(d, "shader.bin", line, sizeof line);
    /* The fourth token: index 3, which people read as token 4. */
    CHECK(!strcmp(line, "shader.bin: token 4 (mov): error 3648: vt2.y is read before it is written"), "format: %s",
          line);
    CHECK(d && d->token == 3 && d->offset == 7 + 3 * 24 && d->operand == AGAL_OPERAND_SOURCE1,
          "token index and offset");
    agal_context_reset(ctx);
    n = build_program(buf, V, 1, t, 3);
    CHECK(decode(ctx, buf, n, 0, false, &prog) == AGAL_OK, "three tokens valid");
    const agal_source *s = &prog->tokens[1].a;
    CHECK(s->indirect && s->type == VC && s->num == 12 && s->index_type == VA && s->index_num == 1 &&
              s->index_comp == 2 && s->swizzle == 0x1B,
          "indirect fields split");
    CHECK(prog->tokens[0].dst.type == VT && prog->tokens[0].dst.num == 2 && prog->tokens[0].dst.mask == 1,
          "dest fields");
    CHECK(prog->profile == AGAL_PROFILE_BASELINE && prog->version == 1 && prog->stage == AGAL_VERTEX, "header fields");
    uint8_t enc[24];
    for (unsigned i = 0; i < 3; i++) {
        agal_token_encode(&prog->tokens[i], enc);
        CHECK(!memcmp(enc, buf + 7 + 24 * i, 24), "token %u re-encodes to its bytes", i);
    }
    agal_context_reset(ctx);
    /* A diagnostic without a Flash id: our message, as an Error. */
    agal_diag plain = {.flash_id = 0, .token = -1, .message = "out of memory"};
    agal_flash_error e = flash_of(&plain);
    agal_flash_message(&e, line, sizeof line);
    CHECK(!strcmp(line, "Error: out of memory"), "plain message: %s", line);
    CHECK(!strcmp(agal_flash_class(&e), "Error"), "plain class: %s", agal_flash_class(&e));
}

/* ---- every id the library reports has Flash's template ------------------------ */

/* Reads the library's sources and checks that every Flash id a diagnostic is made
 * with has a template: a new rule without its message fails here. The ids are the
 * 36xx/37xx literals of those files (fail(), agal_error(), container_error(),
 * link_error() and the range_id() table). */
static void check_templates(const char *srcdir)
{
    static const char *const files[] = {"core/decode.c", "core/validate.c", "interp/interp.c", "ir/join.c",
                                        "ir/build.c"};
    unsigned seen = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", srcdir, files[f]);
        FILE *fp = fopen(path, "rb");
        CHECK(fp != NULL, "cannot read %s", path);
        if (!fp) continue;
        static char text[1 << 20];
        size_t n = fread(text, 1, sizeof text - 1, fp);
        fclose(fp);
        text[n] = 0;
        for (char *p = text; (p = strchr(p, '3')) != NULL; p++) {
            /* inside a word (a hex literal such as 0x9e3779b9) is not an id */
            if ((p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) || p[1] < '6' || p[1] > '7') continue;
            char *end;
            long id = strtol(p, &end, 10);
            if (end - p != 4 || isalnum((unsigned char)*end) || *end == '_') continue;
            seen++;
            CHECK(agal_flash_template((int)id) != NULL, "%s uses Flash id %ld, which has no template", files[f], id);
        }
    }
    CHECK(seen >= 60, "found only %u Flash ids in the sources", seen);
}

int main(int argc, char **argv)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    run_cases(ctx);
    run_container_cases(ctx);
    run_recorded_uploads(ctx);
    run_link_cases(ctx);
    run_field_checks(ctx);
    if (argc > 1) check_templates(argv[1]);
    else CHECK(argc > 1, "usage: test_validate SRCDIR");
    agal_context_free(ctx);
    size_t total = sizeof cases / sizeof cases[0] + sizeof lcases / sizeof lcases[0];
    printf("%zu rule cases, %d failures\n", total, failures);
    return failures ? 1 : 0;
}
