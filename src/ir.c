/* ir.c: validated AGAL tokens -> SSA IR (see ir.h for the IR's shape).
 *
 * One forward walk over the tokens. Registers that are written (temporaries and
 * outputs) live in the builder's table as "current SSA value per register"; every
 * source read becomes an explicit load or the current value, then an explicit
 * swizzle; every write becomes one new value (a merge for partial masks). Blocks are
 * handed to the structurizer, which saves and joins the register table. */
#include "ir.h"

#include <math.h>

uint32_t agal_ir_new(agal_ir *ir, agal_ir_op op, agal_ir_type type, int32_t token)
{
    if (ir->ninsts == ir->inst_cap) {
        uint32_t cap = ir->inst_cap ? ir->inst_cap * 2 : 64;
        agal_ir_inst *n = agal_grow(ir->ctx, ir->insts, ir->ninsts, cap, sizeof *n);
        if (!n) return 0;
        ir->insts = n;
        ir->inst_cap = cap;
    }
    uint32_t v = ir->ninsts++;
    agal_ir_inst *in = &ir->insts[v];
    memset(in, 0, sizeof *in);
    in->op = (uint8_t)op;
    in->type = (uint8_t)type;
    in->reg_type = IR_NO_REG;
    in->token = (int16_t)token;
    return v;
}

uint32_t agal_ir_new_list(agal_ir *ir)
{
    if (ir->nlists == ir->list_cap) {
        uint32_t cap = ir->list_cap ? ir->list_cap * 2 : 8;
        agal_ir_list *n = agal_grow(ir->ctx, ir->lists, ir->nlists, cap, sizeof *n);
        if (!n) return UINT32_MAX;
        ir->lists = n;
        ir->list_cap = cap;
    }
    ir->lists[ir->nlists] = (agal_ir_list){0};
    return ir->nlists++;
}

bool agal_ir_append(agal_ir *ir, uint32_t l, uint32_t v)
{
    agal_ir_list *list = &ir->lists[l];
    if (list->n == list->cap) {
        uint32_t cap = list->cap ? list->cap * 2 : 16;
        uint32_t *n = agal_grow(ir->ctx, list->items, list->n, cap, sizeof *n);
        if (!n) return false;
        list->items = n;
        list->cap = cap;
    }
    list->items[list->n++] = v;
    return true;
}

uint32_t agal_ir_const(agal_ir *ir, float x, float y, float z, float w)
{
    const float want[4] = {x, y, z, w};
    for (uint32_t v = 1; v < ir->ninsts; v++)
        if (ir->insts[v].op == IR_CONST && memcmp(ir->insts[v].imm, want, sizeof want) == 0) return v;
    uint32_t v = agal_ir_new(ir, IR_CONST, IR_F4, -1);
    if (v) memcpy(ir->insts[v].imm, want, sizeof want);
    return v;
}

/* ---- register slots ------------------------------------------------------- */

enum { SLOT_TEMP = 0, SLOT_OUT = 26, SLOT_VARY = 30, SLOT_DEPTH = 40 };

int agal_ir_reg_slot(agal_stage stage, unsigned type, unsigned num)
{
    switch (type) {
    case AGAL_REG_TEMP: return num < 26 ? SLOT_TEMP + (int)num : -1;
    case AGAL_REG_OUTPUT: return num < 4 ? SLOT_OUT + (int)num : -1;
    case AGAL_REG_VARYING: return stage == AGAL_VERTEX && num < 10 ? SLOT_VARY + (int)num : -1;
    case AGAL_REG_DEPTH: return stage == AGAL_FRAGMENT && num == 0 ? SLOT_DEPTH : -1;
    default: return -1;
    }
}

void agal_ir_slot_reg(int slot, unsigned *type, unsigned *num)
{
    if (slot >= SLOT_DEPTH) *type = AGAL_REG_DEPTH, *num = 0;
    else if (slot >= SLOT_VARY) *type = AGAL_REG_VARYING, *num = (unsigned)(slot - SLOT_VARY);
    else if (slot >= SLOT_OUT) *type = AGAL_REG_OUTPUT, *num = (unsigned)(slot - SLOT_OUT);
    else *type = AGAL_REG_TEMP, *num = (unsigned)slot;
}

/* ---- building blocks ------------------------------------------------------ */

/* Builder-local failure handling: every helper returns 0 on failure and the caller
 * propagates it; the cause is recorded in b->err (out of memory or invalid). */
typedef struct build {
    agal_ir_builder b;
    agal_status err;
    int token;
} build;

static uint32_t fail(build *bd, agal_status st, const char *msg)
{
    if (bd->err == AGAL_OK) {
        bd->err = st;
        if (st == AGAL_ERR_INVALID)
            agal_error(bd->b.ir->ctx, 0, bd->token, 7 + 24L * bd->token, NULL, "%s", msg);
    }
    return 0;
}

static uint32_t nomem(build *bd) { return fail(bd, AGAL_ERR_NOMEM, NULL); }

/* Appends a new instruction to the current list. */
static uint32_t emit(build *bd, agal_ir_op op, agal_ir_type type, unsigned nargs, const uint32_t *args)
{
    agal_ir *ir = bd->b.ir;
    for (unsigned i = 0; i < nargs; i++)
        if (!args[i]) return 0; /* an operand failed: already recorded */
    uint32_t v = agal_ir_new(ir, op, type, bd->token);
    if (!v || !agal_ir_append(ir, bd->b.list, v)) return nomem(bd);
    agal_ir_inst *in = &ir->insts[v];
    in->nargs = (uint8_t)nargs;
    if (nargs) memcpy(in->args, args, nargs * sizeof *args);
    return v;
}

static uint32_t zero(build *bd)
{
    if (!bd->b.zero) bd->b.zero = agal_ir_const(bd->b.ir, 0, 0, 0, 0);
    return bd->b.zero ? bd->b.zero : nomem(bd);
}

static uint32_t load(build *bd, agal_ir_op op, unsigned type, unsigned num)
{
    uint32_t v = emit(bd, op, IR_F4, 0, NULL);
    if (!v) return 0;
    bd->b.ir->insts[v].reg_type = (uint8_t)type;
    bd->b.ir->insts[v].reg_num = (uint16_t)num;
    return v;
}

/* The whole F4 content of a register, as read (no swizzle). */
static uint32_t read_reg(build *bd, unsigned type, unsigned num)
{
    const agal_program *p = bd->b.ir->prog;
    if (num >= agal_reg_count(p->profile, p->stage, (agal_regtype)(type < AGAL_REG_TYPES ? type : 0)) &&
        !(type == AGAL_REG_IID && p->stage == AGAL_VERTEX && num == 0))
        return fail(bd, AGAL_ERR_INVALID, "register index out of range");
    switch (type) {
    case AGAL_REG_TEMP: {
        int s = agal_ir_reg_slot(p->stage, type, num);
        if (s < 0) return fail(bd, AGAL_ERR_INVALID, "temporary out of range");
        return bd->b.regs.val[s] ? bd->b.regs.val[s] : zero(bd); /* lenient: unwritten reads 0 */
    }
    case AGAL_REG_CONSTANT: return load(bd, IR_UNIFORM, type, num);
    case AGAL_REG_ATTRIBUTE:
        if (p->stage != AGAL_VERTEX) break;
        return load(bd, IR_INPUT, type, num);
    case AGAL_REG_VARYING:
        if (p->stage != AGAL_FRAGMENT) break;
        return load(bd, IR_INPUT, type, num);
    case AGAL_REG_IID:
        if (p->stage != AGAL_VERTEX) break;
        return load(bd, IR_INPUT, type, num);
    default: break;
    }
    return fail(bd, AGAL_ERR_INVALID, "register type cannot be read here");
}

static uint32_t extract(build *bd, uint32_t v, unsigned comp)
{
    uint32_t e = emit(bd, IR_EXTRACT, IR_F1, 1, &v);
    if (e) bd->b.ir->insts[e].comp = (uint8_t)comp;
    return e;
}

/* vc[index.c + offset + row], bounds-checked at run time. */
static uint32_t read_indirect(build *bd, const agal_source *s, unsigned row)
{
    const agal_program *p = bd->b.ir->prog;
    if (s->type != AGAL_REG_CONSTANT) return fail(bd, AGAL_ERR_INVALID, "indirect read of a non-constant");
    /* iid is a single register: its number as an index is whatever Adobe's
     * assembler put there (the offset in `vc[iid.x+5]`), so it is not used. */
    unsigned index_num = s->index_type == AGAL_REG_IID ? 0 : s->index_num;
    uint32_t idx = extract(bd, read_reg(bd, s->index_type, index_num), s->index_comp);
    uint32_t v = emit(bd, IR_UNIFORM_INDIRECT, IR_F4, 1, &idx);
    if (!v) return 0;
    agal_ir_inst *in = &bd->b.ir->insts[v];
    in->reg_type = AGAL_REG_CONSTANT;
    in->reg_num = (uint16_t)(s->num + row);
    in->range = (uint16_t)agal_reg_count(p->profile, p->stage, AGAL_REG_CONSTANT);
    in->index_type = s->index_type;
    in->index_num = s->index_num;
    in->index_comp = s->index_comp;
    return v;
}

static uint32_t read_row(build *bd, const agal_source *s, unsigned row)
{
    return s->indirect ? read_indirect(bd, s, row) : read_reg(bd, s->type, s->num + row);
}

static uint32_t swizzle(build *bd, uint32_t v, uint8_t sw)
{
    if (!v || sw == AGAL_SWIZZLE_IDENTITY) return v; /* nothing to fold away later */
    uint32_t r = emit(bd, IR_SWIZZLE, IR_F4, 1, &v);
    if (r) bd->b.ir->insts[r].swizzle = sw;
    return r;
}

/* A source operand as the op sees it: loaded and swizzled. */
static uint32_t read_source(build *bd, const agal_source *s)
{
    return swizzle(bd, read_row(bd, s, 0), s->swizzle);
}

/* The scalar of a condition / kil operand (its swizzle's first component). */
static uint32_t read_scalar(build *bd, const agal_source *s)
{
    uint32_t v = read_row(bd, s, 0);
    return v ? extract(bd, v, agal_swizzle_comp(s->swizzle, 0)) : 0;
}

/* Writes value v to the destination register under its mask: one new value. */
static bool write_dest(build *bd, const agal_dest *d, uint32_t v)
{
    agal_ir *ir = bd->b.ir;
    int s = agal_ir_reg_slot(ir->prog->stage, d->type, d->num);
    if (s < 0) return fail(bd, AGAL_ERR_INVALID, "destination register cannot be written");
    if (!v) return false;
    unsigned mask = d->mask & 0xfu;
    if (mask != 0xf) {
        uint32_t old = bd->b.regs.val[s] ? bd->b.regs.val[s] : zero(bd);
        uint32_t args[2] = {old, v};
        v = emit(bd, IR_MERGE, IR_F4, 2, args);
        if (!v) return false;
        ir->insts[v].mask = (uint8_t)mask;
    }
    ir->insts[v].reg_type = d->type;
    ir->insts[v].reg_num = d->num;
    bd->b.regs.val[s] = v;
    bd->b.regs.written[s] |= (uint8_t)mask;
    return true;
}

/* ---- one token ------------------------------------------------------------ */

static uint32_t op_value(build *bd, const agal_token *t, const agal_opinfo *info)
{
    uint32_t args[IR_MAX_ARGS] = {0};
    if (t->op == AGAL_OP_MOV) {
        args[0] = read_source(bd, &t->a);
        return emit(bd, IR_COPY, IR_F4, 1, args);
    }
    if (info->flags & AGAL_OPF_TEXTURE) {
        args[0] = read_source(bd, &t->a);
        uint32_t v = emit(bd, IR_TEX, IR_F4, 1, args);
        if (v) bd->b.ir->insts[v].aop = (uint8_t)t->op, bd->b.ir->insts[v].smp = t->s;
        return v;
    }
    unsigned rows = agal_opinfo_rows(info);
    args[0] = read_source(bd, &t->a);
    unsigned nargs = 1;
    if (rows) {
        /* Matrix rows are explicit reads of B.number + k (bounds-checked each, if indirect). */
        for (unsigned k = 0; k < rows; k++) args[nargs++] = read_row(bd, &t->b, k);
    } else if (info->operands & AGAL_OPND_B) {
        args[nargs++] = read_source(bd, &t->b);
    }
    uint32_t v = emit(bd, rows ? IR_MATRIX : IR_ALU, IR_F4, nargs, args);
    if (v) bd->b.ir->insts[v].aop = (uint8_t)t->op;
    return v;
}

static agal_status token(build *bd, const agal_token *t)
{
    const agal_opinfo *info = agal_opinfo_get(t->op);
    if (!info) return fail(bd, AGAL_ERR_INVALID, "unknown opcode"), bd->err;
    if (info->flags & AGAL_OPF_IF) {
        uint32_t args[2] = {read_scalar(bd, &t->a), read_scalar(bd, &t->b)};
        uint32_t c = emit(bd, IR_CMP, IR_B1, 2, args);
        if (!c) return bd->err;
        bd->b.ir->insts[c].aop = (uint8_t)t->op;
        return agal_ir_begin_if(&bd->b, c, bd->token);
    }
    if (info->flags & AGAL_OPF_ELSE) return agal_ir_begin_else(&bd->b, bd->token);
    if (info->flags & AGAL_OPF_ENDIF) return agal_ir_end_if(&bd->b, bd->token);
    if (t->op == AGAL_OP_KIL) {
        uint32_t a = read_scalar(bd, &t->a);
        emit(bd, IR_KIL, IR_VOID, 1, &a);
        return bd->err;
    }
    write_dest(bd, &t->dst, op_value(bd, t, info));
    return bd->err;
}

/* The final content of every output written anywhere, stored once at the end. */
static agal_status stores(build *bd)
{
    agal_ir *ir = bd->b.ir;
    bd->token = -1;
    for (int s = SLOT_OUT; s < IR_TRACKED_REGS; s++) {
        if (!bd->b.regs.written[s]) continue;
        uint32_t v = bd->b.regs.val[s];
        uint32_t st = emit(bd, IR_STORE, IR_VOID, 1, &v);
        if (!st) return bd->err ? bd->err : AGAL_ERR_NOMEM;
        unsigned type, num;
        agal_ir_slot_reg(s, &type, &num);
        ir->insts[st].reg_type = (uint8_t)type;
        ir->insts[st].reg_num = (uint16_t)num;
        ir->insts[st].mask = bd->b.regs.written[s];
    }
    return AGAL_OK;
}

agal_status agal_ir_build(agal_context *ctx, const agal_program *prog,
                          const agal_ir_options *opt, agal_ir **out)
{
    static const agal_ir_options defaults = {0};
    if (!ctx || !prog || !out) return AGAL_ERR_ARG;
    if (prog->ntokens > IR_MAX_TOKENS) /* agal_decode's cap is far below */
        return agal_error(ctx, 0, -1, -1, NULL, "program has %u tokens, more than %d", prog->ntokens, IR_MAX_TOKENS),
               AGAL_ERR_LIMIT;
    if (!opt) opt = &defaults;
    agal_ir *ir = agal_zalloc(ctx, sizeof *ir);
    if (!ir) return AGAL_ERR_NOMEM;
    ir->ctx = ctx;
    ir->prog = prog;
    ir->keep_copies = opt->keep_copies;
    /* Sized from the program (about 2 values a token on the corpus; matrices and
     * blocks make more, and then the array grows), so a large program does not
     * leave a trail of outgrown copies in the arena. */
    ir->inst_cap = 32 + 2 * prog->ntokens + prog->ntokens / 4;
    ir->insts = agal_alloc(ctx, ir->inst_cap * sizeof *ir->insts);
    if (!ir->insts) return AGAL_ERR_NOMEM;
    if (!agal_ir_new(ir, IR_NOP, IR_VOID, -1) && ir->ninsts == 0) return AGAL_ERR_NOMEM; /* index 0 */
    if (agal_ir_new_list(ir) != 0) return AGAL_ERR_NOMEM;
    build bd = {.b = {.ir = ir, .list = 0}, .err = AGAL_OK};
    for (uint32_t i = 0; i < prog->ntokens && bd.err == AGAL_OK; i++) {
        bd.token = (int)i;
        agal_status st = token(&bd, &prog->tokens[i]);
        if (st != AGAL_OK && bd.err == AGAL_OK) bd.err = st;
    }
    if (bd.err == AGAL_OK && bd.b.top) {
        bd.token = -1;
        fail(&bd, AGAL_ERR_INVALID, "block open at end of program");
    }
    if (bd.err != AGAL_OK) return bd.err;
    agal_status st = stores(&bd);
    if (st != AGAL_OK) return st;
    if (!opt->no_opt) agal_ir_optimize(ir);
    else agal_ir_count_uses(ir);
    *out = ir;
    return AGAL_OK;
}
