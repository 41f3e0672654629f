/* textwalk.c: the statement walk, register tracking, comments, planning and shared
 * expressions of the text back ends (textwalk.h). */
#include "textwalk.h"

#include <math.h>
#include <stdio.h>

/* What a register variable holds besides a value: 0 (no path wrote it), or not
 * known. Never a value's index; HELD_ZERO's bytes all alike, so that a walk
 * starts with one memset. */
enum { TEXT_HELD_ZERO = 0xfefefefe, TEXT_HELD_UNKNOWN = UINT32_MAX };
enum { TEXT_MAX_DEPTH = 64 }; /* expression nesting guard (inlining is per token) */
/* Per-value flags: TEXT_TEMP (copied to tN), TEXT_INLINE (printed at its use). An
 * instruction the IR hoisted
 * (IR_HOISTED: tex runs in uniform control flow) is no write to its register where
 * it now stands; it gets a temporary, and the branch's join assigns the register. */
enum { TEXT_TEMP = 1, TEXT_INLINE = 2 };

/* The first n components in order: .x, .xy, .xyz, .xyzw (0xe4: 3, 2, 1, 0). */
static agal_sel sel_first(unsigned n) { return sel_make(0xe4u & ((1u << (2 * n)) - 1), n); }
#define SEL_XYZW sel_first(4)
#define SEL_XYZ sel_first(3)

/* s read through a swizzle: each component the one the swizzle puts there. */
static agal_sel sel_swizzled(agal_sel s, uint8_t swizzle)
{
    unsigned comps = 0, n = sel_n(s);
    for (unsigned i = 0; i < n; i++) comps |= agal_swizzle_comp(swizzle, sel_c(s, i)) << (2 * i);
    return sel_make(comps, n);
}

/* The components of a write mask in order, by the mask: a lookup, where a loop over
 * the four bits branched on each. 0x324 is three components, 0x24 (x, y, z). */
static const agal_sel mask_sels[16] = {
    {0x000}, {0x100}, {0x101}, {0x204}, {0x102}, {0x208}, {0x209}, {0x324},
    {0x103}, {0x20c}, {0x20d}, {0x334}, {0x20e}, {0x338}, {0x339}, {0x4e4},
};

static const agal_ir_inst *inst(const agal_text *t, uint32_t v) { return agal_ir_get(t->ir, v); }

/* How tightly an expression must bind where it stands, weakest first: one that
 * binds less tightly than its place asks is parenthesized. An operand of a
 * function, a constructor or an assignment takes anything; + and - take a sum on
 * their left, * and / a product; the language's primaries (names, calls,
 * literals) satisfy every place. */
typedef enum bind { BIND_ANY, BIND_SUM, BIND_PRODUCT, BIND_UNARY, BIND_PRIMARY } bind;

static void open_paren(agal_text *t, bind mine, bind need)
{
    if (mine < need) text_put(t, "(");
}
static void close_paren(agal_text *t, bind mine, bind need)
{
    if (mine < need) text_put(t, ")");
}

/* ---- pieces of text ---------------------------------------------------------- */

/* Is s all of a width-component value, in order (.xyz of a vec3)? */
static bool sel_is_identity(agal_sel s, unsigned width) { return s.bits == sel_first(width).bits; }

/* Every selection of four components as ".xyzw", indexed by its components two
 * bits each, the first lowest (agal_sel's low byte): made by the compiler, so that
 * a swizzle is one lookup and one 8-byte copy rather than four letters stored one
 * by one. */
#define SEL_L(i, c) ("xyzw"[((i) >> (2 * (c))) & 3])
#define SEL_SPELLED(i) {'.', SEL_L(i, 0), SEL_L(i, 1), SEL_L(i, 2), SEL_L(i, 3), 0, 0, 0},
#define SEL_SPELLED4(i) SEL_SPELLED(i) SEL_SPELLED((i) + 1) SEL_SPELLED((i) + 2) SEL_SPELLED((i) + 3)
#define SEL_SPELLED16(i) SEL_SPELLED4(i) SEL_SPELLED4((i) + 4) SEL_SPELLED4((i) + 8) SEL_SPELLED4((i) + 12)
#define SEL_SPELLED64(i) SEL_SPELLED16(i) SEL_SPELLED16((i) + 16) SEL_SPELLED16((i) + 32) SEL_SPELLED16((i) + 48)
static const char sel_spelled[256][8] = {SEL_SPELLED64(0) SEL_SPELLED64(64) SEL_SPELLED64(128) SEL_SPELLED64(192)};
#undef SEL_L
#undef SEL_SPELLED
#undef SEL_SPELLED4
#undef SEL_SPELLED16
#undef SEL_SPELLED64

/* s's row of sel_spelled: its components' byte. */
static unsigned sel_index(agal_sel s) { return s.bits & 0xffu; }

void agal_text_put_swz(agal_text *t, agal_sel s, unsigned width)
{
    if (sel_is_identity(s, width)) return;
    text_put8(t, sel_spelled[sel_index(s)], 1u + sel_n(s));
}

/* agal_text_put_swz at cursor p (room for 8 bytes). */
static char *swz_at(char *p, agal_sel s, unsigned width)
{
    return sel_is_identity(s, width) ? p : put8_at(p, sel_spelled[sel_index(s)], 1u + sel_n(s));
}

/* Room for a register's spelled name (8), a number (10), a selection (8) and a few
 * bytes of punctuation, at one cursor. */
enum { REG_SEL_ROOM = 32 };

/* numbered_sel a piece at a time: a name longer than 8 bytes, or no room. */
static AGAL_NOINLINE void numbered_sel_pieces(agal_text *t, const agal_reg_text *spelled, const char *host,
                                              unsigned num, bool indexed, agal_sel s)
{
    text_put_host(t, spelled, host);
    if (indexed) text_putc(t, '[');
    text_uint(t, num);
    if (indexed) text_putc(t, ']');
    agal_text_put_swz(t, s, 4);
}

/* A host name, a number and selection s, at one cursor where the name is spelled:
 * "va3.xy", or with indexed an array's element, "vc[5].xy". Inline, so that each
 * caller's constant indexed costs no test. */
static AGAL_ALWAYS_INLINE void numbered_sel(agal_text *t, const agal_reg_text *spelled, const char *host, unsigned num,
                                            bool indexed, agal_sel s)
{
    char *p = text_room(t, REG_SEL_ROOM);
    if (!spelled->n || !p) {
        numbered_sel_pieces(t, spelled, host, num, indexed, s);
        return;
    }
    p = put8_at(p, spelled->s, spelled->n);
    if (indexed) *p++ = '[';
    p += agal_put_uint(p, num);
    if (indexed) *p++ = ']';
    text_set_end(t, swz_at(p, s, 4));
}

void agal_text_put_reg_sel(agal_text *t, const agal_reg_text *spelled, const char *host, unsigned num, agal_sel s)
{
    numbered_sel(t, spelled, host, num, false, s);
}

void agal_text_unsupported(agal_text *t, const char *what)
{
    if (t->err != AGAL_OK) return;
    agal_status st = agal_error(t->ctx, 0, -1, -1, NULL, "%s", what);
    agal_fail(&t->err, st == AGAL_ERR_NOMEM ? st : AGAL_ERR_UNSUPPORTED);
}

/* What the IR's rules exclude: a bug, reported once with what it was. */
static void bug(agal_text *t, const char *what)
{
    if (t->err != AGAL_OK) return;
    agal_status st = agal_error(t->ctx, 0, -1, -1, NULL, "internal: the %s emitter met %s", t->lang->name, what);
    agal_fail(&t->err, st == AGAL_ERR_NOMEM ? st : AGAL_ERR_INTERNAL);
}

/* ---- which values live in which register ------------------------------------ */

/* IR ops as bits of a mask, so that a property of the op is one test rather than a
 * switch, whose jump follows the data (the planning scan that had one
 * mispredicted it on nearly every value). */
#define OP_BIT(op) (1u << (op))
_Static_assert(IR_OP_COUNT <= 32, "an IR op is a bit of a uint32_t");
/* The ops whose value, tagged with a register, is its new content. */
enum {
    HOMED_OPS = OP_BIT(IR_COPY) | OP_BIT(IR_ALU) | OP_BIT(IR_MATRIX) | OP_BIT(IR_TEX) | OP_BIT(IR_MERGE) |
                OP_BIT(IR_PHI)
};

_Static_assert(IR_TRACKED_REGS <= INT8_MAX, "a slot fits agal_text.slots");
static int home_slot(const agal_text *t, uint32_t v) { return t->slots[v]; }

/* Slot of the register a value is the new content of, or -1 (loads, stores and
 * untagged intermediates have no home). The walk notes it for every value in a
 * list as it reaches it, before any use (the others stay -1), and the registers
 * written with it, which the declarations written after the walk need. */
static AGAL_ALWAYS_INLINE int note_home_slot(agal_text *t, uint32_t v, const agal_ir_inst *in)
{
    bool homed = (HOMED_OPS >> in->op & 1u) & (in->reg_type != IR_NO_REG) & !(in->flags & IR_HOISTED);
    int slot = homed ? agal_ir_reg_slot(t->prog->stage, in->reg_type, in->reg_num) : -1;
    t->slots[v] = (int8_t)slot;
    if (slot >= 0) t->written |= (uint64_t)1 << slot;
    return slot;
}

static bool is_zero_value(const agal_text *t, uint32_t v)
{
    if (v == 0) return true;
    const agal_ir_inst *in = inst(t, v);
    return in->op == IR_CONST && in->imm[0] == 0 && in->imm[1] == 0 && in->imm[2] == 0 && in->imm[3] == 0 &&
           !signbit(in->imm[0]) && !signbit(in->imm[1]) && !signbit(in->imm[2]) && !signbit(in->imm[3]);
}

/* Does register slot s hold value v now? A register no path has written holds 0. */
static bool holds(agal_text *t, int s, uint32_t v)
{
    if (t->held[s] == v) return true;
    if (t->held[s] == TEXT_HELD_ZERO && is_zero_value(t, v)) {
        t->zero_used |= (uint64_t)1 << s;
        return true;
    }
    return false;
}

/* Values whose expression is cheap and pure enough to print at every use. A
 * relative read is not, once several instructions use it (the builder shares
 * them, shared_read): its address and bounds check are made once, in a temporary. */
static const uint16_t trivial_below[IR_OP_COUNT] = {
    /* by op: a value is trivial while its uses are fewer (0: never; a table, not a
     * switch); UINT16_MAX: whatever its uses, and then never a statement of its own
     * (no such op is homed, a store, a kil, an if or a phi), so the walk passes it by */
    [IR_CONST] = UINT16_MAX,   [IR_INPUT] = UINT16_MAX,   [IR_UNIFORM] = UINT16_MAX, [IR_YFLIP] = UINT16_MAX,
    [IR_SWIZZLE] = UINT16_MAX, [IR_EXTRACT] = UINT16_MAX, [IR_UNIFORM_INDIRECT] = 2,
};
static bool is_trivial(const agal_ir_inst *in) { return in->nuses < trivial_below[in->op]; }

/* A slot's name spelled the first time: into its cache, and written. Apart, so that
 * agal_text_reg_name's usual path, a copy from the cache, sets up no frame; not
 * cold: every register a translation names comes here once (perf put 1.4% of the
 * time in its cold copy). */
static AGAL_NOINLINE void spell_reg_name(agal_text *t, int slot)
{
    unsigned type, num;
    agal_reg_text *r = &t->reg_names[slot];
    agal_ir_slot_reg(slot, &type, &num);
    char buf[AGAL_REG_TEXT_MAX + sizeof t->spelled.varying.s];
    size_t n;
    if (type == AGAL_REG_VARYING) {  /* the host may name them, at any length */
        if (!t->spelled.varying.n) { /* longer than 8 bytes: never cached */
            text_put(t, t->names->varying);
            text_uint(t, num);
            return;
        }
        memcpy(buf, t->spelled.varying.s, sizeof t->spelled.varying.s);
        n = t->spelled.varying.n + agal_put_uint(buf + t->spelled.varying.n, num);
    } else {
        n = agal_put_reg_either(buf, t->prog->stage, type, num); /* a tracked register: its stage has it */
    }
    if (n > sizeof r->s) { /* longer than the cache holds (a varying of a long name) */
        text_putn(t, buf, n);
        return;
    }
    memcpy(r->s, buf, sizeof r->s);
    r->n = (uint8_t)n;
    text_put8(t, r->s, n);
}

void agal_text_reg_name(agal_text *t, int slot)
{
    const agal_reg_text *r = &t->reg_names[slot];
    if (r->n) text_put8(t, r->s, r->n);
    else spell_reg_name(t, slot);
}

/* reg_sel a piece at a time: a name not spelled yet, or no room. */
static AGAL_NOINLINE void reg_sel_pieces(agal_text *t, int slot, agal_sel s)
{
    agal_text_reg_name(t, slot);
    agal_text_put_swz(t, s, 4);
}

/* A slot's register variable and selection s of it, "vt0.xz", at one cursor once
 * its name is spelled. Apart from ref: inline, it kept more of ref's loop in memory. */
static AGAL_NOINLINE void reg_sel(agal_text *t, int slot, agal_sel s)
{
    const agal_reg_text *r = &t->reg_names[slot];
    char *p = text_room(t, REG_SEL_ROOM);
    if (!r->n || !p) {
        reg_sel_pieces(t, slot, s);
        return;
    }
    text_set_end(t, swz_at(put8_at(p, r->s, r->n), s, 4));
}

/* ---- expressions ------------------------------------------------------------ */

static void expr(agal_text *t, const agal_ir_inst *in, agal_sel s, bind need);

/* A constant register's selection s: "vc[5].xy". */
static void uniform(agal_text *t, const agal_ir_inst *in, agal_sel s)
{
    numbered_sel(t, &t->spelled.constants, t->names->constants[t->prog->stage], (unsigned)in->reg_num, true, s);
}

/* An intermediate several instructions use, by the name temp() declared: "t7". */
static void temp_name(agal_text *t, uint32_t v, agal_sel s)
{
    text_put_num(t, "t", (unsigned)v);
    if (inst(t, v)->type == IR_F4) agal_text_put_swz(t, s, 4);
}

/* The ops passes_on may follow, tested before its switch: most uses are of others. */
enum { PASSING_OPS = OP_BIT(IR_SWIZZLE) | OP_BIT(IR_EXTRACT) | OP_BIT(IR_COPY) | OP_BIT(IR_MERGE) };

/* Does v's expression only pass selection *s on to an operand (a swizzle, an
 * extract, a copy, a merge whose selected components all come from one side)?
 * Then *operand and *s are that operand and its selection: a use follows the
 * chain in a loop (the position's four components go through two merges each). */
static bool passes_on(const agal_ir_inst *in, agal_sel *s, uint32_t *operand)
{
    switch (in->op) {
    case IR_SWIZZLE:
        *s = sel_swizzled(*s, in->swizzle);
        *operand = in->args[0];
        return true;
    case IR_EXTRACT:
        *s = sel_one(in->comp);
        *operand = in->args[0];
        return true;
    case IR_COPY: *operand = in->args[0]; return true;
    case IR_MERGE: {
        unsigned from_new = 0;
        for (unsigned i = 0; i < sel_n(*s); i++) from_new += (in->mask >> sel_c(*s, i)) & 1u;
        *operand = in->args[from_new ? 1 : 0];
        return from_new == 0 || from_new == sel_n(*s);
    }
    default: return false;
    }
}

/* A use of v, each value it passes through counted against TEXT_MAX_DEPTH as a
 * level of the expression. */
static void ref(agal_text *t, uint32_t v, agal_sel s, bind need)
{
    unsigned depth = t->depth, level = depth; /* t->depth set from level for expr alone */
    for (;;) {
        if (++level > TEXT_MAX_DEPTH) {
            agal_fail(&t->err, AGAL_ERR_LIMIT);
        } else if (v == 0 || v >= t->ir->ninsts) {
            t->lang->constant(t, &(agal_ir_inst){.op = IR_CONST}, s);
        } else if (t->flags[v] & TEXT_TEMP) {
            temp_name(t, v, s);
        } else if (home_slot(t, v) >= 0) {
            int slot = home_slot(t, v);
            if (!holds(t, slot, v)) {
                /* Overwritten before this use: the body is written again with a copy. */
                if (t->copies_known) bug(t, "a value its register no longer holds");
                t->flags[v] |= TEXT_TEMP;
                t->copies_found = true;
            }
            reg_sel(t, slot, s);
        } else if ((t->flags[v] & TEXT_INLINE) || is_trivial(inst(t, v))) {
            const agal_ir_inst *in = inst(t, v);
            agal_sel under = s;
            uint32_t operand;
            if ((PASSING_OPS >> in->op & 1u) && passes_on(in, &under, &operand)) {
                v = operand, s = under;
                continue;
            }
            t->depth = level;
            /* passes_on just said it is an expression of its own; a load's straight
             * from here, without expr's frame */
            if (in->op == IR_INPUT) t->lang->input(t, in, s);
            else if (in->op == IR_UNIFORM) uniform(t, in, s);
            else expr(t, in, s, need);
        } else {
            temp_name(t, v, s);
        }
        break;
    }
    t->depth = depth;
}

void agal_text_ref(agal_text *t, uint32_t v, agal_sel s, bool atom) { ref(t, v, s, atom ? BIND_PRIMARY : BIND_ANY); }

static void call(agal_text *t, const char *f, const agal_ir_inst *in, agal_sel s)
{
    text_put3(t, f, "(", NULL);
    ref(t, in->args[0], s, BIND_ANY);
    if (in->nargs > 1) {
        text_put(t, ", ");
        ref(t, in->args[1], s, BIND_ANY);
    }
    text_put(t, ")");
}

/* Does an operand read one component in every position (ft5.xxxx, as `mul ft7,
 * fc3, ft5.x` reads)? s: its selection under its swizzles. Then an operator takes it
 * as a float. */
static bool broadcast(agal_sel s)
{
    unsigned n = sel_n(s), used = (1u << (2 * n)) - 1;
    return n > 1 && (s.bits & used) == ((sel_c(s, 0) * 0x55u) & used);
}

/* The y flip, or its negation: one float in every component, which an operator
 * takes as a float ("dFdy(v1) * -agal_yflip"). */
static bool is_flip(const agal_text *t, uint32_t v)
{
    if (!v || v >= t->ir->ninsts) return false;
    const agal_ir_inst *in = inst(t, v);
    if (in->op == IR_ALU && in->aop == AGAL_OP_NEG) in = inst(t, in->args[0]);
    return in->op == IR_YFLIP;
}

/* The selection of the value under v's swizzles (SWIZZLE chains compose), and in
 * *levels how many it passed. Inline where GCC would call it: its frame was a fifth
 * of its cost. */
static AGAL_ALWAYS_INLINE uint32_t unswizzle(const agal_text *t, uint32_t v, agal_sel *s, unsigned *levels)
{
    while (v && v < t->ir->ninsts && inst(t, v)->op == IR_SWIZZLE) {
        *s = sel_swizzled(*s, inst(t, v)->swizzle);
        v = inst(t, v)->args[0];
        ++*levels;
    }
    return v;
}

/* A use of v under swizzles already passed (unswizzle): what ref of the first
 * swizzle writes, each swizzle counted as a level, without following them again. */
static void ref_under(agal_text *t, uint32_t v, agal_sel s, bind need, unsigned levels)
{
    unsigned depth = t->depth;
    t->depth = depth + levels;
    ref(t, v, s, need);
    t->depth = depth;
}

/* a op b (op: the first op_n of 8 bytes, " + "): mine is how tightly it binds; its
 * left operand may bind as tightly, its right one must bind more tightly (a - (b - c)). */
static void infix(agal_text *t, const char op[8], size_t op_n, bind mine, const agal_ir_inst *in, agal_sel s, bind need)
{
    /* vec op float where an operand is one component: "fc[3] * ft5.x" */
    agal_sel sa = s, sb = s;
    unsigned la = 0, lb = 0;
    uint32_t a = unswizzle(t, in->args[0], &sa, &la), b = unswizzle(t, in->args[1], &sb, &lb);
    bool a1 = broadcast(sa) || is_flip(t, a), b1 = broadcast(sb) || is_flip(t, b);
    open_paren(t, mine, need);
    ref_under(t, a, a1 && !b1 ? sel_one(sel_c(sa, 0)) : sa, mine, la);
    text_put8(t, op, op_n);
    ref_under(t, b, b1 ? sel_one(sel_c(sb, 0)) : sb, (bind)(mine + 1), lb);
    close_paren(t, mine, need);
}

static void dot(agal_text *t, const agal_ir_inst *in, agal_sel s, unsigned width)
{
    agal_sel w = width == 3 ? SEL_XYZ : SEL_XYZW;
    if (sel_n(s) > 1) text_put3(t, text_vec_type(t, sel_n(s)), "(", NULL);
    text_put(t, "dot(");
    ref(t, in->args[0], w, BIND_ANY);
    text_put(t, ", ");
    ref(t, in->args[1], w, BIND_ANY);
    text_put(t, ")");
    if (sel_n(s) > 1) text_put(t, ")");
}

static void vec3_op(agal_text *t, const agal_ir_inst *in, agal_sel s)
{
    bool w = false;
    for (unsigned i = 0; i < sel_n(s); i++) w |= sel_c(s, i) == 3;
    if (w) text_put3(t, text_vec_type(t, 4), "(", NULL);
    text_put(t, in->aop == AGAL_OP_NRM ? "normalize(" : "cross(");
    ref(t, in->args[0], SEL_XYZ, BIND_ANY);
    if (in->aop == AGAL_OP_CRS) {
        text_put(t, ", ");
        ref(t, in->args[1], SEL_XYZ, BIND_ANY);
    }
    text_put(t, ")");
    if (w) {
        text_put(t, ", 0.0)");
        agal_text_put_swz(t, s, 4);
    } else {
        agal_text_put_swz(t, s, 3);
    }
}

static void matrix(agal_text *t, const agal_ir_inst *in, agal_sel s)
{
    unsigned rows = in->nargs - 1u;
    agal_sel w = in->aop == AGAL_OP_M33 ? SEL_XYZ : SEL_XYZW;
    if (sel_n(s) > 1) text_put3(t, text_vec_type(t, sel_n(s)), "(", NULL);
    for (unsigned i = 0; i < sel_n(s); i++) {
        if (i) text_put(t, ", ");
        if (sel_c(s, i) >= rows) {
            text_put(t, "0.0");
            continue;
        }
        text_put(t, "dot(");
        ref(t, in->args[0], w, BIND_ANY);
        text_put(t, ", ");
        ref(t, in->args[1 + sel_c(s, i)], w, BIND_ANY);
        text_put(t, ")");
    }
    if (sel_n(s) > 1) text_put(t, ")");
}

/* Component c of a merge comes from the new value where the mask has it:
 * "vec4(old.xy, new.z, old.w)", one operand per run of components from one side,
 * unless the language writes interleaved ones its own way. (A selection from one
 * side alone is that side's: passes_on.) */
static void merge(agal_text *t, const agal_ir_inst *in, agal_sel s)
{
    unsigned new_runs = 0, n = sel_n(s);
    for (unsigned i = 0; i < n; i++)
        new_runs += ((in->mask >> sel_c(s, i)) & 1u) && (i == 0 || !((in->mask >> sel_c(s, i - 1)) & 1u));
    if (new_runs > 1 && t->lang->interleaved) {
        t->lang->interleaved(t, in, s);
        return;
    }
    text_put3(t, text_vec_type(t, n), "(", NULL);
    for (unsigned i = 0; i < n;) {
        unsigned side = (in->mask >> sel_c(s, i)) & 1u, j = i;
        agal_sel run = sel_make(0, 0);
        for (; j < n && ((in->mask >> sel_c(s, j)) & 1u) == side; j++) run = sel_push(run, sel_c(s, j));
        if (i) text_put(t, ", ");
        ref(t, in->args[side], run, BIND_ANY);
        i = j;
    }
    text_put(t, ")");
}

/* Each predicate's operator (AGAL_CMPS), which WGSL applies to vectors too, and
 * whether it is negated (ne: !(a == b), true for NaN). */
typedef struct text_cmp {
    const char *op;
    bool negate;
} text_cmp;
static const text_cmp cmps[] = {
#define TEXT_CMP(id, op, spirv, scalar, vector, negate) {scalar, negate},
    AGAL_CMPS(TEXT_CMP)
#undef TEXT_CMP
};

void agal_text_compare(agal_text *t, const agal_ir_inst *in, agal_sel s)
{
    const text_cmp *c = &cmps[agal_op_cmp(in->aop)];
    text_put(t, c->negate ? "!(" : "");
    ref(t, in->args[0], s, BIND_PRIMARY);
    text_put3(t, " ", c->op, " ");
    ref(t, in->args[1], s, BIND_PRIMARY);
    text_put(t, c->negate ? ")" : "");
}

/* An if's condition: ife/ifg/ifl ordered (false for NaN), ine unordered (true). */
static void cmp(agal_text *t, const agal_ir_inst *in, bind need)
{
    bool paren = need > BIND_ANY && !cmps[agal_op_cmp(in->aop)].negate; /* "!(a == b)" is a primary */
    if (paren) text_put(t, "(");
    agal_text_compare(t, in, sel_one(0));
    if (paren) text_put(t, ")");
}

/* Each opcode's one-to-one spelling, from its row (opcode_meaning.def): GLSL's, and
 * WGSL's but for the functions it names otherwise (agal_text_lang.function). */
enum { TEXT_HAND, TEXT_INFIX, TEXT_CALL, TEXT_PREFIX };
typedef struct text_form {
    uint8_t kind;
    uint8_t spaced_n;
    char spaced[8]; /* an infix operator between its spaces, " + ": one 8-byte copy */
    const char *text;
} text_form;
#define GLSL_HAND \
    { \
        TEXT_HAND, 0, "", NULL \
    }
#define GLSL_INFIX(op) \
    { \
        TEXT_INFIX, sizeof(op) + 1, " " op " ", op \
    }
#define GLSL_CALL(fn) \
    { \
        TEXT_CALL, 0, "", fn \
    }
#define GLSL_PREFIX(text) \
    { \
        TEXT_PREFIX, 0, "", text \
    }
static const text_form forms[AGAL_OP_LIMIT] = {
#define AGAL_OPCODE_MEANING(ID, c, glsl, spirv, cmp) [AGAL_OP_##ID] = glsl,
#include "opcode_meaning.def"
#undef AGAL_OPCODE_MEANING
};
#undef GLSL_HAND
#undef GLSL_INFIX
#undef GLSL_CALL
#undef GLSL_PREFIX

/* How tightly an operator's expression binds: + and - as sums, * and / (rcp's
 * "1.0 / a" too) as products, a prefix - as a unary expression. */
static bind strength(const text_form *form)
{
    if (form->kind == TEXT_PREFIX) return strchr(form->text, '/') ? BIND_PRODUCT : BIND_UNARY;
    return form->text[0] == '*' || form->text[0] == '/' ? BIND_PRODUCT : BIND_SUM;
}

static void alu(agal_text *t, const agal_ir_inst *in, agal_sel s, bind need)
{
    const text_form *form = &forms[in->aop];
    switch (form->kind) {
    case TEXT_INFIX: infix(t, form->spaced, form->spaced_n, strength(form), in, s, need); return;
    case TEXT_CALL:
        t->pow |= in->aop == AGAL_OP_POW; /* the declarations, written after the walk, define its wrapper */
        call(t, t->lang->function(t, form->text, sel_n(s)), in, s);
        return;
    case TEXT_PREFIX:
        /* its operand a primary: "-(a * b)", and never "--a" */
        open_paren(t, strength(form), need);
        text_put(t, form->text);
        ref(t, in->args[0], s, BIND_PRIMARY);
        close_paren(t, strength(form), need);
        return;
    default: break;
    }
    if (agal_op_cmp(in->aop) != AGAL_CMP_NONE) {
        t->lang->set_cmp(t, in, s);
        return;
    }
    switch (in->aop) {
    case AGAL_OP_SAT:
        text_put(t, t->lang->sat[0]);
        ref(t, in->args[0], s, BIND_ANY);
        text_put(t, t->lang->sat[1]);
        break;
    case AGAL_OP_DP3: dot(t, in, s, 3); break;
    case AGAL_OP_DP4: dot(t, in, s, 4); break;
    case AGAL_OP_NRM:
    case AGAL_OP_CRS: vec3_op(t, in, s); break;
    default: bug(t, "an ALU op it has no spelling for"); break;
    }
}

/* The expression of an instruction that does not pass its selection on
 * (passes_on) restricted to selection s, parenthesized where it binds less tightly
 * than need. */
static void expr(agal_text *t, const agal_ir_inst *in, agal_sel s, bind need)
{
    switch (in->op) {
    case IR_CONST: t->lang->constant(t, in, s); break;
    case IR_INPUT: t->lang->input(t, in, s); break;
    case IR_UNIFORM: uniform(t, in, s); break;
    case IR_UNIFORM_INDIRECT:
        text_put3(t, "agal_", t->names->constants[t->prog->stage], "(");
        text_put(t, t->lang->int_cast);
        ref(t, in->args[0], sel_one(0), BIND_ANY);
        if (in->reg_num) {
            text_put_num(t, ") + ", (unsigned)in->reg_num);
            text_putc(t, ')');
        } else text_put(t, "))");
        agal_text_put_swz(t, s, 4);
        break;
    case IR_YFLIP: agal_text_splat(t, s, t->flip); break;
    case IR_ALU:
        t->computing++;
        alu(t, in, s, need);
        t->computing--;
        break;
    case IR_MATRIX:
        t->computing++;
        matrix(t, in, s);
        t->computing--;
        break;
    case IR_TEX: t->lang->tex(t, in, s); break;
    case IR_MERGE: merge(t, in, s); break;
    case IR_CMP: cmp(t, in, need); break;
    default: bug(t, "an IR op with no expression"); break;
    }
}

/* The expression of value v restricted to selection s: what it passes s on to, or
 * its own. */
static void def(agal_text *t, uint32_t v, agal_sel s, bind need)
{
    const agal_ir_inst *in = inst(t, v);
    agal_sel under = s;
    uint32_t operand;
    if (passes_on(in, &under, &operand)) ref(t, operand, under, need);
    else expr(t, in, s, need);
}

void agal_text_sample_operands(agal_text *t, const agal_ir_inst *in, agal_sel s)
{
    agal_sel coords = in->smp.dim == AGAL_DIM_CUBE ? SEL_XYZ : sel_first(2);
    ref(t, in->args[0], coords, BIND_ANY);
    if (in->aop == AGAL_OP_TED) {
        text_put(t, ", ");
        ref(t, in->args[0], sel_one(3), BIND_ANY);
    } else if (in->smp.bias) {
        text_put(t, ", ");
        t->lang->number(t, (float)in->smp.bias / 8.0f);
    }
    text_put(t, ")");
    agal_text_put_swz(t, s, 4);
}

void agal_text_components(agal_text *t, uint32_t v)
{
    if (t->ir->insts[v].op != IR_MERGE) { /* op as written (AGAL_CLIP_CONTROL): one value */
        ref(t, v, SEL_XYZW, BIND_ANY);
        return;
    }
    text_put3(t, text_vec_type(t, 4), "(", NULL);
    for (unsigned c = 0; c < 4; c++) {
        if (c) text_put(t, ", ");
        ref(t, v, sel_one(c), BIND_ANY);
    }
    text_put(t, ")");
}

void agal_text_splat(agal_text *t, agal_sel s, const char *scalar)
{
    if (sel_n(s) > 1) text_put3(t, text_vec_type(t, sel_n(s)), "(", NULL);
    text_put(t, scalar);
    if (sel_n(s) > 1) text_put(t, ")");
}

void agal_text_packed(agal_text *t, unsigned n, agal_sel s)
{
    char name[24];
    snprintf(name, sizeof name, "%s%u", AGAL_GLSL_PACK_PREFIX, n & 15);
    unsigned w = t->ir->packing.width[n & 15];
    if (w == 1) { /* a float: neither language swizzles one */
        agal_text_splat(t, s, name);
        return;
    }
    text_put(t, name);
    agal_text_put_swz(t, s, w);
}

/* f as put_finite's general path spells it, for the floats whose decimal is short
 * and exact: multiples of 1/16 below 1e5 in magnitude (0.5, 2.0, a bias / 8), the
 * IR's constants. %.9g writes them in fixed notation, at most 5 + 4 digits, without
 * trailing zeros. false: f is none of them. */
static bool put_sixteenths(agal_text *t, float f)
{
    float a = fabsf(f) * 16.0f; /* exact: a power of two */
    if (!(a < 1.6e6f) || a != truncf(a)) return false;
    uint32_t q = (uint32_t)a, whole = q >> 4, frac = (q & 15u) * 625u; /* ten-thousandths */
    char num[24], rev[8], *p = num;
    if (signbit(f)) *p++ = '-';
    size_t k = 0;
    do rev[k++] = (char)('0' + whole % 10);
    while (whole /= 10);
    while (k) *p++ = rev[--k];
    *p++ = '.';
    if (!frac) *p++ = '0';
    for (uint32_t d = 1000; frac; d /= 10) { /* up to the last nonzero digit */
        *p++ = (char)('0' + frac / d);
        frac %= d;
    }
    text_putn(t, num, (size_t)(p - num));
    return true;
}

void agal_text_put_finite(agal_text *t, float f)
{
    if (put_sixteenths(t, f)) return;
    char num[64];
    agal_format_number(num, sizeof num, (double)f, 9);
    text_put(t, num);
    if (!strpbrk(num, ".e")) text_put(t, ".0");
}

void agal_text_literal(agal_text *t, const agal_ir_inst *in, agal_sel s)
{
    bool same = true;
    for (unsigned i = 1; i < sel_n(s); i++)
        same &= memcmp(&in->imm[sel_c(s, i)], &in->imm[sel_c(s, 0)], sizeof(float)) == 0;
    if (sel_n(s) > 1) text_put3(t, text_vec_type(t, sel_n(s)), "(", NULL);
    for (unsigned i = 0; i < (same ? 1u : sel_n(s)); i++) {
        if (i) text_put(t, ", ");
        t->lang->number(t, in->imm[sel_c(s, i)]);
    }
    if (sel_n(s) > 1) text_put(t, ")");
}

/* ---- comments naming the AGAL tokens ---------------------------------------- */

/* Room for a token's comment: its number, ": ", its instruction, a newline. */
enum { TOKEN_TEXT_MAX = 16 + AGAL_INSTRUCTION_TEXT_MAX };

/* "5: add vt0.xz, va0.wzyx, vc5" for the fifth token, in the disassembler's syntax,
 * spelled at p (TOKEN_TEXT_MAX bytes free); returns its end. Inline in its two
 * callers: its frame was a fifth of its cost. */
static AGAL_ALWAYS_INLINE char *put_token_at(agal_text *t, char *p, uint32_t i)
{
    const agal_token *tok = &t->prog->tokens[i];
    p += agal_put_uint(p, i + 1); /* counting from 1, as Flash does */
    *p++ = ':';
    *p++ = ' ';
    char *end = agal_put_instruction(p, t->prog->stage, tok);
    if (end) return end;
    /* what the syntax cannot write: the disassembler's sentence, at most once a program */
    agal_strbuf *b = &t->out;
    b->n = (size_t)(p - b->p);
    agal_format_instruction(b, t->prog->stage, tok);
    return agal_sb_reserve(b, TOKEN_TEXT_MAX) ? b->p + b->n : NULL;
}

/* The token's text after what is in the buffer, its room reserved once. */
static void put_token(agal_text *t, uint32_t i)
{
    agal_strbuf *b = &t->out;
    if (!text_reserve(t, TOKEN_TEXT_MAX)) return;
    char *end = put_token_at(t, b->p + b->n, i);
    if (!end) return;
    b->n = (size_t)(end - b->p);
    *end = 0;
}

static const char spaces[] = "                                "; /* 8 levels, one append */

/* An indentation deeper than a block's, apart: the usual one sets up no frame. */
static AGAL_COLD void deep_indent(agal_text *t, unsigned n)
{
    for (; n > 8; n -= 8) text_putn(t, spaces, 32);
    text_putn(t, spaces, 4u * n);
}

void agal_text_indent(agal_text *t)
{
    unsigned n = t->indent;
    if (n <= 2) text_put8(t, spaces, 4u * n); /* main's statements and a block's: one 8-byte copy */
    else deep_indent(t, n);
}

/* A comment line naming token i, "    // 5: add vt0, va0, vc5\n": its indentation,
 * marker, text and newline in one reservation. */
static void comment_line(agal_text *t, uint32_t i)
{
    agal_strbuf *b = &t->out;
    size_t indent = 4u * t->indent;
    if (!text_reserve(t, indent + 3 + TOKEN_TEXT_MAX)) return;
    char *p = b->p + b->n;
    if (indent <= 8) memcpy(p, "        ", 8); /* main's and a block's: one copy, not a call (the room is reserved) */
    else memset(p, ' ', indent);
    memcpy(p + indent, "// ", 3);
    p = put_token_at(t, p + indent + 3, i);
    if (!p) return;
    *p++ = '\n';
    b->n = (size_t)(p - b->p);
    *p = 0;
}

/* comments_before's work where a token is left to name. */
static AGAL_NOINLINE void comments_from(agal_text *t, uint32_t end)
{
    if (end > t->prog->ntokens) end = t->prog->ntokens;
    if (!t->comments) {
        if (t->next_tok < end) t->next_tok = end;
        return;
    }
    for (; t->next_tok < end; t->next_tok++) comment_line(t, t->next_tok);
}

/* Comment lines for the tokens before `end` not named yet (their instructions may
 * have been optimized away: a dead write, an unread temporary). The test inline: a
 * statement after the first of its token's names none, and the lines' call sets up
 * a frame. */
static AGAL_ALWAYS_INLINE void comments_before(agal_text *t, uint32_t end)
{
    if (t->next_tok < end) comments_from(t, end);
}

/* Under debug_info, before a line of token tok's code (tok -1: none): the line a
 * driver's log names it by is the token's line in the disassembly, in source
 * string 1. Every line of a token's code gets one, so that a token written on
 * several lines names none after it. */
static void line_mark(agal_text *t, int32_t tok)
{
    if (!t->lines || tok < 0) return;
    agal_text_indent(t);
    text_put(t, "#line ");
    text_uint(t, agal_token_line((uint32_t)tok));
    text_put(t, " ");
    text_uint(t, AGAL_GLSL_BODY_STRING);
    text_put(t, "\n");
}

/* Starts a statement line of token tok (-1: none), after its comment. */
static void begin_stmt(agal_text *t, int32_t tok)
{
    if (tok >= 0) comments_before(t, (uint32_t)tok + 1);
    line_mark(t, tok);
    agal_text_indent(t);
}

/* " // 5: els" at the end of a block line; marks tokens up to tok as named. */
static void trailing_comment(agal_text *t, int32_t tok)
{
    if (tok < 0) return;
    comments_before(t, (uint32_t)tok);
    if (t->comments) {
        text_put(t, " // ");
        put_token(t, (uint32_t)tok);
    }
    t->next_tok = (uint32_t)tok + 1;
}

/* ---- statements ------------------------------------------------------------- */

static void walk(agal_text *t, uint32_t list);

/* "vt0 = value;" where the register does not hold it yet. */
static void move(agal_text *t, int slot, uint32_t value)
{
    if (holds(t, slot, value)) return;
    line_mark(t, inst(t, value)->token);
    agal_text_indent(t);
    agal_text_reg_name(t, slot);
    text_put(t, " = ");
    ref(t, value, SEL_XYZW, BIND_ANY);
    text_put(t, ";\n");
    t->held[slot] = value;
}

/* After the assignment of a value that a later use needs past its register's next
 * write: keep a copy ("vec4 t7 = vt0;"). */
static void write_copy(agal_text *t, uint32_t v, int slot)
{
    line_mark(t, inst(t, v)->token);
    agal_text_indent(t);
    text_put_num(t, t->lang->temp_types[IR_F4], (unsigned)v);
    text_put(t, " = ");
    agal_text_reg_name(t, slot);
    text_put(t, ";\n");
}

/* The copy, where v needs one: tested before the call, as most values need none. */
static void keep_copy(agal_text *t, uint32_t v, int slot)
{
    if (t->flags[v] & TEXT_TEMP) write_copy(t, v, slot);
}

/* The assignment of a value to its register: "vt0.xz = ...;" for a masked write
 * onto the register's current content (of as many components as the language
 * assigns), "vt0 = ...;" otherwise (the language's def writes the mix). */
static void assign(agal_text *t, uint32_t v, int slot)
{
    const agal_ir_inst *in = inst(t, v);
    begin_stmt(t, in->token);
    agal_text_reg_name(t, slot);
    agal_sel m = mask_sels[in->mask & 15];
    if (in->op == IR_MERGE && (t->lang->assigns_swizzles || sel_n(m) == 1) && holds(t, slot, in->args[0])) {
        agal_text_put_swz(t, m, 4);
        text_put(t, " = ");
        ref(t, in->args[1], m, BIND_ANY);
    } else {
        text_put(t, " = ");
        def(t, v, SEL_XYZW, false);
    }
    text_put(t, ";\n");
    t->held[slot] = v;
    keep_copy(t, v, slot);
}

/* An intermediate needed by several instructions: "vec4 t7 = ...;". */
static void temp(agal_text *t, uint32_t v)
{
    const agal_ir_inst *in = inst(t, v);
    bool hoisted = in->flags & IR_HOISTED;
    if (hoisted) { /* its token's comment stays in its block */
        line_mark(t, in->token);
        agal_text_indent(t);
    } else {
        begin_stmt(t, in->token);
    }
    text_put_num(t, t->lang->temp_types[in->type & 3], (unsigned)v);
    text_put(t, " = ");
    def(t, v, in->type == IR_F4 ? SEL_XYZW : sel_one(0), false);
    text_put(t, ";");
    if (hoisted && t->comments && in->token >= 0) {
        text_put(t, " // ");
        put_token(t, (uint32_t)in->token);
        text_put(t, " (hoisted: implicit LOD needs uniform control flow)");
    }
    text_put(t, "\n");
}

static void kil(agal_text *t, const agal_ir_inst *in)
{
    begin_stmt(t, in->token);
    text_put(t, "if (");
    ref(t, in->args[0], sel_one(0), BIND_PRIMARY);
    text_put(t, t->lang->kil_end);
}

/* The final content of an output: already in its variable unless the IR's value
 * lives elsewhere; then what the language does with it. The vertex position is op
 * in the target's clip space (lower_conventions.c), an expression of op's variable
 * that no register holds: the language writes it where the position goes
 * (t->position). */
static void packed_store(agal_text *t, const agal_ir_inst *in)
{
    unsigned n = in->reg_num & 15, w = t->ir->packing.width[n];
    agal_text_indent(t);
    text_put_num(t, AGAL_GLSL_PACK_PREFIX, n);
    text_put(t, " = ");
    ref(t, in->args[0], sel_first(w), BIND_ANY);
    text_put(t, ";\n");
}

static void store(agal_text *t, const agal_ir_inst *in)
{
    if (in->reg_type == IR_REG_PACKED) { /* a slot of packed varyings: no register's */
        comments_before(t, t->prog->ntokens);
        packed_store(t, in);
        return;
    }
    int slot = agal_ir_reg_slot(t->prog->stage, in->reg_type, in->reg_num);
    if (slot < 0) {
        bug(t, "a store to no register");
        return;
    }
    comments_before(t, t->prog->ntokens);
    bool position = slot == IR_SLOT_OUT && t->prog->stage == AGAL_VERTEX;
    if (position) t->position = in->args[0];
    if (!position || home_slot(t, in->args[0]) >= 0) move(t, slot, in->args[0]);
    if (t->lang->stored) t->lang->stored(t, in);
}

/* The phis after an IR_IF: items[first..end) of its parent list. */
typedef struct joins {
    const agal_ir_list *l;
    uint32_t first, end;
} joins;

/* At the end of a branch: make each register joined by a phi hold the phi's
 * operand for this branch (which = 0 then, 1 else). */
static void phi_moves(agal_text *t, const joins *j, unsigned which)
{
    for (uint32_t i = j->first; i < j->end; i++) {
        int slot = home_slot(t, j->l->items[i]);
        if (slot >= 0) move(t, slot, inst(t, j->l->items[i])->args[which]);
    }
}

static bool needs_phi_moves(const agal_text *t, const joins *j, unsigned which)
{
    for (uint32_t i = j->first; i < j->end; i++) {
        int slot = home_slot(t, j->l->items[i]);
        uint32_t a = inst(t, j->l->items[i])->args[which];
        if (slot >= 0 && !(t->held[slot] == a || (t->held[slot] == TEXT_HELD_ZERO && is_zero_value(t, a)))) return true;
    }
    return false;
}

/* The end of an "if (...) {", "} else {" or "}" line: the comment naming its token. */
static void block_line(agal_text *t, const char *text, int32_t tok)
{
    text_put(t, text);
    trailing_comment(t, tok);
    text_put(t, "\n");
}

/* One branch: its statements, the comments of its tokens left unnamed (up to
 * end_tok, its els or eif), then the moves its side of the join needs. */
static void branch(agal_text *t, uint32_t list, const joins *j, unsigned which, int32_t end_tok)
{
    t->indent++;
    walk(t, list);
    if (end_tok >= 0) comments_before(t, (uint32_t)end_tok);
    phi_moves(t, j, which);
    t->indent--;
}

/* After the block: a register holds what both branches left in it, and each
 * joined register its phi. */
static void join_state(agal_text *t, const uint32_t *then_end, const joins *j)
{
    for (int s = 0; s < IR_TRACKED_REGS; s++)
        if (t->held[s] != then_end[s]) t->held[s] = TEXT_HELD_UNKNOWN;
    for (uint32_t k = j->first; k < j->end; k++) {
        int slot = home_slot(t, j->l->items[k]);
        if (slot < 0) continue;
        t->held[slot] = j->l->items[k];
        keep_copy(t, j->l->items[k], slot);
    }
}

/* An IR_IF at items[i] of list l and the phis after it; returns the index past them. */
static uint32_t emit_if(agal_text *t, const agal_ir_list *l, uint32_t i)
{
    const agal_ir_inst *in = inst(t, l->items[i]);
    joins j = {l, i + 1, i + 1};
    /* the phis' slots noted before the branches, whose ends move values to them */
    for (; j.end < l->n && inst(t, l->items[j.end])->op == IR_PHI; j.end++)
        note_home_slot(t, l->items[j.end], inst(t, l->items[j.end]));
    int32_t tok = in->token, els = in->els_token, eif = in->eif_token;

    if (tok >= 0) comments_before(t, (uint32_t)tok);
    line_mark(t, tok);
    agal_text_indent(t);
    text_put(t, "if (");
    ref(t, in->args[0], sel_one(0), BIND_ANY);
    block_line(t, ") {", tok);

    uint32_t before[IR_TRACKED_REGS], then_end[IR_TRACKED_REGS];
    memcpy(before, t->held, sizeof before);
    uint32_t then_list = in->then_list, else_list = in->else_list;
    branch(t, then_list, &j, 0, els >= 0 ? els : eif);
    memcpy(then_end, t->held, sizeof then_end);
    memcpy(t->held, before, sizeof before);
    if (els >= 0 || t->ir->lists[else_list].n || needs_phi_moves(t, &j, 1)) {
        line_mark(t, els);
        agal_text_indent(t);
        block_line(t, "} else {", els);
        branch(t, else_list, &j, 1, eif);
    }
    line_mark(t, eif);
    agal_text_indent(t);
    block_line(t, "}", eif);
    join_state(t, then_end, &j);
    return j.end;
}

/* Is v (items[i] of list l: an intermediate, neither trivial nor homed) printed
 * inside its user's statement? When it is used once, by an instruction of the same
 * AGAL token in the same list (so textures and derivatives stay where AGAL computes
 * them); then noted, for that use. A token's instructions stand together in a list
 * but for samples the hoisting moved in front of an if (IR_HOISTED), so the search
 * ends at the first instruction of another token that was not moved: a few
 * instructions, not a scan of every operand of the program first. (nuses is exact
 * after the passes: the IR checker's AGAL_IR_CHECK_USES.) */
static bool used_inline(agal_text *t, const agal_ir_list *l, uint32_t i, const agal_ir_inst *in)
{
    if (in->nuses != 1) return false;
    uint32_t v = l->items[i];
    for (uint32_t j = i + 1; j < l->n; j++) {
        const agal_ir_inst *user = inst(t, l->items[j]);
        if (user->token != in->token) {
            if (user->flags & IR_HOISTED) continue;
            return false;
        }
        for (unsigned a = 0; a < user->nargs; a++)
            if (user->args[a] == v) {
                t->flags[v] |= TEXT_INLINE;
                return true;
            }
    }
    return false;
}

/* The first of items[i..) that is a statement of its own: past the loads and
 * selections, most of a list, which are printed at their uses. A loop of its own
 * that writes nothing, so that the list stays in registers (a statement's text,
 * stored a byte at a time, may alias it). */
static uint32_t next_statement(const agal_text *t, const agal_ir_list *l, uint32_t i)
{
    const agal_ir_inst *insts = t->ir->insts;
    const uint32_t *items = l->items;
    uint32_t n = l->n;
    while (i < n && trivial_below[insts[items[i]].op] == UINT16_MAX) i++;
    return i;
}

static void walk(agal_text *t, uint32_t list)
{
    const agal_ir_list *l = &t->ir->lists[list];
    for (uint32_t i = next_statement(t, l, 0); i < l->n && t->err == AGAL_OK; i = next_statement(t, l, i)) {
        uint32_t v = l->items[i];
        const agal_ir_inst *in = inst(t, v);
        if (in->op == IR_IF) {
            i = emit_if(t, l, i);
            continue;
        }
        int slot = note_home_slot(t, v, in);
        if (in->op == IR_KIL) kil(t, in);
        else if (in->op == IR_STORE) store(t, in);
        else if (in->op == IR_PHI) { /* joined by emit_if */ } else if (slot >= 0)
            assign(t, v, slot);
        else if (!(t->flags[v] & TEXT_INLINE) && !is_trivial(in) && !used_inline(t, l, i, in)) temp(t, v);
        i++;
    }
}

static void reset_walk(agal_text *t)
{
    memset(t->held, TEXT_HELD_ZERO & 0xff, sizeof t->held);
    t->next_tok = 0;
    t->indent = 1;
    t->depth = 0;
}

/* Room left in front of main's statements for the declarations written after them
 * (agal_text_put_front): the corpus's run to 850 bytes; more takes a move of the
 * statements. */
enum { TEXT_FRONT_ROOM = 1024 };

void agal_text_body(agal_text *t, agal_text_usage *u)
{
    if (text_reserve(t, TEXT_FRONT_ROOM)) t->out.n += TEXT_FRONT_ROOM;
    t->body = t->out.n;
    reset_walk(t);
    walk(t, 0);
    if (t->copies_found && t->err == AGAL_OK && !t->out.err) {
        t->out.n = t->body; /* its uses of the copied values named their registers */
        t->copies_known = true;
        reset_walk(t);
        walk(t, 0);
    }
    comments_before(t, t->prog->ntokens);
    u->temps = t->written;
    u->pow = t->pow;
}

/* [start, keep) of the text gives way to the text from mid on, which moves in front
 * of [keep, mid). */
static void move_tail(agal_text *t, size_t start, size_t keep, size_t mid)
{
    agal_strbuf *b = &t->out;
    char stack[512];
    size_t n = b->n - mid;
    char *tail = n <= sizeof stack ? stack : agal_alloc(t->ctx, n);
    if (!tail) {
        agal_fail(&b->err, AGAL_ERR_NOMEM);
        return;
    }
    memcpy(tail, b->p + mid, n);
    memmove(b->p + start + n, b->p + keep, mid - keep);
    memcpy(b->p + start, tail, n);
    b->n = start + n + (mid - keep);
}

void agal_text_put_front(agal_text *t, size_t body_end)
{
    agal_strbuf *b = &t->out;
    size_t n = b->n - body_end, room = t->body < TEXT_FRONT_ROOM ? t->body : TEXT_FRONT_ROOM;
    if (b->err || !b->p) return;
    if (n <= room) { /* into the room: one copy of its own length, the statements stay */
        memcpy(b->p + t->body - n, b->p + body_end, n);
        b->n = body_end;
        t->start = t->body - n;
        return;
    }
    move_tail(t, t->body - room, t->body, body_end);
    t->start = t->body - room;
}

/* ---- planning --------------------------------------------------------------- */

/* What the program uses: the IR's info record (info.c), as every back end reads it. */
static void uses_of(const agal_ir *ir, agal_text_usage *u)
{
    const agal_ir_info *info = &ir->info;
    u->inputs = info->inputs;
    u->iid = info->reads_iid;
    u->constants = info->reads_constants;
    u->indirect = info->reads_indirect;
    u->lod = info->ted;
    u->samplers = info->samplers;
    u->sampler = info->sampler;
    u->yflip = info->yflip; /* the render-to-texture flip: op (lower_conventions.c) or a ddy */
    u->derivatives = info->ddx || info->ddy;
    u->op = info->writes_op;
    u->outputs = info->outputs;
    u->varyings = info->varyings_written;
    u->packed = info->packed;
    u->fd = info->writes_depth;
}

/* name in 8 bytes, when it fits them (else n 0). Copied a byte at a time as far as
 * its NUL or a ninth byte: the names are two or three letters, which a strlen and a
 * memcpy call each cost more than. */
static void spell_name(agal_reg_text *r, const char *name)
{
    memset(r, 0, sizeof *r);
    size_t n = 0;
    for (; n < sizeof r->s && name[n]; n++) r->s[n] = name[n];
    if (name[n]) { /* longer than 8 */
        memset(r->s, 0, sizeof r->s);
        return;
    }
    r->n = (uint8_t)n;
}

agal_status agal_text_plan(agal_text *t, agal_text_usage *u)
{
    spell_name(&t->spelled.constants, t->names->constants[t->prog->stage]);
    spell_name(&t->spelled.attribute, t->names->attribute);
    spell_name(&t->spelled.varying, t->names->varying);
    spell_name(&t->spelled.sampler, t->names->sampler);
    uint32_t n = t->ir->ninsts;
    memset(u, 0, sizeof *u);
    /* The two tables in one block: no slot (-1) and no flag until the walk notes
     * one. */
    t->slots = agal_alloc(t->ctx, 2 * (size_t)n);
    if (!t->slots) return AGAL_ERR_NOMEM;
    t->flags = (uint8_t *)t->slots + n;
    memset(t->slots, 0xff, n);
    memset(t->flags, 0, n);
    uses_of(t->ir, u);
    return t->err;
}
