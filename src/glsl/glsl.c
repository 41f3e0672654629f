/* glsl.c: IR -> GLSL 330 core, readable, in the GL binding model (docs/binding-models.md).
 *
 * The text is made from the same SSA IR as the SPIR-V (ir.h), built with
 * keep_copies so every AGAL instruction keeps its own value. Readability comes from
 * giving SSA values back their registers: each written register (vt/ft, op, oc, v,
 * fd) is one GLSL variable, and a value tagged with a register becomes one
 * assignment to it ("vt0.xz = va0.wy + vc[5].xz;"). A use prints the register's
 * name while the variable still holds that value; the emitter tracks which value
 * each variable holds along the tree walk. Where a value outlives its register (the
 * IR allows it; AGAL's own data flow never produces it) it is copied into a
 * temporary "tN" right after its assignment. The body is written by one walk,
 * which also finds those values and the outputs that rely on their zero initial
 * value (their locals are written again with those). A walk that found a value
 * needing a copy wrote its earlier uses as the register: the body is written
 * again, by a walk that knows them all and makes the same decisions.
 *
 * Meaning (docs/format.md section 4 and docs/decisions.md), as the interpreter and
 * the SPIR-V emitter: positional masks (a masked write assigns the selected
 * components of the swizzled result), dp3/dp4 in every written component, matrix
 * rows B[k] = register B + k, indirect reads bounds-checked (agal_vc() reads 0 out
 * of range), ine/sne true for NaN (!(a == b)), temporaries start at 0, kil discards
 * below 0, tex bias = token bias / 8, ted's LOD = A.w. Vertex op -> gl_Position
 * and y * agal_yflip (render to texture), with the target's conventions for op and
 * ddy as lower_conventions.c decided them (ir->conv). */
#include "emit.h"

#include <math.h>

/* ---- emitter state ---------------------------------------------------------- */

enum { HELD_ZERO = UINT32_MAX - 1, HELD_UNKNOWN = UINT32_MAX };
enum { MAX_DEPTH = 64 }; /* expression nesting guard (inlining is per token) */
/* Per-value flags: F_TEMP (copied to tN), F_INLINE (printed at its use); F_USED
 * (planning only: its first user was seen). An instruction the IR hoisted
 * (IR_HOISTED: tex runs in uniform control flow) is no write to its register where
 * it now stands; it gets a temporary, and the branch's join assigns the register. */
enum { F_TEMP = 1, F_INLINE = 2, F_USED = 4 };

/* A register variable's name ("vt3"), spelled at its first use (n 0: not yet). */
typedef struct reg_text {
    char s[15];
    uint8_t n;
} reg_text;

typedef struct glsl {
    agal_context *ctx;
    const agal_ir *ir;
    const agal_program *prog;
    bool comments;
    uint16_t centroid; /* bit n: v<n> is `centroid` */
    agal_glsl_dialect dialect;
    const agal_names *names; /* every name the text declares (agal_names_resolve) */
    const char *flip;        /* the render-to-texture y flip as an expression */
    const char *flip_value;  /* the flip uniform as a float: NAME or NAME.c */
    bool mrt;                /* colours beyond oc0 (GLSL ES 1.00: gl_FragData) */
    agal_strbuf out;
    agal_status err;
    uint8_t *flags;                      /* per value: F_TEMP (copied to tN), F_INLINE */
    int8_t *slots;                       /* per value: home_slot, looked up at every use */
    uint32_t held[IR_TRACKED_REGS];      /* value each register variable holds */
    bool zero_used[IR_TRACKED_REGS];     /* an output relies on starting at 0 */
    reg_text reg_names[IR_TRACKED_REGS]; /* per slot: its name, once spelled */
    uint32_t next_tok;                   /* first token not commented yet */
    bool copies_known;                   /* F_TEMP is final: a use that needs a copy is a bug */
    bool copies_found;                   /* this walk set F_TEMP on a value */
    unsigned indent;
    unsigned depth;
} glsl;

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
static void put_swz(glsl *g, sel s, unsigned width)
{
    if (sel_is_identity(s, width)) return;
    char t[5] = ".";
    for (unsigned i = 0; i < s.n; i++) t[1 + i] = LETTERS[s.c[i]];
    agal_sb_putn(&g->out, t, 1u + s.n);
}

static const char *vec_type(unsigned n)
{
    static const char *names[] = {"float", "float", "vec2", "vec3", "vec4"};
    return names[n <= 4 ? n : 4];
}

/* a, then b, then c (NULL: nothing): the pieces of an expression, without a
 * printf call each. */
static inline void put3(glsl *g, const char *a, const char *b, const char *c)
{
    agal_sb_put(&g->out, a);
    if (b) agal_sb_put(&g->out, b);
    if (c) agal_sb_put(&g->out, c);
}

/* A name and its number: "t12", "va3". */
static inline void put_num(glsl *g, const char *name, unsigned n)
{
    agal_sb_put(&g->out, name);
    agal_sb_uint(&g->out, n);
}

/* What the target cannot express (GLSL ES 1.00): a clear error naming it. */
static void unsupported(glsl *g, const char *what)
{
    if (g->err != AGAL_OK) return;
    agal_status st = agal_error(g->ctx, 0, -1, -1, NULL, "%s", what);
    agal_fail(&g->err, st == AGAL_ERR_NOMEM ? st : AGAL_ERR_UNSUPPORTED);
}

/* What the IR's rules exclude: a bug, reported once with what it was. */
static void bug(glsl *g, const char *what)
{
    if (g->err != AGAL_OK) return;
    agal_status st = agal_error(g->ctx, 0, -1, -1, NULL, "internal: the GLSL emitter met %s", what);
    agal_fail(&g->err, st == AGAL_ERR_NOMEM ? st : AGAL_ERR_INTERNAL);
}

static const agal_ir_inst *inst(const glsl *g, uint32_t v) { return agal_ir_get(g->ir, v); }

/* ---- which values live in which register ------------------------------------ */

/* Slot of the register a value is the new content of, or -1 (loads, stores and
 * untagged intermediates have no home). plan() notes it for every value. */
static int find_home_slot(const glsl *g, uint32_t v)
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

_Static_assert(IR_TRACKED_REGS <= INT8_MAX, "a slot fits glsl.slots");
static int home_slot(const glsl *g, uint32_t v) { return g->slots[v]; }

static bool is_zero_value(const glsl *g, uint32_t v)
{
    if (v == 0) return true;
    const agal_ir_inst *in = inst(g, v);
    return in->op == IR_CONST && in->imm[0] == 0 && in->imm[1] == 0 && in->imm[2] == 0 && in->imm[3] == 0 &&
           !signbit(in->imm[0]) && !signbit(in->imm[1]) && !signbit(in->imm[2]) && !signbit(in->imm[3]);
}

/* Does register slot s hold value v now? A register no path has written holds 0. */
static bool holds(glsl *g, int s, uint32_t v)
{
    if (g->held[s] == v) return true;
    if (g->held[s] == HELD_ZERO && is_zero_value(g, v)) {
        g->zero_used[s] = true;
        return true;
    }
    return false;
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

static void reg_name(glsl *g, int slot)
{
    unsigned type, num;
    reg_text *t = &g->reg_names[slot];
    if (t->n) {
        agal_sb_putn(&g->out, t->s, t->n);
        return;
    }
    agal_ir_slot_reg(slot, &type, &num);
    if (type == AGAL_REG_VARYING) { /* the host may name them, at any length */
        put_num(g, g->names->varying, num);
        return;
    }
    char buf[32]; /* agal_format_reg writes straight into 32 bytes */
    size_t n = (size_t)agal_format_reg(buf, sizeof buf, g->prog->stage, type, num);
    if (n < sizeof t->s) memcpy(t->s, buf, n), t->n = (uint8_t)n;
    agal_sb_putn(&g->out, buf, n);
}

/* ---- expressions ------------------------------------------------------------ */

static void ref(glsl *g, uint32_t v, sel s, bool atom);

static void put_float(glsl *g, float f)
{
    bool es1 = g->dialect == AGAL_GLSL_ESSL100; /* no uintBitsToFloat in GLSL ES 1.00 */
    if (isnan(f)) {
        agal_sb_put(&g->out, es1 ? "(0.0 / 0.0)" : "uintBitsToFloat(0x7fc00000u)");
    } else if (isinf(f)) {
        agal_sb_put(&g->out, f > 0 ? (es1 ? "(1.0 / 0.0)" : "uintBitsToFloat(0x7f800000u)")
                                   : (es1 ? "(-1.0 / 0.0)" : "uintBitsToFloat(0xff800000u)"));
    } else {
        char t[64];
        agal_format_number(t, sizeof t, (double)f, 9);
        agal_sb_put(&g->out, t);
        if (!strpbrk(t, ".e")) agal_sb_put(&g->out, ".0");
    }
}

static void put_const(glsl *g, const agal_ir_inst *in, sel s)
{
    bool same = true;
    for (unsigned i = 1; i < s.n; i++) same &= memcmp(&in->imm[s.c[i]], &in->imm[s.c[0]], sizeof(float)) == 0;
    if (s.n > 1) put3(g, vec_type(s.n), "(", NULL);
    for (unsigned i = 0; i < (same ? 1u : s.n); i++) {
        if (i) agal_sb_put(&g->out, ", ");
        put_float(g, in->imm[s.c[i]]);
    }
    if (s.n > 1) agal_sb_put(&g->out, ")");
}

static void open_paren(glsl *g, bool atom)
{
    if (atom) agal_sb_put(&g->out, "(");
}
static void close_paren(glsl *g, bool atom)
{
    if (atom) agal_sb_put(&g->out, ")");
}

/* f(a) or f(a, b) on the same selection of each operand. */
static void call(glsl *g, const char *f, const agal_ir_inst *in, sel s)
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
static uint32_t unswizzle(const glsl *g, uint32_t v, sel *s)
{
    while (v && v < g->ir->ninsts && inst(g, v)->op == IR_SWIZZLE) {
        for (unsigned i = 0; i < s->n; i++) s->c[i] = (uint8_t)agal_swizzle_comp(inst(g, v)->swizzle, s->c[i]);
        v = inst(g, v)->args[0];
    }
    return v;
}

static void infix(glsl *g, const char *op, const agal_ir_inst *in, sel s, bool atom)
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

/* The GLSL of each predicate (AGAL_CMPS): operator, vector function, negated. */
typedef struct glsl_cmp {
    const char *scalar, *vector;
    bool negate;
} glsl_cmp;
static const glsl_cmp cmps[] = {
#define GLSL_CMP(id, op, spirv, scalar, vector, negate) {scalar, vector, negate},
    AGAL_CMPS(GLSL_CMP)
#undef GLSL_CMP
};

/* sge/slt/seq/sne: 1.0 where the comparison holds. NaN: only sne holds. */
static void set_cmp(glsl *g, const agal_ir_inst *in, sel s)
{
    const glsl_cmp *c = &cmps[agal_op_cmp(in->aop)];
    put3(g, vec_type(s.n), "(", NULL);
    if (s.n == 1) {
        agal_sb_put(&g->out, c->negate ? "!(" : "");
        ref(g, in->args[0], s, true);
        put3(g, " ", c->scalar, " ");
        ref(g, in->args[1], s, true);
        agal_sb_put(&g->out, c->negate ? ")" : "");
    } else {
        put3(g, c->negate ? "not(" : "", c->vector, "(");
        ref(g, in->args[0], s, false);
        agal_sb_put(&g->out, ", ");
        ref(g, in->args[1], s, false);
        agal_sb_put(&g->out, c->negate ? "))" : ")");
    }
    agal_sb_put(&g->out, ")");
}

/* dot(A.xyz, B.xyz) / dot(A, B), the same in every selected component. */
static void dot(glsl *g, const agal_ir_inst *in, sel s, unsigned width)
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
static void vec3_op(glsl *g, const agal_ir_inst *in, sel s)
{
    bool w = false;
    for (unsigned i = 0; i < s.n; i++) w |= s.c[i] == 3;
    if (w) agal_sb_put(&g->out, "vec4(");
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

/* Each opcode's one-to-one GLSL, from its row (opcode_meaning.def). */
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

static void alu(glsl *g, const agal_ir_inst *in, sel s, bool atom)
{
    const glsl_form *form = &forms[in->aop];
    switch (form->kind) {
    case G_INFIX: infix(g, form->text, in, s, atom); return;
    case G_CALL:
        /* GLSL ES: pow through agal_pow, which keeps pow(0, y) at 0 (declarations) */
        call(g, in->aop == AGAL_OP_POW && g->dialect != AGAL_GLSL_330 ? "agal_pow" : form->text, in, s);
        return;
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
        agal_sb_put(&g->out, "clamp(");
        ref(g, in->args[0], s, false);
        agal_sb_put(&g->out, ", 0.0, 1.0)");
        break;
    case AGAL_OP_DDY:
        /* Its sign against the window's rows: ir->conv (lower_conventions.c); the
         * image turns over again when the runtime renders to a texture. */
        open_paren(g, atom);
        call(g, "dFdy", in, s);
        put3(g, g->ir->conv.ddy_negate ? " * -" : " * ", g->flip, NULL);
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
static void matrix(glsl *g, const agal_ir_inst *in, sel s)
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

/* texture(fs0, A.xy[, bias]) / textureLod(fs0, A.xy, A.w); cube reads A.xyz. */
static void tex(glsl *g, const agal_ir_inst *in, sel s)
{
    sel coords = in->smp.dim == AGAL_DIM_CUBE ? SEL_XYZ : (sel){{0, 1, 0, 0}, 2};
    bool lod = in->aop == AGAL_OP_TED, cube = in->smp.dim == AGAL_DIM_CUBE;
    const char *fn = lod ? "textureLod" : "texture";
    if (g->dialect == AGAL_GLSL_ESSL100) /* texture2D / textureCube, the LOD ones of EXT_shader_texture_lod */
        fn = lod ? (cube ? "textureCubeLodEXT" : "texture2DLodEXT") : (cube ? "textureCube" : "texture2D");
    put3(g, fn, "(", NULL);
    put_num(g, g->names->sampler, (unsigned)in->smp.num);
    agal_sb_put(&g->out, ", ");
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

/* Component c of a merge comes from the new value where the mask has it. */
static void merge(glsl *g, const agal_ir_inst *in, sel s, bool atom)
{
    unsigned from_new = 0;
    for (unsigned i = 0; i < s.n; i++) from_new += (in->mask >> s.c[i]) & 1u;
    if (from_new == 0 || from_new == s.n) {
        ref(g, in->args[from_new ? 1 : 0], s, atom);
        return;
    }
    /* vec4(old.xy, new.z, old.w): one operand per run of components from one side */
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
static void cmp(glsl *g, const agal_ir_inst *in, bool atom)
{
    const glsl_cmp *c = &cmps[agal_op_cmp(in->aop)];
    if (c->negate) agal_sb_put(&g->out, "!(");
    else open_paren(g, atom);
    ref(g, in->args[0], sel_one(0), true);
    put3(g, " ", c->scalar, " ");
    ref(g, in->args[1], sel_one(0), true);
    if (c->negate) agal_sb_put(&g->out, ")");
    else close_paren(g, atom);
}

static void input(glsl *g, const agal_ir_inst *in, sel s)
{
    if (in->reg_type == AGAL_REG_IID) {
        /* iid reads (id, id, id, id). */
        if (g->dialect == AGAL_GLSL_ESSL100) {
            unsupported(g, "iid: GLSL ES 1.00 (WebGL 1) has no instance id, and no extension gives one");
            return;
        }
        if (s.n > 1) put3(g, vec_type(s.n), "(", NULL);
        agal_sb_put(&g->out, "float(gl_InstanceID)");
        if (s.n > 1) agal_sb_put(&g->out, ")");
        return;
    }
    put_num(g, in->reg_type == AGAL_REG_ATTRIBUTE ? g->names->attribute : g->names->varying, (unsigned)in->reg_num);
    put_swz(g, s, 4);
}

/* The expression of value v restricted to selection s. atom: the caller needs a
 * primary expression (an operand of an operator). */
static void def(glsl *g, uint32_t v, sel s, bool atom)
{
    const agal_ir_inst *in = inst(g, v);
    const char *cname = g->names->constants[g->prog->stage];
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
        put3(g, "agal_", cname, "(int(");
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
    case IR_ALU: alu(g, in, s, atom); break;
    case IR_MATRIX: matrix(g, in, s); break;
    case IR_TEX: tex(g, in, s); break;
    case IR_MERGE: merge(g, in, s, atom); break;
    case IR_CMP: cmp(g, in, atom); break;
    default: bug(g, "an IR op with no expression"); break;
    }
}

/* A use of value v: its register's name while the register holds it, its
 * temporary, or (for an intermediate of the same instruction) its expression. */
static void ref(glsl *g, uint32_t v, sel s, bool atom)
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
            /* Overwritten before this use: the body is written again with a copy. */
            if (g->copies_known) bug(g, "a value its register no longer holds");
            g->flags[v] |= F_TEMP;
            g->copies_found = true;
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
static void put_token(glsl *g, uint32_t i)
{
    const agal_token *t = &g->prog->tokens[i];
    agal_sb_uint(&g->out, (unsigned)i + 1);
    agal_sb_put(&g->out, ": "); /* counting from 1, as Flash does */
    agal_format_instruction(&g->out, g->prog->stage, t);
}

static void put_indent(glsl *g)
{
    static const char spaces[] = "                                "; /* 8 levels, one append */
    unsigned n = g->indent;
    for (; n > 8; n -= 8) agal_sb_putn(&g->out, spaces, 32);
    agal_sb_putn(&g->out, spaces, 4u * n);
}

/* Comment lines for the tokens before `end` not named yet (their instructions may
 * have been optimized away: a dead write, an unread temporary). */
static void comments_before(glsl *g, uint32_t end)
{
    if (end > g->prog->ntokens) end = g->prog->ntokens;
    for (; g->next_tok < end; g->next_tok++) {
        if (!g->comments) continue;
        put_indent(g);
        agal_sb_put(&g->out, "// ");
        put_token(g, g->next_tok);
        agal_sb_put(&g->out, "\n");
    }
}

/* Starts a statement line of token tok (-1: none), after its comment. */
static void begin_stmt(glsl *g, int32_t tok)
{
    if (tok >= 0) comments_before(g, (uint32_t)tok + 1);
    put_indent(g);
}

/* " // 5: els" at the end of a block line; marks tokens up to tok as named. */
static void trailing_comment(glsl *g, int32_t tok)
{
    if (tok < 0) return;
    comments_before(g, (uint32_t)tok);
    if (g->comments) {
        agal_sb_put(&g->out, " // ");
        put_token(g, (uint32_t)tok);
    }
    g->next_tok = (uint32_t)tok + 1;
}

/* ---- statements ------------------------------------------------------------- */

static void walk(glsl *g, uint32_t list);

/* After the assignment of a value that a later use needs past its register's next
 * write: keep a copy. */
static void keep_copy(glsl *g, uint32_t v, int slot)
{
    if (!(g->flags[v] & F_TEMP)) return;
    put_indent(g);
    put_num(g, "vec4 t", (unsigned)v);
    agal_sb_put(&g->out, " = ");
    reg_name(g, slot);
    agal_sb_put(&g->out, ";\n");
}

/* The assignment of a value to its register: "vt0.xz = ...;" for a masked write
 * onto the register's current content, "vt0 = ...;" otherwise. */
static void assign(glsl *g, uint32_t v, int slot)
{
    const agal_ir_inst *in = inst(g, v);
    begin_stmt(g, in->token);
    reg_name(g, slot);
    if (in->op == IR_MERGE && holds(g, slot, in->args[0])) {
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
static void temp(glsl *g, uint32_t v)
{
    const agal_ir_inst *in = inst(g, v);
    bool hoisted = in->flags & IR_HOISTED;
    if (hoisted) put_indent(g); /* its token's comment stays in its block */
    else begin_stmt(g, in->token);
    const char *type = in->type == IR_F4 ? "vec4" : in->type == IR_F1 ? "float" : "bool";
    put3(g, type, " t", NULL);
    agal_sb_uint(&g->out, (unsigned)v);
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

static void kil(glsl *g, const agal_ir_inst *in)
{
    begin_stmt(g, in->token);
    agal_sb_put(&g->out, "if (");
    ref(g, in->args[0], sel_one(0), true);
    agal_sb_put(&g->out, " < 0.0) discard;\n");
}

static void position(glsl *g)
{
    put_indent(g);
    agal_sb_put(&g->out, "gl_Position = vec4(op.x, ");
    put3(g, g->ir->conv.negate_y ? "-op.y * " : "op.y * ", g->flip, ", ");
    agal_sb_put(&g->out, g->ir->conv.gl_depth ? "2.0 * op.z - op.w, op.w);\n" : "op.z, op.w);\n");
}

/* The final content of an output: already in its variable unless the IR's value
 * lives elsewhere; then op and fd go to their GL built-ins. */
static void store(glsl *g, const agal_ir_inst *in)
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
    bool es1 = g->dialect == AGAL_GLSL_ESSL100;
    if (in->reg_type == AGAL_REG_OUTPUT && g->prog->stage == AGAL_VERTEX) {
        position(g);
    } else if (in->reg_type == AGAL_REG_DEPTH) {
        put_indent(g);
        agal_sb_put(&g->out, es1 ? "gl_FragDepthEXT = fd.x;\n" : "gl_FragDepth = fd.x;\n");
    } else if (in->reg_type == AGAL_REG_OUTPUT && es1) { /* GLSL ES 1.00 has no out variables */
        put_indent(g);
        if (g->mrt) {
            put_num(g, "gl_FragData[", (unsigned)in->reg_num);
            put_num(g, "] = oc", (unsigned)in->reg_num);
            agal_sb_put(&g->out, ";\n");
        } else {
            agal_sb_put(&g->out, "gl_FragColor = oc0;\n");
        }
    }
}

/* The phis after an IR_IF: items[first..end) of its parent list. */
typedef struct joins {
    const agal_ir_list *l;
    uint32_t first, end;
} joins;

/* At the end of a branch: make each register joined by a phi hold the phi's
 * operand for this branch (which = 0 then, 1 else). */
static void phi_moves(glsl *g, const joins *j, unsigned which)
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

static bool needs_phi_moves(const glsl *g, const joins *j, unsigned which)
{
    for (uint32_t i = j->first; i < j->end; i++) {
        int slot = home_slot(g, j->l->items[i]);
        uint32_t a = inst(g, j->l->items[i])->args[which];
        if (slot >= 0 && !(g->held[slot] == a || (g->held[slot] == HELD_ZERO && is_zero_value(g, a)))) return true;
    }
    return false;
}

/* The end of an "if (...) {", "} else {" or "}" line: the comment naming its token. */
static void block_line(glsl *g, const char *text, int32_t tok)
{
    agal_sb_put(&g->out, text);
    trailing_comment(g, tok);
    agal_sb_put(&g->out, "\n");
}

/* One branch: its statements, the comments of its tokens left unnamed (up to
 * end_tok, its els or eif), then the moves its side of the join needs. */
static void branch(glsl *g, uint32_t list, const joins *j, unsigned which, int32_t end_tok)
{
    g->indent++;
    walk(g, list);
    if (end_tok >= 0) comments_before(g, (uint32_t)end_tok);
    phi_moves(g, j, which);
    g->indent--;
}

/* After the block: a register holds what both branches left in it, and each
 * joined register its phi. */
static void join_state(glsl *g, const uint32_t *then_end, const joins *j)
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
static uint32_t emit_if(glsl *g, const agal_ir_list *l, uint32_t i)
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

static void walk(glsl *g, uint32_t list)
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
    glsl *g;
    usage *u;
    uint32_t *list_of; /* per value: the list holding it (UINT32_MAX: none, a constant) */
} scan;

/* An intermediate is printed inside its user's statement when it is trivial, or
 * used once, by an instruction of the same AGAL token in the same list (so textures
 * and derivatives stay where AGAL computes them): decided at its first use. */
static void first_use(scan *sc, uint32_t list, const agal_ir_inst *user, uint32_t w)
{
    glsl *g = sc->g;
    if (!w || w >= g->ir->ninsts || (g->flags[w] & F_USED)) return;
    g->flags[w] |= F_USED;
    const agal_ir_inst *in = inst(g, w);
    if (in->nuses == 1 && sc->list_of[w] == list && in->token == user->token) g->flags[w] |= F_INLINE;
}

static void scan_value(scan *sc, uint32_t list, uint32_t v)
{
    glsl *g = sc->g;
    usage *u = sc->u;
    const agal_ir_inst *in = inst(g, v);
    sc->list_of[v] = list;
    if (is_trivial(in)) g->flags[v] |= F_INLINE;
    for (unsigned a = 0; a < in->nargs; a++) first_use(sc, list, in, in->args[a]);
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

/* ---- declarations ----------------------------------------------------------- */

/* The auxiliary qualifier of v<n>: "centroid " where it feeds a centroid sampler. */
static const char *centroid(const glsl *g, unsigned n) { return n < 16 && (g->centroid >> n & 1) ? "centroid " : ""; }

/* #version, precision and extensions. */
static void header(glsl *g, const usage *u)
{
    agal_strbuf *o = &g->out;
    switch (g->dialect) {
    case AGAL_GLSL_330: agal_sb_put(o, "#version 330 core\n"); break;
    case AGAL_GLSL_ESSL300: agal_sb_put(o, "#version 300 es\nprecision highp float;\nprecision highp int;\n"); break;
    case AGAL_GLSL_ESSL100: {
        agal_sb_put(o, "#version 100\n");
        unsigned ext = agal_ir_essl1_extensions(&g->ir->info);
        for (unsigned bit = 1; bit <= AGAL_EXT_DRAW_BUFFERS; bit <<= 1)
            if (ext & bit) put3(g, "#extension ", agal_extension_name(bit, false), " : enable\n");
        /* highp is optional in GLSL ES 1.00 fragment shaders (always there in vertex ones). */
        if (g->prog->stage == AGAL_VERTEX) agal_sb_put(o, "precision highp float;\n");
        else
            agal_sb_put(
                o,
                "#ifdef GL_FRAGMENT_PRECISION_HIGH\nprecision highp float;\n#else\nprecision mediump float;\n#endif\n");
        break;
    }
    }
}

/* vc / fc: a std140 block of the profile's count (GLSL 330, ES 3.00), or (ES 1.00)
 * a plain uniform array of the registers read (all of them for a relative read). */
static unsigned constant_count(const glsl *g, const usage *u)
{
    unsigned n = agal_reg_count(g->prog->profile, g->prog->stage, AGAL_REG_CONSTANT);
    return g->dialect == AGAL_GLSL_ESSL100 && !u->indirect ? g->ir->info.constants_read : n;
}

static void declarations(glsl *g, const usage *u)
{
    agal_strbuf *o = &g->out;
    bool vs = g->prog->stage == AGAL_VERTEX, es1 = g->dialect == AGAL_GLSL_ESSL100;
    const char *cname = g->names->constants[g->prog->stage];
    unsigned nconst = constant_count(g, u);
    header(g, u);
    if (g->comments) {
        put_num(g, "// agal2spv: AGAL ", (unsigned)g->prog->version);
        put3(g, vs ? " vertex" : " fragment", " program, ", NULL);
        agal_sb_uint(o, (unsigned)g->prog->ntokens);
        agal_sb_put(o, " tokens\n");
    }
    if (u->constants) {
        if (es1) agal_sb_put(o, "uniform vec4 ");
        else put3(g, "layout(std140) uniform ", g->names->blocks[g->prog->stage], " { vec4 ");
        put3(g, cname, "[", NULL);
        agal_sb_uint(o, nconst);
        agal_sb_put(o, es1 ? "];\n" : "]; };\n");
    }
    if (vs || u->ddy) {
        /* GLSL ES has no uniform initializers: 0, a uniform never set, stands for 1. */
        const char *type = g->names->yflip_component ? "vec4 " : "float ";
        put3(g, "uniform ", type, g->names->yflip);
        if (g->dialect == AGAL_GLSL_330) agal_sb_put(o, g->names->yflip_component ? " = vec4(1.0);\n" : " = 1.0;\n");
        else {
            put3(g, ";\nfloat agal_flip() { return ", g->flip_value, " == 0.0 ? 1.0 : ");
            put3(g, g->flip_value, "; }\n", NULL);
        }
    }
    /* Each loop ends past its mask's highest bit. */
    for (unsigned n = 0; n < 16 && u->samplers >> n; n++) {
        if (!(u->samplers & (1u << n))) continue;
        put3(g, "uniform ", u->sampler_dim[n] == AGAL_DIM_CUBE ? "samplerCube " : "sampler2D ", NULL);
        put_num(g, g->names->sampler, n);
        agal_sb_put(o, ";\n");
    }
    for (unsigned n = 0; n < 32 && u->inputs >> n; n++) {
        if (!(u->inputs & (1u << n))) continue;
        if (es1) {
            put3(g, vs ? "attribute vec4 " : "varying vec4 ", NULL, NULL);
        } else if (vs) {
            put_num(g, "layout(location = ", n);
            agal_sb_put(o, ") in vec4 ");
        } else {
            put3(g, centroid(g, n), "in vec4 ", NULL);
        }
        put_num(g, vs ? g->names->attribute : g->names->varying, n);
        agal_sb_put(o, ";\n");
    }
    for (unsigned n = 0; n < 32 && u->varyings >> n; n++) {
        if (!(u->varyings & (1u << n))) continue;
        put3(g, es1 ? "varying" : centroid(g, n), es1 ? NULL : "out", NULL);
        put3(g, " vec4 ", NULL, NULL);
        put_num(g, g->names->varying, n);
        agal_sb_put(o, ";\n");
    }
    for (unsigned n = 0; n < 32 && !es1 && u->outputs >> n; n++)
        if (u->outputs & (1u << n)) {
            put_num(g, "layout(location = ", n);
            put_num(g, ") out vec4 oc", n);
            agal_sb_put(o, ";\n");
        }
    if (u->pow && g->dialect != AGAL_GLSL_330) {
        /* GLSL ES defines pow's precision as exp2(y * log2(x))'s, and log2(0) has no
         * bound: SwiftShader (Chromium's software WebGL) gives pow(0, y) = 2^(-127 y).
         * AGAL's pow(0, y) is 0 for y > 0; sign(x) is 1 for every x > 0, so pow is
         * unchanged there (x < 0 is undefined in AGAL and GLSL alike). */
        agal_sb_put(o, "\n");
        if (g->comments) agal_sb_put(o, "/* pow(x, y), 0 at x = 0: GLSL ES bounds no error of log2(0) */\n");
        for (unsigned n = 1; n <= 4; n++) {
            put3(g, vec_type(n), " agal_pow(", vec_type(n));
            put3(g, " x, ", vec_type(n), " y) { return pow(x, y) * sign(x); }\n");
        }
    }
    if (u->indirect) {
        agal_sb_put(o, "\n");
        if (g->comments)
            put3(g, "/* ", cname, "[a], or 0 outside the register file (AGAL's bounded relative read). */\n");
        put3(g, "vec4 agal_", cname, "(int a) { return a >= 0 && a < ");
        agal_sb_uint(o, nconst);
        put3(g, " ? ", cname, "[a] : vec4(0.0); }\n");
    }
}

/* Register variables: temporaries, op and fd are locals starting at 0; the
 * outputs oc/v are the shader's out variables, zeroed only if the program leaves
 * components unwritten that the final value counts on. */
static void locals(glsl *g, const usage *u)
{
    g->indent = 1;
    for (int s = 0; s < IR_TRACKED_REGS; s++) {
        if (s < IR_SLOT_OUT && !u->temps[s]) continue; /* an unwritten temporary */
        unsigned type, num;
        agal_ir_slot_reg(s, &type, &num);
        /* GLSL ES 1.00 writes colours through gl_FragColor / gl_FragData. */
        bool local = type == AGAL_REG_TEMP || type == AGAL_REG_DEPTH ||
                     (type == AGAL_REG_OUTPUT && (g->prog->stage == AGAL_VERTEX || g->dialect == AGAL_GLSL_ESSL100));
        bool stored = type == AGAL_REG_OUTPUT
                          ? (g->prog->stage == AGAL_VERTEX ? num == 0 && u->op : (u->outputs >> num & 1) != 0)
                          : type == AGAL_REG_DEPTH && u->fd;
        if (local && (u->temps[s] || stored)) {
            agal_sb_put(&g->out, "    vec4 ");
            reg_name(g, s);
            agal_sb_put(&g->out, " = vec4(0.0);\n");
        } else if (!local && g->zero_used[s]) {
            agal_sb_put(&g->out, "    ");
            reg_name(g, s);
            agal_sb_put(&g->out, " = vec4(0.0);\n");
        }
    }
}

/* ---- entry point ------------------------------------------------------------ */

/* The flip's expressions: its uniform as a float (NAME, or NAME.c of a vec4), and
 * what multiplies op.y and ddy (GLSL ES: agal_flip(), which reads 0 as 1). */
static agal_status flip_names(glsl *g)
{
    const agal_names *n = g->names;
    g->flip_value = n->yflip;
    if (n->yflip_component) {
        size_t len = strlen(n->yflip);
        char *s = agal_alloc(g->ctx, len + 3);
        if (!s) return AGAL_ERR_NOMEM;
        memcpy(s, n->yflip, len);
        s[len] = '.', s[len + 1] = n->yflip_component, s[len + 2] = 0;
        g->flip_value = s;
    }
    g->flip = g->dialect == AGAL_GLSL_330 ? g->flip_value : "agal_flip()";
    return AGAL_OK;
}

static void reset_walk(glsl *g)
{
    for (int s = 0; s < IR_TRACKED_REGS; s++) g->held[s] = HELD_ZERO;
    g->next_tok = 0;
    g->indent = 1;
    g->depth = 0;
}

static agal_status plan(glsl *g, usage *u)
{
    uint32_t n = g->ir->ninsts;
    scan sc = {g, u, agal_alloc(g->ctx, n * sizeof *sc.list_of)};
    g->flags = agal_zalloc(g->ctx, n);
    g->slots = agal_alloc(g->ctx, n);
    if (!sc.list_of || !g->flags || !g->slots) return AGAL_ERR_NOMEM;
    for (uint32_t v = 0; v < n; v++) {
        sc.list_of[v] = UINT32_MAX;
        g->slots[v] = (int8_t)find_home_slot(g, v);
    }
    uses_of(g->ir, u);
    scan_list(&sc, 0);
    return g->err;
}

/* [start, keep) gives way to the text from mid on (short: the locals), which moves
 * in front of [keep, mid). */
static void replace_with_tail(glsl *g, size_t start, size_t keep, size_t mid)
{
    agal_strbuf *b = &g->out;
    char stack[512];
    size_t n = b->n - mid;
    char *tail = n <= sizeof stack ? stack : agal_alloc(g->ctx, n);
    if (b->err || !b->p) return;
    if (!tail) {
        agal_fail(&b->err, AGAL_ERR_NOMEM);
        return;
    }
    memcpy(tail, b->p + mid, n);
    memmove(b->p + start + n, b->p + keep, mid - keep);
    memcpy(b->p + start, tail, n);
    b->n = start + n + (mid - keep);
    b->p[b->n] = 0;
}

static bool any_zero_used(const glsl *g)
{
    for (int s = 0; s < IR_TRACKED_REGS; s++)
        if (g->zero_used[s]) return true;
    return false;
}

/* main's locals, its statements, then the comments of the tokens left. The locals
 * are written before the walk; where the walk found outputs that rely on their zero
 * initial value, they are written again with those, over the first ones. */
static void body(glsl *g, const usage *u)
{
    size_t start = g->out.n;
    locals(g, u);
    size_t stmts = g->out.n;
    reset_walk(g);
    walk(g, 0);
    if (g->copies_found && g->err == AGAL_OK && !g->out.err) {
        g->out.n = stmts; /* its uses of the copied values named their registers */
        g->copies_known = true;
        reset_walk(g);
        walk(g, 0);
    }
    comments_before(g, g->prog->ntokens);
    if (!any_zero_used(g)) return;
    size_t end = g->out.n;
    locals(g, u);
    replace_with_tail(g, start, stmts, end);
}

agal_status agal_glsl_emit(agal_context *ctx, const agal_ir *ir, const agal_emit_options *eopt, const char **text,
                           size_t *len)
{
    static const agal_emit_options defaults;
    if (!ctx || !ir || !text) return AGAL_ERR_ARG;
    if (!eopt) eopt = &defaults;
    const agal_translate_options *opt = &eopt->pub;
    const agal_program *prog = ir->prog;
    glsl g = {.ctx = ctx,
              .ir = ir,
              .prog = prog,
              .comments = !opt->strip_names,
              .err = AGAL_OK,
              .dialect = eopt->dialect,
              .names = &eopt->names,
              /* GLSL ES 1.00 has no centroid qualifier */
              .centroid = eopt->dialect == AGAL_GLSL_ESSL100 ? 0 : eopt->centroid_varyings};
    g.out.ctx = ctx;
    agal_names ours;
    if (!g.names->sampler) { /* a caller below the driver (tests) takes ours */
        agal_names_resolve(ctx, NULL, &ours);
        g.names = &ours;
    }
    if (flip_names(&g) != AGAL_OK) return AGAL_ERR_NOMEM;
    usage u;
    memset(&u, 0, sizeof u);
    agal_status st = plan(&g, &u);
    if (st != AGAL_OK) return st;
    g.mrt = (u.outputs & ~1u) != 0;
    declarations(&g, &u);
    agal_sb_put(&g.out, "\nvoid main()\n{\n");
    body(&g, &u);
    agal_sb_put(&g.out, "}\n");
    if (g.err != AGAL_OK) return g.err;
    if (g.out.err || !g.out.p) return AGAL_ERR_NOMEM;
    *text = g.out.p;
    if (len) *len = g.out.n;
    return AGAL_OK;
}

const char *agal_extension_name(unsigned ext, bool webgl)
{
    switch (ext) {
    case AGAL_EXT_STANDARD_DERIVATIVES: return webgl ? "OES_standard_derivatives" : "GL_OES_standard_derivatives";
    case AGAL_EXT_SHADER_TEXTURE_LOD: return webgl ? "EXT_shader_texture_lod" : "GL_EXT_shader_texture_lod";
    case AGAL_EXT_FRAG_DEPTH: return webgl ? "EXT_frag_depth" : "GL_EXT_frag_depth";
    case AGAL_EXT_DRAW_BUFFERS: return webgl ? "WEBGL_draw_buffers" : "GL_EXT_draw_buffers";
    default: return NULL;
    }
}
