/* test_validate.c: one negative test per Flash validation rule (spec section 5),
 * each built token by token from a valid program with exactly one rule broken,
 * asserting the error id and the token index; plus positive, lenient and
 * linkage tests. */
#include "agal.h"
#include "tokbuild.h"

#include <stdio.h>
#include <stdlib.h>

enum { V = 0, F = 1 };
enum { MOV = 0x00, ADD = 0x01, NRM = 0x0e, CRS = 0x11, DP3 = 0x12, M33 = 0x17, M44 = 0x18, M34 = 0x19,
       DDX = 0x1a, IFE = 0x1c, INE = 0x1d, IFG = 0x1e, ELS = 0x20, EIF = 0x21, TED = 0x26, KIL = 0x27, TEX = 0x28 };

/* Valid building blocks. */
#define OP_M44 {M44, DST(OP, 0, 15), SRC(VA, 0, XYZW), SRC(VC, 0, XYZW)}
#define OC_V0 {MOV, DST(OC, 0, 15), SRC(VV, 0, XYZW), 0}
#define FT0_V0 {MOV, DST(FT, 0, 15), SRC(VV, 0, XYZW), 0}
#define IF_FT0 {IFE, 0, SRC(FT, 0, XXXX), SRC(FC, 0, XXXX)}
#define EIF_ {EIF, 0, 0, 0}
#define ELS_ {ELS, 0, 0, 0}
#define SMP2D SMP(0, 0, 0, 0, 0, 0, 0, 1)
#define TEX_FT1 {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP2D}

typedef struct vcase {
    const char *name;
    unsigned stage, version, profile, lenient;
    int expect_id, expect_token;
    tok t[12];
} vcase;

static size_t ntokens(const tok *t, size_t cap)
{
    size_t n = 0;
    while (n < cap && (t[n].op || t[n].d || t[n].a || t[n].b)) n++;
    return n;
}

/* Token lists end at the first all-zero token (no test uses one). */
#define C(name, st, ver, id, at, ...) {name, st, ver, 0, 0, id, at, {__VA_ARGS__}}
#define CP(name, st, ver, prof, id, at, ...) {name, st, ver, prof, 0, id, at, {__VA_ARGS__}}
#define CL(name, st, ver, id, at, ...) {name, st, ver, 0, 1, id, at, {__VA_ARGS__}}

static const vcase cases[] = {
    /* valid programs */
    C("valid vertex", V, 1, 0, 0, OP_M44),
    C("valid fragment", F, 1, 0, 0, OC_V0),
    C("valid tex", F, 1, 0, 0, TEX_FT1, {MOV, DST(OC, 0, 15), SRC(FT, 1, XYZW), 0}),
    C("valid blocks", F, 2, 0, 0, FT0_V0, IF_FT0, {MOV, DST(FT, 1, 15), SRC(FT, 0, XYZW), 0}, ELS_,
      {MOV, DST(FT, 1, 15), SRC(FC, 1, XYZW), 0}, EIF_, {MOV, DST(OC, 0, 15), SRC(FT, 1, XYZW), 0}),
    C("valid indirect", V, 1, 0, 0, {MOV, DST(OP, 0, 15), IND(VC, 4, VA, 1, 0, XYZW), 0}),
    C("valid iid indirect", V, 3, 0, 0, {MOV, DST(OP, 0, 15), IND(VC, 4, IID, 0, 0, XYZW), 0}),
    C("valid vc[iid.x+5] as Adobe encodes it", V, 3, 0, 0, {MOV, DST(OP, 0, 15), IND(VC, 5, IID, 5, 0, XYZW), 0}),
    C("valid fd", F, 2, 0, 0, OC_V0, {MOV, DST(FD, 0, 1), SRC(VV, 0, ZZZZ), 0}),
    C("valid positional read", V, 1, 0, 0, {MOV, DST(VT, 0, 3), SRC(VA, 0, XYZW), 0},
      {MOV, DST(OP, 0, 3), SRC(VT, 0, XYZW), 0}, {MOV, DST(OP, 0, 12), SRC(VA, 1, XYZW), 0}),
    C("valid linear temp tracking", F, 2, 0, 0, FT0_V0, IF_FT0, {MOV, DST(FT, 1, 15), SRC(FT, 0, XYZW), 0}, EIF_,
      {MOV, DST(OC, 0, 15), SRC(FT, 1, XYZW), 0}),
    C("valid mrt", F, 2, 0, 0, OC_V0, {MOV, DST(OC, 1, 15), SRC(VV, 1, XYZW), 0}),
    /* container-independent opcode rules */
    C("3620 unknown opcode 0x22", V, 1, 3620, 0, {0x22, 0, 0, 0}),
    C("3620 opcode above the table", V, 1, 3620, 1, OP_M44, {0x100, 0, 0, 0}),
    C("3621 ife in AGAL1", F, 1, 3621, 1, FT0_V0, IF_FT0),
    C("3621 ddx in AGAL1", F, 1, 3621, 1, FT0_V0, {DDX, DST(FT, 1, 15), SRC(FT, 0, XYZW), 0}),
    CP("3726 ddx with the baseline profile", F, 2, 1, 3726, 1, FT0_V0, {DDX, DST(FT, 1, 15), SRC(FT, 0, XYZW), 0}),
    C("3622 kil in a vertex program", V, 1, 3622, 1, OP_M44, {KIL, 0, SRC(VA, 0, XXXX), 0}),
    C("3622 tex in a vertex program", V, 1, 3622, 0, {TEX, DST(VT, 0, 15), SRC(VA, 0, XYZW), SMP2D}),
    /* blocks */
    C("3623 eif without if", F, 2, 3623, 1, OC_V0, EIF_),
    C("3623 els without if", F, 2, 3623, 1, OC_V0, ELS_),
    C("3624 five nested blocks", F, 2, 3624, 5, FT0_V0, IF_FT0, IF_FT0, IF_FT0, IF_FT0, IF_FT0),
    C("3739 block open at the end", F, 2, 3739, -1, FT0_V0, IF_FT0, {MOV, DST(FT, 1, 15), SRC(FT, 0, XYZW), 0}),
    C("3748 empty if branch", F, 2, 3748, 2, FT0_V0, IF_FT0, ELS_),
    C("3748 empty else branch", F, 2, 3748, 4, FT0_V0, IF_FT0, {MOV, DST(FT, 1, 15), SRC(FT, 0, XYZW), 0}, ELS_, EIF_),
    C("3752 two els", F, 2, 3752, 5, FT0_V0, IF_FT0, {MOV, DST(FT, 1, 15), SRC(FT, 0, XYZW), 0}, ELS_,
      {MOV, DST(FT, 1, 15), SRC(FT, 0, XYZW), 0}, ELS_),
    C("3758 identical condition operands", F, 2, 3758, 1, FT0_V0, {IFG, 0, SRC(FT, 0, XXXX), SRC(FT, 0, XXXX)}),
    C("3742 ddx inside a block", F, 2, 3742, 2, FT0_V0, IF_FT0, {DDX, DST(FT, 1, 15), SRC(FT, 0, XYZW), 0}),
    C("3741 tex with computed coordinates in a block", F, 2, 3741, 2, FT0_V0, IF_FT0,
      {TEX, DST(FT, 1, 15), SRC(FT, 0, XYZW), SMP2D}),
    C("3751 output written in a block", F, 2, 3751, 2, FT0_V0, IF_FT0, OC_V0),
    /* operands */
    C("3625 both sources constants", V, 1, 3625, 0, {ADD, DST(VT, 0, 15), SRC(VC, 0, XYZW), SRC(VC, 1, XYZW)}),
    C("3626 both sources indirect", V, 1, 3626, 0,
      {ADD, DST(VT, 0, 15), IND(VC, 0, VA, 0, 0, XYZW), IND(VC, 1, VA, 0, 1, XYZW)}),
    C("3627 kil with a destination", F, 1, 3627, 1, OC_V0, {KIL, DST(FT, 0, 15), SRC(VV, 0, XXXX), 0}),
    C("3627 els with a destination", F, 2, 3627, 3, FT0_V0, IF_FT0, FT0_V0, {ELS, DST(FT, 0, 1), 0, 0}),
    C("3636 mov with a second source", V, 1, 3636, 0, {MOV, DST(OP, 0, 15), SRC(VA, 0, XYZW), SRC(VA, 1, XYZW)}),
    C("3636 eif with a source", F, 2, 3636, 3, FT0_V0, IF_FT0, {MOV, DST(FT, 1, 15), SRC(FT, 0, XYZW), 0},
      {EIF, 0, SRC(FT, 0, XYZW), 0}),
    C("3654 reserved destination bits", V, 1, 3654, 0, {MOV, DST(OP, 0, 15) | 1u << 20, SRC(VA, 0, XYZW), 0}),
    C("3654 reserved source bits", V, 1, 3654, 0, {MOV, DST(OP, 0, 15), SRC(VA, 0, XYZW) | 1ull << 36, 0}),
    C("3654 reserved sampler bits", F, 1, 3654, 0, {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP2D | 1ull << 24}),
    C("3655 unknown destination type", V, 1, 3655, 0, {MOV, DST(8, 0, 15), SRC(VA, 0, XYZW), 0}),
    C("3655 unknown source type", V, 1, 3655, 0, {MOV, DST(OP, 0, 15), SRC(9, 0, XYZW), 0}),
    C("3653 zero write mask", V, 1, 3653, 0, {MOV, DST(OP, 0, 0), SRC(VA, 0, XYZW), 0}),
    C("3628 nrm writes w", V, 1, 3628, 0, {NRM, DST(VT, 0, 15), SRC(VA, 0, XYZW), 0}),
    C("3628 crs writes w", V, 1, 3628, 0, {CRS, DST(VT, 0, 15), SRC(VA, 0, XYZW), SRC(VA, 1, XYZW)}),
    C("3628 m33 writes w", V, 1, 3628, 0, {M33, DST(VT, 0, 15), SRC(VA, 0, XYZW), SRC(VC, 0, XYZW)}),
    C("3628 m34 writes w", V, 1, 3628, 0, {M34, DST(VT, 0, 15), SRC(VA, 0, XYZW), SRC(VC, 0, XYZW)}),
    C("3703 kil needs a scalar", F, 1, 3703, 1, OC_V0, {KIL, 0, SRC(VV, 0, XYZW), 0}),
    C("3703 condition needs a scalar", F, 2, 3703, 1, FT0_V0, {INE, 0, SRC(FT, 0, 0x04), SRC(FC, 0, XXXX)}),
    C("3689 swizzled matrix operand", V, 1, 3689, 0, {M44, DST(OP, 0, 15), SRC(VA, 0, XYZW), SRC(VC, 0, 0x1B)}),
    /* indirect addressing */
    C("3639 indirect in a fragment program", F, 1, 3639, 0, {MOV, DST(OC, 0, 15), IND(FC, 0, FT, 0, 0, XYZW), 0}),
    C("3640 indirect into a temporary", V, 1, 3640, 1, {MOV, DST(VT, 0, 15), SRC(VA, 0, XYZW), 0},
      {MOV, DST(OP, 0, 15), IND(VT, 0, VA, 0, 0, XYZW), 0}),
    C("3641 indirect condition operand", V, 2, 3641, 0, {IFE, 0, IND(VC, 0, VA, 0, 0, XXXX), SRC(VA, 1, XXXX)}),
    C("3642 index register is an output", V, 1, 3642, 0, {MOV, DST(OP, 0, 15), IND(VC, 0, OP, 0, 0, XYZW), 0}),
    C("3642 iid index before AGAL3", V, 2, 3642, 0, {MOV, DST(OP, 0, 15), IND(VC, 0, IID, 0, 0, XYZW), 0}),
    C("3643 indirect fields on a direct source", V, 1, 3643, 0,
      {MOV, DST(OP, 0, 15), SRC(VA, 0, XYZW) | 5ull << 16, 0}),
    /* register access */
    C("3644 varying read in a vertex program", V, 1, 3644, 0, {MOV, DST(OP, 0, 15), SRC(VV, 0, XYZW), 0}),
    C("3645 attribute read in a fragment program", F, 1, 3645, 0, {MOV, DST(OC, 0, 15), SRC(VA, 0, XYZW), 0}),
    C("3646 read of op", V, 1, 3646, 1, OP_M44, {MOV, DST(VT, 0, 15), SRC(OP, 0, XYZW), 0}),
    C("3646 read of fd", F, 2, 3646, 1, OC_V0, {MOV, DST(FT, 0, 15), SRC(FD, 0, XXXX), 0}),
    C("3647 temporary never written", V, 1, 3647, 0, {MOV, DST(OP, 0, 15), SRC(VT, 0, XYZW), 0}),
    C("3647 index temporary never written", V, 1, 3647, 0, {MOV, DST(OP, 0, 15), IND(VC, 0, VT, 3, 0, XYZW), 0}),
    C("3648 temporary component not written", V, 1, 3648, 1, {MOV, DST(VT, 2, 1), SRC(VA, 0, XYZW), 0},
      {MOV, DST(OP, 0, 15), SRC(VT, 2, YYYY), 0}),
    C("3648 dp3 reads z", V, 1, 3648, 1, {MOV, DST(VT, 0, 3), SRC(VA, 0, XYZW), 0},
      {DP3, DST(OP, 0, 15), SRC(VT, 0, XYZW), SRC(VA, 0, XYZW)}),
    C("3648 matrix row not written", V, 1, 3648, 3, {MOV, DST(VT, 0, 15), SRC(VA, 0, XYZW), 0},
      {MOV, DST(VT, 1, 15), SRC(VA, 1, XYZW), 0}, {MOV, DST(VT, 2, 7), SRC(VA, 2, XYZW), 0},
      {M34, DST(OP, 0, 7), SRC(VA, 0, XYZW), SRC(VT, 0, XYZW)}),
    C("valid m33 reads xyz of each row", V, 1, 0, 0, {MOV, DST(VT, 0, 15), SRC(VA, 0, XYZW), 0},
      {MOV, DST(VT, 1, 15), SRC(VA, 1, XYZW), 0}, {MOV, DST(VT, 2, 7), SRC(VA, 2, XYZW), 0},
      {M33, DST(OP, 0, 7), SRC(VA, 0, XYZW), SRC(VT, 0, XYZW)}, {MOV, DST(OP, 0, 8), SRC(VA, 0, XYZW), 0}),
    C("3649 write to a sampler", F, 1, 3649, 0, {MOV, DST(FS, 0, 15), SRC(VV, 0, XYZW), 0}),
    C("3650 varying written in a fragment program", F, 1, 3650, 0, {MOV, DST(VV, 0, 15), SRC(FC, 0, XYZW), 0}),
    C("3651 write to an attribute", V, 1, 3651, 0, {MOV, DST(VA, 0, 15), SRC(VC, 0, XYZW), 0}),
    C("3652 write to a constant", V, 1, 3652, 0, {MOV, DST(VC, 0, 15), SRC(VA, 0, XYZW), 0}),
    C("3637 sampler in a vertex program", V, 1, 3637, 0, {MOV, DST(OP, 0, 15), SRC(FS, 0, XYZW), 0}),
    C("3638 tex without a sampler", F, 1, 3638, 0, {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SRC(FT, 0, XYZW)}),
    C("3693 sampler as a mov source", F, 1, 3693, 0, {MOV, DST(OC, 0, 15), SRC(FS, 0, XYZW), 0}),
    C("3750 fd in a vertex program", V, 2, 3750, 1, OP_M44, {MOV, DST(FD, 0, 1), SRC(VA, 0, XXXX), 0}),
    C("3750 fd in AGAL1", F, 1, 3750, 1, OC_V0, {MOV, DST(FD, 0, 1), SRC(VV, 0, XXXX), 0}),
    C("3756 fd mask xy", F, 2, 3756, 1, OC_V0, {MOV, DST(FD, 0, 3), SRC(VV, 0, XXXX), 0}),
    C("3749 fd1", F, 2, 3749, 1, OC_V0, {MOV, DST(FD, 1, 1), SRC(VV, 0, XXXX), 0}),
    C("3786 iid in a fragment program", F, 3, 3786, 0, {MOV, DST(OC, 0, 15), SRC(IID, 0, XYZW), 0}),
    C("3787 iid in AGAL2", V, 2, 3787, 0, {MOV, DST(OP, 0, 15), SRC(IID, 0, XYZW), 0}),
    C("3788 iid written", V, 3, 3788, 0, {MOV, DST(IID, 0, 15), SRC(VA, 0, XYZW), 0}),
    C("3789 iid1", V, 3, 3789, 0, {MOV, DST(OP, 0, 15), SRC(IID, 1, XYZW), 0}),
    /* index ranges */
    C("3656 fs8 in AGAL1", F, 1, 3656, 0, {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(8, 0, 0, 0, 0, 0, 0, 1)}),
    C("3656 fs16 in AGAL2", F, 2, 3656, 0, {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(16, 0, 0, 0, 0, 0, 0, 1)}),
    C("3657 v8 in AGAL1", F, 1, 3657, 0, {MOV, DST(OC, 0, 15), SRC(VV, 8, XYZW), 0}),
    C("3657 v10 written in AGAL2", V, 2, 3657, 0, {MOV, DST(VV, 10, 15), SRC(VA, 0, XYZW), 0}),
    C("3658 va8 in AGAL1", V, 1, 3658, 0, {MOV, DST(OP, 0, 15), SRC(VA, 8, XYZW), 0}),
    C("3658 va16 in AGAL3", V, 3, 3658, 0, {MOV, DST(OP, 0, 15), SRC(VA, 16, XYZW), 0}),
    C("3659 vc128 in AGAL1", V, 1, 3659, 0, {MOV, DST(OP, 0, 15), SRC(VC, 128, XYZW), 0}),
    C("3659 m44 rows past vc127", V, 1, 3659, 0, {M44, DST(OP, 0, 15), SRC(VA, 0, XYZW), SRC(VC, 125, XYZW)}),
    C("3659 fc28 in AGAL1", F, 1, 3659, 0, {MOV, DST(OC, 0, 15), SRC(FC, 28, XYZW), 0}),
    C("3660 op1", V, 1, 3660, 0, {MOV, DST(OP, 1, 15), SRC(VA, 0, XYZW), 0}),
    C("3660 oc1 in AGAL1", F, 1, 3660, 1, OC_V0, {MOV, DST(OC, 1, 15), SRC(VV, 0, XYZW), 0}),
    C("3660 oc4 in AGAL2", F, 2, 3660, 1, OC_V0, {MOV, DST(OC, 4, 15), SRC(VV, 0, XYZW), 0}),
    C("3661 vt8 in AGAL1", V, 1, 3661, 0, {MOV, DST(VT, 8, 15), SRC(VA, 0, XYZW), 0}),
    C("3661 index temporary out of range", V, 2, 3661, 0, {MOV, DST(OP, 0, 15), IND(VC, 0, VT, 26, 0, XYZW), 0}),
    C("3775 oc1 without oc0", F, 2, 3775, -1, {MOV, DST(OC, 1, 15), SRC(VV, 0, XYZW), 0}),
    /* samplers */
    C("3662 cube with repeat", F, 1, 3662, 0, {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(0, 0, 0, 1, 0, 1, 0, 1)}),
    C("3664 3d texture", F, 1, 3664, 0, {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(0, 0, 0, 2, 0, 0, 0, 1)}),
    C("3664 dimension 5", F, 1, 3664, 0, {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(0, 0, 0, 5, 0, 0, 0, 1)}),
    C("3665 filter 6", F, 1, 3665, 0, {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(0, 0, 0, 0, 0, 0, 0, 6)}),
    C("3666 mipmap 3", F, 1, 3666, 0, {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(0, 0, 0, 0, 0, 0, 3, 1)}),
    C("3667 wrap 4", F, 1, 3667, 0, {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(0, 0, 0, 0, 0, 4, 0, 1)}),
    C("3668 special 8", F, 1, 3668, 0, {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(0, 0, 0, 0, 8, 0, 0, 1)}),
    C("3654 texture format 4", F, 1, 3654, 0, {TEX, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(0, 0, 4, 0, 0, 0, 0, 1)}),
    C("3696 sampler reused with other settings", F, 1, 3696, 1, TEX_FT1,
      {TEX, DST(FT, 2, 15), SRC(VV, 0, XYZW), SMP(0, 0, 0, 0, 0, 0, 0, 0)}),
    C("valid sampler reused with another bias", F, 1, 0, 0, TEX_FT1,
      {TEX, DST(FT, 2, 15), SRC(VV, 0, XYZW), SMP(0, -4, 0, 0, 0, 0, 0, 1)}, {ADD, DST(OC, 0, 15), SRC(FT, 1, XYZW), SRC(FT, 2, XYZW)}),
    C("3740 ted without mipmaps", F, 2, 3740, 0, {TED, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(0, 0, 0, 0, 0, 0, 0, 1)}),
    C("3743 ted with a bias", F, 2, 3743, 0, {TED, DST(FT, 1, 15), SRC(VV, 0, XYZW), SMP(0, 8, 0, 0, 0, 0, 2, 1)}),
    /* lenient: what is safe is accepted, what is not is still refused */
    CL("lenient: unwritten temporary", V, 1, 0, 0, {MOV, DST(OP, 0, 15), SRC(VT, 0, XYZW), 0}),
    CL("lenient: both constants", V, 1, 0, 0, {ADD, DST(OP, 0, 15), SRC(VC, 0, XYZW), SRC(VC, 1, XYZW)}),
    CL("lenient: reserved bits", V, 1, 0, 0, {MOV, DST(OP, 0, 15) | 1u << 20, SRC(VA, 0, XYZW), 0}),
    CL("lenient: empty branch", F, 2, 0, 0, FT0_V0, IF_FT0, EIF_, OC_V0),
    CL("lenient: output in a block", F, 2, 0, 0, FT0_V0, IF_FT0, OC_V0, EIF_),
    CL("lenient still refuses unknown register types", V, 1, 3655, 0, {MOV, DST(OP, 0, 15), SRC(9, 0, XYZW), 0}),
    CL("lenient still refuses out-of-range registers", V, 1, 3659, 0, {MOV, DST(OP, 0, 15), SRC(VC, 200, XYZW), 0}),
    CL("lenient still refuses broken nesting", F, 2, 3623, 1, OC_V0, EIF_),
    CL("lenient still refuses open blocks", F, 2, 3739, -1, FT0_V0, IF_FT0, OC_V0),
};

#include "check.h"


static agal_status decode(agal_context *ctx, const uint8_t *buf, size_t n, unsigned profile, bool lenient,
                          const agal_program **prog)
{
    agal_decode_options opt = {.profile = (agal_profile)profile, .lenient = lenient};
    return agal_decode(ctx, buf, n, &opt, prog);
}

static void expect_diag(agal_context *ctx, agal_status st, const char *name, int id, int token)
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
    char line[512];
    agal_diag_format(d, "t.bin", line, sizeof line);
    char want[32];
    snprintf(want, sizeof want, "error %d: ", id);
    CHECK(strstr(line, want) != NULL, "%s: formatted diagnostic lacks '%s': %s", name, want, line);
}

static void run_cases(agal_context *ctx)
{
    uint8_t buf[7 + 24 * 16];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const vcase *c = &cases[i];
        size_t n = build_program(buf, c->stage, c->version, c->t, ntokens(c->t, 12));
        const agal_program *prog = NULL;
        agal_status st = decode(ctx, buf, n, c->profile, c->lenient, &prog);
        expect_diag(ctx, st, c->name, c->expect_id, c->expect_token);
        agal_context_reset(ctx);
    }
}

static void expect_bytes(agal_context *ctx, const uint8_t *buf, size_t n, const char *name, int id)
{
    const agal_program *prog;
    agal_status st = decode(ctx, buf, n, 0, false, &prog);
    expect_diag(ctx, st, name, id, -1);
    agal_context_reset(ctx);
}

static void run_container_cases(agal_context *ctx)
{
    static uint8_t buf[7 + 24 * 2100];
    tok t = OP_M44;
    size_t n = build_program(buf, V, 1, &t, 1);
    expect_bytes(ctx, buf, 0, "3615 empty input", 3615);
    expect_bytes(ctx, buf, 6, "3615 truncated header", 3615);
    expect_bytes(ctx, buf, 7, "3615 header without tokens", 3615);
    buf[0] = 0xB0;
    expect_bytes(ctx, buf, n, "3616 magic 0xb0", 3616);
    buf[0] = 0xA0;
    put32(buf + 1, 4);
    expect_bytes(ctx, buf, n, "3617 version 4", 3617);
    put32(buf + 1, 0);
    expect_bytes(ctx, buf, n, "3617 version 0", 3617);
    put32(buf + 1, 1);
    buf[5] = 0xA2;
    expect_bytes(ctx, buf, n, "3618 type id 0xa2", 3618);
    buf[5] = 0xA1;
    buf[6] = 2;
    expect_bytes(ctx, buf, n, "3619 shader type 2", 3619);
    buf[6] = 0;
    /* a trailing partial token */
    const agal_program *prog;
    CHECK(decode(ctx, buf, n - 1, 0, false, &prog) == AGAL_ERR_INVALID &&
          agal_diag_get(ctx, 0)->flash_id == 3615 && agal_diag_get(ctx, 0)->token == 0,
          "3615 partial token");
    agal_context_reset(ctx);
    /* 3629: 201 tokens in AGAL1, 1025 in AGAL2, 2049 in AGAL3; accepted at the limit */
    static const unsigned limits[3] = {200, 1024, 2048};
    for (unsigned ver = 1; ver <= 3; ver++) {
        tok many[2049];
        for (unsigned i = 0; i < 2049; i++) many[i] = (tok)OP_M44;
        n = build_program(buf, V, ver, many, limits[ver - 1]);
        CHECK(decode(ctx, buf, n, 0, false, &prog) == AGAL_OK, "limit: %u tokens in AGAL%u", limits[ver - 1], ver);
        agal_context_reset(ctx);
        n = build_program(buf, V, ver, many, limits[ver - 1] + 1);
        CHECK(decode(ctx, buf, n, 0, false, &prog) == AGAL_ERR_INVALID && agal_diag_get(ctx, 0)->flash_id == 3629,
              "3629 too many tokens in AGAL%u", ver);
        agal_context_reset(ctx);
        CHECK(decode(ctx, buf, n, 0, true, &prog) == AGAL_OK, "lenient accepts %u tokens", limits[ver - 1] + 1);
        agal_context_reset(ctx);
    }
}

/* ---- linkage -------------------------------------------------------------- */

typedef struct lcase {
    const char *name;
    unsigned vversion, fversion;
    int expect_id;
    size_t nv, nf;
    tok v[4], f[4];
} lcase;

static const lcase lcases[] = {
    {"linked pair", 1, 1, 0, 2, 1, {OP_M44, {MOV, DST(VV, 0, 15), SRC(VA, 1, XYZW), 0}}, {OC_V0}},
    {"3757 versions differ", 1, 2, 3757, 2, 1, {OP_M44, {MOV, DST(VV, 0, 15), SRC(VA, 1, XYZW), 0}}, {OC_V0}},
    {"3635 op partly written", 1, 1, 3635, 2, 1,
     {{MOV, DST(OP, 0, 7), SRC(VA, 0, XYZW), 0}, {MOV, DST(VV, 0, 15), SRC(VA, 1, XYZW), 0}}, {OC_V0}},
    {"3632 varying not written", 1, 1, 3632, 1, 1, {OP_M44}, {OC_V0}},
    {"3633 varying partly written", 1, 1, 3633, 2, 1, {OP_M44, {MOV, DST(VV, 0, 3), SRC(VA, 1, XYZW), 0}}, {OC_V0}},
    {"3634 oc partly written", 1, 1, 3634, 2, 1, {OP_M44, {MOV, DST(VV, 0, 15), SRC(VA, 1, XYZW), 0}},
     {{MOV, DST(OC, 0, 7), SRC(VV, 0, XYZW), 0}}},
    {"3744 oc written twice", 1, 1, 3744, 2, 2, {OP_M44, {MOV, DST(VV, 0, 15), SRC(VA, 1, XYZW), 0}},
     {OC_V0, {MOV, DST(OC, 0, 8), SRC(VV, 0, XYZW), 0}}},
};

static void run_link_cases(agal_context *ctx)
{
    uint8_t vb[7 + 24 * 4], fb[7 + 24 * 4];
    for (size_t i = 0; i < sizeof lcases / sizeof lcases[0]; i++) {
        const lcase *c = &lcases[i];
        size_t nv = build_program(vb, V, c->vversion, c->v, c->nv);
        size_t nf = build_program(fb, F, c->fversion, c->f, c->nf);
        const agal_program *vp, *fp;
        CHECK(decode(ctx, vb, nv, 0, false, &vp) == AGAL_OK, "%s: vertex program valid", c->name);
        CHECK(decode(ctx, fb, nf, 0, false, &fp) == AGAL_OK, "%s: fragment program valid", c->name);
        if (!failures) expect_diag(ctx, agal_link(ctx, vp, fp), c->name, c->expect_id, -1 + (c->expect_id == 3744) * 2);
        agal_context_reset(ctx);
    }
}

/* The decoded fields of one token, and the message format of the spec's example. */
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
    CHECK(!strcmp(line, "shader.bin: token 3 (mov): error 3648: vt2.y is read before it is written"), "format: %s", line);
    CHECK(d && d->offset == 7 + 3 * 24, "byte offset of token 3");
    agal_context_reset(ctx);
    n = build_program(buf, V, 1, t, 3);
    CHECK(decode(ctx, buf, n, 0, false, &prog) == AGAL_OK, "three tokens valid");
    const agal_source *s = &prog->tokens[1].a;
    CHECK(s->indirect && s->type == VC && s->num == 12 && s->index_type == VA && s->index_num == 1 &&
              s->index_comp == 2 && s->swizzle == 0x1B,
          "indirect fields split");
    CHECK(prog->tokens[0].dst.type == VT && prog->tokens[0].dst.num == 2 && prog->tokens[0].dst.mask == 1, "dest fields");
    CHECK(prog->profile == AGAL_PROFILE_BASELINE && prog->version == 1 && prog->stage == AGAL_VERTEX, "header fields");
    uint8_t enc[24];
    for (unsigned i = 0; i < 3; i++) {
        agal_token_encode(&prog->tokens[i], enc);
        CHECK(!memcmp(enc, buf + 7 + 24 * i, 24), "token %u re-encodes to its bytes", i);
    }
    agal_context_reset(ctx);
}

int main(void)
{
    agal_context *ctx = agal_context_new(NULL, NULL);
    run_cases(ctx);
    run_container_cases(ctx);
    run_link_cases(ctx);
    run_field_checks(ctx);
    agal_context_free(ctx);
    size_t total = sizeof cases / sizeof cases[0] + sizeof lcases / sizeof lcases[0];
    printf("%zu rule cases, %d failures\n", total, failures);
    return failures ? 1 : 0;
}
