/* ir_read.c: the IR back from the printer's text (ir_print.c), so a pass can be
 * tested on IR written by hand (tests/passes/). It reads exactly what the printer
 * writes, one instruction a line:
 *
 *   ; fragment agal2, 5 tokens             the program: stage, version, token count
 *   ; clip gl, window y up                 the target's (lower_conventions.c reads it)
 *   ; unread v1 v3                         lower_unread_varyings' input (test files only)
 *   ; pack v0.xz->p0.xy v3.w->p0.z zero v3.x   lower_pack_varyings' table
 *   %3 = const (1, 0, 0, 0)
 *   %5 = alu add %1, %4 -> vt0  ; token 2
 *   if %7 {  ...  } else {  ...  }
 *   store op.xyzw %9
 *
 * A value's number is its instruction's index; numbers the text does not use are
 * removed instructions (IR_NOP). What the printer leaves out is left at its default:
 * a sample's wrap, filter, mipmap, format and special flags, a relative read's index
 * register (names only), an if's els and eif tokens. After reading, uses are counted
 * and the IR checker runs: text that is no valid IR is refused with its reason
 * (AGAL_ERR_INVALID, as for text that does not read: the fault is the text's). */
#include "ir.h"

#include <math.h>

/* Characters as the printer writes them, in any locale. */
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_name(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

typedef struct reader {
    agal_ir *ir;
    agal_program *prog;
    const char *p, *end; /* the current line's rest */
    unsigned line;
    agal_status err;   /* sticky (internal.h) */
    uint32_t stack[8]; /* open lists: [0] the body, then each if's then or else list */
    uint32_t ifs[8];   /* the IR_IF owning stack[k] */
    unsigned depth;
} reader;

static bool fail(reader *r, const char *what)
{
    if (r->err == AGAL_OK) {
        agal_status st = agal_error(r->ir->ctx, 0, -1, -1, NULL, "IR text, line %u: %s", r->line, what);
        agal_fail(&r->err, st == AGAL_ERR_NOMEM ? st : AGAL_ERR_INVALID);
    }
    return false;
}

/* ---- lexing one line ------------------------------------------------------------- */

static void spaces(reader *r)
{
    while (r->p < r->end && *r->p == ' ') r->p++;
}

static bool lit(reader *r, const char *s)
{
    spaces(r);
    size_t n = strlen(s);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, s, n)) return false;
    r->p += n;
    return true;
}

static bool need(reader *r, const char *s)
{
    return lit(r, s) || fail(r, s[0] == ',' ? "a ',' expected" : "unexpected text");
}

static bool word(reader *r, char *out, size_t size)
{
    spaces(r);
    size_t n = 0;
    while (r->p < r->end && is_name(*r->p) && n + 1 < size) out[n++] = *r->p++;
    out[n] = 0;
    return n > 0 || fail(r, "a name expected");
}

static bool number(reader *r, unsigned long *out)
{
    spaces(r);
    if (r->p >= r->end || !is_digit(*r->p)) return fail(r, "a number expected");
    for (*out = 0; r->p < r->end && is_digit(*r->p); r->p++)
        if ((*out = *out * 10 + (unsigned long)(*r->p - '0')) > 0xffffff) return fail(r, "number out of range");
    return true;
}

/* %N: a value; every one read must exist by the end (the checker finds the rest). */
static bool value(reader *r, uint32_t *out)
{
    unsigned long v;
    if (!need(r, "%") || !number(r, &v)) return false;
    if (v == 0 || v >= r->ir->ninsts) return fail(r, "a value number out of range");
    *out = (uint32_t)v;
    return true;
}

static bool components(reader *r, char *out)
{
    size_t n = 0;
    while (r->p < r->end && strchr("xyzw", *r->p) && *r->p && n < 4) out[n++] = *r->p++;
    out[n] = 0;
    return n > 0 || fail(r, "components expected");
}

static uint8_t mask_of(const char *m)
{
    uint8_t mask = 0;
    for (; *m; m++) mask |= (uint8_t)(1u << (strchr("xyzw", *m) - "xyzw"));
    return mask;
}

/* A register as agal_format_reg names it ("vc5", "op", "fd", "iid"). */
static bool reg(reader *r, uint8_t *type, uint16_t *num)
{
    char name[16];
    if (!word(r, name, sizeof name)) return false;
    if (name[0] == 'p' && is_digit(name[1]) && !name[2]) { /* a packed slot, p0 .. p9 */
        *type = IR_REG_PACKED;
        *num = (uint16_t)(name[1] - '0');
        return true;
    }
    for (unsigned t = 0; t < AGAL_REG_TYPES; t++) {
        const char *base = agal_reg_name(r->prog->stage, (agal_regtype)t);
        size_t n = base ? strlen(base) : 0;
        if (!n || strncmp(name, base, n)) continue;
        const char *digits = name + n;
        unsigned long v = 0;
        for (; is_digit(*digits) && v <= 0xffff; digits++) v = v * 10 + (unsigned long)(*digits - '0');
        if (*digits || v > 0xffff) continue;
        *type = (uint8_t)t;
        *num = (uint16_t)v;
        return true;
    }
    return fail(r, "not a register");
}

/* ---- instructions ------------------------------------------------------------------ */

static agal_ir_inst *define(reader *r, uint32_t v, agal_ir_op op)
{
    agal_ir_inst *in = &r->ir->insts[v];
    if (in->op != IR_NOP) return fail(r, "a value defined twice"), NULL;
    in->op = (uint8_t)op;
    return in;
}

static bool operands(reader *r, agal_ir_inst *in, unsigned at_least)
{
    do {
        if (in->nargs == IR_MAX_ARGS) return fail(r, "too many operands");
        if (!value(r, &in->args[in->nargs++])) return false;
    } while (lit(r, ","));
    return in->nargs >= at_least || fail(r, "too few operands");
}

static bool opcode(reader *r, agal_ir_inst *in)
{
    char name[8];
    if (!word(r, name, sizeof name)) return false;
    const agal_opinfo *info = agal_opinfo_find(name, strlen(name));
    if (!info) return fail(r, "not an AGAL opcode");
    in->aop = info->code;
    return true;
}

static bool swizzle(reader *r, agal_ir_inst *in)
{
    char m[5];
    if (!operands(r, in, 1) || !need(r, ".") || !components(r, m)) return false;
    if (strlen(m) != 4) return fail(r, "a swizzle has four components");
    in->swizzle = 0;
    for (unsigned c = 0; c < 4; c++) in->swizzle |= (uint8_t)((strchr("xyzw", m[c]) - "xyzw") << (2 * c));
    return true;
}

static bool sample(reader *r, agal_ir_inst *in)
{
    unsigned long num, bias;
    char dim[8];
    bool negative;
    if (!opcode(r, in) || !need(r, "fs") || !number(r, &num) || !need(r, "<") || !word(r, dim, sizeof dim) ||
        !need(r, ",bias"))
        return false;
    negative = lit(r, "-");
    if (!number(r, &bias) || !need(r, ">") || !operands(r, in, 1)) return false;
    in->smp.num = (uint16_t)num;
    in->smp.dim = !strcmp(dim, "cube") ? AGAL_DIM_CUBE : AGAL_DIM_2D;
    in->smp.bias = (int8_t)(negative ? -(long)bias : (long)bias);
    return true;
}

static bool indirect(reader *r, agal_ir_inst *in)
{
    char name[4];
    unsigned long off, range;
    if (!word(r, name, sizeof name) || !need(r, "[") || !operands(r, in, 1) || !need(r, "+") || !number(r, &off) ||
        !need(r, "]") || !need(r, "(range") || !number(r, &range) || !need(r, ")"))
        return false;
    in->reg_type = AGAL_REG_CONSTANT;
    in->reg_num = (uint16_t)off;
    in->range = (uint16_t)range;
    return true;
}

static bool constant(reader *r, agal_ir_inst *in)
{
    if (!need(r, "(")) return false;
    for (unsigned c = 0; c < 4; c++) {
        spaces(r);
        size_t n = agal_decimal_prefix(r->p, (size_t)(r->end - r->p));
        bool inf = !n && (lit(r, "inf") || lit(r, "-inf")), nan = !n && !inf && (lit(r, "nan") || lit(r, "-nan"));
        if (!n && !inf && !nan) return fail(r, "a number expected");
        in->imm[c] = inf ? (r->p[-4] == '-' ? -INFINITY : INFINITY) : nan ? NAN : (float)agal_decimal_value(r->p, n);
        r->p += n;
        if (!need(r, c < 3 ? "," : ")")) return false;
    }
    in->type = IR_F4;
    return true;
}

/* What follows "%N = OP": the operands and fields of each kind. */
static bool body(reader *r, agal_ir_inst *in)
{
    char m[5];
    switch (in->op) {
    case IR_CONST: return constant(r, in);
    case IR_INPUT:
    case IR_UNIFORM: return reg(r, &in->reg_type, &in->reg_num);
    case IR_UNIFORM_INDIRECT: return indirect(r, in);
    case IR_SWIZZLE: return swizzle(r, in);
    case IR_EXTRACT:
        if (!operands(r, in, 1) || !need(r, ".") || !components(r, m)) return false;
        in->comp = (uint8_t)(strchr("xyzw", m[0]) - "xyzw");
        return true;
    case IR_MERGE:
        if (!value(r, &in->args[0]) || !need(r, ",") || !value(r, &in->args[1]) || !need(r, ".") || !components(r, m))
            return false;
        in->nargs = 2;
        in->mask = mask_of(m);
        return true;
    case IR_TEX: return sample(r, in);
    case IR_YFLIP: return true; /* a system value: no operands */
    case IR_ALU:
    case IR_MATRIX:
    case IR_CMP: return opcode(r, in) && operands(r, in, 1);
    default: return operands(r, in, 1);
    }
}

/* "-> reg" and "; token T" after an instruction. */
static bool tail(reader *r, agal_ir_inst *in)
{
    if (lit(r, "->") && !reg(r, &in->reg_type, &in->reg_num)) return false;
    in->token = -1;
    unsigned long t;
    if (lit(r, "; token")) {
        if (!number(r, &t)) return false;
        if (t == 0 || t > IR_MAX_TOKENS) return fail(r, "a token number out of range");
        in->token = (int16_t)(t - 1);
    }
    spaces(r);
    return r->p == r->end || fail(r, "unexpected text at the end of the line");
}

static unsigned op_named(const char *name)
{
    for (unsigned op = IR_CONST; op < IR_OP_COUNT; op++)
        if (!strcmp(agal_ir_op_name(op), name)) return op;
    return IR_NOP;
}

static agal_ir_type result_type(unsigned op)
{
    static const uint8_t types[IR_OP_COUNT] = {
#define AGAL_IR_OP_TYPE(id, name, result, ...) result,
        AGAL_IR_OPS(AGAL_IR_OP_TYPE)
#undef AGAL_IR_OP_TYPE
    };
    return (agal_ir_type)types[op];
}

static bool append(reader *r, uint32_t v)
{
    if (r->ir->insts[v].op == IR_CONST) return true; /* module-level: in no list */
    return agal_ir_append(r->ir, r->stack[r->depth], v) || fail(r, "out of memory");
}

/* "%N = op ...". */
static bool definition(reader *r)
{
    uint32_t v;
    char name[24];
    if (!value(r, &v) || !need(r, "=") || !word(r, name, sizeof name)) return false;
    unsigned op = op_named(name);
    if (op == IR_NOP || result_type(op) == IR_VOID) return fail(r, "not an IR operation with a value");
    agal_ir_inst *in = define(r, v, (agal_ir_op)op);
    if (!in) return false;
    in->type = (uint8_t)result_type(op);
    in->reg_type = IR_NO_REG;
    return body(r, in) && tail(r, in) && append(r, v);
}

/* kil, store: instructions without a value take the next free number. */
static uint32_t fresh(reader *r)
{
    uint32_t v = agal_ir_new(r->ir, IR_NOP, IR_VOID, -1);
    if (!v) fail(r, "out of memory");
    return v;
}

static bool statement(reader *r, unsigned op)
{
    uint32_t v = fresh(r);
    if (!v) return false;
    agal_ir_inst *in = &r->ir->insts[v];
    in->op = (uint8_t)op;
    in->reg_type = IR_NO_REG;
    if (op == IR_STORE) {
        char m[5];
        if (!reg(r, &in->reg_type, &in->reg_num) || !need(r, ".") || !components(r, m) || !operands(r, in, 1))
            return false;
        in->mask = mask_of(m);
    } else if (!operands(r, in, 1)) {
        return false;
    }
    return tail(r, in) && append(r, v);
}

static bool open_if(reader *r)
{
    if (r->depth + 2 >= AGAL_COUNTOF(r->stack)) return fail(r, "blocks nested too deep");
    uint32_t v = fresh(r);
    if (!v) return false;
    agal_ir_inst *in = &r->ir->insts[v];
    in->op = IR_IF;
    in->reg_type = IR_NO_REG;
    in->nargs = 1;
    in->els_token = -1, in->eif_token = -1, in->token = -1;
    uint32_t then_list = agal_ir_new_list(r->ir), else_list = agal_ir_new_list(r->ir);
    if (then_list == UINT32_MAX || else_list == UINT32_MAX) return fail(r, "out of memory");
    in = &r->ir->insts[v];
    in->then_list = then_list, in->else_list = else_list;
    if (!value(r, &in->args[0]) || !need(r, "{") || !append(r, v)) return false;
    r->ifs[++r->depth] = v;
    r->stack[r->depth] = then_list;
    return true;
}

/* "} else {" or "}". */
static bool close_block(reader *r)
{
    if (r->depth == 0) return fail(r, "a '}' without its if");
    const agal_ir_inst *in = &r->ir->insts[r->ifs[r->depth]];
    if (lit(r, "else")) {
        if (r->stack[r->depth] != in->then_list || !need(r, "{")) return fail(r, "a second else");
        r->stack[r->depth] = in->else_list;
        return true;
    }
    r->depth--;
    return true;
}

/* One "v<n>.<carried>->p<s>.<lanes>" of a pack line: the lanes as many as carried,
 * in a row; a slot's width is where its last lanes end. */
static bool packed_varying(reader *r, agal_ir_packing *p)
{
    uint8_t type, slot_type;
    uint16_t n, s;
    char from[5], to[5];
    if (!reg(r, &type, &n) || !need(r, ".") || !components(r, from) || !need(r, "->")) return false;
    if (!reg(r, &slot_type, &s) || !need(r, ".") || !components(r, to)) return false;
    if (type != AGAL_REG_VARYING || n >= 16 || slot_type != IR_REG_PACKED) return fail(r, "not v<n>->p<n>");
    uint8_t lanes = mask_of(to);
    unsigned first = (unsigned)(strchr("xyzw", to[0]) - "xyzw");
    if (strlen(from) != strlen(to) || lanes != (((1u << strlen(to)) - 1u) << first))
        return fail(r, "a varying's lanes are as many as its components, in a row");
    p->slot[n] = (uint8_t)s, p->offset[n] = (uint8_t)first, p->carried[n] = mask_of(from);
    if (s + 1u > p->nslots) p->nslots = (uint8_t)(s + 1u);
    if (first + strlen(to) > p->width[s]) p->width[s] = (uint8_t)(first + strlen(to));
    return true;
}

static bool pack_line(reader *r)
{
    agal_ir_packing *p = &r->ir->packing;
    p->on = true;
    memset(p->slot, IR_NO_SLOT, sizeof p->slot);
    while (spaces(r), r->p < r->end) {
        uint8_t type;
        uint16_t s;
        if (lit(r, "zero")) {
            char comps[5];
            if (!reg(r, &type, &s) || !need(r, ".") || !components(r, comps)) return false;
            if (type != AGAL_REG_VARYING || s >= 16) return fail(r, "not a varying");
            p->zeroed[s] = mask_of(comps);
        } else if (lit(r, "centroid")) {
            if (!reg(r, &type, &s)) return false;
            if (type != IR_REG_PACKED) return fail(r, "not a slot");
            p->centroid |= (uint16_t)(1u << s);
        } else if (!packed_varying(r, p)) return false;
    }
    return true;
}

/* A comment line: the header, the target's options, unread varyings, the packing. */
static bool comment(reader *r)
{
    char w[24];
    unsigned long n;
    bool vertex = lit(r, "vertex");
    if (vertex || lit(r, "fragment")) {
        r->prog->stage = vertex ? AGAL_VERTEX : AGAL_FRAGMENT;
        if (!need(r, "agal") || !number(r, &n) || !need(r, ",")) return false;
        r->prog->version = (uint32_t)n;
        if (!number(r, &n) || !need(r, "tokens")) return false;
        r->prog->ntokens = (uint32_t)n;
        r->prog->profile = (agal_profile)(r->prog->version <= 3 ? r->prog->version : 3);
        return true;
    }
    if (lit(r, "clip")) {
        if (!word(r, w, sizeof w)) return false;
        for (unsigned c = 0; c < IR_CLIP_COUNT; c++)
            if (!strcmp(w, agal_ir_clip_name(c))) r->ir->clip = (agal_clip)c;
        if (!need(r, ", window y")) return false;
        r->ir->window_y_up = lit(r, "up");
        return r->ir->window_y_up || need(r, "down");
    }
    if (lit(r, "pack")) return pack_line(r);
    if (lit(r, "unread")) {
        while (spaces(r), r->p < r->end) {
            uint8_t type;
            uint16_t num;
            if (!reg(r, &type, &num)) return false;
            if (type != AGAL_REG_VARYING || num >= 16) return fail(r, "not a varying");
            r->ir->unread_varyings |= (uint16_t)(1u << num);
        }
        return true;
    }
    return true; /* any other comment */
}

static bool line(reader *r)
{
    spaces(r);
    if (r->p == r->end) return true;
    if (lit(r, ";")) return comment(r);
    if (*r->p == '%') return definition(r);
    if (lit(r, "if")) return open_if(r);
    if (lit(r, "}")) return close_block(r);
    if (lit(r, "store")) return statement(r, IR_STORE);
    if (lit(r, "kil")) return statement(r, IR_KIL);
    return fail(r, "not an instruction");
}

/* The highest %N of the text: the instructions to make room for (at most the most
 * instructions the builder makes of the largest program, so a typo cannot ask for
 * gigabytes). */
enum { READ_MAX_VALUES = 1 << 20 };
static uint32_t highest_value(const char *text, size_t len)
{
    unsigned long most = 0;
    for (size_t i = 0; i + 1 < len; i++) {
        if (text[i] != '%' || !is_digit(text[i + 1])) continue;
        unsigned long v = 0;
        for (size_t j = i + 1; j < len && is_digit(text[j]) && v < READ_MAX_VALUES; j++)
            v = v * 10 + (unsigned long)(text[j] - '0');
        if (v > most) most = v;
    }
    return most < READ_MAX_VALUES ? (uint32_t)most : READ_MAX_VALUES;
}

static agal_status start(agal_context *ctx, const char *text, size_t len, reader *r)
{
    agal_ir *ir = agal_zalloc(ctx, sizeof *ir);
    agal_program *prog = agal_zalloc(ctx, sizeof *prog);
    if (!ir || !prog) return AGAL_ERR_NOMEM;
    ir->ctx = ctx;
    ir->prog = prog;
    prog->version = 1;
    prog->profile = AGAL_PROFILE_BASELINE;
    r->ir = ir, r->prog = prog;
    /* Every %N is the instruction of that index (0 is none); those the text never
     * defines stay removed ones. */
    uint32_t n = highest_value(text, len) + 1;
    for (uint32_t v = 0; v < n; v++) agal_ir_new(ir, IR_NOP, IR_VOID, -1);
    if (ir->ninsts != n) return AGAL_ERR_NOMEM;
    return agal_ir_new_list(ir) == 0 ? AGAL_OK : AGAL_ERR_NOMEM;
}

/* The builder's fact: a sample inside a block (lower_hoist_tex.c reads it). */
static void samples_in_blocks(agal_ir *ir)
{
    for (uint32_t l = 1; l < ir->nlists; l++)
        for (uint32_t i = 0; i < ir->lists[l].n; i++)
            ir->samples_in_blocks |= ir->insts[ir->lists[l].items[i]].op == IR_TEX;
}

agal_status agal_ir_read(agal_context *ctx, const char *text, size_t len, agal_ir **out)
{
    if (!ctx || !text || !out) return AGAL_ERR_ARG;
    reader r = {.err = AGAL_OK};
    agal_status st = start(ctx, text, len, &r);
    if (st != AGAL_OK) return st;
    for (const char *p = text, *end = text + len; p < end && r.err == AGAL_OK;) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        r.p = p, r.end = eol ? eol : end;
        r.line++;
        line(&r);
        p = eol ? eol + 1 : end;
    }
    if (r.err == AGAL_OK && r.depth) fail(&r, "an if without its '}'");
    if (r.err != AGAL_OK) return r.err;
    samples_in_blocks(r.ir);
    r.ir->takes_ddy = agal_ir_find_ddy(r.ir);
    r.ir->first_late_user = agal_ir_find_late_user(r.ir);
    r.ir->first_copy = agal_ir_find_copy(r.ir);
    r.ir->loads_unique = agal_ir_find_loads_unique(r.ir);
    agal_ir_count_uses(r.ir);
    r.ir->live_only = !agal_ir_find_dead(r.ir, NULL);
    agal_ir_gather_info(r.ir, &r.ir->info);
    st = agal_ir_check(r.ir, AGAL_IR_CHECK_USES | AGAL_IR_CHECK_INPUT, "reading the IR text");
    if (st == AGAL_OK) *out = r.ir;
    return st;
}
