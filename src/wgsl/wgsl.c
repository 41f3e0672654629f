/* wgsl.c: IR -> WGSL for WebGPU, readable, in the WebGPU binding model
 * (docs/binding-models.md).
 *
 * Made like the GLSL (glsl.c, whose structure this file follows): from the same SSA
 * IR, built with keep_copies, each written register (vt/ft, op, oc, v, fd) becomes
 * one function-scope `var`, and a value tagged with a register one assignment to
 * it; a use prints the register's name while the variable holds that value, and a
 * value that outlives its register gets a `let tN` copy. The walk runs twice (a dry
 * run that finds those values, then the emitting run).
 *
 * Where WGSL differs from GLSL, and what the text does about it:
 * - No assignment to a multi-component swizzle: a masked write whose new
 *   components are one run is `vt0 = vec4f(new.xyz, vt0.w)`; one that interleaves
 *   is select(old, new, vec4<bool>(...)), so the new value is computed once.
 * - No global in/out variables: va<n>, v<n> and iid are parameters of `main`;
 *   every register is a local `var` (WGSL zero-initialises them, which is AGAL's
 *   start at 0), and main returns op, the varyings, oc<n> and fd in a struct.
 * - No combined samplers: fs<n> is a texture and a sampler, two bindings.
 * - No overloads of a user function: pow's wrapper is agal_pow1..4, one per
 *   width. clamp takes no scalar bounds for a vector: sat is saturate().
 * - The render-to-texture flip is an `override` constant (pipeline-overridable,
 *   @id(0), default 1): SPIR-V's specialization constant 0, so no binding and no
 *   "0 stands for 1" as in GLSL ES.
 * - Uniformity: WGSL rejects implicit-derivative samples and dpdx/dpdy in
 *   non-uniform control flow. None is left there: the validator refuses ddx/ddy
 *   in a block (3742) and a tex there unless its coordinates are a varying (3741),
 *   lenient or not, and lower_hoist_tex moves those samples out of the blocks.
 * - Constant expressions are evaluated when WGSL compiles, where 1.0 / 0.0 is an
 *   error: a register never written reads agal_zero in an operation (put_const).
 *
 * - WGSL lets an implementation assume no NaN or infinity reaches an operation; the
 *   text asks for Stage3D's NaN rules (!(a == b)) as the GLSL does, but only the
 *   implementation decides whether it gets them.
 *
 * Meaning, as the interpreter and the other emitters: positional masks, dp3/dp4 in
 * every written component, matrix rows B[k] = register B + k, relative reads
 * bounds-checked (agal_vc() reads 0 out of range), ine/sne true for NaN (!(a ==
 * b)), kil discards below 0, tex bias = token bias / 8, ted's LOD = A.w. op and ddy
 * follow ir->conv (lower_conventions.c): WebGPU's clip space is Stage3D's (y up,
 * depth 0..w) and its framebuffer's y points down as Stage3D's rows do, so by
 * default nothing is mapped; op.y and ddy are multiplied by agal_yflip. */
#include "emit.h"

#include <math.h>
#include <stdio.h>

/* ---- emitter state ---------------------------------------------------------- */

enum { HELD_ZERO = UINT32_MAX - 1, HELD_UNKNOWN = UINT32_MAX };
enum { MAX_DEPTH = 64 }; /* expression nesting guard (inlining is per token) */
/* Per-value flags: F_TEMP (copied to tN), F_INLINE (printed at its use). An
 * instruction the IR hoisted (IR_HOISTED: tex runs in uniform control flow) is no
 * write to its register where it now stands; it gets a temporary, and the branch's
 * join assigns the register. */
enum { F_TEMP = 1, F_INLINE = 2 };

typedef struct wgsl {
    agal_context *ctx;
    const agal_ir *ir;
    const agal_program *prog;
    bool comments;
    uint16_t centroid; /* bit n: v<n> is `@interpolate(perspective, centroid)` */
    agal_strbuf out;
    agal_status err;
    uint8_t *flags;                 /* per value: F_TEMP (copied to tN), F_INLINE */
    uint32_t held[IR_TRACKED_REGS]; /* value each register variable holds */
    uint32_t next_tok;              /* first token not commented yet */
    unsigned computing;             /* inside an ALU or matrix op's operands */
    bool zero_var;                  /* agal_zero is read (put_const) */
    unsigned indent;
    unsigned depth;
} wgsl;

typedef struct sel {
    uint8_t c[4];
    uint8_t n;
} sel;

static const sel SEL_XYZW = {{0, 1, 2, 3}, 4};
static const sel SEL_XYZ = {{0, 1, 2, 0}, 3};
static const char LETTERS[] = "xyzw";

static sel sel_one(unsigned c) { return (sel){{(uint8_t)c, 0, 0, 0}, 1}; }

static sel sel_mask(unsigned mask)
{
    sel s = {{0}, 0};
    for (unsigned c = 0; c < 4; c++)
        if (mask & (1u << c)) s.c[s.n++] = (uint8_t)c;
    return s;
}

static bool sel_is_identity(sel s, unsigned width)
{
    if (s.n != width) return false;
    for (unsigned i = 0; i < s.n; i++)
        if (s.c[i] != i) return false;
    return true;
}

/* ".xz" for a selection out of a `width`-component value ("" when it is all of it). */
static void put_swz(wgsl *g, sel s, unsigned width)
{
    if (sel_is_identity(s, width)) return;
    char t[6] = ".";
    for (unsigned i = 0; i < s.n; i++) t[1 + i] = LETTERS[s.c[i]];
    t[1 + s.n] = 0;
    agal_sb_put(&g->out, t);
}

static const char *vec_type(unsigned n)
{
    static const char *names[] = {"f32", "f32", "vec2f", "vec3f", "vec4f"};
    return names[n <= 4 ? n : 4];
}

/* a, then b, then c (NULL: nothing): the pieces of an expression, without a
 * printf call each. */
static void put3(wgsl *g, const char *a, const char *b, const char *c)
{
    agal_sb_put(&g->out, a);
    if (b) agal_sb_put(&g->out, b);
    if (c) agal_sb_put(&g->out, c);
}

/* A name and its number: "t12", "va3". */
static void put_num(wgsl *g, const char *name, unsigned n)
{
    agal_sb_put(&g->out, name);
    agal_sb_uint(&g->out, n);
}

/* What WGSL cannot express: a clear error naming it. */
static void unsupported(wgsl *g, const char *what)
{
    if (g->err != AGAL_OK) return;
    agal_status st = agal_error(g->ctx, 0, -1, -1, NULL, "%s", what);
    agal_fail(&g->err, st == AGAL_ERR_NOMEM ? st : AGAL_ERR_UNSUPPORTED);
}

/* What the IR's rules exclude: a bug, reported once with what it was. */
static void bug(wgsl *g, const char *what)
{
    if (g->err != AGAL_OK) return;
    agal_status st = agal_error(g->ctx, 0, -1, -1, NULL, "internal: the WGSL emitter met %s", what);
    agal_fail(&g->err, st == AGAL_ERR_NOMEM ? st : AGAL_ERR_INTERNAL);
}

static const agal_ir_inst *inst(const wgsl *g, uint32_t v) { return agal_ir_get(g->ir, v); }

/* ---- which values live in which register ------------------------------------ */

/* Slot of the register a value is the new content of, or -1 (loads, stores and
 * untagged intermediates have no home). */
static int home_slot(const wgsl *g, uint32_t v)
{
    const agal_ir_inst *in = inst(g, v);
    if (in->reg_type == IR_NO_REG || (in->flags & IR_HOISTED)) return -1;
    switch (in->op) {
    case IR_COPY:
    case IR_ALU:
    case IR_MATRIX:
    case IR_TEX:
    case IR_MERGE:
    case IR_PHI: return agal_ir_reg_slot(g->prog->stage, in->reg_type, in->reg_num);
    default: return -1;
    }
}

static bool is_zero_value(const wgsl *g, uint32_t v)
{
    if (v == 0) return true;
    const agal_ir_inst *in = inst(g, v);
    return in->op == IR_CONST && in->imm[0] == 0 && in->imm[1] == 0 && in->imm[2] == 0 && in->imm[3] == 0 &&
           !signbit(in->imm[0]) && !signbit(in->imm[1]) && !signbit(in->imm[2]) && !signbit(in->imm[3]);
}

/* Does register slot s hold value v now? A register no path has written holds 0. */
static bool holds(wgsl *g, int s, uint32_t v)
{
    if (g->held[s] == v) return true;
    return g->held[s] == HELD_ZERO && is_zero_value(g, v);
}

/* Values whose expression is cheap and pure enough to print at every use. A
 * relative read is not, once several instructions use it (the builder shares
 * them, shared_read): its address and bounds check are made once, in a temporary. */
static bool is_trivial(const agal_ir_inst *in)
{
    switch (in->op) {
    case IR_UNIFORM_INDIRECT: return in->nuses <= 1;
    case IR_CONST:
    case IR_INPUT:
    case IR_UNIFORM:
    case IR_SWIZZLE:
    case IR_EXTRACT: return true;
    default: return false;
    }
}

static void reg_name(wgsl *g, int slot)
{
    unsigned type, num;
    char buf[32]; /* agal_format_reg writes straight into 32 bytes */
    if (g->out.dry) return;
    agal_ir_slot_reg(slot, &type, &num);
    agal_sb_putn(&g->out, buf, (size_t)agal_format_reg(buf, sizeof buf, g->prog->stage, type, num));
}

/* ---- expressions ------------------------------------------------------------ */

static void ref(wgsl *g, uint32_t v, sel s, bool atom);

/* A literal. The IR's constants are the zeros of unwritten registers; WGSL has no
 * NaN or infinite literal, and a constant expression making one is an error. */
static void put_float(wgsl *g, float f)
{
    if (!isfinite(f)) {
        unsupported(g, "a NaN or infinite constant: WGSL has no such literal");
    } else {
        char t[64];
        agal_format_number(t, sizeof t, (double)f, 9);
        agal_sb_put(&g->out, t);
        if (!strpbrk(t, ".e")) agal_sb_put(&g->out, ".0");
    }
}

/* A constant: the literal, or inside an operation's operands (a lenient program's
 * read of a register it never wrote) agal_zero, a private variable nobody writes.
 * WGSL evaluates an expression of literals when it compiles, and some are errors
 * there that are values at run time: rcp's 1.0 / 0.0, log2(0.0). */
static void put_const(wgsl *g, const agal_ir_inst *in, sel s)
{
    if (g->computing && in->imm[0] == 0 && in->imm[1] == 0 && in->imm[2] == 0 && in->imm[3] == 0) {
        g->zero_var = true;
        agal_sb_put(&g->out, "agal_zero");
        put_swz(g, s, 4);
        return;
    }
    bool same = true;
    for (unsigned i = 1; i < s.n; i++) same &= memcmp(&in->imm[s.c[i]], &in->imm[s.c[0]], sizeof(float)) == 0;
    if (s.n > 1) put3(g, vec_type(s.n), "(", NULL);
    for (unsigned i = 0; i < (same ? 1u : s.n); i++) {
        if (i) agal_sb_put(&g->out, ", ");
        put_float(g, in->imm[s.c[i]]);
    }
    if (s.n > 1) agal_sb_put(&g->out, ")");
}

static void open_paren(wgsl *g, bool atom)
{
    if (atom) agal_sb_put(&g->out, "(");
}
static void close_paren(wgsl *g, bool atom)
{
    if (atom) agal_sb_put(&g->out, ")");
}

/* f(a) or f(a, b) on the same selection of each operand. */
static void call(wgsl *g, const char *f, const agal_ir_inst *in, sel s)
{
    put3(g, f, "(", NULL);
    ref(g, in->args[0], s, false);
    if (in->nargs > 1) {
        agal_sb_put(&g->out, ", ");
        ref(g, in->args[1], s, false);
    }
    agal_sb_put(&g->out, ")");
}

/* Does an operand read one component in every position (ft5.xxxx, as `mul ft7,
 * fc3, ft5.x` reads)? s: its selection under its swizzles. Then an operator takes it
 * as a float. */
static bool broadcast(sel s)
{
    for (unsigned i = 1; i < s.n; i++)
        if (s.c[i] != s.c[0]) return false;
    return s.n > 1;
}

/* The selection of the value under v's swizzles (SWIZZLE chains compose). */
static uint32_t unswizzle(const wgsl *g, uint32_t v, sel *s)
{
    while (v && v < g->ir->ninsts && inst(g, v)->op == IR_SWIZZLE) {
        for (unsigned i = 0; i < s->n; i++) s->c[i] = (uint8_t)agal_swizzle_comp(inst(g, v)->swizzle, s->c[i]);
        v = inst(g, v)->args[0];
    }
    return v;
}

static void infix(wgsl *g, const char *op, const agal_ir_inst *in, sel s, bool atom)
{
    /* vec op float where an operand is one component: "fc[3] * ft5.x" */
    sel sa = s, sb = s;
    unswizzle(g, in->args[0], &sa);
    unswizzle(g, in->args[1], &sb);
    bool a1 = broadcast(sa), b1 = broadcast(sb);
    open_paren(g, atom);
    ref(g, in->args[0], a1 && !b1 ? sel_one(s.c[0]) : s, true);
    put3(g, " ", op, " ");
    ref(g, in->args[1], b1 ? sel_one(s.c[0]) : s, true);
    close_paren(g, atom);
}

/* The WGSL of each predicate (AGAL_CMPS): its operator, which WGSL applies to
 * vectors too, and whether the result is negated (ne: !(a == b), true for NaN). */
typedef struct wgsl_cmp {
    const char *op;
    bool negate;
} wgsl_cmp;
static const wgsl_cmp cmps[] = {
#define WGSL_CMP(id, op, spirv, scalar, vector, negate) {scalar, negate},
    AGAL_CMPS(WGSL_CMP)
#undef WGSL_CMP
};

/* a cmp b on one selection of both: "v0.x < fc[1].x", "!(a == b)". */
static void compare(wgsl *g, const agal_ir_inst *in, sel s)
{
    const wgsl_cmp *c = &cmps[agal_op_cmp(in->aop)];
    agal_sb_put(&g->out, c->negate ? "!(" : "");
    ref(g, in->args[0], s, true);
    put3(g, " ", c->op, " ");
    ref(g, in->args[1], s, true);
    agal_sb_put(&g->out, c->negate ? ")" : "");
}

/* sge/slt/seq/sne: 1.0 where the comparison holds, select(0, 1, a cmp b). NaN:
 * only sne holds. */
static void set_cmp(wgsl *g, const agal_ir_inst *in, sel s)
{
    if (s.n > 1) put3(g, "select(", vec_type(s.n), "(0.0), ");
    else agal_sb_put(&g->out, "select(0.0, ");
    if (s.n > 1) put3(g, vec_type(s.n), "(1.0), ", NULL);
    else agal_sb_put(&g->out, "1.0, ");
    compare(g, in, s);
    agal_sb_put(&g->out, ")");
}

/* dot(A.xyz, B.xyz) / dot(A, B), the same in every selected component. */
static void dot(wgsl *g, const agal_ir_inst *in, sel s, unsigned width)
{
    sel w = width == 3 ? SEL_XYZ : SEL_XYZW;
    if (s.n > 1) put3(g, vec_type(s.n), "(", NULL);
    agal_sb_put(&g->out, "dot(");
    ref(g, in->args[0], w, false);
    agal_sb_put(&g->out, ", ");
    ref(g, in->args[1], w, false);
    agal_sb_put(&g->out, ")");
    if (s.n > 1) agal_sb_put(&g->out, ")");
}

/* nrm/crs: a vec3 result, w = 0. */
static void vec3_op(wgsl *g, const agal_ir_inst *in, sel s)
{
    bool w = false;
    for (unsigned i = 0; i < s.n; i++) w |= s.c[i] == 3;
    if (w) agal_sb_put(&g->out, "vec4f(");
    agal_sb_put(&g->out, in->aop == AGAL_OP_NRM ? "normalize(" : "cross(");
    ref(g, in->args[0], SEL_XYZ, false);
    if (in->aop == AGAL_OP_CRS) {
        agal_sb_put(&g->out, ", ");
        ref(g, in->args[1], SEL_XYZ, false);
    }
    agal_sb_put(&g->out, ")");
    if (w) {
        agal_sb_put(&g->out, ", 0.0)");
        put_swz(g, s, 4);
    } else {
        put_swz(g, s, 3);
    }
}

/* Each opcode's one-to-one GLSL, from its row (opcode_meaning.def): WGSL spells
 * the same operators and, but for two (wgsl_function), the same functions. */
enum { G_HAND, G_INFIX, G_CALL, G_PREFIX };
typedef struct glsl_form {
    uint8_t kind;
    const char *text;
} glsl_form;
#define GLSL_HAND \
    { \
        G_HAND, NULL \
    }
#define GLSL_INFIX(op) \
    { \
        G_INFIX, op \
    }
#define GLSL_CALL(fn) \
    { \
        G_CALL, fn \
    }
#define GLSL_PREFIX(text) \
    { \
        G_PREFIX, text \
    }
static const glsl_form forms[AGAL_OP_LIMIT] = {
#define AGAL_OPCODE_MEANING(ID, c, glsl, spirv, cmp) [AGAL_OP_##ID] = glsl,
#include "opcode_meaning.def"
#undef AGAL_OPCODE_MEANING
};
#undef GLSL_HAND
#undef GLSL_INFIX
#undef GLSL_CALL
#undef GLSL_PREFIX

/* WGSL's name of a GLSL built-in function of the table. pow goes through
 * agal_pow<n>, which keeps pow(0, y) at 0 (declarations); WGSL has no overloads of
 * a user function, so there is one per width. */
static const char *wgsl_function(const char *glsl_name, unsigned width)
{
    static const char *pows[] = {"agal_pow1", "agal_pow1", "agal_pow2", "agal_pow3", "agal_pow4"};
    if (!strcmp(glsl_name, "inversesqrt")) return "inverseSqrt";
    if (!strcmp(glsl_name, "dFdx")) return "dpdx";
    if (!strcmp(glsl_name, "pow")) return pows[width <= 4 ? width : 4];
    return glsl_name;
}

static void alu(wgsl *g, const agal_ir_inst *in, sel s, bool atom)
{
    const glsl_form *form = &forms[in->aop];
    switch (form->kind) {
    case G_INFIX: infix(g, form->text, in, s, atom); return;
    case G_CALL: call(g, wgsl_function(form->text, s.n), in, s); return;
    case G_PREFIX:
        open_paren(g, atom);
        agal_sb_put(&g->out, form->text);
        ref(g, in->args[0], s, true);
        close_paren(g, atom);
        return;
    default: break;
    }
    if (agal_op_cmp(in->aop) != AGAL_CMP_NONE) {
        set_cmp(g, in, s);
        return;
    }
    switch (in->aop) {
    case AGAL_OP_SAT:
        /* clamp's bounds would have to be vectors too */
        agal_sb_put(&g->out, "saturate(");
        ref(g, in->args[0], s, false);
        agal_sb_put(&g->out, ")");
        break;
    case AGAL_OP_DDY:
        /* Its sign against the window's rows: ir->conv (lower_conventions.c); the
         * image turns over again when the runtime renders to a texture. */
        open_paren(g, atom);
        call(g, "dpdy", in, s);
        agal_sb_put(&g->out, g->ir->conv.ddy_negate ? " * -" AGAL_GLSL_YFLIP : " * " AGAL_GLSL_YFLIP);
        close_paren(g, atom);
        break;
    case AGAL_OP_DP3: dot(g, in, s, 3); break;
    case AGAL_OP_DP4: dot(g, in, s, 4); break;
    case AGAL_OP_NRM:
    case AGAL_OP_CRS: vec3_op(g, in, s); break;
    default: bug(g, "an ALU op it has no spelling for"); break;
    }
}

/* m33/m34/m44: component c = dot(A, B[c]); components past the rows are 0. */
static void matrix(wgsl *g, const agal_ir_inst *in, sel s)
{
    unsigned rows = in->nargs - 1u;
    sel w = in->aop == AGAL_OP_M33 ? SEL_XYZ : SEL_XYZW;
    if (s.n > 1) put3(g, vec_type(s.n), "(", NULL);
    for (unsigned i = 0; i < s.n; i++) {
        if (i) agal_sb_put(&g->out, ", ");
        if (s.c[i] >= rows) {
            agal_sb_put(&g->out, "0.0");
            continue;
        }
        agal_sb_put(&g->out, "dot(");
        ref(g, in->args[0], w, false);
        agal_sb_put(&g->out, ", ");
        ref(g, in->args[1 + s.c[i]], w, false);
        agal_sb_put(&g->out, ")");
    }
    if (s.n > 1) agal_sb_put(&g->out, ")");
}

/* textureSample(fs0, fs0_sampler, A.xy), textureSampleBias(..., bias) for a token
 * with a bias, textureSampleLevel(..., A.w) for ted; a cube reads A.xyz. The
 * token's filter, wrap and mip state is the sampler's, which the runtime makes
 * from the binding's token: WGSL's sampler state is no part of the shader. */
static void tex(wgsl *g, const agal_ir_inst *in, sel s)
{
    sel coords = in->smp.dim == AGAL_DIM_CUBE ? SEL_XYZ : (sel){{0, 1, 0, 0}, 2};
    bool lod = in->aop == AGAL_OP_TED;
    unsigned n = in->smp.num;
    put3(g, lod ? "textureSampleLevel(" : in->smp.bias ? "textureSampleBias(" : "textureSample(", NULL, NULL);
    put_num(g, "fs", n);
    put_num(g, ", fs", n);
    agal_sb_put(&g->out, "_sampler, ");
    ref(g, in->args[0], coords, false);
    if (lod) {
        agal_sb_put(&g->out, ", ");
        ref(g, in->args[0], sel_one(3), false);
    } else if (in->smp.bias) {
        agal_sb_put(&g->out, ", ");
        put_float(g, (float)in->smp.bias / 8.0f);
    }
    agal_sb_put(&g->out, ")");
    put_swz(g, s, 4);
}

/* select(old, new, vec4<bool>(true, false, true, false)): the new value printed
 * once where its components interleave with the old ones. */
static void merge_select(wgsl *g, const agal_ir_inst *in, sel s)
{
    agal_sb_put(&g->out, "select(");
    ref(g, in->args[0], s, false);
    agal_sb_put(&g->out, ", ");
    ref(g, in->args[1], s, false);
    put_num(g, ", vec", s.n);
    agal_sb_put(&g->out, "<bool>(");
    for (unsigned i = 0; i < s.n; i++) put3(g, i ? ", " : "", (in->mask >> s.c[i]) & 1u ? "true" : "false", NULL);
    agal_sb_put(&g->out, "))");
}

/* Component c of a merge comes from the new value where the mask has it. */
static void merge(wgsl *g, const agal_ir_inst *in, sel s, bool atom)
{
    unsigned from_new = 0, new_runs = 0;
    for (unsigned i = 0; i < s.n; i++) {
        unsigned bit = (in->mask >> s.c[i]) & 1u;
        from_new += bit;
        new_runs += bit && (i == 0 || !((in->mask >> s.c[i - 1]) & 1u));
    }
    if (from_new == 0 || from_new == s.n) {
        ref(g, in->args[from_new ? 1 : 0], s, atom);
        return;
    }
    if (new_runs > 1) {
        merge_select(g, in, s);
        return;
    }
    /* vec4f(new.xyz, old.w): one operand per run of components from one side, the
     * new value's one run printed once */
    put3(g, vec_type(s.n), "(", NULL);
    for (unsigned i = 0; i < s.n;) {
        unsigned side = (in->mask >> s.c[i]) & 1u, j = i;
        sel run = {{0}, 0};
        while (j < s.n && ((in->mask >> s.c[j]) & 1u) == side) run.c[run.n++] = s.c[j++];
        if (i) agal_sb_put(&g->out, ", ");
        ref(g, in->args[side], run, false);
        i = j;
    }
    agal_sb_put(&g->out, ")");
}

/* if conditions: ife/ifg/ifl ordered (false for NaN), ine unordered (true). */
static void cmp(wgsl *g, const agal_ir_inst *in, bool atom)
{
    bool paren = atom && !cmps[agal_op_cmp(in->aop)].negate;
    open_paren(g, paren);
    compare(g, in, sel_one(0));
    close_paren(g, paren);
}

static void input(wgsl *g, const agal_ir_inst *in, sel s)
{
    if (in->reg_type == AGAL_REG_IID) {
        /* iid reads (id, id, id, id): main's parameter, @builtin(instance_index) */
        if (s.n > 1) put3(g, vec_type(s.n), "(", NULL);
        agal_sb_put(&g->out, "f32(iid)");
        if (s.n > 1) agal_sb_put(&g->out, ")");
        return;
    }
    put_num(g, in->reg_type == AGAL_REG_ATTRIBUTE ? "va" : "v", (unsigned)in->reg_num);
    put_swz(g, s, 4);
}

/* The expression of value v restricted to selection s. atom: the caller needs a
 * primary expression (an operand of an operator). */
static void def(wgsl *g, uint32_t v, sel s, bool atom)
{
    const agal_ir_inst *in = inst(g, v);
    const char *cname = agal_reg_name(g->prog->stage, AGAL_REG_CONSTANT);
    switch (in->op) {
    case IR_CONST: put_const(g, in, s); break;
    case IR_INPUT: input(g, in, s); break;
    case IR_UNIFORM:
        put3(g, cname, "[", NULL);
        agal_sb_uint(&g->out, (unsigned)in->reg_num);
        agal_sb_putc(&g->out, ']');
        put_swz(g, s, 4);
        break;
    case IR_UNIFORM_INDIRECT:
        put3(g, "agal_", cname, "(i32(");
        ref(g, in->args[0], sel_one(0), false);
        if (in->reg_num) {
            put_num(g, ") + ", (unsigned)in->reg_num);
            agal_sb_putc(&g->out, ')');
        } else agal_sb_put(&g->out, "))");
        put_swz(g, s, 4);
        break;
    case IR_SWIZZLE: {
        sel t = s;
        for (unsigned i = 0; i < s.n; i++) t.c[i] = (uint8_t)agal_swizzle_comp(in->swizzle, s.c[i]);
        ref(g, in->args[0], t, atom);
        break;
    }
    case IR_EXTRACT: ref(g, in->args[0], sel_one(in->comp), atom); break;
    case IR_COPY: ref(g, in->args[0], s, atom); break;
    case IR_ALU:
        g->computing++;
        alu(g, in, s, atom);
        g->computing--;
        break;
    case IR_MATRIX:
        g->computing++;
        matrix(g, in, s);
        g->computing--;
        break;
    case IR_TEX: tex(g, in, s); break;
    case IR_MERGE: merge(g, in, s, atom); break;
    case IR_CMP: cmp(g, in, atom); break;
    default: bug(g, "an IR op with no expression"); break;
    }
}

/* A use of value v: its register's name while the register holds it, its
 * temporary, or (for an intermediate of the same instruction) its expression. */
static void ref(wgsl *g, uint32_t v, sel s, bool atom)
{
    if (++g->depth > MAX_DEPTH) {
        agal_fail(&g->err, AGAL_ERR_LIMIT);
    } else if (v == 0 || v >= g->ir->ninsts) {
        put_const(g, &(agal_ir_inst){.op = IR_CONST}, s);
    } else if (g->flags[v] & F_TEMP) {
        put_num(g, "t", (unsigned)v);
        if (inst(g, v)->type == IR_F4) put_swz(g, s, 4);
    } else if (home_slot(g, v) >= 0) {
        int slot = home_slot(g, v);
        if (!holds(g, slot, v)) {
            /* Overwritten before this use: the planning run asks for a copy. */
            if (g->out.dry) g->flags[v] |= F_TEMP;
            else bug(g, "a value its register no longer holds");
        }
        reg_name(g, slot);
        put_swz(g, s, 4);
    } else if (is_trivial(inst(g, v)) || (g->flags[v] & F_INLINE)) {
        def(g, v, s, atom);
    } else {
        /* An intermediate several instructions use: temp() declared it. */
        put_num(g, "t", (unsigned)v);
        if (inst(g, v)->type == IR_F4) put_swz(g, s, 4);
    }
    g->depth--;
}

/* ---- comments naming the AGAL tokens ---------------------------------------- */

/* "5: add vt0.xz, va0.wzyx, vc5" for the fifth token, in the disassembler's syntax. */
static void put_token(wgsl *g, uint32_t i)
{
    const agal_token *t = &g->prog->tokens[i];
    agal_sb_uint(&g->out, (unsigned)i + 1);
    agal_sb_put(&g->out, ": "); /* counting from 1, as Flash does */
    agal_format_instruction(&g->out, g->prog->stage, t);
}

static void put_indent(wgsl *g)
{
    for (unsigned i = 0; i < g->indent; i++) agal_sb_put(&g->out, "    ");
}

/* Comment lines for the tokens before `end` not named yet (their instructions may
 * have been optimized away: a dead write, an unread temporary). */
static void comments_before(wgsl *g, uint32_t end)
{
    if (end > g->prog->ntokens) end = g->prog->ntokens;
    for (; g->next_tok < end; g->next_tok++) {
        if (!g->comments || g->out.dry) continue; /* the planning run writes nothing */
        put_indent(g);
        agal_sb_put(&g->out, "// ");
        put_token(g, g->next_tok);
        agal_sb_put(&g->out, "\n");
    }
}

/* Starts a statement line of token tok (-1: none), after its comment. */
static void begin_stmt(wgsl *g, int32_t tok)
{
    if (tok >= 0) comments_before(g, (uint32_t)tok + 1);
    put_indent(g);
}

/* " // 5: els" at the end of a block line; marks tokens up to tok as named. */
static void trailing_comment(wgsl *g, int32_t tok)
{
    if (tok < 0) return;
    comments_before(g, (uint32_t)tok);
    if (g->comments && !g->out.dry) {
        agal_sb_put(&g->out, " // ");
        put_token(g, (uint32_t)tok);
    }
    g->next_tok = (uint32_t)tok + 1;
}

/* ---- statements ------------------------------------------------------------- */

static void walk(wgsl *g, uint32_t list);

/* After the assignment of a value that a later use needs past its register's next
 * write: keep a copy. */
static void keep_copy(wgsl *g, uint32_t v, int slot)
{
    if (!(g->flags[v] & F_TEMP)) return;
    put_indent(g);
    put_num(g, "let t", (unsigned)v);
    agal_sb_put(&g->out, " = ");
    reg_name(g, slot);
    agal_sb_put(&g->out, ";\n");
}

/* The assignment of a value to its register: "vt0.z = ...;" for a write of one
 * component onto the register's current content, "vt0 = ...;" otherwise (WGSL
 * assigns no swizzle of several components: merge() writes the mix). */
static void assign(wgsl *g, uint32_t v, int slot)
{
    const agal_ir_inst *in = inst(g, v);
    begin_stmt(g, in->token);
    reg_name(g, slot);
    if (in->op == IR_MERGE && sel_mask(in->mask).n == 1 && holds(g, slot, in->args[0])) {
        sel m = sel_mask(in->mask);
        put_swz(g, m, 4);
        agal_sb_put(&g->out, " = ");
        ref(g, in->args[1], m, false);
    } else {
        agal_sb_put(&g->out, " = ");
        def(g, v, SEL_XYZW, false);
    }
    agal_sb_put(&g->out, ";\n");
    g->held[slot] = v;
    keep_copy(g, v, slot);
}

/* An intermediate needed by several instructions: "vec4 t7 = ...;". */
static void temp(wgsl *g, uint32_t v)
{
    const agal_ir_inst *in = inst(g, v);
    bool hoisted = in->flags & IR_HOISTED;
    if (hoisted) put_indent(g); /* its token's comment stays in its block */
    else begin_stmt(g, in->token);
    put_num(g, "let t", (unsigned)v);
    agal_sb_put(&g->out, " = ");
    def(g, v, in->type == IR_F4 ? SEL_XYZW : sel_one(0), false);
    agal_sb_put(&g->out, ";");
    if (hoisted && g->comments && in->token >= 0) {
        agal_sb_put(&g->out, " // ");
        put_token(g, (uint32_t)in->token);
        agal_sb_put(&g->out, " (hoisted: implicit LOD needs uniform control flow)");
    }
    agal_sb_put(&g->out, "\n");
}

static void kil(wgsl *g, const agal_ir_inst *in)
{
    begin_stmt(g, in->token);
    agal_sb_put(&g->out, "if (");
    ref(g, in->args[0], sel_one(0), true);
    agal_sb_put(&g->out, " < 0.0) { discard; }\n");
}

/* @builtin(position): op with the target's conventions (ir->conv), its y times
 * the render-to-texture flip. */
static void position(wgsl *g)
{
    agal_sb_put(&g->out, "vec4f(op.x, ");
    agal_sb_put(&g->out, g->ir->conv.negate_y ? "-op.y * " AGAL_GLSL_YFLIP ", " : "op.y * " AGAL_GLSL_YFLIP ", ");
    agal_sb_put(&g->out, g->ir->conv.gl_depth ? "2.0 * op.z - op.w, op.w)" : "op.z, op.w)");
}

/* The final content of an output: already in its variable unless the IR's value
 * lives elsewhere. main returns the variables (entry()). */
static void store(wgsl *g, const agal_ir_inst *in)
{
    int slot = agal_ir_reg_slot(g->prog->stage, in->reg_type, in->reg_num);
    if (slot < 0) {
        bug(g, "a store to no register");
        return;
    }
    comments_before(g, g->prog->ntokens);
    if (!holds(g, slot, in->args[0])) {
        put_indent(g);
        reg_name(g, slot);
        agal_sb_put(&g->out, " = ");
        ref(g, in->args[0], SEL_XYZW, false);
        agal_sb_put(&g->out, ";\n");
        g->held[slot] = in->args[0];
    }
}

/* The phis after an IR_IF: items[first..end) of its parent list. */
typedef struct joins {
    const agal_ir_list *l;
    uint32_t first, end;
} joins;

/* At the end of a branch: make each register joined by a phi hold the phi's
 * operand for this branch (which = 0 then, 1 else). */
static void phi_moves(wgsl *g, const joins *j, unsigned which)
{
    for (uint32_t i = j->first; i < j->end; i++) {
        const agal_ir_inst *p = inst(g, j->l->items[i]);
        int slot = home_slot(g, j->l->items[i]);
        if (slot < 0 || holds(g, slot, p->args[which])) continue;
        put_indent(g);
        reg_name(g, slot);
        agal_sb_put(&g->out, " = ");
        ref(g, p->args[which], SEL_XYZW, false);
        agal_sb_put(&g->out, ";\n");
        g->held[slot] = p->args[which];
    }
}

static bool needs_phi_moves(const wgsl *g, const joins *j, unsigned which)
{
    for (uint32_t i = j->first; i < j->end; i++) {
        int slot = home_slot(g, j->l->items[i]);
        uint32_t a = inst(g, j->l->items[i])->args[which];
        if (slot >= 0 && !(g->held[slot] == a || (g->held[slot] == HELD_ZERO && is_zero_value(g, a)))) return true;
    }
    return false;
}

/* The end of an "if (...) {", "} else {" or "}" line: the comment naming its token. */
static void block_line(wgsl *g, const char *text, int32_t tok)
{
    agal_sb_put(&g->out, text);
    trailing_comment(g, tok);
    agal_sb_put(&g->out, "\n");
}

/* One branch: its statements, the comments of its tokens left unnamed (up to
 * end_tok, its els or eif), then the moves its side of the join needs. */
static void branch(wgsl *g, uint32_t list, const joins *j, unsigned which, int32_t end_tok)
{
    g->indent++;
    walk(g, list);
    if (end_tok >= 0) comments_before(g, (uint32_t)end_tok);
    phi_moves(g, j, which);
    g->indent--;
}

/* After the block: a register holds what both branches left in it, and each
 * joined register its phi. */
static void join_state(wgsl *g, const uint32_t *then_end, const joins *j)
{
    for (int s = 0; s < IR_TRACKED_REGS; s++)
        if (g->held[s] != then_end[s]) g->held[s] = HELD_UNKNOWN;
    for (uint32_t k = j->first; k < j->end; k++) {
        int slot = home_slot(g, j->l->items[k]);
        if (slot < 0) continue;
        g->held[slot] = j->l->items[k];
        keep_copy(g, j->l->items[k], slot);
    }
}

/* An IR_IF at items[i] of list l and the phis after it; returns the index past them. */
static uint32_t emit_if(wgsl *g, const agal_ir_list *l, uint32_t i)
{
    const agal_ir_inst *in = inst(g, l->items[i]);
    joins j = {l, i + 1, i + 1};
    while (j.end < l->n && inst(g, l->items[j.end])->op == IR_PHI) j.end++;
    int32_t tok = in->token, els = in->els_token, eif = in->eif_token;

    if (tok >= 0) comments_before(g, (uint32_t)tok);
    put_indent(g);
    agal_sb_put(&g->out, "if (");
    ref(g, in->args[0], sel_one(0), false);
    block_line(g, ") {", tok);

    uint32_t before[IR_TRACKED_REGS], then_end[IR_TRACKED_REGS];
    memcpy(before, g->held, sizeof before);
    uint32_t then_list = in->then_list, else_list = in->else_list;
    branch(g, then_list, &j, 0, els >= 0 ? els : eif);
    memcpy(then_end, g->held, sizeof then_end);
    memcpy(g->held, before, sizeof before);
    if (els >= 0 || g->ir->lists[else_list].n || needs_phi_moves(g, &j, 1)) {
        put_indent(g);
        block_line(g, "} else {", els);
        branch(g, else_list, &j, 1, eif);
    }
    put_indent(g);
    block_line(g, "}", eif);
    join_state(g, then_end, &j);
    return j.end;
}

static void walk(wgsl *g, uint32_t list)
{
    const agal_ir_list *l = &g->ir->lists[list];
    for (uint32_t i = 0; i < l->n && g->err == AGAL_OK;) {
        uint32_t v = l->items[i];
        const agal_ir_inst *in = inst(g, v);
        if (in->op == IR_IF) {
            i = emit_if(g, l, i);
            continue;
        }
        int slot = home_slot(g, v);
        if (in->op == IR_KIL) kil(g, in);
        else if (in->op == IR_STORE) store(g, in);
        else if (in->op == IR_PHI) { /* joined by emit_if */ } else if (slot >= 0)
            assign(g, v, slot);
        else if (!(g->flags[v] & F_INLINE)) temp(g, v);
        i++;
    }
}

/* ---- planning --------------------------------------------------------------- */

typedef struct usage {
    /* From the info record (uses_of): */
    uint32_t inputs, outputs, varyings; /* bit n: va/v<n> read, oc<n> / v<n> written */
    bool constants, indirect, op, fd, ddy, derivatives, lod, iid;
    uint32_t samplers; /* bit n: fs<n> sampled */
    uint8_t sampler_dim[16];
    /* From the walk (scan_value): */
    bool pow;
    bool temps[IR_TRACKED_REGS]; /* register variables to declare in main */
} usage;

typedef struct scan {
    wgsl *g;
    usage *u;
    uint32_t *user_list; /* per value: list of its first user */
    int32_t *user_tok;   /* per value: token of its first user */
} scan;

static void scan_value(scan *sc, uint32_t list, uint32_t v)
{
    wgsl *g = sc->g;
    usage *u = sc->u;
    const agal_ir_inst *in = inst(g, v);
    for (unsigned a = 0; a < in->nargs; a++) {
        uint32_t w = in->args[a];
        if (w && w < g->ir->ninsts && sc->user_tok[w] == INT32_MIN) {
            sc->user_list[w] = list;
            sc->user_tok[w] = in->token;
        }
    }
    int slot = home_slot(g, v);
    if (slot >= 0) u->temps[slot] = true;
    u->pow |= in->op == IR_ALU && in->aop == AGAL_OP_POW;
}

/* What the program uses: the IR's info record (info.c), as every back end reads it. */
static void uses_of(const agal_ir *ir, usage *u)
{
    const agal_ir_info *info = &ir->info;
    u->inputs = info->inputs;
    u->iid = info->reads_iid;
    u->constants = info->reads_constants;
    u->indirect = info->reads_indirect;
    u->lod = info->ted;
    u->samplers = info->samplers;
    for (unsigned n = 0; n < 16; n++) u->sampler_dim[n] = info->sampler[n].dim;
    u->ddy = info->ddy;
    u->derivatives = info->ddx || info->ddy;
    u->op = info->writes_op;
    u->outputs = info->outputs;
    u->varyings = info->varyings_written;
    u->fd = info->writes_depth;
}

static void scan_list(scan *sc, uint32_t list)
{
    const agal_ir_list *l = &sc->g->ir->lists[list];
    for (uint32_t i = 0; i < l->n; i++) {
        uint32_t v = l->items[i];
        scan_value(sc, list, v);
        const agal_ir_inst *in = inst(sc->g, v);
        if (in->op == IR_IF) {
            scan_list(sc, in->then_list);
            scan_list(sc, in->else_list);
        }
    }
}

/* An intermediate printed inside its user's statement: trivial, or used once by an
 * instruction of the same AGAL token in the same list (so textures and derivatives
 * stay where AGAL computes them). */
static void mark_inline(scan *sc, uint32_t list)
{
    wgsl *g = sc->g;
    const agal_ir_list *l = &g->ir->lists[list];
    for (uint32_t i = 0; i < l->n; i++) {
        uint32_t v = l->items[i];
        const agal_ir_inst *in = inst(g, v);
        if (in->op == IR_IF) {
            mark_inline(sc, in->then_list);
            mark_inline(sc, in->else_list);
        }
        if (is_trivial(in) || (in->nuses == 1 && sc->user_list[v] == list && sc->user_tok[v] == in->token))
            g->flags[v] |= F_INLINE;
    }
}

/* ---- declarations ----------------------------------------------------------- */

/* " @interpolate(perspective, centroid)" where v<n> feeds a centroid sampler. */
static const char *centroid(const wgsl *g, unsigned n)
{
    return n < 16 && (g->centroid >> n & 1) ? " @interpolate(perspective, centroid)" : "";
}

/* "@group(0) @binding(n) var " */
static void put_binding(wgsl *g, unsigned binding)
{
    put_num(g, "@group(0) @binding(", binding);
    agal_sb_put(&g->out, ") var");
}

/* vc / fc: the profile's registers as one uniform array (vec4's 16-byte stride is
 * what the uniform address space asks of an array); fs<n>: a texture and its
 * sampler, WGSL having no combined one. */
static void resources(wgsl *g, const usage *u)
{
    agal_strbuf *o = &g->out;
    bool vs = g->prog->stage == AGAL_VERTEX;
    if (u->constants) {
        put_binding(g, vs ? AGAL_VC_BINDING : AGAL_FC_BINDING);
        put3(g, "<uniform> ", agal_reg_name(g->prog->stage, AGAL_REG_CONSTANT), ": array<vec4f, ");
        agal_sb_uint(o, agal_reg_count(g->prog->profile, g->prog->stage, AGAL_REG_CONSTANT));
        agal_sb_put(o, ">;\n");
    }
    if (vs || u->ddy) agal_sb_put(o, "@id(0) override " AGAL_GLSL_YFLIP ": f32 = 1.0;\n");
    for (unsigned n = 0; n < 16; n++) {
        if (!(u->samplers & (1u << n))) continue;
        put_binding(g, AGAL_SAMPLER_BINDING + n);
        put_num(g, " fs", n);
        agal_sb_put(o, u->sampler_dim[n] == AGAL_DIM_CUBE ? ": texture_cube<f32>;\n" : ": texture_2d<f32>;\n");
        put_binding(g, AGAL_SEPARATE_SAMPLER_BINDING + n);
        put_num(g, " fs", n);
        agal_sb_put(o, "_sampler: sampler;\n");
    }
}

/* What main returns: op and the varyings, or the colours and fd. */
static bool has_result(const wgsl *g, const usage *u) { return g->prog->stage == AGAL_VERTEX || u->outputs || u->fd; }

static void result_struct(wgsl *g, const usage *u)
{
    agal_strbuf *o = &g->out;
    bool vs = g->prog->stage == AGAL_VERTEX;
    if (!has_result(g, u)) return;
    agal_sb_put(o, "\nstruct agal_out {\n");
    if (vs) agal_sb_put(o, "    @builtin(position) position: vec4f,\n");
    for (unsigned n = 0; n < 16; n++) {
        if (!((vs ? u->varyings : u->outputs) >> n & 1)) continue;
        put_num(g, "    @location(", n);
        put3(g, ")", vs ? centroid(g, n) : "", vs ? " v" : " oc");
        agal_sb_uint(o, n);
        agal_sb_put(o, ": vec4f,\n");
    }
    if (u->fd) agal_sb_put(o, "    @builtin(frag_depth) fd: f32,\n");
    agal_sb_put(o, "}\n");
}

/* The functions the body calls: agal_pow1..4, agal_vc / agal_fc. */
static void functions(wgsl *g, const usage *u)
{
    agal_strbuf *o = &g->out;
    const char *cname = agal_reg_name(g->prog->stage, AGAL_REG_CONSTANT);
    if (u->pow) {
        /* WGSL defines pow's precision as exp2(y * log2(x))'s, as GLSL ES does, and
         * log2(0) has no bound (SwiftShader gives pow(0, y) = 2^(-127 y)). AGAL's
         * pow(0, y) is 0 for y > 0; sign(x) is 1 for every x > 0, so pow is
         * unchanged there (x < 0 is undefined in AGAL and WGSL alike). */
        agal_sb_put(o, "\n");
        if (g->comments) agal_sb_put(o, "// pow(x, y), 0 at x = 0: WGSL bounds no error of log2(0)\n");
        for (unsigned n = 1; n <= 4; n++)
            agal_sb_printf(o, "fn agal_pow%u(x: %s, y: %s) -> %s { return pow(x, y) * sign(x); }\n", n, vec_type(n),
                           vec_type(n), vec_type(n));
    }
    if (u->indirect) {
        agal_sb_put(o, "\n");
        if (g->comments)
            agal_sb_printf(o, "// %s[a], or 0 outside the register file (AGAL's bounded relative read)\n", cname);
        agal_sb_printf(o,
                       "fn agal_%s(a: i32) -> vec4f {\n    if (a < 0 || a >= %u) { return vec4f(0.0); }\n"
                       "    return %s[a];\n}\n",
                       cname, agal_reg_count(g->prog->profile, g->prog->stage, AGAL_REG_CONSTANT), cname);
    }
}

static void declarations(wgsl *g, const usage *u)
{
    agal_strbuf *o = &g->out;
    bool vs = g->prog->stage == AGAL_VERTEX;
    if (g->comments) {
        put_num(g, "// agal2spv: AGAL ", (unsigned)g->prog->version);
        put3(g, vs ? " vertex" : " fragment", " program, ", NULL);
        agal_sb_uint(o, (unsigned)g->prog->ntokens);
        agal_sb_put(o, " tokens\n");
    }
    resources(g, u);
    if (g->zero_var) {
        if (g->comments) agal_sb_put(o, "// 0 where the program reads a register it never wrote (put_const)\n");
        agal_sb_put(o, "var<private> agal_zero: vec4f;\n");
    }
    result_struct(g, u);
    functions(g, u);
}

/* main's parameters: va<n> or v<n> at location n, and iid. */
static void parameters(wgsl *g, const usage *u)
{
    bool vs = g->prog->stage == AGAL_VERTEX, first = true;
    for (unsigned n = 0; n < 16; n++) {
        if (!(u->inputs >> n & 1)) continue;
        put_num(g, first ? "@location(" : ", @location(", n);
        put3(g, ")", vs ? "" : centroid(g, n), vs ? " va" : " v");
        agal_sb_uint(&g->out, n);
        agal_sb_put(&g->out, ": vec4f");
        first = false;
    }
    if (u->iid)
        agal_sb_put(&g->out, first ? "@builtin(instance_index) iid: u32" : ", @builtin(instance_index) iid: u32");
}

/* Register variables: every written register is a local, which WGSL starts at 0
 * as AGAL starts its registers; vertex programs always have op (the position). */
static void locals(wgsl *g, const usage *u)
{
    bool vs = g->prog->stage == AGAL_VERTEX;
    g->indent = 1;
    for (int s = 0; s < IR_TRACKED_REGS; s++) {
        unsigned type, num;
        agal_ir_slot_reg(s, &type, &num);
        bool stored = type == AGAL_REG_OUTPUT    ? (vs ? num == 0 : (u->outputs >> num & 1) != 0)
                      : type == AGAL_REG_VARYING ? vs && (u->varyings >> num & 1) != 0
                                                 : type == AGAL_REG_DEPTH && u->fd;
        if (!u->temps[s] && !stored) continue;
        agal_sb_put(&g->out, "    var ");
        reg_name(g, s);
        agal_sb_put(&g->out, ": vec4f;\n");
    }
}

/* The return of what main writes, in agal_out's order. */
static void result(wgsl *g, const usage *u)
{
    agal_strbuf *o = &g->out;
    bool vs = g->prog->stage == AGAL_VERTEX;
    if (!has_result(g, u)) return;
    agal_sb_put(o, "    return agal_out(");
    bool first = true;
    if (vs) {
        position(g);
        first = false;
    }
    for (unsigned n = 0; n < 16; n++) {
        if (!((vs ? u->varyings : u->outputs) >> n & 1)) continue;
        put_num(g, first ? (vs ? "v" : "oc") : (vs ? ", v" : ", oc"), n);
        first = false;
    }
    if (u->fd) agal_sb_put(o, first ? "fd.x" : ", fd.x");
    agal_sb_put(o, ");\n");
}

/* ---- entry point ------------------------------------------------------------ */

static void reset_walk(wgsl *g)
{
    for (int s = 0; s < IR_TRACKED_REGS; s++) g->held[s] = HELD_ZERO;
    g->next_tok = 0;
    g->indent = 1;
    g->depth = 0;
}

static agal_status plan(wgsl *g, usage *u)
{
    uint32_t n = g->ir->ninsts;
    scan sc = {g, u, agal_alloc(g->ctx, n * sizeof *sc.user_list), agal_alloc(g->ctx, n * sizeof *sc.user_tok)};
    g->flags = agal_zalloc(g->ctx, n);
    if (!sc.user_list || !sc.user_tok || !g->flags) return AGAL_ERR_NOMEM;
    for (uint32_t v = 0; v < n; v++) sc.user_tok[v] = INT32_MIN;
    uses_of(g->ir, u);
    scan_list(&sc, 0);
    mark_inline(&sc, 0);
    /* Dry run: which values need a copy. */
    g->out.dry = true;
    reset_walk(g);
    walk(g, 0);
    g->out.dry = false;
    return g->err;
}

agal_status agal_wgsl_emit(agal_context *ctx, const agal_ir *ir, const agal_emit_options *eopt, const char **text,
                           size_t *len)
{
    static const agal_emit_options defaults;
    if (!ctx || !ir || !text) return AGAL_ERR_ARG;
    if (!eopt) eopt = &defaults;
    const agal_program *prog = ir->prog;
    wgsl g = {.ctx = ctx,
              .ir = ir,
              .prog = prog,
              .comments = !eopt->pub.strip_names,
              .err = AGAL_OK,
              .centroid = eopt->centroid_varyings};
    g.out.ctx = ctx;
    usage u;
    memset(&u, 0, sizeof u);
    agal_status st = plan(&g, &u);
    if (st != AGAL_OK) return st;
    declarations(&g, &u);
    agal_sb_put(&g.out, prog->stage == AGAL_VERTEX ? "\n@vertex\nfn main(" : "\n@fragment\nfn main(");
    parameters(&g, &u);
    agal_sb_put(&g.out, has_result(&g, &u) ? ") -> agal_out {\n" : ") {\n");
    locals(&g, &u);
    reset_walk(&g);
    walk(&g, 0);
    comments_before(&g, prog->ntokens);
    result(&g, &u);
    agal_sb_put(&g.out, "}\n");
    if (g.err != AGAL_OK) return g.err;
    if (g.out.err || !g.out.p) return AGAL_ERR_NOMEM;
    *text = g.out.p;
    if (len) *len = g.out.n;
    return AGAL_OK;
}
