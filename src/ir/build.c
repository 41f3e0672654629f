/* build.c: validated AGAL tokens -> SSA IR (see ir.h for the IR's shape).
 *
 * One forward walk over the tokens. Registers that are written (temporaries and
 * outputs) live in the builder's table as "current SSA value per register"; every
 * source read becomes an explicit load or the current value, then an explicit
 * swizzle; every write becomes one new value (a merge for partial masks). Blocks are
 * opened, switched and closed by join.c, which saves and joins the register table.
 * No pass runs here: agal_ir_pipeline runs them. */
#include "ir.h"

/* ---- building blocks ------------------------------------------------------ */

/* An indirect read made earlier that a later one may be: a relative read is an
 * address, a bounds check and a load, and m33 after m34 on the same rows
 * (skinning), or two tokens reading a row through an unchanged index register,
 * would make them again; not every driver merges them (docs/internals.md, "Figures
 * behind the decisions"). The read is reused while
 * the list it is in is still open (so it dominates) and the index register holds
 * the value it had: temporaries by their SSA value, the others never change. */
typedef struct shared_read {
    uint32_t list, index_value, v;
    uint16_t reg_num, index_num;
    uint8_t index_type, index_comp, depth;
} shared_read;
enum { SHARED_READS = 32, SHARED_DEPTH = 8 };

/* Failure is the sticky error (internal.h): every helper returns 0 on failure and
 * the caller propagates it; the cause is in err: out of memory, or a program the
 * validator should not have passed (AGAL_ERR_INTERNAL, with a diagnostic). */
typedef struct build {
    agal_ir_builder b;
    agal_status err;
    int token;
    uint16_t reg_count[AGAL_REG_TYPES]; /* the profile's, for this stage (read at every source) */
    uint32_t open[SHARED_DEPTH];        /* the list open at each block depth (0: the body); an
                                           entry is set when its depth opens */
    uint32_t shared_set;                /* bit n: shared[n] holds a read (the table is not cleared) */
    shared_read shared[SHARED_READS];   /* by shared_slot; a read replaces the one there */
} build;

static uint32_t fail(build *bd, agal_status st, const char *msg)
{
    if (bd->err == AGAL_OK && agal_fail(&bd->err, st) == AGAL_ERR_INTERNAL)
        agal_error(bd->b.ir->ctx, 0, bd->token, bd->token >= 0 ? agal_token_offset(bd->token) : -1, NULL,
                   "internal: %s", msg);
    return 0;
}

static uint32_t nomem(build *bd) { return fail(bd, AGAL_ERR_NOMEM, NULL); }

/* Appends a new instruction to the current list. */
static uint32_t emit(build *bd, agal_ir_op op, agal_ir_type type, unsigned nargs, const uint32_t *args)
{
    agal_ir *ir = bd->b.ir;
    for (unsigned i = 0; i < nargs; i++)
        if (!args[i]) return 0; /* an operand failed: already recorded */
    uint32_t v = agal_ir_add(ir, bd->b.list, op, type, bd->token, nargs, args);
    return v ? v : nomem(bd);
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
    if (num >= bd->reg_count[type < AGAL_REG_TYPES ? type : 0] &&
        !(type == AGAL_REG_IID && p->stage == AGAL_VERTEX && num == 0))
        return fail(bd, AGAL_ERR_INTERNAL, "register index out of range");
    switch (type) {
    case AGAL_REG_TEMP: {
        int s = agal_ir_reg_slot(p->stage, type, num);
        if (s < 0) return fail(bd, AGAL_ERR_INTERNAL, "temporary out of range");
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
    return fail(bd, AGAL_ERR_INTERNAL, "register type cannot be read here");
}

static uint32_t extract(build *bd, uint32_t v, unsigned comp)
{
    uint32_t e = emit(bd, IR_EXTRACT, IR_F1, 1, &v);
    if (e) bd->b.ir->insts[e].comp = (uint8_t)comp;
    return e;
}

/* The index register's value as a key: a temporary's current SSA value, 0 for the
 * registers a program cannot write. */
static uint32_t index_value(const build *bd, const agal_source *s)
{
    int slot = s->index_type == AGAL_REG_TEMP ? agal_ir_reg_slot(bd->b.ir->prog->stage, s->index_type, s->index_num)
                                              : -1;
    return slot >= 0 ? bd->b.regs.val[slot] : 0;
}

/* Where a read is kept: one place per register and index, so a lookup is one
 * comparison whatever the program (a program of relative reads makes one a token). */
static unsigned shared_slot(const shared_read *key)
{
    return (key->reg_num * 7u + key->index_num * 3u + key->index_type * 5u + key->index_comp) % SHARED_READS;
}

/* The shared_read this read can be, or NULL; key: what makes it the same read. */
static const shared_read *find_shared(const build *bd, const shared_read *key)
{
    if (key->depth >= SHARED_DEPTH) return NULL;
    unsigned slot = shared_slot(key);
    const shared_read *r = &bd->shared[slot];
    if (bd->shared_set >> slot & 1 && r->depth <= key->depth && bd->open[r->depth] == r->list &&
        r->reg_num == key->reg_num && r->index_type == key->index_type && r->index_num == key->index_num &&
        r->index_comp == key->index_comp && r->index_value == key->index_value)
        return r;
    return NULL;
}

/* vc[index.c + offset + row], bounds-checked at run time; made once while it can
 * be reused (shared_read). */
static uint32_t read_indirect(build *bd, const agal_source *s, unsigned row)
{
    const agal_program *p = bd->b.ir->prog;
    if (s->type != AGAL_REG_CONSTANT) return fail(bd, AGAL_ERR_INTERNAL, "indirect read of a non-constant");
    shared_read key = {.list = bd->b.list,
                       .index_value = index_value(bd, s),
                       .reg_num = (uint16_t)(s->num + row),
                       .index_num = s->index_num,
                       .index_type = s->index_type,
                       .index_comp = s->index_comp,
                       .depth = (uint8_t)(bd->b.depth < SHARED_DEPTH ? bd->b.depth : SHARED_DEPTH)};
    const shared_read *made = find_shared(bd, &key);
    if (made) return made->v;
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
    if (key.depth < SHARED_DEPTH) {
        unsigned n = shared_slot(&key);
        shared_read *slot = &bd->shared[n];
        *slot = key;
        slot->v = v; /* after the copy: a store into key just before would stall it */
        bd->shared_set |= 1u << n;
    }
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
static uint32_t read_source(build *bd, const agal_source *s) { return swizzle(bd, read_row(bd, s, 0), s->swizzle); }

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
    if (s < 0) return fail(bd, AGAL_ERR_INTERNAL, "destination register cannot be written");
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
        bd->b.ir->samples_in_blocks |= bd->b.top != NULL;
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

/* After a block opens, switches or closes: the list now open at its depth. */
static agal_status open_list(build *bd, agal_status st)
{
    if (bd->b.depth < SHARED_DEPTH) bd->open[bd->b.depth] = bd->b.list;
    return st;
}

static agal_status token(build *bd, const agal_token *t)
{
    const agal_opinfo *info = agal_opinfo_get(t->op);
    if (!info) return fail(bd, AGAL_ERR_INTERNAL, "unknown opcode"), bd->err;
    if (info->flags & AGAL_OPF_IF) {
        uint32_t args[2] = {read_scalar(bd, &t->a), read_scalar(bd, &t->b)};
        uint32_t c = emit(bd, IR_CMP, IR_B1, 2, args);
        if (!c) return bd->err;
        bd->b.ir->insts[c].aop = (uint8_t)t->op;
        return open_list(bd, agal_ir_push_if(&bd->b, c, bd->token));
    }
    if (info->flags & AGAL_OPF_ELSE) return open_list(bd, agal_ir_push_else(&bd->b, bd->token));
    if (info->flags & AGAL_OPF_ENDIF) return open_list(bd, agal_ir_pop_if(&bd->b, bd->token));
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
    for (int s = IR_SLOT_OUT; s < IR_TRACKED_REGS; s++) {
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

/* The IR and its first lists in one allocation, and with them, for a program small
 * enough that all of it is one bump allocation (AGAL_ARENA_LARGE), its
 * instructions and the body's items: a small program's IR costs one arena call.
 * A larger one's two arrays get blocks of their own, which grow in place, so the
 * same translation again takes back the same blocks. Both arrays are sized from
 * the program (about 2 values a token on the corpus; matrices and blocks make
 * more, and then an array grows). */
enum { FIRST_LISTS = 8 };
static agal_ir *new_ir(agal_context *ctx, uint32_t ntokens)
{
    uint32_t cap = 32 + 2 * ntokens + ntokens / 4;
    size_t head = sizeof(agal_ir) + FIRST_LISTS * sizeof(agal_ir_list);
    size_t insts = cap * sizeof(agal_ir_inst), items = cap * sizeof(uint32_t);
    _Static_assert(sizeof(agal_ir) % _Alignof(agal_ir_list) == 0 && sizeof(agal_ir_list) % _Alignof(agal_ir_inst) == 0,
                   "new_ir's arrays follow the IR aligned");
    bool one = head + insts + items < AGAL_ARENA_LARGE;
    char *p = agal_alloc(ctx, one ? head + insts + items : head);
    if (!p) return NULL;
    agal_ir *ir = (agal_ir *)p;
    memset(ir, 0, sizeof *ir);
    ir->lists = (agal_ir_list *)(p + sizeof *ir);
    ir->list_cap = FIRST_LISTS;
    ir->nlists = 1;
    ir->insts = one ? (agal_ir_inst *)(p + head) : agal_alloc(ctx, insts);
    ir->inst_cap = cap;
    uint32_t *body = one ? (uint32_t *)(p + head + insts) : agal_alloc(ctx, items);
    ir->lists[0] = (agal_ir_list){body, 0, cap};
    return ir->insts && body ? ir : NULL;
}

agal_status agal_ir_build(agal_context *ctx, const agal_program *prog, const agal_ir_options *opt, agal_ir **out)
{
    static const agal_ir_options defaults = {0};
    if (!ctx || !prog || !out) return AGAL_ERR_ARG;
    if (prog->ntokens > IR_MAX_TOKENS) /* agal_decode's cap is far below */
        return agal_error(ctx, 0, -1, -1, NULL, "program has %u tokens, more than %d", prog->ntokens, IR_MAX_TOKENS),
               AGAL_ERR_LIMIT;
    if (!opt) opt = &defaults;
    agal_ir *ir = new_ir(ctx, prog->ntokens);
    if (!ir) return AGAL_ERR_NOMEM;
    ir->ctx = ctx;
    ir->prog = prog;
    ir->keep_copies = opt->keep_copies;
    ir->unread_varyings = opt->unread_varyings;
    if (opt->packing) ir->packing = *opt->packing;
    ir->clip = opt->clip;
    ir->window_y_up = opt->window_y_up;
    agal_ir_new(ir, IR_NOP, IR_VOID, -1); /* index 0, in the room new_ir made */
    /* Not zeroed whole: the shared reads' table is read only where shared_set says. */
    build bd;
    bd.b = (agal_ir_builder){.ir = ir, .list = 0};
    bd.err = AGAL_OK;
    bd.token = -1;
    bd.open[0] = 0;
    bd.shared_set = 0;
    for (unsigned t = 0; t < AGAL_REG_TYPES; t++)
        bd.reg_count[t] = (uint16_t)agal_reg_count(prog->profile, prog->stage, (agal_regtype)t);
    for (uint32_t i = 0; i < prog->ntokens && bd.err == AGAL_OK; i++) {
        bd.token = (int)i;
        agal_status st = token(&bd, &prog->tokens[i]);
        if (st != AGAL_OK && bd.err == AGAL_OK) bd.err = st;
    }
    if (bd.err == AGAL_OK && bd.b.top) {
        bd.token = -1;
        fail(&bd, AGAL_ERR_INTERNAL, "block open at end of program");
    }
    if (bd.err != AGAL_OK) return bd.err;
    agal_status st = stores(&bd);
    if (st != AGAL_OK) return st;
    *out = ir;
    return AGAL_OK;
}
