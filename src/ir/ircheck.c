/* ircheck.c: the IR checker (QBE's ssacheck, NIR's nir_validate_shader). It checks
 * the rules ir.h states, in one walk of the list tree:
 * - each listed instruction is a real one (not removed, not a constant), listed once,
 *   with the operand count and the result and operand types of its op's row;
 * - every operand is defined before its use on every path: a constant, or a value
 *   listed earlier in the same list or in an enclosing list before the if that holds
 *   the use; a phi's operands are defined at the end of its branch (then, else);
 * - phis stand only right after an if (or another phi of that if); stores only in
 *   the program's body; each branch list belongs to one if;
 * - with AGAL_IR_CHECK_USES: nuses and nlive are what the lists say (saturating);
 *   with AGAL_IR_CHECK_LIVE: nothing dead is listed (after dead code); both wherever
 *   ir->live_only says so;
 * - with AGAL_IR_CHECK_INFO, or where ir->info.gathered says it holds: ir->info is
 *   what the IR uses, gathered again;
 * - no value below ir->first_late_user has an operand numbered above its own;
 * - no value below ir->first_copy is a copy;
 * - no two loads of one register where ir->loads_unique says so;
 * - no ddy where ir->takes_ddy says none.
 * The pipeline runs it after every pass in the IR-check build; a fault is a bug,
 * reported as AGAL_ERR_INTERNAL naming the pass it follows. With AGAL_IR_CHECK_INPUT
 * the IR is the user's (read from text by ir_read.c): a fault is the input's, so it
 * is AGAL_ERR_INVALID, not a bug of ours. */
#include "ir.h"

#include <stdio.h>

typedef struct op_row {
    uint8_t result, min_args, max_args, arg_type;
} op_row;

static const op_row rows[IR_OP_COUNT] = {
#define AGAL_IR_OP_ROW(id, name, result, min_args, max_args, arg_type) {result, min_args, max_args, arg_type},
    AGAL_IR_OPS(AGAL_IR_OP_ROW)
#undef AGAL_IR_OP_ROW
};

enum { UNSEEN = 0, IN_SCOPE = 1, OUT_OF_SCOPE = 2 };
enum { MAX_NESTING = 64 }; /* far above AGAL's 4: a deeper tree is itself a fault */

typedef struct checker {
    const agal_ir *ir;
    const char *after;
    unsigned flags;
    uint8_t *state;     /* per value: UNSEEN, IN_SCOPE or OUT_OF_SCOPE */
    uint8_t *list_seen; /* per list: in the tree already */
    uint32_t *scope;    /* values defined in the lists open now, in order */
    uint32_t nscope, nlisted;
    agal_status st;
} checker;

/* Records the first fault. */
static bool fault(checker *c, uint32_t v, const char *fmt, ...)
{
    if (c->st != AGAL_OK) return false;
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const agal_ir_inst *in = v && v < c->ir->ninsts ? &c->ir->insts[v] : NULL;
    bool input = (c->flags & AGAL_IR_CHECK_INPUT) != 0;
    agal_status st = agal_error(c->ir->ctx, 0, in ? in->token : -1, -1, NULL, "%sIR check after %s: %%%u (%s): %s",
                                input ? "" : "internal: ", c->after, v, in ? agal_ir_op_name(in->op) : "-", what);
    c->st = st == AGAL_ERR_NOMEM ? st : input ? AGAL_ERR_INVALID : AGAL_ERR_INTERNAL;
    return false;
}

static bool valid_value(const checker *c, uint32_t v) { return v > 0 && v < c->ir->ninsts; }

/* Operand a of v is a constant or a value in scope. */
static bool defined(const checker *c, uint32_t a) { return c->ir->insts[a].op == IR_CONST || c->state[a] == IN_SCOPE; }

static bool check_operands(checker *c, uint32_t v)
{
    const agal_ir_inst *in = &c->ir->insts[v];
    const op_row *r = &rows[in->op];
    if (in->type != r->result) return fault(c, v, "result type %u, its op makes %u", in->type, r->result);
    if (in->nargs < r->min_args || in->nargs > r->max_args)
        return fault(c, v, "%u operands, its op takes %u to %u", in->nargs, r->min_args, r->max_args);
    for (unsigned i = 0; i < in->nargs; i++) {
        uint32_t a = in->args[i];
        if (!valid_value(c, a)) return fault(c, v, "operand %u is %%%u, no instruction", i, a);
        if (c->ir->insts[a].type != r->arg_type)
            return fault(c, v, "operand %u (%%%u) has type %u, its op reads %u", i, a, c->ir->insts[a].type,
                         r->arg_type);
        if (in->op != IR_PHI && !defined(c, a))
            return fault(c, v, "operand %u (%%%u) is not defined before this use", i, a);
    }
    return true;
}

/* The phis after the if at items[i] of l: operand `which` defined at this branch's end. */
static bool check_phi_side(checker *c, const agal_ir_list *l, uint32_t i, unsigned which)
{
    for (uint32_t k = i + 1; k < l->n && c->ir->insts[l->items[k]].op == IR_PHI; k++) {
        uint32_t p = l->items[k], a = c->ir->insts[p].args[which];
        if (c->ir->insts[p].nargs == 2 && valid_value(c, a) && !defined(c, a))
            return fault(c, p, "its %s operand %%%u is not defined at the end of that branch", which ? "else" : "then",
                         a);
    }
    return true;
}

/* Puts the values defined since `mark` out of scope (a branch ends). */
static void close_scope(checker *c, uint32_t mark)
{
    while (c->nscope > mark) c->state[c->scope[--c->nscope]] = OUT_OF_SCOPE;
}

static bool check_list(checker *c, uint32_t l, unsigned depth);

static bool check_if(checker *c, const agal_ir_list *parent, uint32_t i, unsigned depth)
{
    uint32_t v = parent->items[i];
    const agal_ir_inst *in = &c->ir->insts[v];
    if (in->then_list == in->else_list) return fault(c, v, "then and else are the same list %u", in->then_list);
    const uint32_t branch[2] = {in->then_list, in->else_list};
    for (unsigned which = 0; which < 2; which++) {
        uint32_t mark = c->nscope;
        if (!check_list(c, branch[which], depth + 1) || !check_phi_side(c, parent, i, which)) return false;
        close_scope(c, mark);
    }
    return true;
}

static bool check_inst(checker *c, const agal_ir_list *l, uint32_t i, unsigned depth)
{
    uint32_t v = l->items[i];
    if (!valid_value(c, v)) return fault(c, v, "listed, but no instruction");
    const agal_ir_inst *in = &c->ir->insts[v];
    if (c->state[v] != UNSEEN) return fault(c, v, "listed twice");
    if (in->op >= IR_OP_COUNT) return fault(c, v, "unknown op %u", in->op);
    if (in->op == IR_NOP) return fault(c, v, "removed, but still listed");
    if (in->op == IR_CONST) return fault(c, v, "a constant in a list");
    if (in->op == IR_STORE && depth) return fault(c, v, "a store inside a block");
    if (in->op == IR_PHI) {
        unsigned prev = i ? c->ir->insts[l->items[i - 1]].op : IR_NOP;
        if (prev != IR_IF && prev != IR_PHI) return fault(c, v, "a phi not right after an if");
    }
    if (!check_operands(c, v)) return false;
    if (in->op == IR_IF && !check_if(c, l, i, depth)) return false;
    c->state[v] = IN_SCOPE;
    c->scope[c->nscope++] = v;
    c->nlisted++;
    return true;
}

static bool check_list(checker *c, uint32_t l, unsigned depth)
{
    if (l >= c->ir->nlists) return fault(c, 0, "list %u does not exist", l);
    if (c->list_seen[l]) return fault(c, 0, "list %u is in the tree twice", l);
    if (depth > MAX_NESTING) return fault(c, 0, "lists nested deeper than %d", MAX_NESTING);
    c->list_seen[l] = 1;
    const agal_ir_list *list = &c->ir->lists[l];
    for (uint32_t i = 0; i < list->n; i++)
        if (!check_inst(c, list, i, depth)) return false;
    return true;
}

/* count[v]: the uses of v by the listed instructions. */
static void count_uses(checker *c, uint32_t *count)
{
    const agal_ir *ir = c->ir;
    for (uint32_t v = 1; v < ir->ninsts; v++) {
        const agal_ir_inst *in = &ir->insts[v];
        if (c->state[v] == UNSEEN) continue;
        for (unsigned a = 0; a < in->nargs; a++) count[in->args[a]]++;
    }
}

/* nuses and nlive as the lists say; with live, nothing dead listed, and where the
 * IR says so (live_only), not even an if nothing needs. */
static void check_uses(checker *c, const uint32_t *count, bool live)
{
    const agal_ir *ir = c->ir;
    if (ir->nlive != c->nlisted) fault(c, 0, "nlive is %u, the lists hold %u", ir->nlive, c->nlisted);
    for (uint32_t v = 1; v < ir->ninsts && c->st == AGAL_OK; v++) {
        const agal_ir_inst *in = &ir->insts[v];
        if (c->state[v] == UNSEEN && in->op != IR_CONST) continue;
        uint32_t want = count[v] < IR_MAX_USES ? count[v] : IR_MAX_USES;
        if (in->nuses != want) fault(c, v, "nuses is %u, its uses are %u", in->nuses, count[v]);
        else if (live && in->type != IR_VOID && in->op != IR_CONST && !count[v]) fault(c, v, "unused, but listed");
    }
    if (ir->live_only && c->st == AGAL_OK && agal_ir_find_dead(ir, count))
        fault(c, 0, "live_only, but a listed value is unused or an if is needed by nothing");
}

/* No value below first_late_user reads a later one (a pass that made one noted it). */
static void check_late_user(checker *c)
{
    uint32_t late = agal_ir_find_late_user(c->ir), noted = c->ir->first_late_user;
    if (late && (!noted || late < noted)) fault(c, late, "reads a later value, below first_late_user %%%u", noted);
}

/* A ddy only where the IR says there may be one (takes_ddy: lower_conventions.c). */
static void check_ddy(checker *c)
{
    if (!c->ir->takes_ddy && agal_ir_find_ddy(c->ir)) fault(c, 0, "a ddy, where takes_ddy says none");
}

/* No value below first_copy is a copy (a pass that made one noted it). */
static void check_first_copy(checker *c)
{
    uint32_t copy = agal_ir_find_copy(c->ir), noted = c->ir->first_copy;
    if (copy && (!noted || copy < noted)) fault(c, copy, "is a copy, below first_copy %%%u", noted);
}

/* No two loads of one register where loads_unique says so (a pass that added
 * one cleared it). */
static void check_loads_unique(checker *c)
{
    if (c->ir->loads_unique && !agal_ir_find_loads_unique(c->ir))
        fault(c, 0, "two loads of one register, where loads_unique says none");
}

/* The info record is what gathering it again finds (no stale fact after a pass). */
static void check_info(checker *c)
{
    agal_ir_info again;
    agal_ir_gather_info(c->ir, &again);
    if (memcmp(&again, &c->ir->info, sizeof again)) fault(c, 0, "its info record is not what it uses");
}

agal_status agal_ir_check(const agal_ir *ir, unsigned flags, const char *after)
{
    agal_context *ctx = ir->ctx;
    agal_arena_mark scratch = agal_arena_save(ctx);
    checker c = {.ir = ir, .after = after, .flags = flags, .st = AGAL_OK};
    /* One block for the scratch: given back after every pass, blocks of three sizes
     * let the same translation again take the arena's spares in another order than
     * the first time, and then ask the hook (test_arena, without opt_dce's scratch
     * between them). */
    size_t n = ir->ninsts, lists = ir->nlists ? ir->nlists : 1;
    uint32_t *words = agal_zalloc(ctx, 2 * n * sizeof *words + n + lists);
    if (!words) {
        agal_arena_restore(ctx, scratch);
        return AGAL_ERR_NOMEM;
    }
    /* live_only says the uses are counted and nothing is dead: checked after every pass */
    uint32_t *count = (flags & (AGAL_IR_CHECK_USES | AGAL_IR_CHECK_LIVE)) || ir->live_only ? words : NULL;
    c.scope = words + n;
    c.state = (uint8_t *)(words + 2 * n);
    c.list_seen = c.state + n;
    if (!ir->nlists) fault(&c, 0, "no program body");
    else if (check_list(&c, 0, 0) && count) {
        count_uses(&c, count);
        check_uses(&c, count, (flags & AGAL_IR_CHECK_LIVE) || ir->live_only);
    }
    if (c.st == AGAL_OK) check_late_user(&c);
    if (c.st == AGAL_OK) check_first_copy(&c);
    if (c.st == AGAL_OK) check_ddy(&c);
    if (c.st == AGAL_OK) check_loads_unique(&c);
    /* the info record, kept true by the passes since the builder while gathered says so */
    if (c.st == AGAL_OK && ((flags & AGAL_IR_CHECK_INFO) || ir->info.gathered)) check_info(&c);
    agal_status st = c.st;
    /* The diagnostic outlives the scratch: only the scratch made before it goes back. */
    if (st == AGAL_OK) agal_arena_restore(ctx, scratch);
    return st;
}
